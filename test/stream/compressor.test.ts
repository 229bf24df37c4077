import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openCompressor } from '../../src/stream/index.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function shared(text: string): Buffer {
  const bytes = Buffer.from(new SharedArrayBuffer(Buffer.byteLength(text)));
  bytes.write(text);
  return bytes;
}

describe('openCompressor', () => {
  it('gives back each member, in order, that decompresses to its bytes, with their hash when asked', async () => {
    const compressor = openCompressor();
    const inputs = [Buffer.from('{"a":1}\n'), shared('{"b":"é"}\n'.repeat(5000)), Buffer.alloc(0)];
    const members = inputs.map((bytes, index) => compressor.compress(bytes, { digest: index !== 0 }));
    const done = await Promise.all(members);
    await compressor.close();
    expect(done.map(({ member }) => gunzipSync(member).toString())).toEqual(inputs.map(String));
    expect(done.map(({ sha256: digest }) => digest)).toEqual([
      undefined,
      sha256(inputs[1]!),
      sha256(inputs[2]!),
    ]);
  });

  it('still gives back what it was asked for when its worker stops first', async () => {
    const compressor = openCompressor();
    const inputs = Array.from({ length: 6 }, (_, index) => shared(`{"n":${index}}\n`.repeat(200_000)));
    const members = inputs.map((bytes) => compressor.compress(bytes, { digest: true }));
    await compressor.close();
    const done = await Promise.all(members);
    for (const [index, { member, sha256: digest }] of done.entries()) {
      expect(gunzipSync(member).equals(inputs[index]!)).toBe(true);
      expect(digest).toBe(sha256(inputs[index]!));
    }
  });
});

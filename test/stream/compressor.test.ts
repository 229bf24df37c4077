import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openCompressor, readArchive } from '../../src/stream/index.ts';
import { useTempDirs } from '../helpers/home.ts';

const tempDir = useTempDirs();

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
    expect(done.map(({ member }) => gunzipSync(member!).toString())).toEqual(inputs.map(String));
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
      expect(gunzipSync(member!).equals(inputs[index]!)).toBe(true);
      expect(digest).toBe(sha256(inputs[index]!));
    }
  });

  it.each([
    ['on its worker', false],
    ['here, when its worker stopped first', true],
  ])('appends each member to its archive %s, cutting off what was never committed', async (_where, stop) => {
    const home = tempDir();
    const relative = 'raw/claude-code/s/a.g0.jsonl.gz';
    const meta = { source: '/x/a.jsonl', agent: 'claude-code', session: 's', generation: 0 };
    const compressor = openCompressor();
    const first = await compressor.compress(shared('{"a":1}\n'), {
      appendTo: { home, relative, committedBytes: 0, meta },
    });
    // A second read that a run wrote but never committed, then the read that replaced it.
    await compressor.compress(shared('{"lost":2}\n'), {
      appendTo: { home, relative, committedBytes: first.archiveBytes!, meta },
    });
    const pending = compressor.compress(shared('{"b":"é"}\n'.repeat(50_000)), {
      digest: true,
      appendTo: { home, relative, committedBytes: first.archiveBytes!, meta: { other: true } },
    });
    if (stop) await compressor.close();
    const last = await pending;
    await compressor.close();
    expect(last.member).toBeUndefined();
    expect(statSync(join(home, relative)).size).toBe(last.archiveBytes);
    const bytes = readArchive(home, relative, last.archiveBytes!);
    expect(bytes.toString()).toBe(`{"a":1}\n${'{"b":"é"}\n'.repeat(50_000)}`);
    expect(last.sha256).toBe(sha256(Buffer.from('{"b":"é"}\n'.repeat(50_000))));
    // The sidecar is written once, by the first member.
    expect(JSON.parse(readFileSync(join(home, `${relative}.meta.json`), 'utf8'))).toEqual(meta);
  });
});

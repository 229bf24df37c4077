import { spawn } from 'node:child_process';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RememError } from '../../src/core/index.ts';
import {
  generateIdentity,
  loadOrCreateIdentity,
  originOf,
  publicKeyPem,
  verifySignature,
} from '../../src/protocol/index.ts';

const freshHome = () => mkdtempSync(join(tmpdir(), 'remem-keys-'));

describe('loadOrCreateIdentity', () => {
  it('creates the key on first need, private to its owner, and finds it again', () => {
    const home = freshHome();
    const first = loadOrCreateIdentity(home);
    expect(statSync(join(home, 'keys')).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, 'keys', 'ed25519.pem')).mode & 0o777).toBe(0o600);
    const again = loadOrCreateIdentity(home);
    expect([again.origin, again.key]).toEqual([first.origin, first.key]);
    expect(first.key).toMatch(/^[0-9a-f]{64}$/);
    expect(first.origin).toMatch(/^[0-9a-f]{16}$/);
  });

  it('writes the public key as PEM, and the origin is the first 8 bytes of SHA-256 of the raw key', () => {
    const home = freshHome();
    const identity = loadOrCreateIdentity(home);
    const spki = createPublicKey(readFileSync(join(home, 'keys', 'ed25519.pub.pem'))).export({
      type: 'spki',
      format: 'der',
    });
    const raw = spki.subarray(-32);
    expect(raw.toString('hex')).toBe(identity.key);
    expect(identity.origin).toBe(createHash('sha256').update(raw).digest('hex').slice(0, 16));
  });

  it('signs with Ed25519 that node:crypto verifies', () => {
    const identity = loadOrCreateIdentity(freshHome());
    const message = Buffer.from('a lesson, signed');
    const sig = identity.sign(message);
    expect(sig).toHaveLength(64);
    expect(verify(null, message, createPublicKey(publicKeyPem(identity.key)), sig)).toBe(true);
    expect(verifySignature(identity.key, message, sig.toString('hex'))).toBe(true);
    expect(verifySignature(identity.key, Buffer.from('another'), sig.toString('hex'))).toBe(false);
  });

  it('explains a broken key file', () => {
    const home = freshHome();
    loadOrCreateIdentity(home);
    writeFileSync(join(home, 'keys', 'ed25519.pem'), 'not a key');
    expect(() => loadOrCreateIdentity(home)).toThrow(RememError);
    expect(() => loadOrCreateIdentity(home)).toThrow(/ed25519\.pem/);
  });

  it('gives processes racing on a fresh home one and the same key', async () => {
    const home = freshHome();
    const keys = resolve('src/protocol/keys.ts');
    const script = join(home, 'race.ts');
    writeFileSync(
      script,
      `import { loadOrCreateIdentity } from ${JSON.stringify(keys)};\nconsole.log(loadOrCreateIdentity(process.argv[2]).origin);\n`,
    );
    const run = () =>
      new Promise<string>((done, fail) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script, home], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
        });
        child.on('exit', (code) => (code === 0 ? done(out.trim()) : fail(new Error(`exit ${code}`))));
      });
    const origins = await Promise.all([run(), run(), run(), run()]);
    expect(new Set(origins).size).toBe(1);
    expect(origins[0]).toBe(loadOrCreateIdentity(home).origin);
  });
});

describe('verifySignature', () => {
  it('says no, without throwing, to malformed keys and signatures', () => {
    const identity = generateIdentity();
    const sig = identity.sign(Buffer.from('x')).toString('hex');
    expect(verifySignature('zz', Buffer.from('x'), sig)).toBe(false);
    expect(verifySignature(identity.key, Buffer.from('x'), sig.toUpperCase())).toBe(false);
    expect(verifySignature(identity.key, Buffer.from('x'), sig.slice(2))).toBe(false);
    expect(verifySignature('00'.repeat(32), Buffer.from('x'), sig)).toBe(false);
  });

  it('fingerprints a key the same way everywhere', () => {
    const identity = generateIdentity();
    expect(originOf(identity.key)).toBe(identity.origin);
  });
});

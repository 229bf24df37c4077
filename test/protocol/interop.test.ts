import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cutSignature,
  generateIdentity,
  identityFromPrivateKey,
  parseRecordLine,
  publicKeyPem,
  scanJson,
  signRecord,
} from '../../src/protocol/index.ts';
import { hasOpenssl, hasPython } from './helpers.ts';

const workDir = () => mkdtempSync(join(tmpdir(), 'remem-interop-'));

function openssl(args: string[]): { status: number | null; stdout: string } {
  const result = spawnSync('openssl', args, { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout + result.stderr };
}

/** The signed text of a line and its signature bytes, as a third party would take them apart. */
function split(line: string): { message: Buffer; sig: Buffer } {
  const scan = scanJson(line);
  if (!scan.ok) throw new Error(scan.reason);
  const value = scan.value as { sig: string };
  return {
    message: Buffer.from(cutSignature(line, scan.members) ?? '', 'utf8'),
    sig: Buffer.from(value.sig, 'hex'),
  };
}

describe.skipIf(!hasOpenssl)('signatures checked by the OpenSSL command line', () => {
  it.each([
    [
      'a lesson',
      {
        kind: 'surprise',
        text: 'Сборка падает без кеша — “cache” ΟΔΟΣ 🚀',
        seen: 3,
        strength: 2,
        updated: '2026-11-13T04:00:00Z',
      },
    ],
    ['a confirmation', { confirm: '0123456789abcdef0123456789abcdef', updated: '2026-11-13' }],
    ['a revocation', { revoke: '0123456789abcdef0123456789abcdef', updated: '2026-11-13' }],
  ] as const)('verifies %s Remem signed, and not once the message changes', (_, fields) => {
    const identity = generateIdentity();
    const { message, sig } = split(signRecord(identity, fields));
    const dir = workDir();
    writeFileSync(join(dir, 'pub.pem'), publicKeyPem(identity.key));
    writeFileSync(join(dir, 'msg'), message);
    writeFileSync(join(dir, 'sig'), sig);
    const args = [
      'pkeyutl',
      '-verify',
      '-pubin',
      '-inkey',
      join(dir, 'pub.pem'),
      '-rawin',
      '-in',
      join(dir, 'msg'),
      '-sigfile',
      join(dir, 'sig'),
    ];
    const good = openssl(args);
    expect(good.stdout).toContain('Signature Verified Successfully');
    expect(good.status).toBe(0);
    writeFileSync(join(dir, 'msg'), Buffer.concat([message, Buffer.from(' ')]));
    expect(openssl(args).status).not.toBe(0);
  });
});

/**
 * Another implementation: Python serialises, OpenSSL makes the key and signs. Nothing of Remem's runs here.
 * It writes one lesson, one confirmation and one revocation, one line each, to `records.jsonl`.
 */
const pythonWriter = String.raw`
import hashlib, json, subprocess, sys
d = sys.argv[1]
subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", d + "/priv.pem"], check=True)
der = subprocess.run(["openssl", "pkey", "-in", d + "/priv.pem", "-pubout", "-outform", "DER"], check=True, capture_output=True).stdout
raw = der[-32:]
key = raw.hex()
origin = hashlib.sha256(raw).hexdigest()[:16]
def dumps(record):
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
def signed(record):
    open(d + "/msg", "wb").write(dumps(record).encode("utf-8"))
    subprocess.run(["openssl", "pkeyutl", "-sign", "-inkey", d + "/priv.pem", "-rawin", "-in", d + "/msg", "-out", d + "/sig"], check=True)
    return dumps(dict(record, sig=open(d + "/sig", "rb").read().hex()))
kind, text = "surprise", "Сборка падает без кеша — “cache”\u00a0ΟΔΟΣ 🚀 \"quoted\" \\ path"
h = hashlib.blake2b((kind + " ".join(text.lower().split())).encode("utf-8"), digest_size=16).hexdigest()
parent = hashlib.blake2b(b"errorthe parent", digest_size=16).hexdigest()
common = {"v": 1, "origin": origin, "key": key, "updated": "2026-11-13T04:00:00.123456+00:00"}
lines = [
    signed(dict(common, hash=h, kind=kind, text=text, seen=3, strength=2.0, parents=[parent])),
    signed(dict(common, confirm=h)),
    signed(dict(common, revoke=h)),
]
open(d + "/records.jsonl", "wb").write(("\n".join(lines) + "\n").encode("utf-8"))
`;

describe.skipIf(!hasOpenssl || !hasPython)('records that Python serialised and OpenSSL signed', () => {
  const dir = workDir();
  const lines: Buffer[] = [];

  beforeAll(() => {
    const made = spawnSync('python3', ['-c', pythonWriter, dir], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(made.stderr);
    const bytes = readFileSync(join(dir, 'records.jsonl'));
    for (let at = 0; at < bytes.length; ) {
      const end = bytes.indexOf(0x0a, at);
      lines.push(bytes.subarray(at, end));
      at = end + 1;
    }
    expect(lines).toHaveLength(3);
  });

  it('are accepted', () => {
    const kinds = lines.map((line) => {
      const parsed = parseRecordLine(line);
      if ('refused' in parsed) throw new Error(parsed.refused);
      return parsed.kind;
    });
    expect(kinds).toEqual(['lesson', 'confirm', 'revoke']);
    expect(lines[0]!.toString()).toContain('"strength":2.0,');
  });

  it('are refused once any one byte changes', () => {
    for (const line of lines) {
      for (let at = 0; at < line.length; at++) {
        for (const flip of [0x01, 0x20, 0x80]) {
          const mutated = Buffer.from(line);
          mutated[at] = mutated[at]! ^ flip;
          const parsed = parseRecordLine(mutated);
          expect('refused' in parsed, `byte ${at} ^ ${flip} of ${line.toString()}`).toBe(true);
        }
      }
    }
  });

  it('are what Remem writes, byte for byte, for the same fields and key', () => {
    const identity = identityFromPrivateKey(readFileSync(join(dir, 'priv.pem'), 'utf8'));
    const lesson = parseRecordLine(lines[0]!);
    if ('refused' in lesson || lesson.kind !== 'lesson') throw new Error('lesson refused');
    const { kind, text, seen, strength, updated, parents = [] } = lesson.record;
    expect(signRecord(identity, { kind, text, seen, strength, updated, parents })).toBe(
      lines[0]!.toString('utf8'),
    );
    expect(signRecord(identity, { confirm: lesson.record.hash, updated })).toBe(lines[1]!.toString('utf8'));
  });
});

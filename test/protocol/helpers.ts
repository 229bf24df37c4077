import { spawnSync } from 'node:child_process';
import { canonicalJson, type Identity, type JsonValue } from '../../src/protocol/index.ts';

const floatKeys = new Set(['strength']);

/** Signs any object the way `signRecord` does, without its checks: for lines a receiver must refuse. */
export function signAnything(identity: Identity, record: Record<string, JsonValue>): string {
  const unsigned = canonicalJson(record, { floatKeys });
  const sig = identity.sign(Buffer.from(unsigned, 'utf8')).toString('hex');
  return canonicalJson({ ...record, sig }, { floatKeys });
}

/** Signs already serialised text and puts `"sig":"…"` after `before` (a member's end), as another writer might. */
export function signText(identity: Identity, unsigned: string, after: string): string {
  const sig = identity.sign(Buffer.from(unsigned, 'utf8')).toString('hex');
  const at = unsigned.indexOf(after) + after.length;
  return `${unsigned.slice(0, at)},"sig":"${sig}"${unsigned.slice(at)}`;
}

export function hasCommand(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

export const hasPython = hasCommand('python3', ['-c', 'import hashlib, json']);
export const hasOpenssl = hasCommand('openssl', ['version']);

/** Runs a Python program with JSON in and JSON out. */
export function runPython(program: string, input: unknown): unknown {
  const result = spawnSync('python3', ['-c', program], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`python3 failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

// SHA-256 in JavaScript: loading node:crypto costs a hook process more than all of its answer.
import { sha256 } from '@noble/hashes/sha2.js';

/**
 * Whether a session is held out: every prime in it is worked out and logged but not shown, so what
 * follows shown primes can be compared with what follows held-back ones. Decided by SHA-256 of the
 * session id, so every hook of a session, on any machine, decides the same.
 */
export function isHeldOut(session: string, share: number): boolean {
  if (share <= 0) return false;
  if (share >= 1) return true;
  const digest = sha256(Buffer.from(session, 'utf8'));
  const first = ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) >>> 0;
  return first / 2 ** 32 < share;
}

import { createHash } from 'node:crypto';

/**
 * Whether a session is held out: every prime in it is worked out and logged but not shown, so what
 * follows shown primes can be compared with what follows held-back ones. Decided by SHA-256 of the
 * session id, so every hook of a session, on any machine, decides the same.
 */
export function isHeldOut(session: string, share: number): boolean {
  if (share <= 0) return false;
  if (share >= 1) return true;
  const digest = createHash('sha256').update(session).digest();
  return digest.readUInt32BE(0) / 2 ** 32 < share;
}

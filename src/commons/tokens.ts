import { createHash, randomBytes } from 'node:crypto';
import type { Origin } from '../protocol/index.ts';
import type { CommonsStore, TokenRow } from './store.ts';

const prefix = 'rct_';

/** The form a token is stored in: SHA-256 of the secret, hex. A stolen database holds no usable token. */
export function hashToken(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export interface IssuedToken {
  /** The secret, shown once. */
  token: string;
  row: TokenRow;
}

/** Makes a write token bound to one origin, or to any when `origin` is null, and stores its hash. */
export async function issueToken(
  store: CommonsStore,
  options: { origin: Origin | null; now: string },
): Promise<IssuedToken> {
  const token = `${prefix}${randomBytes(32).toString('base64url')}`;
  const row: TokenRow = {
    id: randomBytes(6).toString('hex'),
    origin: options.origin,
    created: options.now,
    revoked: null,
  };
  await store.addToken({ ...row, hash: hashToken(token) });
  return { token, row };
}

/** The live token an `Authorization: Bearer …` header names, or null. */
export async function findBearer(store: CommonsStore, header: string | undefined): Promise<TokenRow | null> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (match === null) return null;
  const row = await store.findToken(hashToken(match[1]!));
  return row === null || row.revoked !== null ? null : row;
}

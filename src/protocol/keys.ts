import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Brand } from '../core/index.ts';
import { RememError } from '../core/index.ts';

/** A memory's id: the first 8 bytes of SHA-256 of its raw Ed25519 public key, 16 lowercase hex characters. */
export type Origin = Brand<string, 'Origin'>;

/** A memory's signing identity. The private key never leaves the closure. */
export interface Identity {
  readonly origin: Origin;
  /** The raw 32-byte Ed25519 public key, 64 lowercase hex characters. */
  readonly key: string;
  /** Ed25519 (RFC 8032, pure: no prehash) signature of `bytes`, 64 bytes. */
  sign(bytes: Uint8Array): Buffer;
}

const privateFile = 'ed25519.pem';
const publicFile = 'ed25519.pub.pem';

/** The fingerprint a record's `origin` must equal: SHA-256 of the raw public key, first 8 bytes, hex. */
export function originOf(keyHex: string): Origin {
  return createHash('sha256').update(Buffer.from(keyHex, 'hex')).digest('hex').slice(0, 16) as Origin;
}

function rawPublicKey(key: KeyObject): string {
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  return Buffer.from(jwk.x ?? '', 'base64url').toString('hex');
}

/** The public key object for a raw key in hex. Throws when it is not 32 bytes. */
export function publicKeyFromHex(keyHex: string): KeyObject {
  if (!/^[0-9a-f]{64}$/.test(keyHex)) {
    throw new RememError('bad_key', 'an Ed25519 public key is 64 lowercase hex characters');
  }
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(keyHex, 'hex').toString('base64url') },
    format: 'jwk',
  });
}

/** The public key as SPKI PEM, the form `openssl pkeyutl -pubin` reads. */
export function publicKeyPem(keyHex: string): string {
  return publicKeyFromHex(keyHex).export({ type: 'spki', format: 'pem' }).toString();
}

/** An identity over an Ed25519 private key (a KeyObject or PKCS#8 PEM). */
export function identityFromPrivateKey(privateKey: KeyObject | string): Identity {
  const keyObject = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  if (keyObject.asymmetricKeyType !== 'ed25519') {
    throw new RememError(
      'bad_key',
      `expected an Ed25519 private key, got ${keyObject.asymmetricKeyType ?? 'none'}`,
    );
  }
  const key = rawPublicKey(keyObject);
  return Object.freeze({
    origin: originOf(key),
    key,
    sign: (bytes: Uint8Array) => sign(null, bytes, keyObject),
  });
}

/** A fresh identity held only in memory. */
export function generateIdentity(): Identity {
  return identityFromPrivateKey(generateKeyPairSync('ed25519').privateKey);
}

/**
 * This memory's identity, from `<home>/keys/`, created on first need: the private key as PKCS#8 PEM, mode 0600,
 * in a folder of mode 0700; the public key beside it for anyone who wants to check a signature by hand.
 * Two processes starting at once end with the same key: the file appears whole or not at all.
 */
export function loadOrCreateIdentity(home: string): Identity {
  const dir = join(home, 'keys');
  const file = join(dir, privateFile);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  if (!existsSync(file)) createKeyFile(dir, file);
  let identity: Identity;
  try {
    identity = identityFromPrivateKey(readFileSync(file, 'utf8'));
  } catch (error) {
    if (error instanceof RememError) throw new RememError(error.code, `${file}: ${error.message}`);
    throw new RememError(
      'bad_key',
      `${file} is not a readable Ed25519 private key: ${(error as Error).message}`,
    );
  }
  const pub = join(dir, publicFile);
  if (!existsSync(pub)) writeFileSync(pub, publicKeyPem(identity.key), { mode: 0o644 });
  return identity;
}

function createKeyFile(dir: string, file: string): void {
  const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' });
  const temporary = join(dir, `.${privateFile}.${process.pid}.${randomBytes(6).toString('hex')}`);
  writeFileSync(temporary, pem, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file); // fails when another process got there first; its key wins
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/** Whether `sigHex` is a valid Ed25519 signature of `bytes` by the raw public key `keyHex`. Never throws. */
export function verifySignature(keyHex: string, bytes: Uint8Array, sigHex: string): boolean {
  if (!/^[0-9a-f]{128}$/.test(sigHex)) return false;
  try {
    return verify(null, bytes, publicKeyFromHex(keyHex), Buffer.from(sigHex, 'hex'));
  } catch {
    return false;
  }
}

import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { FileToPut, StoredRecord } from '../../src/commons/index.ts';
import {
  generateIdentity,
  type Identity,
  type ParsedRecord,
  parseRecordLine,
  signRecord,
  timeKey,
} from '../../src/protocol/index.ts';

/** A few identities made once per test file: key generation is the slow part of a fixture. */
export const identities: Identity[] = Array.from({ length: 8 }, () => generateIdentity());
export const [alice, bob, carol, dave, erin, frank, grace, heidi] = identities as [
  Identity,
  Identity,
  Identity,
  Identity,
  Identity,
  Identity,
  Identity,
  Identity,
];

const texts = [
  'The build fails when the cache directory is missing.',
  'The integration tests time out when the database container starts cold.',
  'The release script stops at the changelog step on a dirty tree.',
  'The linter reports nothing when the config file has a trailing comma.',
  'The dev server serves stale bundles after the lock file changes.',
];

export function lessonText(n: number): string {
  return texts[n % texts.length]! + (n >= texts.length ? ` Seen ${n} times.` : '');
}

export function lesson(identity: Identity, n: number, updated: string): string {
  return signRecord(identity, { kind: 'error', text: lessonText(n), seen: 1, strength: 1, updated });
}

export function confirm(identity: Identity, hash: string, updated: string): string {
  return signRecord(identity, { confirm: hash, updated });
}

export function revoke(identity: Identity, hash: string, updated: string): string {
  return signRecord(identity, { revoke: hash, updated });
}

export function parsed(line: string): ParsedRecord {
  const result = parseRecordLine(line);
  if ('refused' in result) throw new Error(`fixture refused: ${result.refused}`);
  return result;
}

export function hashOf(line: string): string {
  const record = parsed(line);
  if (record.kind !== 'lesson') throw new Error('not a lesson');
  return record.record.hash;
}

export function fileOf(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`;
}

/** A file ready for `CommonsStore.putFile`, from lines signed by one identity. */
export function fileToPut(identity: Identity, lines: readonly string[]): FileToPut {
  const records: StoredRecord[] = lines.map((line) => {
    const record = parsed(line);
    const hash =
      record.kind === 'lesson'
        ? record.record.hash
        : record.kind === 'confirm'
          ? record.record.confirm
          : record.record.revoke;
    return { kind: record.kind, hash, updatedKey: timeKey(record.record.updated)!, line };
  });
  const latest = records.reduce((a, b) => (a.updatedKey >= b.updatedKey ? a : b));
  return {
    origin: identity.origin,
    body: Buffer.from(fileOf(lines)),
    updated: parsed(latest.line).record.updated,
    updatedKey: latest.updatedKey,
    records,
  };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'remem-commons-'));
}

export const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();

/** The PostgreSQL test database on 127.0.0.1:5432 as user postgres or the current user, or null. */
export async function findPostgres(): Promise<string | null> {
  const users = [...new Set(['postgres', userInfo().username])];
  for (const user of users) {
    const url = `postgres://${user}@127.0.0.1:5432/test`;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return url;
    } catch {
      // try the next user
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return null;
}

export function uniqueSchema(): string {
  return `commons_test_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export async function dropSchemas(url: string, schemas: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

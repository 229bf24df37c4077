import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CommonsStore,
  createCommonsApp,
  issueToken,
  openCommonsStore,
} from '../../src/commons/index.ts';
import { generateIdentity, signRecord } from '../../src/protocol/index.ts';
import { createStoreHolder, receive, share } from '../../src/share/index.ts';
import { enableSharing, listLessons, provenanceOf } from '../../src/store/index.ts';
import {
  createCommonsClient,
  createGossipRoutes,
  fetchMemoryFiles,
  memoryFileBody,
  pullFromPeers,
  readMemoryFiles,
  writeMemoryFile,
} from '../../src/transport/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { at, openTempStore, ownLesson, params } from './share-fixtures.ts';

const tempDir = useTempDirs();
const commonsStores: CommonsStore[] = [];
afterEach(async () => {
  await Promise.all(commonsStores.splice(0).map((store) => store.close()));
});

const text = 'The integration tests time out when the database container is still starting.';

describe('the folder transport', () => {
  it('writes a memory file whole and reads every other one, checked line by line', () => {
    const dir = join(tempDir(), 'shared');
    const me = generateIdentity();
    const other = generateIdentity();
    const line = signRecord(other, { kind: 'error', text, seen: 1, strength: 1, updated: at(0) });
    writeMemoryFile(dir, me.origin, [
      signRecord(me, { kind: 'error', text, seen: 1, strength: 1, updated: at(0) }),
    ]);
    writeMemoryFile(dir, other.origin, [line, line.replace('time out', 'time-out')]);
    writeFileSync(join(dir, 'notes.jsonl'), 'not a memory\n');
    writeFileSync(join(dir, `.${other.origin}.jsonl.abc.tmp`), 'half a file');
    mkdirSync(join(dir, '0123456789abcdef.jsonl'));
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toHaveLength(1);
    expect(readFileSync(join(dir, `${other.origin}.jsonl`), 'utf8')).toBe(
      memoryFileBody([line, line.replace('time out', 'time-out')]),
    );

    const files = readMemoryFiles(dir, { except: me.origin, now: at(1) });
    expect(files.map((file) => file.origin)).toEqual([other.origin]);
    expect(files[0]!.records.map((record) => record.line)).toEqual([line]);
    expect(files[0]!.refused.map((refusal) => [refusal.line, refusal.code])).toEqual([[2, 'signature']]);
    expect(readMemoryFiles(join(dir, 'missing'), { now: at(1) })).toEqual([]);
  });

  it('refuses a file over the size limit unread, and records dated in the future', () => {
    const dir = tempDir();
    const other = generateIdentity();
    const future = signRecord(other, { kind: 'error', text, seen: 1, strength: 1, updated: at(9) });
    writeMemoryFile(dir, other.origin, [future]);
    const [file] = readMemoryFiles(dir, { now: at(1) });
    expect(file!.refused.map((refusal) => refusal.code)).toEqual(['future']);
    const [large] = readMemoryFiles(dir, { now: at(10), limits: { maxRecords: 10, maxBytes: 100 } });
    expect(large!.problem?.code).toBe('too_large');
  });
});

describe('the commons', () => {
  it('takes a shared file and serves it to a receiver, which checks it again', async () => {
    const commons = await openCommonsStore('sqlite::memory:');
    commonsStores.push(commons);
    const app = createCommonsApp({ store: commons, now: () => at(2) });
    const fetchLike = ((input: string | URL | Request, init?: RequestInit) =>
      app.request(String(input), init)) as typeof fetch;
    const token = (await issueToken(commons, { origin: null, now: at(0) })).token;
    const url = 'http://localhost/';

    const a = openTempStore(tempDir());
    const b = openTempStore(tempDir());
    try {
      const memoryA = generateIdentity();
      const memoryB = generateIdentity();
      const id = ownLesson(a.db, { text });
      enableSharing(a.db, '/work/project', at(1));
      const shared = share(a, memoryA, { now: at(1), params });
      const writer = createCommonsClient({ url, fetch: fetchLike, token });
      expect(await writer.publish(memoryA.origin, memoryFileBody(shared.lines))).toMatchObject({ ok: true });

      const reader = createCommonsClient({ url, fetch: fetchLike });
      const files = await fetchMemoryFiles(reader, { url, except: memoryB.origin, now: at(2) });
      expect(files.map((file) => file.source)).toEqual([`http://localhost/commons/${memoryA.origin}.jsonl`]);
      expect(receive(b, memoryB, files, { now: at(2), params })).toMatchObject({ received: 1, refused: 0 });
      expect(listLessons(b.db)[0]).toMatchObject({ origin: memoryA.origin, review: 'pending_review' });
      expect(provenanceOf(a.db, id).origin).toBe('self');
    } finally {
      a.close();
      b.close();
    }
  });
});

describe('gossip over the store', () => {
  it("serves a memory's records byte for byte and takes a peer's through receive", async () => {
    const a = openTempStore(tempDir());
    const b = openTempStore(tempDir());
    try {
      const memoryA = generateIdentity();
      const memoryB = generateIdentity();
      ownLesson(a.db, { text });
      enableSharing(a.db, '/work/project', at(1));
      const shared = share(a, memoryA, { now: at(1), params });
      const holderA = createStoreHolder(a, memoryA, { now: () => at(2), params });
      expect(holderA.lines(memoryA.origin)).toEqual(shared.lines);
      const app = createGossipRoutes({ holder: holderA });
      const fetchLike = ((input: string | URL | Request, init?: RequestInit) =>
        app.request(String(input), init)) as typeof fetch;

      const holderB = createStoreHolder(b, memoryB, { now: () => at(2), params });
      const pulled = await pullFromPeers(['http://peer-a.test'], holderB, { fetch: fetchLike, now: at(2) });
      expect(pulled.peers[0]).toMatchObject({ ok: true, accepted: 1 });
      expect(listLessons(b.db)[0]).toMatchObject({ text, origin: memoryA.origin, review: 'pending_review' });
      expect(holderB.lines(memoryA.origin)).toEqual(shared.lines);
      const again = await pullFromPeers(['http://peer-a.test'], holderB, { fetch: fetchLike, now: at(3) });
      expect(again.peers[0]).toMatchObject({ ok: true, origins: 0 });
    } finally {
      a.close();
      b.close();
    }
  });
});

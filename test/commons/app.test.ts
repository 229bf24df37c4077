import { afterEach, describe, expect, it } from 'vitest';
import {
  type CommonsDeps,
  type CommonsStore,
  createCommonsApp,
  issueToken,
  openCommonsStore,
} from '../../src/commons/index.ts';
import type { Identity } from '../../src/protocol/index.ts';
import { signAnything } from '../protocol/helpers.ts';
import {
  alice,
  bob,
  carol,
  confirm,
  dave,
  day,
  fileOf,
  hashOf,
  identities,
  lesson,
  revoke,
} from './helpers.ts';

const stores: CommonsStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function setup(deps: Partial<CommonsDeps> = {}) {
  const store = await openCommonsStore('sqlite::memory:');
  stores.push(store);
  const app = createCommonsApp({ store, now: () => day(10), ...deps });
  const tokens = new Map<string, string>();
  const tokenFor = async (identity: Identity) => {
    let token = tokens.get(identity.origin);
    if (token === undefined) {
      token = (await issueToken(store, { origin: identity.origin, now: day(0) })).token;
      tokens.set(identity.origin, token);
    }
    return token;
  };
  const put = async (identity: Identity, body: RequestInit['body'], headers: Record<string, string> = {}) =>
    app.request(`/commons/${identity.origin}.jsonl`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${await tokenFor(identity)}`, ...headers },
      body,
      duplex: 'half',
    } as RequestInit);
  const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });
  return { app, store, put, get, tokenFor };
}

interface Refused {
  error: string;
  message: string;
  refused: { line: number; code: string; reason: string }[];
}

describe('the commons server: files', () => {
  it('takes a signed file and serves it back byte for byte, readable from any page', async () => {
    const { put, get } = await setup();
    // CRLF line ends and no final newline: still the same records, and the bytes are kept as sent.
    const body = `${lesson(alice, 0, day(1))}\r\n${lesson(alice, 1, day(3))}`;
    const response = await put(alice, body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      origin: alice.origin,
      updated: day(3),
      records: 2,
      bytes: Buffer.byteLength(body),
      unchanged: false,
    });
    const read = await get(`/commons/${alice.origin}.jsonl`);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(read.headers.get('access-control-allow-origin')).toBe('*');
    expect(Buffer.from(await read.arrayBuffer()).equals(Buffer.from(body))).toBe(true);
    expect((await put(alice, body)).status).toBe(200);
    expect((await get(`/commons/${bob.origin}.jsonl`)).status).toBe(404);
    expect((await get('/commons/not-an-origin.jsonl')).status).toBe(404);
  });

  it('lists files by time, paged, and from a point in time', async () => {
    const { put, get } = await setup();
    const writers = identities.slice(0, 5);
    for (const [n, identity] of writers.entries()) {
      expect((await put(identity, fileOf([lesson(identity, n, day(n + 1))]))).status).toBe(200);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${cursor}`;
      const page = (await (await get(`/commons/index${query}`)).json()) as {
        entries: { origin: string; updated: string; records: number }[];
        cursor: string | null;
      };
      expect(page.entries.length).toBeLessThanOrEqual(2);
      seen.push(...page.entries.map((entry) => entry.origin));
      cursor = page.cursor;
    } while (cursor !== null);
    expect(seen).toEqual(writers.map((identity) => identity.origin));

    const since = (await (await get(`/commons/index?since=${day(3)}`)).json()) as { entries: unknown[] };
    expect(since.entries).toEqual(
      writers.slice(3).map((identity, n) => ({ origin: identity.origin, updated: day(n + 4), records: 1 })),
    );
    for (const query of ['since=yesterday', 'cursor=nonsense', 'limit=0', 'limit=5000']) {
      expect((await get(`/commons/index?${query}`)).status).toBe(400);
    }
  });

  it('loses no record when fifty origins publish at once', async () => {
    const { put, get } = await setup();
    const { generateIdentity } = await import('../../src/protocol/index.ts');
    const writers = Array.from({ length: 50 }, () => generateIdentity());
    const bodies = writers.map((identity, n) =>
      fileOf([lesson(identity, n, day(1)), lesson(identity, n + 1, day(2))]),
    );
    const answers = await Promise.all(writers.map((identity, n) => put(identity, bodies[n]!)));
    expect(answers.map((answer) => answer.status)).toEqual(writers.map(() => 200));
    const index = (await (await get('/commons/index')).json()) as { entries: { records: number }[] };
    expect(index.entries).toHaveLength(50);
    expect(index.entries.every((entry) => entry.records === 2)).toBe(true);
    for (const [n, identity] of writers.entries()) {
      expect(await (await get(`/commons/${identity.origin}.jsonl`)).text()).toBe(bodies[n]);
    }
  });
});

describe('the commons server: lessons and their states', () => {
  it('serves lessons with their state and confirmation count', async () => {
    const { put, get } = await setup();
    const published = lesson(alice, 0, day(1));
    const other = lesson(alice, 1, day(1));
    const hash = hashOf(published);
    await put(alice, fileOf([published, other]));
    for (const identity of [bob, carol, dave]) await put(identity, fileOf([confirm(identity, hash, day(2))]));

    const common = (await (await get('/commons/lessons?state=common')).json()) as {
      lessons: { hash: string; state: string; confirmations: number; line: string }[];
    };
    expect(common.lessons).toEqual([
      expect.objectContaining({ hash, state: 'common', confirmations: 3, line: published }),
    ]);
    const candidates = (await (await get('/commons/lessons?state=candidate')).json()) as {
      lessons: { hash: string }[];
    };
    expect(candidates.lessons.map((l) => l.hash)).toEqual([hashOf(other)]);

    await put(alice, fileOf([published, other, revoke(alice, hash, day(4))]));
    const revoked = (await (await get('/commons/lessons?state=revoked')).json()) as {
      lessons: { hash: string; revokedBy: string }[];
    };
    expect(revoked.lessons).toEqual([expect.objectContaining({ hash, revokedBy: 'origin' })]);
    expect((await get('/commons/lessons?state=famous')).status).toBe(400);
  });
});

describe('the commons server: what it refuses', () => {
  const held = fileOf([lesson(alice, 0, day(1)), lesson(alice, 1, day(2))]);

  async function withHeldFile(deps: Partial<CommonsDeps> = {}) {
    const context = await setup(deps);
    expect((await context.put(alice, held)).status).toBe(200);
    const stillHeld = async () =>
      expect(await (await context.get(`/commons/${alice.origin}.jsonl`)).text()).toBe(held);
    return { ...context, stillHeld };
  }

  const good = lesson(alice, 2, day(5));
  const tampered = good.replace('The release script', 'The Release script');
  const unsigned = signAnything(alice, {
    v: 1,
    confirm: hashOf(lesson(bob, 0, day(1))),
    key: alice.key,
    origin: alice.origin,
    updated: day(5),
  }).replace(/,"sig":"[0-9a-f]+"/, '');

  it.each([
    ['unsigned', [good, unsigned], 2, 'sig'],
    ['tampered', [tampered, good], 1, 'signature'],
    ['tampered beside a line already held', [lesson(alice, 0, day(1)), tampered], 2, 'signature'],
    ['wrong origin', [good, lesson(bob, 3, day(5))], 2, 'wrong_origin'],
    ['not JSON', [good, 'this is not a record'], 2, 'not_json'],
    ['dated in the future', [good, lesson(alice, 3, day(12))], 2, 'future'],
    ['dated past year 9999 by its zone', [good, lesson(alice, 3, '9999-12-31T23:00:00-02:00')], 2, 'future'],
    ['an empty line', [good, '', lesson(alice, 3, day(5))], 2, 'not_json'],
  ])('%s: names the line and why, stores nothing', async (_, lines, line, code) => {
    const { put, stillHeld } = await withHeldFile();
    const response = await put(alice, fileOf(lines));
    expect(response.status).toBe(422);
    const body = (await response.json()) as Refused;
    expect(body.error).toBe('refused_lines');
    expect(body.refused).toEqual([expect.objectContaining({ line, code })]);
    await stillHeld();
  });

  it('a body cut off mid-line', async () => {
    const { put, stillHeld } = await withHeldFile();
    const whole = fileOf([good, lesson(alice, 3, day(5))]);
    const response = await put(alice, whole.slice(0, whole.length - 40));
    expect(response.status).toBe(422);
    expect(((await response.json()) as Refused).refused).toEqual([
      expect.objectContaining({ line: 2, code: 'not_json' }),
    ]);
    await stillHeld();
  });

  it('bytes that are not UTF-8', async () => {
    const { put, stillHeld } = await withHeldFile();
    const body = Buffer.concat([Buffer.from(`${good}\n`), Buffer.from([0xc3, 0x28, 0x0a])]);
    const response = await put(alice, body);
    expect(response.status).toBe(422);
    expect(((await response.json()) as Refused).refused).toEqual([
      expect.objectContaining({ line: 2, code: 'not_utf8' }),
    ]);
    await stillHeld();
  });

  it('a replay of an older file, or a different file with the same updated', async () => {
    const { put, stillHeld } = await withHeldFile();
    const older = await put(alice, fileOf([lesson(alice, 0, day(1))]));
    expect(older.status).toBe(409);
    expect((await older.json()) as Refused).toMatchObject({
      error: 'stale',
      message: expect.stringMatching(/backwards/),
    });
    const sameTime = await put(alice, fileOf([lesson(alice, 1, day(2))]));
    expect(sameTime.status).toBe(409);
    await stillHeld();
  });

  it('a file over 256 KB, announced or streamed', async () => {
    const { put, stillHeld } = await withHeldFile();
    const lines = Array.from({ length: 800 }, (_, n) => lesson(alice, n + 10, day(5)));
    const body = fileOf(lines);
    expect(Buffer.byteLength(body)).toBeGreaterThan(256 * 1024);
    const announced = await put(alice, body);
    expect(announced.status).toBe(413);
    expect(((await announced.json()) as Refused).error).toBe('too_large');
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    const streamed = await put(alice, stream, {});
    expect(streamed.status).toBe(413);
    await stillHeld();
  }, 60_000);

  it('more records than a memory may hold', async () => {
    const { put, stillHeld } = await withHeldFile({ limits: { maxRecords: 3, maxBytes: 256 * 1024 } });
    const response = await put(alice, fileOf([0, 1, 2, 3, 4].map((n) => lesson(alice, n, day(5)))));
    expect(response.status).toBe(413);
    const body = (await response.json()) as Refused;
    expect(body.error).toBe('too_many_records');
    expect(body.refused.map((refusal) => refusal.line)).toEqual([4, 5]);
    await stillHeld();
  });

  it('an empty file', async () => {
    const { put, stillHeld } = await withHeldFile();
    const response = await put(alice, '');
    expect(response.status).toBe(400);
    expect(((await response.json()) as Refused).error).toBe('empty');
    await stillHeld();
  });

  it('a token for another origin, no token, a revoked token', async () => {
    const { app, store, stillHeld, tokenFor } = await withHeldFile();
    const request = (token: string | null) =>
      app.request(`/commons/${alice.origin}.jsonl`, {
        method: 'PUT',
        headers: token === null ? {} : { authorization: `Bearer ${token}` },
        body: fileOf([good]),
      });
    const other = await request(await tokenFor(bob));
    expect(other.status).toBe(403);
    expect(((await other.json()) as Refused).error).toBe('token_origin');
    const none = await request(null);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await request('rct_made-up')).status).toBe(401);
    const issued = await issueToken(store, { origin: null, now: day(0) });
    await store.revokeToken(issued.row.id, day(1));
    expect((await request(issued.token)).status).toBe(401);
    await stillHeld();
    const any = await issueToken(store, { origin: null, now: day(0) });
    expect((await request(any.token)).status).toBe(200);
  });

  it('a write from a web page, and a host it does not answer to', async () => {
    const { app, put, get, stillHeld } = await withHeldFile();
    const page = await put(alice, fileOf([good]), { origin: 'https://evil.example' });
    expect(page.status).toBe(403);
    expect(((await page.json()) as Refused).error).toBe('origin_not_allowed');
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await app.request(`/commons/${alice.origin}.jsonl`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
    const rebound = await get('/commons/index', { host: 'evil.example' });
    expect(rebound.status).toBe(403);
    expect(((await rebound.json()) as Refused).error).toBe('host_not_allowed');
    expect((await get('/commons/index', { host: '127.0.0.1:11437' })).status).toBe(200);
    await stillHeld();
  });

  it('writes beyond the rate a token may make', async () => {
    const { put } = await setup({ rate: { requests: 2, windowMs: 60_000 } });
    expect((await put(alice, fileOf([lesson(alice, 0, day(1))]))).status).toBe(200);
    expect((await put(alice, fileOf([lesson(alice, 0, day(2))]))).status).toBe(200);
    const third = await put(alice, fileOf([lesson(alice, 0, day(3))]));
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await put(bob, fileOf([lesson(bob, 0, day(3))]))).status).toBe(200);
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, recordsOf } from '../../src/store/index.ts';
import type { NightlyPull } from '../../src/transport/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem, rememAsync, repoRoot } from '../helpers/remem.ts';
import { day, lintError, memory as sharedMemory } from './memories.ts';

const tempDir = useTempDirs();

/** A memory (`memories.ts`) that also runs the nightly job, with peers from config.json or `env`. */
function memory(root: string, name: string) {
  const base = sharedMemory(root, name);
  const { home } = base;
  return {
    ...base,
    /** `remem run` as the nightly job runs it. */
    async nightly(now: string, env: Record<string, string> = {}) {
      const text = await rememAsync(['run'], { home, now, env });
      expect(text.code, text.stderr).toBe(0);
      return text.stdout;
    },
    async nightJson(now: string, env: Record<string, string> = {}) {
      const result = await rememAsync(['run', '--json'], { home, now, env });
      expect(result.code, result.stderr).toBe(0);
      return result.json<{ gossip: NightlyPull | null }>().gossip!;
    },
    configure(config: unknown) {
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, 'config.json'), JSON.stringify(config));
    },
    /** The lines this memory holds from `origin`, exactly as stored. */
    held(origin: string): string[] {
      const store = openStore(home);
      try {
        return recordsOf(store.db, origin).map((record) => record.line);
      } finally {
        store.close();
      }
    },
  };
}

/** `remem serve` on a free port, for peers to pull from; `args` may name where it listens. */
async function serve(home: string, now: string, args: string[] = []) {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(repoRoot, 'bin', 'remem.js'), 'serve', '--port', '0', ...args],
    {
      env: { PATH: process.env['PATH'] ?? '', HOME: join(home, 'user'), REMEM_HOME: home, REMEM_NOW: now },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let seen = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      // The address first, then who reaches what: the last line names the token.
      const found = /remem serve: (http:\/\/[\d.:]+)/.exec(seen);
      if (found && /with the token.*\n/.test(seen)) resolve(found[1]!);
    });
    child.on('exit', (code) => reject(new Error(`remem serve exited (${code}): ${seen}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    stderr: () => seen,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A GET with the Host header a client on another machine would send, as node:http lets one set it. */
function getAs(address: string, port: number, path: string, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    const request = httpGet({ host: address, port, path, headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
}

/** A peer that takes connections and never answers, and the URL of a port nothing listens on. */
async function badPeers(): Promise<{ silent: string; closed: string; stop: () => void }> {
  const listen = (server: Server) =>
    new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    );
  const held: import('node:net').Socket[] = [];
  const silent = createServer((socket) => held.push(socket));
  const closing = createServer();
  const silentPort = await listen(silent);
  const closedPort = await listen(closing);
  await new Promise<void>((resolve) => closing.close(() => resolve()));
  return {
    silent: `http://127.0.0.1:${silentPort}`,
    closed: `http://127.0.0.1:${closedPort}`,
    stop() {
      for (const socket of held) socket.destroy();
      silent.close();
    },
  };
}

/** A learns a lesson from an error met twice, and shares it: one signed line to serve. */
function learnAndShare(root: string, a: ReturnType<typeof memory>) {
  for (const n of [0, 1]) {
    const events = join(root, `events-${n}.jsonl`);
    writeFileSync(events, `${lintError(a.project, `session-a-${n}`, day(n))}\n`);
    a.run(['ingest', '--events', events], day(n, 23));
    a.run(['sleep'], day(n + 1, 4));
  }
  const [learned] = a.lessons(day(2, 5));
  a.run(['share', '--enable'], day(2, 5), a.project);
  a.run(['share'], day(2, 5));
  const originA = a.origin();
  const lineA = readFileSync(join(a.home, 'shared', `${originA}.jsonl`), 'utf8').trim();
  expect(lineA.split('\n')).toHaveLength(1);
  return { learned, originA, lineA };
}

describe('remem run pulls from peers', () => {
  it('takes a peer’s lesson as a candidate, through a relay intact, refuses an altered one, and survives dead peers', async () => {
    const root = tempDir('remem-gossip-');
    const a = memory(root, 'a');
    const b = memory(root, 'b');
    const c = memory(root, 'c');
    const relay = memory(root, 'relay');
    const d = memory(root, 'd');
    const e = memory(root, 'e');

    const { learned, originA, lineA } = learnAndShare(root, a);

    // A serves; B, configured with A as its peer, runs its night and holds A's lesson as a candidate.
    let servedA = await serve(a.home, day(2, 6));
    b.configure({ peers: [servedA.url] });
    const first = await b.nightJson(day(3, 4));
    expect(first.chosen).toEqual([servedA.url]);
    expect(first.peers).toEqual([{ peer: servedA.url, ok: true, origins: 1, accepted: 1, refused: [] }]);
    expect(first.totals).toMatchObject({ received: 1, revocations: 0 });
    expect(b.lessons(day(3, 5))).toEqual([
      expect.objectContaining({
        hash: learned!.hash,
        text: learned!.text,
        origin: originA,
        review: 'pending_review',
      }),
    ]);
    expect(b.held(originA)).toEqual([lineA]);
    // The next night there is nothing newer, and the text says so.
    const second = await b.nightly(day(4, 4));
    expect(second).toContain('Peers: pulled from 1 of 1 known peer.');
    expect(second).toContain(`${servedA.url}: 0 newer files, 0 records taken, 0 refused`);

    // A goes away; B relays. C, given B in REMEM_PEERS, holds A's record byte for byte and learns of A.
    await servedA.stop();
    const servedB = await serve(b.home, day(4, 5));
    const viaRelay = await c.nightJson(day(4, 6), { REMEM_PEERS: servedB.url });
    expect(viaRelay.peers[0]).toMatchObject({ ok: true, accepted: 1, refused: [] });
    expect(viaRelay.learned).toEqual([servedA.url]);
    expect(c.held(originA)).toEqual([lineA]);
    expect(c.lessons(day(4, 7))[0]).toMatchObject({ hash: learned!.hash, origin: originA });
    // A learned peer is pulled on a later night; A is down, and C says so and goes on.
    const later = await c.nightJson(day(5, 4), { REMEM_PEERS: servedB.url });
    expect(later.chosen.sort()).toEqual([servedA.url, servedB.url].sort());
    expect(later.peers.find((peer) => peer.peer === servedA.url)).toMatchObject({ ok: false });

    // A relay whose copy of A's record was altered: the signature fails, and the receiver says why.
    await relay.nightJson(day(5, 5), { REMEM_PEERS: servedB.url });
    await servedB.stop();
    const store = openStore(relay.home);
    try {
      const altered = store.db
        .prepare(
          `UPDATE records SET line = replace(line, '"seen":', '"seen":1') WHERE origin = ? AND kind = 'lesson'`,
        )
        .run(originA);
      expect(altered.changes).toBe(1);
    } finally {
      store.close();
    }
    const servedRelay = await serve(relay.home, day(5, 6));
    const dead = await badPeers();
    try {
      d.configure({ peers: [servedRelay.url, dead.closed, 'ftp://example.org'] });
      const refused = await d.nightJson(day(5, 7));
      expect(refused.unusable).toEqual([
        { peer: 'ftp://example.org', reason: 'not an http(s) URL without credentials' },
      ]);
      const byPeer = new Map(refused.peers.map((peer) => [peer.peer, peer]));
      expect(byPeer.get(servedRelay.url)).toMatchObject({
        ok: true,
        accepted: 0,
        refused: [{ origin: originA, line: 1, code: 'signature' }],
      });
      expect(byPeer.get(dead.closed)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/ECONNREFUSED/),
      });
      expect(d.lessons(day(5, 8))).toEqual([]);
      expect(d.held(originA)).toEqual([]);
      // The same night as text: each peer's outcome on a line of its own.
      const text = await d.nightly(day(6, 4));
      expect(text).toMatch(new RegExp(`refused ${originA}:1 signature: `));
      expect(text).toContain(`${dead.closed}: unreachable, fetch failed (ECONNREFUSED); skipped tonight`);
      expect(text).toContain('ftp://example.org: not used, not an http(s) URL without credentials');
      // A peer that never answers costs the night its timeout, no more; a short one here, alone, so the
      // timeout cannot cut a live peer short.
      e.configure({ peers: [dead.silent], params: { gossip: { timeoutMs: 300 } } });
      const silent = await e.nightly(day(6, 5));
      expect(silent).toContain(`${dead.silent}: unreachable, no answer within 300 ms; skipped tonight`);
    } finally {
      dead.stop();
      await servedRelay.stop();
    }

    // A revokes its lesson; B's next night takes the revocation by gossip and drops the lesson.
    a.run(['revoke', learned!.hash], day(6, 5));
    a.run(['share'], day(6, 5));
    servedA = await serve(a.home, day(6, 6));
    b.configure({ peers: [servedA.url] });
    try {
      const revoked = await b.nightJson(day(7, 4));
      expect(revoked.totals).toMatchObject({ revocations: 1, dropped: 1 });
      expect(b.lessons(day(7, 5), false)).toEqual([]);
      expect(b.lessons(day(7, 5))[0]).toMatchObject({ hash: learned!.hash, state: 'vetoed' });
    } finally {
      await servedA.stop();
    }
  }, 180_000);
});

describe('remem serve beyond loopback', () => {
  it('lets another machine pull gossip by any name while the API answers only to the names allowed, with its token', async () => {
    const root = tempDir('remem-reach-');
    const a = memory(root, 'a');
    const b = memory(root, 'b');
    const { originA, lineA } = learnAndShare(root, a);
    // Every interface, one public name: stderr says what is open to whom and what needs the token.
    const wide = await serve(a.home, day(2, 6), ['--host', '0.0.0.0', '--allow-host', 'memory-a.test']);
    // The token `remem serve` made on first need.
    const bearer = { authorization: `Bearer ${readFileSync(join(a.home, 'token'), 'utf8').trim()}` };
    try {
      expect(wide.url).toBe(`http://0.0.0.0:${wide.port}`);
      expect(wide.stderr()).toContain(
        'from any machine that can connect, by any name: GET /gossip/index and GET /gossip/<origin>.jsonl',
      );
      expect(wide.stderr()).toContain(
        'by 127.0.0.1, localhost, [::1], memory-a.test only: /health open to read;',
      );
      // B reaches A by an address A never named (127.0.0.2 stands for A's address on a network).
      const peer = `http://127.0.0.2:${wide.port}`;
      b.configure({ peers: [peer] });
      const pulled = await b.nightJson(day(3, 4));
      expect(pulled.peers).toEqual([{ peer, ok: true, origins: 1, accepted: 1, refused: [] }]);
      expect(b.held(originA)).toEqual([lineA]);

      const at = (host: string, path: string, headers: Record<string, string> = {}) =>
        getAs('127.0.0.2', wide.port, path, { host: `${host}:${wide.port}`, ...headers });
      expect(await at('peer-of-a.example', '/gossip/index')).toBe(200);
      expect(await at('peer-of-a.example', `/gossip/${originA}.jsonl`)).toBe(200);
      // The token-protected routes: by the allowed name with the token, never without it or by another name.
      expect(await at('memory-a.test', '/memory/lessons', bearer)).toBe(200);
      expect(await at('MEMORY-A.test', '/memory/lessons', bearer)).toBe(200);
      expect(await at('memory-a.test', '/memory/lessons')).toBe(401);
      expect(await at('127.0.0.2', '/memory/lessons', bearer)).toBe(403);
      expect(await at('rebound.example', '/memory/lessons', bearer)).toBe(403);
      expect(await at('rebound.example', '/health')).toBe(403);
      expect(
        await at('memory-a.test', '/memory/lessons', { ...bearer, origin: 'https://rebound.example' }),
      ).toBe(403);
    } finally {
      await wide.stop();
    }

    // On a loopback address alone, gossip keeps the Host check too: only this machine, only its names.
    const narrow = await serve(a.home, day(2, 7), ['--host', '127.0.0.2', '--allow-host', 'memory-a.test']);
    try {
      expect(narrow.stderr()).toContain(
        'from this machine only, by 127.0.0.1, localhost, [::1], 127.0.0.2, memory-a.test:',
      );
      const at = (host: string, path: string, headers: Record<string, string> = {}) =>
        getAs('127.0.0.2', narrow.port, path, { host, ...headers });
      expect(await at('127.0.0.2', '/gossip/index')).toBe(200);
      expect(await at('memory-a.test', '/memory/lessons', bearer)).toBe(200);
      expect(await at('rebound.example', '/gossip/index')).toBe(403);
      expect(await at('rebound.example', '/memory/lessons', bearer)).toBe(403);
      await expect(getAs('127.0.0.1', narrow.port, '/gossip/index', {})).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await narrow.stop();
    }

    // A name that is not one host, and an address this machine does not have: refused, each saying why.
    const usage = remem(['serve', '--port', '0', '--allow-host', 'http://memory-a.test'], { home: a.home });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain(
      '--allow-host takes a host name or an IP address, without scheme or port: http://memory-a.test',
    );
    const absent = remem(['serve', '--port', '0', '--host', '192.0.2.1'], { home: a.home });
    expect(absent.code).toBe(1);
    expect(absent.stderr).toMatch(/cannot listen on 192\.0\.2\.1:0: .*EADDRNOTAVAIL/);
  }, 120_000);
});

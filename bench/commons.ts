/**
 * The commons under load, on loopback: `remem commons serve` runs in a process of its own over each store
 * (SQLite, then PostgreSQL when it answers on 127.0.0.1:5432), and autocannon drives it from this process.
 * Fifty origins publish concurrently, each on a connection of its own with its own token, a run of ever newer
 * files, and every record must be there at the end; then reads spread over the files. PUTs and GETs per second
 * with p50 and p99 latency, each rate also as a ratio to a bare node:http server driven by the same requests;
 * `lost` counts records of each origin's last file missing from what the server then serves.
 * Signature verification is measured as a ratio to `openssl speed ed25519` run in the same bench.
 *
 * Options: --versions V (files each origin publishes, 40), --gets G (5,000), --concurrency C (32),
 * --store sqlite|postgres (both).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { issueToken, openCommonsStore } from '../src/commons/index.ts';
import {
  cutSignature,
  generateIdentity,
  type Identity,
  parseRecordLine,
  scanJson,
  signRecord,
  verifySignature,
} from '../src/protocol/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

function option(args: string[], name: string, fallback: string): string {
  const at = args.indexOf(name);
  return at === -1 ? fallback : (args[at + 1] ?? fallback);
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** `openssl speed -seconds 2 ed25519`: its verify/s column. */
function opensslVerifyPerSecond(): number | null {
  const result = spawnSync('openssl', ['speed', '-seconds', '2', 'ed25519'], { encoding: 'utf8' });
  const row = result.stdout?.split('\n').find((line) => /EdDSA \(Ed25519\)/.test(line));
  const numbers = row?.trim().split(/\s+/).map(Number).filter(Number.isFinite);
  return numbers !== undefined && numbers.length >= 2 ? numbers[numbers.length - 1]! : null;
}

/** Calls `work` on the items, round and round, for about `ms`; returns calls per second. */
function perSecond<T>(items: readonly T[], ms: number, work: (item: T) => unknown): number {
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (const item of items) work(item);
    calls += items.length;
  }
  return calls / ((performance.now() - start) / 1000);
}

function verifyFigures(): { raw: number; parse: number; openssl: number | null } {
  const signers = Array.from({ length: 20 }, () => generateIdentity());
  const lines = Array.from({ length: 200 }, (_, n) =>
    signRecord(signers[n % signers.length]!, {
      kind: 'error',
      text: `The build fails when cache folder ${n} is missing on a fresh clone.`,
      seen: 1,
      strength: 1,
      updated: '2026-11-13T04:00:00Z',
    }),
  );
  const cut = lines.map((line) => {
    const scan = scanJson(line);
    if (!scan.ok) throw new Error('fixture');
    const record = scan.value as { key: string; sig: string };
    return {
      key: record.key,
      sig: record.sig,
      bytes: Buffer.from(cutSignature(line, scan.members)!, 'utf8'),
    };
  });
  const raw = perSecond(cut, 2000, (item) => verifySignature(item.key, item.bytes, item.sig));
  const parse = perSecond(lines, 2000, (line) => parseRecordLine(line));
  return { raw, parse, openssl: opensslVerifyPerSecond() };
}

interface Server {
  url: string;
  child: ChildProcess;
}

/** `remem commons serve` from source, on a free port. */
function startServer(home: string, db: string): Promise<Server> {
  const entry =
    "import('./src/cli/main.ts').then(async (m) => { process.exitCode = await m.main(process.argv.slice(1)); })";
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      entry,
      'commons',
      'serve',
      '--db',
      db,
      '--port',
      '0',
      '--home',
      home,
      '--rate',
      '1000000',
      '--max-connections',
      '1024',
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, REMEM_NOW: '' } },
  );
  return listening(child, 'commons serve');
}

/** Resolves with the address a child prints on stderr as `listening on http://…`. */
function listening(child: ChildProcess, name: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) resolve({ url: match[1]!, child });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited ${code}: ${seen}`)));
  });
}

function stopServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

/** One phase of autocannon's load: rate over the whole phase, latency of every response, what failed. */
interface Phase {
  requests: number;
  rate: number;
  p50: number;
  p99: number;
  failed: number;
}

/**
 * Runs autocannon and times it here: its own latency histogram keeps whole milliseconds and its end waits for
 * the next one-second sample, both too coarse for loopback. A response other than 200 or an error is a failure.
 */
async function drive(options: autocannon.Options): Promise<Phase> {
  const latencies: number[] = [];
  let failed = 0;
  let last = 0;
  const began = performance.now();
  const instance = autocannon({ duration: 600, timeout: 30, pipelining: 1, ...options });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    latencies.push(ms);
    last = performance.now();
    if (status !== 200) failed++;
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rate: latencies.length / ((last - began) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failed: failed + result.errors,
  };
}

/**
 * Fifty connections, one per origin, each PUTting its origin's files in order with that origin's own token, as a
 * memory publishes on each sleep: autocannon's per-connection requests carry each file and its bearer token.
 */
function putEach(url: string, writers: readonly Publisher[], tokens: ReadonlyMap<string, string>) {
  let next = 0;
  return drive({
    url,
    connections: writers.length,
    maxConnectionRequests: writers[0]!.versions.length,
    setupClient(client) {
      const writer = writers[next++ % writers.length]!;
      const headers = {
        authorization: `Bearer ${tokens.get(writer.identity.origin)}`,
        'content-type': 'application/x-ndjson',
      };
      const path = `/commons/${writer.identity.origin}.jsonl`;
      client.setRequests(writer.versions.map((body) => ({ method: 'PUT', path, headers, body })));
    },
  });
}

/** `gets` reads of the origins' files at `concurrency` in flight, each connection starting at another origin. */
function getEach(url: string, origins: readonly string[], gets: number, concurrency: number) {
  let next = 0;
  return drive({
    url,
    connections: concurrency,
    amount: gets,
    setupClient(client) {
      const start = next++ * 7;
      client.setRequests(
        origins.map((_, n) => ({
          method: 'GET',
          path: `/commons/${origins[(start + n) % origins.length]}.jsonl`,
        })),
      );
    },
  });
}

/**
 * The floor: a bare node:http server in a process of its own that reads each body and answers 200 with `reply`
 * bytes, driven by the same requests. Ratios to it say what the commons costs beyond loopback HTTP.
 */
function startFloor(reply: string): Promise<Server> {
  const source = `
    const body = Buffer.from(process.env.REPLY);
    require('node:http').createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(body));
    }).listen(0, '127.0.0.1', function () { console.error('listening on http://127.0.0.1:' + this.address().port); });`;
  const child = spawn(process.execPath, ['-e', source], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, REPLY: reply },
  });
  return listening(child, 'floor server');
}

interface Publisher {
  identity: Identity;
  versions: string[];
}

/** Each origin: ten lessons, then V files each adding a newer confirmation. */
function publishers(count: number, versions: number): Publisher[] {
  const start = Date.parse('2026-06-01T00:00:00Z');
  return Array.from({ length: count }, (_, p) => {
    const identity = generateIdentity();
    const base = Array.from({ length: 10 }, (_, n) =>
      signRecord(identity, {
        kind: 'error',
        text: `The deploy of service ${p} fails when region ${n} has no quota left.`,
        seen: 1,
        strength: 1,
        updated: new Date(start).toISOString(),
      }),
    );
    const files = Array.from({ length: versions }, (_, v) => {
      const newer = signRecord(identity, {
        confirm: (v % 16).toString(16).repeat(32),
        updated: new Date(start + (v + 1) * 1000).toISOString(),
      });
      return `${[...base, newer].join('\n')}\n`;
    });
    return { identity, versions: files };
  });
}

interface LoadRow {
  store: string;
  put: Phase;
  get: Phase;
  origins: number;
  lost: number;
}

interface LoadOptions {
  versions: number;
  gets: number;
  concurrency: number;
  writers: readonly Publisher[];
}

async function load(store: string, db: string, options: LoadOptions): Promise<LoadRow> {
  const home = mkdtempSync(join(tmpdir(), 'remem-commons-bench-'));
  const admin = await openCommonsStore(db);
  // A token per origin, bound to its file, as `remem commons token add ORIGIN` issues it.
  const tokens = new Map<string, string>();
  for (const writer of options.writers) {
    const { origin } = writer.identity;
    tokens.set(origin, (await issueToken(admin, { origin, now: new Date().toISOString() })).token);
  }
  await admin.close();
  const server = await startServer(home, db);
  try {
    const put = await putEach(server.url, options.writers, tokens);

    let lost = 0;
    for (const writer of options.writers) {
      const held = await (await fetch(`${server.url}/commons/${writer.identity.origin}.jsonl`)).text();
      const expected = writer.versions[writer.versions.length - 1]!.split('\n').filter(Boolean);
      const have = new Set(held.split('\n'));
      lost += expected.filter((line) => !have.has(line)).length;
    }
    const index = (await (await fetch(`${server.url}/commons/index?limit=1000`)).json()) as {
      entries: unknown[];
    };

    const origins = options.writers.map((writer) => writer.identity.origin);
    const get = await getEach(server.url, origins, options.gets, options.concurrency);
    return { store, put, get, origins: index.entries.length, lost };
  } finally {
    await stopServer(server);
    rmSync(home, { recursive: true, force: true });
  }
}

/** The same requests against the floor server. */
async function loadFloor(options: LoadOptions): Promise<LoadRow> {
  const file = options.writers[0]!.versions[options.versions - 1]!;
  const server = await startFloor(file);
  try {
    const tokens = new Map(options.writers.map((writer) => [writer.identity.origin, 'floor']));
    const put = await putEach(server.url, options.writers, tokens);
    const origins = options.writers.map((writer) => writer.identity.origin);
    const get = await getEach(server.url, origins, options.gets, options.concurrency);
    return { store: 'floor', put, get, origins: Number.NaN, lost: Number.NaN };
  } finally {
    await stopServer(server);
  }
}

async function findPostgres(): Promise<string | null> {
  for (const user of new Set(['postgres', userInfo().username])) {
    const url = `postgres://${user}@127.0.0.1:5432/test`;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      return url;
    } catch {
      // next user
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return null;
}

export async function run(args: string[]): Promise<void> {
  const versions = Number(option(args, '--versions', '40'));
  const gets = Number(option(args, '--gets', '5000'));
  const concurrency = Number(option(args, '--concurrency', '32'));
  const only = option(args, '--store', 'both');

  console.error('  measuring signature verification (node and openssl, about 8 s)');
  const verify = verifyFigures();
  console.error('  signing the publishers’ files');
  const writers = publishers(50, versions);
  const notes: string[] = [];
  console.error('  the floor');
  const rows: LoadRow[] = [await loadFloor({ versions, gets, concurrency, writers })];

  if (only !== 'postgres') {
    const dir = mkdtempSync(join(tmpdir(), 'remem-commons-db-'));
    console.error('  SQLite');
    rows.push(
      await load('SQLite', `sqlite:${join(dir, 'commons.db')}`, { versions, gets, concurrency, writers }),
    );
    rmSync(dir, { recursive: true, force: true });
  }
  if (only !== 'sqlite') {
    const base = await findPostgres();
    if (base === null) {
      notes.push('PostgreSQL: skipped, nothing answers on 127.0.0.1:5432 (database test).');
    } else {
      const schema = `commons_bench_${process.pid}`;
      console.error('  PostgreSQL');
      try {
        rows.push(
          await load('PostgreSQL', `${base}?schema=${schema}`, { versions, gets, concurrency, writers }),
        );
      } finally {
        const client = new pg.Client({ connectionString: base });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    }
  }

  const floor = rows.shift()!;
  const times = (value: number, base: number) => `${(value / base).toFixed(2)}×`;
  const header = [
    'store',
    'PUT/s',
    '÷ floor',
    'p50 ms',
    'p99 ms',
    'GET/s',
    '÷ floor',
    'p50 ms',
    'p99 ms',
    'origins',
    'lost',
    'failed',
  ];
  const body = [floor, ...rows].map((row) => [
    row.store,
    row.put.rate.toFixed(0),
    times(row.put.rate, floor.put.rate),
    row.put.p50.toFixed(2),
    row.put.p99.toFixed(2),
    row.get.rate.toFixed(0),
    times(row.get.rate, floor.get.rate),
    row.get.p50.toFixed(2),
    row.get.p99.toFixed(2),
    Number.isNaN(row.origins) ? '-' : String(row.origins),
    Number.isNaN(row.lost) ? '-' : String(row.lost),
    String(row.put.failed + row.get.failed),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(
    `autocannon on loopback, each server in a process of its own. 50 origins publish concurrently, one connection ` +
      `and one token each, ${versions} files apiece (${floor.put.requests} PUTs): ten lessons and a newer ` +
      'confirmation per file; the commons verifies every line it does not already hold byte for byte. ' +
      `Then ${gets} GETs of the files over ${concurrency} connections. The floor: a bare node:http server ` +
      'that reads each body and answers 200 with a file, under the same requests; `lost` counts lines of ' +
      'each origin’s last file the commons does not then serve.\n',
  );
  console.log(line(header));
  for (const cells of body) console.log(line(cells));
  for (const note of notes) console.log(note);
  console.log('');
  const ratio = (value: number) => (verify.openssl === null ? 'n/a' : (value / verify.openssl).toFixed(2));
  console.log(`openssl speed ed25519: ${verify.openssl?.toFixed(0) ?? 'unavailable'} verify/s`);
  console.log(
    `verifySignature (node:crypto): ${verify.raw.toFixed(0)} /s, ratio to openssl ${ratio(verify.raw)}`,
  );
  console.log(
    `parseRecordLine (every receive check): ${verify.parse.toFixed(0)} lines/s, ratio to openssl ${ratio(verify.parse)}`,
  );
}

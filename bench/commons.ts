/**
 * The commons under load, on loopback: `remem commons serve` runs in a process of its own over each store
 * (SQLite, then PostgreSQL when it answers on 127.0.0.1:5432), and this process drives it with fetch at
 * bounded concurrency. Fifty origins publish concurrently, each a run of ever newer files, and every record
 * must be there at the end; then random reads. PUTs and GETs per second with p50 and p99 latency; `lost`
 * counts records of each origin's last file missing from what the server then serves.
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
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) resolve({ url: match[1]!, child });
    });
    child.once('exit', (code) => reject(new Error(`commons serve exited ${code}: ${seen}`)));
  });
}

function stopServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

/** Runs `jobs` with at most `limit` in flight; each job's latency in ms. */
async function bounded(jobs: readonly (() => Promise<void>)[], limit: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const start = performance.now();
      await job();
      latencies.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return latencies;
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
  puts: number;
  putRate: number;
  putP50: number;
  putP99: number;
  gets: number;
  getRate: number;
  getP50: number;
  getP99: number;
  origins: number;
  lost: number;
  failures: number;
}

async function load(
  store: string,
  db: string,
  options: { versions: number; gets: number; concurrency: number; writers: readonly Publisher[] },
): Promise<LoadRow> {
  const home = mkdtempSync(join(tmpdir(), 'remem-commons-bench-'));
  const admin = await openCommonsStore(db);
  const { token } = await issueToken(admin, { origin: null, now: new Date().toISOString() });
  await admin.close();
  const server = await startServer(home, db);
  let failures = 0;
  try {
    // Fifty origins at once, each publishing its files in order, as a memory does on each sleep.
    const putLatencies: number[] = [];
    const began = performance.now();
    await Promise.all(
      options.writers.map(async (writer) => {
        for (const body of writer.versions) {
          const start = performance.now();
          const response = await fetch(`${server.url}/commons/${writer.identity.origin}.jsonl`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
            body,
          });
          await response.arrayBuffer();
          if (response.status !== 200) failures++;
          putLatencies.push(performance.now() - start);
        }
      }),
    );
    const putSeconds = (performance.now() - began) / 1000;

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
    const reads = Array.from({ length: options.gets }, (_, n) => async () => {
      const response = await fetch(`${server.url}/commons/${origins[(n * 7919) % origins.length]}.jsonl`);
      await response.arrayBuffer();
      if (response.status !== 200) failures++;
    });
    const getBegan = performance.now();
    const getLatencies = await bounded(reads, options.concurrency);
    const getSeconds = (performance.now() - getBegan) / 1000;

    putLatencies.sort((a, b) => a - b);
    getLatencies.sort((a, b) => a - b);
    return {
      store,
      puts: putLatencies.length,
      putRate: putLatencies.length / putSeconds,
      putP50: percentile(putLatencies, 50),
      putP99: percentile(putLatencies, 99),
      gets: getLatencies.length,
      getRate: getLatencies.length / getSeconds,
      getP50: percentile(getLatencies, 50),
      getP99: percentile(getLatencies, 99),
      origins: index.entries.length,
      lost,
      failures,
    };
  } finally {
    await stopServer(server);
    rmSync(home, { recursive: true, force: true });
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
  const rows: LoadRow[] = [];
  const notes: string[] = [];

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

  const header = [
    'store',
    'PUT/s',
    'p50 ms',
    'p99 ms',
    'GET/s',
    'p50 ms',
    'p99 ms',
    'origins',
    'lost',
    'failed',
  ];
  const body = rows.map((row) => [
    row.store,
    row.putRate.toFixed(0),
    row.putP50.toFixed(1),
    row.putP99.toFixed(1),
    row.getRate.toFixed(0),
    row.getP50.toFixed(1),
    row.getP99.toFixed(1),
    String(row.origins),
    String(row.lost),
    String(row.failures),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const first = rows[0];
  console.log(
    `50 origins publishing concurrently, ${versions} files each (${first?.puts ?? 0} PUTs): ten lessons and a newer ` +
      'confirmation per file; the server verifies every line it does not already hold byte for byte. ' +
      `Then ${gets} GETs of a file at ${concurrency} in flight. Loopback; the server in its own process.\n`,
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

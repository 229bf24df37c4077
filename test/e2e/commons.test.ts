import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateIdentity, type Identity, signRecord } from '../../src/protocol/index.ts';
import { dropSchemas, findPostgres, uniqueSchema } from '../commons/helpers.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem, rememAsync, repoRoot } from '../helpers/remem.ts';

const tempDir = useTempDirs();
const base = await findPostgres();
const schemas: string[] = [];
afterAll(async () => {
  if (base !== null) await dropSchemas(base, schemas);
});

const day = (n: number) => new Date(Date.UTC(2026, 10, 1 + n, 10)).toISOString();

function lesson(identity: Identity, text: string, updated: string): string {
  return signRecord(identity, { kind: 'error', text, seen: 1, strength: 1, updated });
}

async function commonsServe(home: string, db: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(repoRoot, 'bin', 'remem.js'), 'commons', 'serve', '--db', db, '--port', '0'],
    {
      env: { PATH: process.env['PATH'] ?? '', REMEM_HOME: home, REMEM_NOW: day(10) },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(seen);
      if (found) resolve(found[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the commons exited (${code}): ${seen}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const describePostgres = base === null && !process.env['CI'] ? describe.skip : describe;

describePostgres('two `remem commons serve` over one PostgreSQL database', () => {
  it('serve each other’s files, refuse bad input by line and reason, and keep what they held', async () => {
    expect(base, 'PostgreSQL on 127.0.0.1:5432, database test').not.toBeNull();
    const schema = uniqueSchema();
    schemas.push(schema);
    const db = `${base}?schema=${schema}`;
    const home = tempDir('remem-commons-e2e-');
    const alice = generateIdentity();
    const bob = generateIdentity();
    const token = (identity: Identity) => {
      const added = remem(['commons', 'token', 'add', identity.origin, '--db', db, '--json'], { home });
      expect(added.code, added.stderr).toBe(0);
      return added.json<{ token: string }>().token;
    };
    const aliceToken = token(alice);
    const bobToken = token(bob);
    const [first, second] = [await commonsServe(home, db), await commonsServe(home, db)];
    try {
      const put = (url: string, origin: string, bearer: string, lines: string[]) =>
        fetch(`${url}/commons/${origin}.jsonl`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${bearer}` },
          body: `${lines.join('\n')}\n`,
        });
      const read = async (url: string) => (await fetch(`${url}/commons/${alice.origin}.jsonl`)).text();
      const held = [lesson(alice, 'The build fails when the cache directory is missing.', day(1))];
      expect((await put(first.url, alice.origin, aliceToken, held)).status).toBe(200);
      expect(await read(second.url)).toBe(`${held[0]}\n`);

      const good = lesson(alice, 'The release script stops at the changelog step on a dirty tree.', day(2));
      const tampered = good.replace('dirty tree', 'clean tree');
      const refusals: [string, Response, number, unknown][] = [
        [
          'tampered',
          await put(second.url, alice.origin, aliceToken, [good, tampered]),
          422,
          { line: 2, code: 'signature' },
        ],
        [
          'wrong origin',
          await put(second.url, alice.origin, aliceToken, [
            lesson(bob, 'The linter fails on generated files.', day(2)),
          ]),
          422,
          { line: 1, code: 'wrong_origin' },
        ],
        [
          'not JSON',
          await put(second.url, alice.origin, aliceToken, [good, 'not a record']),
          422,
          { line: 2, code: 'not_json' },
        ],
        [
          'a replay',
          await put(second.url, alice.origin, aliceToken, [
            lesson(alice, 'The build fails when the cache directory is missing.', day(0)),
          ]),
          409,
          null,
        ],
        ['another origin’s token', await put(second.url, alice.origin, bobToken, [good]), 403, null],
      ];
      for (const [what, response, status, refused] of refusals) {
        expect(response.status, what).toBe(status);
        const body = (await response.json()) as { error: string; refused?: unknown[] };
        expect(typeof body.error, what).toBe('string');
        if (refused !== null)
          expect(body.refused, what).toEqual([expect.objectContaining(refused as object)]);
      }
      expect(await read(first.url)).toBe(`${held[0]}\n`);

      // A memory reads the commons through either server and takes the lesson as a candidate.
      const reader = join(home, 'reader');
      const received = await rememAsync(['receive', '--commons', second.url, '--json'], {
        home: reader,
        now: day(10),
      });
      expect(received.code, received.stderr).toBe(0);
      expect(received.json()).toMatchObject({ received: 1, refused: 0 });
      const lessons = (await (await fetch(`${first.url}/commons/lessons?state=candidate`)).json()) as {
        lessons: { hash: string; state: string }[];
      };
      expect(lessons.lessons).toEqual([expect.objectContaining({ state: 'candidate' })]);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  }, 60_000);
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateIdentity, parseRecordLine, signRecord } from '../../src/protocol/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { day, lintError, memory, serveCommons } from './memories.ts';

const tempDir = useTempDirs();

interface CommonsLesson {
  hash: string;
  state: string;
  confirmers: string[];
  revokedBy: string | null;
}

/** The kinds of record in a memory's file, each with the lesson hash it is about. */
function recordsIn(folder: string, origin: string): string[] {
  return readFileSync(join(folder, `${origin}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const parsed = parseRecordLine(line);
      if ('refused' in parsed) throw new Error(`${parsed.code}: ${line}`);
      if (parsed.kind === 'confirm') return `confirm ${parsed.record.confirm}`;
      if (parsed.kind === 'revoke') return `revoke ${parsed.record.revoke}`;
      return `lesson ${parsed.record.hash}`;
    });
}

describe('a quorum of confirmers revokes a lesson', () => {
  it('two votes of five leave it standing, a stranger’s is not counted, the third drops it for every holder', async () => {
    const root = tempDir('remem-quorum-');
    const folder = join(root, 'shared');
    const a = memory(root, 'a');
    const confirmers = [1, 2, 3, 4, 5].map((n) => memory(root, `c${n}`));
    const bystander = memory(root, 'bystander');
    const serverHome = join(root, 'commons');
    const token = remem(['commons', 'token', 'add', '--any', '--json'], { home: serverHome }).json<{
      token: string;
    }>().token;
    const commons = await serveCommons(serverHome, day(30));
    const publish = (who: ReturnType<typeof memory>, now: string) => {
      const shared = remem(['share', '--commons', commons.url, '--json'], {
        home: who.home,
        now,
        env: { REMEM_COMMONS_TOKEN: token },
      });
      expect(shared.code, shared.stderr).toBe(0);
    };
    const lessonsIn = async (state: string) =>
      (
        (await (await fetch(`${commons.url}/commons/lessons?state=${state}`)).json()) as {
          lessons: CommonsLesson[];
        }
      ).lessons;
    const vetoed = (who: ReturnType<typeof memory>, now: string) =>
      who.lessons(now).map((lesson) => lesson.state === 'vetoed');
    try {
      // A learns an error lesson and publishes it.
      a.night(0, [lintError(a.project, 'session-a-1', day(0))]);
      a.night(1, [lintError(a.project, 'session-a-2', day(1))]);
      a.run(['share', '--enable'], day(2, 5), a.project);
      expect(a.share(day(2, 5), folder)).toMatchObject({ lessons: 1 });
      const [learned] = a.lessons(day(2, 5));
      const hash = learned!.hash;
      const originA = a.origin();

      // Five memories receive it; each meets the error in its own sessions and publishes a confirmation.
      for (const c of confirmers) expect(c.receive(day(2, 6), folder)).toMatchObject({ received: 1 });
      for (const [n, c] of confirmers.entries()) {
        c.night(2);
        c.night(3, [lintError(c.project, `session-c${n}`, day(3))]);
        c.run(['share', '--enable'], day(4, 5), c.project);
        expect(c.share(day(4, 5), folder)).toMatchObject({ confirmations: 1 });
      }
      const confirmerOrigins = confirmers.map((c) => c.origin());
      expect(bystander.receive(day(4, 6), folder)).toMatchObject({ received: 1 });
      expect(a.receive(day(4, 6), folder).raised).toHaveLength(5);

      // A memory that never confirmed the lesson cannot vote on it.
      const refused = remem(['revoke', hash], { home: bystander.home, now: day(5, 5) });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /came from [0-9a-f]{16} and this memory publishes no confirmation of it: a revocation by another memory counts only from one of its confirmers/,
      );
      expect(vetoed(bystander, day(5, 5))).toEqual([false]);

      // Two votes: each voter stops using the lesson, and its file keeps its confirmation beside its vote.
      for (const c of confirmers.slice(0, 2)) {
        const vote = c.run(['revoke', hash, '--json'], day(5, 5)).json<{ as: string; fresh: boolean }>();
        expect(vote).toEqual(expect.objectContaining({ as: 'confirmer', fresh: true }));
        expect(vetoed(c, day(5, 5))).toEqual([true]);
        expect(c.share(day(5, 5), folder)).toMatchObject({ revocations: 1, confirmations: 1 });
      }
      const voter = confirmers[0]!;
      expect(recordsIn(folder, confirmerOrigins[0]!)).toEqual([`revoke ${hash}`, `confirm ${hash}`]);
      // A stranger signs a revocation of its own: a valid record, but not a confirmer's vote.
      const stranger = generateIdentity();
      const forged = signRecord(stranger, { revoke: hash, updated: day(5, 5) });
      writeFileSync(join(folder, `${stranger.origin}.jsonl`), `${forged}\n`);

      for (const c of confirmers.slice(2)) {
        expect(c.receive(day(5, 6), folder)).toMatchObject({ revocations: 3, dropped: 0, refused: 0 });
        expect(vetoed(c, day(5, 6))).toEqual([false]);
      }
      expect(bystander.receive(day(5, 6), folder)).toMatchObject({ revocations: 3, dropped: 0 });
      expect(vetoed(bystander, day(5, 6))).toEqual([false]);
      expect(a.receive(day(5, 6), folder)).toMatchObject({ revocations: 3, dropped: 0 });
      for (const who of [a, ...confirmers]) publish(who, day(5, 7));
      const put = await fetch(`${commons.url}/commons/${stranger.origin}.jsonl`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}` },
        body: `${forged}\n`,
      });
      expect(put.status).toBe(200);
      expect(await lessonsIn('revoked')).toEqual([]);
      expect(await lessonsIn('common')).toEqual([
        expect.objectContaining({ hash, confirmers: [...confirmerOrigins].sort(), revokedBy: null }),
      ]);

      // The third of five confirmers votes: more than half, and N = 3.
      confirmers[2]!.run(['revoke', hash], day(6, 5));
      expect(confirmers[2]!.share(day(6, 5), folder)).toMatchObject({ revocations: 1, confirmations: 1 });
      for (const who of [...confirmers.slice(3), bystander]) {
        expect(who.receive(day(6, 6), folder)).toMatchObject({ revocations: 1, dropped: 1 });
        expect(vetoed(who, day(6, 6))).toEqual([true]);
        expect(who.run(['lessons', '--json'], day(6, 6)).json<{ lessons: unknown[] }>().lessons).toEqual([]);
      }
      // A memory that joins now takes every record at once, in whatever order, and drops it the same way.
      const late = memory(root, 'late');
      expect(late.receive(day(6, 6), folder)).toMatchObject({ received: 1, dropped: 1 });
      expect(vetoed(late, day(6, 6))).toEqual([true]);
      // The voters stay confirmers, whoever reads their files.
      voter.receive(day(6, 6), folder);
      expect(voter.share(day(6, 7), folder)).toMatchObject({ revocations: 1, confirmations: 1 });

      publish(confirmers[2]!, day(6, 7));
      expect(await lessonsIn('revoked')).toEqual([
        expect.objectContaining({ hash, state: 'revoked', revokedBy: 'quorum', publishers: [originA] }),
      ]);
      // The confirmers that did not vote dropped it too, and stop confirming it.
      for (const c of confirmers.slice(3)) {
        expect(c.share(day(6, 8), folder)).toMatchObject({ confirmations: 0 });
      }
      expect(await lessonsIn('common')).toEqual([]);
      // The memory that published it is a holder too: it drops its own lesson and stops publishing it.
      expect(a.receive(day(6, 8), folder)).toMatchObject({ dropped: 1 });
      expect(vetoed(a, day(6, 8))).toEqual([true]);
      expect(a.share(day(6, 9), folder)).toMatchObject({ lessons: 0 });
    } finally {
      commons.stop();
    }
  }, 240_000);
});

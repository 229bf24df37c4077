import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { lessonHash } from '../../src/core/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem, repoRoot } from '../helpers/remem.ts';

const tempDir = useTempDirs();

interface Row {
  id: number;
  text: string;
  state: string;
  review: string;
  scope: string;
  validity: string;
  retention: string;
  resolution: string | null;
  subject: string;
  conflictsWith: number[];
  supersededBy: number | null;
  confirmations: number;
  reach: string;
}

function day(n: number, hour = 10): string {
  return new Date(Date.UTC(2026, 10, 1 + n, hour)).toISOString();
}

function correction(said: string, agentDid: string, session: string, at: string): string {
  return JSON.stringify({
    agent: 'claude-code',
    cwd: '/tmp/remem-e2e-truth',
    kind: 'correction',
    said,
    agent_did: agentDid,
    session,
    at,
  });
}

function night(home: string, n: number, events: string[]): void {
  const file = join(home, `events-${n}.jsonl`);
  writeFileSync(file, `${events.join('\n')}\n`);
  expect(remem(['ingest', '--events', file], { home, now: day(n, 23) }).code).toBe(0);
  const slept = remem(['sleep'], { home, now: day(n + 1, 4) });
  expect(slept.code, slept.stderr).toBe(0);
}

function lessons(home: string, now: string, extra: string[] = []): Row[] {
  const result = remem(['lessons', '--all', '--json', ...extra], { home, now });
  expect(result.code, result.stderr).toBe(0);
  return result.json<{ lessons: Row[] }>().lessons.sort((a, b) => a.id - b.id);
}

const parallel = () =>
  correction('no, the tests run in parallel here', "I'll run the tests one at a time.", 's1', day(0));
const serial = () =>
  correction(
    'the tests do not run in parallel anymore, they share one database',
    "I'll run the tests in parallel.",
    's2',
    day(5),
  );

/** Adds a lesson as another memory's sender would: its review state is left to the column default. */
function receive(home: string, text: string): number {
  const db = new Database(join(home, 'remem.db'));
  try {
    return Number(
      db
        .prepare(
          `INSERT INTO lessons (hash, kind, text, seen, strength, project, origin, happened_at, created_at, updated_at,
             touched_at, decayed_at)
           VALUES (?, 'surprise', ?, 0, 0.5, NULL, 'a1b2c3d4e5f60718', ?, ?, ?, ?, ?)`,
        )
        .run(lessonHash('surprise', text), text, day(1), day(1), day(1), day(1), day(1)).lastInsertRowid,
    );
  } finally {
    db.close();
  }
}

describe('truth, through the remem binary', () => {
  it('a newer correction that says otherwise supersedes the older; as of an earlier time the older was current', () => {
    const home = tempDir();
    night(home, 0, [parallel()]);
    night(home, 5, [serial()]);
    const [older, newer] = lessons(home, day(6, 5));
    expect(older).toMatchObject({ validity: 'superseded', supersededBy: newer!.id, reach: 'held' });
    expect(newer).toMatchObject({
      validity: 'current',
      retention: 'active',
      review: 'approved',
      // A remembered event stays in the project of its cwd.
      scope: 'project',
      resolution: 'explicit_supersedes',
      reach: 'lesson',
    });
    expect(older!.subject).toBe(newer!.subject);
    const then = lessons(home, day(6, 5), ['--as-of', day(3)]);
    expect(then.map((row) => [row.id, row.validity, row.resolution])).toEqual([
      [older!.id, 'current', 'only_surviving'],
    ]);
    const text = remem(['lessons'], { home, now: day(6, 5) }).stdout;
    expect(text).toContain(`superseded, explicit supersedes, by #${newer!.id}`);
    expect(remem(['lessons', '--as-of', 'yesterday'], { home }).code).toBe(2);
  });

  it('remem relate A refutes B: no winner, both contradicted, the agent is asked, and the person is audited', () => {
    const home = tempDir();
    night(home, 0, [
      parallel(),
      correction('the deploys happen on fridays', "I'll wait until Monday to deploy.", 's3', day(0, 12)),
    ]);
    const [a, b] = lessons(home, day(1, 5));
    expect(remem(['relate', String(a!.id), 'contradicts', String(b!.id)], { home }).code).toBe(2);
    const related = remem(['relate', String(a!.id), 'refutes', String(b!.id), '--json'], {
      home,
      now: day(1, 6),
    });
    expect(related.code, related.stderr).toBe(0);
    expect(related.json<{ added: boolean }>().added).toBe(true);
    expect(
      remem(['relate', String(a!.id), 'refutes', String(b!.id)], { home, now: day(1, 7) }).stdout,
    ).toMatch(/Already/);
    const rows = lessons(home, day(1, 8));
    for (const row of rows) {
      expect(row).toMatchObject({
        validity: 'contradicted',
        resolution: 'unresolved_conflict',
        reach: 'question',
      });
    }
    expect(rows[0]!.conflictsWith).toEqual([b!.id]);
    const recalled = remem(['recall', 'tests parallel deploys fridays', '--json', '--all-projects'], {
      home,
      now: day(1, 9),
    }).json<{ hits: { item: { type: string; text: string } }[] }>();
    expect(recalled.hits.filter((hit) => hit.item.type === 'lesson')).toEqual([]);
    expect(recalled.hits.filter((hit) => hit.item.type === 'question')).toHaveLength(1);
    const db = new Database(join(home, 'remem.db'), { readonly: true });
    const audit = db.prepare("SELECT actor, action, related FROM audit WHERE action = 'relate'").all();
    db.close();
    expect(audit).toEqual([{ actor: 'person', action: 'relate', related: JSON.stringify([b!.id]) }]);
  });

  it('remem review lists the queue; approving is refused without a terminal and works at one', () => {
    const home = tempDir();
    night(home, 0, [parallel()]);
    const id = receive(home, 'The agent found it had been wrong: "the lockfile is committed"');
    night(home, 2, []);
    const queue = remem(['review', '--json'], { home, now: day(3, 5) });
    expect(queue.code, queue.stderr).toBe(0);
    expect(queue.json<{ queue: unknown[] }>().queue).toMatchObject([
      {
        lesson: { id, review: 'pending_review' },
        origin: 'a1b2c3d4e5f60718',
        confirmations: 0,
        predicting: 1,
      },
    ]);
    expect(lessons(home, day(3, 5)).find((row) => row.id === id)).toMatchObject({
      validity: 'unknown',
      reach: 'held',
    });

    const refused = remem(['review', 'approve', String(id)], { home, now: day(3, 6) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/needs a person at an interactive terminal/);
    expect(remem(['review', 'bless', String(id)], { home }).code).toBe(2);

    // `script` gives the command a terminal for standard input, as a person at a keyboard would have.
    const command = `${process.execPath} ${join(repoRoot, 'bin', 'remem.js')} review approve ${id}`;
    const approved = spawnSync('script', ['-qec', command, '/dev/null'], {
      encoding: 'utf8',
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: join(home, 'user'),
        REMEM_HOME: home,
        REMEM_NOW: day(3, 7),
        NO_COLOR: '1',
      },
    });
    expect(approved.status, approved.stdout + approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(new RegExp(`Approved #${id}`));
    expect(lessons(home, day(3, 8)).find((row) => row.id === id)).toMatchObject({
      review: 'approved',
      validity: 'current',
      reach: 'lesson',
    });
    const db = new Database(join(home, 'remem.db'), { readonly: true });
    expect(db.prepare("SELECT actor FROM audit WHERE action = 'approve'").all()).toEqual([
      { actor: 'person' },
    ]);
    db.close();
  });
});

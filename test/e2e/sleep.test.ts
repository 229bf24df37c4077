import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';

const tempDir = useTempDirs();

interface LessonRow {
  id: number;
  kind: string;
  text: string;
  seen: number;
  strength: number;
  state: string;
  predicting: boolean;
  hash: string;
}

function day(n: number, hour = 10): string {
  return new Date(Date.UTC(2026, 10, 1 + n, hour)).toISOString();
}

function event(fields: Record<string, unknown>): string {
  return JSON.stringify({ agent: 'claude-code', cwd: '/tmp/remem-e2e-project', ...fields });
}

/** Ingests events, then sleeps, as the nightly job would on day `n`. */
function night(home: string, n: number, events: string[] = []): void {
  if (events.length) {
    const file = join(home, `events-${n}.jsonl`);
    writeFileSync(file, `${events.join('\n')}\n`);
    const ingest = remem(['ingest', '--events', file], { home, now: day(n, 23) });
    expect(ingest.code, ingest.stderr).toBe(0);
  }
  const slept = remem(['sleep'], { home, now: day(n + 1, 4) });
  expect(slept.code, slept.stderr).toBe(0);
}

function lessons(home: string, n: number, all = false): LessonRow[] {
  const result = remem(['lessons', '--json', ...(all ? ['--all'] : [])], { home, now: day(n + 1, 5) });
  expect(result.code, result.stderr).toBe(0);
  return result.json<{ lessons: LessonRow[] }>().lessons;
}

const pipCorrection = (session: string, at: string) =>
  event({
    kind: 'correction',
    said: 'no, this project uses uv, not pip',
    agent_did: "I'll install the dependency with pip install requests.",
    session,
    at,
  });

describe('sleep, replayed over weeks through REMEM_NOW', () => {
  it('one correction is a lesson that quotes the person and the agent sentence they answered', () => {
    const home = tempDir();
    night(home, 0, [pipCorrection('s1', day(0))]);
    const [lesson] = lessons(home, 0);
    expect(lesson?.kind).toBe('correction');
    expect(lesson?.text).toContain('"no, this project uses uv, not pip"');
    expect(lesson?.text).toContain("I'll install the dependency with pip install requests.");
    expect(lesson?.strength).toBe(1);
    expect(lesson?.predicting).toBe(true);
    const file = readFileSync(join(home, 'lessons.jsonl'), 'utf8').trim().split('\n');
    expect(file).toHaveLength(1);
    expect(Object.keys(JSON.parse(file[0]!)).sort()).toEqual([
      'id',
      'kind',
      'seen',
      'strength',
      'text',
      'updated',
    ]);
  });

  it('a lesson confirmed on night 3 gains strength; the same surprise joins it', () => {
    const home = tempDir();
    night(home, 0, [pipCorrection('s1', day(0))]);
    night(home, 1);
    night(home, 2, [pipCorrection('s2', day(2))]);
    const [lesson] = lessons(home, 2);
    expect(lesson?.seen).toBe(2);
    // +0.5 for the join, +0.5 for the confirmed prediction, less two nights of decay.
    expect(lesson?.strength).toBeGreaterThan(1.9);
    expect(lesson?.strength).toBeLessThan(2.0);
    const report = readFileSync(join(home, 'morning.md'), 'utf8');
    expect(report).toContain('Confirmed');
    // Each lesson is named by the id remem lessons and remem forget take.
    expect(report).toMatch(/^- #\d+ \[correction\] /m);
    // A lesson is listed once a night: confirmed, it is not also listed as strengthened.
    const ids = (title: string) => {
      const part = report.split('## ').find((section) => section.startsWith(title)) ?? '';
      return [...part.matchAll(/^- (#\d+)/gm)].map((match) => match[1]);
    };
    expect(ids('Confirmed').length).toBeGreaterThan(0);
    for (const id of ids('Confirmed')) expect(ids('Strengthened')).not.toContain(id);
  });

  /** A session that met nothing a correction lesson says: a failed command in another session of the project. */
  const otherSession = (n: number) =>
    event({
      kind: 'error',
      title: 'Bash: make',
      happened: `make: *** No rule to make target ${n}`,
      session: `o${n}`,
      at: day(n),
    });

  const correction = (home: string, n: number) =>
    lessons(home, n, true).find((lesson) => lesson.kind === 'correction');

  it('a prediction that nothing meets fails after 14 days and 3 sessions, both; a correction keeps its strength', () => {
    const home = tempDir();
    night(home, 0, [pipCorrection('s1', day(0))]);
    night(home, 10, [otherSession(10)]);
    expect(correction(home, 10)?.predicting).toBe(true);
    // 15 days, but one session since: not yet.
    night(home, 15);
    expect(correction(home, 15)?.predicting).toBe(true);
    night(home, 16, [otherSession(16), otherSession(17)]);
    const lesson = correction(home, 16);
    expect(lesson?.predicting).toBe(false);
    expect(readFileSync(join(home, 'morning.md'), 'utf8')).toContain('Failed');
    // 1 decayed over 17 days (≈ 0.77): the agent may have heeded it, so the unmet prediction takes nothing.
    expect(lesson?.strength).toBeGreaterThan(0.7);
  });

  it('an error lesson whose prediction nothing meets loses strength', () => {
    const home = tempDir();
    const lint = (n: number) =>
      event({
        kind: 'error',
        title: 'Bash: npm run lint',
        happened: 'npm ERR! Missing script: "lint"',
        session: `l${n}`,
        at: day(n),
      });
    night(home, 0, [lint(0), lint(0.5)]);
    const error = (n: number) =>
      lessons(home, n, true).find((lesson) => lesson.text.includes('Missing script'));
    expect(error(0)?.strength).toBeGreaterThan(1);
    const before = error(0)!.strength;
    night(home, 16, [otherSession(14), otherSession(15), otherSession(16)]);
    const after = error(16);
    expect(after?.predicting).toBe(false);
    // Decay alone over 16 days leaves ≈ 0.78 of it; the failed prediction takes 0.5 more.
    expect(after!.strength).toBeLessThan(before * 0.8 - 0.4);
  });

  it('a month away from the project fails no prediction', () => {
    const home = tempDir();
    night(home, 0, [pipCorrection('s1', day(0))]);
    night(home, 30);
    const [lesson] = lessons(home, 30, true);
    expect(lesson?.predicting).toBe(true);
    expect(readFileSync(join(home, 'morning.md'), 'utf8')).not.toContain('Failed');
  });

  it('a lesson learned when its session ended predicts at night, though decay took it below its first strength', () => {
    const home = tempDir();
    const file = join(home, 'events-0.jsonl');
    writeFileSync(file, `${pipCorrection('s1', day(0))}\n`);
    const learned = remem(['ingest', '--learn', '--events', file], { home, now: day(0, 12) });
    expect(learned.code, learned.stderr).toBe(0);
    expect(lessons(home, 0)[0]?.predicting).toBe(false);
    const slept = remem(['sleep'], { home, now: day(2, 4) });
    expect(slept.code, slept.stderr).toBe(0);
    const [lesson] = lessons(home, 1);
    expect(lesson?.strength).toBeLessThan(1);
    expect(lesson?.predicting).toBe(true);
  });

  it('a stale lesson makes no new prediction until it is met again', () => {
    const home = tempDir();
    night(home, 0, [pipCorrection('s1', day(0))]);
    night(home, 16, [otherSession(14), otherSession(15), otherSession(16)]);
    expect(correction(home, 16)?.predicting).toBe(false);
    night(home, 17);
    expect(correction(home, 17)?.predicting).toBe(false);
    night(home, 18, [pipCorrection('s9', day(18))]);
    expect(correction(home, 18)?.predicting).toBe(true);
  });

  it('an error must repeat before it is a lesson', () => {
    const home = tempDir();
    const error = (session: string, at: string) =>
      event({
        kind: 'error',
        title: 'Bash: npm run lint',
        happened: 'npm ERR! Missing script: "lint"',
        session,
        at,
      });
    night(home, 0, [error('s1', day(0))]);
    expect(lessons(home, 0)).toHaveLength(0);
    night(home, 1, [error('s2', day(1))]);
    const [lesson] = lessons(home, 1);
    expect(lesson?.kind).toBe('error');
    expect(lesson?.seen).toBe(2);
    expect(lesson?.strength).toBe(1.5);
  });

  it('decay archives a lesson after months without a touch, and never deletes it', () => {
    const home = tempDir();
    night(home, 0, [pipCorrection('s1', day(0))]);
    night(home, 150);
    expect(lessons(home, 150)).toHaveLength(0);
    const all = lessons(home, 150, true);
    expect(all[0]?.state).toBe('archived');
  });

  it('a veto survives every later sleep, even when the same correction comes again', () => {
    const home = tempDir();
    night(home, 0, [pipCorrection('s1', day(0))]);
    const [lesson] = lessons(home, 0);
    const vetoed = remem(['forget', String(lesson!.id)], { home, now: day(1, 9) });
    expect(vetoed.code, vetoed.stderr).toBe(0);
    night(home, 2, [pipCorrection('s2', day(2))]);
    night(home, 5, [pipCorrection('s3', day(5))]);
    expect(lessons(home, 5)).toHaveLength(0);
    expect(lessons(home, 5, true).map((row) => row.state)).toEqual(['vetoed']);
    expect(readFileSync(join(home, 'lessons.jsonl'), 'utf8')).toBe('');
  });

  it('refuses a clock that runs backwards and changes nothing', () => {
    const home = tempDir();
    night(home, 3, [pipCorrection('s1', day(3))]);
    const before = lessons(home, 3);
    const result = remem(['sleep'], { home, now: day(1) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/earlier than the last sleep/);
    expect(lessons(home, 3)).toEqual(before);
  });

  it('recall gives every component of the score and touches what it returns', () => {
    const home = tempDir();
    night(home, 0, [pipCorrection('s1', day(0))]);
    const result = remem(['recall', 'pip install', '--json', '--all-projects'], { home, now: day(1, 6) });
    expect(result.code, result.stderr).toBe(0);
    const answer = result.json<{
      hits: { score: number; item: { type: string }; components: Record<string, number> }[];
    }>();
    expect(answer.hits.length).toBeGreaterThan(0);
    const top = answer.hits[0]!;
    expect(Object.keys(top.components).sort()).toEqual(['cosine', 'recency', 'relevance', 'strength']);
    const { relevance, recency, strength } = top.components as {
      relevance: number;
      recency: number;
      strength: number;
    };
    expect(top.score).toBeCloseTo(0.6 * relevance + 0.25 * recency + 0.15 * strength, 6);
  });
});

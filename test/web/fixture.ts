import type { EpisodeDraft } from '../../src/core/index.ts';
import { type Config, lessonHash, resolveConfig } from '../../src/core/index.ts';
import { generateIdentity, signRecord } from '../../src/protocol/index.ts';
import type { SleepReport } from '../../src/sleep/index.ts';
import {
  appendAudit,
  assignEpisode,
  insertEpisodeOnce,
  insertInjection,
  insertRelation,
  openStore,
  putRecord,
  recordSleep,
  replaceSessionOffers,
  type Store,
} from '../../src/store/index.ts';
import { storeLesson, storePrediction, storeReceived } from '../truth/fixtures.ts';

export const NOW = '2026-03-30T06:00:00.000Z';
export const TOKEN = 'a'.repeat(64);

export function at(day: number, hour = 10): string {
  return new Date(Date.UTC(2026, 2, day, hour)).toISOString();
}

function episode(
  fields: Partial<EpisodeDraft> & Pick<EpisodeDraft, 'key' | 'kind' | 'session'>,
): EpisodeDraft {
  return {
    agent: 'claude-code',
    project: '/home/maya/code/tidepool',
    happenedAt: at(2),
    title: fields.said ?? 'a surprise',
    text: fields.said ?? 'a surprise',
    detail: {},
    source: {},
    ...fields,
  };
}

/** What the fixture holds, by name, for the tests to ask about. */
export interface Fixture {
  store: Store;
  home: string;
  ids: {
    pnpm: number;
    lint: number;
    feetA: number;
    feetB: number;
    archived: number;
    received: number;
    pnpmSource: number;
  };
  received: { origin: string; confirmer: string; text: string };
}

/**
 * A small memory built in code: a correction lesson learned from a transcript (with the agent's sentence and
 * the person's words), an error lesson from two sessions, two surprises that refute each other, an archived
 * lesson, a lesson received from another memory with its signed record and a confirmation from a third, the
 * audit of all that, predictions, a night's report, hand-backs and primes shown and held out.
 */
export function buildFixture(home: string): Fixture {
  const store = openStore(home);
  const { db } = store;
  const pnpmText =
    'When the agent said "I\'ll install zod with npm.", the person answered: "it\'s pnpm in this repo"';
  const pnpm = storeLesson(db, {
    kind: 'correction',
    text: pnpmText,
    at: at(3, 4),
    strength: 1.5,
  });
  const lint = storeLesson(db, {
    kind: 'error',
    text: 'The agent\'s Bash call "npm run lint" failed: Missing script: "lint"',
    project: '/home/maya/code/tidepool',
    at: at(10, 4),
  });
  const feetA = storeLesson(db, {
    kind: 'surprise',
    text: 'The agent found it had been wrong: the API returns heights in metres, not feet.',
    project: '/home/maya/code/tidepool',
    at: at(11, 4),
  });
  const feetB = storeLesson(db, {
    kind: 'surprise',
    text: 'The agent found it had been wrong: the API returns heights in feet after all, not metres.',
    project: '/home/maya/code/tidepool',
    at: at(12, 4),
  });
  const archived = storeLesson(db, {
    kind: 'correction',
    text: 'When the agent said "I will run the whole suite.", the person answered: "the unit tests are enough"',
    at: at(2, 4),
    strength: 0.1,
    archived: true,
  });

  const file = '/home/maya/.claude/projects/-home-maya-code-tidepool/s1.jsonl';
  insertEpisodeOnce(
    db,
    episode({
      key: 'pnpm-1',
      kind: 'correction',
      session: 's1-tidepool',
      happenedAt: at(2, 9),
      said: "it's pnpm in this repo",
      agentBefore: "I'll install zod with npm.",
      source: { file, line: 42 },
    }),
    'transcript',
    at(2, 23),
  );
  const pnpmSource = (db.prepare("SELECT id FROM episodes WHERE key = 'pnpm-1'").get() as { id: number }).id;
  assignEpisode(db, pnpmSource, pnpm);
  db.prepare(
    `INSERT INTO raw_files (path, agent, session, archive, read_at) VALUES (?, 'claude-code', 's1-tidepool', ?, ?)`,
  ).run(file, 'raw/claude-code/s1-tidepool/s1.g0.jsonl.gz', at(2, 23));
  for (const [key, session, day] of [
    ['lint-1', 's2', 9],
    ['lint-2', 's3', 10],
  ] as const) {
    insertEpisodeOnce(
      db,
      episode({
        key,
        kind: 'error',
        session,
        happenedAt: at(day, 11),
        title: 'Bash: npm run lint',
        text: 'npm ERR! Missing script: "lint"',
      }),
      'event',
      at(day, 23),
    );
    const id = (db.prepare('SELECT id FROM episodes WHERE key = ?').get(key) as { id: number }).id;
    assignEpisode(db, id, lint);
  }

  const audit = (
    action: 'add' | 'join' | 'confirm' | 'fail' | 'archive',
    lessonId: number,
    when: string,
    extra: { reason?: string; related?: number[] } = {},
  ) =>
    appendAudit(db, {
      at: when,
      actor: 'sleep',
      action,
      rules: 'test',
      lessonId,
      reason: extra.reason ?? action,
      related: extra.related ?? [],
    });
  audit('add', pnpm, at(3, 4), { related: [pnpmSource] });
  audit('confirm', pnpm, at(9, 4));
  audit('add', lint, at(10, 4), { related: [1, 2] });
  audit('add', feetA, at(11, 4), { related: [1] });
  audit('add', feetB, at(12, 4), { related: [1] });
  audit('add', archived, at(2, 4), { related: [1] });
  audit('fail', archived, at(17, 4));
  audit('archive', archived, at(25, 4), { reason: 'strength 0.100 fell below 0.15' });

  storePrediction(db, pnpm, at(3, 4), { state: 'confirmed', at: at(9, 4) });
  storePrediction(db, pnpm, at(9, 4));
  storePrediction(db, archived, at(3, 4), { state: 'failed', at: at(17, 4) });
  storePrediction(db, lint, at(10, 4), { state: 'confirmed', at: at(16, 4) });

  insertRelation(db, {
    kind: 'refutes',
    fromId: feetB,
    toId: feetA,
    actor: 'person',
    rules: 'test',
    reason: 'the person said these disagree',
    happenedAt: at(12, 4),
    recordedAt: at(12, 8),
  });

  // Another memory's lesson, received; a third memory confirmed it.
  const publisher = generateIdentity();
  const confirmer = generateIdentity();
  const text = 'The agent\'s tool call failed: "make" is not installed in the container.';
  const received = storeReceived(db, { text, kind: 'error', origin: publisher.origin, at: at(20, 6) });
  const hash = lessonHash('error', text);
  const lessonLine = signRecord(publisher, {
    kind: 'error',
    text,
    seen: 2,
    strength: 1.5,
    updated: at(20, 5),
  });
  const confirmLine = signRecord(confirmer, { confirm: hash, updated: at(22, 5) });
  for (const [kind, origin, line, updated] of [
    ['lesson', publisher.origin, lessonLine, at(20, 5)],
    ['confirm', confirmer.origin, confirmLine, at(22, 5)],
  ] as const) {
    putRecord(db, { kind, hash, origin, updated, line, receivedAt: at(22, 6) });
  }

  const report: SleepReport = {
    at: at(29, 4),
    space: 'hashed',
    fallback: null,
    wording: null,
    judge: null,
    embedded: 3,
    corruptVectors: 0,
    learned: [
      {
        id: feetB,
        kind: 'surprise',
        text: 'The API returns heights in feet after all.',
        strength: 1,
        seen: 1,
      },
    ],
    strengthened: [],
    merged: [],
    related: [{ kind: 'refutes', from: feetB, to: feetA }],
    confirmed: [],
    failed: [],
    corroborated: [],
    archived: [],
    episodesArchived: 0,
    predicted: 1,
    absorbedByVeto: 0,
    refused: [],
    problems: [],
  };
  recordSleep(db, at(29, 4), 'hashed', report);
  replaceSessionOffers(
    db,
    { agent: 'claude-code', session: 's2' },
    [
      {
        key: 'offer-1',
        kind: 'offer',
        agent: 'claude-code',
        session: 's2',
        project: null,
        happenedAt: at(9, 12),
        replyTail: 'Shall I run it?',
        answer: 'approved',
        answerText: 'yes',
      },
      {
        key: 'offer-2',
        kind: 'question',
        agent: 'claude-code',
        session: 's2',
        project: null,
        happenedAt: at(9, 13),
        replyTail: 'Which one?',
        answer: null,
        answerText: null,
      },
    ],
    at(9, 23),
  );
  for (const [session, shown] of [
    ['p1', true],
    ['p2', false],
  ] as const) {
    insertInjection(db, {
      at: at(20, 9),
      session,
      moment: 'prompt',
      shown,
      lessonHashes: [lessonHash('correction', pnpmText)],
      considered: 3,
      dropped: 2,
      reasons: {},
    });
  }
  return {
    store,
    home,
    ids: { pnpm, lint, feetA, feetB, archived, received, pnpmSource },
    received: { origin: publisher.origin, confirmer: confirmer.origin, text },
  };
}

export function configFor(home: string): Config {
  return resolveConfig({ REMEM_HOME: home, HOME: home }, {});
}

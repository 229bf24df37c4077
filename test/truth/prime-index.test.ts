import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Config, defaultParams, resolveConfig } from '../../src/core/index.ts';
import { hashedSpace, hashedVector, toBlob } from '../../src/embed/index.ts';
import { answerHook, type HookPayload } from '../../src/prime/index.ts';
import { poolFromStore } from '../../src/prime/store-pool.ts';
import { insertRelation, openStore, putVector, recordSleep, type Store } from '../../src/store/index.ts';
import { openPrimeIndex, type PrimeIndex, type PrimeRows, writePrimeIndex } from '../../src/truth/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { seeded } from '../helpers/random.ts';
import { day, storeLesson } from './fixtures.ts';

const tempDir = useTempDirs();
const NOW = day(5);
const words =
  'deploy migration schema cache staging tests parallel lint build token retry timeout docker branch merge release queue worker index query'.split(
    ' ',
  );
const PROJECTS = [null, '/a', '/b', '/c'] as const;

function sentence(random: () => number, length: number): string {
  return Array.from({ length }, () => words[Math.floor(random() * words.length)]).join(' ');
}

/** A store of 240 lessons over three projects and the person's own, one open question, hand-back sources. */
function filledStore(): { store: Store; config: Config } {
  const home = tempDir();
  const store = openStore(home);
  const random = seeded(7);
  const kinds = ['error', 'correction', 'surprise'] as const;
  const ids: number[] = [];
  for (let i = 0; i < 240; i++) {
    const kind = kinds[i % 3]!;
    // The corrections state rules of the house: prompts and calls meet those by subject as well.
    const rule = kind === 'correction' ? 'always ' : '';
    const text = `The person told the agent: "${rule}${sentence(random, 6)} ${i}"`;
    const project = PROJECTS[i % 4]!;
    const id = storeLesson(store.db, { id: i + 1, kind, text, project });
    // Some lessons have no stored vector: the index embeds them itself.
    if (i % 7 !== 0) putVector(store.db, 'lesson', id, 'hashed', 256, toBlob(hashedVector(text, 256)));
    ids.push(id);
  }
  insertRelation(store.db, {
    kind: 'refutes',
    fromId: ids[4]!,
    toId: ids[8]!,
    actor: 'person',
    rules: 'test',
    reason: '',
    happenedAt: day(1),
    recordedAt: day(1),
  });
  const episode = store.db.prepare(
    `INSERT INTO episodes (key, kind, origin, agent, session, project, happened_at, recorded_at, title, text, detail,
       touched_at, lesson_id) VALUES (?, 'correction', 'transcript', 'claude-code', 's', NULL, ?, ?, 't', 't', ?, ?, ?)`,
  );
  for (const [n, lesson] of [ids[1]!, ids[13]!, ids[25]!].entries()) {
    for (let k = 0; k < 3 + n; k++) {
      // The last followed a question the agent asked: no offer, so not counted.
      const detail = JSON.stringify({ afterHandback: k < 2 + n ? 'offer' : 'question' });
      episode.run(`e${lesson}-${k}`, day(0), day(0), detail, day(0), lesson);
    }
  }
  writePrimeIndex(store, NOW, 256);
  const config = resolveConfig({ HOME: home, REMEM_HOME: home, REMEM_HOLDOUT: '0' });
  return { store, config };
}

/** What a hook reads of each row; `project` the one asked for, to say whether its session start loads the row. */
function described(rows: PrimeRows, project: string | null = null) {
  return Array.from({ length: rows.count }, (_, row) => ({
    ...(({ startOf, ...rest }) => ({ ...rest, atStart: startOf?.includes(project) === true }))(
      rows.detail(row),
    ),
    kind: rows.kind(row),
    question: rows.question(row),
    sources: rows.sources(row),
    afterOffer: rows.afterOffer(row),
  }));
}

function readers(home: string): [string, PrimeIndex][] {
  return [
    ['read from the file', openPrimeIndex(home)!],
    ['kept in memory', openPrimeIndex(home, { keep: true })!],
  ];
}

/** How the index lays out its int8 vectors, from its header. */
function layoutOf(home: string): string {
  const bytes = readFileSync(join(home, 'prime-index.bin'));
  return (JSON.parse(bytes.toString('utf8', 12, 12 + bytes.readUInt32LE(8))) as { vectors: string }).vectors;
}

/** For many queries and cuts, in every project: the rows at or above the cut, with their exact cosines, and no other. */
function expectExactAtTheCut(home: string, query: () => Float32Array): void {
  let reached = 0;
  let below = 0;
  for (const [how, index] of readers(home)) {
    for (let n = 0; n < 60; n++) {
      const vector = query();
      const cut = [0.3, 0.2, 0.45][n % 3]!;
      const rows = index.rowsFor(PROJECTS[n % 4]!);
      // With no cut, every row reaches it, each with its exact cosine.
      const exact = rows.reaching(vector, Number.NEGATIVE_INFINITY);
      expect(
        exact.map(({ row }) => row),
        how,
      ).toEqual(Array.from({ length: rows.count }, (_, row) => row));
      const quick = rows.reaching(vector, cut);
      expect(quick, how).toEqual(exact.filter(({ similarity }) => similarity >= cut));
      // A row that reached the cut is placed without merging the blocks: in the place the merge gives it.
      const fresh = openPrimeIndex(home)!;
      const merged = described(fresh.rowsFor(PROJECTS[n % 4]!));
      fresh.close();
      for (const { row } of quick) {
        const { hashes, text } = merged[row]!;
        expect(rows.detail(row), how).toMatchObject({ hashes, text });
      }
      reached += quick.length;
      below += rows.count - quick.length;
    }
    index.close();
  }
  expect(reached).toBeGreaterThan(50);
  expect(below).toBeGreaterThan(50);
}

describe('the prime index', () => {
  it("holds, for each project, what the store shows there, in the store's order", () => {
    const { store } = filledStore();
    const space = hashedSpace(resolveConfig({ HOME: store.home, REMEM_HOME: store.home }).params);
    for (const [how, index] of readers(store.home)) {
      expect(index.space, how).toBe('hashed');
      for (const project of PROJECTS) {
        const fromStore = described(
          poolFromStore(store.db, NOW, project, space, defaultParams.render),
          project,
        );
        expect(described(index.rowsFor(project), project), `${how}, ${project}`).toEqual(fromStore);
      }
      index.close();
    }
    const inA = described(openPrimeIndex(store.home)!.rowsFor('/a'));
    expect(inA.filter((row) => row.question)).toHaveLength(1);
    const afterOffers = inA.filter((row) => row.afterOffer > 0);
    expect(afterOffers.length).toBeGreaterThan(0);
    expect(afterOffers.map((row) => row.sources - row.afterOffer)).toEqual(afterOffers.map(() => 1));
    store.close();
  });

  it('gives exactly the rows that reach the cut, each with its exact cosine', () => {
    const { store } = filledStore();
    expect(layoutOf(store.home)).toBe('postings');
    const random = seeded(11);
    expectExactAtTheCut(store.home, () => hashedVector(sentence(random, 4 + Math.floor(random() * 9)), 256));
    store.close();
  });

  it("keeps a model's dense vectors dimension by dimension, with the same guarantee", () => {
    const { store } = filledStore();
    const random = seeded(17);
    const unit = () => {
      const vector = Float32Array.from({ length: 24 }, () => random() - 0.5);
      const norm = Math.hypot(...vector);
      return vector.map((value) => value / norm);
    };
    for (const { id } of store.db.prepare('SELECT id FROM lessons').all() as { id: number }[])
      putVector(store.db, 'lesson', id, 'openai:test', 24, toBlob(unit()));
    recordSleep(store.db, day(2), 'openai:test', {});
    writePrimeIndex(store, NOW, 256);
    expect(layoutOf(store.home)).toBe('dense');
    expect(openPrimeIndex(store.home)?.dims).toBe(24);
    expectExactAtTheCut(store.home, unit);
    store.close();
  });

  it('answers every hook moment as the exact cosines would', async () => {
    const { store, config } = filledStore();
    const random = seeded(13);
    const exactly = (index: PrimeIndex): PrimeIndex => ({
      ...index,
      rowsFor(project) {
        const rows = index.rowsFor(project);
        return {
          ...rows,
          reaching: (query, cut) =>
            rows.reaching(query, Number.NEGATIVE_INFINITY).filter(({ similarity }) => similarity >= cut),
        };
      },
    });
    let answered = 0;
    for (let n = 0; n < 40; n++) {
      const payload: HookPayload = {
        event: (['UserPromptSubmit', 'PreToolUse', 'Stop'] as const)[n % 3]!,
        session: `s-${n % 5}`,
        cwd: PROJECTS[n % 4] ?? '/elsewhere',
        transcriptPath: null,
        prompt: sentence(random, 8),
        lastAssistantMessage: 'The build is fixed. Want me to deploy it to staging now?',
        stopHookActive: false,
        toolName: 'Bash',
        toolInput: { command: sentence(random, 5) },
      };
      const deps = { config, now: NOW, db: () => store.db };
      const quick = await answerHook(payload, { ...deps, index: () => openPrimeIndex(store.home) });
      const exact = await answerHook(payload, { ...deps, index: () => exactly(openPrimeIndex(store.home)!) });
      expect(quick).toEqual(exact);
      if (quick.output) answered++;
    }
    expect(answered).toBeGreaterThan(10);
    store.close();
  });

  it('is refused when an older build wrote it, or when it was cut short, and the hook then reads the store', async () => {
    const { store, config } = filledStore();
    const path = join(store.home, 'prime-index.bin');
    const payload: HookPayload = {
      event: 'UserPromptSubmit',
      session: 'old-index',
      cwd: '/a',
      transcriptPath: null,
      prompt: 'deploy migration schema cache staging tests',
      lastAssistantMessage: '',
      stopHookActive: false,
      toolName: '',
      toolInput: null,
    };
    const deps = { config, now: NOW, db: () => store.db };
    const fromStore = await answerHook(payload, { ...deps, index: () => null });
    expect(fromStore.log?.considered).toBeGreaterThan(0);
    // The first format: a header length, a JSON header with version 1, then float32 vectors.
    const header = Buffer.from(
      JSON.stringify({ version: 1, space: 'hashed', dims: 2, writtenAt: NOW, items: [] }),
    );
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.length, 0);
    const whole = readFileSync(path);
    for (const bytes of [
      Buffer.concat([length, header]),
      whole.subarray(0, whole.length - 9),
      Buffer.alloc(0),
    ]) {
      writeFileSync(path, bytes);
      expect(openPrimeIndex(store.home)).toBeNull();
      expect(openPrimeIndex(store.home, { keep: true })).toBeNull();
      expect(await answerHook(payload, { ...deps, index: () => openPrimeIndex(store.home) })).toEqual(
        fromStore,
      );
    }
    store.close();
  });

  it('is read again once it is rewritten, by a reader that keeps it', () => {
    const { store } = filledStore();
    const before = openPrimeIndex(store.home, { keep: true })!;
    expect(openPrimeIndex(store.home, { keep: true })).toBe(before);
    storeLesson(store.db, { id: 999, kind: 'error', text: 'The agent found: "one more"', project: null });
    writePrimeIndex(store, NOW, 256);
    const after = openPrimeIndex(store.home, { keep: true })!;
    expect(after).not.toBe(before);
    expect(after.rowsFor(null).count).toBe(before.rowsFor(null).count + 1);
    store.close();
  });
});

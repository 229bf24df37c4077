import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { append, defaultParams, type Lesson, type LessonKind } from '../core/index.ts';
import { fromBlob, hashedVector } from '../embed/index.ts';
import {
  blockBytes,
  bodyStart,
  COLUMNS,
  PRIME_INDEX_FILE,
  PRIME_INDEX_MAGIC,
  PRIME_INDEX_VERSION,
  type PrimeIndexGroup,
  type PrimeIndexHeader,
  primeIndexVectors,
  QUESTION,
  type RowDetail,
  SCALE_COLUMN,
} from '../hook/index.ts';
import { lastSleep, offerShare, type Store, vectorsInSpace } from '../store/index.ts';
import { ruleSubjects } from './rule-subjects.ts';
import { type StartParams, sessionStart, startBudget } from './start-block.ts';
import type { Visible } from './types.ts';
import { visibleToAgent } from './visible.ts';

/**
 * What an agent may be shown, compiled for the hooks: every visible lesson (and open question) with its
 * scope, its vector in the store's space and what the end-of-turn rule needs, in one file (laid out in
 * `prime-index-format.ts`). It is written whenever what agents may see changes (a sleep, a veto, a review, a
 * relation), so a hook on every prompt needs no database query and no projection.
 */
interface Entry {
  order: number;
  hashes: string[];
  text: string;
  kind: LessonKind;
  project: string | null;
  question: boolean;
  sources: number;
  afterOffer: number;
  vector: Float32Array;
  /** The projects (null: sessions outside any) whose session start loads it. */
  startOf: (string | null)[];
}

/** Where a lesson's vector comes from: the store, else the caller's embedding, else the last index's. */
interface VectorSources {
  stored: ReturnType<typeof vectorsInSpace>;
  embedded: ReadonlyMap<string, Float32Array>;
  previous: ReadonlyMap<string, Float32Array>;
}

/**
 * A lesson's vector: the store's; for one with none there (a layer's, or one not embedded yet) the one the
 * caller embedded, else the last index's, else its text in the hashed space; a model space's zero vector
 * (never primed) only when none of those is at hand.
 */
function vectorOf(lesson: Lesson, sources: VectorSources, space: string, dims: number): Float32Array {
  const vector = sources.stored.get(lesson.id);
  const parsed = vector ? fromBlob(vector.data, vector.dims) : null;
  if (parsed && parsed.length === dims) return parsed;
  const found = sources.embedded.get(lesson.hash) ?? sources.previous.get(lesson.hash);
  if (found && found.length === dims) return found;
  return space === 'hashed' ? hashedVector(lesson.text, dims) : new Float32Array(dims);
}

function projectOfEntry(entry: Visible): string | null {
  const lessons = entry.type === 'lesson' ? [entry.lesson] : entry.lessons;
  return lessons.find((lesson) => lesson.project !== null)?.project ?? null;
}

/**
 * For each visible entry, the projects whose session start loads it: what `sessionStart` chooses of the
 * person's own lessons and the project's, as render lists them. A hook then need not show again what the agent
 * loaded when the session began.
 */
function startsOf(
  db: Store['db'],
  visible: readonly Visible[],
  params: StartParams,
): Map<Visible, (string | null)[]> {
  const found = new Map<Visible, (string | null)[]>();
  const projects = new Set(visible.map(projectOfEntry));
  projects.add(null);
  for (const project of projects) {
    const scoped = visible.filter((entry) => {
      const of = projectOfEntry(entry);
      return of === null || of === project;
    });
    for (const entry of sessionStart(scoped, startBudget(db, project, params))) {
      const list = found.get(entry) ?? [];
      list.push(project);
      found.set(entry, list);
    }
  }
  return found;
}

/** The entries in the projection's order, each with one unit vector. */
function entriesOf(
  store: Store,
  now: string,
  space: string,
  dims: number,
  sources: VectorSources,
  params: StartParams,
): Entry[] {
  const visible = visibleToAgent(store.db, { now, scope: { project: null, allProjects: true } });
  const starts = startsOf(store.db, visible, params);
  return visible.map((entry, order) => {
    const lessons = entry.type === 'lesson' ? [entry.lesson] : entry.lessons;
    const first = lessons[0]!;
    const share =
      first.kind === 'correction' && entry.type === 'lesson' ? offerShare(store.db, first.id) : null;
    // A question is met when either side is: its vector is the normalised sum of both.
    const sum = new Float32Array(dims);
    for (const lesson of lessons) {
      const vector = vectorOf(lesson, sources, space, dims);
      for (let i = 0; i < dims; i++) sum[i] = sum[i]! + vector[i]!;
    }
    let norm = 0;
    for (let i = 0; i < dims; i++) norm += sum[i]! * sum[i]!;
    norm = Math.sqrt(norm) || 1;
    const vector = new Float32Array(dims);
    for (let i = 0; i < dims; i++) vector[i] = sum[i]! / norm;
    return {
      order,
      hashes: lessons.map((lesson) => lesson.hash),
      text: entry.type === 'lesson' ? entry.lesson.text : entry.text,
      kind: first.kind,
      project: projectOfEntry(entry),
      question: entry.type === 'question',
      sources: share?.sources ?? 0,
      afterOffer: share?.afterOffer ?? 0,
      vector,
      startOf: starts.get(entry) ?? [],
    };
  });
}

/** The person's own lessons first, then one group per project; within a group, the projection's order. */
function grouped(entries: Entry[]): { rows: Entry[]; groups: Omit<PrimeIndexGroup, 'offset' | 'bytes'>[] } {
  const projects = [...new Set(entries.map((entry) => entry.project).filter((p) => p !== null))].sort();
  const rows: Entry[] = [];
  const groups: Omit<PrimeIndexGroup, 'offset' | 'bytes'>[] = [];
  for (const project of [null, ...projects]) {
    const members = entries.filter((entry) => entry.project === project);
    groups.push({ project, start: rows.length, count: members.length });
    append(rows, members);
  }
  return { rows, groups };
}

const align4 = (n: number) => (n + 3) & ~3;

/** A vector as int8 steps and the step: round(v / step), step = max |v| / 127 (as float32, as it is read back). */
function quantised(vector: Float32Array): { scale: number; steps: Int8Array } {
  let largest = 0;
  for (const value of vector) largest = Math.max(largest, Math.abs(value));
  const scale = Math.fround(largest / 127);
  const steps = new Int8Array(vector.length);
  if (scale > 0) {
    for (let i = 0; i < vector.length; i++)
      steps[i] = Math.max(-127, Math.min(127, Math.round(vector[i]! / scale)));
  }
  return { scale, steps };
}

/** One group's block (laid out in `prime-index-format.ts`); `detailStarts` are the rows' places in the details. */
function blockOf(
  rows: readonly Entry[],
  quantisedRows: readonly { scale: number; steps: Int8Array }[],
  detailStarts: readonly number[],
  details: readonly Buffer[],
  kinds: readonly LessonKind[],
  vectors: 'dense' | 'postings',
  dims: number,
): Buffer {
  const n = rows.length;
  const nonZero = quantisedRows.reduce((sum, row) => sum + row.steps.filter((step) => step !== 0).length, 0);
  const block = Buffer.alloc(blockBytes(n, dims, vectors === 'dense' ? undefined : nonZero));
  rows.forEach((row, r) => {
    const columns = [
      row.order,
      kinds.indexOf(row.kind) | (row.question ? QUESTION : 0),
      row.sources,
      row.afterOffer,
      detailStarts[r]!,
      details[r]!.length,
      ruleSubjects(row.text).mask,
    ];
    for (const [c, value] of columns.entries()) block.writeUInt32LE(value, (c * n + r) * 4);
    block.writeFloatLE(quantisedRows[r]!.scale, (SCALE_COLUMN * n + r) * 4);
  });
  const at = COLUMNS * 4 * n;
  if (vectors === 'dense') {
    quantisedRows.forEach(({ steps }, r) => {
      for (let d = 0; d < dims; d++) block.writeInt8(steps[d]!, at + d * n + r);
    });
    return block;
  }
  let posted = 0;
  for (let d = 0; d < dims; d++) {
    block.writeUInt32LE(posted, at + d * 4);
    quantisedRows.forEach(({ steps }, r) => {
      if (steps[d] === 0) return;
      block.writeUInt32LE(r, at + 4 * (dims + 1) + posted * 4);
      block.writeInt8(steps[d]!, at + 4 * (dims + 1) + 4 * nonZero + posted);
      posted++;
    });
  }
  block.writeUInt32LE(posted, at + dims * 4);
  return block;
}

/** The space the index is written in: the store's (its last sleep's), the hashed space before any sleep. */
export function primeIndexSpace(store: Store): string {
  return lastSleep(store.db)?.space ?? 'hashed';
}

/**
 * Writes the index (atomically: a reader sees the old file or the new one); returns how many rows it holds.
 * `embedded` holds, by lesson hash, vectors in the index's space for lessons the store has none for (a layer's);
 * `params`, how render sizes what session start loads.
 */
export function writePrimeIndex(
  store: Store,
  now: string,
  hashedDims: number,
  embedded: ReadonlyMap<string, Float32Array> = new Map(),
  params: StartParams = defaultParams.render,
): number {
  const space = primeIndexSpace(store);
  const stored = vectorsInSpace(store.db, 'lesson', space);
  const sample = stored.values().next().value;
  // A model space cannot embed while the index is written: what the last index held carries over (the hashed
  // space embeds any text on the spot). With no vector of its own in the store, it also gives the dimension.
  const previous =
    space === 'hashed' ? new Map<string, Float32Array>() : primeIndexVectors(store.home, space);
  const dims =
    sample?.dims ??
    embedded.values().next().value?.length ??
    previous.values().next().value?.length ??
    hashedDims;
  const sources: VectorSources = { stored, embedded, previous };
  const { rows, groups } = grouped(entriesOf(store, now, space, dims, sources, params));
  const kinds = [...new Set(rows.map((row) => row.kind))];
  const details = rows.map((row) => {
    const detail: RowDetail = { hashes: row.hashes, text: row.text };
    if (row.startOf.length) detail.startOf = row.startOf;
    return Buffer.from(JSON.stringify(detail));
  });
  const detailStarts: number[] = [];
  let detailsLength = 0;
  for (const detail of details) {
    detailStarts.push(detailsLength);
    detailsLength += detail.length;
  }
  const steps = rows.map((row) => quantised(row.vector));
  const nonZero = steps.reduce((sum, row) => sum + row.steps.filter((step) => step !== 0).length, 0);
  // Postings cost five bytes a step against one: worth it only for vectors mostly zero.
  const vectors = nonZero * 4 < rows.length * dims ? 'postings' : 'dense';
  const blocks = groups.map((group) => {
    const range = [group.start, group.start + group.count] as const;
    return blockOf(
      rows.slice(...range),
      steps.slice(...range),
      detailStarts.slice(...range),
      details.slice(...range),
      kinds,
      vectors,
      dims,
    );
  });
  let offset = 0;
  const placed = groups.map((group, g) => {
    const at = offset;
    offset += blocks[g]!.length;
    return { ...group, offset: at, bytes: blocks[g]!.length };
  });
  const count = rows.length;
  const floats = Buffer.alloc(count * dims * 4);
  rows.forEach((row, r) => {
    for (let i = 0; i < dims; i++) floats.writeFloatLE(row.vector[i]!, (r * dims + i) * 4);
  });
  const float32At = align4(offset);
  const detailsAt = float32At + floats.length;
  const header: PrimeIndexHeader = {
    space,
    dims,
    writtenAt: now,
    count,
    kinds,
    vectors,
    groups: placed,
    sections: { float32: float32At, details: detailsAt, end: detailsAt + detailsLength },
  };
  const json = Buffer.from(JSON.stringify(header));
  const lead = Buffer.alloc(bodyStart(json.length));
  lead.write(PRIME_INDEX_MAGIC, 0, 'latin1');
  lead.writeUInt32LE(PRIME_INDEX_VERSION, 4);
  lead.writeUInt32LE(json.length, 8);
  json.copy(lead, 12);
  const file = Buffer.concat([lead, ...blocks, Buffer.alloc(float32At - offset), floats, ...details]);
  const path = join(store.home, PRIME_INDEX_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, file, { mode: 0o600 });
  renameSync(temporary, path);
  return count;
}

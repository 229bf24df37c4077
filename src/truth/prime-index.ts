import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Lesson, LessonKind } from '../core/index.ts';
import { fromBlob, hashedVector } from '../embed/index.ts';
import { handbackShare, lastSleep, type Store, vectorsInSpace } from '../store/index.ts';
import {
  bodyStart,
  PRIME_INDEX_FILE,
  PRIME_INDEX_MAGIC,
  PRIME_INDEX_VERSION,
  type PrimeIndexGroup,
  type PrimeIndexHeader,
  ROW_BYTES,
} from './prime-index-file.ts';
import { visibleToAgent } from './visible.ts';

/**
 * What an agent may be shown, compiled for the hooks: every visible lesson (and open question) with its
 * scope, its vector in the store's space and what the end-of-turn rule needs, in one file (laid out in
 * `prime-index-file.ts`). It is written whenever what agents may see changes (a sleep, a veto, a review, a
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
  afterHandback: number;
  vector: Float32Array;
}

function vectorOf(
  lesson: Lesson,
  stored: ReturnType<typeof vectorsInSpace>,
  space: string,
  dims: number,
): Float32Array {
  const vector = stored.get(lesson.id);
  const parsed = vector ? fromBlob(vector.data, vector.dims) : null;
  if (parsed && parsed.length === dims) return parsed;
  return space === 'hashed' ? hashedVector(lesson.text, dims) : new Float32Array(dims);
}

/** The entries in the projection's order, each with one unit vector. */
function entriesOf(store: Store, now: string, space: string, dims: number): Entry[] {
  const stored = vectorsInSpace(store.db, 'lesson', space);
  const visible = visibleToAgent(store.db, { now, scope: { project: null, allProjects: true } });
  return visible.map((entry, order) => {
    const lessons = entry.type === 'lesson' ? [entry.lesson] : entry.lessons;
    const first = lessons[0]!;
    const share =
      first.kind === 'correction' && entry.type === 'lesson' ? handbackShare(store.db, first.id) : null;
    // A question is met when either side is: its vector is the normalised sum of both.
    const sum = new Float32Array(dims);
    for (const lesson of lessons) {
      const vector = vectorOf(lesson, stored, space, dims);
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
      project: lessons.find((lesson) => lesson.project !== null)?.project ?? null,
      question: entry.type === 'question',
      sources: share?.sources ?? 0,
      afterHandback: share?.afterHandback ?? 0,
      vector,
    };
  });
}

/** The person's own lessons first, then one group per project; within a group, the projection's order. */
function grouped(entries: Entry[]): { rows: Entry[]; groups: PrimeIndexGroup[] } {
  const projects = [...new Set(entries.map((entry) => entry.project).filter((p) => p !== null))].sort();
  const rows: Entry[] = [];
  const groups: PrimeIndexGroup[] = [];
  for (const project of [null, ...projects]) {
    const members = entries.filter((entry) => entry.project === project);
    groups.push({ project, start: rows.length, count: members.length });
    rows.push(...members);
  }
  return { rows, groups };
}

const align4 = (n: number) => (n + 3) & ~3;

/** Writes the index (atomically: a reader sees the old file or the new one); returns how many rows it holds. */
export function writePrimeIndex(store: Store, now: string, hashedDims: number): number {
  const space = lastSleep(store.db)?.space ?? 'hashed';
  const sample = vectorsInSpace(store.db, 'lesson', space).values().next().value;
  const dims = sample ? sample.dims : hashedDims;
  const { rows, groups } = grouped(entriesOf(store, now, space, dims));
  const kinds = [...new Set(rows.map((row) => row.kind))];
  const details = rows.map((row) => Buffer.from(JSON.stringify({ hashes: row.hashes, text: row.text })));
  const count = rows.length;
  const int8 = count * ROW_BYTES;
  const float32 = align4(int8 + count * dims);
  const detailsAt = float32 + count * dims * 4;
  const length = detailsAt + details.reduce((sum, detail) => sum + detail.length, 0);
  const header: PrimeIndexHeader = {
    space,
    dims,
    writtenAt: now,
    count,
    kinds,
    groups,
    sections: { rows: 0, int8, float32, details: detailsAt, end: length },
  };
  const json = Buffer.from(JSON.stringify(header));
  const body = bodyStart(json.length);
  const file = Buffer.alloc(body + length);
  file.write(PRIME_INDEX_MAGIC, 0, 'latin1');
  file.writeUInt32LE(PRIME_INDEX_VERSION, 4);
  file.writeUInt32LE(json.length, 8);
  json.copy(file, 12);
  const { sections } = header;
  let detailAt = 0;
  rows.forEach((row, r) => {
    let largest = 0;
    for (let i = 0; i < dims; i++) largest = Math.max(largest, Math.abs(row.vector[i]!));
    const scale = Math.fround(largest / 127);
    const at = body + sections.rows + r * ROW_BYTES;
    file.writeUInt32LE(row.order, at);
    file.writeUInt8(kinds.indexOf(row.kind), at + 4);
    file.writeUInt8(row.question ? 1 : 0, at + 5);
    file.writeUInt32LE(row.sources, at + 8);
    file.writeUInt32LE(row.afterHandback, at + 12);
    file.writeFloatLE(scale, at + 16);
    file.writeUInt32LE(detailAt, at + 20);
    file.writeUInt32LE(details[r]!.length, at + 24);
    for (let i = 0; i < dims; i++) {
      const value = row.vector[i]!;
      const step = scale === 0 ? 0 : Math.max(-127, Math.min(127, Math.round(value / scale)));
      file.writeInt8(step, body + sections.int8 + r * dims + i);
      file.writeFloatLE(value, body + sections.float32 + (r * dims + i) * 4);
    }
    details[r]!.copy(file, body + sections.details + detailAt);
    detailAt += details[r]!.length;
  });
  const path = join(store.home, PRIME_INDEX_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, file, { mode: 0o600 });
  renameSync(temporary, path);
  return count;
}

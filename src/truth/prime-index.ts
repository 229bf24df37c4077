import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Lesson, LessonKind } from '../core/index.ts';
import { fromBlob, hashedVector } from '../embed/index.ts';
import { handbackShare, lastSleep, type Store, vectorsInSpace } from '../store/index.ts';
import { visibleToAgent } from './visible.ts';

/**
 * What an agent may be shown, compiled for the hooks: every visible lesson (and open question) with its
 * scope, its vector in the store's space and what the end-of-turn rule needs, in one file the hook reads
 * whole. It is written whenever what agents may see changes (a sleep, a veto, a review, a relation), so a
 * hook on every prompt needs no database query and no projection.
 */
export interface PrimeIndexItem {
  /** The lesson hashes: one for a lesson, two for a question. */
  hashes: string[];
  text: string;
  kind: LessonKind;
  /** Null: the person's own (reaches every project). */
  project: string | null;
  question: boolean;
  /** Sources, and how many followed a reply that handed the decision back (correction lessons). */
  sources: number;
  afterHandback: number;
}

export interface PrimeIndex {
  space: string;
  dims: number;
  writtenAt: string;
  items: PrimeIndexItem[];
  /** Row i of `items` is `vectors[i * dims … (i + 1) * dims)`. */
  vectors: Float32Array;
}

const FILE = 'prime-index.bin';
const VERSION = 1;

/** The last index's vector of each single lesson by hash, when it was written in `space` with `dims`. */
function previousVectors(home: string, space: string, dims: number): Map<string, Float32Array> {
  const previous = readPrimeIndex(home);
  const found = new Map<string, Float32Array>();
  if (!previous || previous.space !== space || previous.dims !== dims) return found;
  previous.items.forEach((item, row) => {
    if (item.hashes.length === 1) {
      found.set(item.hashes[0]!, previous.vectors.slice(row * dims, (row + 1) * dims));
    }
  });
  return found;
}

/**
 * A lesson's vector: the store's; for one with none there (a layer's, or one not embedded yet) the one the
 * caller embedded, else the last index's, else its text in the hashed space; a model space's zero vector
 * (never primed) only when none of those is at hand.
 */
function vectorOf(
  lesson: Lesson,
  sources: {
    stored: ReturnType<typeof vectorsInSpace>;
    embedded: ReadonlyMap<string, Float32Array>;
    previous: () => Map<string, Float32Array>;
  },
  space: string,
  dims: number,
): Float32Array {
  const vector = sources.stored.get(lesson.id);
  const parsed = vector ? fromBlob(vector.data, vector.dims) : null;
  if (parsed && parsed.length === dims) return parsed;
  const found = sources.embedded.get(lesson.hash) ?? sources.previous().get(lesson.hash);
  if (found && found.length === dims) return found;
  return space === 'hashed' ? hashedVector(lesson.text, dims) : new Float32Array(dims);
}

/** The space the index is written in: the store's (its last sleep's), the hashed space before any sleep. */
export function primeIndexSpace(store: Store): string {
  return lastSleep(store.db)?.space ?? 'hashed';
}

/**
 * Writes the index: a length, a JSON header, then the vectors as little-endian float32. `embedded` holds, by
 * lesson hash, vectors in the index's space for lessons the store has none for (layer lessons).
 */
export function writePrimeIndex(
  store: Store,
  now: string,
  hashedDims: number,
  embedded: ReadonlyMap<string, Float32Array> = new Map(),
): number {
  const space = primeIndexSpace(store);
  const stored = vectorsInSpace(store.db, 'lesson', space);
  const sample = stored.values().next().value;
  // With no vector of its own in the store, a model space's dimension is the last index's in that space.
  const last = space === 'hashed' ? null : readPrimeIndex(store.home);
  const dims =
    sample?.dims ??
    embedded.values().next().value?.length ??
    (last?.space === space ? last.dims : hashedDims);
  let previous: Map<string, Float32Array> | null = null;
  const sources = {
    stored,
    embedded,
    previous: () => {
      previous ??= previousVectors(store.home, space, dims);
      return previous;
    },
  };
  const visible = visibleToAgent(store.db, { now, scope: { project: null, allProjects: true } });
  const items: PrimeIndexItem[] = [];
  const vectors = new Float32Array(visible.length * dims);
  visible.forEach((entry, row) => {
    const lessons = entry.type === 'lesson' ? [entry.lesson] : entry.lessons;
    const first = lessons[0]!;
    const share =
      first.kind === 'correction' && entry.type === 'lesson' ? handbackShare(store.db, first.id) : null;
    items.push({
      hashes: lessons.map((lesson) => lesson.hash),
      text: entry.type === 'lesson' ? entry.lesson.text : entry.text,
      kind: first.kind,
      project: lessons.find((lesson) => lesson.project !== null)?.project ?? null,
      question: entry.type === 'question',
      sources: share?.sources ?? 0,
      afterHandback: share?.afterHandback ?? 0,
    });
    // A question is met when either side is: its vector is the normalised sum of both.
    const sum = new Float32Array(dims);
    for (const lesson of lessons) {
      const vector = vectorOf(lesson, sources, space, dims);
      for (let i = 0; i < dims; i++) sum[i] = sum[i]! + vector[i]!;
    }
    let norm = 0;
    for (let i = 0; i < dims; i++) norm += sum[i]! * sum[i]!;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < dims; i++) vectors[row * dims + i] = sum[i]! / norm;
  });
  const header = Buffer.from(JSON.stringify({ version: VERSION, space, dims, writtenAt: now, items }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length, 0);
  const body = Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength);
  const path = join(store.home, FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, Buffer.concat([length, header, body]), { mode: 0o600 });
  renameSync(temporary, path);
  return items.length;
}

/** A long-lived process (`remem serve`) keeps the index it read until the file changes. */
let cached: { path: string; mtimeMs: number; size: number; index: PrimeIndex } | null = null;

/** The index as last written, or null when there is none or it cannot be read (the hook then reads the store). */
export function readPrimeIndex(home: string): PrimeIndex | null {
  const path = join(home, FILE);
  try {
    const stat = statSync(path);
    if (cached && cached.path === path && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size)
      return cached.index;
    const index = parsePrimeIndex(readFileSync(path));
    cached = index ? { path, mtimeMs: stat.mtimeMs, size: stat.size, index } : null;
    return index;
  } catch {
    return null;
  }
}

function parsePrimeIndex(bytes: Buffer): PrimeIndex | null {
  try {
    const length = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.toString('utf8', 4, 4 + length)) as Omit<PrimeIndex, 'vectors'> & {
      version: number;
    };
    if (header.version !== VERSION) return null;
    const start = 4 + length;
    const floats = (bytes.length - start) / 4;
    if (floats !== header.items.length * header.dims) return null;
    const copy = new Uint8Array(bytes.length - start);
    copy.set(bytes.subarray(start));
    return {
      space: header.space,
      dims: header.dims,
      writtenAt: header.writtenAt,
      items: header.items,
      vectors: new Float32Array(copy.buffer),
    };
  } catch {
    return null;
  }
}

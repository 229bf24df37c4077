import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Layer, LayerLevel, LessonKind, LessonLine } from '../core/index.ts';
import { defaultParams, lessonHash } from '../core/index.ts';
import { findLessonProblem, parseRecordLine } from '../protocol/index.ts';
import { listLayers, replaceLayerLessons, type Store, tombstoneHashes } from '../store/index.ts';

export interface LayerRefusal {
  line: number;
  code: string;
  reason: string;
}

const lessonLineSchema = z.object({
  kind: z.string(),
  text: z.string(),
  seen: z.number().int().min(0).optional(),
  strength: z.number().finite().optional(),
  updated: z.string().optional(),
  hash: z.string().optional(),
});

/**
 * Reads a lessons file: lines in the format of `lessons.jsonl` (protocol §1), or signed records as a memory
 * publishes them (only their lessons are taken, each verified). Every lesson passes the checks a received one
 * does — kind, at most 300 characters, no control characters, not an instruction, no secret — and a stated
 * `hash` must be the hash of its kind and text. Never throws on content.
 */
export function readLayerText(
  text: string,
  level: LayerLevel,
  source: string,
  options: { maxChars?: number } = {},
): { lessons: LessonLine[]; refused: LayerRefusal[] } {
  const maxChars = options.maxChars ?? defaultParams.sharing.maxChars;
  const lessons: LessonLine[] = [];
  const refused: LayerRefusal[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const body = raw.replace(/\r$/, '');
    if (body.trim() === '') return;
    if (body.includes('"sig":')) {
      const parsed = parseRecordLine(body, { maxChars });
      if ('refused' in parsed) refused.push({ line, code: parsed.code, reason: parsed.refused });
      else if (parsed.kind === 'lesson') {
        const { record } = parsed;
        lessons.push({
          hash: record.hash,
          kind: record.kind,
          text: record.text,
          seen: record.seen,
          strength: record.strength,
          updated: record.updated,
          layer: level,
          source,
          origin: record.origin,
        });
      }
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      refused.push({ line, code: 'not_json', reason: 'not JSON' });
      return;
    }
    const fields = lessonLineSchema.safeParse(value);
    if (!fields.success) {
      refused.push({ line, code: 'field', reason: fields.error.issues[0]?.message ?? 'not a lesson' });
      return;
    }
    const { kind, text: sentence } = fields.data;
    const problem = findLessonProblem(kind, sentence, maxChars);
    if (problem !== null) {
      refused.push({ line, code: problem.code, reason: problem.reason });
      return;
    }
    const hash = lessonHash(kind, sentence);
    if (fields.data.hash !== undefined && fields.data.hash !== hash) {
      refused.push({ line, code: 'hash', reason: 'hash does not match the kind and text' });
      return;
    }
    lessons.push({
      hash,
      kind: kind as LessonKind,
      text: sentence,
      seen: fields.data.seen ?? 1,
      strength: fields.data.strength ?? 1,
      updated: fields.data.updated ?? '',
      layer: level,
      source,
    });
  });
  return { lessons, refused };
}

export interface LoadedLayer extends Layer {
  refused: LayerRefusal[];
  /** Set when the file could not be read; the layer then holds nothing. */
  problem: string | null;
}

/**
 * The layers listed in the store (`remem layer add`), each read and checked; a lesson whose hash is tombstoned
 * here (vetoed, revoked) is refused in a layer as anywhere else.
 */
export function loadLayers(store: Store, options: { maxChars?: number } = {}): LoadedLayer[] {
  const tombstones = tombstoneHashes(store.db);
  return listLayers(store.db).map((stored) => {
    let text: string;
    try {
      text = readFileSync(stored.path, 'utf8');
    } catch (error) {
      return {
        level: stored.level,
        source: stored.path,
        lessons: [],
        refused: [],
        problem: (error as Error).message,
      };
    }
    const read = readLayerText(text, stored.level, stored.path, options);
    const lessons = read.lessons.filter((lesson) => !tombstones.has(lesson.hash));
    const refused = [
      ...read.refused,
      ...read.lessons
        .filter((lesson) => tombstones.has(lesson.hash))
        .map((lesson) => ({
          line: 0,
          code: 'tombstoned',
          reason: `lesson ${lesson.hash} is tombstoned here`,
        })),
    ];
    return { level: stored.level, source: stored.path, lessons, refused, problem: null };
  });
}

/**
 * Reads every listed layer again and keeps what passed in the store, where every path an agent reads lessons
 * through composes it with this memory's own. A layer whose file cannot be read keeps the lessons of its last
 * good read (its problem is reported): a file briefly missing never empties what agents see.
 */
export function syncLayers(store: Store, now: string, options: { maxChars?: number } = {}): LoadedLayer[] {
  const layers = loadLayers(store, options);
  for (const layer of layers) {
    if (layer.problem !== null) continue;
    replaceLayerLessons(
      store.db,
      layer.source,
      layer.lessons.map((lesson) => ({
        hash: lesson.hash,
        kind: lesson.kind,
        text: lesson.text,
        seen: lesson.seen,
        strength: lesson.strength,
        updated: lesson.updated,
        origin: lesson.origin ?? null,
      })),
      now,
    );
  }
  return layers;
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HandbackAnswer, HandbackKind, LessonKind, Params, Prediction } from '../core/index.ts';
import { dot, hashedVector, normalize, type Subjects } from '../embed/index.ts';
import { type PrimeLogRow, primeDir } from '../prime/index.ts';
import { embeddingText } from '../sleep/index.ts';
import {
  type Db,
  type InjectionMoment,
  listEpisodes,
  listInjections,
  listLessons,
  listPredictions,
  offerMoments,
} from '../store/index.ts';
import { ruleSubjects } from '../truth/index.ts';
import { loadMessages, type Message } from './conversations.ts';

/** A surprise as the measures read it: who, when, and its vector in the hashed space. */
export interface Surprise {
  id: number;
  kind: LessonKind;
  session: string;
  project: string | null;
  /** Errors meet again only on the same tool (the partition sleep uses). */
  tool: string | null;
  at: string;
  vec: Float32Array;
  /** The lesson that holds it now (after merges), if any. */
  lessonId: number | null;
  afterOffer: boolean;
}

export type { Message };

export interface SessionInfo {
  id: string;
  /** Its first episode. */
  start: string;
  project: string | null;
}

/** A lesson that is not merged into another, with its sources. */
export interface LessonInfo {
  id: number;
  hash: string;
  kind: LessonKind;
  project: string | null;
  createdAt: string;
  approved: boolean;
  vetoedAt: string | null;
  sources: Surprise[];
  textVec: Float32Array;
  /** What the lesson is about (commands, themes, files): how the prompt hook meets a correction besides its words. */
  subjects: Subjects;
}

export interface InjectionInfo {
  at: string;
  session: string;
  moment: InjectionMoment;
  shown: boolean;
  lessonHashes: string[];
}

export interface OfferInfo {
  session: string;
  at: string;
  kind: HandbackKind;
  answer: HandbackAnswer | null;
}

/** Everything the measures read, loaded from the store once. */
export interface History {
  sessions: Map<string, SessionInfo>;
  surprises: Surprise[];
  /** Lessons by id, merged ones left out; `byHash` maps every hash, merged ones to their theme. */
  lessons: Map<number, LessonInfo>;
  byHash: Map<string, LessonInfo>;
  predictions: Prediction[];
  injections: InjectionInfo[];
  offers: OfferInfo[];
  /** The kept conversations, oldest first: what a memory that keeps every message would hold. */
  messages: Message[];
  params: Params;
}

function byTime<T extends { at: string }>(a: T, b: T): number {
  return a.at < b.at ? -1 : a.at > b.at ? 1 : 0;
}

/** The vector the measures compare, in the hashed space: a correction by the person's words alone. */
export function vectorOf(text: string, params: Params): Float32Array {
  return hashedVector(text, params.hashedDims);
}

/** Reads the store (and the hooks' logs not yet moved into it) into a `History`. */
export function loadHistory(db: Db, home: string, params: Params): History {
  const episodes = listEpisodes(db, { includeArchived: true });
  const sessions = new Map<string, SessionInfo>();
  for (const episode of episodes) {
    const known = sessions.get(episode.session);
    if (!known || episode.happenedAt < known.start) {
      sessions.set(episode.session, {
        id: episode.session,
        start: episode.happenedAt,
        project: known?.project ?? episode.project,
      });
    }
  }
  const stored = listLessons(db);
  const mergedInto = new Map(stored.map((lesson) => [lesson.id, lesson.mergedInto]));
  const finalOf = new Map<number, number>();
  for (const lesson of stored) {
    let current = lesson.id;
    // Bounded: a merge chain is never longer than the lessons there are.
    for (let steps = 0; steps < stored.length; steps++) {
      const next = mergedInto.get(current) ?? null;
      if (next === null) break;
      current = next;
    }
    finalOf.set(lesson.id, current);
  }

  const surprises: Surprise[] = episodes
    .filter((episode) => ['error', 'correction', 'surprise'].includes(episode.kind))
    .map((episode) => ({
      id: episode.id,
      kind: episode.kind as LessonKind,
      session: episode.session,
      project: episode.project,
      tool: typeof episode.detail['tool'] === 'string' ? episode.detail['tool'] : null,
      at: episode.happenedAt,
      vec: vectorOf(
        embeddingText({
          kind: episode.kind,
          title: episode.title,
          text: episode.text,
          said: episode.said ?? null,
        }),
        params,
      ),
      lessonId: episode.lessonId === null ? null : (finalOf.get(episode.lessonId) ?? episode.lessonId),
      // The Stop reminder answers offers: a source that followed another hand-back says nothing of them.
      afterOffer: episode.detail['afterHandback'] === 'offer',
    }));

  const sourcesOf = new Map<number, Surprise[]>();
  for (const surprise of surprises) {
    if (surprise.lessonId !== null)
      sourcesOf.set(surprise.lessonId, [...(sourcesOf.get(surprise.lessonId) ?? []), surprise]);
  }
  const lessons = new Map<number, LessonInfo>();
  for (const lesson of stored) {
    if (lesson.mergedInto !== null) continue;
    lessons.set(lesson.id, {
      id: lesson.id,
      hash: lesson.hash,
      kind: lesson.kind,
      project: lesson.project,
      createdAt: lesson.createdAt,
      approved: lesson.review === 'approved',
      vetoedAt: lesson.vetoedAt,
      sources: sourcesOf.get(lesson.id) ?? [],
      textVec: vectorOf(lesson.text, params),
      subjects: ruleSubjects(lesson.text),
    });
  }
  const byHash = new Map<string, LessonInfo>();
  for (const lesson of stored) {
    const final = lessons.get(finalOf.get(lesson.id) ?? lesson.id);
    if (final && !byHash.has(lesson.hash)) byHash.set(lesson.hash, final);
  }

  const offers = offerMoments(db);

  return {
    sessions,
    surprises,
    lessons,
    byHash,
    predictions: listPredictions(db),
    injections: [...storedInjections(db), ...undrainedInjections(home)].sort(byTime),
    offers,
    messages: loadMessages(db, episodes),
    params,
  };
}

const HOOK_MOMENTS: ReadonlySet<InjectionMoment> = new Set(['prompt', 'stop', 'tool']);

function storedInjections(db: Db): InjectionInfo[] {
  return listInjections(db)
    .filter((row) => row.session !== null && HOOK_MOMENTS.has(row.moment) && row.lessonHashes.length > 0)
    .map((row) => ({
      at: row.at,
      session: row.session!,
      moment: row.moment,
      shown: row.shown,
      lessonHashes: row.lessonHashes,
    }));
}

/**
 * What the hooks logged since the nightly job last moved their logs into the store. A file being moved
 * (`.draining`) is left to the store: its rows are there, or will be in a moment.
 */
function undrainedInjections(home: string): InjectionInfo[] {
  const dir = primeDir(home);
  if (!existsSync(dir)) return [];
  const found: InjectionInfo[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.jsonl')) continue;
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      let row: Partial<PrimeLogRow>;
      try {
        row = JSON.parse(line) as Partial<PrimeLogRow>;
      } catch {
        continue; // a line cut by a crash
      }
      const hashes = Array.isArray(row.lessonHashes)
        ? row.lessonHashes.filter((h) => typeof h === 'string')
        : [];
      if (typeof row.at !== 'string' || typeof row.session !== 'string' || hashes.length === 0) continue;
      if (row.moment !== 'prompt' && row.moment !== 'stop' && row.moment !== 'tool') continue;
      found.push({
        at: row.at,
        session: row.session.slice(0, 200),
        moment: row.moment,
        shown: row.heldOut !== true,
        lessonHashes: hashes,
      });
    }
  }
  return found;
}

/** Average cosine of a surprise with a lesson's sources (the linkage sleep joins by); its text without sources. */
export function linkage(vec: Float32Array, lesson: LessonInfo, before?: string): number {
  const sources = before === undefined ? lesson.sources : lesson.sources.filter((s) => s.at <= before);
  if (sources.length === 0) return dot(vec, lesson.textVec);
  let sum = 0;
  for (const source of sources) sum += dot(vec, source.vec);
  return sum / sources.length;
}

/** A lesson's vector as the hooks compare it: the mean of its sources (as of `before`), else its text. */
export function lessonVector(lesson: LessonInfo, before: string): Float32Array {
  const sources = lesson.sources.filter((source) => source.at <= before);
  if (sources.length === 0) return lesson.textVec;
  const sum = new Float32Array(lesson.textVec.length);
  for (const source of sources) for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! + source.vec[i]!;
  return normalize(sum);
}

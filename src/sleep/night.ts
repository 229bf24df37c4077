import type { Lesson, LessonKind, Params } from '../core/index.ts';
import type { Space, VectorSum } from '../embed/index.ts';
import type { Db } from '../store/index.ts';
import type { SleepReport } from './report.ts';

/**
 * The vector of an episode read only for its words, time and tool: the first or latest source of a lesson whose
 * sum is kept, which no pass compares (the passes compare the waiting surprises, the recent ones and the sums).
 * Empty, so a sum refuses it and a mistaken comparison finds nothing.
 */
export const UNREAD_VECTOR = new Float32Array(0);

/** An episode of a consolidated kind, with its vector in tonight's space (or `UNREAD_VECTOR`). */
export interface NightEpisode {
  id: number;
  kind: LessonKind;
  project: string | null;
  tool: string | null;
  happenedAt: string;
  title: string;
  text: string;
  said: string | null;
  agentBefore: string | null;
  detail: Record<string, unknown>;
  lessonId: number | null;
  vec: Float32Array;
  /** Embedded tonight: not yet compared with the others. */
  fresh: boolean;
}

/** Oldest first; at one time, the lower id first. */
export function byTime(a: NightEpisode, b: NightEpisode): number {
  return a.happenedAt < b.happenedAt ? -1 : a.happenedAt > b.happenedAt ? 1 : a.id - b.id;
}

/** A lesson with the running sum of its sources' vectors (average linkage in one dot product). */
export interface NightLesson {
  lesson: Lesson;
  sum: VectorSum;
  /**
   * The count of the sum kept in the store when the night began, or null when none stood for the sources; the sum
   * is written back when its count differs.
   */
  keptCount: number | null;
  /**
   * The sources the night holds, oldest first, then those it joined: all of them for a lesson made tonight or whose
   * sum was added up again; else the first and the latest, which is all the passes read of an older lesson's
   * sources (the partition, the words). The rest are read from the store when a merge needs them.
   */
  sources: NightEpisode[];
  /** A received lesson has no sources here; its own text's vector stands in for them. */
  textVec: Float32Array | null;
  changed: boolean;
}

/** Everything one sleep works on, in memory; the passes change it and the store is written once. */
export interface Night {
  db: Db;
  now: string;
  space: Space;
  /** The dimensions of tonight's vectors. */
  dims: number;
  params: Params;
  /** The rules' version, written into every audit row. */
  rules: string;
  episodes: Map<number, NightEpisode>;
  lessons: Map<number, NightLesson>;
  tombstones: Map<string, { reason: string; lessonId: number | null }>;
  report: SleepReport;
}

/** sleep-2: opposite polarity never joins, merges or confirms; lessons of one subject are related. */
export const RULES_VERSION = 'sleep-2';

/** The same-surprise cut, the linkage cut and the prediction match cut of tonight's space. */
export function cutsOf(night: Night): { same: number; linkage: number; match: number } {
  const { params, space } = night;
  return space.kind === 'hashed'
    ? {
        same: params.sameSurprise.hashed,
        linkage: params.linkage.hashed,
        match: params.prediction.matchHashed,
      }
    : { same: params.sameSurprise.model, linkage: params.linkage.model, match: params.sameSurprise.model };
}

/** The lesson's vector: the mean of its sources', or its own text's when it has none. */
export function lessonVector(lesson: NightLesson): Float32Array | null {
  if (lesson.sum.count > 0) return lesson.sum.centroid();
  return lesson.textVec;
}

/** Whether a lesson takes part in tonight's work: not merged into another, not vetoed. */
export function isLive(lesson: Lesson): boolean {
  return lesson.mergedInto === null && lesson.vetoedAt === null;
}

/**
 * Where a surprise can find the same surprise again. Corrections are about the person, so they meet
 * across projects; errors and stated surprises belong to a project, errors to a tool as well.
 */
export function partitionOf(item: {
  kind: LessonKind;
  project: string | null;
  tool?: string | null;
}): string {
  if (item.kind === 'correction') return 'correction';
  const tool = item.kind === 'error' ? (item.tool ?? '') : '';
  return `${item.kind}\u0000${item.project ?? ''}\u0000${tool}`;
}

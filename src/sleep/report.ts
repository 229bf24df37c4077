import type { LessonKind } from '../core/index.ts';

export interface LessonLine {
  id: number;
  kind: LessonKind;
  text: string;
  strength: number;
  seen: number;
}

/** What the wording model did tonight, when one is configured. */
export interface WordingNote {
  /** `api:model`, as the audit names it. */
  model: string;
  /** Lessons put to the model, and how many of them took its wording. */
  asked: number;
  reworded: number;
  /** Set when the model could not be asked for every lesson: those kept their deterministic wording. */
  fallback: string | null;
}

/** What the correction judge did tonight, when one is configured. */
export interface JudgeNote {
  /** `api:model`. */
  model: string;
  /** Requests sent (at most `params.judge.budget`), and what came of them. */
  asked: number;
  confirmed: number;
  declined: number;
  /** Answers that were neither yes nor no: tried again on a later night. */
  unclear: number;
  /** Candidates still waiting for a verdict after tonight. */
  waiting: number;
  /** Set when the judge could not be asked: the candidates left wait for the next night. */
  failure: string | null;
}

/** What one night did: the morning report is written from it. */
export interface SleepReport {
  at: string;
  space: string;
  /** The holdout's share of sessions, and the sessions it has held out and shown so far. */
  holdout?: { share: number; held: number; shown: number };
  fallback: string | null;
  /** Null unless a wording model is configured. */
  wording: WordingNote | null;
  /** Null unless a correction judge is configured. */
  judge: JudgeNote | null;
  embedded: number;
  corruptVectors: number;
  learned: LessonLine[];
  strengthened: (LessonLine & { by: number })[];
  merged: { into: LessonLine; from: number[] }[];
  /** Lessons of one subject found saying opposite things: the newer supersedes or refutes the older. */
  related: { kind: 'supersedes' | 'refutes'; from: number; to: number }[];
  confirmed: LessonLine[];
  failed: LessonLine[];
  /** This memory's lessons that another memory's lesson corroborated, and which memory. */
  corroborated: (LessonLine & { by: string })[];
  archived: LessonLine[];
  episodesArchived: number;
  /** How long an episode goes untouched before it is archived (`params.decay`), in days, when some were tonight. */
  episodesArchivedAfterDays?: number;
  predicted: number;
  /** Surprises that matched a vetoed lesson: kept with it, never written again. */
  absorbedByVeto: number;
  refused: { text: string; reason: string }[];
  problems: string[];
}

export function emptyReport(at: string, space: string): SleepReport {
  return {
    at,
    space,
    fallback: null,
    wording: null,
    judge: null,
    embedded: 0,
    corruptVectors: 0,
    learned: [],
    strengthened: [],
    merged: [],
    related: [],
    confirmed: [],
    failed: [],
    corroborated: [],
    archived: [],
    episodesArchived: 0,
    predicted: 0,
    absorbedByVeto: 0,
    refused: [],
    problems: [],
  };
}

export function lineOf(lesson: {
  id: number;
  kind: LessonKind;
  text: string;
  strength: number;
  seen: number;
}): LessonLine {
  return {
    id: lesson.id,
    kind: lesson.kind,
    text: lesson.text,
    strength: Math.round(lesson.strength * 100) / 100,
    seen: lesson.seen,
  };
}

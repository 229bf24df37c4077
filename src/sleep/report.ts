import type { LessonKind } from '../core/index.ts';

export interface LessonLine {
  id: number;
  kind: LessonKind;
  text: string;
  strength: number;
  seen: number;
}

/** What one night did: the morning report is written from it. */
export interface SleepReport {
  at: string;
  space: string;
  fallback: string | null;
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

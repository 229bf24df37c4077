/** The shared nouns of the flow: raw stream → episodes → lessons → records. Each keeps one meaning everywhere. */

export type Brand<T, B extends string> = T & { readonly __brand: B };

export type EpisodeKind = 'session' | 'error' | 'environment' | 'correction' | 'surprise' | 'note';
export const episodeKinds: readonly EpisodeKind[] = [
  'session',
  'error',
  'environment',
  'correction',
  'surprise',
  'note',
];

export type LessonKind = 'error' | 'correction' | 'surprise';

/** How a reply that hands the decision back does it (paper §7.1, the delegation tally). */
export type HandbackKind = 'offer' | 'waiting' | 'question';
/** How the person answered a hand-back. */
export type HandbackAnswer = 'corrected' | 'declined' | 'approved' | 'other';

/** Where in the raw stream an episode came from. */
export interface SourceRef {
  file?: string;
  line?: number;
}

/** An episode as derived, before the store gives it an id and a recorded time. */
export interface EpisodeDraft {
  /** Stable identity: the same surprise derived twice has the same key. */
  key: string;
  kind: EpisodeKind;
  agent: string;
  session: string;
  /** The git root of the working directory, or the directory itself outside git. */
  project: string | null;
  happenedAt: string;
  title: string;
  text: string;
  /** A correction: the person's words, verbatim. */
  said?: string;
  /** A correction: the agent's words they answered. */
  agentBefore?: string;
  detail: Record<string, unknown>;
  source: SourceRef;
}

export interface Episode extends EpisodeDraft {
  id: number;
  recordedAt: string;
  strength: number;
  touchedAt: string;
  archived: boolean;
  lessonId: number | null;
}

/** A reply that handed the decision back, and how the person answered (owner-only; never shown to an agent). */
export interface OfferDraft {
  key: string;
  kind: HandbackKind;
  agent: string;
  session: string;
  project: string | null;
  happenedAt: string;
  replyTail: string;
  answer: HandbackAnswer | null;
  answerText: string | null;
}

export type ReviewState = 'pending_review' | 'approved' | 'rejected';

/** A short observation learned from surprises, kept while it predicts. */
export interface Lesson {
  id: number;
  /** Identity across memories: BLAKE2b-128 of kind + normalised text (protocol). */
  hash: string;
  kind: LessonKind;
  text: string;
  seen: number;
  strength: number;
  /** The project (git root) it was learned in, or null for the person's own (global) scope. */
  project: string | null;
  /** 'self', or the origin of the memory it came from. */
  origin: string;
  review: ReviewState;
  happenedAt: string;
  createdAt: string;
  updatedAt: string;
  touchedAt: string;
  decayedAt: string;
  archived: boolean;
  mergedInto: number | null;
  vetoedAt: string | null;
}

export type PredictionState = 'open' | 'confirmed' | 'failed';

/** What a lesson says a coming session will meet, checked against what happens. */
export interface Prediction {
  id: number;
  lessonId: number;
  madeAt: string;
  dueAt: string;
  state: PredictionState;
  resolvedAt: string | null;
  episodeId: number | null;
}

/**
 * What a `VectorSum` (embed/) keeps: the members' count, the sum of their squared lengths, and their sum. Here,
 * not in embed/, because the store keeps it too (a lesson's kept sum, `lesson_sums`).
 */
export interface VectorSumState {
  count: number;
  squares: number;
  sum: Float64Array;
}

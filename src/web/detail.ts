import type { Episode, Params, Prediction } from '../core/index.ts';
import {
  auditOfLesson,
  type Db,
  getLesson,
  getRawFile,
  listEpisodes,
  listPredictions,
  type RelationKind,
  relationsOf,
  sourceIdsOf,
} from '../store/index.ts';
import { projectTruth } from '../truth/index.ts';
import { type LessonSummary, stateOf, summaryOf } from './lessons.ts';
import { type StrengthPoint, strengthHistory } from './strength.ts';

/** An episode a lesson was learned from, down to the place in the archived transcript. */
export interface SourceView {
  id: number;
  kind: Episode['kind'];
  agent: string;
  session: string;
  project: string | null;
  happenedAt: string;
  recordedAt: string;
  title: string;
  text: string;
  /** A correction: the person's words, verbatim. */
  said: string | null;
  /** A correction: the agent's sentence they answered. */
  agentBefore: string | null;
  file: string | null;
  line: number | null;
  /** Where Remem archived that transcript, under REMEM_HOME. */
  archive: string | null;
}

export interface PredictionView extends Prediction {
  /** The episode that met it, when one did. */
  episode: { id: number; title: string; session: string; happenedAt: string } | null;
}

/** How another lesson bears on this one, read from this one's side. */
export interface RelationView {
  kind: RelationKind;
  /** `from`: this lesson is the relation's subject (it supersedes, refutes, supports or derives from the other). */
  direction: 'from' | 'to';
  other: { id: number; kind: string; text: string; state: string } | null;
  otherId: number;
  actor: string;
  reason: string;
  happenedAt: string;
  recordedAt: string;
}

export interface LessonDetail {
  lesson: LessonSummary;
  sources: SourceView[];
  predictions: PredictionView[];
  relations: RelationView[];
  history: StrengthPoint[];
}

function sourceView(db: Db, episode: Episode): SourceView {
  const file = episode.source.file ?? null;
  return {
    id: episode.id,
    kind: episode.kind,
    agent: episode.agent,
    session: episode.session,
    project: episode.project,
    happenedAt: episode.happenedAt,
    recordedAt: episode.recordedAt,
    title: episode.title,
    text: episode.text,
    said: episode.said ?? null,
    agentBefore: episode.agentBefore ?? null,
    file,
    line: episode.source.line ?? null,
    archive: file === null ? null : (getRawFile(db, file)?.archive ?? null),
  };
}

/** Everything the store knows about one lesson, for the page that opens it; undefined when there is none. */
export function lessonDetail(
  db: Db,
  id: number,
  options: { now: string; params: Params },
): LessonDetail | undefined {
  const lesson = getLesson(db, id);
  if (!lesson) return undefined;
  const row = projectTruth(db, { now: options.now }).find((candidate) => candidate.lesson.id === id);
  if (!row) return undefined;
  const episodes = new Map(
    listEpisodes(db, { includeArchived: true }).map((episode) => [episode.id, episode]),
  );
  const sources = sourceIdsOf(db, id).flatMap((source) => {
    const episode = episodes.get(source);
    return episode ? [sourceView(db, episode)] : [];
  });
  const predictions = listPredictions(db, { lessonId: id });
  return {
    lesson: summaryOf(db, row),
    sources,
    predictions: predictions.map((prediction) => {
      const met = prediction.episodeId === null ? undefined : episodes.get(prediction.episodeId);
      return {
        ...prediction,
        episode: met
          ? { id: met.id, title: met.title, session: met.session, happenedAt: met.happenedAt }
          : null,
      };
    }),
    relations: relationsOf(db, id).map((relation) => {
      const direction = relation.fromId === id ? 'from' : 'to';
      const otherId = direction === 'from' ? relation.toId : relation.fromId;
      const other = getLesson(db, otherId);
      return {
        kind: relation.kind,
        direction,
        otherId,
        other: other ? { id: other.id, kind: other.kind, text: other.text, state: stateOf(other) } : null,
        actor: relation.actor,
        reason: relation.reason,
        happenedAt: relation.happenedAt,
        recordedAt: relation.recordedAt,
      };
    }),
    history: strengthHistory(lesson, auditOfLesson(db, id), options),
  };
}

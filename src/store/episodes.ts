import {
  type Episode,
  type EpisodeDraft,
  type EpisodeKind,
  maskSecrets,
  stripInvisible,
} from '../core/index.ts';
import type { Db } from './open.ts';

export type EpisodeOrigin = 'transcript' | 'event';

interface EpisodeRow {
  id: number;
  key: string;
  kind: EpisodeKind;
  origin: EpisodeOrigin;
  agent: string;
  session: string;
  project: string | null;
  happened_at: string;
  recorded_at: string;
  title: string;
  text: string;
  said: string | null;
  agent_before: string | null;
  detail: string;
  source_file: string | null;
  source_line: number | null;
  strength: number;
  touched_at: string;
  archived: number;
  live: number;
  lesson_id: number | null;
}

export function episodeFromRow(row: EpisodeRow): Episode {
  let detail: Record<string, unknown>;
  try {
    detail = JSON.parse(row.detail) as Record<string, unknown>;
  } catch {
    detail = { unreadable: row.detail };
  }
  return {
    id: row.id,
    key: row.key,
    kind: row.kind,
    agent: row.agent,
    session: row.session,
    project: row.project,
    happenedAt: row.happened_at,
    recordedAt: row.recorded_at,
    title: row.title,
    text: row.text,
    ...(row.said === null ? {} : { said: row.said }),
    ...(row.agent_before === null ? {} : { agentBefore: row.agent_before }),
    detail,
    source: {
      ...(row.source_file === null ? {} : { file: row.source_file }),
      ...(row.source_line === null ? {} : { line: row.source_line }),
    },
    strength: row.strength,
    touchedAt: row.touched_at,
    archived: row.archived === 1,
    lessonId: row.lesson_id,
  };
}

/**
 * Texts cleaned lately, by text. An episode's fields repeat one another (a correction's text is what was said), and
 * the same values recur from one episode to the next (a tool, a rule's cue, a folder); masking reads a text with
 * every rule. Only texts of up to `CLEANED_CHARS` are kept, and at most `CLEANED_KEPT` of them.
 */
const cleaned = new Map<string, string>();
const CLEANED_KEPT = 1024;
const CLEANED_CHARS = 4096;

/** Derived text as it may be kept and shown: secrets masked, invisible characters gone (DESIGN.md §6). */
function clean(text: string): string {
  const known = cleaned.get(text);
  if (known !== undefined) return known;
  const result = stripInvisible(maskSecrets(text));
  if (text.length <= CLEANED_CHARS) {
    if (cleaned.size >= CLEANED_KEPT) cleaned.clear();
    cleaned.set(text, result);
  }
  return result;
}

export function cleanDeep(value: unknown): unknown {
  if (typeof value === 'string') return clean(value);
  if (Array.isArray(value)) return value.map(cleanDeep);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, cleanDeep(inner)]));
  }
  return value;
}

/**
 * One episode's row values. Every episode is stored through here, whatever read it (transcripts, events, the
 * proxy), so nothing derived from it — lessons, files, the prime index, shared records — holds a secret.
 */
function storedValues(draft: EpisodeDraft, origin: EpisodeOrigin, now: string) {
  return {
    key: draft.key,
    kind: draft.kind,
    origin,
    agent: draft.agent,
    session: draft.session,
    project: draft.project,
    happenedAt: draft.happenedAt,
    now,
    title: clean(draft.title),
    text: clean(draft.text),
    said: draft.said === undefined ? null : clean(draft.said),
    agentBefore: draft.agentBefore === undefined ? null : clean(draft.agentBefore),
    detail: JSON.stringify(cleanDeep(draft.detail)),
    sourceFile: draft.source.file ?? null,
    sourceLine: draft.source.line ?? null,
  };
}

export interface UpsertResult {
  added: number;
  changed: number;
  removed: number;
}

/**
 * Makes the stored episodes of one session (of one origin) exactly the given drafts, matched by key:
 * new keys are added with `recordedAt = now`, known ones keep their id and recorded time, and keys no
 * longer derived are removed — or, when a lesson already holds them, kept but no longer live.
 */
export function replaceSessionEpisodes(
  db: Db,
  scope: { agent: string; session: string; origin: EpisodeOrigin },
  drafts: readonly EpisodeDraft[],
  now: string,
): UpsertResult {
  const existing = new Map(
    (
      db
        .prepare(
          'SELECT id, key, kind, title, text, said, agent_before, detail, happened_at, project, source_file, source_line, live, lesson_id FROM episodes WHERE agent = ? AND session = ? AND origin = ?',
        )
        .all(scope.agent, scope.session, scope.origin) as EpisodeRow[]
    ).map((row) => [row.key, row]),
  );
  const insert =
    db.prepare(`INSERT INTO episodes (key, kind, origin, agent, session, project, happened_at, recorded_at, title, text, said,
       agent_before, detail, source_file, source_line, touched_at)
     VALUES (@key, @kind, @origin, @agent, @session, @project, @happenedAt, @now, @title, @text, @said, @agentBefore,
       @detail, @sourceFile, @sourceLine, @happenedAt)`);
  const update =
    db.prepare(`UPDATE episodes SET kind = @kind, project = @project, happened_at = @happenedAt, title = @title, text = @text,
       said = @said, agent_before = @agentBefore, detail = @detail, source_file = @sourceFile,
       source_line = @sourceLine, live = 1
     WHERE id = @id`);
  const result: UpsertResult = { added: 0, changed: 0, removed: 0 };
  for (const draft of drafts) {
    const values = storedValues(draft, scope.origin, now);
    const row = existing.get(draft.key);
    existing.delete(draft.key);
    if (!row) {
      insert.run(values);
      result.added++;
      continue;
    }
    const same =
      row.kind === values.kind &&
      row.title === values.title &&
      row.text === values.text &&
      row.said === values.said &&
      row.agent_before === values.agentBefore &&
      row.detail === values.detail &&
      row.happened_at === values.happenedAt &&
      row.project === values.project &&
      row.source_file === values.sourceFile &&
      row.source_line === values.sourceLine &&
      row.live === 1;
    if (!same) {
      update.run({ ...values, id: row.id });
      result.changed++;
    }
  }
  for (const row of existing.values()) {
    if (row.lesson_id === null) db.prepare('DELETE FROM episodes WHERE id = ?').run(row.id);
    else db.prepare('UPDATE episodes SET live = 0 WHERE id = ?').run(row.id);
    result.removed++;
  }
  return result;
}

/** Adds one episode unless its key is already stored (events are stored once). */
export function insertEpisodeOnce(db: Db, draft: EpisodeDraft, origin: EpisodeOrigin, now: string): boolean {
  const info = db
    .prepare(
      `INSERT OR IGNORE INTO episodes (key, kind, origin, agent, session, project, happened_at, recorded_at, title,
         text, said, agent_before, detail, source_file, source_line, touched_at)
       VALUES (@key, @kind, @origin, @agent, @session, @project, @happenedAt, @now, @title, @text, @said,
         @agentBefore, @detail, @sourceFile, @sourceLine, @happenedAt)`,
    )
    .run(storedValues(draft, origin, now));
  return info.changes === 1;
}

export interface EpisodeFilter {
  kind?: EpisodeKind;
  session?: string;
  includeArchived?: boolean;
  limit?: number;
}

export function listEpisodes(db: Db, filter: EpisodeFilter = {}): Episode[] {
  const where = ['live = 1'];
  const params: unknown[] = [];
  if (filter.kind) {
    where.push('kind = ?');
    params.push(filter.kind);
  }
  if (filter.session) {
    where.push('session = ?');
    params.push(filter.session);
  }
  if (!filter.includeArchived) where.push('archived = 0');
  const limit = filter.limit ? `LIMIT ${Math.floor(filter.limit)}` : '';
  const rows = db
    .prepare(`SELECT * FROM episodes WHERE ${where.join(' AND ')} ORDER BY happened_at, id ${limit}`)
    .all(...params) as EpisodeRow[];
  return rows.map(episodeFromRow);
}

/** A live episode not yet archived: the strength it had when last touched, and when that was. */
export interface FadingEpisode {
  id: number;
  strength: number;
  touchedAt: string;
}

/** Every live episode not yet archived, for the decay pass. */
export function fadingEpisodes(db: Db): FadingEpisode[] {
  return db
    .prepare(
      `SELECT id, strength, touched_at AS touchedAt FROM episodes INDEXED BY episodes_fading
       WHERE archived = 0 AND live = 1`,
    )
    .all() as FadingEpisode[];
}

/** Archives these episodes: no longer competing for attention, never deleted. */
export function archiveEpisodes(db: Db, ids: readonly number[]): void {
  if (ids.length === 0) return;
  const archive = db.prepare('UPDATE episodes SET archived = 1 WHERE id = ?');
  for (const id of ids) archive.run(id);
}

/** When the latest episode happened, or null in an empty store. */
export function latestHappenedAt(db: Db): string | null {
  const row = db.prepare('SELECT MAX(happened_at) AS last FROM episodes').get() as { last: string | null };
  return row.last;
}

export function countEpisodesByKind(db: Db): Record<string, number> {
  const rows = db
    .prepare('SELECT kind, COUNT(*) AS n FROM episodes WHERE live = 1 GROUP BY kind ORDER BY kind')
    .all() as { kind: string; n: number }[];
  return Object.fromEntries(rows.map((row) => [row.kind, row.n]));
}

/** A live episode as recall searches it: what it shows, its strength and when it was last touched. */
export interface RecallableEpisode {
  id: number;
  kind: EpisodeKind;
  title: string;
  text: string;
  said: string | null;
  strength: number;
  happened_at: string;
  touched_at: string;
  project: string | null;
  lesson_id: number | null;
}

/** Every live episode that is not archived, for recall. */
export function recallableEpisodes(db: Db): RecallableEpisode[] {
  return db
    .prepare(
      `SELECT id, kind, title, text, said, strength, happened_at, touched_at, project, lesson_id FROM episodes
       WHERE live = 1 AND archived = 0`,
    )
    .all() as RecallableEpisode[];
}

/** The projects any episode was seen in. */
export function episodeProjects(db: Db): string[] {
  return (
    db.prepare('SELECT DISTINCT project FROM episodes WHERE project IS NOT NULL').all() as {
      project: string;
    }[]
  ).map((row) => row.project);
}

/** Use keeps a memory alive: each lesson and episode given gets its new strength, and its decay starts again. */
export function touchStrengths(
  db: Db,
  now: string,
  touched: { lessons: { id: number; strength: number }[]; episodes: { id: number; strength: number }[] },
): void {
  const lesson = db.prepare('UPDATE lessons SET strength = ?, decayed_at = ?, touched_at = ? WHERE id = ?');
  const episode = db.prepare('UPDATE episodes SET strength = ?, touched_at = ? WHERE id = ?');
  db.transaction(() => {
    for (const { id, strength } of touched.lessons) lesson.run(strength, now, now, id);
    for (const { id, strength } of touched.episodes) episode.run(strength, now, id);
  })();
}

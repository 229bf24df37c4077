import type { Config, Lesson } from '../core/index.ts';
import { cosine, createSpace, fromBlob, hashedSpace, type Space } from '../embed/index.ts';
// The hook's hot path takes the detectors and the project rule alone, not the ingest machinery behind
// the episodes front door (and the schema library it loads).
import { classifyHandback, needsPerson } from '../episodes/detect.ts';
import { projectOf } from '../episodes/project.ts';
import { type Db, handbackShare, lastSleep, type StoredVector, vectorsInSpace } from '../store/index.ts';
import { type PrimeIndex, readPrimeIndex, type Visible, visibleToAgent } from '../truth/index.ts';
import { isHeldOut } from './holdout.ts';
import { describeCall, type HookPayload } from './payload.ts';
import { contextText, reminderText } from './reminder.ts';
import { type PrimeLogRow, readSessionLog } from './session-log.ts';

export interface HookDeps {
  config: Config;
  now: string;
  /** The store, opened read-only on first need; null when there is none yet. */
  db(): Db | null;
}

export interface HookAnswer {
  /** What the hook prints (one JSON object), or null for silence. */
  output: Record<string, unknown> | null;
  /** The payload-free row of what was worked out, shown or held. */
  log: Omit<PrimeLogRow, 'ms' | 'outcome'> | null;
  /** SessionEnd: archive the session's transcript the day it is written. */
  ingest?: boolean;
}

interface Candidate {
  hashes: string[];
  text: string;
  similarity: number;
}

/** The space the store's vectors are in (the last sleep's); the hashed space before any sleep. */
function storeSpace(db: Db | null, config: Config, index: PrimeIndex | null = null): Space {
  const name = index?.space ?? (db ? lastSleep(db)?.space : undefined);
  if (!name || name === 'hashed') return hashedSpace(config.params);
  const configured = createSpace(config.embed, config.params);
  return configured.name === name ? configured : hashedSpace(config.params);
}

function primingCut(space: Space, config: Config): number {
  return space.kind === 'hashed' ? config.params.priming.hashed : config.params.priming.model;
}

function lessonVector(stored: Map<number, StoredVector>, lesson: Lesson, space: Space): Float32Array | null {
  const vector = stored.get(lesson.id);
  if (vector) return fromBlob(vector.data, vector.dims);
  return space.embedSync ? space.embedSync(lesson.text) : null;
}

/** Every lesson (or open question) an agent may see, with how close it comes to `query`. */
function candidates(db: Db, visible: readonly Visible[], query: Float32Array, space: Space): Candidate[] {
  const stored = vectorsInSpace(db, 'lesson', space.name);
  const found: Candidate[] = [];
  for (const item of visible) {
    const lessons = item.type === 'lesson' ? [item.lesson] : item.lessons;
    let best = 0;
    for (const lesson of lessons) {
      const vec = lessonVector(stored, lesson, space);
      if (vec) best = Math.max(best, cosine(vec, query));
    }
    found.push({
      hashes: lessons.map((lesson) => lesson.hash),
      text: item.type === 'lesson' ? item.lesson.text : item.text,
      similarity: best,
    });
  }
  return found;
}

function shownBefore(log: readonly PrimeLogRow[]): Set<string> {
  const seen = new Set<string>();
  for (const row of log) if (row.moment !== 'stop') for (const hash of row.lessonHashes) seen.add(hash);
  return seen;
}

/** What the hook compares with: the compiled index when it is current for the store's space, else the store. */
interface Pool {
  items: {
    hashes: string[];
    text: string;
    kind: Lesson['kind'];
    project: string | null;
    question: boolean;
    sources: number;
    afterHandback: number;
  }[];
  similarities(query: Float32Array): number[];
}

function poolFromIndex(index: PrimeIndex, project: string | null): Pool {
  const rows = index.items
    .map((item, row) => ({ item, row }))
    .filter(({ item }) => item.project === null || item.project === project);
  return {
    items: rows.map(({ item }) => item),
    similarities(query) {
      const { dims, vectors } = index;
      return rows.map(({ row }) => {
        let sum = 0;
        const base = row * dims;
        for (let i = 0; i < dims; i++) sum += vectors[base + i]! * query[i]!;
        return sum;
      });
    },
  };
}

function poolFromStore(db: Db, now: string, project: string | null, space: Space): Pool {
  const visible = visibleToAgent(db, { now, scope: { project } });
  return {
    items: visible.map((item) => {
      const lessons = item.type === 'lesson' ? [item.lesson] : item.lessons;
      const share =
        item.type === 'lesson' && item.lesson.kind === 'correction'
          ? handbackShare(db, item.lesson.id)
          : null;
      return {
        hashes: lessons.map((lesson) => lesson.hash),
        text: item.type === 'lesson' ? item.lesson.text : item.text,
        kind: lessons[0]!.kind,
        project: lessons.find((lesson) => lesson.project !== null)?.project ?? null,
        question: item.type === 'question',
        sources: share?.sources ?? 0,
        afterHandback: share?.afterHandback ?? 0,
      };
    }),
    similarities: (query) => candidates(db, visible, query, space).map((candidate) => candidate.similarity),
  };
}

/** The compiled index when it matches the store's space; else the store itself, read through the projection. */
function poolAndSpace(deps: HookDeps, project: string | null): { pool: Pool; space: Space } | null {
  const index = readPrimeIndex(deps.config.home);
  if (index) {
    const space = storeSpace(null, deps.config, index);
    if (space.name === index.space) return { pool: poolFromIndex(index, project), space };
  }
  const db = deps.db();
  if (!db) return null;
  const space = storeSpace(db, deps.config);
  return { pool: poolFromStore(db, deps.now, project, space), space };
}

/** Priming at a prompt or a tool call: what meets it, at most `limit`, each lesson once per session. */
async function prime(
  deps: HookDeps,
  payload: HookPayload,
  moment: 'prompt' | 'tool',
  query: string,
  kinds: ReadonlySet<Lesson['kind']> | null,
  limit: number,
): Promise<HookAnswer> {
  const { config } = deps;
  const found = poolAndSpace(deps, projectOf(payload.cwd));
  if (!found) return { output: null, log: null };
  const { pool, space } = found;
  const eligible = pool.items.map((item) => kinds === null || (!item.question && kinds.has(item.kind)));
  const considered = eligible.filter(Boolean).length;
  const heldOut = isHeldOut(payload.session, config.holdout);
  const base = {
    at: deps.now,
    session: payload.session,
    moment,
    heldOut,
    ...(moment === 'prompt' ? { needsPerson: needsPerson(payload.prompt) } : {}),
  };
  if (considered === 0 || !query.trim()) {
    return {
      output: null,
      log: { ...base, shown: false, lessonHashes: [], considered: 0, dropped: 0, reasons: {} },
    };
  }
  const [vector] = await space.embed([query]);
  const similarities = pool.similarities(vector!);
  const cut = primingCut(space, config);
  const before = shownBefore(readSessionLog(config.home, payload.session));
  const reasons: Record<string, number> = {};
  const drop = (reason: string) => {
    reasons[reason] = (reasons[reason] ?? 0) + 1;
  };
  const ranked = pool.items
    .map((item, index) => ({ item, similarity: similarities[index]!, eligible: eligible[index]! }))
    .filter((entry) => entry.eligible)
    .sort((a, b) => b.similarity - a.similarity);
  const chosen: Candidate[] = [];
  for (const { item, similarity } of ranked) {
    if (similarity < cut) drop('below_priming_cut');
    else if (item.hashes.some((hash) => before.has(hash))) drop('shown_earlier_in_session');
    else if (chosen.length >= limit) drop('over_limit_per_moment');
    else chosen.push({ hashes: item.hashes, text: item.text, similarity });
  }
  const log = {
    ...base,
    shown: chosen.length > 0 && !heldOut,
    lessonHashes: chosen.flatMap((candidate) => candidate.hashes),
    considered,
    dropped: considered - chosen.length,
    reasons,
  };
  if (chosen.length === 0 || heldOut) return { output: null, log };
  const hookEventName = moment === 'prompt' ? 'UserPromptSubmit' : 'PreToolUse';
  return {
    output: {
      hookSpecificOutput: { hookEventName, additionalContext: contextText(chosen.map((c) => c.text)) },
    },
    log,
  };
}

/**
 * The end of a turn: when the reply hands the next step back with an offer and a correction lesson bears
 * on hand-backs (most of its sources followed one), the turn goes on with the reminder. Never twice in a
 * row, and not when the person's last message said only they have what is needed.
 */
function stop(deps: HookDeps, payload: HookPayload): HookAnswer {
  const { config } = deps;
  const heldOut = isHeldOut(payload.session, config.holdout);
  const base = { at: deps.now, session: payload.session, moment: 'stop' as const, heldOut };
  const silent = (reason: string, considered = 0): HookAnswer => ({
    output: null,
    log: {
      ...base,
      shown: false,
      lessonHashes: [],
      considered,
      dropped: considered,
      reasons: { [reason]: 1 },
    },
  });
  if (payload.stopHookActive) return silent('turn_went_on_once');
  const handback = classifyHandback(payload.lastAssistantMessage.slice(-1500));
  if (handback?.kind !== 'offer') return silent(handback ? `${handback.kind}_not_offer` : 'no_handback');
  const prompts = readSessionLog(config.home, payload.session).filter((row) => row.moment === 'prompt');
  if (prompts[prompts.length - 1]?.needsPerson) return silent('needs_person');
  const found = poolAndSpace(deps, projectOf(payload.cwd));
  if (!found) return silent('no_memory');
  const { pool } = found;
  let best: { item: Pool['items'][number]; sources: number } | null = null;
  for (const item of pool.items) {
    if (item.question || item.kind !== 'correction') continue;
    // A lesson bears on hand-backs when most of its sources followed one.
    if (item.sources === 0 || item.afterHandback * 2 <= item.sources) continue;
    if (!best || item.sources > best.sources) best = { item, sources: item.sources };
  }
  const considered = pool.items.length;
  if (!best) return silent('no_lesson_bears_on_handbacks', considered);
  const log = {
    ...base,
    shown: !heldOut,
    blocked: !heldOut,
    lessonHashes: best.item.hashes,
    considered,
    dropped: considered - 1,
    reasons: {},
  };
  if (heldOut) return { output: null, log };
  return { output: { decision: 'block', reason: reminderText(best.item) }, log };
}

/** The answer to one hook event. */
export async function answerHook(payload: HookPayload, deps: HookDeps): Promise<HookAnswer> {
  if (payload.event === 'SessionEnd') return { output: null, log: null, ingest: true };
  switch (payload.event) {
    case 'UserPromptSubmit':
      return prime(deps, payload, 'prompt', payload.prompt, null, deps.config.params.priming.perPrompt);
    case 'PreToolUse':
      return prime(
        deps,
        payload,
        'tool',
        describeCall(payload.toolName, payload.toolInput),
        new Set(['error'] as const),
        1,
      );
    case 'Stop':
      return stop(deps, payload);
    default:
      return { output: null, log: null };
  }
}

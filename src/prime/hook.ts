import type { Config, Lesson } from '../core/index.ts';
import { cosine, createSpace, fromBlob, hashedSpace, type Space } from '../embed/index.ts';
// The hook's hot path takes the detectors and the project rule alone, not the ingest machinery behind
// the episodes front door (and the schema library it loads).
import { classifyHandback, needsPerson } from '../episodes/detect.ts';
import { projectOf } from '../episodes/project.ts';
import { type Db, handbackShare, lastSleep, type StoredVector, vectorsInSpace } from '../store/index.ts';
import { type Visible, visibleToAgent } from '../truth/index.ts';
import { isHeldOut } from './holdout.ts';
import { describeCall, type HookPayload } from './payload.ts';
import { contextText, reminderText } from './reminder.ts';
import { type PrimeLogRow, readSessionLog } from './session-log.ts';

export interface HookDeps {
  config: Config;
  now: string;
  /** The store, opened read-only; null when there is none yet. */
  db: Db | null;
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
function storeSpace(db: Db, config: Config): Space {
  const last = lastSleep(db);
  if (!last || last.space === 'hashed') return hashedSpace(config.params);
  const configured = createSpace(config.embed, config.params);
  return configured.name === last.space ? configured : hashedSpace(config.params);
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

/** Priming at a prompt or a tool call: what meets it, at most `limit`, each lesson once per session. */
async function prime(
  deps: HookDeps & { db: Db },
  payload: HookPayload,
  moment: 'prompt' | 'tool',
  query: string,
  filter: (visible: Visible) => boolean,
  limit: number,
): Promise<HookAnswer> {
  const { db, config } = deps;
  const space = storeSpace(db, config);
  const visible = visibleToAgent(db, { now: deps.now, scope: { project: projectOf(payload.cwd) } }).filter(
    filter,
  );
  const heldOut = isHeldOut(payload.session, config.holdout);
  const base = {
    at: deps.now,
    session: payload.session,
    moment,
    heldOut,
    ...(moment === 'prompt' ? { needsPerson: needsPerson(payload.prompt) } : {}),
  };
  if (visible.length === 0 || !query.trim()) {
    return {
      output: null,
      log: { ...base, shown: false, lessonHashes: [], considered: 0, dropped: 0, reasons: {} },
    };
  }
  const [vector] = await space.embed([query]);
  const cut = primingCut(space, config);
  const before = shownBefore(readSessionLog(config.home, payload.session));
  const reasons: Record<string, number> = {};
  const drop = (reason: string) => {
    reasons[reason] = (reasons[reason] ?? 0) + 1;
  };
  const chosen: Candidate[] = [];
  for (const candidate of candidates(db, visible, vector!, space).sort(
    (a, b) => b.similarity - a.similarity,
  )) {
    if (candidate.similarity < cut) drop('below the priming cut');
    else if (candidate.hashes.some((hash) => before.has(hash))) drop('shown earlier this session');
    else if (chosen.length >= limit) drop('over the limit per moment');
    else chosen.push(candidate);
  }
  const log = {
    ...base,
    shown: chosen.length > 0 && !heldOut,
    lessonHashes: chosen.flatMap((candidate) => candidate.hashes),
    considered: visible.length,
    dropped: visible.length - chosen.length,
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
function stop(deps: HookDeps & { db: Db }, payload: HookPayload): HookAnswer {
  const { db, config } = deps;
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
  if (payload.stopHookActive) return silent('the turn already went on once');
  const handback = classifyHandback(payload.lastAssistantMessage.slice(-1500));
  if (handback?.kind !== 'offer')
    return silent(handback ? `a ${handback.kind}, not an offer` : 'no hand-back');
  const prompts = readSessionLog(config.home, payload.session).filter((row) => row.moment === 'prompt');
  if (prompts[prompts.length - 1]?.needsPerson)
    return silent('the person said only they have what is needed');
  const visible = visibleToAgent(db, { now: deps.now, scope: { project: projectOf(payload.cwd) } });
  let best: { lesson: Lesson; sources: number } | null = null;
  for (const item of visible) {
    if (item.type !== 'lesson' || item.lesson.kind !== 'correction') continue;
    const share = handbackShare(db, item.lesson.id);
    if (share.sources === 0 || share.afterHandback * 2 <= share.sources) continue;
    if (!best || share.sources > best.sources) best = { lesson: item.lesson, sources: share.sources };
  }
  if (!best) return silent('no correction lesson bears on hand-backs', visible.length);
  const log = {
    ...base,
    shown: !heldOut,
    blocked: !heldOut,
    lessonHashes: [best.lesson.hash],
    considered: visible.length,
    dropped: visible.length - 1,
    reasons: {},
  };
  if (heldOut) return { output: null, log };
  return { output: { decision: 'block', reason: reminderText(best.lesson) }, log };
}

/** The answer to one hook event. */
export async function answerHook(payload: HookPayload, deps: HookDeps): Promise<HookAnswer> {
  if (payload.event === 'SessionEnd') return { output: null, log: null, ingest: true };
  if (!deps.db) return { output: null, log: null };
  const db = deps.db;
  switch (payload.event) {
    case 'UserPromptSubmit':
      return prime(
        { ...deps, db },
        payload,
        'prompt',
        payload.prompt,
        () => true,
        deps.config.params.priming.perPrompt,
      );
    case 'PreToolUse':
      return prime(
        { ...deps, db },
        payload,
        'tool',
        describeCall(payload.toolName, payload.toolInput),
        (item) => item.type === 'lesson' && item.lesson.kind === 'error',
        1,
      );
    case 'Stop':
      return stop({ ...deps, db }, payload);
    default:
      return { output: null, log: null };
  }
}

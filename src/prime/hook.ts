import type { Config, Lesson } from '../core/index.ts';
import {
  callSubjects,
  createSpace,
  hashedSpace,
  lessonSubjects,
  type Space,
  type Subjects,
  subjectsMeet,
  subjectsOf,
} from '../embed/index.ts';
import { classifyHandback, HANDBACK_CHARS, needsPerson, projectOf } from '../episodes/light.ts';
// The index reader, by the hook folder's own front door: the truth front door brings the store and its
// writers, which a hook answered from the index never needs.
import { openPrimeIndex, type PrimeIndex, type PrimeRows } from '../hook/index.ts';
import type { Db } from '../store/index.ts';
import { choosePrimes, chooseReminder, remindedEarlier } from './choose.ts';
import { isHeldOut } from './holdout.ts';
import { callParts, describeCall, type HookPayload } from './payload.ts';
import { contextText, reminderText } from './reminder.ts';
import { type PrimeLogRow, readSessionLog } from './session-log.ts';

export interface HookDeps {
  config: Config;
  now: string;
  /** The store, opened read-only on first need; null when there is none yet. */
  db(): Db | null | Promise<Db | null>;
  /** Called before the answer waits on something outside the process (a model server): a hook's deadline stands then. */
  waiting?(): void;
  /**
   * The compiled prime index, or null when there is none or it is not this build's. By default the one
   * kept in memory while the file stays the same (a long-lived server); a hook process reads only what it needs.
   */
  index?(): PrimeIndex | null;
}

export interface HookAnswer {
  /** What the hook prints (one JSON object), or null for silence. */
  output: Record<string, unknown> | null;
  /** The words put in front of the agent (the context, or the reminder), whatever shape the output gives them. */
  said?: string;
  /** The payload-free row of what was worked out, shown or held. */
  log: Omit<PrimeLogRow, 'ms' | 'outcome'> | null;
  /** SessionEnd: archive the session's transcript the day it is written. */
  ingest?: boolean;
}

interface Candidate {
  hashes: readonly string[];
  text: string;
  similarity: number;
  startOf?: readonly (string | null)[];
}

/**
 * Whether the session loaded the memory folder render writes when it began: a Claude Code session (its transcript
 * is under the Claude folder) does; a Codex session, or a conversation through the proxy, does not.
 */
function loadsMemoryFolder(payload: HookPayload, config: Config): boolean {
  const path = payload.transcriptPath;
  return path?.startsWith(`${config.claudeDir.replace(/[\\/]+$/, '')}/`) ?? false;
}

function primingCut(space: Space, config: Config): number {
  return space.kind === 'hashed' ? config.params.priming.hashed : config.params.priming.model;
}

function shownBefore(log: readonly PrimeLogRow[]): Set<string> {
  const seen = new Set<string>();
  for (const row of log) if (row.moment !== 'stop') for (const hash of row.lessonHashes) seen.add(hash);
  return seen;
}

/** The space an index was written in, when this configuration can embed a query in it. */
function indexSpace(index: PrimeIndex, config: Config): Space | null {
  if (index.space === 'hashed') {
    const space = hashedSpace(config.params);
    return space.dims === index.dims ? space : null;
  }
  const configured = createSpace(config.embed, config.params);
  return configured.name === index.space ? configured : null;
}

/** The compiled index when this configuration can query it; else the store itself, read through the projection. */
async function poolAndSpace(
  deps: HookDeps,
  project: string | null,
): Promise<{ pool: PrimeRows; space: Space } | null> {
  const index = deps.index ? deps.index() : openPrimeIndex(deps.config.home, { keep: true });
  const space = index && indexSpace(index, deps.config);
  if (index && space) return { pool: index.rowsFor(project), space };
  const db = await deps.db();
  if (!db) return null;
  const { poolFromStore, storeSpace } = await import('./store-pool.ts');
  const stored = storeSpace(db, deps.config);
  return { pool: poolFromStore(db, deps.now, project, stored, deps.config.params.render), space: stored };
}

/**
 * The correction lessons about what the query is about (`embed/subjects.ts`) that its words did not reach: a
 * person's rule about a tool reaches a prompt about what the tool does and a call that runs it. The index screens
 * only the rules of the house and refused calls by subject (`truth/rule-subjects.ts`).
 */
function aboutTheSame(
  pool: PrimeRows,
  subjects: Subjects,
  met: ReadonlySet<number>,
  reads: number,
): number[] {
  const found: number[] = [];
  for (const row of pool.aboutSubjects(subjects.mask, 'correction', reads)) {
    if (met.has(row)) continue;
    if (subjectsMeet(subjects, lessonSubjects(pool.detail(row).text))) found.push(row);
  }
  return found;
}

/**
 * Priming at a prompt or a tool call: what meets it, at most `limit`, each lesson once per session. A lesson of
 * `kinds` meets it by its words; a correction lesson also by what both are about (`subjects`).
 */
async function prime(
  deps: HookDeps,
  payload: HookPayload,
  moment: 'prompt' | 'tool',
  query: string,
  kinds: ReadonlySet<Lesson['kind']> | null,
  limit: number,
  subjects: Subjects,
): Promise<HookAnswer> {
  const { config } = deps;
  const project = projectOf(payload.cwd);
  const found = await poolAndSpace(deps, project);
  if (!found) return { output: null, log: null };
  const { pool, space } = found;
  const eligible = (row: number) => kinds === null || (!pool.question(row) && kinds.has(pool.kind(row)));
  let considered = pool.count;
  if (kinds !== null) {
    considered = 0;
    for (let row = 0; row < pool.count; row++) {
      if (eligible(row) || (!pool.question(row) && pool.kind(row) === 'correction')) considered++;
    }
  }
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
  if (space.kind !== 'hashed') deps.waiting?.();
  const [vector] = await space.embed([query]);
  const cut = primingCut(space, config);
  // Only what meets the cut is ranked; met by subject alone, they rank after every lesson met by its words.
  const byWords = pool.reaching(vector!, cut).filter(({ row }) => eligible(row));
  const metRows = new Set(byWords.map(({ row }) => row));
  const bySubject = aboutTheSame(pool, subjects, metRows, config.params.priming.subjectReads);
  const withDetail = ({ row, similarity }: { row: number; similarity: number }): Candidate => ({
    ...pool.detail(row),
    similarity,
  });
  const { chosen, reasons } = choosePrimes(
    byWords.map(withDetail),
    bySubject.map((row) => withDetail({ row, similarity: 0 })),
    {
      cut,
      limit,
      shownBefore: shownBefore(readSessionLog(config.home, payload.session)),
      ...(loadsMemoryFolder(payload, config)
        ? { loaded: (candidate: Candidate) => candidate.startOf?.includes(project) === true }
        : {}),
    },
  );
  const met = byWords.length + bySubject.length;
  if (met < considered) reasons.below_priming_cut = considered - met;
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
  const said = contextText(chosen.map((c) => c.text));
  return {
    output: { hookSpecificOutput: { hookEventName, additionalContext: said } },
    said,
    log,
  };
}

/**
 * The end of a turn: when the reply hands the next step back with an offer (the rules read one and the learned
 * offer detector agrees, so a reply that waits for the person is rarely taken for one) and a correction lesson bears
 * on offers (most of its sources followed one: `offerShare`), the turn goes on with the reminder. Never twice in a
 * row, never the same lesson twice in a session, and not when the person's last message said only they have
 * what is needed.
 */
async function stop(deps: HookDeps, payload: HookPayload): Promise<HookAnswer> {
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
  const tail = payload.lastAssistantMessage.slice(-HANDBACK_CHARS);
  const handback = classifyHandback(tail);
  if (handback?.kind !== 'offer') return silent(handback ? `${handback.kind}_not_offer` : 'no_handback');
  const { offersWork } = await import('./offer.ts');
  if (!offersWork(tail)) return silent('offer_turned_away');
  const log = readSessionLog(config.home, payload.session);
  const prompts = log.filter((row) => row.moment === 'prompt');
  if (prompts[prompts.length - 1]?.needsPerson) return silent('needs_person');
  const found = await poolAndSpace(deps, projectOf(payload.cwd));
  if (!found) return silent('no_memory');
  const { pool } = found;
  const corrections = function* () {
    for (let row = 0; row < pool.count; row++) {
      if (pool.question(row) || pool.kind(row) !== 'correction') continue;
      yield { row, sources: pool.sources(row), afterOffer: pool.afterOffer(row) };
    }
  };
  const best = chooseReminder(corrections());
  const considered = pool.count;
  if (!best) return silent('no_lesson_bears_on_handbacks', considered);
  const lesson = pool.detail(best.row);
  const reminded = new Set(
    log.flatMap((row) => (row.moment === 'stop' && row.shown ? row.lessonHashes : [])),
  );
  if (remindedEarlier(lesson.hashes, reminded)) return silent('reminded_earlier_in_session', considered);
  const answer = {
    ...base,
    shown: !heldOut,
    blocked: !heldOut,
    lessonHashes: lesson.hashes,
    considered,
    dropped: considered - 1,
    reasons: {},
  };
  if (heldOut) return { output: null, log: answer };
  const said = reminderText(lesson);
  return { output: { decision: 'block', reason: said }, said, log: answer };
}

/** The answer to one hook event. */
export async function answerHook(payload: HookPayload, deps: HookDeps): Promise<HookAnswer> {
  if (payload.event === 'SessionEnd') return { output: null, log: null, ingest: true };
  switch (payload.event) {
    case 'UserPromptSubmit':
      return prime(
        deps,
        payload,
        'prompt',
        payload.prompt,
        null,
        deps.config.params.priming.perPrompt,
        subjectsOf(payload.prompt),
      );
    case 'PreToolUse': {
      const { command, files } = callParts(payload.toolInput);
      return prime(
        deps,
        payload,
        'tool',
        describeCall(payload.toolName, payload.toolInput),
        new Set(['error'] as const),
        1,
        callSubjects(command, files),
      );
    }
    case 'Stop':
      return stop(deps, payload);
    default:
      return { output: null, log: null };
  }
}

import * as crypto from 'node:crypto';
import type { EpisodeDraft, OfferDraft, SourceRef } from '../core/index.ts';
import type { Conversation, Turn } from '../stream/index.ts';
import {
  type CueHit,
  classifyAnswer,
  classifyFailure,
  classifyHandback,
  concedes,
  detectSurprise,
  HANDBACK_CHARS,
  scoreCorrection,
} from './detect.ts';
import { correctionThreshold } from './model/correction.ts';
import { projectOf } from './project.ts';
import { clip, closingSentence, firstMeaningfulLine, paragraphs, tail } from './text.ts';

export interface Derived {
  episodes: EpisodeDraft[];
  offers: OfferDraft[];
  /**
   * Messages the learned detector scored just under its threshold (within `WIDEST_BAND`), each as the correction
   * episode it would be: what an optional judge may confirm at night (`params.judge`).
   */
  candidates: CorrectionCandidate[];
}

export interface CorrectionCandidate {
  score: number;
  draft: EpisodeDraft;
}

/** The widest band under the threshold ingest keeps candidates from; `params.judge.band` narrows it. */
export const WIDEST_BAND = 0.3;

type Call = Extract<Turn, { type: 'call' }>;
type Anchor = Pick<Turn, 'line' | 'part' | 'uuid'>;

/**
 * Hex SHA-256 of a text. A derivation keys every episode it finds, thousands in an ingest, and the one-shot
 * `crypto.hash` (Node 20.12) costs a fraction of a Hash object's making, feeding and digesting each time.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

export function episodeKey(agent: string, session: string, kind: string, anchor: string): string {
  return sha256Hex(`${agent}\0${session}\0${kind}\0${anchor}`).slice(0, 32);
}

function anchorOf(turn: Anchor): string {
  return turn.uuid ? `${turn.uuid}#${turn.part}` : `L${turn.line}.${turn.part}`;
}

interface AgentTurn {
  text: string;
  /** The turn ended by the person stopping the agent, so it did not hand anything back. */
  interrupted: boolean;
  endedAt: string;
  anchor: Anchor | null;
  /** The agent's last call when it made one after its last words: what a message typed then answers. */
  lastCall: Call | null;
}

const NO_TURN: AgentTurn = { text: '', interrupted: false, endedAt: '', anchor: null, lastCall: null };

/** The call a correction answered, for its lesson: what was run (the command, the file), else what it was for. */
function afterCall(call: Call | null): Record<string, string> {
  if (!call?.tool) return {};
  const what = (call.input || call.description).trim();
  return what ? { lastCall: clip(what, 300), lastTool: call.tool } : {};
}

/**
 * The surprises of one session, and the replies in it that handed the decision back with how the person
 * answered. A pure function of the conversation: the same turns always give the same keys and episodes.
 */
export function deriveEpisodes(conversation: Conversation, file?: string): Derived {
  const { agent, session } = conversation;
  const project = projectOf(conversation.cwd);
  const episodes: EpisodeDraft[] = [];
  const offers: OfferDraft[] = [];
  const candidates: CorrectionCandidate[] = [];
  const floor = correctionThreshold() - WIDEST_BAND;
  const calls = new Map<string, Call>();
  const toolCounts: Record<string, number> = {};
  const counts = {
    prompts: 0,
    replies: 0,
    failures: 0,
    environment: 0,
    refusals: 0,
    interrupts: 0,
    corrections: 0,
  };
  const prompts: string[] = [];
  let firstAt = '';
  let lastAt = '';
  let lastReply = '';
  let endedBy: 'reply' | 'prompt' | 'interrupt' | 'empty' = 'empty';

  let agentTurn: AgentTurn = { ...NO_TURN };
  // What the agent last said before the person's previous message. A message right after another one, with no
  // reply between (the agent worked without words, or the transcript kept none), still answers it.
  let lastWords = '';
  /**
   * The person stopped the agent and has not written since: their next message is a correction whatever its words.
   * `acted`: the agent had said or run something in the turn it stopped, so the stop itself corrected it.
   */
  let interrupted: { turn: Turn; acted: boolean; answered: string; call: Call | null } | null = null;
  const refusedCalls = new Set<string>();
  /** A refusal that gave no reason: the person's next words, before the agent goes on, are its reason. */
  let refusalAwaitingReason: EpisodeDraft | null = null;
  /**
   * A message nothing called a correction, until the agent's first words after it: when they concede the person
   * was right, it was one.
   */
  let awaitingConcession: {
    turn: Turn;
    /** The agent's words the message answered: their closing sentence is worked out only for a concession. */
    answers: string;
    afterHandback: string | null;
    queued: boolean;
    offer: OfferDraft | null;
    /** The call the message answered (`afterCall`). */
    after: Record<string, string>;
  } | null = null;

  const base = (turn: Turn, kind: EpisodeDraft['kind'], anchor: string) => ({
    key: episodeKey(agent, session, kind, anchor),
    kind,
    agent,
    session,
    project,
    happenedAt: turn.at || lastAt || firstAt,
    source: sourceOf(turn.file ?? file, turn.line),
  });

  const correctionDraft = (
    turn: Turn,
    said: string,
    answered: string,
    hit: CueHit,
    extra: Record<string, unknown>,
  ): EpisodeDraft => ({
    ...base(turn, 'correction', anchorOf(turn)),
    title: clip(said.replace(/\s+/g, ' '), 120),
    text: said,
    said,
    agentBefore: answered,
    detail: { cue: hit, ...extra },
  });
  const correction = (...args: Parameters<typeof correctionDraft>): EpisodeDraft => {
    counts.corrections++;
    const draft = correctionDraft(...args);
    episodes.push(draft);
    return draft;
  };

  for (const turn of conversation.items) {
    if (turn.at) {
      if (!firstAt) firstAt = turn.at;
      lastAt = turn.at;
    }
    switch (turn.type) {
      case 'prompt': {
        if (turn.sidechain) break; // a subagent's prompt comes from the parent agent, not the person
        counts.prompts++;
        if (prompts.length < 3) prompts.push(clip(turn.text.replace(/\s+/g, ' '), 200));
        const before = agentTurn.text;
        const handback =
          turn.queued || agentTurn.interrupted || !before.trim()
            ? null
            : classifyHandback(tail(before, HANDBACK_CHARS));
        // The hand-back was the previous message's to answer; the words are still what this one reacts to.
        const answers = before.trim() ? before : lastWords;
        if (before.trim()) lastWords = before;
        // A button's prompt (a retry, a plan's build) holds none of the person's words: the detector says so.
        const scored = scoreCorrection(
          turn.text,
          tail(answers, 600),
          handback?.kind ?? null,
          !before.trim() && answers !== '',
        );
        const detected = scored.hit;
        let hit = detected;
        if (!hit && interrupted) hit = { rule: 'INTERRUPT', cue: 'the person stopped the agent' };
        const gaveReason =
          refusalAwaitingReason !== null &&
          !turn.queued &&
          givesReason(turn.text, refusalAwaitingReason, detected);
        const after = afterCall(agentTurn.lastCall);
        if (gaveReason && refusalAwaitingReason) {
          giveReason(refusalAwaitingReason, turn.text);
        } else if (hit) {
          correction(turn, turn.text, closingSentence(answers), hit, {
            afterHandback: handback?.kind ?? null,
            queued: turn.queued === true,
            ...after,
          });
        } else if (scored.score !== null && scored.score >= floor) {
          const cue = { rule: 'learned', cue: `learned detector, p=${scored.score.toFixed(2)}` };
          candidates.push({
            score: scored.score,
            draft: correctionDraft(turn, turn.text, closingSentence(answers), cue, {
              afterHandback: handback?.kind ?? null,
              queued: turn.queued === true,
              ...after,
            }),
          });
        }
        awaitingConcession =
          hit || gaveReason
            ? null
            : {
                turn,
                answers,
                afterHandback: handback?.kind ?? null,
                queued: turn.queued === true,
                offer: null,
                after,
              };
        if (handback && agentTurn.anchor) {
          offers.push({
            key: episodeKey(agent, session, 'offer', anchorOf(agentTurn.anchor)),
            kind: handback.kind,
            agent,
            session,
            project,
            happenedAt: agentTurn.endedAt || turn.at,
            replyTail: tail(before, HANDBACK_CHARS),
            answer: hit ? 'corrected' : classifyAnswer(turn.text),
            answerText: clip(turn.text, 1000),
          });
          if (awaitingConcession) awaitingConcession.offer = offers[offers.length - 1] ?? null;
        }
        if (!turn.queued) refusalAwaitingReason = null;
        // A message typed while the agent worked does not end its turn.
        if (!turn.queued) agentTurn = { ...NO_TURN };
        interrupted = null;
        endedBy = 'prompt';
        break;
      }
      case 'reply': {
        if (turn.sidechain) {
          surprise(turn);
          break;
        }
        counts.replies++;
        refusalAwaitingReason = null;
        // The agent's first words after a message: a concession makes that message a correction, in the person's
        // words. The concession is still the agent's own statement that it was wrong: a surprise, which names the
        // correction it concedes.
        const conceded = awaitingConcession && !agentTurn.text ? concedes(turn.text) : null;
        let concededKey: string | undefined;
        if (conceded && awaitingConcession) {
          const { turn: message, answers, afterHandback, queued, offer, after } = awaitingConcession;
          if (message.type === 'prompt')
            concededKey = correction(message, message.text, closingSentence(answers), conceded, {
              afterHandback,
              queued,
              ...after,
            }).key;
          if (offer) offer.answer = 'corrected';
        }
        awaitingConcession = null;
        agentTurn.text = agentTurn.text ? `${agentTurn.text}\n\n${turn.text}` : turn.text;
        agentTurn.endedAt = turn.at;
        agentTurn.anchor = turn;
        agentTurn.lastCall = null;
        lastReply = turn.text;
        endedBy = 'reply';
        surprise(turn, concededKey);
        break;
      }
      case 'call': {
        if (!turn.sidechain) {
          refusalAwaitingReason = null;
          agentTurn.lastCall = turn;
        }
        calls.set(turn.callId, turn);
        toolCounts[turn.tool] = (toolCounts[turn.tool] ?? 0) + 1;
        break;
      }
      case 'result': {
        const call = calls.get(turn.callId);
        const tool = call?.tool ?? 'unknown tool';
        const description = call?.description ?? '';
        if (turn.status === 'refused') {
          counts.refusals++;
          refusedCalls.add(turn.callId);
          if (turn.sidechain) break;
          const said =
            turn.reason?.trim() || `[refused the call: ${clip(`${tool} ${description}`.trim(), 160)}]`;
          correction(
            turn,
            said,
            closingSentence(agentTurn.text),
            { rule: 'REFUSAL', cue: 'refused tool call' },
            {
              refusedTool: tool,
              refusedCall: clip(call?.input || description, 300),
              afterHandback: null,
            },
          );
          if (!turn.reason?.trim()) refusalAwaitingReason = episodes[episodes.length - 1] ?? null;
          agentTurn.interrupted = true;
          interrupted = null;
          break;
        }
        if (turn.status !== 'failed') break;
        const input = call?.input ?? '';
        const verdict = classifyFailure({
          tool,
          input,
          error: turn.text,
          ...(turn.exitCode === undefined ? {} : { exitCode: turn.exitCode }),
        });
        const kind = verdict.kind === 'agent_mistake' ? 'error' : 'environment';
        if (kind === 'error') counts.failures++;
        else counts.environment++;
        const anchorTurn = call ?? turn;
        episodes.push({
          ...base(turn, kind, anchorOf(anchorTurn)),
          title: clip(`${tool}: ${description || input}`.replace(/\s+/g, ' '), 160),
          text: firstMeaningfulLine(turn.text),
          detail: {
            tool,
            description: clip(description, 300),
            input: clip(input, 300),
            failure: clip(turn.text, 900),
            exitCode: turn.exitCode ?? null,
            cue: verdict.hit,
            ...(turn.sidechain ? { sidechain: true } : {}),
          },
        });
        break;
      }
      case 'interrupt': {
        counts.interrupts++;
        if (turn.sidechain) break;
        agentTurn.interrupted = true;
        awaitingConcession = null;
        endedBy = 'interrupt';
        // The refusal already said what the person wanted; an interrupt right after it adds nothing.
        if (!(turn.duringTool && refusedCalls.size > 0 && lastRefusalWasLast(conversation.items, turn))) {
          interrupted = {
            turn,
            acted: turn.duringTool || agentTurn.text.trim() !== '' || agentTurn.lastCall !== null,
            answered: agentTurn.text,
            call: agentTurn.lastCall,
          };
        }
        break;
      }
      case 'compaction': {
        agentTurn = { ...NO_TURN };
        awaitingConcession = null;
        lastWords = '';
        break;
      }
      default:
        break;
    }
  }

  // The session ends on the person stopping the agent mid-action, with nothing said after: the stop is the
  // correction (labelling rule 4). Stopping one's own prompt before the agent did anything corrects nothing; and
  // when the person writes again, that message is the correction instead (derived anew, this one is gone).
  if (interrupted?.acted) {
    const { turn, answered, call } = interrupted;
    const what = call ? `${call.tool} ${call.description || call.input}`.replace(/\s+/g, ' ').trim() : '';
    correction(
      turn,
      `[stopped the agent${what ? ` at: ${clip(what, 160)}` : ''}]`,
      closingSentence(answered),
      { rule: 'INTERRUPT', cue: 'the person stopped the agent and wrote nothing after' },
      { afterHandback: null, stopped: true, ...afterCall(call) },
    );
  }

  /** The reply's first paragraph that states a surprise; `concedes`: the key of the correction the reply conceded. */
  function surprise(turn: Extract<Turn, { type: 'reply' }>, concedes?: string): void {
    for (const [index, paragraph] of paragraphs(turn.text).entries()) {
      const hit = detectSurprise(paragraph);
      if (!hit) continue;
      episodes.push({
        ...base(turn, 'surprise', `${anchorOf(turn)}/${index}`),
        title: clip(paragraph.replace(/\s+/g, ' '), 120),
        text: clip(paragraph, 800),
        detail: {
          cue: hit,
          ...(turn.sidechain ? { sidechain: true } : {}),
          ...(concedes === undefined ? {} : { concedes }),
        },
      });
      break; // one stated surprise per reply
    }
  }

  if (conversation.items.length > 0) {
    const first = conversation.items[0]!;
    episodes.unshift({
      key: episodeKey(agent, session, 'session', 'session'),
      kind: 'session',
      agent,
      session,
      project,
      happenedAt: firstAt || '1970-01-01T00:00:00.000Z',
      title: prompts[0] ?? '(no prompt)',
      text: sessionSummary(prompts, toolCounts, counts, endedBy, lastReply),
      detail: { ...counts, tools: toolCounts, endedBy, endedAt: lastAt, cwd: conversation.cwd },
      source: sourceOf(first.file ?? file, first.line),
    });
  }
  // A candidate the agent's concession made a correction after all is one already.
  const keys = new Set(episodes.map((episode) => episode.key));
  return { episodes, offers, candidates: candidates.filter(({ draft }) => !keys.has(draft.key)) };
}

const SMALL_WORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'this',
  'that',
  'from',
  'into',
  'you',
  'are',
  'was',
]);

function wordsOf(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_-]{2,}/gu) ?? []).filter((w) => !SMALL_WORDS.has(w)),
  );
}

/**
 * The person's next words give the refusal's reason when they read as a correction or speak of what was
 * refused (a word of the call); a new request that shares nothing with it is not one.
 */
function givesReason(said: string, refusal: EpisodeDraft, hit: CueHit | null): boolean {
  if (!said.trim()) return false;
  if (hit) return true;
  const call = wordsOf(`${String(refusal.detail['refusedCall'] ?? '')}`);
  for (const word of wordsOf(said)) if (call.has(word)) return true;
  return false;
}

/** The refusal quotes the person's next words as its reason; they are not a correction of their own. */
function giveReason(refusal: EpisodeDraft, said: string): void {
  refusal.said = said;
  refusal.text = said;
  refusal.title = clip(said.replace(/\s+/g, ' '), 120);
  refusal.detail = { ...refusal.detail, reasonFrom: 'next_message' };
}

function sourceOf(file: string | undefined, line: number): SourceRef {
  return file === undefined ? { line } : { file, line };
}

function lastRefusalWasLast(items: readonly Turn[], interrupt: Turn): boolean {
  const index = items.indexOf(interrupt);
  for (let at = index - 1; at >= 0; at--) {
    const turn = items[at]!;
    if (turn.type === 'result') return turn.status === 'refused';
    if (turn.type === 'prompt' || turn.type === 'reply') return false;
  }
  return false;
}

function sessionSummary(
  prompts: string[],
  tools: Record<string, number>,
  counts: { failures: number; environment: number; corrections: number; refusals: number },
  endedBy: string,
  lastReply: string,
): string {
  const asked = prompts.length ? `Asked: ${prompts.join(' / ')}` : 'No prompt';
  const used = Object.entries(tools)
    .sort((a, b) => b[1] - a[1])
    .map(([tool, n]) => `${tool}×${n}`)
    .join(', ');
  const ending =
    endedBy === 'interrupt'
      ? 'interrupted by the person'
      : endedBy === 'reply'
        ? `the agent: "${clip(lastReply.replace(/\s+/g, ' '), 200)}"`
        : endedBy === 'prompt'
          ? 'a message from the person'
          : 'nothing';
  return [
    asked,
    `Tools: ${used || 'none'}`,
    `Failures: ${counts.failures} the agent's, ${counts.environment} the environment's; corrections: ${counts.corrections}; refused calls: ${counts.refusals}`,
    `Ended with ${ending}`,
  ].join('. ');
}

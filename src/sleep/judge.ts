import {
  type ChatMessage,
  chat,
  type EpisodeDraft,
  type JudgeConfig,
  oneTry,
  type Params,
  visibleReply,
} from '../core/index.ts';
import {
  type Candidate,
  countPendingCandidates,
  type Db,
  insertEpisodeOnce,
  pendingCandidates,
  recordFailedTry,
  recordVerdict,
} from '../store/index.ts';
import type { JudgeNote } from './report.ts';
import { quote } from './wording.ts';

const INSTRUCTIONS = [
  'You read one message a person sent to an AI coding agent, and what the agent said just before it.',
  'Answer yes when the message corrects the agent: it says the agent did or said something wrong, misunderstood,',
  'must do it another way, should stop, or that its work still does not work.',
  'Answer no when it is a new request, a question, an approval, thanks, or information that corrects nothing.',
  'Answer with one word: yes or no.',
].join(' ');

/** What the judge is sent about one candidate: the agent's words before, shortened, and the message; masked. */
export function judgeRequest(draft: Pick<EpisodeDraft, 'said' | 'text' | 'agentBefore'>): ChatMessage[] {
  const before = draft.agentBefore?.trim() ? quote(draft.agentBefore, 300) : '';
  return [
    { role: 'system', content: INSTRUCTIONS },
    {
      role: 'user',
      content: `${before ? `The agent said: "${before}"` : 'The agent had said nothing yet.'}\n\nThe person answered: "${quote(draft.said ?? draft.text, 800)}"\n\nDoes the person's message correct the agent? Answer yes or no.`,
    },
  ];
}

/** The answer's first word when it is yes or no; null for anything else. */
export function verdictOf(reply: string): 'yes' | 'no' | null {
  const word = /^[^\p{L}]*(\p{L}+)/u.exec(visibleReply(reply))?.[1]?.toLowerCase();
  return word === 'yes' || word === 'no' ? word : null;
}

/** A confirmed candidate as the correction episode it becomes, its cue naming the judge. */
function confirmedDraft(candidate: Candidate, model: string): EpisodeDraft {
  const cue = {
    rule: 'JUDGE',
    cue: `learned detector, p=${candidate.score.toFixed(2)}, under its threshold; ${model} said it corrects the agent`,
  };
  return { ...candidate.draft, detail: { ...candidate.draft.detail, cue } };
}

/**
 * Before the night's lessons: up to `params.judge.budget` candidates, the closest to the threshold first, are put
 * to the judge one at a time. A yes makes the candidate the correction episode it would have been, in the same
 * transaction as the verdict; a no is kept so it is not asked again; an answer that is neither is tried again on
 * a later night. A server that fails, is slow or answers garbage ends the pass, is reported, and costs only the
 * candidate it was asked about one of its `maxTries` nights: nothing is lost, and the night goes on.
 */
export async function judgePass(
  db: Db,
  config: JudgeConfig,
  options: { now: string; params: Params },
): Promise<JudgeNote> {
  const { budget, maxTries } = options.params.judge;
  const model = `${config.api}:${config.model}`;
  const note: JudgeNote = {
    model,
    asked: 0,
    confirmed: 0,
    declined: 0,
    unclear: 0,
    waiting: 0,
    failure: null,
  };
  const endpoint = oneTry(config, config.timeoutMs);
  for (const candidate of pendingCandidates(db, { limit: budget, maxTries })) {
    let reply: string;
    try {
      note.asked++;
      reply = (await chat(endpoint, judgeRequest(candidate.draft))).content;
    } catch (error) {
      const message = (error as Error).message;
      recordFailedTry(db, candidate.key, message);
      note.failure = `the judge ${model} at ${config.url} failed (${message}); the candidates left wait for the next night`;
      break;
    }
    const verdict = verdictOf(reply);
    if (verdict === null) {
      note.unclear++;
      recordFailedTry(db, candidate.key, `answered neither yes nor no: ${quote(reply, 80)}`);
      continue;
    }
    if (verdict === 'no') {
      note.declined++;
      recordVerdict(db, candidate.key, { answer: 'no', at: options.now, by: model });
      continue;
    }
    const draft = confirmedDraft(candidate, model);
    db.transaction(() => {
      recordVerdict(db, candidate.key, { answer: 'yes', at: options.now, by: model, draft });
      insertEpisodeOnce(db, draft, 'transcript', options.now);
    })();
    note.confirmed++;
  }
  note.waiting = countPendingCandidates(db, maxTries);
  return note;
}

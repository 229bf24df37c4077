import { writeFileSync } from 'node:fs';
import type { ChatMessage } from '../core/index.ts';
import { type KeptReply, readKept } from './kept.ts';
import { settings } from './situations.ts';

/**
 * One preference pair in the conversational format TRL's `DPOTrainer` reads: `prompt` is the messages before
 * the reply, `chosen` and `rejected` are each one assistant message.
 */
export interface PreferencePair {
  prompt: ChatMessage[];
  chosen: [{ role: 'assistant'; content: string }];
  rejected: [{ role: 'assistant'; content: string }];
}

export interface PairsReport {
  out: string;
  /** "Act" pairs: a reply that handed back (rejected), the same model's reply after the reminder (chosen). */
  act: number;
  /** Boundary pairs, where asking is right: the reply that asked (chosen), one that acted (rejected). */
  boundary: number;
  available: { act: number; boundary: number };
  /** The boundary share written: boundary / (act + boundary). */
  share: number | null;
}

/**
 * The situation without memory or reminder: what a model trained on the pair should act on alone, so the
 * reminder's effect is learned into the weights rather than read from the prompt.
 */
function bareSituation(reply: KeptReply): ChatMessage[] {
  const user = reply.messages.find((message) => message.role === 'user');
  return [
    { role: 'system', content: settings[reply.setting] },
    { role: 'user', content: typeof user?.content === 'string' ? user.content : '' },
  ];
}

function pair(prompt: ChatMessage[], chosen: string, rejected: string): PreferencePair {
  return {
    prompt,
    chosen: [{ role: 'assistant', content: chosen }],
    rejected: [{ role: 'assistant', content: rejected }],
  };
}

/** The reminder pairs of the behaviour experiment: handed back first, did the work after the reminder. */
function actPairs(replies: readonly KeptReply[]): PreferencePair[] {
  return replies
    .filter((reply) => reply.arm === 'reminder' && reply.reminded && reply.firstHandback && !reply.handback)
    .map((reply) => pair(bareSituation(reply), reply.reply, reply.first));
}

/**
 * Boundary pairs the other way: where asking is right, a reply that asked is chosen over one that acted. First
 * the reminder's own pairs (asked, then acted after the reminder), then, for each model and situation, replies
 * that asked matched with replies that acted, in the order they were kept.
 */
function boundaryPairs(replies: readonly KeptReply[]): PreferencePair[] {
  const pairs: PreferencePair[] = [];
  const used = new Set<string>();
  for (const reply of replies) {
    if (reply.reminded && reply.firstHandback && !reply.handback) {
      pairs.push(pair(bareSituation(reply), reply.first, reply.reply));
      used.add(reply.key);
    }
  }
  const groups = new Map<string, { asked: KeptReply[]; acted: KeptReply[] }>();
  for (const reply of replies) {
    if (used.has(reply.key) || reply.reminded) continue;
    const id = `${reply.model}\u0000${reply.setting}\u0000${reply.situation}`;
    const group = groups.get(id) ?? { asked: [], acted: [] };
    (reply.handback ? group.asked : group.acted).push(reply);
    groups.set(id, group);
  }
  for (const { asked, acted } of groups.values()) {
    for (let i = 0; i < Math.min(asked.length, acted.length); i++) {
      pairs.push(pair(bareSituation(asked[i]!), asked[i]!.reply, acted[i]!.reply));
    }
  }
  return pairs;
}

/**
 * Writes the reminder pairs as JSONL for preference training: every "act" pair, and boundary pairs up to the
 * share asked for (`boundaryShare` of all pairs written), fewer when fewer exist.
 */
export function writePairs(home: string, options: { out: string; boundaryShare: number }): PairsReport {
  const act = actPairs(readKept(home, 'behaviour'));
  const boundary = boundaryPairs(readKept(home, 'boundary'));
  const wanted = Math.round((options.boundaryShare * act.length) / (1 - options.boundaryShare));
  const chosen = boundary.slice(0, wanted);
  const lines = [...act, ...chosen].map((item) => JSON.stringify(item));
  writeFileSync(options.out, lines.length ? `${lines.join('\n')}\n` : '');
  const total = act.length + chosen.length;
  return {
    out: options.out,
    act: act.length,
    boundary: chosen.length,
    available: { act: act.length, boundary: boundary.length },
    share: total === 0 ? null : chosen.length / total,
  };
}

import { type ChatMessage, chat, type Endpoint, type RetryNotice, visibleReply } from '../core/index.ts';
import { nudgeText, reminderText } from '../prime/index.ts';
import { reminderWouldFire } from './handback.ts';
import { handbackLesson } from './memory.ts';
import type { Unit } from './plan.ts';
import { settings } from './situations.ts';
import { loopTools, simulateCall } from './tools.ts';

/** The most tool calls a loop runs before its next answer is asked for without tools. */
export const LOOP_CALLS = 8;

export interface Conversation {
  messages: ChatMessage[];
  first: string;
  reply: string;
  reminded: boolean;
  toolCalls: number;
}

/** What the model is sent first: the setting, the arm's text up front, the person's message. */
export function openingMessages(unit: Unit): ChatMessage[] {
  const { upFront } = unit.arm;
  const system =
    upFront?.place === 'before' ? `${settings[unit.setting]}\n\n${upFront.text}` : settings[unit.setting];
  const user =
    upFront?.place === 'after' ? `${unit.situation.prompt}\n\n${upFront.text}` : unit.situation.prompt;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/** The second turn of the reminder arm (the hooks' wording, with the lesson) or of the nudge arm (without). */
function secondTurn(unit: Unit): string {
  return unit.arm.turn === 'reminder' ? reminderText(handbackLesson) : nudgeText();
}

/**
 * One reply, and one more turn when the arm has a second turn and the Stop hook's own rule would fire on the
 * reply. In a loop, tool calls are answered by the simulated shell and editor until the model answers without
 * one; the reminder then goes on the loop once.
 */
export async function converse(
  endpoint: Endpoint,
  unit: Unit,
  onRetry?: (notice: RetryNotice) => void,
  loop = false,
): Promise<Conversation> {
  const messages = openingMessages(unit);
  const ask = (tools: boolean) =>
    chat(endpoint, messages, { ...(tools ? { tools: loopTools } : {}), ...(onRetry ? { onRetry } : {}) });
  let toolCalls = 0;
  let first: string | null = null;
  let reminded = false;
  for (;;) {
    const answer = await ask(loop && toolCalls < LOOP_CALLS);
    if (answer.toolCalls.length > 0) {
      messages.push({ role: 'assistant', content: answer.content || null, tool_calls: answer.toolCalls });
      for (const call of answer.toolCalls) {
        const output = toolCalls < LOOP_CALLS ? simulateCall(call) : '(not run: no tool calls are left)';
        toolCalls++;
        messages.push({ role: 'tool', tool_call_id: call.id, content: output });
      }
      continue;
    }
    messages.push({ role: 'assistant', content: answer.content });
    const reply = visibleReply(answer.content);
    if (first === null) {
      first = reply;
      if (unit.arm.turn && reminderWouldFire(reply, unit.situation.prompt)) {
        messages.push({ role: 'user', content: secondTurn(unit) });
        reminded = true;
        continue;
      }
    }
    return { messages, first, reply, reminded, toolCalls };
  }
}

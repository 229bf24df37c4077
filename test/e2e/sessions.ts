import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One step of a session, in the words a person would use to tell it. */
export type Step =
  | { user: string }
  | { agent: string }
  | { call: { id: string; name: string; input: Record<string, unknown> } }
  | { refused: string }
  | { failed: string; text: string }
  | { interrupted: true };

const REFUSED =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

/**
 * A Claude Code transcript of `steps` (agent-formats §1), a minute apart from `start`, written where Claude Code
 * keeps the project's sessions under `claudeDir`.
 */
export function claudeSession(
  claudeDir: string,
  project: string,
  session: string,
  start: string,
  steps: readonly Step[],
): string {
  const folder = join(claudeDir, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(folder, { recursive: true });
  let parent: string | null = null;
  const lines = steps.map((step, index) => {
    const uuid = `${session}-${index}`;
    const base = {
      cwd: project,
      sessionId: session,
      version: '2.1.0',
      isSidechain: false,
      userType: 'external',
      uuid,
      parentUuid: parent,
      timestamp: new Date(Date.parse(start) + index * 60_000).toISOString(),
    };
    parent = uuid;
    const assistant = (content: unknown[]) => ({
      ...base,
      type: 'assistant',
      message: { id: `m-${uuid}`, role: 'assistant', model: 'x', content },
    });
    const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
      ...base,
      type: 'user',
      message: { role: 'user', content },
      ...extra,
    });
    if ('user' in step) return user(step.user);
    if ('agent' in step) return assistant([{ type: 'text', text: step.agent }]);
    if ('call' in step) {
      return assistant([
        { type: 'tool_use', id: step.call.id, name: step.call.name, input: step.call.input },
      ]);
    }
    if ('refused' in step) {
      return user([{ type: 'tool_result', tool_use_id: step.refused, is_error: true, content: REFUSED }], {
        toolUseResult: 'User rejected tool use',
      });
    }
    if ('failed' in step) {
      return user([{ type: 'tool_result', tool_use_id: step.failed, is_error: true, content: step.text }]);
    }
    return user([{ type: 'text', text: '[Request interrupted by user for tool use]' }]);
  });
  const file = join(folder, `${session}.jsonl`);
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return file;
}

/**
 * A Gemini CLI session of `steps`, as its chat recording writes one (docs/formats/gemini-cli.md): a metadata line,
 * then each message whole, written again under the same id when its tool calls are added or end, and a `$set` of
 * `lastUpdated` after each message. Written under `<geminiDir>/tmp/<project hash>/chats/`. Gemini CLI records no
 * interruption, so a step `interrupted` has no Gemini form.
 */
export function geminiSession(
  geminiDir: string,
  projectHash: string,
  session: string,
  start: string,
  steps: readonly Step[],
): string {
  const folder = join(geminiDir, 'tmp', projectHash, 'chats');
  mkdirSync(folder, { recursive: true });
  const at = (index: number) => new Date(Date.parse(start) + index * 60_000).toISOString();
  const records: unknown[] = [
    { sessionId: session, projectHash, startTime: start, lastUpdated: start, kind: 'main' },
  ];
  type Call = { id: string; name: string; args: unknown; status: string; result: unknown; timestamp: string };
  let current: { id: string; type: 'gemini'; content: string; toolCalls: Call[]; timestamp: string } | null =
    null;
  const write = (message: unknown, index: number) => {
    records.push(JSON.parse(JSON.stringify(message)));
    records.push({ $set: { lastUpdated: at(index) } });
  };
  const response = (call: Call, response: Record<string, string>) => [
    { functionResponse: { id: call.id, name: call.name, response } },
  ];
  const settle = (id: string, status: string, error: string) => {
    const call = current?.toolCalls.find((candidate) => candidate.id === id);
    if (!call) throw new Error(`no call ${id} to settle`);
    call.status = status;
    call.result = response(call, { error });
  };
  steps.forEach((step, index) => {
    const id = `${session}-${index}`;
    if ('user' in step) {
      current = null;
      write({ id, timestamp: at(index), type: 'user', content: [{ text: step.user }] }, index);
    } else if ('agent' in step) {
      current = { id, timestamp: at(index), type: 'gemini', content: step.agent, toolCalls: [] };
      write({ ...current, thoughts: [], tokens: null, model: 'gemini-2.5-pro' }, index);
    } else if ('call' in step) {
      current ??= { id, timestamp: at(index), type: 'gemini', content: '', toolCalls: [] };
      const call: Call = {
        id: step.call.id,
        name: step.call.name,
        args: step.call.input,
        status: 'success',
        result: null,
        timestamp: at(index),
      };
      call.result = response(call, { output: '' });
      current.toolCalls.push(call);
      write(current, index);
    } else if ('failed' in step) {
      settle(step.failed, 'error', step.text);
      write(current, index);
    } else if ('refused' in step) {
      settle(step.refused, 'cancelled', '[Operation Cancelled] Reason: User denied execution.');
      write(current, index);
    } else {
      throw new Error('Gemini CLI records no interruption');
    }
  });
  const file = join(folder, `session-${start.slice(0, 16).replace(/:/g, '-')}-${session.slice(0, 8)}.jsonl`);
  writeFileSync(file, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
  return file;
}

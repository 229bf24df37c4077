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

/**
 * Tasks of Cline and its forks as they keep them (docs/formats/cline.md): the panel's messages (`ui_messages.json`,
 * `ClineMessage`s) and the head of the conversation with the model, which names the folder. Built from the
 * extensions' source, not copied from any person's task.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const T0 = Date.parse('2026-11-01T10:00:00.000Z');
const at = (minute: number) => T0 + minute * 60_000;

/** A Cline task: the person's task and feedback, the model's words, a command, a failed edit, a completion. */
export const CLINE_MESSAGES = [
  { ts: at(0), type: 'say', say: 'task', text: 'add lodash to the project' },
  { ts: at(0), type: 'say', say: 'api_req_started', text: '{"request":"<task>…</task>"}' },
  { ts: at(1), type: 'say', say: 'text', text: "I'll install it with npm." },
  { ts: at(1), type: 'ask', ask: 'command', text: 'npm install lodash' },
  {
    ts: at(2),
    type: 'say',
    say: 'user_feedback',
    text: 'please use pnpm, not npm — this repo has a pnpm lockfile',
  },
  { ts: at(2), type: 'say', say: 'api_req_started', text: '{}' },
  { ts: at(3), type: 'say', say: 'text', text: 'Understood, switching to pnpm.' },
  { ts: at(3), type: 'say', say: 'command', text: 'pnpm add lodash' },
  { ts: at(3), type: 'ask', ask: 'command_output', text: 'Done in 1.2s' },
  {
    ts: at(4),
    type: 'say',
    say: 'tool',
    text: '{"tool":"editedExistingFile","path":"src/util.ts","diff":"…"}',
  },
  { ts: at(4), type: 'say', say: 'diff_error', text: 'src/util.ts' },
  {
    ts: at(5),
    type: 'say',
    say: 'completion_result',
    text: 'lodash is installed with pnpm and used in src/util.ts.',
  },
  { ts: at(5), type: 'ask', ask: 'completion_result', text: '' },
  {
    ts: at(6),
    type: 'say',
    say: 'user_feedback',
    text: 'we never import all of lodash here, import the single functions',
  },
  { ts: at(7), type: 'say', say: 'text', text: 'Importing only', partial: true },
];

/**
 * A Roo Code task: the person's task as its first `text`, a question with options and its answer, a failed diff in
 * Roo's words, a completion the person says is wrong.
 */
export const ROO_MESSAGES = [
  { ts: at(0), type: 'say', say: 'text', text: 'make the whole header sticky' },
  { ts: at(0), type: 'say', say: 'api_req_started', text: '{}' },
  {
    ts: at(1),
    type: 'ask',
    ask: 'followup',
    text: '{"question":"Should the logo stay too?","suggest":[],"options":["Yes","Only the nav"]}',
  },
  {
    ts: at(2),
    type: 'say',
    say: 'user_feedback',
    text: 'only the nav should stay, the logo gets in the way',
  },
  {
    ts: at(3),
    type: 'say',
    say: 'diff_error',
    text: 'Unable to apply diff to file: /work/site/src/header.css\n\n<error_details>\nNo sufficiently similar match found (62% similar, needs 100%)\n</error_details>',
  },
  {
    ts: at(4),
    type: 'say',
    say: 'completion_result',
    text: 'The nav is sticky now; the logo and tagline scroll away.',
  },
  {
    ts: at(5),
    type: 'say',
    say: 'user_feedback',
    text: 'the nav still scrolls away, you changed the wrong selector',
  },
];

const history = (folder: string) =>
  JSON.stringify([
    {
      role: 'user',
      content: [
        { type: 'text', text: '<task>\nthe task\n</task>' },
        {
          type: 'text',
          text: `<environment_details>\n# Current Working Directory (${folder}) Files\nsrc/\n</environment_details>`,
        },
      ],
    },
  ]);

/** Writes a task under `<userDir>/globalStorage/<extension>/tasks/<id>/`; its path to `ui_messages.json`. */
export function clineTask(
  userDir: string,
  extension: string,
  id: string,
  messages: unknown,
  folder: string,
): string {
  const dir = join(userDir, 'globalStorage', extension, 'tasks', id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'api_conversation_history.json'), history(folder));
  const path = join(dir, 'ui_messages.json');
  writeFileSync(path, typeof messages === 'string' ? messages : JSON.stringify(messages));
  return path;
}

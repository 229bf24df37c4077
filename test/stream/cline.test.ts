import { describe, expect, it } from 'vitest';
import { clineFolder, clineReader, clineTaskLines } from '../../src/stream/cline.ts';
import { CLINE_MESSAGES, ROO_MESSAGES } from './cline-tasks.ts';
import { readText, said, words } from './read.ts';

function read(messages: unknown, folder: string | null = '/work/shop') {
  const bytes = clineTaskLines(JSON.stringify(messages), folder, 'saoudrizwan.claude-dev');
  return readText(clineReader, bytes?.toString('utf8') ?? '');
}

describe('the Cline reader', () => {
  it('reads the person’s task and feedback, the model’s words and completion, its calls, and a failed edit', () => {
    const { turns, warnings } = read(CLINE_MESSAGES);
    expect(warnings).toEqual([]);
    expect(turns[0]).toMatchObject({ type: 'link', cwd: '/work/shop' });
    expect(said(turns)).toEqual([
      'add lodash to the project',
      'please use pnpm, not npm — this repo has a pnpm lockfile',
      'we never import all of lodash here, import the single functions',
    ]);
    // The message still being written is left out.
    expect(words(turns)).toEqual([
      "I'll install it with npm.",
      'Understood, switching to pnpm.',
      'lodash is installed with pnpm and used in src/util.ts.',
    ]);
    const calls = turns.flatMap((turn) => (turn.type === 'call' ? [`${turn.tool} ${turn.input}`] : []));
    expect(calls).toEqual([
      'execute_command npm install lodash',
      'execute_command pnpm add lodash',
      'editedExistingFile src/util.ts',
      'replace_in_file src/util.ts',
    ]);
    expect(turns.find((turn) => turn.type === 'result')).toMatchObject({
      status: 'failed',
      text: 'The SEARCH block did not match the content of src/util.ts',
    });
    expect(turns.find((turn) => turn.type === 'prompt')?.at).toBe('2026-11-01T10:00:00.000Z');
  });

  it('reads Roo Code’s task given as its first words, a question with its options, and its own failed diff', () => {
    const { turns } = read(ROO_MESSAGES);
    expect(said(turns)).toEqual([
      'make the whole header sticky',
      'only the nav should stay, the logo gets in the way',
      'the nav still scrolls away, you changed the wrong selector',
    ]);
    expect(words(turns)).toEqual([
      'Should the logo stay too?\n- Yes\n- Only the nav',
      'The nav is sticky now; the logo and tagline scroll away.',
    ]);
    expect(turns.find((turn) => turn.type === 'result')).toMatchObject({
      status: 'failed',
      text: 'Unable to apply diff to file: /work/site/src/header.css\nNo sufficiently similar match found (62% similar, needs 100%)',
    });
  });

  it('finds the folder in the first request, and says what it cannot read', () => {
    expect(
      clineFolder('"text":"<environment_details>\\n# Current Workspace Directory (/home/a/site) Files\\n'),
    ).toBe('/home/a/site');
    expect(clineFolder('no folder here')).toBeNull();
    expect(clineTaskLines('{"not":"an array"}', null, 'x')).toBeNull();
    expect(clineTaskLines('[{"ts":1', null, 'x')).toBeNull();
    const { turns, warnings } = read(['a string', { ts: 1, type: 'say' }]);
    expect(turns).toEqual([expect.objectContaining({ type: 'link' })]);
    expect(warnings.map((warning) => warning.reason)).toEqual([
      'a panel message that is not a JSON object',
      'a panel message neither said nor asked',
    ]);
    expect(
      clineReader.sessionOf('/u/globalStorage/saoudrizwan.claude-dev/tasks/1730000000000/ui_messages.json'),
    ).toBe('1730000000000');
  });
});

import { describe, expect, it } from 'vitest';
import { specstoryReader, specstorySessionLines } from '../../src/stream/specstory.ts';
import type { Turn } from '../../src/stream/types.ts';
import { readText, said, words } from './read.ts';
import { CLI, CURSOR, OLDER, shellBlock, terminalSegment } from './specstory-exports.ts';

function read(file: { name: string; text: string }) {
  const bytes = specstorySessionLines(file.text, file.name, '/work/shop');
  return readText(specstoryReader, bytes?.bytes.toString('utf8') ?? '');
}

const calls = (turns: Turn[]) =>
  turns.flatMap((turn) => (turn.type === 'call' ? [`${turn.tool}: ${turn.input}`] : []));

describe('the SpecStory reader', () => {
  it('reads the oldest exports: tool reports between --- lines are calls, a bare Cancelled says nothing', () => {
    const { turns, warnings } = read(OLDER);
    expect(warnings).toEqual([]);
    expect(turns[0]).toMatchObject({ type: 'link', cwd: '/work/shop', at: '2025-03-10T14:22:31.000Z' });
    expect(said(turns)).toEqual([
      'add lodash to the project',
      'please use pnpm, not npm — this repo has a pnpm lockfile',
      'thanks',
    ]);
    expect(calls(turns)).toEqual(['Read: Read file: package.json']);
    expect(words(turns).at(-2)).toBe(
      'Done: lodash is installed and listed in `package.json`. Let me know if you want me to use it anywhere.',
    );
    expect(words(turns).at(-1)).toBe("You're right, sorry. I'll switch to pnpm.");
  });

  it('reads Cursor exports: <tool-use> blocks are calls, thinking is left out, a message with no time has the last', () => {
    const { turns } = read(CURSOR);
    expect(calls(turns)).toEqual([
      'read_file: Read file: src/header.css',
      'search_replace: Edit file: src/header.css',
    ]);
    expect(words(turns)).toEqual([
      'The whole header is now sticky: `position: sticky` moved from the nav to `header`. It should now stay at the top when you scroll.',
      'Understood, only the nav sticks again.',
    ]);
    expect(turns.at(-1)?.at).toBe('2025-08-06T10:45:00.000Z');
  });

  it('reads the command line’s Markdown v2.1.0: a call that failed, with the error it gave', () => {
    const { turns } = read(CLI);
    expect(calls(turns)).toEqual(['Bash: pytest tests/ -q --grep flaky']);
    const result = turns.find((turn) => turn.type === 'result');
    expect(result).toMatchObject({ status: 'failed', text: 'pytest: error: unrecognized arguments: --grep' });
    expect(turns.find((turn) => turn.type === 'prompt' && turn.text.startsWith('it still'))?.at).toBe(
      '2026-07-13T13:42:00.000Z',
    );
  });

  it('takes a command written in a fenced block whole, not its first line', () => {
    const script = 'cd app && uv run python - <<EOF\nfrom rotato import presets\npresets.apply("dark")\nEOF';
    const block = shellBlock(
      'Bash',
      script,
      'TypeError: apply() takes 1 positional argument but 2 were given',
      { failed: true },
    );
    const text = CLI.text.replace(/<tool-use[\s\S]*?<\/tool-use>/, block);
    const { turns } = read({ name: CLI.name, text });
    expect(calls(turns)).toEqual([`Bash: ${script}`]);
    expect(turns.find((turn) => turn.type === 'call')).toMatchObject({
      description: 'cd app && uv run python - <<EOF',
    });
    expect(turns.find((turn) => turn.type === 'result')).toMatchObject({
      status: 'failed',
      text: 'TypeError: apply() takes 1 positional argument but 2 were given',
    });
  });

  it('reads a shell call as failed when what it printed says so, though the export does not', () => {
    const block = (command: string, output: string) =>
      shellBlock('run_terminal_cmd', command, output, {
        summary: `Tool use: **run_terminal_cmd** • Run command: ${command}`,
      });
    const exportOf = (calls: string[]) =>
      [
        '_**User (2025-08-06 10:30Z)**_',
        '',
        'set it up',
        '',
        '---',
        '',
        '_**Agent (model default, mode Agent)**_',
        '',
        calls.join('\n\n---\n\n'),
        '',
      ].join('\n');
    const results = (calls: string[]) =>
      read({ name: '2025-08-06_10-30Z-setup.md', text: exportOf(calls) }).turns.flatMap((turn) =>
        turn.type === 'result' ? [turn.text] : [],
      );
    expect(
      results([
        terminalSegment(
          'docker-compose up -d',
          'zsh: command not found: docker-compose\na123@MacBookAir app % ',
        ),
        block(
          'python scripts/seed.py',
          'Seeding…\nTraceback (most recent call last):\n  File "scripts/seed.py", line 4, in <module>\nKeyError: \'DATABASE_URL\'',
        ),
        terminalSegment(
          './gradlew spotlessApply',
          "FAILURE: Build failed with an exception.\n\n* What went wrong:\nTask 'spotlessApply' not found",
        ),
      ]),
    ).toEqual([
      'zsh: command not found: docker-compose\na123@MacBookAir app %',
      'Traceback (most recent call last):\n  File "scripts/seed.py", line 4, in <module>\nKeyError: \'DATABASE_URL\'',
      "FAILURE: Build failed with an exception.\n\n* What went wrong:\nTask 'spotlessApply' not found",
    ]);
    // The command line's exports mark a failed call: one they do not mark ended well, whatever it printed.
    const unmarked = shellBlock(
      'Bash',
      'git fetch --all',
      'error: could not fetch mirror (the other remotes were fetched)',
    );
    const cli = read({ name: CLI.name, text: CLI.text.replace(/<tool-use[\s\S]*?<\/tool-use>/, unmarked) });
    expect(cli.turns.filter((turn) => turn.type === 'result')).toEqual([]);
    expect(calls(cli.turns)).toEqual(['Bash: git fetch --all']);
    // Output that mentions errors, and a command that names one, did not fail.
    expect(
      results([
        block('grep -rn "error:" src', 'src/log.ts:12:  console.log("error: " + message);'),
        terminalSegment('npm test', ' ✓ src/errors.test.ts (3 tests) 12ms\n\n Test Files  1 passed (1)'),
        terminalSegment('cat src/errors.ts', 'export class NotFoundError extends Error {}'),
        terminalSegment('./gradlew build', 'BUILD SUCCESSFUL in 12s'),
      ]),
    ).toEqual([]);
  });

  it('leaves out a subagent’s messages and an export with no message of the person, and says what it cannot read', () => {
    const sidechain = ['_**User - sidechain (2026-07-13 13:40:49Z)**_', '', 'look at app.py', ''].join('\n');
    expect(specstorySessionLines(sidechain, 'x.md', '/p')).toBeNull();
    expect(specstorySessionLines('# notes\n\nnothing here\n', 'notes.md', '/p')).toBeNull();
    // A fence a message leaves open does not hide the messages after it.
    const open = [
      '_**User**_',
      '',
      'why does this print',
      '```',
      '',
      '_**Assistant**_',
      '',
      'It prints the path.',
      '',
    ];
    const { turns } = readText(
      specstoryReader,
      specstorySessionLines(open.join('\n'), 'f.md', '/p')!.bytes.toString(),
    );
    expect(said(turns)).toEqual(['why does this print\n```']);
    expect(words(turns)).toEqual(['It prints the path.']);
    expect(specstoryReader.parseLine('x', 1).warning).toBe('not a JSON object');
    expect(specstoryReader.parseLine({ at: '' }, 2).warning).toMatch(/^neither a session/);
    expect(specstoryReader.sessionOf('/a/.specstory/history/x.md')).toMatch(/^specstory-[0-9a-f]{12}$/);
  });
});

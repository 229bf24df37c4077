import { describe, expect, it } from 'vitest';
import { aiderReader, aiderSessionLines } from '../../src/stream/aider.ts';
import { readText, said } from './read.ts';

/** A line as aider writes its own (the person's input, its messages): with a Markdown line break. */
const own = (line: string) => `${line}  `;

function read(markdown: string) {
  return aiderSessionLines(markdown, '/work/shop').map((session) => ({
    started: session.started,
    ...readText(aiderReader, session.bytes.toString('utf8')),
  }));
}

const HISTORY = [
  '',
  '# aider chat started at 2026-03-02 09:14:05',
  '',
  own('> /home/dev/.local/bin/aider --model sonnet'),
  own('> Aider v0.86.1'),
  '',
  own('#### /add src/client.ts'),
  own('> Added src/client.ts to the chat'),
  '',
  own('#### add a retry to the fetch'),
  own('#### three attempts'),
  '',
  "I'll wrap the request in a loop.",
  '',
  '#### Plan',
  '',
  '> Note: the signature stays.',
  '',
  '```typescript',
  '<<<<<<< SEARCH',
  '=======',
  '>>>>>>> REPLACE',
  '```',
  own('> Applied edit to src/client.ts'),
  own('> Commit 1a2b3c4 feat: retry'),
  '',
  own('#### /ask why three?'),
  '',
  'Three is a common default.',
  '',
  own('#### <blank>'),
  '',
  own('> # Fix any errors below, if possible.'),
  own('> ## Running: npx eslint src/client.ts'),
  own('> src/client.ts:4:7: error  attempts is assigned a value but never used'),
  own('> Fix lint errors in src/client.ts? (Y)es/(N)o [Yes]: y'),
  '',
  own('> The LLM did not conform to the edit format.'),
  own('> # 1 SEARCH/REPLACE block failed to match!'),
  own('> ## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in src/client.ts'),
  '',
  own('> npm test'),
  own("> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y"),
  own('> Running npm test'),
  '',
  '# aider chat started at 2026-03-03 10:00:00',
  '',
  own('> Aider v0.86.1'),
  '',
  '# aider chat started at 2026-03-03 11:00:00',
  '',
  own('#### always store timestamps in UTC'),
  '',
  'Understood.',
  '',
].join('\n');

describe('the aider reader', () => {
  it('reads each run as a session: prompts, replies, applied and failed edits, lints and shell commands', () => {
    const [first, empty] = read(HISTORY);
    expect(first?.started).toBe('2026-03-02 09:14:05');
    expect(first?.warnings).toEqual([]);
    const turns = first!.turns;
    expect(turns[0]).toMatchObject({
      type: 'link',
      cwd: '/work/shop',
      at: new Date('2026-03-02T09:14:05').toISOString(),
    });
    // Commands are aider's, not messages; /ask carries one; a blank input says nothing.
    expect(
      turns.filter((turn) => turn.type === 'prompt').map((turn) => turn.type === 'prompt' && turn.text),
    ).toEqual(['add a retry to the fetch\nthree attempts', 'why three?']);
    // The model's own heading and quote, inside its reply, stay its words.
    const reply = turns.find((turn) => turn.type === 'reply');
    expect(reply?.type === 'reply' && reply.text).toContain('#### Plan\n\n> Note: the signature stays.');
    const calls = turns.flatMap((turn) => (turn.type === 'call' ? [`${turn.tool} ${turn.input}`] : []));
    expect(calls).toEqual([
      'aider edit src/client.ts',
      'aider lint src/client.ts',
      'aider edit src/client.ts',
      'aider shell npm test',
    ]);
    const results = turns.flatMap((turn) => (turn.type === 'result' ? [turn] : []));
    expect(results.map((result) => result.status)).toEqual(['ok', 'failed', 'failed']);
    expect(results[1]?.text).toBe('src/client.ts:4:7: error  attempts is assigned a value but never used');
    expect(results[2]?.text).toMatch(
      /^The LLM did not conform to the edit format\.\n# 1 SEARCH\/REPLACE block/,
    );
    // A run with no prompt is no session.
    expect(empty?.started).toBe('2026-03-03 11:00:00');
  });

  it('reads a history whose line breaks were stripped: a fence, or the model’s words just before, keep its headings its own', () => {
    const stripped = HISTORY.split('\n')
      .map((line) => line.trimEnd())
      .join('\r\n');
    const [first] = read(stripped);
    const prompts = said(first!.turns);
    // Without the breaks, a `#### ` line right after the model's words is its heading, not the person's input.
    expect(prompts).toEqual(['add a retry to the fetch\nthree attempts', 'why three?']);
    // A fence closes only with a marker of its own character at least as long: the ``` inside ```` is the code's.
    const fenced = [
      '# aider chat started at 2026-03-02 09:14:05',
      '#### fix it',
      '',
      '````md',
      '```',
      '#### not a prompt',
      '```',
      '````',
      '> Tokens: 2.1k sent, 310 received.',
      '',
      '#### and this',
      '',
      'Done.',
      '',
      '#### a heading of the model',
    ];
    const [only] = read(fenced.join('\n'));
    expect(said(only!.turns)).toEqual(['fix it', 'and this']);
    // A message only aider writes closes a fence the model's reply left open.
    const unclosed = [
      '# aider chat started at 2026-03-02 09:14:05',
      '#### fix it',
      '',
      '```python',
      'x = 1',
      '',
      '> Tokens: 2.1k sent, 310 received.',
      '',
      '#### and this',
    ];
    const [after] = read(unclosed.join('\n'));
    expect(said(after!.turns)).toEqual(['fix it', 'and this']);
    // Where aider's line breaks are kept, a fence the model left open does not hide the person's next input.
    const open = [
      '# aider chat started at 2026-03-02 09:14:05',
      own('#### fix it'),
      '',
      '```python',
      'x = 1',
      '',
      own('#### and this'),
    ];
    const [kept] = read(open.join('\n'));
    expect(said(kept!.turns)).toEqual(['fix it', 'and this']);
  });

  it('gives one session a run, unique to its file, and says what it cannot read', () => {
    const a = aiderReader.sessionOf('/a/.aider.chat.history.md#2026-03-02 09:14:05');
    expect(a).toMatch(/^aider-[0-9a-f]{12}-20260302091405$/);
    expect(aiderReader.sessionOf('/b/.aider.chat.history.md#2026-03-02 09:14:05')).not.toBe(a);
    // A folder named with a # keeps its name; a second run of the same second has a session of its own.
    expect(aiderReader.sessionOf('/C#/.aider.chat.history.md#2026-03-02 09:14:05')).toMatch(
      /-20260302091405$/,
    );
    expect(aiderReader.sessionOf('/a/.aider.chat.history.md#2026-03-02 09:14:05#2')).toMatch(
      /^aider-[0-9a-f]{12}-202603020914052$/,
    );
    expect(aiderReader.sessionOf('/a/.aider.chat.history.md#2026-03-02 09:14:05#2').slice(0, 18)).toBe(
      a.slice(0, 18),
    );
    expect(aiderReader.parseLine([1], 1).warning).toBe('not a JSON object');
    expect(aiderReader.parseLine({ at: '', other: {} }, 2).warning).toMatch(/^neither a session/);
    expect(aiderSessionLines('just some notes\n', '/p')).toEqual([]);
    // The line before a shell question is its command only when it is not one of aider's own messages.
    const unquoted = [
      '#### run the tests',
      own('> Commit 1a2b3c4 fix: retry'),
      own('> Run shell command? (Y)es/(N)o [Yes]: y'),
    ];
    const [shell] = read(
      ['# aider chat started at 2026-03-02 09:14:05', own(unquoted[0]!), ...unquoted.slice(1)].join('\n'),
    );
    expect(shell!.turns.filter((turn) => turn.type === 'call')).toEqual([]);
  });
});

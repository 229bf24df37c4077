import { describe, expect, it } from 'vitest';
import { lessonSubjects } from '../../src/embed/index.ts';
import type { NightEpisode } from '../../src/sleep/night.ts';
import { correctionText, errorText, headline, themeText } from '../../src/sleep/wording.ts';

function episode(fields: Partial<NightEpisode>): NightEpisode {
  return {
    id: 1,
    kind: 'correction',
    project: null,
    tool: null,
    happenedAt: '2026-03-01T10:00:00.000Z',
    title: '',
    text: '',
    said: null,
    agentBefore: null,
    detail: {},
    lessonId: null,
    vec: new Float32Array(0),
    fresh: false,
    ...fields,
  };
}

describe('a lesson headline, read back from the wording that wrote it', () => {
  it('puts the person first when they answered the agent', () => {
    const text = correctionText(
      episode({ said: 'use pnpm, not npm', agentBefore: 'I will run npm install now.' }),
    );
    expect(headline('correction', text)).toBe('The person said: "use pnpm, not npm"');
  });

  it('names the call the person answered when the agent ran one after its last words', () => {
    const text = correctionText(
      episode({
        said: 'use pnpm, not npm',
        agentBefore: 'Vitest has no --grep; its name filter is -t.',
        detail: { lastCall: 'npm test -- -t predictions', lastTool: 'Bash' },
      }),
    );
    expect(text).toBe(
      'After the agent\'s Bash call "npm test -- -t predictions", the person answered: "use pnpm, not npm"',
    );
    expect(headline('correction', text)).toBe('The person said: "use pnpm, not npm"');
  });

  it('keeps a message said without an agent turn before it as written', () => {
    const text = correctionText(episode({ said: 'always store timestamps in UTC' }));
    expect(headline('correction', text)).toBe(text);
  });

  it('names a refused call and the reason the person gave', () => {
    const text = correctionText(
      episode({
        said: 'we use pnpm here',
        detail: { refusedTool: 'Bash', refusedCall: 'npm install zod' },
      }),
    );
    expect(headline('correction', text)).toBe(
      'Refused Bash call "npm install zod"; the person said: "we use pnpm here"',
    );
  });

  it('tells of a stop with nothing said after it by what the agent was running, else what it had said', () => {
    const during = correctionText(
      episode({
        said: '[stopped the agent at: Bash Migrate]',
        agentBefore: 'Running the migration now.',
        detail: { stopped: true, lastCall: 'npm run migrate', lastTool: 'Bash' },
      }),
    );
    expect(during).toBe('The person stopped the agent during its Bash call "npm run migrate".');
    expect(headline('correction', during)).toBe(during);
    const after = correctionText(
      episode({
        said: '[stopped the agent]',
        agentBefore: 'Let me reinitialise task-master.',
        detail: { stopped: true },
      }),
    );
    expect(after).toBe('The person stopped the agent after it said "Let me reinitialise task-master.".');
  });

  it('leaves a refused call without a reason as written', () => {
    const text = correctionText(
      episode({ said: '[refused]', detail: { refusedTool: 'Bash', refusedCall: 'rm -rf build' } }),
    );
    expect(text).not.toContain('saying');
    expect(headline('correction', text)).toBe(text);
  });

  it('counts a theme and quotes it', () => {
    const text = themeText([
      episode({ id: 1, said: 'use pnpm not npm' }),
      episode({ id: 2, said: 'again: pnpm, not npm', happenedAt: '2026-03-02T10:00:00.000Z' }),
    ]);
    expect(headline('correction', text)).toBe(
      'The person said 2 times: "use pnpm not npm"; "again: pnpm, not npm".',
    );
  });

  it('quotes words said twice in a theme once, and counts them twice', () => {
    const text = themeText([
      episode({ id: 1, said: 'use uv instead of python' }),
      episode({ id: 2, said: 'Use uv  instead of python', happenedAt: '2026-03-02T10:00:00.000Z' }),
      episode({ id: 3, said: 'run it with uv run', happenedAt: '2026-03-03T10:00:00.000Z' }),
    ]);
    expect(text).toBe(
      'The person corrected the agent 3 times about the same thing: "use uv instead of python"; "run it with uv run".',
    );
  });

  it('leaves every other lesson as worded', () => {
    const text = errorText([
      episode({
        kind: 'error',
        tool: 'Bash',
        text: 'CACError: Unknown option --grep',
        detail: { input: 'vitest --grep x' },
      }),
    ]);
    expect(headline('error', text)).toBe(text);
  });
});

describe("a lesson's subjects, read past the agent's part that the wording writes", () => {
  it('leaves out the sentence or the call the person answered, and keeps their words', () => {
    const terms = (text: string) => [...lessonSubjects(text).terms].sort();
    const person = { said: 'the header should be red' };
    const afterWords = correctionText(
      episode({ ...person, agentBefore: 'Let me run pytest and git commit this.' }),
    );
    const afterCall = correctionText(
      episode({ ...person, detail: { lastCall: 'git commit -am wip && pytest', lastTool: 'Bash' } }),
    );
    expect(terms(afterWords)).toEqual([]);
    expect(terms(afterCall)).toEqual([]);
    const rule = correctionText(
      episode({ said: 'use pnpm not npm', detail: { lastCall: 'git status', lastTool: 'Bash' } }),
    );
    expect(terms(rule)).toEqual(['command:npm', 'command:pnpm', 'theme:packages']);
  });
});

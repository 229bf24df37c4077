/**
 * Corrections are compared by what the person wrote, not by what they pasted: two messages that paste the same
 * app's console about different things are not the same correction, and the one failing line of a bare log is kept.
 */
import { describe, expect, it } from 'vitest';
import { defaultParams } from '../../src/core/index.ts';
import { dot, hashedVector, normalize } from '../../src/embed/index.ts';
import { embeddingText } from '../../src/sleep/index.ts';
import type { NightEpisode } from '../../src/sleep/night.ts';
import { ownWords, personsWords } from '../../src/sleep/own-words.ts';
import { correctionText, themeText } from '../../src/sleep/wording.ts';

const CONSOLE = [
  '🚀 DOM loaded, initializing LeagueStatsApp...',
  'league-stats-app.js:30 Initializing LeagueStatsApp...',
  'filter-controls-block.js:262 Filter changed: {type: "season", value: null}',
  'await in loadTeamsData',
  '(anonymous) @ stats?season=23%2F24&league=BayL&week=10:2699',
  'setTimeout',
  'Promise.catch',
].join('\n');

const similarity = (a: string, b: string) => {
  const dims = defaultParams.hashedDims;
  return dot(normalize(hashedVector(a, dims)), normalize(hashedVector(b, dims)));
};

describe('ownWords', () => {
  it('keeps what the person wrote and leaves out the console they pasted', () => {
    const said = `the buttons flicker on every click, only update them when the data changed\n${CONSOLE}`;
    expect(ownWords(said)).toBe('the buttons flicker on every click, only update them when the data changed');
  });

  it('keeps the failing lines of what was pasted, without their file references', () => {
    const traceback = [
      'Traceback (most recent call last):',
      '  File "app/main.py", line 12, in <module>',
      '    run()',
      'ERROR app/db.py:40 KeyError: total_games',
      'ValueError: season must not be empty',
    ].join('\n');
    expect(ownWords(traceback)).toBe('ValueError: season must not be empty\nERROR KeyError: total_games');
    expect(ownWords('still broken:\n```\nTypeError: x is undefined\n  at render (view.js:3:9)\n```')).toBe(
      'still broken:\nTypeError: x is undefined',
    );
  });

  it('reads a log stamped with a 12-hour clock as pasted, and keeps its failing lines', () => {
    const build = [
      '8:52:10 PM: Netlify Build',
      '8:52:10 PM: ❯ Version',
      '8:52:10 PM:   @netlify/build 36.0.0',
      '8:52:14 PM: Failed during stage "building site": Build script returned non-zero exit code: 2',
      '8:52:14 PM: Error: Cannot find module "vite"',
    ].join('\n');
    expect(ownWords(build)).toBe(
      'Failed during stage "building site": Build script returned non-zero exit code: 2\nError: Cannot find module "vite"',
    );
    expect(ownWords(`the deploy fails again\n${build}`).split('\n')[0]).toBe('the deploy fails again');
  });

  it('makes two corrections that paste one app’s console about different things unlike', () => {
    const flicker = `the buttons flicker on every click, only update them when the data changed\n${CONSOLE}`;
    const interfaces = `use the existing table functions, do not write new ones\n${CONSOLE}`;
    expect(similarity(flicker, interfaces)).toBeGreaterThan(defaultParams.sameSurprise.hashed);
    const correction = (said: string) => ({ kind: 'correction', title: '', text: said, said });
    expect(
      similarity(embeddingText(correction(flicker)), embeddingText(correction(interfaces))),
    ).toBeLessThan(defaultParams.sameSurprise.hashed);
  });
});

describe('a correction lesson quotes what the person wrote', () => {
  const source = (id: number, said: string) =>
    ({
      id,
      said,
      text: said,
      happenedAt: `2026-03-0${id}T10:00:00.000Z`,
      agentBefore: null,
      detail: {},
    }) as unknown as NightEpisode;

  it('and what failed, not the console they pasted, nor nothing when they pasted only output', () => {
    const said = `only update the buttons when the data changed\n${CONSOLE}`;
    expect(correctionText(source(1, said))).toBe(
      'The person told the agent: "only update the buttons when the data changed"',
    );
    const bare = `${CONSOLE}\nfilter-controls-block.js:9 Uncaught TypeError: buttons is undefined`;
    expect(correctionText(source(2, bare))).toBe(
      'The person told the agent: "Uncaught TypeError: buttons is undefined"',
    );
    expect(personsWords(CONSOLE)).toBe(CONSOLE);
    expect(themeText([source(1, said), source(2, bare)])).toBe(
      'The person corrected the agent 2 times about the same thing: "only update the buttons when the data changed"; "Uncaught TypeError: buttons is undefined".',
    );
  });
});

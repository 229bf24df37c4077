import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isUiPrompt } from '../../src/episodes/ui-prompts.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { claudeSession } from './sessions.ts';

const tempDir = useTempDirs();

const CLAIM = "I've fixed the totals chart; it should render correctly now. Please test it and let me know.";
const BUGBOT =
  'Verify these issues exist and fix them:\n\nBug 1:\nThe totals chart still sums every game twice, so each team shows double its score.';
const PERSON = "no, the chart still shows double totals, you're summing the games twice";
const TERMINAL =
  '[Terminal 2e6e5844-70b5-4a22-8a09-b227745a2a52 notification: command completed with exit code 1. Use send_to_terminal to send another command or kill_terminal to stop it.] Terminal output: Error: the chart still sums every game twice';

describe("prompts an agent's interface writes in the person's name", () => {
  it('are told from what the person types', () => {
    for (const said of [
      '@agent Try Again',
      '@agent Continue: "Continue to iterate?"',
      'Implement the plan as specified, it is attached for your reference. Do NOT edit the plan file itself.',
      BUGBOT,
      TERMINAL,
    ])
      expect(isUiPrompt(said), said).toBe(true);
    for (const said of [
      PERSON,
      'try again with pnpm',
      'continue',
      'please verify these issues first',
      '[terminal output] the build still fails',
    ])
      expect(isUiPrompt(said), said).toBe(false);
  });

  it('never make a correction episode, while the same complaint in the person words does', () => {
    const home = tempDir('remem-ui-prompts-');
    const claude = join(tempDir('remem-ui-prompts-src-'), 'claude');
    claudeSession(claude, '/tmp/remem-ui-prompts-project', 'sess-ui', '2026-11-10T10:00:00.000Z', [
      { user: 'add a totals chart to the league page' },
      { agent: CLAIM },
      { user: BUGBOT },
      { agent: CLAIM },
      { user: '@agent Try Again' },
      { agent: CLAIM },
      { user: TERMINAL },
      { agent: CLAIM },
      { user: PERSON },
    ]);
    const now = '2026-11-10T12:00:00.000Z';
    const ingested = remem(['ingest', '--claude', claude], { home, now });
    expect(ingested.code, ingested.stderr).toBe(0);
    const listed = remem(['episodes', '--kind', 'correction', '--json'], { home, now });
    expect(listed.code, listed.stderr).toBe(0);
    const saids = listed.json<{ episodes: { said: string | null }[] }>().episodes.map((e) => e.said);
    expect(saids).toEqual([PERSON]);
  });
});

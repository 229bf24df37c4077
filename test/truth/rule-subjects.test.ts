import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/index.ts';
import { answerHook, type HookPayload } from '../../src/prime/index.ts';
import { personQuotes } from '../../src/sleep/index.ts';
import { openStore } from '../../src/store/index.ts';
import { openPrimeIndex, ruleSubjects, statesRule, writePrimeIndex } from '../../src/truth/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { day, storeLesson } from './fixtures.ts';

const tempDir = useTempDirs();

const RULE =
  'When the agent said "Running the script with python now.", the person answered: "no, use uv instead of python"';
const QUESTION =
  'When the agent said "Let me install it.", the person answered: "wait, have we already installed `uv` on this machine?"';
const THEME =
  'The person corrected the agent 3 times about the same thing: "the button still flickers"; "please always run `pnpm lint` before you say it is done"; "still flickers" and 1 more.';

describe('what a correction lesson is about, for a moment to meet it by subject alone', () => {
  it("reads the person's words out of each wording a correction lesson has", () => {
    expect(personQuotes(RULE)).toEqual(['no, use uv instead of python']);
    expect(personQuotes('The person told the agent: "named exports only please"')).toEqual([
      'named exports only please',
    ]);
    expect(personQuotes(THEME)).toEqual([
      'the button still flickers',
      'please always run `pnpm lint` before you say it is done',
      'still flickers',
    ]);
    expect(personQuotes('The agent failed: "ENOENT"')).toEqual([]);
  });

  it('is what a rule of the house or a refused call names, and nothing for any other correction', () => {
    expect([...ruleSubjects(RULE).terms]).toEqual(
      expect.arrayContaining(['command:uv', 'command:python', 'theme:python']),
    );
    expect(statesRule(RULE)).toBe(true);
    expect(statesRule(QUESTION)).toBe(false);
    expect(ruleSubjects(QUESTION).terms.size).toBe(0);
    expect(ruleSubjects(QUESTION).mask).toBe(0);
    // One quote of a theme states a rule: the theme is about what it names.
    expect([...ruleSubjects(THEME).terms]).toContain('command:pnpm');
    expect([...ruleSubjects('The person refused the agent\'s Bash call "npm install zod".').terms]).toContain(
      'command:npm',
    );
  });

  it('lets a call meet the rule about the tool it runs, not a question that names it, from the index and the store', async () => {
    const home = tempDir();
    const store = openStore(home);
    try {
      const pnpm =
        'When the agent said "Installing it now.", the person answered: "no, use pnpm instead of npm"';
      for (const text of [pnpm, QUESTION]) storeLesson(store.db, { text, at: day(1), project: '/p' });
      writePrimeIndex(store, day(2), 256);
      const config = resolveConfig({ HOME: home, REMEM_HOME: home, REMEM_HOLDOUT: '0' });
      const call = (command: string, session: string): HookPayload => ({
        event: 'PreToolUse',
        session,
        cwd: '/p',
        transcriptPath: null,
        prompt: '',
        lastAssistantMessage: '',
        stopHookActive: false,
        toolName: 'Bash',
        toolInput: { command },
      });
      for (const [n, index] of [() => openPrimeIndex(home), () => null].entries()) {
        const deps = { config, now: day(2), db: () => store.db, index };
        const npm = await answerHook(call('npm install dayjs', `npm-${n}`), deps);
        expect(npm.said).toContain('no, use pnpm instead of npm');
        const uv = await answerHook(call('uv pip install requests', `uv-${n}`), deps);
        expect(uv.output).toBeNull();
      }
    } finally {
      store.close();
    }
  });
});

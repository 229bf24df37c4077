import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applySetup, inspectWiring, planSetup } from '../../src/setup/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { buildHome, RecordingRunner } from './fixtures.ts';

const tempDir = useTempDirs();

describe('inspectWiring', () => {
  it('says what is wired where', () => {
    const { env, options } = buildHome(tempDir());
    rmSync(join(env.userHome, '.codeium'), { recursive: true });
    const runner = new RecordingRunner();
    const before = inspectWiring(env, runner);
    expect(before.find((status) => status.agent === 'cursor')).toMatchObject({
      installed: true,
      wired: false,
    });
    applySetup(planSetup(env, options), runner);
    const after = inspectWiring(env, runner);
    const byAgent = Object.fromEntries(after.map((status) => [status.agent, status]));
    expect(byAgent['windsurf']).toMatchObject({ installed: false, wired: false });
    for (const agent of ['claude-code', 'codex', 'cursor', 'gemini', 'claude-desktop', 'nightly']) {
      expect(byAgent[agent]).toMatchObject({ installed: true, wired: true });
    }
    expect(byAgent['claude-code']?.details.join('\n')).toContain('UserPromptSubmit (command)');
    expect(byAgent['nightly']?.details.join('\n')).toContain('# remem nightly');
  });
});

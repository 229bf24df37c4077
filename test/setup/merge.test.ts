import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applySetup, planSetup } from '../../src/setup/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { BINARY, buildHome, RecordingRunner, readJson } from './fixtures.ts';

const tempDir = useTempDirs();

const prime = `${BINARY} prime`;

describe('remem setup beside what the user already has', () => {
  it('does not add a handler the user already has, and --remove leaves it', () => {
    const { env, options } = buildHome(tempDir());
    const settings = join(env.claudeDir, 'settings.json');
    const own = { hooks: { Stop: [{ hooks: [{ type: 'command', command: prime, timeout: 10 }] }] } };
    writeFileSync(settings, `${JSON.stringify(own, null, 2)}\n`);
    const plan = planSetup(env, { ...options, agents: ['claude'] });
    applySetup(plan, new RecordingRunner());
    const hooks = readJson(settings)['hooks'] as Record<string, unknown[]>;
    expect(hooks['Stop']).toEqual(own.hooks.Stop);
    expect(Object.keys(hooks)).toEqual(['Stop', 'UserPromptSubmit', 'PreToolUse', 'SessionEnd']);
    applySetup(planSetup(env, { ...options, agents: ['claude'], remove: true }), new RecordingRunner());
    expect(readFileSync(settings, 'utf8')).toBe(`${JSON.stringify(own, null, 2)}\n`);
  });

  it('leaves a different remem handler the user added in place, saying so', () => {
    const { env, options } = buildHome(tempDir());
    const settings = join(env.claudeDir, 'settings.json');
    writeFileSync(
      settings,
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'remem prime' }] }] } }),
    );
    const plan = planSetup(env, { ...options, agents: ['claude-code'] });
    expect(plan.notes.join('\n')).toContain('Stop already runs a remem handler');
    applySetup(plan, new RecordingRunner());
    expect((readJson(settings)['hooks'] as Record<string, unknown[]>)['Stop']).toHaveLength(1);
  });

  it('replaces a remem server entry it did not write, and --remove puts it back', () => {
    const { env, options } = buildHome(tempDir());
    const cursor = join(env.userHome, '.cursor', 'mcp.json');
    const original = `${JSON.stringify({ mcpServers: { remem: { command: 'npx', args: ['remem', 'mcp'] }, b: {} } }, null, 2)}\n`;
    writeFileSync(cursor, original);
    applySetup(planSetup(env, { ...options, agents: ['cursor'] }), new RecordingRunner());
    expect(Object.keys(readJson(cursor)['mcpServers'] as object)).toEqual(['remem', 'b']);
    applySetup(planSetup(env, { ...options, agents: ['cursor'], remove: true }), new RecordingRunner());
    expect(readFileSync(cursor, 'utf8')).toBe(original);
  });

  it('names a memory folder that is not the default in every wired command', () => {
    const { env, options } = buildHome(tempDir());
    const home = join(env.userHome, 'memories', 'work');
    applySetup(planSetup(env, { ...options, home, agents: ['claude-code', 'codex'] }), new RecordingRunner());
    expect(
      (readJson(join(env.userHome, '.claude.json'))['mcpServers'] as Record<string, unknown>)['remem'],
    ).toEqual({
      type: 'stdio',
      command: BINARY,
      args: ['mcp'],
      env: { REMEM_HOME: home },
    });
    const settings = readFileSync(join(env.claudeDir, 'settings.json'), 'utf8');
    expect(settings).toContain(`"command": "${BINARY} prime --home ${home}"`);
    expect(readFileSync(join(env.codexHome, 'config.toml'), 'utf8')).toContain(
      `[mcp_servers.remem.env]\nREMEM_HOME = "${home}"\n`,
    );
  });

  it('writes through a symlinked settings file and keeps the link', () => {
    const { env, options } = buildHome(tempDir());
    const settings = join(env.claudeDir, 'settings.json');
    const dotfiles = join(env.userHome, 'dotfiles');
    mkdirSync(dotfiles);
    renameSync(settings, join(dotfiles, 'settings.json'));
    symlinkSync(join(dotfiles, 'settings.json'), settings);
    applySetup(planSetup(env, { ...options, agents: ['claude-code'] }), new RecordingRunner());
    expect(lstatSync(settings).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dotfiles, 'settings.json'), 'utf8')).toContain(prime);
  });

  it('refuses to apply a plan when a file changed after it was read', () => {
    const { env, options } = buildHome(tempDir());
    const plan = planSetup(env, options);
    writeFileSync(join(env.userHome, '.claude.json'), '{"numStartups": 42}\n');
    expect(() => applySetup(plan, new RecordingRunner())).toThrow(
      /\.claude\.json changed since setup read it/,
    );
    expect(existsSync(join(env.userHome, '.cursor', 'mcp.json.remem-backup'))).toBe(false);
  });

  it('honours CLAUDE_CONFIG_DIR: settings and .claude.json both live there', () => {
    const { env, options } = buildHome(tempDir());
    const claudeDir = join(env.userHome, 'cfg', 'claude');
    mkdirSync(claudeDir, { recursive: true });
    const plan = planSetup({ ...env, claudeDir }, { ...options, agents: ['claude-code'] });
    expect(plan.changes.map((change) => change.path)).toEqual([
      join(claudeDir, '.claude.json'),
      join(claudeDir, 'settings.json'),
    ]);
  });
});

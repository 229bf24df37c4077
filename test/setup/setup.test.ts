import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applySetup, formatPlan, planSetup } from '../../src/setup/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import {
  BINARY,
  buildHome,
  claudeJson,
  claudeSettings,
  fixtureFiles,
  RecordingRunner,
  readJson,
  snapshot,
} from './fixtures.ts';

const tempDir = useTempDirs();

const prime = `${BINARY} prime`;

describe('remem setup', () => {
  it('wires every installed agent and keeps every other key and handler', () => {
    const { env, options } = buildHome(tempDir());
    const home = env.userHome;
    applySetup(planSetup(env, options), new RecordingRunner());

    const claude = readJson(join(home, '.claude.json'));
    expect(claude).toMatchObject({
      numStartups: 41,
      oauthAccount: claudeJson.oauthAccount,
      projects: claudeJson.projects,
    });
    expect(claude['mcpServers']).toEqual({
      github: claudeJson.mcpServers.github,
      remem: { type: 'stdio', command: BINARY, args: ['mcp'] },
    });

    const settings = readJson(join(home, '.claude', 'settings.json'));
    expect(settings['permissions']).toEqual(claudeSettings.permissions);
    expect(settings['hooks']).toEqual({
      Stop: [...claudeSettings.hooks.Stop, { hooks: [{ type: 'command', command: prime, timeout: 10 }] }],
      PreToolUse: [
        ...claudeSettings.hooks.PreToolUse,
        { hooks: [{ type: 'command', command: prime, timeout: 5 }] },
      ],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: prime, timeout: 10 }] }],
      SessionEnd: [{ hooks: [{ type: 'command', command: prime, timeout: 5 }] }],
    });

    const toml = readFileSync(join(home, '.codex', 'config.toml'), 'utf8');
    expect(toml.startsWith(fixtureFiles(home)[join(home, '.codex', 'config.toml')]!)).toBe(true);
    expect(toml).toContain(`[mcp_servers.remem]\ncommand = "${BINARY}"\nargs = ["mcp"]\n`);
    const codexHooks = readJson(join(home, '.codex', 'hooks.json'))['hooks'] as Record<string, unknown>;
    expect(Object.keys(codexHooks)).toEqual(['UserPromptSubmit', 'Stop', 'PreToolUse']);

    const plain = { command: BINARY, args: ['mcp'] };
    expect(readJson(join(home, '.cursor', 'mcp.json'))['mcpServers']).toMatchObject({
      linear: {},
      remem: plain,
    });
    expect(readJson(join(home, '.codeium', 'windsurf', 'mcp_config.json'))['mcpServers']).toMatchObject({
      remem: plain,
    });
    expect(readJson(join(home, '.gemini', 'settings.json'))).toMatchObject({
      theme: 'Dracula',
      mcpServers: { remem: plain },
    });
    expect(readJson(join(home, '.config', 'Claude', 'claude_desktop_config.json'))).toEqual({
      mcpServers: { remem: plain },
    });
  });

  it('keeps each file’s indentation, line endings, final newline and mode, and backs the original up', () => {
    const { env, options } = buildHome(tempDir());
    const home = env.userHome;
    const originals = fixtureFiles(home);
    applySetup(planSetup(env, options), new RecordingRunner());

    expect(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')).toMatch(/^\{\n {4}"permissions"/);
    expect(readFileSync(join(home, '.cursor', 'mcp.json'), 'utf8')).toMatch(
      /^\{\n\t"mcpServers": \{\n\t\t"linear"/,
    );
    const windsurf = readFileSync(join(home, '.codeium', 'windsurf', 'mcp_config.json'), 'utf8');
    expect(windsurf).not.toContain('\n');
    const gemini = readFileSync(join(home, '.gemini', 'settings.json'), 'utf8');
    expect(gemini.endsWith('}\r\n')).toBe(true);
    expect(gemini.replace(/\r\n/g, '')).not.toContain('\n');
    expect(statSync(join(home, '.claude.json')).mode & 0o777).toBe(0o600);
    for (const [path, text] of Object.entries(originals)) {
      expect(readFileSync(`${path}.remem-backup`, 'utf8')).toBe(text);
    }
  });

  it('changes nothing when run a second time', () => {
    const { env, options } = buildHome(tempDir());
    const runner = new RecordingRunner();
    applySetup(planSetup(env, options), runner);
    const after = snapshot(env.userHome);
    const again = planSetup(env, options);
    expect(again.changes).toEqual([]);
    expect(again.schedule).toEqual([]);
    expect(again.agents.filter((agent) => agent.installed).map((agent) => agent.status)).toEqual(
      Array(7).fill('wired'),
    );
    applySetup(again, runner);
    expect(snapshot(env.userHome)).toEqual(after);
  });

  it('--remove leaves every file that existed byte-identical and deletes the files it created', () => {
    const { env, options } = buildHome(tempDir());
    const before = snapshot(env.userHome);
    const runner = new RecordingRunner();
    applySetup(planSetup(env, options), runner);
    expect(existsSync(join(env.codexHome, 'hooks.json'))).toBe(true);

    const removal = planSetup(env, { ...options, remove: true });
    expect(removal.changes.map((change) => change.after === null)).toContain(true);
    applySetup(removal, runner);
    expect(snapshot(env.userHome, ['.remem', '.config/systemd'])).toEqual(before);
    expect(existsSync(join(env.rememHome, 'setup.json'))).toBe(false);
    expect(runner.crontab).toBeNull();
    expect(planSetup(env, { ...options, remove: true }).changes).toEqual([]);
  });

  it('--remove without the manifest still finds what setup wrote, and restores the originals', () => {
    const { env, options } = buildHome(tempDir());
    const before = snapshot(env.userHome);
    applySetup(
      planSetup(env, { ...options, agents: ['claude-code', 'cursor', 'codex'] }),
      new RecordingRunner(),
    );
    rmSync(join(env.rememHome, 'setup.json'));
    applySetup(
      planSetup(env, { ...options, remove: true, agents: ['claude-code', 'cursor', 'codex'] }),
      new RecordingRunner(),
    );
    expect(snapshot(env.userHome, ['.remem'])).toEqual(before);
  });

  it('--remove takes out only what it added when the user changed the file meanwhile', () => {
    const { env, options } = buildHome(tempDir());
    const cursor = join(env.userHome, '.cursor', 'mcp.json');
    applySetup(planSetup(env, { ...options, agents: ['cursor'] }), new RecordingRunner());
    const edited = readJson(cursor);
    (edited['mcpServers'] as Record<string, unknown>)['notion'] = { command: 'notion-mcp' };
    writeFileSync(cursor, `${JSON.stringify(edited, null, '\t')}\n`);

    const removal = planSetup(env, { ...options, agents: ['cursor'], remove: true });
    applySetup(removal, new RecordingRunner());
    expect(readJson(cursor)).toEqual({
      mcpServers: { linear: { url: 'https://mcp.linear.app/sse' }, notion: { command: 'notion-mcp' } },
    });
    expect(readFileSync(cursor, 'utf8')).toMatch(/^\{\n\t"mcpServers"/);
    expect(existsSync(`${cursor}.remem-backup`)).toBe(true);
    expect(removal.notes.join('\n')).toContain('kept');
  });

  it('--dry-run writes nothing and prints the unified diff of every file', () => {
    const { env, options } = buildHome(tempDir());
    const before = snapshot(env.userHome);
    const plan = planSetup(env, options);
    const text = formatPlan(plan, { dryRun: true });
    expect(snapshot(env.userHome)).toEqual(before);
    for (const change of plan.changes) {
      expect(text).toContain(`+++ ${change.after === null ? '/dev/null' : change.path}`);
    }
    expect(text).toContain('--- /dev/null');
    expect(text).toContain(`+            "command": "${prime}",`);
    expect(text).toMatch(/claude-code\s+would wire: ~\/\.claude\.json, ~\/\.claude\/settings\.json/);
    expect(text).toContain('systemctl --user daemon-reload && systemctl --user enable --now remem.timer');
    expect(text.trimEnd().endsWith('Dry run: nothing was written.')).toBe(true);
  });

  it('refuses a malformed JSON settings file, naming it, and writes nothing', () => {
    const { env, options } = buildHome(tempDir());
    const gemini = join(env.userHome, '.gemini', 'settings.json');
    writeFileSync(gemini, '{ "theme": "Dracula", ');
    const before = snapshot(env.userHome);
    expect(() => planSetup(env, options)).toThrow(
      new RegExp(`${gemini.replace(/[.]/g, '\\.')} is not valid JSON`),
    );
    expect(snapshot(env.userHome)).toEqual(before);
  });

  it('refuses a settings file whose hooks are not in the expected shape', () => {
    const { env, options } = buildHome(tempDir());
    writeFileSync(join(env.claudeDir, 'settings.json'), '{"hooks": {"Stop": "remem prime"}}\n');
    expect(() => planSetup(env, options)).toThrow(/"hooks\.Stop" is not an array/);
  });

  it('--agent limits setup to the named agents and leaves the schedule alone', () => {
    const { env, options } = buildHome(tempDir());
    const plan = planSetup(env, { ...options, agents: ['cursor', 'gemini-cli'] });
    expect(new Set(plan.changes.map((change) => change.agent))).toEqual(new Set(['cursor', 'gemini']));
    expect(plan.schedule).toEqual([]);
    expect(plan.agents.map((agent) => agent.agent)).toEqual(['cursor', 'gemini']);
    expect(() => planSetup(env, { ...options, agents: ['vim'] })).toThrow(/unknown agent "vim"/);
  });

  it('wires Cline and Roo Code where they keep their MCP servers, beside the servers there, and --remove takes it out', () => {
    const { env, options } = buildHome(tempDir());
    const cline = join(env.vscodeDir, 'globalStorage', 'saoudrizwan.claude-dev');
    const roo = join(env.vscodeDir, 'globalStorage', 'rooveterinaryinc.roo-cline');
    mkdirSync(join(cline, 'settings'), { recursive: true });
    mkdirSync(roo, { recursive: true });
    const clineFile = join(cline, 'settings', 'cline_mcp_settings.json');
    const theirs = {
      mcpServers: { github: { command: 'gh-mcp', args: ['serve'], disabled: false, autoApprove: [] } },
    };
    writeFileSync(clineFile, JSON.stringify(theirs, null, 2));
    const plan = planSetup(env, { ...options, agents: ['cline', 'roo', 'kilo'] });
    expect(plan.agents.find((agent) => agent.agent === 'kilo-code')).toMatchObject({ installed: false });
    applySetup(plan, new RecordingRunner());
    expect(readJson(clineFile)['mcpServers']).toEqual({
      ...theirs.mcpServers,
      remem: { command: BINARY, args: ['mcp'] },
    });
    expect(readJson(join(roo, 'settings', 'mcp_settings.json'))['mcpServers']).toEqual({
      remem: { command: BINARY, args: ['mcp'] },
    });
    applySetup(
      planSetup(env, { ...options, agents: ['cline', 'roo-code'], remove: true }),
      new RecordingRunner(),
    );
    expect(JSON.parse(readFileSync(clineFile, 'utf8'))).toEqual(theirs);
    expect(existsSync(join(roo, 'settings', 'mcp_settings.json'))).toBe(false);
  });

  it('skips agents that are not installed', () => {
    const { env, options } = buildHome(tempDir());
    rmSync(join(env.userHome, '.codeium'), { recursive: true });
    const plan = planSetup(env, options);
    expect(plan.agents.find((agent) => agent.agent === 'windsurf')).toMatchObject({
      installed: false,
      status: 'not installed',
    });
    expect(plan.changes.some((change) => change.agent === 'windsurf')).toBe(false);
    expect(formatPlan(plan, { dryRun: true })).toMatch(
      /windsurf\s+not installed \(~\/\.codeium\/windsurf\/ not found\)/,
    );
  });

  it('--http wires http handlers, and switching back replaces them in place', () => {
    const { env, options } = buildHome(tempDir());
    const before = snapshot(env.userHome);
    const http = { port: 7777, token: 'tok-123' };
    const agents = ['claude-code', 'codex'];
    applySetup(planSetup(env, { ...options, agents, http }), new RecordingRunner());
    const handler = {
      type: 'http',
      url: 'http://127.0.0.1:7777/hooks/prime',
      headers: { Authorization: 'Bearer tok-123' },
      timeout: 10,
    };
    const claudeHooks = readJson(join(env.claudeDir, 'settings.json'))['hooks'] as Record<string, unknown[]>;
    expect(claudeHooks['UserPromptSubmit']).toEqual([{ hooks: [handler] }]);
    expect(claudeHooks['Stop']).toHaveLength(2);
    const codexHooks = readJson(join(env.codexHome, 'hooks.json'))['hooks'] as Record<string, unknown[]>;
    expect(codexHooks['Stop']).toEqual([{ hooks: [handler] }]);
    expect(statSync(join(env.codexHome, 'hooks.json')).mode & 0o777).toBe(0o600);
    expect(planSetup(env, { ...options, agents, http }).changes).toEqual([]);

    applySetup(planSetup(env, { ...options, agents }), new RecordingRunner());
    const switched = readJson(join(env.claudeDir, 'settings.json'))['hooks'] as Record<string, unknown[]>;
    expect(switched['Stop']).toEqual([
      ...claudeSettings.hooks.Stop,
      { hooks: [{ type: 'command', command: prime, timeout: 10 }] },
    ]);

    applySetup(planSetup(env, { ...options, agents, remove: true }), new RecordingRunner());
    expect(snapshot(env.userHome, ['.remem'])).toEqual(before);
  });
});

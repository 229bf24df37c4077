import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { CommandRunner, RunResult, SetupEnv, SetupOptions } from '../../src/setup/index.ts';

export const BINARY = '/opt/remem/bin/remem';

export const claudeJson = {
  numStartups: 41,
  oauthAccount: { accountUuid: 'b5b1c7a4', emailAddress: 'me@example.com' },
  mcpServers: { github: { type: 'stdio', command: 'gh-mcp', args: ['serve'], env: {} } },
  projects: { '/work/app': { allowedTools: [], mcpServers: {} } },
};

export const claudeSettings = {
  permissions: { allow: ['Bash(npm test:*)'] },
  hooks: {
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send "done"' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '~/bin/guard.sh', timeout: 3 }] }],
  },
  model: 'opus',
};

export const codexToml = [
  '# my Codex settings',
  'model = "gpt-5"',
  'approval_policy = "on-request"',
  '',
  '[mcp_servers.github]',
  'command = "gh-mcp"',
  'args = ["serve"]  # the GitHub server',
  '',
  '[profiles.fast]',
  'model = "gpt-5-mini"',
  '',
].join('\n');

/** Each agent's files, written in a different style: 2 spaces, 4 spaces, tabs, one line, CRLF. */
export function fixtureFiles(home: string): Record<string, string> {
  return {
    [join(home, '.claude.json')]: `${JSON.stringify(claudeJson, null, 2)}\n`,
    [join(home, '.claude', 'settings.json')]: `${JSON.stringify(claudeSettings, null, 4)}\n`,
    [join(home, '.codex', 'config.toml')]: codexToml,
    [join(home, '.cursor', 'mcp.json')]:
      `${JSON.stringify({ mcpServers: { linear: { url: 'https://mcp.linear.app/sse' } } }, null, '\t')}\n`,
    [join(home, '.codeium', 'windsurf', 'mcp_config.json')]:
      '{"mcpServers":{"x":{"command":"x","disabled":true}}}',
    [join(home, '.gemini', 'settings.json')]:
      `${JSON.stringify({ theme: 'Dracula', general: { vimMode: true } }, null, 2).replace(/\n/g, '\r\n')}\r\n`,
  };
}

/** A home folder where every agent is installed; Claude Desktop's folder is there without a config file. */
export function buildHome(root: string): { env: SetupEnv; options: SetupOptions } {
  const home = join(root, 'home');
  for (const [path, text] of Object.entries(fixtureFiles(home))) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  chmodSync(join(home, '.claude.json'), 0o600);
  mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
  const env: SetupEnv = {
    userHome: home,
    claudeDir: join(home, '.claude'),
    codexHome: join(home, '.codex'),
    vscodeDir: join(home, '.config', 'Code', 'User'),
    platform: 'linux',
    rememHome: join(home, '.remem'),
  };
  return { env, options: { binary: BINARY, home: env.rememHome } };
}

/** Every file under a folder (symlinks as their target), skipping the named subfolders. */
export function snapshot(root: string, skip: string[] = []): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const key = relative(root, path);
      if (skip.includes(key)) continue;
      const stat = lstatSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isSymbolicLink()) files[key] = `-> ${readlinkSync(path)}`;
      else files[key] = readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return files;
}

export function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/** Answers crontab, systemctl and launchctl like the real ones would, keeping the crontab in memory. */
export class RecordingRunner implements CommandRunner {
  calls: string[] = [];
  crontab: string | null = null;
  systemctlWorks: boolean;

  constructor(options: { systemctlWorks?: boolean; crontab?: string | null } = {}) {
    this.systemctlWorks = options.systemctlWorks ?? false;
    this.crontab = options.crontab ?? null;
  }

  run(cmd: string, args: string[], input?: string): RunResult {
    this.calls.push([cmd, ...args].join(' '));
    const ok = { code: 0, stdout: '', stderr: '' };
    if (cmd === 'crontab' && args[0] === '-l') {
      return this.crontab === null
        ? { code: 1, stdout: '', stderr: 'no crontab for tester\n' }
        : { ...ok, stdout: this.crontab };
    }
    if (cmd === 'crontab' && args[0] === '-') {
      this.crontab = input ?? '';
      return ok;
    }
    if (cmd === 'crontab' && args[0] === '-r') {
      this.crontab = null;
      return ok;
    }
    if (cmd === 'systemctl') {
      return this.systemctlWorks
        ? ok
        : { code: 1, stdout: '', stderr: 'Failed to connect to bus: No medium found\n' };
    }
    if (cmd === 'launchctl') return ok;
    return { code: 127, stdout: '', stderr: `spawnSync ${cmd} ENOENT` };
  }
}

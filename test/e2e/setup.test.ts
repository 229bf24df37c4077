import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';

const tempDir = useTempDirs();

function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && statSync(path).isFile()) files[relative(root, path)] = readFileSync(path, 'utf8');
  }
  return files;
}

describe('remem setup through the binary', () => {
  it('wires Claude Code and Cursor, changes nothing the second time, and --remove restores every byte', () => {
    const home = tempDir();
    const user = join(home, 'user');
    mkdirSync(join(user, '.claude'), { recursive: true });
    mkdirSync(join(user, '.cursor'), { recursive: true });
    writeFileSync(join(user, '.claude', 'settings.json'), '{\n    "model": "opus",\n    "hooks": {}\n}\n');
    writeFileSync(
      join(user, '.claude.json'),
      '{"oauthAccount":{"email":"a@b.c"},"mcpServers":{"other":{"command":"x"}}}',
    );
    const before = snapshot(user);
    const agents = ['--agent', 'claude-code', '--agent', 'cursor'];

    const dry = remem(['setup', '--dry-run', ...agents], { home });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('UserPromptSubmit');
    expect(snapshot(user)).toEqual(before);

    const wired = remem(['setup', ...agents], { home });
    expect(wired.code, wired.stderr).toBe(0);
    // The holdout is said, with why and how to set it.
    expect(wired.stdout).toContain('50% of sessions get no lessons, chosen at random');
    expect(wired.stdout).toContain('REMEM_HOLDOUT=0');
    const settings = JSON.parse(readFileSync(join(user, '.claude', 'settings.json'), 'utf8'));
    expect(settings.model).toBe('opus');
    for (const event of ['UserPromptSubmit', 'Stop', 'PreToolUse', 'SessionEnd']) {
      expect(JSON.stringify(settings.hooks[event])).toContain(' prime');
    }
    const claudeJson = JSON.parse(readFileSync(join(user, '.claude.json'), 'utf8'));
    expect(claudeJson.oauthAccount.email).toBe('a@b.c');
    expect(claudeJson.mcpServers.other.command).toBe('x');
    expect(claudeJson.mcpServers.remem.args).toContain('mcp');
    const cursor = JSON.parse(readFileSync(join(user, '.cursor', 'mcp.json'), 'utf8'));
    expect(cursor.mcpServers.remem.args).toContain('mcp');

    const wiredOnce = snapshot(user);
    expect(remem(['setup', ...agents], { home }).code).toBe(0);
    expect(snapshot(user)).toEqual(wiredOnce);

    const removed = remem(['setup', '--remove', ...agents], { home });
    expect(removed.code, removed.stderr).toBe(0);
    expect(snapshot(user)).toEqual(before);
  });
});

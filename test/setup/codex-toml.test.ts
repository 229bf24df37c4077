import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applySetup, planSetup } from '../../src/setup/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { BINARY, buildHome, codexToml, RecordingRunner, snapshot } from './fixtures.ts';

const tempDir = useTempDirs();
const codex = { agents: ['codex'] };

describe('Codex config.toml', () => {
  it('appends one delimited table, never touching the rest, and takes exactly it out', () => {
    const { env, options } = buildHome(tempDir());
    const path = join(env.codexHome, 'config.toml');
    applySetup(planSetup(env, { ...options, ...codex }), new RecordingRunner());
    const text = readFileSync(path, 'utf8');
    expect(text.slice(0, codexToml.length)).toBe(codexToml);
    expect(text.slice(codexToml.length)).toBe(
      [
        '',
        '# >>> remem: written by `remem setup`; `remem setup --remove` takes it out',
        '[mcp_servers.remem]',
        `command = "${BINARY}"`,
        'args = ["mcp"]',
        '# <<< remem',
        '',
      ].join('\n'),
    );
    applySetup(planSetup(env, { ...options, ...codex, remove: true }), new RecordingRunner());
    expect(readFileSync(path, 'utf8')).toBe(codexToml);
  });

  it('restores a file without a final newline, and one with CRLF line ends, byte for byte', () => {
    for (const original of ['model = "o3"', 'model = "o3"\r\n\r\n[tui]\r\nnotifications = true\r\n']) {
      const { env, options } = buildHome(tempDir());
      const path = join(env.codexHome, 'config.toml');
      writeFileSync(path, original);
      applySetup(planSetup(env, { ...options, ...codex }), new RecordingRunner());
      const wired = readFileSync(path, 'utf8');
      if (original.includes('\r\n')) expect(wired.replace(/\r\n/g, '')).not.toContain('\n');
      expect(planSetup(env, { ...options, ...codex }).changes).toEqual([]);
      applySetup(planSetup(env, { ...options, ...codex, remove: true }), new RecordingRunner());
      expect(readFileSync(path, 'utf8')).toBe(original);
    }
  });

  it('keeps tables the user added after remem’s when taking remem’s out', () => {
    const { env, options } = buildHome(tempDir());
    const path = join(env.codexHome, 'config.toml');
    applySetup(planSetup(env, { ...options, ...codex }), new RecordingRunner());
    writeFileSync(path, `${readFileSync(path, 'utf8')}\n[mcp_servers.later]\ncommand = "later"\n`);
    applySetup(planSetup(env, { ...options, ...codex, remove: true }), new RecordingRunner());
    expect(readFileSync(path, 'utf8')).toBe(`${codexToml}\n[mcp_servers.later]\ncommand = "later"\n`);
  });

  it.each([
    ['a table', '[mcp_servers.remem]\ncommand = "remem"\n'],
    ['a quoted table name', '[mcp_servers."remem"]\ncommand = "remem"\n'],
    ['an env sub-table', '[mcp_servers.remem.env]\nREMEM_HOME = "/x"\n'],
    ['an inline table', '[mcp_servers]\nremem = { command = "remem", args = ["mcp"] }\n'],
    ['a dotted key', 'mcp_servers.remem.command = "remem"\n'],
  ])('refuses a remem server it did not write (%s) and writes nothing', (_, foreign) => {
    const { env, options } = buildHome(tempDir());
    writeFileSync(join(env.codexHome, 'config.toml'), `${foreign}\n${codexToml}`);
    const before = snapshot(env.userHome);
    expect(() => planSetup(env, options)).toThrow(
      /config\.toml already has an \[mcp_servers\.remem\] table that remem setup did not write/,
    );
    expect(snapshot(env.userHome)).toEqual(before);
  });

  it('does not mistake other servers or commented lines for remem’s', () => {
    const { env, options } = buildHome(tempDir());
    writeFileSync(
      join(env.codexHome, 'config.toml'),
      '# [mcp_servers.remem] was here once\n[mcp_servers.remem_http]\nurl = "http://127.0.0.1:7777/mcp"\n',
    );
    expect(planSetup(env, { ...options, ...codex }).changes).toHaveLength(2);
  });

  it('creates config.toml when Codex has none, and deletes it on removal', () => {
    const { env, options } = buildHome(tempDir());
    const before = snapshot(env.userHome);
    const path = join(env.codexHome, 'config.toml');
    writeFileSync(path, '');
    const empty = snapshot(env.userHome);
    applySetup(planSetup(env, { ...options, ...codex }), new RecordingRunner());
    applySetup(planSetup(env, { ...options, ...codex, remove: true }), new RecordingRunner());
    expect(snapshot(env.userHome, ['.remem'])).toEqual(empty);
    expect(before).not.toEqual(empty);
  });
});

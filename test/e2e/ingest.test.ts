import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem, repoRoot } from '../helpers/remem.ts';

const tempDir = useTempDirs();
const fixtures = join(repoRoot, 'test', 'fixtures');

interface Episode {
  id: number;
  key: string;
  kind: string;
  session: string;
  title: string;
  text: string;
  said?: string;
  agentBefore?: string;
  detail: Record<string, unknown>;
  recordedAt: string;
}

interface Report {
  filesRead: number;
  filesUnchanged: number;
  warningCount: number;
  warnings: { file: string; line?: number; reason: string }[];
  episodesAdded: number;
  eventsStored: number;
}

/** A copy of the fixture transcripts, so a test can grow, damage or delete them. */
function copyFixtures(): { claude: string; codex: string } {
  const root = tempDir('remem-fixtures-');
  cpSync(join(fixtures, 'claude'), join(root, 'claude'), { recursive: true });
  cpSync(join(fixtures, 'codex'), join(root, 'codex'), { recursive: true });
  return { claude: join(root, 'claude'), codex: join(root, 'codex') };
}

function ingest(home: string, args: string[], input?: string): Report {
  const result = remem(['ingest', '--json', ...args], {
    home,
    now: '2026-03-20T04:00:00.000Z',
    ...(input ? { input } : {}),
  });
  expect(result.code, result.stderr).toBe(0);
  return result.json<Report>();
}

function episodes(home: string, args: string[] = []): Episode[] {
  const result = remem(['episodes', '--json', ...args], { home });
  expect(result.code, result.stderr).toBe(0);
  return result.json<{ episodes: Episode[] }>().episodes;
}

const claudeFile = (dirs: { claude: string }, name: string) =>
  join(dirs.claude, 'projects', '-home-dev-shop', name);

describe('remem ingest on Claude Code and Codex transcripts', () => {
  it('finds the surprises: corrections, refusals, errors, the environment, stated surprises, sessions', () => {
    const home = tempDir();
    const dirs = copyFixtures();
    const report = ingest(home, ['--claude', dirs.claude, '--codex', dirs.codex]);
    expect(report.filesRead).toBe(7);
    const all = episodes(home);
    const kinds = new Set(all.map((episode) => episode.kind));
    for (const kind of ['session', 'error', 'environment', 'correction', 'surprise'])
      expect(kinds).toContain(kind);
    // The person's words are kept verbatim, curly apostrophe and all, with the agent sentence they answered.
    const curly = all.find((episode) => episode.said?.startsWith('that’s not what I asked'));
    expect(curly?.kind).toBe('correction');
    expect(curly?.agentBefore).toMatch(/missing SKUs/);
    // A refused tool call is a correction; the typed reason is the person's words.
    expect(
      all.filter((episode) => episode.kind === 'correction' && episode.detail['refusedTool']).length,
    ).toBeGreaterThan(0);
    // A failure that was the machine's is an environment episode, never an error.
    const redis = all.find((episode) => episode.text.includes('redis-cli: command not found'));
    expect(redis?.kind).toBe('environment');
    // A correction in the middle of a long message.
    expect(
      all.some((episode) => episode.kind === 'correction' && episode.said?.startsWith('ok, a few things.')),
    ).toBe(true);
    // Codex: the duplicated visible turns count once, injected context is never a prompt.
    const codexSessions = all.filter(
      (episode) => episode.kind === 'session' && episode.session.startsWith('0195'),
    );
    for (const session of codexSessions) expect(session.title).not.toMatch(/AGENTS\.md|environment_context/);
  });

  it('is idempotent: a second run reads nothing and changes nothing', () => {
    const home = tempDir();
    const dirs = copyFixtures();
    ingest(home, ['--claude', dirs.claude, '--codex', dirs.codex]);
    const before = episodes(home);
    const again = ingest(home, ['--claude', dirs.claude, '--codex', dirs.codex]);
    expect(again.filesRead).toBe(0);
    expect(again.filesUnchanged).toBe(7);
    expect(episodes(home)).toEqual(before);
  });

  it('--from-raw rebuilds the same episodes from the archive alone, even with the transcripts gone', () => {
    const home = tempDir();
    const dirs = copyFixtures();
    ingest(home, ['--claude', dirs.claude, '--codex', dirs.codex]);
    const before = episodes(home);
    rmSync(dirs.claude, { recursive: true });
    rmSync(dirs.codex, { recursive: true });
    const rebuilt = ingest(home, ['--from-raw']);
    expect(rebuilt.filesRead).toBe(7);
    expect(episodes(home)).toEqual(before);
  });

  it('reads a grown transcript from where it stopped and picks up a truncated last line once complete', () => {
    const home = tempDir();
    const dirs = copyFixtures();
    const file = claudeFile(dirs, '5c8e1f3a-7b2d-4a9e-b6c4-0e3f9d8a1c25.jsonl');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const last = lines.pop()!;
    writeFileSync(file, `${lines.join('\n')}\n${last.slice(0, 40)}`); // the agent is still writing
    ingest(home, ['--claude', dirs.claude]);
    const partial = episodes(home).length;
    writeFileSync(file, `${lines.join('\n')}\n${last}\n`);
    const grown = ingest(home, ['--claude', dirs.claude]);
    expect(grown.filesRead).toBe(1);
    expect(grown.warningCount).toBe(0);
    const fresh = tempDir();
    ingest(fresh, ['--claude', dirs.claude]);
    // Reading in two steps gives what one read of the whole file gives.
    expect(episodes(home).map((episode) => episode.key)).toEqual(
      episodes(fresh).map((episode) => episode.key),
    );
    expect(episodes(home).length).toBeGreaterThanOrEqual(partial);
  });

  it('skips bad lines with a counted warning naming file and line, and keeps the good ones beside them', () => {
    const home = tempDir();
    const dirs = copyFixtures();
    const file = claudeFile(dirs, 'b7e2d4f0-1a3c-4e5b-8f6a-2d9c0e1b3a47.jsonl');
    const good = readFileSync(file, 'utf8').trimEnd().split('\n');
    const garbage = Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x9c, 0x10, 0x0a]).toString('latin1');
    const huge = `{"type":"user","note":"${'x'.repeat(50 * 1024 * 1024)}"`; // 50 MB, never closed
    writeFileSync(
      file,
      [
        good[0],
        '{not json',
        good.slice(1, 4).join('\n'),
        '{"type":"mystery-record","uuid":"u-1"}',
        garbage,
        huge,
        ...good.slice(4),
      ].join('\n') + '\n',
    );
    const report = ingest(home, ['--claude', dirs.claude]);
    expect(report.warningCount).toBeGreaterThanOrEqual(4);
    const reasons = report.warnings.filter((warning) => warning.file === file);
    expect(reasons.map((warning) => warning.line)).toEqual(expect.arrayContaining([2, 6]));
    expect(reasons.some((warning) => /unknown record type/.test(warning.reason))).toBe(true);
    expect(reasons.some((warning) => /binary/.test(warning.reason))).toBe(true);
    // The corrections of that session are all still found.
    const pristine = tempDir();
    const clean = copyFixtures();
    ingest(pristine, ['--claude', clean.claude]);
    const count = (list: Episode[]) => list.filter((episode) => episode.kind === 'correction').length;
    expect(count(episodes(home))).toBe(count(episodes(pristine)));
  });

  it('keeps the episodes of a transcript the agent has since deleted', () => {
    const home = tempDir();
    const dirs = copyFixtures();
    ingest(home, ['--claude', dirs.claude]);
    appendFileSync(claudeFile(dirs, '5c8e1f3a-7b2d-4a9e-b6c4-0e3f9d8a1c25.jsonl'), '\n');
    rmSync(claudeFile(dirs, '3f1c9a52-8d4e-4b7a-9e21-6c0d5a7b2e10.jsonl'));
    const report = ingest(home, ['--claude', dirs.claude]);
    expect(report.warningCount).toBe(0);
    expect(episodes(home).some((episode) => episode.session.startsWith('3f1c9a52'))).toBe(true);
  });
});

describe('events (protocol §0)', () => {
  it('stores an event once, ignores unknown fields, and refuses an invalid one with its line and reason', () => {
    const home = tempDir();
    const lines = [
      JSON.stringify({
        kind: 'correction',
        said: 'no, use the staging db',
        agent: 'a',
        session: 's',
        extra: 1,
      }),
      JSON.stringify({ kind: 'correction', said: 'no, use the staging db', agent: 'a', session: 's' }),
      '{"kind":"bogus"}',
      JSON.stringify({
        kind: 'error',
        title: 'make deploy',
        happened: 'no rule to make target',
        agent: 'a',
        session: 's',
      }),
    ].join('\n');
    const report = ingest(home, ['--events', '-'], `${lines}\n`);
    expect(report.eventsStored).toBe(2);
    expect(report.warningCount).toBe(1);
    expect(report.warnings[0]).toMatchObject({ line: 3 });
    expect(report.warnings[0]!.reason).toMatch(/kind/);
    const again = ingest(home, ['--events', '-'], `${lines}\n`);
    expect(again.eventsStored).toBe(0);
    expect(episodes(home)).toHaveLength(2);
  });

  it('reads REMEM_HOME/inbox.jsonl as it grows', () => {
    const home = tempDir();
    const inbox = join(home, 'inbox.jsonl');
    writeFileSync(inbox, `${JSON.stringify({ kind: 'note', text: 'the build uses node 20' })}\n`);
    // A Claude Code folder with no sessions yet: only the inbox has something to read.
    mkdirSync(join(home, 'claude', 'projects'), { recursive: true });
    expect(ingest(home, ['--claude', join(home, 'claude')]).eventsStored).toBe(1);
    expect(ingest(home, []).eventsStored).toBe(0);
    appendFileSync(
      inbox,
      `${JSON.stringify({ kind: 'surprise', expected: 'a 200', happened: 'a 301 to /login' })}\n`,
    );
    expect(ingest(home, []).eventsStored).toBe(1);
  });
});

describe('remem status and the command line contract', () => {
  it('reports counts by kind, files read, archive size and schema version', () => {
    const home = tempDir();
    const dirs = copyFixtures();
    ingest(home, ['--claude', dirs.claude]);
    const status = remem(['status', '--json'], { home });
    expect(status.code).toBe(0);
    const body = status.json<{
      schemaVersion: number;
      files: number;
      archiveBytes: number;
      episodes: Record<string, number>;
    }>();
    expect(body.schemaVersion).toBeGreaterThan(0);
    expect(body.files).toBe(5);
    expect(body.archiveBytes).toBeGreaterThan(0);
    expect(body.episodes['correction']).toBeGreaterThan(0);
    expect(remem(['status'], { home }).stdout).toMatch(/schema version/);
  });

  it('exits 2 on bad usage and 1 on an explained failure', () => {
    const home = tempDir();
    const bad = remem(['episodes', '--kind', 'nonsense'], { home });
    expect(bad.code).toBe(2);
    expect(remem(['no-such-verb'], { home }).code).toBe(2);
    const missing = remem(['ingest', '--events', join(home, 'absent.jsonl')], { home });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  });
});

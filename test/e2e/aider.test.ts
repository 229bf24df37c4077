/**
 * Aider's chat histories read where aider keeps them, in each project's folder: the person's corrections and the
 * model's failed edits become episodes of that project; reads are incremental and archived, `--from-raw` rebuilds
 * them, the histories are found under a folder of projects or from REMEM_AIDER, and a path that is not a history
 * is refused with the reason.
 */
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { agentsAndProjects, correctionsSaid, digest, episodesOf, ingest, READ_NOW } from './readers.ts';
import { gist } from './sessions.ts';

const tempDir = useTempDirs();

/** A line aider writes itself (the person's input, its own messages): with a Markdown line break. */
const own = (line: string) => `${line}  `;

/** A run of aider as it appends it to `.aider.chat.history.md` (aider/io.py). */
function run(started: string, lines: string[]): string {
  return ['', `# aider chat started at ${started}`, '', own('> Aider v0.86.1'), ...lines, ''].join('\n');
}

const FIRST = run('2026-11-01 10:00:00', [
  '',
  own('#### add a retry to the fetch in the client'),
  '',
  "I'll wrap the request in a loop of three attempts.",
  '',
  '```typescript',
  '<<<<<<< SEARCH',
  'export async function get(url: string) {',
  '=======',
  'export async function get(url: string, attempts = 3) {',
  '>>>>>>> REPLACE',
  '```',
  own('> Applied edit to src/client.ts'),
  '',
  own('#### please use p-retry, we already depend on it'),
  '',
  "You're right; switching the loop to p-retry.",
  '',
  own('> The LLM did not conform to the edit format.'),
  own('> # 1 SEARCH/REPLACE block failed to match!'),
  own('> ## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in src/client.ts'),
  '',
  'The loop was already gone; the edit now applies to the current file.',
  '',
  own('> Applied edit to src/client.ts'),
]);

const SECOND = run('2026-11-01 14:00:00', [
  '',
  own('#### store the created time on each order'),
  '',
  'Done: `createdAt` is set from `new Date().toLocaleString()`.',
  '',
  own('> Applied edit to src/orders.ts'),
  '',
  own('#### always store timestamps in UTC'),
  '',
  "Understood: I'll store `createdAt` as an ISO string in UTC.",
]);

function project(root: string, name: string, history: string): string {
  const folder = join(root, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, '.aider.chat.history.md'), history);
  return folder;
}

describe('aider chat histories', () => {
  it('give the person’s corrections and the model’s failed edit as episodes of the project', () => {
    const home = tempDir();
    const shop = project(tempDir('remem-aider-'), 'shop', FIRST + SECOND);
    const history = join(shop, '.aider.chat.history.md');
    const before = digest(history);
    const report = ingest(home, ['--aider', history]);
    expect(report.warningCount).toBe(0);
    expect(report.filesRead).toBe(2);
    const episodes = episodesOf(home);
    expect(correctionsSaid(episodes)).toEqual([
      'always store timestamps in UTC',
      'please use p-retry, we already depend on it',
    ]);
    const failed = episodes.find((episode) => episode.kind === 'error');
    expect(failed?.title).toBe('aider edit: edit src/client.ts');
    expect(failed?.text).toBe('The LLM did not conform to the edit format.');
    expect(agentsAndProjects(episodes)).toEqual(new Set([`aider ${shop}`]));
    expect(new Set(episodes.map((episode) => episode.session)).size).toBe(2);
    // Aider's file is only read.
    expect(digest(history)).toBe(before);
  });

  it('are read again only where they grew, and --from-raw rebuilds the same episodes', () => {
    const home = tempDir();
    const shop = project(tempDir('remem-aider-'), 'shop', FIRST);
    const history = join(shop, '.aider.chat.history.md');
    expect(ingest(home, ['--aider', shop]).filesRead).toBe(1);
    const again = ingest(home, ['--aider', shop]);
    expect([again.filesRead, again.filesUnchanged]).toEqual([0, 1]);
    appendFileSync(history, SECOND);
    const grown = ingest(home, ['--aider', shop]);
    expect([grown.filesRead, grown.filesUnchanged, grown.filesRestarted]).toEqual([1, 1, 0]);
    appendFileSync(
      history,
      ['', own('#### never use toLocaleString for stored dates'), '', 'Noted.', ''].join('\n'),
    );
    const appended = ingest(home, ['--aider', shop]);
    expect([appended.filesRead, appended.filesRestarted]).toEqual([1, 0]);
    const episodes = episodesOf(home);
    expect(correctionsSaid(episodes)).toContain('never use toLocaleString for stored dates');
    // The archive alone: the history itself is gone.
    rmSync(history);
    const fromRaw = remem(['ingest', '--from-raw', '--json'], { home, now: READ_NOW });
    expect(fromRaw.code, fromRaw.stderr).toBe(0);
    expect(gist(episodesOf(home))).toEqual(gist(episodes));
  });

  it('are found under a folder of projects, or from REMEM_AIDER with no flag', () => {
    const root = tempDir('remem-aider-');
    project(root, 'shop', FIRST);
    project(root, 'blog', SECOND);
    project(join(root, 'shop', 'node_modules'), 'dep', SECOND);
    const named = tempDir();
    expect(ingest(named, ['--aider', root]).filesRead).toBe(2);
    const bare = tempDir();
    const report = ingest(bare, [], {
      REMEM_AIDER: join(root, 'blog'),
      CLAUDE_CONFIG_DIR: join(root, 'none'),
      CODEX_HOME: join(root, 'none'),
    });
    expect(report.filesRead).toBe(1);
    expect(correctionsSaid(episodesOf(bare))).toEqual(['always store timestamps in UTC']);
    const configured = tempDir();
    writeFileSync(join(configured, 'config.json'), JSON.stringify({ aider: [join(root, 'shop')] }));
    const fromConfig = ingest(configured, [], {
      CLAUDE_CONFIG_DIR: join(root, 'none'),
      CODEX_HOME: join(root, 'none'),
    });
    expect(fromConfig.filesRead).toBe(1);
    expect(correctionsSaid(episodesOf(configured))).toEqual(['please use p-retry, we already depend on it']);
  });

  it('refuse a path that is not a history, and warn of one that holds no prompt while reading the rest', () => {
    const home = tempDir();
    const root = tempDir('remem-aider-');
    const missing = remem(['ingest', '--aider', join(root, 'nowhere')], { home, now: READ_NOW });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/--aider .*nowhere: no such file or folder/);
    const notes = join(root, 'NOTES.md');
    writeFileSync(notes, '#### not a chat\n');
    const refused = remem(['ingest', '--aider', notes], { home, now: READ_NOW });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/not an aider chat history/);
    project(root, 'empty', run('2026-11-01 09:00:00', [own('> Aider v0.86.1')]));
    project(root, 'shop', SECOND);
    const report = ingest(home, ['--aider', root]);
    expect(report.filesRead).toBe(1);
    expect(report.warnings).toEqual([
      { file: join(root, 'empty', '.aider.chat.history.md'), reason: 'not read: no aider prompt in it' },
    ]);
    expect(correctionsSaid(episodesOf(home))).toEqual(['always store timestamps in UTC']);
  });
});

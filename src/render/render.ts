import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Config, Lesson } from '../core/index.ts';
import { episodeProjects, type Store } from '../store/index.ts';
import { forget, hashesOf, sessionStart, showToAgent, startBudget, type Visible } from '../truth/index.ts';
import { autoMemoryDirectory, claudeMemoryFolder } from './claude-folder.ts';
import { lessonTitle, visibleLines } from './formats.ts';
import { BEGIN, END, withBlock, withoutBlock } from './managed-block.ts';

/** What Claude Code loads of MEMORY.md at session start. */
const INDEX_LINES = 200;
const INDEX_BYTES = 25 * 1024;
/** AGENTS.md files are joined and cut at 32 KiB; the block keeps well inside. */
const AGENTS_BYTES = 8 * 1024;

export interface RenderTarget {
  folder: string;
  project: string | null;
  files: number;
  indexLines: number;
}

export interface RenderReport {
  targets: RenderTarget[];
  agentsFile: string | null;
  vetoed: { hash: string; file: string }[];
}

interface Manifest {
  /** Every lesson file written, by path, with its lesson's hash. */
  files: Record<string, string>;
  /**
   * Every file Remem put a managed block into, by path: for which agent, whether Remem created the file, and
   * the separator it put before the block, so that taking the block out gives the file back byte for byte.
   */
  blocks?: Record<string, { agent: RenderAgent; created: boolean; separator: string }>;
  /** Every memory folder Remem had to create, by path, with the first folder of it that did not exist. */
  folders?: Record<string, string>;
}

/** The agents render writes for: Claude Code's memory folders, Codex's AGENTS.md. */
export type RenderAgent = 'claude-code' | 'codex';

function readManifest(home: string): Manifest {
  const path = join(home, 'render.json');
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  } catch {
    return { files: {} };
  }
}

/** The separator `withBlock` puts before a block it appends to `text`. */
function separatorFor(text: string): string {
  return text === '' ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
}

/** Notes, before a block first goes into `path`, what taking it out must restore. */
function noteBlock(
  manifest: Manifest,
  path: string,
  agent: RenderAgent,
  existing: string,
  had: boolean,
): void {
  if (existing.includes(BEGIN)) return;
  manifest.blocks ??= {};
  const known = manifest.blocks[path];
  manifest.blocks[path] = { agent, created: known ? known.created : !had, separator: separatorFor(existing) };
}

function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.remem-${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

function lessonFileName(lesson: Lesson): string {
  return `remem-${lesson.hash.slice(0, 12)}.md`;
}

function lessonFile(lesson: Lesson): string {
  const type = lesson.kind === 'correction' ? 'feedback' : 'project';
  const description = lessonTitle(lesson).replace(/\n/g, ' ');
  return [
    '---',
    `name: ${JSON.stringify(`remem ${lesson.kind} ${lesson.hash.slice(0, 8)}`)}`,
    `description: ${JSON.stringify(description)}`,
    `type: ${type}`,
    '---',
    '',
    lesson.text,
    '',
    `(An observation Remem learned from earlier sessions; seen ${lesson.seen === 1 ? 'once' : `${lesson.seen} times`}. Delete this file to veto it.)`,
    '',
  ].join('\n');
}

/**
 * The index lines that fit: the managed block may use only what MEMORY.md's other lines leave of the
 * first 200 lines and 25 KB, so nothing the agent loads is pushed out of view.
 */
function indexLines(existing: string, entries: string[]): string[] {
  const other = existing.split('\n').length + 3;
  const otherBytes = Buffer.byteLength(existing) + 200;
  const lines: string[] = [];
  let bytes = 0;
  for (const entry of entries) {
    if (
      other + lines.length + 1 > INDEX_LINES ||
      otherBytes + bytes + Buffer.byteLength(entry) + 1 > INDEX_BYTES
    )
      break;
    lines.push(entry);
    bytes += Buffer.byteLength(entry) + 1;
  }
  return lines.length ? ['## Lessons from Remem', ...lines] : [];
}

function writeFolder(
  folder: string,
  visible: readonly Visible[],
  manifest: Manifest,
  written: Set<string>,
): RenderTarget & { shown: Visible[] } {
  const created = mkdirSync(folder, { recursive: true });
  if (created !== undefined) {
    manifest.folders ??= {};
    manifest.folders[folder] = created;
  }
  const entries: string[] = [];
  for (const item of visible) {
    if (item.type === 'question') {
      entries.push(`- ${item.text}`);
      continue;
    }
    const name = lessonFileName(item.lesson);
    const path = join(folder, name);
    const text = lessonFile(item.lesson);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text) writeAtomically(path, text);
    manifest.files[path] = item.lesson.hash;
    written.add(path);
    entries.push(`- [${lessonTitle(item.lesson)}](${name})`);
  }
  const indexPath = join(folder, 'MEMORY.md');
  const existing = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : '';
  const lines = indexLines(withoutBlock(existing), entries);
  if (lines.length) noteBlock(manifest, indexPath, 'claude-code', existing, existsSync(indexPath));
  const next = withBlock(existing, lines);
  if (next !== existing) writeAtomically(indexPath, next);
  return {
    folder,
    project: null,
    files: visible.filter((item) => item.type === 'lesson').length,
    indexLines: lines.length,
    // The heading is a line of its own; each entry after it is one item.
    shown: visible.slice(0, Math.max(0, lines.length - 1)),
  };
}

/**
 * Writes the lessons where each agent loads them at session start: one file per lesson and a managed
 * section of MEMORY.md in each Claude Code project's auto-memory folder (the project's own lessons and the
 * person's), and a managed block of the global AGENTS.md (the person's lessons only: it reaches every
 * project). A lesson file the owner deleted is a veto, recorded and never written again.
 */
export function renderMemory(
  store: Store,
  config: Config,
  options: {
    now: string;
    dir?: string;
    /**
     * The agents the person wired with `remem setup`: only their folders are written (consent). Absent: every
     * agent found (an explicit `--dir` needs none).
     */
    wired?: ReadonlySet<RenderAgent>;
  },
): RenderReport {
  const allowed = (agent: RenderAgent) => options.wired === undefined || options.wired.has(agent);
  const { db } = store;
  const manifest = readManifest(store.home);
  const report: RenderReport = { targets: [], agentsFile: null, vetoed: [] };
  for (const [path, hash] of Object.entries(manifest.files)) {
    if (existsSync(path)) continue;
    if (!existsSync(dirname(path))) {
      // The whole folder went (a project removed, a folder given with --dir cleared): no lesson was refused.
      delete manifest.files[path];
      continue;
    }
    // The owner deleted a file Remem wrote: a veto.
    try {
      forget(store, hash, options.now, `the owner deleted ${basename(path)}`);
    } catch {
      // the lesson is gone already; the tombstone may stand without it
    }
    report.vetoed.push({ hash, file: path });
    delete manifest.files[path];
  }
  const written = new Set<string>();
  const folders: { folder: string; project: string | null }[] = [];
  if (options.dir) {
    folders.push({ folder: options.dir, project: null });
  } else if (allowed('claude-code')) {
    const moved = autoMemoryDirectory(config.claudeDir, config.userHome);
    if (moved) folders.push({ folder: moved, project: null });
    else {
      for (const project of episodeProjects(db)) {
        const folder = claudeMemoryFolder(config.claudeDir, project);
        if (folder) folders.push({ folder, project });
      }
    }
  }
  for (const { folder, project } of folders) {
    const target = showToAgent(
      db,
      { now: options.now, scope: { project }, moment: 'render', session: null },
      (visible) => {
        // What session start loads (`sessionStart`), as far as the index holds it.
        const { shown, ...target } = writeFolder(
          folder,
          sessionStart(visible, startBudget(db, project, config.params.render)),
          manifest,
          written,
        );
        const dropped = visible.length - shown.length;
        return {
          value: target,
          lessonHashes: hashesOf(shown),
          reasons: dropped > 0 ? { over_session_start_budget: dropped } : {},
        };
      },
    );
    target.project = project;
    report.targets.push(target);
  }
  if (existsSync(config.codexHome) && !options.dir && allowed('codex')) {
    const path = join(config.codexHome, 'AGENTS.md');
    const existing = existsSync(path) ? readFileSync(path, 'utf8') : '';
    // The person's lessons only (the file reaches every project), as many as fit the file's budget.
    const lines = showToAgent(
      db,
      { now: options.now, scope: { project: null }, moment: 'render', session: null },
      (personal) => {
        const lines: string[] = [];
        let bytes = 0;
        for (const line of visibleLines(personal)) {
          const entry = `- ${line}`;
          if (bytes + Buffer.byteLength(entry) > AGENTS_BYTES) break;
          lines.push(entry);
          bytes += Buffer.byteLength(entry) + 1;
        }
        const shown = personal.slice(0, lines.length);
        const dropped = personal.length - shown.length;
        return {
          value: lines,
          lessonHashes: hashesOf(shown),
          reasons: dropped > 0 ? { over_agents_file_bytes: dropped } : {},
        };
      },
    );
    const block = lines.length
      ? [
          '## Observations from earlier sessions (Remem; they describe what happened, they are not instructions)',
          ...lines,
        ]
      : [];
    if (block.length) noteBlock(manifest, path, 'codex', existing, existsSync(path));
    const next = withBlock(existing, block);
    if (next !== existing) writeAtomically(path, next);
    report.agentsFile = path;
  }
  // Files of lessons no longer shown are Remem's own to remove (none of an agent it may not write for).
  for (const [path] of allowed('claude-code') || options.dir ? Object.entries(manifest.files) : []) {
    if (written.has(path)) continue;
    rmSync(path, { force: true });
    delete manifest.files[path];
  }
  writeAtomically(join(store.home, 'render.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return report;
}

/**
 * Takes out everything render wrote for `agent`: its lesson files, its managed blocks (each file given back as
 * it was before the block, byte for byte, or removed when Remem created it and nothing else is left), and the
 * memory folders it created, when empty. Returns the paths it changed or removed.
 */
export function removeRendered(home: string, agent: RenderAgent): string[] {
  const manifest = readManifest(home);
  const changed: string[] = [];
  if (agent === 'claude-code') {
    for (const path of Object.keys(manifest.files)) {
      if (existsSync(path)) {
        rmSync(path, { force: true });
        changed.push(path);
      }
      delete manifest.files[path];
    }
  }
  for (const [path, block] of Object.entries(manifest.blocks ?? {})) {
    if (block.agent !== agent) continue;
    delete manifest.blocks![path];
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    const start = text.indexOf(BEGIN);
    const stop = text.indexOf(END);
    if (start === -1 || stop < start) continue;
    let before = text.slice(0, start);
    let after = text.slice(stop + END.length);
    if (after.startsWith('\n')) after = after.slice(1);
    if (block.separator && before.endsWith(block.separator))
      before = before.slice(0, -block.separator.length);
    const restored = before + after;
    if (block.created && restored === '') rmSync(path, { force: true });
    else writeAtomically(path, restored);
    changed.push(path);
  }
  if (agent === 'claude-code') {
    for (const [folder, first] of Object.entries(manifest.folders ?? {})) {
      delete manifest.folders![folder];
      for (let at = folder; at.startsWith(first); at = dirname(at)) {
        if (!existsSync(at) || readdirSync(at).length > 0) break;
        rmdirSync(at);
        changed.push(at);
        if (at === first) break;
      }
    }
  }
  writeAtomically(join(home, 'render.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return changed;
}

import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { RememError } from '../core/index.ts';
import { readManifestText, serializeManifest } from './manifest.ts';
import { isCronMarked } from './schedule.ts';
import type {
  Command,
  CommandRunner,
  FileChange,
  Manifest,
  RunResult,
  ScheduleAction,
  ScheduleOutcome,
  SetupPlan,
  SetupResult,
} from './types.ts';

function readText(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

/**
 * Temp file + rename in the same folder, so a reader never sees half a file. The mode of the file
 * it replaces is kept, and a symlink (a dotfiles checkout) is written through, not replaced.
 */
export function writeAtomic(path: string, text: string, newMode = 0o644): void {
  let target = path;
  let mode = newMode;
  if (existsSync(path)) {
    target = realpathSync(path);
    mode = statSync(target).mode & 0o7777;
  } else {
    const first = mkdirSync(dirname(path), { recursive: true });
    if (first !== undefined) createdFolders.set(path, first);
  }
  const temp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    writeFileSync(temp, text, { mode, flag: 'wx' });
    chmodSync(temp, mode); // the umask may have narrowed it
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

function applyChange(change: FileChange, result: SetupResult): void {
  if (change.backup && change.before !== null && !existsSync(change.backup)) {
    const mode = statSync(change.path).mode & 0o777;
    writeFileSync(change.backup, change.before, { mode, flag: 'wx' });
  }
  if (change.after === null) {
    if (existsSync(change.path)) unlinkSync(change.path);
    result.deleted.push(change.path);
  } else {
    writeAtomic(change.path, change.after, change.mode);
    result.written.push(change.path);
  }
  if (change.dropBackup) rmSync(change.dropBackup, { force: true });
}

/** The first folder this process made for a file it wrote, by the file's path: taken back with the file. */
const createdFolders = new Map<string, string>();

function revertChange(change: FileChange): void {
  if (change.before !== null) {
    writeAtomic(change.path, change.before);
    return;
  }
  rmSync(change.path, { force: true });
  // The folders made for it go too, from the innermost out, while empty: a failed schedule leaves no
  // ~/.config/systemd/user behind.
  const first = createdFolders.get(change.path);
  createdFolders.delete(change.path);
  if (first === undefined) return;
  for (let folder = dirname(change.path); folder.startsWith(first); folder = dirname(folder)) {
    if (readdirSync(folder).length > 0) break;
    rmdirSync(folder);
    if (folder === first) break;
  }
}

function writeManifest(path: string, manifest: Manifest): void {
  const text = serializeManifest(manifest);
  if (text === readManifestText(path)) return;
  if (text === null) rmSync(path, { force: true });
  else writeAtomic(path, text, 0o600);
}

function commandText(command: Command): string {
  return [command.cmd, ...command.args].join(' ');
}

function failure(command: Command, result: RunResult): string {
  const reason = (result.stderr.trim() || result.stdout.trim() || `exit ${result.code}`).split('\n')[0];
  return `${commandText(command)} failed (${reason})`;
}

function editCrontab(action: ScheduleAction, runner: CommandRunner, manifest: Manifest): ScheduleOutcome {
  const base = { scheduler: 'cron' as const, action: action.action };
  const listed = runner.run('crontab', ['-l']);
  const empty = listed.code !== 0 && /no crontab/i.test(listed.stderr);
  if (listed.code !== 0 && !empty) {
    const why = failure({ cmd: 'crontab', args: ['-l'] }, listed);
    if (action.action === 'remove') return { ...base, ok: true, message: `no crontab to edit: ${why}` };
    return { ...base, ok: false, message: why };
  }
  const current = empty ? '' : listed.stdout;
  let next = current
    .split(/(?<=\n)/)
    .filter((line) => !isCronMarked(line.replace(/\r?\n$/, '')))
    .join('');
  if (action.cronLine) {
    if (next !== '' && !next.endsWith('\n')) next += '\n';
    next += `${action.cronLine}\n`;
  }
  const record = manifest.schedule?.scheduler === 'cron' ? manifest.schedule : undefined;
  if (next !== current) {
    const dropCrontab = next === '' && record?.createdCrontab === true;
    const written = dropCrontab ? runner.run('crontab', ['-r']) : runner.run('crontab', ['-'], next);
    if (written.code !== 0) {
      const command = { cmd: 'crontab', args: [dropCrontab ? '-r' : '-'] };
      return { ...base, ok: false, message: failure(command, written) };
    }
  }
  if (action.cronLine) {
    const createdCrontab = empty || record?.createdCrontab === true;
    manifest.schedule = {
      scheduler: 'cron',
      entry: action.cronLine,
      ...(createdCrontab ? { createdCrontab } : {}),
    };
    const message =
      next === current
        ? 'the nightly line is already in the crontab'
        : 'added the nightly line to the crontab';
    return { ...base, ok: true, message };
  }
  if (record) delete manifest.schedule;
  const message =
    next === current ? 'no remem line in the crontab' : 'took the nightly line out of the crontab';
  return { ...base, ok: true, message };
}

function runSchedule(
  action: ScheduleAction,
  runner: CommandRunner,
  manifest: Manifest,
  result: SetupResult,
): ScheduleOutcome {
  const base = { scheduler: action.scheduler, action: action.action };
  for (const command of action.stop) runner.run(command.cmd, command.args);
  if (action.cronLine !== undefined) return editCrontab(action, runner, manifest);
  for (const change of action.files) applyChange(change, result);
  for (const command of action.start) {
    const ran = runner.run(command.cmd, command.args);
    if (ran.code === 0) continue;
    const why = failure(command, ran);
    if (action.action === 'remove') {
      result.warnings.push(why);
      continue;
    }
    if (action.fallback) {
      for (const change of [...action.files].reverse()) revertChange(change);
      const settled = runSchedule(action.fallback, runner, manifest, result);
      return { ...settled, message: `${why}; used cron instead: ${settled.message}` };
    }
    return { ...base, ok: false, message: `${why}; the nightly job is not scheduled` };
  }
  if (action.action === 'install') manifest.schedule = { scheduler: action.scheduler, entry: action.entry };
  else if (manifest.schedule?.scheduler === action.scheduler) delete manifest.schedule;
  return {
    ...base,
    ok: true,
    message:
      action.action === 'install' ? `scheduled: ${action.description}` : `removed ${action.description}`,
  };
}

/**
 * Makes the plan true on disk: every file is checked against what the plan read before anything is
 * written, the manifest is saved first (so a removal always knows what was added), then each file
 * is written atomically, then the nightly job is scheduled through `runner`.
 */
export function applySetup(plan: SetupPlan, runner: CommandRunner): SetupResult {
  const scheduled = plan.schedule.flatMap((action) => action.files);
  for (const change of [...plan.changes, ...scheduled]) {
    if (readText(change.path) !== change.before) {
      throw new RememError(
        'changed_meanwhile',
        `${change.path} changed since setup read it; run remem setup again. Nothing was written.`,
      );
    }
  }
  const manifest: Manifest = structuredClone(plan.manifest);
  const result: SetupResult = { written: [], deleted: [], schedule: [], warnings: [] };
  writeManifest(plan.manifestPath, manifest);
  for (const change of plan.changes) applyChange(change, result);
  for (const action of plan.schedule) {
    result.schedule.push(runSchedule(action, runner, manifest, result));
  }
  writeManifest(plan.manifestPath, manifest);
  return result;
}

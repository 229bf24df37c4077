import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RememError } from '../core/index.ts';
import { shellWord, type Wanted } from './agents.ts';
import {
  type FileChange,
  NIGHTLY,
  type ScheduleAction,
  type ScheduleRecord,
  type Scheduler,
  type SetupEnv,
} from './types.ts';

/** Ends the crontab line setup writes, so removal takes exactly that line. */
export const CRON_MARK = '# remem nightly';
const UNIT_MARK = '# remem nightly: written by `remem setup`; `remem setup --remove` takes it out';
const LABEL = 'com.remem.nightly';

export interface SchedulePaths {
  service: string;
  timer: string;
  plist: string;
}

export function schedulePaths(env: SetupEnv): SchedulePaths {
  const units = join(env.userHome, '.config', 'systemd', 'user');
  return {
    service: join(units, 'remem.service'),
    timer: join(units, 'remem.timer'),
    plist: join(env.userHome, 'Library', 'LaunchAgents', `${LABEL}.plist`),
  };
}

function runArgs(wanted: Wanted): string[] {
  return [wanted.binary, 'run', ...(wanted.customHome ? ['--home', wanted.home] : [])];
}

function logPath(wanted: Wanted): string {
  return join(wanted.home, 'nightly.log');
}

export function cronLine(wanted: Wanted): string {
  // cron turns an unescaped % into a newline.
  const command = `${runArgs(wanted).map(shellWord).join(' ')} >> ${shellWord(logPath(wanted))} 2>&1`;
  return `0 4 * * * ${command.replace(/%/g, '\\%')} ${CRON_MARK}`;
}

export function isCronMarked(line: string): boolean {
  return line.trimEnd().endsWith(CRON_MARK);
}

/** A systemd command line: quoted words, and % doubled because systemd expands specifiers. */
function systemdWord(word: string): string {
  const escaped = word.replace(/%/g, '%%');
  return /^[\w@+=:,./-]+$/.test(escaped) ? escaped : `"${escaped.replace(/(["\\])/g, '\\$1')}"`;
}

export function systemdService(wanted: Wanted): string {
  return [
    UNIT_MARK,
    '[Unit]',
    'Description=Remem nightly job: ingest, sleep, render',
    '',
    '[Service]',
    'Type=oneshot',
    `ExecStart=${runArgs(wanted).map(systemdWord).join(' ')}`,
    '',
  ].join('\n');
}

export function systemdTimer(): string {
  return [
    UNIT_MARK,
    '[Unit]',
    'Description=Run the Remem nightly job at 4 am',
    '',
    '[Timer]',
    'OnCalendar=*-*-* 04:00:00',
    'Persistent=true',
    '',
    '[Install]',
    'WantedBy=timers.target',
    '',
  ].join('\n');
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function launchdPlist(wanted: Wanted): string {
  const args = runArgs(wanted).map((arg) => `    <string>${xml(arg)}</string>`);
  const log = xml(logPath(wanted));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    `<!-- ${UNIT_MARK.slice(2)} -->`,
    '<plist version="1.0">',
    '<dict>',
    `  <key>Label</key><string>${LABEL}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...args,
    '  </array>',
    '  <key>StartCalendarInterval</key>',
    '  <dict><key>Hour</key><integer>4</integer><key>Minute</key><integer>0</integer></dict>',
    `  <key>StandardOutPath</key><string>${log}</string>`,
    `  <key>StandardErrorPath</key><string>${log}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

function read(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

function isOurs(text: string): boolean {
  return text.includes(UNIT_MARK.slice(2));
}

function ownedFile(path: string, after: string | null, description: string): FileChange | null {
  const before = read(path);
  if (before === after) return null;
  if (before !== null && !isOurs(before)) {
    if (after === null) return null;
    throw new RememError(
      'setup_conflict',
      `${path} exists and was not written by remem setup; move it away, then run remem setup again. Nothing was written.`,
    );
  }
  return { path, agent: NIGHTLY, before, after, description, mode: 0o644 };
}

const systemctl = (...args: string[]) => ({ cmd: 'systemctl', args: ['--user', ...args] });

function cronInstall(wanted: Wanted): ScheduleAction {
  const line = cronLine(wanted);
  return {
    scheduler: 'cron',
    action: 'install',
    description: `crontab: ${line}`,
    entry: line,
    stop: [],
    files: [],
    start: [],
    cronLine: line,
  };
}

const cronRemove: ScheduleAction = {
  scheduler: 'cron',
  action: 'remove',
  description: `crontab: take out the line marked "${CRON_MARK}"`,
  entry: CRON_MARK,
  stop: [],
  files: [],
  start: [],
  cronLine: null,
};

function compact<T>(items: (T | null)[]): T[] {
  return items.filter((item): item is T => item !== null);
}

function defaultScheduler(platform: NodeJS.Platform): Scheduler {
  if (platform === 'darwin') return 'launchd';
  return platform === 'linux' ? 'systemd' : 'cron';
}

/** The nightly job at 4 am: launchd on macOS; a systemd user timer on Linux, falling back to cron; else cron. */
export function planScheduleInstall(
  env: SetupEnv,
  wanted: Wanted,
  record: ScheduleRecord | undefined,
): ScheduleAction[] {
  if (env.platform === 'win32') return [];
  const paths = schedulePaths(env);
  const scheduler = record?.scheduler ?? defaultScheduler(env.platform);
  if (scheduler === 'cron') {
    return record?.entry === cronLine(wanted) ? [] : [cronInstall(wanted)];
  }
  if (scheduler === 'systemd') {
    const files = compact([
      ownedFile(paths.service, systemdService(wanted), 'the nightly service'),
      ownedFile(paths.timer, systemdTimer(), 'the 4 am timer'),
    ]);
    if (files.length === 0 && record) return [];
    return [
      {
        scheduler,
        action: 'install',
        description: 'systemd user timer remem.timer, daily at 04:00 (cron if systemctl fails)',
        entry: paths.timer,
        stop: [],
        files,
        start: [systemctl('daemon-reload'), systemctl('enable', '--now', 'remem.timer')],
        fallback: cronInstall(wanted),
      },
    ];
  }
  const plist = ownedFile(paths.plist, launchdPlist(wanted), 'the nightly launch agent');
  if (!plist && record) return [];
  return [
    {
      scheduler,
      action: 'install',
      description: `launchd agent ${LABEL}, daily at 04:00`,
      entry: paths.plist,
      stop: plist?.before ? [{ cmd: 'launchctl', args: ['unload', paths.plist] }] : [],
      files: compact([plist]),
      start: [{ cmd: 'launchctl', args: ['load', paths.plist] }],
    },
  ];
}

/** Takes out what the record says was scheduled; without a record, whatever setup's marks are found on. */
export function planScheduleRemove(env: SetupEnv, record: ScheduleRecord | undefined): ScheduleAction[] {
  const paths = schedulePaths(env);
  const systemd = (): ScheduleAction | null => {
    const files = compact([
      ownedFile(paths.timer, null, 'the 4 am timer'),
      ownedFile(paths.service, null, 'the nightly service'),
    ]);
    if (files.length === 0 && record?.scheduler !== 'systemd') return null;
    return {
      scheduler: 'systemd',
      action: 'remove',
      description: 'systemd user timer remem.timer',
      entry: paths.timer,
      stop: [systemctl('disable', '--now', 'remem.timer')],
      files,
      start: [systemctl('daemon-reload')],
    };
  };
  const launchd = (): ScheduleAction | null => {
    const plist = ownedFile(paths.plist, null, 'the nightly launch agent');
    if (!plist && record?.scheduler !== 'launchd') return null;
    return {
      scheduler: 'launchd',
      action: 'remove',
      description: `launchd agent ${LABEL}`,
      entry: paths.plist,
      stop: [{ cmd: 'launchctl', args: ['unload', paths.plist] }],
      files: compact([plist]),
      start: [],
    };
  };
  if (record?.scheduler === 'cron') return [cronRemove];
  if (record?.scheduler === 'systemd') return compact([systemd()]);
  if (record?.scheduler === 'launchd') return compact([launchd()]);
  return compact([systemd(), launchd(), env.platform === 'win32' ? null : cronRemove]);
}

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applySetup, CRON_MARK, createProcessRunner, planSetup } from '../../src/setup/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { BINARY, buildHome, RecordingRunner } from './fixtures.ts';

const tempDir = useTempDirs();
const nightly = { agents: ['nightly'] };
const userCrontab = 'MAILTO=me@example.com\n# backups\n30 2 * * * /usr/local/bin/backup --quiet\n';

function units(userHome: string) {
  const dir = join(userHome, '.config', 'systemd', 'user');
  return { service: join(dir, 'remem.service'), timer: join(dir, 'remem.timer') };
}

describe('the nightly job', () => {
  it('uses a systemd user timer where systemctl works, once, and --remove takes it out', () => {
    const { env, options } = buildHome(tempDir());
    const runner = new RecordingRunner({ systemctlWorks: true });
    const result = applySetup(planSetup(env, { ...options, ...nightly }), runner);
    const { service, timer } = units(env.userHome);
    expect(readFileSync(service, 'utf8')).toContain(`ExecStart=${BINARY} run\n`);
    expect(readFileSync(timer, 'utf8')).toContain('OnCalendar=*-*-* 04:00:00');
    expect(runner.calls).toEqual([
      'systemctl --user daemon-reload',
      'systemctl --user enable --now remem.timer',
    ]);
    expect(result.schedule).toEqual([expect.objectContaining({ scheduler: 'systemd', ok: true })]);
    expect(runner.crontab).toBeNull();

    expect(planSetup(env, { ...options, ...nightly }).schedule).toEqual([]);

    runner.calls = [];
    applySetup(planSetup(env, { ...options, ...nightly, remove: true }), runner);
    expect(runner.calls).toEqual([
      'systemctl --user disable --now remem.timer',
      'systemctl --user daemon-reload',
    ]);
    expect(existsSync(service) || existsSync(timer)).toBe(false);
    expect(existsSync(join(env.rememHome, 'setup.json'))).toBe(false);
  });

  it('falls back to cron when systemctl fails, says so, and leaves no unit files behind', () => {
    const { env, options } = buildHome(tempDir());
    const runner = new RecordingRunner({ crontab: userCrontab });
    const result = applySetup(planSetup(env, { ...options, ...nightly }), runner);
    expect(result.schedule[0]).toMatchObject({ scheduler: 'cron', ok: true });
    expect(result.schedule[0]?.message).toMatch(
      /systemctl --user daemon-reload failed \(Failed to connect to bus.*used cron/,
    );
    const { service, timer } = units(env.userHome);
    expect(existsSync(service) || existsSync(timer)).toBe(false);
    expect(runner.crontab).toBe(
      `${userCrontab}0 4 * * * ${BINARY} run >> ${join(env.rememHome, 'nightly.log')} 2>&1 ${CRON_MARK}\n`,
    );
  });

  it('adds the cron line once and removes exactly it', () => {
    const { env, options } = buildHome(tempDir());
    const runner = new RecordingRunner({ crontab: userCrontab });
    applySetup(planSetup(env, { ...options, ...nightly }), runner);
    const once = runner.crontab;
    applySetup(planSetup(env, { ...options, ...nightly }), runner);
    expect(runner.crontab).toBe(once);
    expect(runner.crontab?.split('\n').filter((line) => line.endsWith(CRON_MARK))).toHaveLength(1);

    runner.crontab += '15 * * * * /usr/bin/true\n';
    applySetup(planSetup(env, { ...options, ...nightly, remove: true }), runner);
    expect(runner.crontab).toBe(`${userCrontab}15 * * * * /usr/bin/true\n`);
  });

  it('leaves no crontab when there was none before', () => {
    const { env, options } = buildHome(tempDir());
    const runner = new RecordingRunner();
    applySetup(planSetup(env, { ...options, ...nightly }), runner);
    expect(runner.crontab).toContain(CRON_MARK);
    applySetup(planSetup(env, { ...options, ...nightly, remove: true }), runner);
    expect(runner.crontab).toBeNull();
    expect(runner.calls.at(-1)).toBe('crontab -r');
  });

  it('updates the cron line in place when the binary moves', () => {
    const { env, options } = buildHome(tempDir());
    const runner = new RecordingRunner({ crontab: userCrontab });
    applySetup(planSetup(env, { ...options, ...nightly }), runner);
    applySetup(planSetup(env, { ...options, ...nightly, binary: '/usr/local/bin/remem' }), runner);
    expect(runner.crontab).toBe(
      `${userCrontab}0 4 * * * /usr/local/bin/remem run >> ${join(env.rememHome, 'nightly.log')} 2>&1 ${CRON_MARK}\n`,
    );
  });

  it('uses launchd on macOS', () => {
    const { env, options } = buildHome(tempDir());
    const mac = { ...env, platform: 'darwin' as const };
    const runner = new RecordingRunner();
    applySetup(planSetup(mac, { ...options, ...nightly }), runner);
    const plist = join(env.userHome, 'Library', 'LaunchAgents', 'com.remem.nightly.plist');
    const text = readFileSync(plist, 'utf8');
    expect(text).toContain(`<string>${BINARY}</string>\n    <string>run</string>`);
    expect(text).toContain('<key>Hour</key><integer>4</integer>');
    expect(runner.calls).toEqual([`launchctl load ${plist}`]);
    expect(planSetup(mac, { ...options, ...nightly }).schedule).toEqual([]);

    runner.calls = [];
    applySetup(planSetup(mac, { ...options, ...nightly, remove: true }), runner);
    expect(runner.calls).toEqual([`launchctl unload ${plist}`]);
    expect(existsSync(plist)).toBe(false);
  });

  it('schedules nothing on Windows, and says so', () => {
    const { env, options } = buildHome(tempDir());
    const plan = planSetup({ ...env, platform: 'win32' }, { ...options, ...nightly });
    expect(plan.schedule).toEqual([]);
    expect(plan.agents).toEqual([expect.objectContaining({ agent: 'nightly', status: 'unavailable' })]);
  });

  const hasCrontab = spawnSync('sh', ['-c', 'command -v crontab']).status === 0;
  it.skipIf(!hasCrontab)(
    'edits the real crontab and puts it back (runs only where a crontab binary is installed)',
    () => {
      const runner = createProcessRunner();
      const saved = runner.run('crontab', ['-l']);
      const { env, options } = buildHome(tempDir());
      const bsd = { ...env, platform: 'freebsd' as const };
      const binary = join(env.userHome, 'bin', 'remem');
      try {
        applySetup(planSetup(bsd, { ...options, ...nightly, binary }), runner);
        applySetup(planSetup(bsd, { ...options, ...nightly, binary }), runner);
        const listed = runner.run('crontab', ['-l']).stdout.split('\n');
        expect(listed.filter((line) => line.includes(binary))).toHaveLength(1);
        applySetup(planSetup(bsd, { ...options, ...nightly, binary, remove: true }), runner);
        const after = runner.run('crontab', ['-l']);
        expect(after.stdout).toBe(saved.code === 0 ? saved.stdout : '');
      } finally {
        if (saved.code === 0) runner.run('crontab', ['-'], saved.stdout);
        else runner.run('crontab', ['-r']);
      }
    },
  );
});

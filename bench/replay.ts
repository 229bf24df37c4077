/**
 * `npm run bench -- replay [--histories DIR] [--only NAME] [--jobs N] [--params JSON] [--unseen]`: the labelled
 * histories (default ../shared/data/histories) replayed through the built `remem` as the product runs, then
 * sleeping after every session, then with every labelled correction detected (the two ceilings), each beside
 * the keep-everything baselines. The figures are counts, not times; the replay's own time is printed with them.
 *
 * The shipped correction detector was fitted on the histories' labelled turns too. `--unseen` replays them with
 * one that never saw them: a copy of the project is built with the correction detector refitted without the
 * histories (`npm run train -- --without histories`), and that copy is replayed, as the product runs only.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { replayAll, replayText } from '../src/measure/index.ts';

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      histories: { type: 'string' },
      only: { type: 'string' },
      jobs: { type: 'string', default: '2' },
      params: { type: 'string' },
      unseen: { type: 'boolean', default: false },
    },
  });
  let dir = resolve(values.histories ?? join(import.meta.dirname, '..', '..', 'shared', 'data', 'histories'));
  if (!existsSync(dir)) throw new Error(`no histories in ${dir} (pass --histories DIR)`);
  // The labelled rows the histories sit among: what `--unseen` fits on.
  const data = resolve(dir, '..');
  if (values.only !== undefined) {
    const only = mkdtempSync(join(tmpdir(), 'remem-replay-only-'));
    for (const name of readdirSync(dir).filter((n) => n.includes(values.only!) && n.endsWith('.json'))) {
      symlinkSync(join(dir, name), join(only, name));
    }
    dir = only;
  }
  const jobs = Number.parseInt(values.jobs, 10);
  const params =
    values.params === undefined ? undefined : (JSON.parse(values.params) as Record<string, unknown>);
  const root = resolve(import.meta.dirname, '..');
  const unseen = values.unseen ? buildUnseen(root, data) : null;
  try {
    const binary = join(unseen ?? root, 'bin', 'remem.js');
    const modes = [
      { eachSession: false, perfectDetection: false },
      ...(unseen
        ? []
        : [
            { eachSession: true, perfectDetection: false },
            { eachSession: false, perfectDetection: true },
          ]),
    ];
    if (unseen) console.log('With the correction detector fitted without the histories:\n');
    for (const mode of modes) {
      const report = await replayAll(dir, { binary, ...mode, jobs, ...(params ? { params } : {}) });
      console.log(`${replayText(report)}\n`);
    }
  } finally {
    if (unseen) rmSync(unseen, { recursive: true, force: true });
  }
}

/** A built copy of the project whose correction detector was fitted on `data` without its histories. */
function buildUnseen(root: string, data: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'remem-unseen-'));
  for (const name of ['src', 'scripts', 'bin', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
    cpSync(join(root, name), join(copy, name), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  const model = join(copy, 'src', 'episodes', 'model');
  const train = ['--import', 'tsx', 'scripts/train.ts', '--data', data, '--without', 'histories'];
  execFileSync(process.execPath, [...train, '--detector', 'correction', '--out', model], {
    cwd: copy,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: copy, stdio: ['ignore', 'inherit', 'inherit'] });
  return copy;
}

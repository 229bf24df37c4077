/**
 * `npm run bench -- replay [--histories DIR] [--only NAME] [--jobs N] [--params JSON]`: the labelled histories
 * (default ../shared/data/histories) replayed through the built `remem` as the product runs, then sleeping
 * after every session, then with every labelled correction detected (the two ceilings), each beside the
 * keep-everything baselines. The figures are counts, not times; the replay's own time is printed with them.
 */
import { existsSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
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
    },
  });
  let dir = resolve(values.histories ?? join(import.meta.dirname, '..', '..', 'shared', 'data', 'histories'));
  if (!existsSync(dir)) throw new Error(`no histories in ${dir} (pass --histories DIR)`);
  if (values.only !== undefined) {
    const only = mkdtempSync(join(tmpdir(), 'remem-replay-only-'));
    for (const name of readdirSync(dir).filter((n) => n.includes(values.only!) && n.endsWith('.json'))) {
      symlinkSync(join(dir, name), join(only, name));
    }
    dir = only;
  }
  const binary = join(import.meta.dirname, '..', 'bin', 'remem.js');
  const jobs = Number.parseInt(values.jobs, 10);
  const params =
    values.params === undefined ? undefined : (JSON.parse(values.params) as Record<string, unknown>);
  const modes = [
    { eachSession: false, perfectDetection: false },
    { eachSession: true, perfectDetection: false },
    { eachSession: false, perfectDetection: true },
  ];
  for (const mode of modes) {
    const report = await replayAll(dir, { binary, ...mode, jobs, ...(params ? { params } : {}) });
    console.log(`${replayText(report)}\n`);
  }
}

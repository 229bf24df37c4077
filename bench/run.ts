/**
 * `npm run bench -- NAME [args]`: runs bench/NAME.ts. Every benchmark prints its figures as ratios
 * to a floor measured in the same run, so the numbers mean the same on any machine.
 */
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const names = readdirSync(here)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts' && !file.startsWith('_'))
  .map((file) => file.slice(0, -3))
  .sort();

const [name, ...args] = process.argv.slice(2);
const chosen = name ? [name] : names;
for (const bench of chosen) {
  if (!names.includes(bench)) {
    console.error(`unknown benchmark: ${bench} (have: ${names.join(', ')})`);
    process.exitCode = 2;
    break;
  }
  console.log(`\n## ${bench}\n`);
  const module = (await import(`./${bench}.ts`)) as { run(args: string[]): Promise<void> };
  await module.run(args);
}

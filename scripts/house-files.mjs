/** What the house checks read: every source file under a folder, and how they end when something is wrong. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|js|mjs|cjs)$/.test(entry.name)) yield path;
  }
}

/** Each problem on its own line on stderr, and exit 1 when there is any. */
export function finish(problems) {
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
}

/**
 * `npm run must-not:doc`: rewrites the must-not section of docs/RELIABILITY.md from the suite's test titles, in a
 * second, without the soak; the soak writes the same section with the rest of the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/remem.ts';
import { MUST_NOT_HEADING, mustNotSection } from './catalogue.ts';

const path = join(repoRoot, 'docs', 'RELIABILITY.md');
const doc = readFileSync(path, 'utf8');
const section = mustNotSection().join('\n');
const at = doc.indexOf(`${MUST_NOT_HEADING}\n`);
let written: string;
if (at !== -1) {
  const next = doc.indexOf('\n## ', at + MUST_NOT_HEADING.length);
  written = doc.slice(0, at) + section + (next === -1 ? '' : `\n${doc.slice(next + 1)}`);
} else {
  const growth = doc.indexOf('\n## Growth');
  written =
    growth === -1
      ? `${doc.trimEnd()}\n\n${section}`
      : `${doc.slice(0, growth + 1)}${section}\n${doc.slice(growth + 1)}`;
}
writeFileSync(path, written);
console.error(`wrote ${path}`);

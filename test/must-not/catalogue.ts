import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/remem.ts';

const folder = join(repoRoot, 'test', 'must-not');
export const MUST_NOT_HEADING = '## Must-not cases';

/** A quoted test title: single, double or back quotes, escapes kept as written. */
const title = String.raw`(['"\`])((?:\\.|(?!\1).)*)\1`;

/**
 * The must-not suite as docs/RELIABILITY.md lists it: each `describe('MUST NOT: …')` of test/must-not with the
 * attacks its tests are written as, read from the test files, so the list is never behind the suite.
 */
export function mustNotSection(): string[] {
  const lines = [
    MUST_NOT_HEADING,
    '',
    'What must never happen, each written as the attack it stops and run through the built `remem` and real',
    'servers by `npm test` (`test/must-not/`, listed here from its test titles). A case is held when its tests pass.',
    '',
    '| must not | attacks and checks | test |',
    '|---|---|---|',
  ];
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.test.ts'))
    .sort()) {
    const source = readFileSync(join(folder, file), 'utf8');
    const blocks = source.split(/\bdescribe\(\s*(?=['"`]MUST NOT)/);
    for (const block of blocks.slice(1)) {
      const heading = new RegExp(`^${title}`).exec(block)?.[2] ?? '';
      const tests = [
        ...block.matchAll(
          new RegExp(
            String.raw`\bit(?:\.each\([\s\S]*?\))?(?:\.skipIf\((?:[^()]|\([^()]*\))*\))?\(\s*${title}`,
            'g',
          ),
        ),
      ].map((match) => match[2]!.replace(/\\(.)/g, '$1').replace(/%[sjd]/g, '…'));
      const cell = (text: string) => text.replace(/\|/g, '\\|');
      lines.push(
        `| ${cell(heading.replace(/^MUST NOT:\s*/, ''))} | ${tests.map(cell).join('; ')} | \`${file}\` |`,
      );
    }
  }
  lines.push('');
  return lines;
}

/**
 * `npm run check`: SQL lives in store/ (DESIGN.md §2). Fails on a statement written anywhere else under src/,
 * except the commons server's own stores. (The files that held SQL when this check came in have all been emptied.)
 */
import { readFileSync } from 'node:fs';
import { finish, sourceFiles } from './house-files.mjs';

const OWN_STORES = new Set(['src/commons/sqlite-store.ts', 'src/commons/postgres-store.ts']);
const SQL =
  /\.prepare(<[^>]*>)?\(|\.pragma\(|\b(SELECT\s[\s\S]{0,200}?\sFROM|INSERT (OR \w+ )?INTO|DELETE FROM|UPDATE \w+ SET|CREATE (TABLE|INDEX|TRIGGER|VIEW))\b/;

const problems = [];
for (const file of sourceFiles('src')) {
  if (file.startsWith('src/store/') || OWN_STORES.has(file)) continue;
  if (SQL.test(readFileSync(file, 'utf8')))
    problems.push(`${file}: SQL outside store/ (move the statement into a store/ function)`);
}
finish(problems);

/**
 * Bundles ingest's parser worker into dist/parse-worker.cjs: one CommonJS file the worker thread loads with
 * `require`. Every ingest waits for this worker to start before its first file is parsed, and loading the few dozen
 * ES modules it imports one by one took about a third of that start.
 */

import { resolve } from 'node:path';
import { buildWithValues } from './built-values.mjs';

const root = resolve(import.meta.dirname, '..');

await buildWithValues({
  entryPoints: [resolve(root, 'src/episodes/parse-worker.ts')],
  outfile: resolve(root, 'dist/parse-worker.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
  // Loaded by `createRequire` where needed (events, which the worker never reads).
  external: ['better-sqlite3', 'zod'],
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
});

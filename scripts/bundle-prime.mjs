/**
 * Bundles `remem prime` into dist/prime.cjs: one CommonJS file a hook process loads with `require`.
 * Only what an answer from the prime index needs is bundled. A module the hook imports lazily (the
 * store, when there is no index) stays outside the bundle: the import points at its build in dist/, so a
 * hook never compiles code it does not run.
 */

import { relative, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');

/** `await import('../store/index.ts')` in src/ becomes `import('./store/index.js')`, relative to dist/prime.cjs. */
const lazyModulesFromDist = {
  name: 'lazy-modules-from-dist',
  setup(context) {
    context.onResolve({ filter: /\.ts$/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const source = relative(resolve(root, 'src'), resolve(args.resolveDir, args.path));
      return { path: `./${source.replace(/\.ts$/, '.js')}`, external: true };
    });
  },
};

await build({
  entryPoints: [resolve(root, 'src/cli/prime-hook.ts')],
  outfile: resolve(root, 'dist/prime.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Node 20 reads Unicode property escapes (\p{L}); lowered, each pattern would be built by `new RegExp` when the
  // bundle loads, and a rule set the hook never reads could no longer be left out of the bundle.
  supported: { 'regexp-unicode-property-escapes': true },
  minify: true,
  logLevel: 'warning',
  // Loaded by `createRequire` only where needed; @noble/hashes is bundled (small, and pure JavaScript).
  external: ['better-sqlite3', 'zod'],
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
  plugins: [lazyModulesFromDist],
});

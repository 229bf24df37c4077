/**
 * Bundles `remem prime` into dist/prime.cjs: one CommonJS file a hook process loads (bin/remem.js).
 * Only what an answer from the prime index needs is bundled. A module the hook imports lazily (the
 * store, when there is no index) stays outside the bundle: the import points at its build in dist/, so a
 * hook never compiles code it does not run.
 *
 * The bundle ends with its build id, and a first hook run on a small memory leaves V8's code cache for it
 * beside it (dist/prime.cjs.<runtime>.cache), so the hooks that follow do not compile it. Code compiled from
 * that cache has no module loader for `import()` (Node 20), so the bundle's lazy imports go through
 * dist/prime-import.cjs, a module Node compiles itself.
 */

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { buildWithValues } from './built-values.mjs';

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

/** node:module, which is not loaded when Node starts, is loaded where createRequire is called, not with the bundle. */
const lazyNodeModule = {
  name: 'lazy-node-module',
  setup(context) {
    context.onResolve({ filter: /^node:module$/ }, (args) =>
      // The stand-in's own require is of Node's module.
      args.namespace === 'lazy'
        ? { path: 'node:module', external: true }
        : { path: 'node:module', namespace: 'lazy' },
    );
    context.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "export const createRequire = (from) => require('node:module').createRequire(from);",
      loader: 'js',
    }));
  },
};

const outfile = resolve(root, 'dist/prime.cjs');

const options = {
  entryPoints: [resolve(root, 'src/cli/prime-hook.ts')],
  outfile,
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
  // Worked out where a module needs it (the schema library, node:os without HOME), not on every load.
  define: { 'import.meta.url': 'importMeta.url' },
  banner: {
    js: [
      "const importMeta={get url(){return require('node:url').pathToFileURL(__filename).href}};",
      "const importFromDist=(specifier)=>require(require('node:path').join(__dirname,'prime-import.cjs'))(specifier);",
    ].join(''),
  },
  plugins: [lazyModulesFromDist, lazyNodeModule],
  write: false,
};
const built = await buildWithValues(options);

writeFileSync(
  resolve(root, 'dist/prime-import.cjs'),
  "// The prime bundle's `import()`, relative to dist/: see scripts/bundle-prime.mjs.\nmodule.exports = (specifier) => import(specifier);\n",
);
const lazyImports = /\bimport\("[^"]+"\)/g;
const bundle = built.outputFiles[0].text.replace(
  lazyImports,
  (call) => `importFromDist${call.slice('import'.length)}`,
);
if (/\bimport\s*\(/.test(bundle))
  throw new Error('the prime bundle has an import() that bypasses importFromDist');
// A source with one character past Latin-1 (the rule sets' Chinese and Russian) is held by V8 at two bytes a
// character, and so read, scanned and kept at twice its size by every hook. Each such character is written as
// its escape, which means the same in a string or a pattern; one after a backslash would not, nor one in a raw
// template (`String.raw`), and both are refused.
if (/\\[^\x00-\x7f]/.test(bundle)) throw new Error('the prime bundle escapes a character past ASCII');
if (/String\.raw`[^`]*[^\x00-\x7f]/.test(bundle))
  throw new Error('the prime bundle has a raw template with a character past ASCII');
const asciiBundle = bundle.replace(
  /[^\x00-\x7f]/g,
  (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
);
const id = createHash('sha256').update(asciiBundle).digest('hex').slice(0, 16);
writeFileSync(outfile, `${asciiBundle}\n//# build ${id}\n`);
for (const name of readdirSync(dirname(outfile))) {
  if (name.startsWith('prime.cjs.') && name.endsWith('.cache')) rmSync(join(dirname(outfile), name));
}
await warmCodeCache();

/**
 * One prompt hook on a memory of two lessons, one of which meets the prompt: the launcher writes the code cache
 * when it finds none, with the functions that answer a prompt from the prime index compiled in it. Without it
 * (no SQLite here, say) the first hook on the machine writes the cache instead.
 */
async function warmCodeCache() {
  const home = mkdtempSync(join(tmpdir(), 'remem-prime-cache-'));
  try {
    const { lessonHash } = await import('../dist/core/index.js');
    const { insertLesson, openStore } = await import('../dist/store/index.js');
    const { writePrimeIndex } = await import('../dist/truth/index.js');
    const at = '2026-01-01T00:00:00.000Z';
    const store = openStore(home);
    const lessons = [
      ['error', 'The migration ran before the schema cache was built, and the deploy failed.'],
      ['correction', 'The person told the agent: "run the tests yourself, do not ask me to"'],
    ];
    for (const [kind, text] of lessons) {
      insertLesson(store.db, {
        hash: lessonHash(kind, text),
        kind,
        text,
        seen: 1,
        strength: 1,
        project: null,
        origin: 'self',
        review: 'approved',
        happenedAt: at,
        createdAt: at,
        updatedAt: at,
        touchedAt: at,
        decayedAt: at,
        rules: 'build',
      });
    }
    writePrimeIndex(store, at, 256);
    store.close();
    const payload = {
      session_id: 'build',
      cwd: home,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'the deploy failed again: did the migration run before the schema cache was built?',
    };
    const ran = spawnSync(process.execPath, [resolve(root, 'bin/remem.js'), 'prime'], {
      input: JSON.stringify(payload),
      env: { PATH: process.env.PATH, HOME: home, REMEM_HOME: home, REMEM_HOLDOUT: '0', REMEM_NOW: at },
      encoding: 'utf8',
    });
    if (ran.status !== 0 || !ran.stdout.includes('schema cache'))
      throw new Error(`the hook answered ${JSON.stringify(ran.stdout)} ${ran.stderr}`);
  } catch (error) {
    console.warn(`prime: no code cache made at build (${error.message}); the first hook makes it`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

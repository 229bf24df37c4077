/**
 * Builds a bundle with src/core/built.ts written anew: the values the bundle works out when it is built, so a
 * process that runs it does not work them out each time. The first build says which rule sets the bundle holds
 * (their names are in it); the second holds their literals, and the estimate kernel's module where it reads it,
 * worked out by the build in dist/.
 */

import { build } from 'esbuild';

async function workOut(bundle) {
  const cues = await import('../dist/episodes/cues/index.js');
  const { literalsOf } = await import('../dist/episodes/match.js');
  const { moduleBytes } = await import('../dist/hook/estimate-kernel.js');
  const literals = {};
  for (const set of Object.values(cues)) {
    if (set && typeof set === 'object' && 'groups' in set && bundle.includes(JSON.stringify(set.name)))
      literals[set.name] = JSON.stringify(literalsOf(set));
  }
  const kernel = bundle.includes('estimateKernel')
    ? Buffer.from(moduleBytes()).toString('base64')
    : undefined;
  return { literals, ...(kernel ? { estimateKernel: kernel } : {}) };
}

const builtValues = (values) => ({
  name: 'built-values',
  setup(context) {
    context.onLoad({ filter: /[\\/]core[\\/]built\.ts$/ }, () => ({
      contents: `export const BUILT = ${JSON.stringify(values)};`,
      loader: 'js',
    }));
  },
});

/** esbuild's `build` with these options, twice; the result of the second. */
export async function buildWithValues(options) {
  const first = await build({ ...options, write: false });
  const values = await workOut(first.outputFiles[0].text);
  return build({ ...options, plugins: [...(options.plugins ?? []), builtValues(values)] });
}

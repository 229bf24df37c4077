/**
 * The house's rules, checked by `npm run check` (DESIGN.md §2, docs/ARCHITECTURE.md):
 * - a stage imports only the stages this table lets it (those to its left in the flow, plus store/ and core/);
 * - another folder is entered by its front door, `index.ts`, or by its light front door, `light.ts`: the few
 *   modules the prime hook's bundle takes from a folder, without what `index.ts` brings;
 * - nothing imports cli/;
 * - no import cycles.
 * No breach is let stand: every one fails the check.
 */

/** For each stage, the other stages it may import. A stage missing here may import only core/. */
const stages = {
  core: [],
  store: ['core'],
  embed: ['core'],
  hook: ['core'],
  stream: ['core', 'store'],
  episodes: ['core', 'store', 'stream'],
  sleep: ['core', 'store', 'stream', 'episodes', 'embed'],
  truth: ['core', 'store', 'stream', 'episodes', 'embed', 'sleep', 'hook'],
  recall: ['core', 'store', 'episodes', 'embed', 'truth'],
  prime: ['core', 'store', 'stream', 'episodes', 'embed', 'truth', 'hook'],
  render: ['core', 'store', 'episodes', 'embed', 'truth'],
  mcp: ['core', 'store', 'stream', 'episodes', 'embed', 'truth', 'recall', 'prime', 'render'],
  proxy: ['core', 'store', 'stream', 'episodes', 'embed', 'truth', 'recall', 'prime', 'render'],
  api: ['core', 'store', 'stream', 'episodes', 'embed', 'truth', 'recall', 'prime', 'render', 'mcp'],
  protocol: ['core'],
  share: ['core', 'store', 'protocol', 'truth', 'embed'],
  transport: ['core', 'store', 'protocol', 'share'],
  commons: ['core', 'protocol'],
  night: [
    'core',
    'store',
    'stream',
    'episodes',
    'embed',
    'sleep',
    'truth',
    'render',
    'protocol',
    'share',
    'transport',
    'measure',
    'prime',
    'setup',
  ],
  measure: ['core', 'store', 'stream', 'episodes', 'embed', 'sleep', 'truth', 'recall', 'prime', 'render'],
  experiment: [
    'core',
    'store',
    'stream',
    'episodes',
    'embed',
    'sleep',
    'truth',
    'recall',
    'prime',
    'render',
    'measure',
  ],
  web: [
    'core',
    'store',
    'stream',
    'episodes',
    'embed',
    'sleep',
    'truth',
    'recall',
    'render',
    'measure',
    'protocol',
    'share',
  ],
  setup: ['core', 'store'],
};

const stageRules = Object.entries(stages).map(([stage, allowed]) => ({
  name: `stage-${stage}`,
  comment: `src/${stage}/ may import only ${allowed.length ? allowed.join(', ') : 'nothing but its own files'}`,
  severity: 'error',
  from: { path: `^src/${stage}/` },
  to: {
    path: '^src/([^/]+)/',
    pathNot: [`^src/(${[stage, ...allowed].join('|')})/`],
  },
}));

module.exports = {
  forbidden: [
    ...stageRules,
    {
      name: 'no-cli',
      comment: 'nothing imports cli/: the command line only calls the stages',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'front-door',
      comment:
        'another folder is entered by its index.ts, which says what it makes public (or its light.ts, for the prime hook)',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: {
        path: '^src/([^/]+)/.+',
        pathNot: ['^src/$1/', '^src/[^/]+/(index|light)\\.ts$'],
      },
    },
    {
      name: 'no-cycle',
      comment: 'a cycle ties files that should be able to change apart',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};

#!/usr/bin/env node
// `remem prime` runs inside an agent's hook on every prompt: one bundled file, no command-line parser.
const entry =
  process.argv[2] === 'prime'
    ? import('../dist/prime.mjs').then((module) => module.runPrime())
    : import('../dist/cli/main.js').then((module) => module.main(process.argv.slice(2)));

entry.then((code) => {
  process.exitCode = code;
});

#!/usr/bin/env node
// `remem prime` runs inside an agent's hook on every prompt: one bundled CommonJS file, no command-line
// parser, and no ES module loader to start (bin/package.json makes this launcher CommonJS too).
const entry =
  process.argv[2] === 'prime'
    ? require('../dist/prime.cjs').runPrime()
    : import('../dist/cli/main.js').then((module) => module.main(process.argv.slice(2)));

entry.then((code) => {
  process.exitCode = code;
});

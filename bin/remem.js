#!/usr/bin/env node
// `remem prime` runs inside an agent's hook on every prompt: one bundled CommonJS file, no command-line
// parser, and no ES module loader to start (bin/package.json makes this launcher CommonJS too).
const {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} = require('node:fs');
const { dirname, join } = require('node:path');

/**
 * dist/prime.cjs, compiled from V8's code cache beside it when there is one made for this bundle and this runtime:
 * compiling the bundle costs a hook more than reading its answer from the prime index. The bundle ends with its
 * build id, and a cache starts with the id of the bundle it was made from. Each runtime (V8 version and flags) has
 * a cache file of its own, as V8 refuses a cache made under others, and two runtimes sharing one file would each
 * write it over the other's. Without a usable cache the bundle is compiled as `require` would, and the cache is
 * written once the hook has answered (`save`), for the next hook.
 */
function loadPrime() {
  const file = join(__dirname, '..', 'dist', 'prime.cjs');
  const source = readFileSync(file, 'utf8');
  // The last line, `//# build <16 hex digits>`, read without a pattern: compiling one costs more than this.
  const footer = source.slice(-28);
  const id = footer.startsWith('\n//# build ') && footer.endsWith('\n') ? footer.slice(11, 27) : '';
  if (!id) return { prime: require(file), save: () => {} };
  const cacheFile = `${file}.${runtimeKey()}.cache`;
  let cache;
  try {
    cache = readCache(cacheFile, id);
  } catch {
    // no cache yet
  }
  // Node's own wrapper for a CommonJS module. The bundle requires only Node's modules and absolute paths, so the
  // launcher's `require` serves it.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const vm = require('node:vm');
  const script = new vm.Script(wrapped, { filename: file, cachedData: cache });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require, module, file, dirname(file));
  const save = () => {
    if (cache && !script.cachedDataRejected) return;
    const temporary = `${cacheFile}.${process.pid}`;
    try {
      // Made after the hook ran, so it holds the functions compiled on the way, not only the bundle's top level.
      const data = script.createCachedData();
      writeFileSync(temporary, Buffer.concat([Buffer.from(id, 'latin1'), data, data]));
      renameSync(temporary, cacheFile);
    } catch {
      // a read-only install: every hook compiles the bundle, as without a cache
      rmSync(temporary, { force: true });
    }
  };
  return { prime: module.exports, save };
}

/**
 * The code cache in `file` when it was made for the bundle `id` and its two copies agree. V8 checks a cache's version
 * and flags but not its contents, and a damaged cache can crash the process or run wrong code. A checksum would
 * cost more than the cache saves (node:crypto or node:zlib take 1.5 ms to load), so the cache is written twice, and
 * one whose copies differ is passed over. The second copy is compared a slice at a time: memory a process has not
 * touched yet costs it more to fill than the comparing.
 */
function readCache(file, id) {
  const fd = openSync(file, 'r');
  try {
    const half = (fstatSync(fd).size - 16) / 2;
    if (!(Number.isInteger(half) && half > 0)) return undefined;
    const first = Buffer.allocUnsafeSlow(16 + half);
    if (!readAll(fd, first, 0) || first.toString('latin1', 0, 16) !== id) return undefined;
    const slice = Buffer.allocUnsafeSlow(Math.min(half, 16 * 1024));
    for (let at = 0; at < half; at += slice.length) {
      const part = slice.subarray(0, Math.min(slice.length, half - at));
      if (!readAll(fd, part, 16 + half + at) || part.compare(first, 16 + at, 16 + at + part.length) !== 0)
        return undefined;
    }
    return first.subarray(16);
  } finally {
    closeSync(fd);
  }
}

/** Fills `buffer` from `fd` at `position`; false when the file ends first. */
function readAll(fd, buffer, position) {
  let done = 0;
  while (done < buffer.length) {
    const got = readSync(fd, buffer, done, buffer.length - done, position + done);
    if (got === 0) return false;
    done += got;
  }
  return true;
}

/** The V8 version and the flags this process runs with, as eight hex digits (FNV-1a). */
function runtimeKey() {
  const runtime = [process.versions.v8, ...process.execArgv, process.env.NODE_OPTIONS ?? ''].join('\0');
  let hash = 0x811c9dc5;
  for (let i = 0; i < runtime.length; i++) hash = Math.imul(hash ^ runtime.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

if (process.argv[2] === 'prime') {
  const { prime, save } = loadPrime();
  prime.runPrime().then((code) => {
    process.exitCode = code;
    save();
    if (prime.mayExitAtOnce()) process.exit();
  });
} else {
  import('../dist/cli/main.js')
    .then((module) => module.main(process.argv.slice(2)))
    .then((code) => {
      process.exitCode = code;
    });
}

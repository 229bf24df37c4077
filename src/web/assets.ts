import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A file the page loads, as served. */
export interface Asset {
  body: string;
  type: string;
}

const types: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
};

// Beside this module in src/ and in dist/ alike: the build copies the folder.
const assetsDir = fileURLToPath(new URL('./assets/', import.meta.url));
const require = createRequire(import.meta.url);

/** The chart library, served from the installed package: the page works offline and loads nothing else. */
const vendored: Record<string, string> = {
  'vendor/uplot.js': 'uplot/dist/uPlot.esm.js',
  'vendor/uplot.css': 'uplot/dist/uPlot.min.css',
};

let cache: Map<string, Asset> | null = null;

function loadAll(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(assetsDir)) {
    const type = types[extname(name)];
    if (type) assets.set(name, { body: readFileSync(assetsDir + name, 'utf8'), type });
  }
  for (const [name, module] of Object.entries(vendored)) {
    const type = types[extname(name)]!;
    assets.set(name, { body: readFileSync(require.resolve(module), 'utf8'), type });
  }
  return assets;
}

/** An asset by its name under /assets/ (`app.js`, `vendor/uplot.js`), or undefined: nothing else is served. */
export function readAsset(name: string): Asset | undefined {
  cache ??= loadAll();
  return cache.get(name);
}

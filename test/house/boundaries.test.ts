import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';

const root = resolve(import.meta.dirname, '../..');
const depcruise = join(root, 'node_modules/.bin/depcruise');
const tempDir = useTempDirs();

/** A small house laid out like src/, checked by the project's own rules (no known breaches). */
function cruise(files: Record<string, string>): { status: number | null; out: string } {
  const dir = tempDir('remem-house-');
  copyFileSync(join(root, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true } }),
  );
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const run = spawnSync(depcruise, ['src', '--output-type', 'err'], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

const lawful = {
  'src/core/index.ts': 'export const now = 1;\n',
  'src/store/index.ts': "import { now } from '../core/index.ts';\nexport const at = now;\n",
  'src/sleep/index.ts': "export { sleep } from './sleep.ts';\n",
  'src/sleep/sleep.ts': "import { at } from '../store/index.ts';\nexport const sleep = () => at;\n",
  'src/cli/sleep.ts': "import { sleep } from '../sleep/index.ts';\nexport const run = sleep;\n",
};

describe('the house rules in npm run check', () => {
  it('pass a house that keeps them', () => {
    const { status, out } = cruise(lawful);
    expect(out).toContain('no dependency violations');
    expect(status).toBe(0);
  });

  it('fail on an import against the flow', () => {
    const { status, out } = cruise({
      ...lawful,
      'src/store/index.ts': "import { sleep } from '../sleep/index.ts';\nexport const at = sleep;\n",
    });
    expect(status).not.toBe(0);
    expect(out).toMatch(/stage-store: src\/store\/index\.ts → src\/sleep\/index\.ts/);
  });

  it('fail on a side door past a folder’s index.ts', () => {
    const { status, out } = cruise({
      ...lawful,
      'src/cli/sleep.ts': "import { sleep } from '../sleep/sleep.ts';\nexport const run = sleep;\n",
    });
    expect(status).not.toBe(0);
    expect(out).toMatch(/front-door: src\/cli\/sleep\.ts → src\/sleep\/sleep\.ts/);
  });

  it('let a folder be entered by its light front door, and still only along the flow', () => {
    const light = {
      ...lawful,
      'src/sleep/light.ts': "export { sleep } from './sleep.ts';\n",
      'src/cli/sleep.ts': "import { sleep } from '../sleep/light.ts';\nexport const run = sleep;\n",
    };
    expect(cruise(light).out).toContain('no dependency violations');
    const { status, out } = cruise({
      ...light,
      'src/store/index.ts': "import { sleep } from '../sleep/light.ts';\nexport const at = sleep;\n",
    });
    expect(status).not.toBe(0);
    expect(out).toMatch(/stage-store: src\/store\/index\.ts → src\/sleep\/light\.ts/);
  });

  it('fail on an import of cli/ and on a cycle', () => {
    const { status, out } = cruise({
      ...lawful,
      'src/sleep/sleep.ts':
        "import { at } from '../store/index.ts';\nimport { run } from '../cli/sleep.ts';\nexport const sleep = () => at + String(run);\n",
    });
    expect(status).not.toBe(0);
    expect(out).toMatch(/no-cli: src\/sleep\/sleep\.ts → src\/cli\/sleep\.ts/);
    expect(out).toMatch(/no-cycle/);
  });

  it('hold on the real tree, with no breach let stand', () => {
    const out = execFileSync(depcruise, ['src', '--output-type', 'err'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(out).toContain('no dependency violations');
  });

  it('find SQL written outside store/', () => {
    const dir = tempDir('remem-sql-');
    mkdirSync(join(dir, 'src/web'), { recursive: true });
    writeFileSync(
      join(dir, 'src/web/page.ts'),
      "export const q = (db) => db.prepare('SELECT id FROM lessons').all();\n",
    );
    const run = spawnSync(process.execPath, [join(root, 'scripts/check-sql.mjs')], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('src/web/page.ts: SQL outside store/');
  });

  it('find lesson text shown past the one door', () => {
    const dir = tempDir('remem-door-');
    mkdirSync(join(dir, 'src/web'), { recursive: true });
    writeFileSync(
      join(dir, 'src/web/page.ts'),
      "import { visibleToAgent } from '../truth/index.ts';\nexport const q = (db) => visibleToAgent(db, {});\n",
    );
    const run = spawnSync(process.execPath, [join(root, 'scripts/check-door.mjs')], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('src/web/page.ts: calls visibleToAgent past the door');
    expect(spawnSync(process.execPath, [join(root, 'scripts/check-door.mjs')], { cwd: root }).status).toBe(0);
  });
});

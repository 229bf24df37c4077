import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weekOf } from '../../src/measure/index.ts';
import { auditOfLesson, listPredictions, openStore } from '../../src/store/index.ts';
import { remem, repoRoot } from '../helpers/remem.ts';
import { fillMonth, type Month, monthEnd } from '../web/month.ts';

const CHROMIUM = '/usr/bin/chromium';
const artifacts = join(repoRoot, 'test-artifacts');

interface LessonRow {
  id: number;
  text: string;
  kind: string;
  state: string;
  origin: string;
}

interface EpisodeRow {
  id: number;
  session: string;
  lessonId: number | null;
  said?: string;
  agentBefore?: string;
  source: { file?: string; line?: number };
}

let root: string;
let month: Month;
let server: ChildProcess;
let address: URL;
let browser: BrowserContext;
let page: Page;

function cli<T>(args: string[], home = month.home): T {
  const result = remem([...args, '--json'], { home, now: monthEnd });
  expect(result.code, result.stderr).toBe(0);
  return result.json<T>();
}

function activeLessons(): LessonRow[] {
  return cli<{ lessons: LessonRow[] }>(['lessons']).lessons;
}

/** `remem ui --port 0`, as a person starts it; resolves with the address it prints. */
function startUi(home: string): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'remem.js'), 'ui', '--port', '0'], {
    cwd: repoRoot,
    env: { PATH: process.env['PATH'] ?? '', HOME: join(home, 'user'), REMEM_HOME: home, REMEM_NOW: monthEnd },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve({ child, url: new URL(line.trim()) });
    });
    child.on('exit', (code) => reject(new Error(`remem ui exited with ${code}: ${err}`)));
  });
}

async function shoot(name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: join(artifacts, `ui-${name}.png`), fullPage });
}

async function open(hash: string): Promise<void> {
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    const installed = spawnSync('bash', [join(repoRoot, 'scripts', 'ensure-chromium.sh')], {
      stdio: 'inherit',
    });
    expect(installed.status, 'scripts/ensure-chromium.sh could not install Chromium').toBe(0);
  }
  mkdirSync(artifacts, { recursive: true });
  root = mkdtempSync(join(tmpdir(), 'remem-ui-'));
  month = fillMonth(root, repoRoot);
  const started = await startUi(month.home);
  server = started.child;
  address = started.url;
  browser = await chromium.launchPersistentContext(join(root, 'chromium-profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1100, height: 900 },
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  // Everything the page loads comes from the server it was given: no fonts, scripts or styles from elsewhere.
  await page.route('**/*', (route) =>
    new URL(route.request().url()).host === address.host ? route.continue() : route.abort(),
  );
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('remem ui, in a real headless Chromium, over a replayed month', () => {
  it('prints its address on 127.0.0.1 with the token, and refuses a wrong or missing token with 401', async () => {
    expect(address.hostname).toBe('127.0.0.1');
    const token = address.searchParams.get('token');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const api = new URL('api/lessons', address);
    expect((await fetch(api)).status).toBe(401);
    expect((await fetch(api, { headers: { authorization: `Bearer ${'0'.repeat(64)}` } })).status).toBe(401);
    expect((await fetch(api, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    const stranger = await browser.newPage();
    const wrong = new URL(address);
    wrong.searchParams.set('token', 'f'.repeat(64));
    const refused = stranger.waitForResponse((response) => response.url().includes('/api/'));
    await stranger.goto(wrong.href);
    expect((await refused).status()).toBe(401);
    await expect.poll(() => stranger.locator('h1').textContent()).toBe('This page needs its token');
    await stranger.close();
  });

  it('lists the lessons `remem lessons` lists, and keeps the token out of the address', async () => {
    await page.goto(address.href);
    await page.locator('ol.lessons article.lesson').first().waitFor();
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    const shown = await page
      .locator('ol.lessons article.lesson')
      .evaluateAll((cards) => cards.map((card) => Number(card.getAttribute('data-lesson-id'))));
    const listed = activeLessons();
    expect(shown.sort((a, b) => a - b)).toEqual(listed.map((lesson) => lesson.id).sort((a, b) => a - b));
    for (const lesson of listed) {
      await expect
        .poll(() =>
          page.locator(`ol.lessons article[data-lesson-id="${lesson.id}"] .lesson-text`).textContent(),
        )
        .toBe(lesson.text);
    }
    // The two surprises the person said refute each other stand side by side as a question.
    expect(await page.locator('.questions .question .pair article').count()).toBe(2);
    await shoot('lessons');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(artifacts, 'ui-lessons-phone.png') });
    await page.setViewportSize({ width: 1100, height: 900 });
  });

  it("opens a lesson to its sources: the person's words, the agent sentence they answered, the session and the line", async () => {
    const lesson = activeLessons().find((row) => row.text.includes('pnpm add p-retry'))!;
    const [source] = cli<{ episodes: EpisodeRow[] }>(['episodes']).episodes.filter(
      (episode) => episode.lessonId === lesson.id,
    );
    expect(source?.source.file).toContain('examples/claude/projects');
    await open('#/lessons');
    await page.locator(`article[data-lesson-id="${lesson.id}"] h3 a`).click();
    await expect.poll(() => page.locator('h1').textContent()).toContain(`Lesson #${lesson.id}`);
    const card = page.locator(`.source[data-episode-id="${source!.id}"]`);
    await card.waitFor();
    expect(await card.locator('.agent p:not(.who)').textContent()).toBe(source!.agentBefore);
    expect(await card.locator('.person p:not(.who)').textContent()).toBe(source!.said);
    const where = (await card.locator('.where').textContent()) ?? '';
    expect(where).toContain(source!.source.file!);
    expect(where).toContain(`line ${source!.source.line}`);
    expect(await card.locator(`code[title="${source!.session}"]`).count()).toBe(1);
    expect(where).toMatch(/raw\/claude-code\/.+\.jsonl\.gz/);
    await shoot('lesson');
  });

  it('draws charts with one point per decision and one per week', async () => {
    const lesson = activeLessons().find((row) => row.text.includes('pnpm add p-retry'))!;
    const store = openStore(month.home, { readonly: true });
    let audit: number;
    let weeks: number;
    try {
      audit = auditOfLesson(store.db, lesson.id).length;
      weeks = new Set(listPredictions(store.db).map((prediction) => weekOf(prediction.madeAt))).size;
    } finally {
      store.close();
    }
    const strength = page.locator(`#chart-strength-${lesson.id}`);
    await expect.poll(() => strength.getAttribute('data-drawn')).toBe(String(audit + 1));
    expect(await strength.getAttribute('data-points')).toBe(String(audit + 1));
    expect(await strength.locator('canvas').count()).toBe(1);
    expect(await strength.locator('details tbody tr').count()).toBe(audit + 1);

    await open('#/charts');
    const accuracy = page.locator('#chart-prediction-accuracy');
    await expect.poll(() => accuracy.getAttribute('data-drawn')).toBe(String(weeks));
    expect(weeks).toBeGreaterThan(1);
    expect(await accuracy.locator('canvas').count()).toBe(1);
    const box = await accuracy.locator('canvas').boundingBox();
    expect(box!.width).toBeGreaterThan(200);
    for (const id of ['surprises-per-session', 'repeats', 'primes']) {
      const chart = page.locator(`#chart-${id}`);
      const points = await chart.getAttribute('data-points');
      // A chart with nothing to show yet says so instead of drawing.
      if (points === '0') expect(await chart.locator('.empty').count()).toBe(1);
      else await expect.poll(() => chart.getAttribute('data-drawn')).toBe(points);
    }
    await shoot('charts');
  });

  it("shows the morning report with the owner's tally, and the review queue with the received lesson", async () => {
    await open('#/report');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Morning report');
    const report = cli<{ text: string }>(['report']);
    expect(report.text).toContain('Confirmed');
    expect(await page.locator('.report').textContent()).toContain('Confirmed: a prediction came true');
    expect(await page.locator('table tbody tr').count()).toBeGreaterThan(0);
    await shoot('report');

    await open('#/review');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Review');
    const peer = cli<{ origin: string }>(['key'], month.peer).origin;
    const queued = cli<{ queue: { lesson: { id: number } }[] }>(['review']).queue;
    expect(queued).toHaveLength(1);
    const card = page.locator(`article[data-lesson-id="${queued[0]!.lesson.id}"]`);
    await card.waitFor();
    expect(await card.textContent()).toContain(`received from ${peer}`);
    expect(await page.locator('main').textContent()).toContain(
      `remem review approve ${queued[0]!.lesson.id}`,
    );
    expect(await page.locator('main button').count()).toBe(0);
    await shoot('review');
  });

  it('vetoes a lesson from the page, after asking: it is gone from `remem lessons`', async () => {
    const lesson = activeLessons().find((row) => row.kind === 'error')!;
    await open(`#/lesson/${lesson.id}`);
    await expect.poll(() => page.locator('h1').textContent()).toContain(`Lesson #${lesson.id}`);
    await page.getByRole('button', { name: 'Forget this lesson…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`remem forget ${lesson.id}`);
    await shoot('forget', false);
    // Keeping it changes nothing.
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    expect(activeLessons().map((row) => row.id)).toContain(lesson.id);
    await page.getByRole('button', { name: 'Forget this lesson…' }).click();
    await dialog.getByRole('button', { name: 'Forget it' }).click();
    await expect.poll(() => page.locator('.flash').textContent()).toContain(`Forgot lesson #${lesson.id}`);
    expect(await page.locator(`ol.lessons article[data-lesson-id="${lesson.id}"]`).count()).toBe(0);
    expect(activeLessons().map((row) => row.id)).not.toContain(lesson.id);
    const all = cli<{ lessons: LessonRow[] }>(['lessons', '--all']).lessons;
    expect(all.find((row) => row.id === lesson.id)?.state).toBe('vetoed');
  });
});

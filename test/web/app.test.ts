import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiApp } from '../../src/api/index.ts';
import { getTombstone, listLessons } from '../../src/store/index.ts';
import { createWebApp, mountWebApp, type WebDeps } from '../../src/web/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { buildFixture, configFor, type Fixture, NOW, TOKEN } from './fixture.ts';

const tempDir = useTempDirs();
const open: Fixture[] = [];
afterEach(() => {
  for (const fixture of open.splice(0)) fixture.store.close();
});

function setUp(): { fixture: Fixture; app: Hono; deps: WebDeps } {
  const home = tempDir('remem-web-');
  const fixture = buildFixture(home);
  open.push(fixture);
  const deps: WebDeps = { store: fixture.store, config: configFor(home), token: TOKEN, now: () => NOW };
  return { fixture, app: createWebApp(deps), deps };
}

const local = { host: '127.0.0.1:7778' };
const authorized = { ...local, authorization: `Bearer ${TOKEN}` };

async function getJson<T>(app: Hono, path: string): Promise<T> {
  const response = await app.request(path, { headers: authorized });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

interface Summary {
  id: number;
  kind: string;
  state: string;
  validity: string;
  strength: number;
  origin: string;
  confirmedBy: string[];
}

describe('the page and its assets', () => {
  it('serves the page without data and without a token, with a policy that loads only its own files', async () => {
    const { app } = setUp();
    const response = await app.request('/', { headers: local });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await response.text();
    expect(html).toContain('<script type="module" src="assets/app.js">');
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('serves its scripts and the vendored chart library, and nothing else', async () => {
    const { app } = setUp();
    for (const name of ['app.js', 'charts.js', 'style.css', 'vendor/uplot.js', 'vendor/uplot.css']) {
      const response = await app.request(`/assets/${name}`, { headers: local });
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type'), name).toMatch(/javascript|css/);
    }
    expect(await (await app.request('/assets/vendor/uplot.js', { headers: local })).text()).toContain(
      'export { uPlot as default }',
    );
    for (const path of ['/assets/app.ts', '/assets/../app.ts', '/assets/%2e%2e/app.ts', '/package.json']) {
      expect((await app.request(path, { headers: local })).status, path).toBe(404);
    }
  });

  it('answers only to local host names and origins', async () => {
    const { app } = setUp();
    expect((await app.request('/', { headers: { host: 'evil.example' } })).status).toBe(403);
    expect(
      (await app.request('/api/lessons', { headers: { ...authorized, host: 'remem.evil.example:7778' } }))
        .status,
    ).toBe(403);
    const foreign = await app.request('/api/lessons', {
      headers: { ...authorized, origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const same = await app.request('/api/lessons', {
      headers: { ...authorized, origin: 'http://127.0.0.1:7778' },
    });
    expect(same.status).toBe(200);
  });

  it('refuses every JSON route without the token, or with a wrong one', async () => {
    const { app } = setUp();
    for (const path of [
      '/api/lessons',
      '/api/lessons/1',
      '/api/series',
      '/api/report',
      '/api/review',
      '/api/search?q=x',
      '/api/overview',
    ]) {
      expect((await app.request(path, { headers: local })).status, path).toBe(401);
      const wrong = await app.request(path, {
        headers: { ...local, authorization: `Bearer ${'b'.repeat(64)}` },
      });
      expect(wrong.status, path).toBe(401);
    }
    const veto = await app.request('/api/lessons/1/forget', {
      method: 'POST',
      headers: { ...local, 'content-type': 'application/json' },
      body: JSON.stringify({ confirm: true }),
    });
    expect(veto.status).toBe(401);
  });

  it('mounts under another app at a folder of its own', async () => {
    const { deps } = setUp();
    const host = new Hono();
    mountWebApp(host, deps, '/ui');
    const bare = await host.request('/ui?token=x', { headers: local });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/ui/?token=x');
    expect((await host.request('/ui/', { headers: local })).status).toBe(200);
    expect((await host.request('/ui/assets/app.js', { headers: local })).status).toBe(200);
    expect((await host.request('/ui/api/lessons', { headers: authorized })).status).toBe(200);
    expect((await host.request('/ui/api/lessons', { headers: local })).status).toBe(401);
  });
});

describe('served by the REST API', () => {
  it('mounts among the routes `remem serve` opens without its token: the view checks its own', async () => {
    const { deps } = setUp();
    const open = new Hono();
    mountWebApp(open, deps, '/ui');
    const api = createApiApp({ store: deps.store, config: deps.config, token: TOKEN, now: deps.now, open });
    expect((await api.request('/ui/', { headers: local })).status).toBe(200);
    expect((await api.request('/ui/assets/vendor/uplot.js', { headers: local })).status).toBe(200);
    expect((await api.request('/ui/api/lessons', { headers: local })).status).toBe(401);
    expect((await api.request('/ui/api/lessons', { headers: authorized })).status).toBe(200);
    expect((await api.request('/ui/', { headers: { host: 'evil.example' } })).status).toBe(403);
    expect((await api.request('/memory/lessons', { headers: local })).status).toBe(401);
  });
});

describe('lessons', () => {
  it('lists the active lessons strongest first, with the open question side by side', async () => {
    const { app, fixture } = setUp();
    const list = await getJson<{
      lessons: Summary[];
      questions: { text: string; lessons: Summary[] }[];
      facets: {
        kinds: Record<string, number>;
        states: Record<string, number>;
        projects: Record<string, number>;
      };
    }>(app, '/api/lessons');
    const { ids } = fixture;
    expect(list.lessons.map((lesson) => lesson.id)).toEqual([ids.pnpm, ids.lint, ids.feetA, ids.feetB]);
    expect(list.lessons.every((lesson) => lesson.state === 'active')).toBe(true);
    expect(list.questions).toHaveLength(1);
    expect(list.questions[0]!.lessons.map((lesson) => lesson.id)).toEqual([ids.feetA, ids.feetB]);
    expect(list.questions[0]!.lessons.every((lesson) => lesson.validity === 'contradicted')).toBe(true);
    expect(list.questions[0]!.text).toContain('open question');
    expect(list.facets.states).toEqual({ active: 4, archived: 1, pending_review: 1 });
    expect(list.facets.projects).toEqual({ personal: 3, '/home/maya/code/tidepool': 3 });
  });

  it('filters by kind, project and state', async () => {
    const { app, fixture } = setUp();
    const ids = (list: { lessons: Summary[] }) => list.lessons.map((lesson) => lesson.id);
    expect(ids(await getJson(app, '/api/lessons?kind=error'))).toEqual([fixture.ids.lint]);
    expect(ids(await getJson(app, '/api/lessons?project=personal&state=all')).sort()).toEqual(
      [fixture.ids.pnpm, fixture.ids.archived, fixture.ids.received].sort(),
    );
    expect(ids(await getJson(app, '/api/lessons?state=archived'))).toEqual([fixture.ids.archived]);
    expect(ids(await getJson(app, '/api/lessons?state=pending_review'))).toEqual([fixture.ids.received]);
    expect((await app.request('/api/lessons?kind=opinion', { headers: authorized })).status).toBe(400);
    expect((await app.request('/api/lessons?state=gone', { headers: authorized })).status).toBe(400);
  });

  it('opens a lesson down to the words that taught it and the place in the archived transcript', async () => {
    const { app, fixture } = setUp();
    const detail = await getJson<{
      lesson: Summary;
      sources: {
        id: number;
        said: string;
        agentBefore: string;
        session: string;
        file: string;
        line: number;
        archive: string;
      }[];
      predictions: { state: string; episode: unknown }[];
      history: { action: string; strength: number }[];
      chart: { x: { values: string[] }; plotted: { values: number[] }[] };
    }>(app, `/api/lessons/${fixture.ids.pnpm}`);
    expect(detail.lesson).toMatchObject({ id: fixture.ids.pnpm, origin: 'self', validity: 'current' });
    expect(detail.sources).toEqual([
      expect.objectContaining({
        id: fixture.ids.pnpmSource,
        said: "it's pnpm in this repo",
        agentBefore: "I'll install zod with npm.",
        session: 's1-tidepool',
        file: '/home/maya/.claude/projects/-home-maya-code-tidepool/s1.jsonl',
        line: 42,
        archive: 'raw/claude-code/s1-tidepool/s1.g0.jsonl.gz',
      }),
    ]);
    expect(detail.predictions.map((prediction) => prediction.state)).toEqual(['confirmed', 'open']);
    // Learned at 1, confirmed +0.5 six days later (less six days of decay), then now.
    expect(detail.history.map((point) => point.action)).toEqual(['add', 'confirm', 'now']);
    expect(detail.history[0]!.strength).toBe(1);
    expect(detail.history[1]!.strength).toBeCloseTo(1 * 0.5 ** (6 / 45) + 0.5, 3);
    expect(detail.chart.x.values).toHaveLength(3);
    expect(detail.chart.plotted[0]!.values).toEqual(detail.history.map((point) => point.strength));
  });

  it('shows the relations from both sides, and who confirmed a received lesson', async () => {
    const { app, fixture } = setUp();
    const a = await getJson<{
      relations: { kind: string; direction: string; otherId: number; actor: string }[];
    }>(app, `/api/lessons/${fixture.ids.feetA}`);
    expect(a.relations).toEqual([
      expect.objectContaining({
        kind: 'refutes',
        direction: 'to',
        otherId: fixture.ids.feetB,
        actor: 'person',
      }),
    ]);
    const b = await getJson<{ relations: { direction: string; otherId: number }[] }>(
      app,
      `/api/lessons/${fixture.ids.feetB}`,
    );
    expect(b.relations).toEqual([expect.objectContaining({ direction: 'from', otherId: fixture.ids.feetA })]);
    const received = await getJson<{ lesson: Summary; sources: unknown[]; history: { action: string }[] }>(
      app,
      `/api/lessons/${fixture.ids.received}`,
    );
    expect(received.lesson.origin).toBe(fixture.received.origin);
    expect(received.sources).toEqual([]);
  });

  it('replays an archived lesson from its audit: failed, then archived at the value it fell to', async () => {
    const { app, fixture } = setUp();
    const detail = await getJson<{ history: { action: string; strength: number }[] }>(
      app,
      `/api/lessons/${fixture.ids.archived}`,
    );
    expect(detail.history.map((point) => point.action)).toEqual(['add', 'fail', 'archive', 'now']);
    expect(detail.history[1]!.strength).toBeCloseTo(1 * 0.5 ** (15 / 45) - 0.5, 3);
    expect(detail.history[2]!.strength).toBe(0.1);
    expect(detail.history[3]!.strength).toBe(0.1);
  });

  it('answers 404 for a lesson it does not hold and 400 for one that is not an id', async () => {
    const { app } = setUp();
    expect((await app.request('/api/lessons/999', { headers: authorized })).status).toBe(404);
    expect((await app.request('/api/lessons/abc', { headers: authorized })).status).toBe(400);
  });
});

describe('the veto', () => {
  const veto = (app: Hono, id: number, body: unknown, headers: Record<string, string> = {}) =>
    app.request(`/api/lessons/${id}/forget`, {
      method: 'POST',
      headers: { ...authorized, 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('needs a POST with the confirmation in a JSON body, and changes nothing without it', async () => {
    const { app, fixture } = setUp();
    const id = fixture.ids.pnpm;
    expect((await veto(app, id, {})).status).toBe(400);
    expect((await veto(app, id, { confirm: 'yes' })).status).toBe(400);
    expect(
      (await veto(app, id, 'confirm=true', { 'content-type': 'application/x-www-form-urlencoded' })).status,
    ).toBe(415);
    expect((await veto(app, id, '{not json')).status).toBe(400);
    expect((await app.request(`/api/lessons/${id}/forget`, { headers: authorized })).status).toBe(404);
    expect((await veto(app, 999, { confirm: true })).status).toBe(404);
    expect(listLessons(fixture.store.db).every((lesson) => lesson.vetoedAt === null)).toBe(true);
  });

  it('is the same tombstone as `remem forget`, and rewrites lessons.jsonl', async () => {
    const { app, fixture } = setUp();
    const id = fixture.ids.pnpm;
    const response = await veto(app, id, { confirm: true });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { vetoed: { id: number; hash: string }[] };
    expect(body.vetoed.map((lesson) => lesson.id)).toEqual([id]);
    const lesson = listLessons(fixture.store.db).find((candidate) => candidate.id === id)!;
    expect(lesson.vetoedAt).toBe(NOW);
    expect(getTombstone(fixture.store.db, lesson.hash)?.reason).toContain('vetoed by the owner');
    const audit = fixture.store.db
      .prepare("SELECT actor FROM audit WHERE action = 'veto' AND lesson_id = ?")
      .all(id);
    expect(audit).toEqual([{ actor: 'person' }]);
    const file = join(fixture.home, 'lessons.jsonl');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).not.toContain(lesson.hash);
    const after = await getJson<{ lessons: Summary[] }>(app, '/api/lessons');
    expect(after.lessons.map((row) => row.id)).not.toContain(id);
    const again = (await (await veto(app, id, { confirm: true })).json()) as { vetoed: unknown[] };
    expect(again.vetoed).toEqual([]);
  });
});

describe('search', () => {
  it('ranks lessons and episodes with recall scoring and touches nothing', async () => {
    const { app, fixture } = setUp();
    const before = fixture.store.db
      .prepare('SELECT id, strength, touched_at, decayed_at FROM lessons ORDER BY id')
      .all();
    const episodesBefore = fixture.store.db
      .prepare('SELECT id, strength, touched_at FROM episodes ORDER BY id')
      .all();
    const answer = await getJson<{
      space: string;
      hits: { type: string; id: number; score: number; components: Record<string, number> }[];
    }>(app, '/api/search?q=pnpm%20in%20this%20repo');
    expect(answer.space).toBe('hashed');
    expect(answer.hits.length).toBeGreaterThan(0);
    const types = new Set(answer.hits.map((hit) => hit.type));
    expect(types).toEqual(new Set(['lesson', 'episode']));
    expect(answer.hits.slice(0, 2).map((hit) => `${hit.type}:${hit.id}`)).toContain(
      `lesson:${fixture.ids.pnpm}`,
    );
    for (const hit of answer.hits) {
      const { relevance, recency, strength } = hit.components as {
        relevance: number;
        recency: number;
        strength: number;
      };
      expect(hit.score).toBeCloseTo(0.6 * relevance + 0.25 * recency + 0.15 * strength, 6);
    }
    // The archived lesson is the owner's to find, though no agent would be shown it.
    const archived = await getJson<{ hits: { type: string; id: number }[] }>(
      app,
      '/api/search?q=unit%20tests%20are%20enough',
    );
    expect(archived.hits.map((hit) => `${hit.type}:${hit.id}`)).toContain(`lesson:${fixture.ids.archived}`);
    expect(
      fixture.store.db.prepare('SELECT id, strength, touched_at, decayed_at FROM lessons ORDER BY id').all(),
    ).toEqual(before);
    expect(
      fixture.store.db.prepare('SELECT id, strength, touched_at FROM episodes ORDER BY id').all(),
    ).toEqual(episodesBefore);
  });

  it('wants a query', async () => {
    const { app } = setUp();
    expect((await app.request('/api/search', { headers: authorized })).status).toBe(400);
    expect((await app.request('/api/search?q=%20', { headers: authorized })).status).toBe(400);
    expect((await app.request('/api/search?q=x&k=500', { headers: authorized })).status).toBe(400);
  });
});

describe('the morning report, the tally and the review queue', () => {
  it('gives the last night in the words of `remem report` and the tally for the owner', async () => {
    const { app } = setUp();
    const view = await getJson<{
      at: string;
      text: string;
      tally: { kind: string; answer: string; count: number }[];
    }>(app, '/api/report');
    expect(view.at).toBe('2026-03-29T04:00:00.000Z');
    expect(view.text).toContain('# Morning report, 2026-03-29');
    expect(view.text).toContain('## Learned (1)');
    expect(view.tally).toEqual([
      { kind: 'offer', answer: 'approved', count: 1 },
      { kind: 'question', answer: 'unanswered', count: 1 },
    ]);
  });

  it('lists what waits for review and every received lesson with its commons state; approving is not here', async () => {
    const { app, fixture } = setUp();
    const view = await getJson<{
      queue: Summary[];
      received: {
        lesson: Summary;
        commons: { state: string; confirmations: number; confirmers: string[]; publishers: string[] };
      }[];
      howToApprove: string[];
    }>(app, '/api/review');
    expect(view.queue.map((lesson) => lesson.id)).toEqual([fixture.ids.received]);
    expect(view.received).toHaveLength(1);
    expect(view.received[0]!.commons).toMatchObject({
      state: 'candidate',
      confirmations: 1,
      confirmers: [fixture.received.confirmer],
      publishers: [fixture.received.origin],
    });
    expect(view.howToApprove).toContain('remem review approve ID');
    for (const method of ['POST', 'PUT']) {
      const response = await app.request(`/api/lessons/${fixture.ids.received}/approve`, {
        method,
        headers: authorized,
      });
      expect(response.status).toBe(404);
    }
  });
});

describe('the memory over time', () => {
  it('charts the measures with one point per week, and the holdout with its counts and intervals', async () => {
    const { app } = setUp();
    const series = await getJson<{
      charts: { id: string; x: { values: string[] }; plotted: { values: (number | null)[] }[] }[];
      primes: { shown: { n: number; k: number; low: number; high: number }; heldOut: { n: number } };
    }>(app, '/api/series');
    const chart = (id: string) => series.charts.find((candidate) => candidate.id === id)!;
    // Predictions made in the weeks of 2 March (two) and 9 March (two).
    expect(chart('prediction-accuracy').x.values).toEqual(['2026-03-02', '2026-03-09']);
    expect(chart('prediction-accuracy').plotted[0]!.values).toEqual([50, 100]);
    expect(chart('surprises-per-session').x.values).toEqual(['2026-03-02', '2026-03-09']);
    expect(chart('repeats').plotted).toHaveLength(2);
    expect(chart('primes').x.values).toEqual(['Shown', 'Held out']);
    expect(series.primes.shown.n).toBe(1);
    expect(series.primes.heldOut.n).toBe(1);
  });
});

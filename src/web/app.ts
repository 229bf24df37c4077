import { type Handler, Hono } from 'hono';
import { z } from 'zod';
import { type Config, guard, JSON_TYPES, LOOPBACK_NAMES, RememError, requireToken } from '../core/index.ts';
import { countEpisodesByKind, getLesson, type Store } from '../store/index.ts';
import { forget, writeLessonsFile } from '../truth/index.ts';
import { readAsset } from './assets.ts';
import { lessonDetail } from './detail.ts';
import { lessonStates, listLessonRows } from './lessons.ts';
import { pageHeaders } from './page-headers.ts';
import { morningView } from './report.ts';
import { reviewView } from './review.ts';
import { searchMemory } from './search.ts';
import { memorySeries } from './series.ts';
import { strengthChart } from './strength.ts';

export interface WebDeps {
  store: Store;
  config: Config;
  /** The bearer token every JSON route requires (REMEM_HOME/token). */
  token: string;
  now(): string;
  /** Host names the view answers to (DNS rebinding: a page elsewhere cannot reach it by another name). */
  hosts?: string[];
}

const lessonQuery = z.object({
  kind: z.enum(['error', 'correction', 'surprise']).optional(),
  project: z.string().min(1).max(4096).optional(),
  state: z.enum([...lessonStates, 'all']).optional(),
});

const searchQuery = z.object({
  q: z.string().trim().min(1, 'q is required').max(1000),
  k: z.coerce.number().int().min(1).max(50).default(20),
});

/** The veto needs the person's yes in the body: a stray POST with the token alone vetoes nothing. */
const vetoBody = z.object({ confirm: z.literal(true) });

const lessonId = z.string().regex(/^\d{1,12}$/);

function problem(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ');
}

/**
 * The local web view: the memory as it is, for its owner. `/` and `/assets/*` are the page (no data); every
 * route under `/api` wants the bearer token. It answers only to local host names and origins. It reads the
 * store without touching what it shows, and writes one thing: the owner's veto. Nothing here approves a lesson.
 */
export function createWebApp(deps: WebDeps): Hono {
  const { store, config } = deps;
  const app = new Hono();
  app.use(
    '*',
    guard({
      hosts: deps.hosts ?? LOOPBACK_NAMES,
      bodyTypes: JSON_TYPES,
      maxBodyBytes: 16 * 1024,
      maxJsonDepth: config.params.doors.maxJsonDepth,
    }),
  );
  app.use('*', pageHeaders());

  const page: Handler = (c) => {
    const url = new URL(c.req.url);
    // The page's links are relative, so it must be addressed as a folder wherever it is mounted.
    if (!url.pathname.endsWith('/')) return c.redirect(`${url.pathname}/${url.search}`, 308);
    const html = readAsset('index.html')!;
    return c.body(html.body, 200, { 'Content-Type': html.type });
  };
  app.get('/', page);
  // Mounted under /ui, '/' is '/ui'; the folder itself, '/ui/', takes this pattern.
  app.get('/:folder{/?}', page);
  app.get('/assets/*', (c) => {
    const name = c.req.path.slice(c.req.path.indexOf('/assets/') + '/assets/'.length);
    const asset = readAsset(name);
    if (!asset) return c.json({ error: 'not_found', reason: `no asset ${name}` }, 404);
    return c.body(asset.body, 200, { 'Content-Type': asset.type });
  });

  const api = new Hono();
  api.use('*', requireToken(deps.token));

  api.get('/overview', (c) => {
    const { facets, questions } = listLessonRows(store.db, { now: deps.now(), filter: { state: 'all' } });
    const sleep = morningView(store.db);
    return c.json({
      now: deps.now(),
      home: config.home,
      lastSleep: sleep.at,
      lessons: facets.states,
      kinds: facets.kinds,
      projects: facets.projects,
      questions: questions.length,
      episodes: countEpisodesByKind(store.db),
    });
  });

  api.get('/lessons', (c) => {
    const parsed = lessonQuery.safeParse(c.req.query());
    if (!parsed.success) return c.json({ error: 'bad_request', reason: problem(parsed.error) }, 400);
    const { kind, project, state } = parsed.data;
    const filter = {
      ...(kind === undefined ? {} : { kind }),
      ...(project === undefined ? {} : { project }),
      ...(state === undefined ? {} : { state }),
    };
    return c.json(listLessonRows(store.db, { now: deps.now(), filter }));
  });

  api.get('/lessons/:id', (c) => {
    const id = lessonId.safeParse(c.req.param('id'));
    if (!id.success) return c.json({ error: 'bad_request', reason: 'a lesson id is a whole number' }, 400);
    const detail = lessonDetail(store.db, Number(id.data), { now: deps.now(), params: config.params });
    if (!detail) return c.json({ error: 'not_found', reason: `no lesson ${id.data}` }, 404);
    return c.json({ ...detail, chart: strengthChart(detail.lesson.id, detail.history) });
  });

  api.post('/lessons/:id/forget', async (c) => {
    const id = lessonId.safeParse(c.req.param('id'));
    if (!id.success) return c.json({ error: 'bad_request', reason: 'a lesson id is a whole number' }, 400);
    if (!(c.req.header('content-type') ?? '').startsWith('application/json'))
      return c.json({ error: 'bad_request', reason: 'the body must be JSON: {"confirm": true}' }, 415);
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: 'bad_request', reason: 'the body is not JSON' }, 400);
    }
    if (!vetoBody.safeParse(body).success)
      return c.json({ error: 'not_confirmed', reason: 'a veto needs {"confirm": true} in its body' }, 400);
    if (!getLesson(store.db, Number(id.data)))
      return c.json({ error: 'not_found', reason: `no lesson ${id.data}` }, 404);
    const now = deps.now();
    const vetoed = forget(store, id.data, now, 'vetoed by the owner from the web view');
    writeLessonsFile(store, now);
    return c.json({
      vetoed: vetoed.map((lesson) => ({ id: lesson.id, hash: lesson.hash, text: lesson.text })),
    });
  });

  api.get('/series', (c) => c.json(memorySeries(store, { params: config.params, now: deps.now() })));

  api.get('/report', (c) => c.json(morningView(store.db)));

  api.get('/review', (c) => c.json(reviewView(store.db, { now: deps.now(), params: config.params })));

  api.get('/search', async (c) => {
    const parsed = searchQuery.safeParse(c.req.query());
    if (!parsed.success) return c.json({ error: 'bad_request', reason: problem(parsed.error) }, 400);
    return c.json(await searchMemory(store, config, parsed.data.q, { k: parsed.data.k, now: deps.now() }));
  });

  app.route('/api', api);
  app.notFound((c) => c.json({ error: 'not_found', reason: `no route ${c.req.method} ${c.req.path}` }, 404));
  app.onError((error, c) => {
    if (error instanceof RememError) return c.json({ error: error.code, reason: error.message }, 400);
    return c.json({ error: 'internal', reason: error.message }, 500);
  });
  return app;
}

/**
 * Serves the view under `base` of another app (the REST API): its own guard and token check come along. The host
 * app must let `base` through its own bearer check, since a browser opening the page sends no header.
 */
export function mountWebApp(host: Hono, deps: WebDeps, base = '/ui'): void {
  host.route(base, createWebApp(deps));
}

import { createMcpHandler } from '@modelcontextprotocol/server';
import { Hono } from 'hono';
import { type Config, guard, JSON_TYPES, LOOPBACK_NAMES, requireToken } from '../core/index.ts';
import { projectOf } from '../episodes/index.ts';
import { createMcpServer } from '../mcp/index.ts';
import { answerHook, appendSessionLog, parsePayload } from '../prime/index.ts';
import { recall } from '../recall/index.ts';
import type { Store } from '../store/index.ts';
import { appendToInbox } from '../stream/index.ts';
import { showToAgent } from '../truth/index.ts';

export interface ApiDeps {
  store: Store;
  config: Config;
  token: string;
  now(): string;
  /** Host names this server answers to (DNS rebinding: a page elsewhere cannot reach it by another name). */
  hosts?: string[];
  maxBodyBytes?: number;
  /** The folder the server runs in: the project of a remembered event that names none. */
  cwd?: string;
  /** Extra routes served under the same token. */
  mount?: (app: Hono) => void;
  /** Extra routes anyone on this machine may read without the token, by the names in `hosts`. */
  open?: Hono;
  /**
   * Read-only routes for other machines (gossip: records as signed, public by design): no token, and any Host
   * name, since peers reach this memory by names it cannot list. Nothing that needs the token goes here.
   */
  published?: Hono;
}

/**
 * The local REST API: `/health` open, everything else behind the bearer token in REMEM_HOME, answering only
 * to the names in `hosts` (the loopback names unless told) and to no other web origin; `published` routes
 * before all that. Nothing here can approve a lesson.
 */
export function createApiApp(deps: ApiDeps): Hono {
  const app = new Hono();
  // Registered first: a published route answers before the Host check and the token are asked for.
  if (deps.published) app.route('/', deps.published);
  const doors = deps.config.params.doors;
  app.use(
    '*',
    guard({
      hosts: deps.hosts ?? LOOPBACK_NAMES,
      bodyTypes: JSON_TYPES,
      maxBodyBytes: deps.maxBodyBytes ?? doors.maxBodyBytes,
      maxJsonDepth: doors.maxJsonDepth,
    }),
  );
  app.get('/health', (c) => c.json({ ok: true }));
  if (deps.open) app.route('/', deps.open);
  app.use('*', requireToken(deps.token));
  const scopeOf = (project: string | undefined) => ({
    project: projectOf(project ?? deps.config.projectDir),
  });

  app.post('/memory/remember', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: 'bad_request', reason: 'the body is not JSON' }, 400);
    }
    const result = appendToInbox(deps.config.home, body, deps.now(), {
      cwd: deps.config.projectDir ?? deps.cwd ?? null,
    });
    if ('refused' in result) return c.json({ error: 'refused', reason: result.refused }, 422);
    return c.json({ stored: result.stored }, 201);
  });

  app.get('/memory/lessons', (c) => {
    const visible = showToAgent(deps.store.db, {
      now: deps.now(),
      scope: scopeOf(c.req.query('project')),
      moment: 'api',
      session: c.req.query('session') ?? null,
    });
    return c.json({
      lessons: visible.map((item) =>
        item.type === 'lesson'
          ? {
              type: 'lesson',
              hash: item.lesson.hash,
              kind: item.lesson.kind,
              text: item.lesson.text,
              strength: item.lesson.strength,
              layer: item.layer?.level ?? 'personal',
            }
          : { type: 'question', text: item.text, hashes: item.lessons.map((lesson) => lesson.hash) },
      ),
    });
  });

  app.get('/memory/recall', async (c) => {
    const query = c.req.query('q')?.trim();
    if (!query) return c.json({ error: 'bad_request', reason: 'q is required' }, 400);
    const k = Number(c.req.query('k') ?? 5);
    if (!Number.isInteger(k) || k < 1 || k > 50)
      return c.json({ error: 'bad_request', reason: 'k must be a whole number from 1 to 50' }, 400);
    const answer = await recall(deps.store, deps.config, query, {
      k,
      now: deps.now(),
      scope: scopeOf(c.req.query('project')),
      by: { agent: true, session: c.req.query('session')?.slice(0, 200) ?? null },
    });
    return c.json(answer);
  });

  // Claude Code's and Codex's HTTP hooks: the same JSON as `remem prime` reads, the same answer.
  app.post('/hooks/prime', async (c) => {
    const started = performance.now();
    const payload = parsePayload(await c.req.text());
    if ('refused' in payload) return c.json({ error: 'bad_request', reason: payload.refused }, 400);
    try {
      const answer = await answerHook(payload, {
        config: deps.config,
        now: deps.now(),
        db: () => deps.store.db,
      });
      if (answer.log) {
        appendSessionLog(deps.config.home, {
          ...answer.log,
          ms: Math.round(performance.now() - started),
          outcome: answer.output ? 'answered' : 'silent',
        });
      }
      return c.json(answer.output ?? {});
    } catch {
      return c.json({}); // a hook fails open
    }
  });

  const mcp = createMcpHandler(() =>
    createMcpServer({
      store: deps.store,
      config: deps.config,
      now: deps.now,
      project: projectOf(deps.config.projectDir),
    }),
  );
  app.all('/mcp', (c) => mcp.fetch(c.req.raw));
  deps.mount?.(app);
  app.notFound((c) => c.json({ error: 'not_found', reason: `no route ${c.req.method} ${c.req.path}` }, 404));
  app.onError((error, c) => c.json({ error: 'internal', reason: error.message }, 500));
  return app;
}

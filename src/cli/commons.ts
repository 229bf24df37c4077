import { RememError, UsageError } from '../core/index.ts';
import { type Context, defineCommand, type OptionSpec, type OptionsOf, type Output } from './command.ts';
import { serveUntilStopped } from './listen.ts';

const loopbackNames = ['localhost', '127.0.0.1', '::1'];

const commonsOptions = [
  { flags: '--db <url>', description: 'sqlite:PATH (default: REMEM_HOME/commons.db) or postgres://…' },
  {
    flags: '--port <port>',
    description: 'serve: the port',
    parse: 'int',
    range: [0, 65535],
    default: 11437,
  },
  { flags: '--host <host>', description: 'serve: the address to listen on', default: '127.0.0.1' },
  {
    flags: '--allow-host <name>',
    description: 'serve: a host name the server answers to besides --host (a public name); repeatable',
    parse: 'list',
  },
  { flags: '--rate <n>', description: 'serve: writes per token per minute', parse: 'int', default: 60 },
  {
    flags: '--max-connections <n>',
    description: 'serve: open connections at most',
    parse: 'int',
    default: 256,
  },
  { flags: '--any', description: 'token add: a token that may write the file of any origin' },
] as const satisfies readonly OptionSpec[];

export const commonsCommand = defineCommand({
  name: 'commons',
  summary:
    'the commons server: serve [--db URL] [--port P] [--host H]; token add ORIGIN|--any; token list; token revoke ID',
  args: ['<action>', '[rest...]'],
  options: commonsOptions,
  async run(context, args, options) {
    const [action, ...rest] = args;
    const { defaultCommonsDb } = await import('../commons/index.ts');
    const db = options.db ?? defaultCommonsDb(context.config.home);
    if (action === 'serve') {
      if (rest.length > 0) throw new UsageError(`commons serve takes no arguments: ${rest.join(' ')}`);
      await serveCommons(context, db, options);
      return undefined;
    }
    if (action === 'token') return manageTokens(context, db, rest, options.any === true);
    throw new UsageError(`commons: unknown action ${action ?? ''} (serve, token)`);
  },
});

async function serveCommons(
  context: Context,
  db: string,
  options: OptionsOf<typeof commonsOptions>,
): Promise<void> {
  const { openCommonsStore, createCommonsApp } = await import('../commons/index.ts');
  const host = options.host;
  const allowed = options.allowHost ?? [];
  const wildcard = host === '0.0.0.0' || host === '::';
  const hosts = [...(wildcard ? [] : [host]), ...loopbackNames, ...allowed];
  if (wildcard && allowed.length === 0) {
    context.stderr(
      `remem: listening on ${host} answers only to loopback names until --allow-host names others`,
    );
  }
  const store = await openCommonsStore(db);
  const params = context.config.params.commons;
  const app = createCommonsApp({
    store,
    now: context.clock.iso,
    limits: { maxRecords: params.maxRecords, maxBytes: params.maxBytes },
    states: { N: params.confirmations, W_days: params.fadeDays },
    hosts,
    rate: { requests: options.rate, windowMs: 60_000 },
    onError: (error) => context.stderr(`remem commons: ${(error as Error)?.message ?? String(error)}`),
  });
  await serveUntilStopped(
    {
      fetch: app.fetch,
      port: options.port,
      hostname: host,
      // An idle connection is kept longer than a client waits to reuse it (Node's fetch: 4 s, or the hint less
      // 1 s), even a client whose event loop was held a while: closing it first fails that client's next call.
      serverOptions: { requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 65_000 },
      onListening(info) {
        const shown = host.includes(':') ? `[${host}]` : host;
        context.stderr(`remem commons listening on http://${shown}:${info.port} (${store.kind})`);
      },
    },
    {
      closeAll: true,
      ready(server) {
        server.maxConnections = options.maxConnections;
      },
    },
  );
  await store.close();
}

async function manageTokens(context: Context, db: string, rest: string[], any: boolean): Promise<Output> {
  const { openCommonsStore, issueToken } = await import('../commons/index.ts');
  const { isOrigin } = await import('../protocol/index.ts');
  const [verb, target, ...extra] = rest;
  if (extra.length > 0) throw new UsageError(`commons token: unexpected ${extra.join(' ')}`);
  if (verb === 'add') {
    if (any === (target !== undefined)) throw new UsageError('commons token add takes an ORIGIN or --any');
    if (target !== undefined && !isOrigin(target)) {
      throw new UsageError(`an origin is 16 lowercase hex characters: ${target}`);
    }
    const store = await openCommonsStore(db);
    try {
      const issued = await issueToken(store, { origin: target ?? null, now: context.clock.iso() });
      const scope = issued.row.origin === null ? 'any origin' : `${issued.row.origin}.jsonl`;
      return {
        json: { ...issued.row, token: issued.token },
        text: `${issued.token}\n(token ${issued.row.id}, writes ${scope}; shown once: only its hash is kept)`,
      };
    } finally {
      await store.close();
    }
  }
  if (verb === 'list' || verb === 'revoke') {
    if (verb === 'list' && target !== undefined) throw new UsageError('commons token list takes no argument');
    if (verb === 'revoke' && target === undefined) throw new UsageError('commons token revoke takes an ID');
    const store = await openCommonsStore(db);
    try {
      if (verb === 'revoke') {
        if (!(await store.revokeToken(target!, context.clock.iso()))) {
          throw new RememError('no_token', `no live token ${target}`);
        }
        return { json: { id: target, revoked: true }, text: `token ${target} revoked` };
      }
      const tokens = await store.listTokens();
      const lines = tokens.map(
        (token) =>
          `${token.id}  ${token.origin ?? 'any'.padEnd(16)}  ${token.created}${token.revoked ? `  revoked ${token.revoked}` : ''}`,
      );
      return { json: tokens, text: lines.length > 0 ? lines.join('\n') : 'No tokens.' };
    } finally {
      await store.close();
    }
  }
  throw new UsageError(`commons token: unknown action ${verb ?? ''} (add, list, revoke)`);
}

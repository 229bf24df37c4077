import { UsageError } from '../core/index.ts';
import { defineCommand } from './command.ts';
import { serveUntilStopped } from './listen.ts';

const placements = ['moment', 'first', 'last'] as const;

export const proxyCommand = defineCommand({
  name: 'proxy',
  summary: 'a memory proxy in front of any OpenAI- or Anthropic-compatible model server',
  options: [
    {
      flags: '--port <port>',
      description: 'the port on 127.0.0.1',
      parse: 'int',
      range: [0, 65535],
      default: 11435,
    },
    {
      flags: '--openai <url>',
      description: 'the OpenAI-compatible upstream',
      default: 'https://api.openai.com',
    },
    {
      flags: '--anthropic <url>',
      description: 'the Anthropic upstream',
      default: 'https://api.anthropic.com',
    },
    { flags: '--placement <where>', description: 'moment (default), first or last', default: 'moment' },
  ],
  async run(context, _args, options) {
    const placement = options.placement;
    if (!(placements as readonly string[]).includes(placement)) {
      throw new UsageError(`--placement is one of ${placements.join(', ')}`);
    }
    const [proxy, { openStore }, { appendToInbox }, { loadOrCreateToken }] = await Promise.all([
      import('../proxy/index.ts'),
      import('../store/index.ts'),
      import('../stream/index.ts'),
      import('../api/index.ts'),
    ]);
    const store = openStore(context.config.home);
    const now = () => context.clock.iso();
    const memory = { config: context.config, db: store.db, now, cwd: process.cwd() };
    const app = proxy.createProxyApp({
      upstreams: { openai: options.openai, anthropic: options.anthropic },
      placement: placement as (typeof placements)[number],
      inject: (request) => proxy.injectFromMemory(memory, request),
      record: (exchange) => proxy.recordExchange(context.config.home, exchange),
      remember: async (event) => {
        const result = appendToInbox(context.config.home, event, now(), { cwd: memory.cwd });
        return 'refused' in result
          ? { status: 422, body: { error: 'refused', reason: result.refused } }
          : { status: 201, body: { stored: result.stored } };
      },
      // The memory's routes want the token `remem serve` and `remem ui` use; the model routes take none.
      token: loadOrCreateToken(context.config.home),
      limits: {
        maxBodyBytes: context.config.params.doors.proxyMaxBodyBytes,
        maxJsonDepth: context.config.params.doors.maxJsonDepth,
      },
      now,
      onError: (where, error) => context.stderr(`remem proxy: ${where} failed: ${(error as Error).message}`),
    });
    // A client streaming a reply holds its connection open: stopping ends it rather than waiting on it.
    await serveUntilStopped(
      {
        fetch: app.fetch,
        port: options.port,
        hostname: '127.0.0.1',
        onListening(info) {
          context.stderr(`remem proxy: http://127.0.0.1:${info.port} (placement ${placement})`);
        },
      },
      { closeAll: true },
    );
    store.close();
    return undefined;
  },
});

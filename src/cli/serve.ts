import type { CommandSpec } from './command.ts';

export const serveCommand: CommandSpec = {
  name: 'serve',
  summary: 'the local REST API, HTTP hooks and MCP over HTTP, on 127.0.0.1',
  options: [{ flags: '--port <port>', description: 'the port', parse: 'int', default: 7777 }],
  async run(context, _args, options) {
    const [{ createApiApp, loadOrCreateToken }, { serve }, { openStore }] = await Promise.all([
      import('../api/index.ts'),
      import('@hono/node-server'),
      import('../store/index.ts'),
    ]);
    const store = openStore(context.config.home);
    const token = loadOrCreateToken(context.config.home);
    const now = () => context.clock.iso();
    const [{ createGossipRoutes, peersToAnnounce }, { createStoreHolder, loadOrCreateIdentity }] =
      await Promise.all([import('../transport/index.ts'), import('../protocol/index.ts')]);
    // The records this memory holds, its own and others', byte for byte as signed, for peers to pull.
    const holder = createStoreHolder(store, loadOrCreateIdentity(context.config.home), {
      now,
      params: context.config.params,
    });
    const app = createApiApp({
      store,
      config: context.config,
      token,
      now,
      open: createGossipRoutes({ holder, peers: () => peersToAnnounce(store, context.config.peers) }),
    });
    const port = options['port'] as number;
    await new Promise<void>((resolve, reject) => {
      const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
        context.stderr(`remem serve: http://127.0.0.1:${info.port} (token in ${context.config.home}/token)`);
      });
      server.on('error', reject);
      const stop = () => server.close(() => resolve());
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    store.close();
    return undefined;
  },
};

import { UsageError } from '../core/index.ts';
import { defineCommand } from './command.ts';
import { serveUntilStopped } from './listen.ts';

export const serveCommand = defineCommand({
  name: 'serve',
  summary:
    'the local REST API, HTTP hooks and MCP over HTTP, and gossip for peers; on 127.0.0.1 unless --host says',
  options: [
    { flags: '--port <port>', description: 'the port', parse: 'int', range: [0, 65535], default: 7777 },
    {
      flags: '--host <address>',
      description: 'the address to listen on (0.0.0.0: every interface); off loopback, peers can pull gossip',
      default: '127.0.0.1',
    },
    {
      flags: '--allow-host <name>',
      description: 'a host name the token-protected routes answer to besides loopback and --host; repeatable',
      parse: 'list',
    },
  ],
  async run(context, _args, options) {
    const [{ BadHostError, createApiApp, describeReach, loadOrCreateToken, planReach }, { openStore }] =
      await Promise.all([import('../api/index.ts'), import('../store/index.ts')]);
    const reach = (() => {
      try {
        return planReach({ host: options.host, allowHosts: options.allowHost ?? [] });
      } catch (error) {
        if (!(error instanceof BadHostError)) throw error;
        const flag = error.given === 'listen' ? '--host' : '--allow-host';
        throw new UsageError(
          `${flag} takes a host name or an IP address, without scheme or port: ${error.value}`,
        );
      }
    })();
    const store = openStore(context.config.home);
    const token = loadOrCreateToken(context.config.home);
    const now = () => context.clock.iso();
    const [{ createGossipRoutes, peersToAnnounce }, { loadOrCreateIdentity }, { createStoreHolder }] =
      await Promise.all([
        import('../transport/index.ts'),
        import('../protocol/index.ts'),
        import('../share/index.ts'),
      ]);
    // The records this memory holds, its own and others', byte for byte as signed, for peers to pull.
    const holder = createStoreHolder(store, loadOrCreateIdentity(context.config.home), {
      now,
      params: context.config.params,
    });
    const gossip = createGossipRoutes({ holder, peers: () => peersToAnnounce(store, context.config.peers) });
    const app = createApiApp({
      store,
      config: context.config,
      token,
      now,
      cwd: process.cwd(),
      hosts: reach.hosts,
      // Listening on loopback only, gossip keeps the Host check: no page elsewhere reads it by rebinding a name.
      ...(reach.beyondLoopback ? { published: gossip } : { open: gossip }),
    });
    const port = options.port;
    try {
      await serveUntilStopped({
        fetch: app.fetch,
        port,
        hostname: reach.listen,
        onListening(info) {
          const shown = reach.listen.includes(':') ? `[${reach.listen}]` : reach.listen;
          context.stderr(`remem serve: http://${shown}:${info.port} (token in ${context.config.home}/token)`);
          for (const line of describeReach(reach)) context.stderr(`remem serve: ${line}`);
        },
      });
    } finally {
      store.close();
    }
    return undefined;
  },
});

import { defineCommand } from './command.ts';
import { serveUntilStopped } from './listen.ts';

export const uiCommand = defineCommand({
  name: 'ui',
  summary: 'the local web view of the memory, on 127.0.0.1; prints its address with the token',
  options: [
    {
      flags: '--port <port>',
      description: 'the port (0: any free one)',
      parse: 'int',
      range: [0, 65535],
      default: 7778,
    },
  ],
  async run(context, _args, options) {
    const [{ loadOrCreateToken }, { createWebApp }, { openStore }] = await Promise.all([
      import('../api/index.ts'),
      import('../web/index.ts'),
      import('../store/index.ts'),
    ]);
    const store = openStore(context.config.home);
    const token = loadOrCreateToken(context.config.home);
    const app = createWebApp({ store, config: context.config, token, now: () => context.clock.iso() });
    const port = options.port;
    try {
      await serveUntilStopped({
        fetch: app.fetch,
        port,
        hostname: '127.0.0.1',
        onListening(info) {
          const url = `http://127.0.0.1:${info.port}/?token=${token}`;
          context.stdout(context.json ? JSON.stringify({ url, port: info.port }) : url);
          context.stderr('remem ui: open the address above; Ctrl-C stops it');
        },
      });
    } finally {
      store.close();
    }
    return undefined;
  },
});

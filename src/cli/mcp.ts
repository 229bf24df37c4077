import { defineCommand } from './command.ts';

export const mcpCommand = defineCommand({
  name: 'mcp',
  summary: 'the MCP server on stdio: lessons, recall, remember',
  async run(context) {
    const [{ createMcpServer, projectForMcp }, { StdioServerTransport }, { openStore }] = await Promise.all([
      import('../mcp/index.ts'),
      import('@modelcontextprotocol/server/stdio'),
      import('../store/index.ts'),
    ]);
    const store = openStore(context.config.home);
    const server = createMcpServer({
      store,
      config: context.config,
      now: () => context.clock.iso(),
      project: projectForMcp(context.config, process.cwd()),
    });
    const transport = new StdioServerTransport();
    await server.connect(transport);
    await new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.on('end', () => resolve());
    });
    store.close();
    return undefined;
  },
});

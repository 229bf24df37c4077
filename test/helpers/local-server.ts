import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** How a local server answers a request, given its whole body. */
export type LocalHandler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/**
 * HTTP servers on 127.0.0.1 for a test file (the stand-ins for a model server), each closed after its test.
 * `listen` starts one and gives its root URL; `closeAll` ends them early (a server that is down).
 */
export function useLocalServers(): { listen(handle: LocalHandler): Promise<string>; closeAll(): void } {
  const open: Server[] = [];
  const closeAll = () => {
    for (const server of open.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
  };
  afterEach(closeAll);
  return {
    async listen(handle) {
      const server = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        request.on('end', () => handle(request, body, response));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      open.push(server);
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    closeAll,
  };
}

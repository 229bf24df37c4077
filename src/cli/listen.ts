import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RememError } from '../core/index.ts';

/** What a command serves: the app's fetch, where, and what to say once it listens. */
export interface Listening {
  fetch: (request: Request) => Response | Promise<Response>;
  port: number;
  hostname: string;
  serverOptions?: Record<string, unknown>;
  onListening(info: AddressInfo): void;
}

/**
 * The one serve loop of the command line: listens (a port taken or refused is one line, `port_unavailable`), runs
 * until SIGINT or SIGTERM, then closes the server, and, with `closeAll`, the connections it still holds open.
 */
export async function serveUntilStopped(
  listening: Listening,
  options: { closeAll?: boolean; ready?: (server: Server) => void } = {},
): Promise<void> {
  const { serve } = await import('@hono/node-server');
  const server = await new Promise<Server>((resolve, reject) => {
    const started = serve(
      {
        fetch: listening.fetch,
        port: listening.port,
        hostname: listening.hostname,
        ...(listening.serverOptions ? { serverOptions: listening.serverOptions } : {}),
      },
      (info) => {
        started.off('error', reject);
        listening.onListening(info);
        resolve(started as Server);
      },
    ) as Server;
    started.once('error', (error) =>
      reject(
        new RememError(
          'port_unavailable',
          `cannot listen on ${listening.hostname}:${listening.port}: ${error.message}`,
        ),
      ),
    );
  });
  options.ready?.(server);
  await new Promise<void>((resolve) => {
    const stop = () => {
      server.close(() => resolve());
      if (options.closeAll) server.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

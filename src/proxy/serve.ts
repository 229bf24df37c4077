import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

export const DEFAULT_PROXY_PORT = 11435;

/** A proxy listening on a port: where it is, and how to stop it. */
export interface ServedProxy {
  url: string;
  host: string;
  port: number;
  /** Stops listening and ends the connections still open. */
  close(): Promise<void>;
}

/** Serves the app on `host:port` (127.0.0.1:11435 unless told otherwise; port 0 picks a free one). */
export function serveProxy(app: Hono, options: { port?: number; host?: string } = {}): Promise<ServedProxy> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: app.fetch, port: options.port ?? DEFAULT_PROXY_PORT, hostname: host },
      (info) => {
        server.off('error', reject);
        resolve({
          url: `http://${host.includes(':') ? `[${host}]` : host}:${info.port}`,
          host,
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              server.close(() => done());
              if ('closeAllConnections' in server) server.closeAllConnections();
            }),
        });
      },
    );
    server.once('error', reject);
  });
}

import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { rememAsync } from '../helpers/remem.ts';

const tempDir = useTempDirs();
let taken: Server;
let port: number;

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as { port: number }).port;
});

afterAll(() => {
  taken.close();
});

describe('a port another program holds', () => {
  it('remem serve, remem ui and the commons server each say so in one line and exit 1', async () => {
    for (const args of [
      ['serve', '--port', String(port)],
      ['ui', '--port', String(port)],
      ['commons', 'serve', '--port', String(port)],
    ]) {
      const result = await rememAsync(args, { home: tempDir() });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(1);
      expect(result.stderr.trim().split('\n').at(-1)).toMatch(
        new RegExp(`^remem: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`),
      );
    }
  });
});

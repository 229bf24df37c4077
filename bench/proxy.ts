/**
 * What the memory proxy costs: latency added to a request (non-streaming, and to the first streamed
 * byte) against the same local upstream called directly in the same run, requests interleaved; and
 * the proxy process's heap and RSS before 10,000 requests and after each quarter of them. The
 * upstream and the proxy each run in a process of their own (this file, forked with `--serve`).
 * Arguments: rounds of the latency comparison (1000), requests for the memory count (10000).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: 'gpt-5',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

const STREAM = [
  chunk({ role: 'assistant', content: '' }),
  ...'The build failed because the lock file was missing from the workspace root.'
    .split(' ')
    .map((word) => chunk({ content: `${word} ` })),
  chunk({}, 'stop'),
  'data: [DONE]\n\n',
];

const JSON_ANSWER = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1700000000,
  model: 'gpt-5',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'The build failed because the lock file was missing.' },
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 900, completion_tokens: 12, total_tokens: 912 },
});

/** A chat request of about 4 KB: a system prompt and a few turns; `deploy` makes the stand-in memory inject. */
function requestBody(stream: boolean, inject: boolean, turn: number): string {
  const system = 'You are a careful coding agent working in a TypeScript repository. '.repeat(16);
  const messages = [
    { role: 'system', content: system },
    { role: 'user', content: `Turn ${turn}: the tests fail after the change to the config loader.` },
    { role: 'assistant', content: 'I will look at the loader and the failing test first. '.repeat(8) },
    { role: 'user', content: 'Go ahead, and show me the diff before you commit. '.repeat(6) },
    { role: 'assistant', content: 'Here is the diff; the loader now reads the file once. '.repeat(8) },
    { role: 'user', content: inject ? 'Good. Now deploy it to staging.' : 'Good. Now run the whole suite.' },
  ];
  return JSON.stringify({ model: 'gpt-5', messages, stream });
}

function serveUpstream(): void {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (data: Buffer) => chunks.push(data));
    req.on('end', () => {
      const stream = Buffer.concat(chunks).includes('"stream":true');
      if (!stream) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON_ANSWER);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const [first, ...rest] = STREAM;
      res.write(first);
      setImmediate(() => {
        for (const event of rest) res.write(event);
        res.end();
      });
    });
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
}

async function serveProxyProcess(upstream: string): Promise<void> {
  const [{ createProxyApp }, { serve }] = await Promise.all([
    import('../src/proxy/index.ts'),
    import('@hono/node-server'),
  ]);
  let recorded = 0;
  const app = createProxyApp({
    upstreams: { openai: upstream, anthropic: upstream },
    placement: 'moment',
    inject: ({ messages }) =>
      messages.at(-1)?.text.includes('deploy')
        ? {
            text: 'Remembered: staging deploys need the migration flag.',
            lessonHashes: ['h'],
            reason: 'moment',
          }
        : null,
    record: () => {
      recorded++;
    },
  });
  process.on('message', (message) => {
    if (message !== 'memory') return;
    // Twice: a full collection can leave what the first one freed to a second pass.
    globalThis.gc?.();
    globalThis.gc?.();
    const { heapUsed, rss, arrayBuffers } = process.memoryUsage();
    process.send?.({ heapUsed, rss, arrayBuffers, recorded });
  });
  serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.send?.({ port: info.port }));
}

function start(role: 'upstream' | 'proxy', upstream = ''): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(here, ['--serve', role, upstream], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => {
      resolve({ child, url: `http://127.0.0.1:${(message as { port: number }).port}` });
    });
    child.once('exit', (code) => reject(new Error(`the ${role} process exited with ${code}`)));
  });
}

interface Memory {
  heapUsed: number;
  rss: number;
  arrayBuffers: number;
  recorded: number;
}

function memoryOf(child: ChildProcess): Promise<Memory> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as Memory));
    child.send('memory');
  });
}

/** Milliseconds to the whole answer (non-streaming) or to the first body byte (streaming). */
async function timeRequest(url: string, body: string, stream: boolean): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body,
  });
  if (!stream) {
    await response.arrayBuffer();
    return performance.now() - started;
  }
  const reader = response.body!.getReader();
  await reader.read();
  const elapsed = performance.now() - started;
  while (!(await reader.read()).done) {}
  return elapsed;
}

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

const ms = (n: number): string => `${n.toFixed(3)} ms`;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

interface Kind {
  label: string;
  stream: boolean;
  inject: boolean;
  direct: number[];
  proxied: number[];
  added: number[];
}

/** One direct and one proxied request of each kind per round, so load and warmth fall on all alike. */
async function compare(direct: string, proxy: string, rounds: number): Promise<Kind[]> {
  const kind = (label: string, stream: boolean, inject: boolean): Kind => ({
    label,
    stream,
    inject,
    direct: [],
    proxied: [],
    added: [],
  });
  const kinds = [
    kind('non-streaming, passed unchanged', false, false),
    kind('non-streaming, memory injected', false, true),
    kind('first streamed byte, unchanged', true, false),
    kind('first streamed byte, injected', true, true),
  ];
  for (let round = 0; round < rounds; round++) {
    for (const row of kinds) {
      const body = requestBody(row.stream, row.inject, round);
      // Alternate which goes first, so neither always meets a warmer connection.
      const proxyFirst = round % 2 === 1;
      const first = await timeRequest(proxyFirst ? proxy : direct, body, row.stream);
      const second = await timeRequest(proxyFirst ? direct : proxy, body, row.stream);
      const [viaDirect, viaProxy] = proxyFirst ? [second, first] : [first, second];
      row.direct.push(viaDirect);
      row.proxied.push(viaProxy);
      row.added.push(viaProxy - viaDirect);
    }
  }
  return kinds;
}

export async function run(args: string[]): Promise<void> {
  const samples = Number(args[0] ?? 1000);
  const total = Number(args[1] ?? 10_000);
  const upstream = await start('upstream');
  const proxy = await start('proxy', upstream.url);
  try {
    for (let i = 0; i < 1000; i++) {
      await timeRequest(upstream.url, requestBody(i % 2 === 0, i % 3 === 0, i), i % 2 === 0);
      await timeRequest(proxy.url, requestBody(i % 2 === 0, i % 3 === 0, i), i % 2 === 0);
    }
    const kinds = await compare(upstream.url, proxy.url, samples);
    console.log(`added latency, ${samples} interleaved rounds, ~4 KB chat requests (median / p99)`);
    console.log('  (added: the median of the paired differences / the p99s apart)');
    for (const { label, direct, proxied, added } of kinds) {
      console.log(
        `  ${label.padEnd(32)} direct ${ms(quantile(direct, 0.5))} / ${ms(quantile(direct, 0.99))}` +
          `   proxy ${ms(quantile(proxied, 0.5))} / ${ms(quantile(proxied, 0.99))}` +
          `   added ${ms(quantile(added, 0.5))} / ${ms(quantile(proxied, 0.99) - quantile(direct, 0.99))}`,
      );
    }

    const concurrency = 8;
    const load = async (count: number): Promise<void> => {
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < count) {
          const i = next++;
          const stream = i % 2 === 0;
          await timeRequest(proxy.url, requestBody(stream, i % 4 < 2, i), stream);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      await new Promise((resolve) => setTimeout(resolve, 100));
    };
    // The same load once first, so sockets and buffers for eight at a time exist before the count.
    await load(1000);
    console.log(
      `\nproxy process memory over ${total.toLocaleString('en-US')} requests (${concurrency} at a time, after GC)`,
    );
    console.log('  requests   heap used   array buffers   RSS');
    const row = (count: number, memory: Memory): void =>
      console.log(
        `  ${count.toLocaleString('en-US').padStart(8)}   ${mb(memory.heapUsed).padStart(9)}   ` +
          `${mb(memory.arrayBuffers).padStart(13)}   ${mb(memory.rss).padStart(8)}`,
      );
    const before = await memoryOf(proxy.child);
    row(0, before);
    let after = before;
    for (let quarter = 1; quarter <= 4; quarter++) {
      await load(total / 4);
      after = await memoryOf(proxy.child);
      row((total / 4) * quarter, after);
    }
    console.log(
      `  change     ${mb(after.heapUsed - before.heapUsed).padStart(9)}   ` +
        `${mb(after.arrayBuffers - before.arrayBuffers).padStart(13)}   ${mb(after.rss - before.rss).padStart(8)}`,
    );
    console.log(`  exchanges recorded  ${(after.recorded - before.recorded).toLocaleString('en-US')}`);
  } finally {
    upstream.child.kill();
    proxy.child.kill();
  }
}

if (process.argv[2] === '--serve') {
  if (process.argv[3] === 'upstream') serveUpstream();
  else await serveProxyProcess(process.argv[4] ?? '');
}

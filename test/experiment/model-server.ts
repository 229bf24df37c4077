import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { KeptReply } from '../../src/experiment/index.ts';
import { repoRoot } from '../helpers/remem.ts';

/** A chat request as the model server received it. */
export interface ChatRequest {
  path: string;
  authorization: string | undefined;
  model: string;
  temperature: number;
  messages: { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }[];
  tools: { function: { name: string } }[];
}

/** What the scripted model answers one request with. */
export type Answer =
  | { content: string; toolCalls?: { name: string; arguments: Record<string, unknown> }[] }
  | { status: number; body: string }
  /** Answer after a delay. */
  | { delayMs: number; answer: Answer }
  /** Close the connection without answering. */
  | { hangUp: true };

export type Script = (request: ChatRequest, index: number) => Answer;

export interface ModelServer {
  /** The base URL, ending in /v1, as a user passes it to --base-url. */
  url: string;
  requests: ChatRequest[];
  /** Swap the script, as if the server were restarted with another behaviour. */
  script: Script;
  close(): Promise<void>;
}

const open: Server[] = [];
afterEach(async () => {
  await Promise.all(
    open.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A local server speaking the OpenAI chat completions API with scripted replies: the stand-in for a model. */
export async function startModelServer(script: Script): Promise<ModelServer> {
  const requests: ChatRequest[] = [];
  const state: ModelServer = { url: '', requests, script, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const request: ChatRequest = {
        path: req.url ?? '',
        authorization: req.headers.authorization,
        model: String(body['model']),
        temperature: Number(body['temperature']),
        messages: (body['messages'] as ChatRequest['messages']) ?? [],
        tools: (body['tools'] as ChatRequest['tools']) ?? [],
      };
      const index = requests.length;
      requests.push(request);
      const answer = (reply: Answer): void => {
        if ('hangUp' in reply) {
          req.socket.destroy();
          return;
        }
        if ('delayMs' in reply) {
          setTimeout(() => {
            if (!res.destroyed) answer(reply.answer);
          }, reply.delayMs);
          return;
        }
        if ('status' in reply) {
          res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
          return;
        }
        const toolCalls = (reply.toolCalls ?? []).map((call, n) => ({
          id: `call_${index}_${n}`,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${index}`,
            object: 'chat.completion',
            model: request.model,
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: reply.content,
                  ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
                },
                finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
              },
            ],
          }),
        );
      };
      answer(state.script(request, index));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(server);
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

export const REMINDER_OPENING = 'Your reply ends by handing the next step back to the person.';

/** The last message the person (or the hook) sent. */
export function lastUser(request: ChatRequest): string {
  return [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
}

/**
 * An agent that hands back until it is reminded: an offer first, the work done after the second turn. Where
 * asking is right (the person says only they have what is needed), it asks on odd runs and acts on even ones.
 */
export const handsBackUntilReminded: Script = (request) => {
  const said = lastUser(request);
  if (said.startsWith(REMINDER_OPENING))
    return { content: 'Done: I did it myself and pushed the result to main.' };
  return { content: 'Everything is ready. Want me to go ahead and do it?' };
};

export interface Spawned {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/**
 * Runs the built `remem` without blocking this process: the model server answering it lives here. (The shared
 * helper waits synchronously, which would starve the server.)
 */
export function spawnRemem(args: string[], options: { home: string; now?: string }): Spawned {
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'remem.js'), ...args], {
    cwd: repoRoot,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: join(options.home, 'user'),
      REMEM_HOME: options.home,
      ...(options.now ? { REMEM_NOW: options.now } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

export function runRemem(args: string[], options: { home: string; now?: string }) {
  return spawnRemem(args, options).done;
}

/** Every kept line of an experiment, parsed; a line that does not parse fails the test. */
export function keptLines(home: string, experiment: string): KeptReply[] {
  const dir = join(home, 'experiments', experiment);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) =>
      readFileSync(join(dir, name), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as KeptReply),
    );
}

export function behaviour(url: string, extra: string[] = []): string[] {
  return [
    'experiment',
    'behaviour',
    '--base-url',
    url,
    '--model',
    'm1',
    '--runs',
    '1',
    '--situations',
    '3',
    ...extra,
  ];
}

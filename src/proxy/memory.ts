import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../core/index.ts';
import { projectOf } from '../episodes/index.ts';
import { answerHook, appendSessionLog, type HookAnswer, type HookPayload } from '../prime/index.ts';
import { promptBlock } from '../render/index.ts';
import type { Db } from '../store/index.ts';
import type { ProxyLogLine } from '../stream/index.ts';
import { atSessionStart, hashesOf, showToAgent, startBudget } from '../truth/index.ts';
import type { Exchange, Injection, InjectRequest } from './types.ts';

export interface ProxyMemoryDeps {
  config: Config;
  db: Db;
  now(): string;
  /** The project the proxied conversations belong to (the folder `remem proxy` was started in). */
  cwd: string;
}

function logged(deps: ProxyMemoryDeps, answer: HookAnswer, started: number): void {
  if (!answer.log) return;
  appendSessionLog(deps.config.home, {
    ...answer.log,
    ms: Math.round(performance.now() - started),
    outcome: answer.output ? 'answered' : 'silent',
  });
}

/**
 * What the proxy puts in front of a model. At the moment (the default): the lessons the latest user message
 * meets, as the prompt hook would put them; and the end-of-turn reminder when the previous assistant message
 * handed back, as the Stop hook would. Up front (`first`, `last`): the whole memory as one block.
 * The hooks' own rules decide, the holdout included, so every surface primes alike.
 */
export async function injectFromMemory(
  deps: ProxyMemoryDeps,
  request: InjectRequest,
): Promise<Injection | null> {
  const now = deps.now();
  if (request.placement !== 'moment') {
    // The whole memory up front is what session start loads.
    const project = projectOf(deps.cwd);
    const visible = showToAgent(
      deps.db,
      { now, scope: { project }, moment: 'proxy', session: request.session },
      atSessionStart(startBudget(deps.db, project, deps.config.params.render)),
    );
    const text = promptBlock(visible);
    if (!text) return null;
    return { text, lessonHashes: hashesOf(visible), reason: request.placement };
  }
  const messages = request.messages;
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  if (!lastUser) return null;
  const lastUserIndex = messages.lastIndexOf(lastUser);
  const previousReply = messages
    .slice(0, lastUserIndex)
    .reverse()
    .find((message) => message.role === 'assistant');
  const hookDeps = { config: deps.config, now, db: () => deps.db };
  const base: Omit<HookPayload, 'event'> = {
    session: request.session,
    cwd: deps.cwd,
    transcriptPath: null,
    prompt: lastUser.text,
    lastAssistantMessage: previousReply?.text ?? '',
    stopHookActive: false,
    toolName: '',
    toolInput: null,
  };
  const started = performance.now();
  const prompt = await answerHook({ ...base, event: 'UserPromptSubmit' }, hookDeps);
  logged(deps, prompt, started);
  const reminder = previousReply ? await answerHook({ ...base, event: 'Stop' }, hookDeps) : null;
  if (reminder) logged(deps, reminder, started);
  const parts: string[] = [];
  const hashes: string[] = [];
  for (const answer of [prompt, reminder]) {
    if (!answer?.said) continue;
    parts.push(answer.said);
    hashes.push(...(answer.log?.lessonHashes ?? []));
  }
  if (parts.length === 0) return null;
  return { text: parts.join('\n\n'), lessonHashes: hashes, reason: reminder?.said ? 'reminder' : 'moment' };
}

/**
 * Each exchange that passed goes to the raw stream as a proxy log the ingest reads: the person's messages
 * since the model's last reply, and the reply. A correction made to any model is a lesson for all of them.
 */
export function recordExchange(home: string, exchange: Exchange): void {
  const lastReply = exchange.messages.map((message) => message.role).lastIndexOf('assistant');
  const user = exchange.messages
    .slice(lastReply + 1)
    .filter((message) => message.role === 'user')
    .map((message) => message.text);
  const line: ProxyLogLine = {
    at: exchange.endedAt,
    session: exchange.session,
    api: exchange.api,
    ...(exchange.model ? { model: exchange.model } : {}),
    user,
    reply: exchange.reply,
    partial: exchange.partial,
    ...(exchange.malformed ? { malformed: exchange.malformed } : {}),
  };
  const folder = join(home, 'proxy');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const name = exchange.session.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || 'session';
  appendFileSync(join(folder, `${name}.jsonl`), `${JSON.stringify(line)}\n`, { mode: 0o600 });
}

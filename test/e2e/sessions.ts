import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** One step of a session, in the words a person would use to tell it. */
export type Step =
  | { user: string }
  | { agent: string }
  | { call: { id: string; name: string; input: Record<string, unknown> } }
  | { refused: string }
  | { failed: string; text: string }
  /** `plain`: Claude Code's marker of a stop while the agent wrote, not while a tool ran. */
  | { interrupted: true; plain?: boolean };

const REFUSED =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

/**
 * A Claude Code transcript of `steps` (agent-formats §1), a minute apart from `start`, written where Claude Code
 * keeps the project's sessions under `claudeDir`. `parents: false` leaves `parentUuid` out of every line, as a
 * file written by another tool may; `uuids: false` leaves out `uuid` too.
 */
export function claudeSession(
  claudeDir: string,
  project: string,
  session: string,
  start: string,
  steps: readonly Step[],
  { parents = true, uuids = true }: { parents?: boolean; uuids?: boolean } = {},
): string {
  const folder = join(claudeDir, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(folder, { recursive: true });
  let parent: string | null = null;
  const lines = steps.map((step, index) => {
    const uuid = `${session}-${index}`;
    const base = {
      cwd: project,
      sessionId: session,
      version: '2.1.0',
      isSidechain: false,
      userType: 'external',
      ...(uuids ? { uuid } : {}),
      ...(uuids && parents ? { parentUuid: parent } : {}),
      timestamp: new Date(Date.parse(start) + index * 60_000).toISOString(),
    };
    parent = uuid;
    const assistant = (content: unknown[]) => ({
      ...base,
      type: 'assistant',
      message: { id: `m-${uuid}`, role: 'assistant', model: 'x', content },
    });
    const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
      ...base,
      type: 'user',
      message: { role: 'user', content },
      ...extra,
    });
    if ('user' in step) return user(step.user);
    if ('agent' in step) return assistant([{ type: 'text', text: step.agent }]);
    if ('call' in step) {
      return assistant([
        { type: 'tool_use', id: step.call.id, name: step.call.name, input: step.call.input },
      ]);
    }
    if ('refused' in step) {
      return user([{ type: 'tool_result', tool_use_id: step.refused, is_error: true, content: REFUSED }], {
        toolUseResult: 'User rejected tool use',
      });
    }
    if ('failed' in step) {
      return user([{ type: 'tool_result', tool_use_id: step.failed, is_error: true, content: step.text }]);
    }
    const marker = step.plain
      ? '[Request interrupted by user]'
      : '[Request interrupted by user for tool use]';
    return user([{ type: 'text', text: marker }]);
  });
  const file = join(folder, `${session}.jsonl`);
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return file;
}

/**
 * A Gemini CLI session of `steps`, as its chat recording writes one (docs/formats/gemini-cli.md): a metadata line,
 * then each message whole, written again under the same id when its tool calls are added or end, and a `$set` of
 * `lastUpdated` after each message. Written under `<geminiDir>/tmp/<project hash>/chats/`. Gemini CLI records no
 * interruption, so a step `interrupted` has no Gemini form.
 */
export function geminiSession(
  geminiDir: string,
  projectHash: string,
  session: string,
  start: string,
  steps: readonly Step[],
): string {
  const folder = join(geminiDir, 'tmp', projectHash, 'chats');
  mkdirSync(folder, { recursive: true });
  const at = (index: number) => new Date(Date.parse(start) + index * 60_000).toISOString();
  const records: unknown[] = [
    { sessionId: session, projectHash, startTime: start, lastUpdated: start, kind: 'main' },
  ];
  type Call = { id: string; name: string; args: unknown; status: string; result: unknown; timestamp: string };
  let current: { id: string; type: 'gemini'; content: string; toolCalls: Call[]; timestamp: string } | null =
    null;
  const write = (message: unknown, index: number) => {
    records.push(JSON.parse(JSON.stringify(message)));
    records.push({ $set: { lastUpdated: at(index) } });
  };
  const response = (call: Call, response: Record<string, string>) => [
    { functionResponse: { id: call.id, name: call.name, response } },
  ];
  const settle = (id: string, status: string, error: string) => {
    const call = current?.toolCalls.find((candidate) => candidate.id === id);
    if (!call) throw new Error(`no call ${id} to settle`);
    call.status = status;
    call.result = response(call, { error });
  };
  steps.forEach((step, index) => {
    const id = `${session}-${index}`;
    if ('user' in step) {
      current = null;
      write({ id, timestamp: at(index), type: 'user', content: [{ text: step.user }] }, index);
    } else if ('agent' in step) {
      current = { id, timestamp: at(index), type: 'gemini', content: step.agent, toolCalls: [] };
      write({ ...current, thoughts: [], tokens: null, model: 'gemini-2.5-pro' }, index);
    } else if ('call' in step) {
      current ??= { id, timestamp: at(index), type: 'gemini', content: '', toolCalls: [] };
      const call: Call = {
        id: step.call.id,
        name: step.call.name,
        args: step.call.input,
        status: 'success',
        result: null,
        timestamp: at(index),
      };
      call.result = response(call, { output: '' });
      current.toolCalls.push(call);
      write(current, index);
    } else if ('failed' in step) {
      settle(step.failed, 'error', step.text);
      write(current, index);
    } else if ('refused' in step) {
      settle(step.refused, 'cancelled', '[Operation Cancelled] Reason: User denied execution.');
      write(current, index);
    } else {
      throw new Error('Gemini CLI records no interruption');
    }
  });
  const file = join(folder, `session-${start.slice(0, 16).replace(/:/g, '-')}-${session.slice(0, 8)}.jsonl`);
  writeFileSync(file, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
  return file;
}

export const PNPM =
  'no, use pnpm not npm: this repo is a pnpm workspace and npm install breaks its lockfile every time';
export const FAILURE = [
  'Exit code 1',
  'CACError: Unknown option `--grep`',
  '    at Command.checkUnknownOptions (file:///tmp/p/node_modules/cac/dist/index.mjs:404:17)',
].join('\n');

/**
 * The turns of the lessons fixture session (test/e2e/lessons.test.ts) without the interruption Claude Code writes
 * after a refusal, for telling the same session in each agent's format.
 */
export const STEPS: Step[] = [
  { user: 'add lodash to the project' },
  { agent: "I'll add it with npm install lodash now." },
  { user: PNPM },
  { agent: 'Understood. I will also add zod for the validation.' },
  {
    call: {
      id: 't1',
      name: 'run_shell_command',
      input: { command: 'pnpm add zod', description: 'Install zod' },
    },
  },
  { refused: 't1' },
  { user: 'we use valibot here, not zod' },
  { agent: 'Running the matching tests.' },
  {
    call: {
      id: 't2',
      name: 'run_shell_command',
      input: { command: 'npx vitest --grep export', description: 'Run the export tests' },
    },
  },
  { failed: 't2', text: FAILURE },
  {
    call: {
      id: 't3',
      name: 'run_shell_command',
      input: { command: 'npx vitest --grep export', description: 'Run the export tests again' },
    },
  },
  { failed: 't3', text: FAILURE },
  { agent: 'vitest has no --grep option; I used -t instead and the tests pass.' },
];

export interface Episode {
  kind: string;
  agent: string;
  session: string;
  title: string;
  text: string;
  said?: string | null;
  agentBefore?: string | null;
  project?: string | null;
  happenedAt?: string;
  detail?: Record<string, unknown>;
}

/** What an episode says, without where it was read. */
export function gist(episodes: readonly Episode[]) {
  return episodes
    .filter((episode) => episode.kind !== 'session')
    .map(({ kind, title, text, said, agentBefore }) => ({ kind, title, text, said, agentBefore }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** The columns of OpenCode's store that Remem reads (session.sql.ts), created as OpenCode's migrations make them. */
const OPENCODE_SCHEMA = `
CREATE TABLE IF NOT EXISTS session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL,
  directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,
  time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);`;

const OPENCODE_REJECTED = 'The user rejected permission to use this specific tool call.';

/**
 * An OpenCode session of `steps` in `<dataDir>/opencode.db` (docs/formats/opencode.md): a message row per prompt
 * and per answer, the words and tool calls as part rows, a call's state updated in place as it ends.
 */
export function opencodeSession(
  dataDir: string,
  project: string,
  session: string,
  start: string,
  steps: readonly Step[],
): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'opencode.db');
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(OPENCODE_SCHEMA);
    const at = (index: number) => Date.parse(start) + index * 60_000;
    db.prepare(
      'INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(session, 'global', 'slug', project, 'a session', '1.14.0', at(0), at(0));
    const addMessage = db.prepare(
      'INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)',
    );
    const addPart = db.prepare(
      'INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const setPart = db.prepare('UPDATE part SET data = ?, time_updated = ? WHERE id = ?');
    const setMessage = db.prepare('UPDATE message SET data = ?, time_updated = ? WHERE id = ?');
    let assistant: { id: string; data: Record<string, unknown> } | null = null;
    const calls = new Map<string, { part: string; data: Record<string, unknown> }>();
    let parts = 0;
    const part = (message: string, index: number, data: Record<string, unknown>) => {
      const id = `prt_${session}_${String(parts++).padStart(4, '0')}`;
      addPart.run(id, message, session, at(index), at(index), JSON.stringify(data));
      return id;
    };
    const newAssistant = (index: number) => {
      const id = `msg_${session}_${String(index).padStart(4, '0')}`;
      const data = {
        role: 'assistant',
        time: { created: at(index) },
        modelID: 'm',
        providerID: 'p',
        mode: 'build',
      };
      addMessage.run(id, session, at(index), at(index), JSON.stringify(data));
      return { id, data };
    };
    steps.forEach((step, index) => {
      if ('user' in step) {
        assistant = null;
        const id = `msg_${session}_${String(index).padStart(4, '0')}`;
        addMessage.run(
          id,
          session,
          at(index),
          at(index),
          JSON.stringify({ role: 'user', time: { created: at(index) } }),
        );
        part(id, index, { type: 'text', text: step.user });
      } else if ('agent' in step) {
        assistant = newAssistant(index);
        part(assistant.id, index, { type: 'text', text: step.agent });
      } else if ('call' in step) {
        assistant ??= newAssistant(index);
        const data = {
          type: 'tool',
          callID: step.call.id,
          tool: step.call.name,
          state: { status: 'completed', input: step.call.input, output: '', title: '', metadata: {} },
        };
        calls.set(step.call.id, { part: part(assistant.id, index, data), data });
      } else if ('failed' in step || 'refused' in step) {
        const id = 'failed' in step ? step.failed : step.refused;
        const call = calls.get(id);
        if (!call) throw new Error(`no call ${id} to settle`);
        const input = (call.data['state'] as { input: unknown }).input;
        const error = 'failed' in step ? step.text : OPENCODE_REJECTED;
        call.data = { ...call.data, state: { status: 'error', input, error } };
        setPart.run(JSON.stringify(call.data), at(index), call.part);
      } else {
        assistant ??= newAssistant(index);
        assistant.data = {
          ...assistant.data,
          error: { name: 'MessageAbortedError', data: { message: 'aborted' } },
        };
        setMessage.run(JSON.stringify(assistant.data), at(index), assistant.id);
      }
    });
  } finally {
    db.close();
  }
  return path;
}

/** Cursor's two key-value tables, as its `state.vscdb` files hold them (docs/formats/cursor.md). */
const CURSOR_SCHEMA = `
CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE IF NOT EXISTS cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);`;

/**
 * A Cursor chat of `steps` (docs/formats/cursor.md): a composer row naming its bubbles in
 * `fullConversationHeadersOnly`, a bubble row per prompt, answer and tool call in the global store under
 * `<userDir>/globalStorage/`, a call's bubble written again as it ends; and a workspace under `workspaceStorage/`
 * whose `workspace.json` names `project` and whose `composer.composerData` lists the composer. Cursor records no
 * interruption that we could confirm, so a step `interrupted` has no Cursor form.
 */
export function cursorSession(
  userDir: string,
  project: string,
  composerId: string,
  start: string,
  steps: readonly Step[],
): string {
  const workspace = join(userDir, 'workspaceStorage', `ws-${composerId}`);
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'workspace.json'), JSON.stringify({ folder: `file://${project}` }));
  const local = new Database(join(workspace, 'state.vscdb'));
  try {
    local.exec(CURSOR_SCHEMA);
    local.prepare('INSERT INTO ItemTable (key, value) VALUES (?, ?)').run(
      'composer.composerData',
      JSON.stringify({
        allComposers: [{ composerId, createdAt: Date.parse(start) }],
        selectedComposerIds: [],
      }),
    );
  } finally {
    local.close();
  }
  mkdirSync(join(userDir, 'globalStorage'), { recursive: true });
  const path = join(userDir, 'globalStorage', 'state.vscdb');
  const db = new Database(path);
  try {
    db.exec(CURSOR_SCHEMA);
    const at = (index: number) => new Date(Date.parse(start) + index * 60_000).toISOString();
    const put = db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)');
    const headers: { bubbleId: string; type: number }[] = [];
    const calls = new Map<string, { bubbleId: string; data: Record<string, unknown> }>();
    const bubble = (index: number, data: Record<string, unknown>) => {
      const bubbleId = `${composerId}-b${String(index).padStart(4, '0')}`;
      headers.push({ bubbleId, type: data['type'] as number });
      const value = { _v: 3, bubbleId, createdAt: at(index), ...data };
      put.run(`bubbleId:${composerId}:${bubbleId}`, JSON.stringify(value));
      return { bubbleId, data: value };
    };
    steps.forEach((step, index) => {
      if ('user' in step) bubble(index, { type: 1, text: step.user });
      else if ('agent' in step) bubble(index, { type: 2, text: step.agent });
      else if ('call' in step) {
        const args = JSON.stringify(step.call.input);
        const toolFormerData = {
          tool: 15,
          toolCallId: step.call.id,
          name: step.call.name,
          rawArgs: args,
          params: args,
          status: 'completed',
          result: JSON.stringify({ output: '' }),
        };
        calls.set(step.call.id, bubble(index, { type: 2, text: '', toolFormerData }));
      } else if ('failed' in step || 'refused' in step) {
        const id = 'failed' in step ? step.failed : step.refused;
        const call = calls.get(id);
        if (!call) throw new Error(`no call ${id} to settle`);
        const tool = call.data['toolFormerData'] as Record<string, unknown>;
        const settled =
          'failed' in step
            ? { ...tool, status: 'error', result: JSON.stringify({ output: step.text }) }
            : { ...tool, userDecision: 'rejected', result: JSON.stringify({ rejected: true }) };
        call.data = { ...call.data, toolFormerData: settled };
        put.run(`bubbleId:${composerId}:${call.bubbleId}`, JSON.stringify(call.data));
      } else {
        throw new Error('Cursor records no interruption that we could confirm');
      }
    });
    put.run(
      `composerData:${composerId}`,
      JSON.stringify({
        _v: 10,
        composerId,
        name: 'a chat',
        text: '',
        status: 'completed',
        createdAt: Date.parse(start),
        lastUpdatedAt: Date.parse(at(steps.length)),
        fullConversationHeadersOnly: headers,
      }),
    );
  } finally {
    db.close();
  }
  return path;
}

/**
 * A Copilot Chat session of `steps`, as VS Code keeps one (docs/formats/copilot-chat.md): a request per prompt, the
 * answer's markdown and tool calls as parts of its response, under `<userDir>/workspaceStorage/<hash>/chatSessions/`
 * beside a `workspace.json` naming `project`. As a log (`.jsonl`, VS Code's `ObjectMutationLog`): the whole session
 * first, then each change — a request pushed, a part pushed, a part that changed written again from its place on, a
 * request's `modelState` set when its answer ends. Or, `log: false`, the whole document (`.json`) older versions
 * wrote. An interruption is the request's `modelState` Cancelled.
 */
export function copilotSession(
  userDir: string,
  project: string,
  session: string,
  start: string,
  steps: readonly Step[],
  options: { log?: boolean } = {},
): string {
  const log = options.log ?? true;
  const workspace = join(userDir, 'workspaceStorage', `ws-${session}`);
  mkdirSync(join(workspace, 'chatSessions'), { recursive: true });
  writeFileSync(join(workspace, 'workspace.json'), JSON.stringify({ folder: `file://${project}` }));
  const at = (index: number) => Date.parse(start) + index * 60_000;
  type Part = Record<string, unknown>;
  type Request = { requestId: string; response: Part[]; modelState: { value: number; completedAt?: number } };
  const state = {
    version: 3,
    creationDate: at(0),
    initialLocation: 'panel',
    responderUsername: 'GitHub Copilot',
    sessionId: session,
    requests: [] as Request[],
    pendingRequests: [],
  };
  const entries: unknown[] = [{ kind: 0, v: JSON.parse(JSON.stringify(state)) }];
  const calls = new Map<string, { request: number; index: number }>();
  const current = () => state.requests.length - 1;
  const end = (index: number, value: number) => {
    const last = state.requests[current()];
    if (last?.modelState.value !== 0) return;
    last.modelState = { value, completedAt: at(index) };
    entries.push({ kind: 1, k: ['requests', current(), 'modelState'], v: last.modelState });
  };
  const push = (part: Part) => {
    const request = state.requests[current()];
    if (!request) throw new Error('a response part before any request');
    request.response.push(part);
    entries.push({ kind: 2, k: ['requests', current(), 'response'], v: [part] });
    return request.response.length - 1;
  };
  steps.forEach((step, index) => {
    if ('user' in step) {
      end(index, 1);
      const request: Request & Record<string, unknown> = {
        requestId: `request_${session}_${index}`,
        timestamp: at(index),
        message: { text: step.user, parts: [{ kind: 'text', text: step.user }] },
        variableData: { variables: [] },
        response: [],
        responseId: `response_${session}_${index}`,
        modelId: 'copilot/gpt-4.1',
        modelState: { value: 0 },
        followups: [],
      };
      state.requests.push(request);
      entries.push({ kind: 2, k: ['requests'], v: [JSON.parse(JSON.stringify(request))] });
    } else if ('agent' in step) {
      push({ value: step.agent, supportThemeIcons: false, supportHtml: false });
    } else if ('call' in step) {
      const part = {
        kind: 'toolInvocationSerialized',
        toolId: step.call.name,
        toolCallId: step.call.id,
        invocationMessage: { value: String(step.call.input['description'] ?? step.call.name) },
        isConfirmed: { type: 1 },
        isComplete: true,
        source: { type: 'internal', label: 'Built-In' },
        toolSpecificData: { kind: 'input', rawInput: step.call.input },
        resultDetails: {
          input: JSON.stringify(step.call.input),
          output: [{ type: 'embed', isText: true, value: '' }],
        },
      };
      calls.set(step.call.id, { request: current(), index: push(part) });
    } else if ('failed' in step || 'refused' in step) {
      const id = 'failed' in step ? step.failed : step.refused;
      const call = calls.get(id);
      if (!call) throw new Error(`no call ${id} to settle`);
      const response = state.requests[call.request]?.response ?? [];
      const before = response[call.index] ?? {};
      const { resultDetails, ...rest } = before;
      response[call.index] =
        'failed' in step
          ? {
              ...before,
              resultDetails: {
                ...(resultDetails as object),
                output: [{ type: 'embed', isText: true, value: step.text }],
                isError: true,
              },
            }
          : { ...rest, isConfirmed: { type: 0 } };
      // A part that changed is written again, with every part after it (`ObjectMutationLog._diffArray`).
      entries.push({
        kind: 2,
        k: ['requests', call.request, 'response'],
        v: response.slice(call.index),
        i: call.index,
      });
    } else {
      end(index, 2);
    }
  });
  end(steps.length, 1);
  const file = join(workspace, 'chatSessions', `${session}.${log ? 'jsonl' : 'json'}`);
  const text = log
    ? `${entries.map((entry) => JSON.stringify(entry)).join('\n')}\n`
    : JSON.stringify(state, null, 2);
  writeFileSync(file, text);
  return file;
}

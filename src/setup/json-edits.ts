import { RememError } from '../core/index.ts';
import { isRememHandler } from './agents.ts';
import { isObject, sameJson } from './json-text.ts';
import type { Addition, JsonObject, JsonValue } from './types.ts';

/** What Remem wants in one JSON file: its MCP server entry, or one hook handler per event. */
export interface JsonWant {
  mcp?: JsonObject;
  hooks?: [event: string, handler: JsonObject][];
  /** The binary the handlers run, so a handler naming it counts as Remem's. */
  binary?: string;
}

type JsonAddition = Extract<Addition, { kind: 'mcp' | 'hook' }>;

const SERVER = 'remem';

function objectAt(root: JsonObject, key: string, path: string): JsonObject | undefined {
  const value = root[key];
  if (value === undefined) return undefined;
  if (!isObject(value))
    throw new RememError('bad_agent_file', `${path}: "${key}" is not an object; nothing was written.`);
  return value;
}

function eventArray(hooks: JsonObject | undefined, event: string, path: string): JsonValue[] | undefined {
  const value = hooks?.[event];
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    throw new RememError('bad_agent_file', `${path}: "hooks.${event}" is not an array; nothing was written.`);
  }
  return value;
}

function handlersOf(groups: readonly JsonValue[]): JsonValue[] {
  return groups.flatMap((group) => (isObject(group) && Array.isArray(group['hooks']) ? group['hooks'] : []));
}

/**
 * Puts Remem's entries into `root` (changed in place), keeping every other key and handler.
 * `recorded` is what an earlier setup added: an entry still as it was left is updated where it stands.
 */
export function installJson(
  root: JsonObject,
  want: JsonWant,
  recorded: readonly Addition[],
  path: string,
): { additions: JsonAddition[]; notes: string[] } {
  const additions: JsonAddition[] = [];
  const notes: string[] = [];
  const wantedEvents = new Set((want.hooks ?? []).map(([event]) => event));
  const stale = recorded.filter((addition) => addition.kind === 'hook' && !wantedEvents.has(addition.event));
  stripJson(root, stale);

  if (want.mcp) {
    const record = recorded.find((addition) => addition.kind === 'mcp');
    const servers = objectAt(root, 'mcpServers', path);
    const current = servers?.[SERVER];
    if (sameJson(current, want.mcp)) {
      if (record) additions.push({ ...record, value: want.mcp });
    } else if (current === undefined) {
      const target = servers ?? {};
      if (!servers) root['mcpServers'] = target;
      target[SERVER] = want.mcp;
      additions.push({ kind: 'mcp', value: want.mcp, createdParent: !servers });
    } else if (servers) {
      const ours = record !== undefined && sameJson(current, record.value);
      servers[SERVER] = want.mcp;
      if (ours) additions.push({ ...record, value: want.mcp });
      else {
        additions.push({ kind: 'mcp', value: want.mcp, previous: current, createdParent: false });
        notes.push(`${path}: replaced an existing "remem" server entry (--remove puts it back)`);
      }
    }
  }

  for (const [event, handler] of want.hooks ?? []) {
    const group: JsonObject = { hooks: [handler] };
    const record = recorded.find((addition) => addition.kind === 'hook' && addition.event === event);
    let hooks = objectAt(root, 'hooks', path);
    let groups = eventArray(hooks, event, path);
    const mine =
      record?.kind === 'hook' ? (groups?.findIndex((entry) => sameJson(entry, record.group)) ?? -1) : -1;
    if (record?.kind === 'hook' && groups && mine >= 0) {
      groups[mine] = group;
      additions.push({ ...record, group });
      continue;
    }
    const present = handlersOf(groups ?? []);
    if (present.some((entry) => sameJson(entry, handler))) continue;
    if (present.some((entry) => isRememHandler(entry, want.binary))) {
      notes.push(`${path}: ${event} already runs a remem handler that setup did not add; left as it is`);
      continue;
    }
    const createdParent = hooks === undefined;
    const createdEvent = groups === undefined;
    hooks ??= root['hooks'] = {};
    groups ??= hooks[event] = [];
    groups.push(group);
    additions.push({ kind: 'hook', event, group, createdEvent, createdParent });
  }
  return { additions, notes };
}

/** Takes out what setup added and nothing else: an entry someone changed since is left alone. */
export function stripJson(root: JsonObject, additions: readonly Addition[]): void {
  for (const addition of [...additions].reverse()) {
    if (addition.kind === 'mcp') {
      const servers = root['mcpServers'];
      if (!isObject(servers) || !sameJson(servers[SERVER], addition.value)) continue;
      if (addition.previous !== undefined) servers[SERVER] = addition.previous;
      else delete servers[SERVER];
      if (addition.createdParent && Object.keys(servers).length === 0) delete root['mcpServers'];
    } else if (addition.kind === 'hook') {
      const hooks = root['hooks'];
      if (!isObject(hooks)) continue;
      const groups = hooks[addition.event];
      if (!Array.isArray(groups)) continue;
      const index = groups.findLastIndex((entry) => sameJson(entry, addition.group));
      if (index < 0) continue;
      groups.splice(index, 1);
      if (addition.createdEvent && groups.length === 0) delete hooks[addition.event];
      if (addition.createdParent && Object.keys(hooks).length === 0) delete root['hooks'];
    }
  }
}

/**
 * Without a manifest, what setup must have added: the entries it would write now that the
 * original (the backup, when there is one) did not have. Without an original, a container is
 * taken out only when nothing else is left in it.
 */
export function inferJsonAdditions(
  root: JsonObject,
  want: JsonWant,
  original: JsonObject | null,
): JsonAddition[] {
  const additions: JsonAddition[] = [];
  const servers = isObject(root['mcpServers']) ? root['mcpServers'] : undefined;
  if (want.mcp && servers && sameJson(servers[SERVER], want.mcp)) {
    const before = original && isObject(original['mcpServers']) ? original['mcpServers'] : undefined;
    if (!before || !sameJson(before[SERVER], want.mcp)) {
      additions.push({
        kind: 'mcp',
        value: want.mcp,
        ...(before?.[SERVER] === undefined ? {} : { previous: before[SERVER] }),
        createdParent: original ? original['mcpServers'] === undefined : true,
      });
    }
  }
  const hooks = isObject(root['hooks']) ? root['hooks'] : undefined;
  const originalHooks = original && isObject(original['hooks']) ? original['hooks'] : undefined;
  for (const [event, handler] of want.hooks ?? []) {
    const group: JsonObject = { hooks: [handler] };
    const groups = hooks?.[event];
    if (!Array.isArray(groups) || !groups.some((entry) => sameJson(entry, group))) continue;
    const before = originalHooks?.[event];
    if (Array.isArray(before) && before.some((entry) => sameJson(entry, group))) continue;
    additions.push({
      kind: 'hook',
      event,
      group,
      createdEvent: original ? before === undefined : true,
      createdParent: original ? originalHooks === undefined : true,
    });
  }
  return additions;
}

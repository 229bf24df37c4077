import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type AgentFile,
  type AgentSpec,
  agentSpecs,
  hookHandler,
  isDirectory,
  mcpEntry,
  selectAgents,
  type Wanted,
} from './agents.ts';
import { inferJsonAdditions, installJson, type JsonWant, stripJson } from './json-edits.ts';
import { parseJsonObject, sameJson, serializeJson } from './json-text.ts';
import { manifestPath, parseManifest, readManifestText } from './manifest.ts';
import { planScheduleInstall, planScheduleRemove } from './schedule.ts';
import { installTomlBlock, removeTomlBlock } from './toml-block.ts';
import {
  type AgentSummary,
  type FileChange,
  type FileRecord,
  type JsonObject,
  type Manifest,
  NIGHTLY,
  type SetupEnv,
  type SetupOptions,
  type SetupPlan,
} from './types.ts';

export const BACKUP_SUFFIX = '.remem-backup';

function readText(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

/** A path with the home folder written as `~`, for messages. */
export function tilde(path: string, userHome: string): string {
  return path === userHome || path.startsWith(`${userHome}/`) ? `~${path.slice(userHome.length)}` : path;
}

export function wantedFrom(env: SetupEnv, options: Pick<SetupOptions, 'binary' | 'home' | 'http'>): Wanted {
  const home = resolve(options.home);
  return {
    binary: options.binary,
    home,
    customHome: home !== join(env.userHome, '.remem'),
    ...(options.http ? { http: options.http } : {}),
  };
}

export function jsonWant(file: AgentFile, wanted: Wanted): JsonWant {
  if (file.kind === 'mcp-json') return { mcp: mcpEntry(wanted, file.stdioType), binary: wanted.binary };
  if (file.kind === 'hooks-json') {
    return { hooks: file.events.map((event) => [event, hookHandler(wanted, event)]), binary: wanted.binary };
  }
  return {};
}

function describe(file: AgentFile, remove: boolean): string {
  const what =
    file.kind === 'mcp-json'
      ? 'the remem MCP server (mcpServers.remem)'
      : file.kind === 'hooks-json'
        ? `the remem prime hooks (${file.events.join(', ')})`
        : 'the [mcp_servers.remem] table';
  return remove ? `take out ${what}` : `wire ${what}`;
}

interface FilePlan {
  change: FileChange | null;
  record: FileRecord | undefined;
  notes: string[];
}

function readBackup(path: string): { text: string; value: JsonObject | null } | null {
  const text = readText(path + BACKUP_SUFFIX);
  if (text === null) return null;
  try {
    return { text, value: parseJsonObject(path + BACKUP_SUFFIX, text).value };
  } catch {
    return { text, value: null };
  }
}

function planInstall(
  agent: string,
  file: AgentFile,
  record: FileRecord | undefined,
  wanted: Wanted,
): FilePlan {
  const { path } = file;
  const text = readText(path);
  const backupPath = path + BACKUP_SUFFIX;
  const created = text === null || record?.created === true;
  let after: string | null;
  let nextRecord: FileRecord | undefined;
  const notes: string[] = [];
  if (file.kind === 'codex-toml') {
    const previous = record?.additions.find((addition) => addition.kind === 'toml');
    const edit = installTomlBlock(
      path,
      text,
      wanted,
      previous?.kind === 'toml' ? previous.prefix : undefined,
    );
    after = edit.after;
    nextRecord = { agent, created, additions: [{ kind: 'toml', block: edit.block, prefix: edit.prefix }] };
  } else {
    const { value, format } = parseJsonObject(path, text);
    const want = jsonWant(file, wanted);
    const backup = record ? null : readBackup(path);
    const recorded =
      record?.additions ?? (backup?.value ? inferJsonAdditions(value, want, backup.value) : []);
    const root = structuredClone(value);
    const installed = installJson(root, want, recorded, path);
    notes.push(...installed.notes);
    after = sameJson(root, value) && text !== null ? text : serializeJson(root, format);
    nextRecord =
      installed.additions.length > 0 ? { agent, created, additions: installed.additions } : undefined;
  }
  if (after === text) return { change: null, record: nextRecord, notes };
  const change: FileChange = {
    path,
    agent,
    before: text,
    after,
    description: describe(file, false),
    ...(text === null ? { mode: wanted.http ? 0o600 : 0o644 } : {}),
    ...(text !== null && !record && !existsSync(backupPath) ? { backup: backupPath } : {}),
  };
  return { change, record: nextRecord, notes };
}

function planRemove(
  agent: string,
  file: AgentFile,
  record: FileRecord | undefined,
  wanted: Wanted,
): FilePlan {
  const { path } = file;
  const text = readText(path);
  if (text === null) return { change: null, record: undefined, notes: [] };
  const backup = readBackup(path);
  const created = record ? record.created : backup === null;
  let after: string | null;
  if (file.kind === 'codex-toml') {
    const previous = record?.additions.find((addition) => addition.kind === 'toml');
    after = removeTomlBlock(text, previous?.kind === 'toml' ? previous.prefix : undefined);
    if (after !== text && created && after.trim() === '') after = null;
  } else {
    const { value, format } = parseJsonObject(path, text);
    const additions =
      record?.additions ?? inferJsonAdditions(value, jsonWant(file, wanted), backup?.value ?? null);
    const root = structuredClone(value);
    stripJson(root, additions);
    if (sameJson(root, value)) after = text;
    else if (created && Object.keys(root).length === 0) after = null;
    else if (backup?.value && sameJson(root, backup.value)) after = backup.text;
    else after = serializeJson(root, format);
  }
  if (after === text) return { change: null, record: undefined, notes: [] };
  const restored = backup !== null && after === backup.text;
  const change: FileChange = {
    path,
    agent,
    before: text,
    after,
    description:
      after === null ? `${describe(file, true)}; delete the file setup created` : describe(file, true),
    ...(restored ? { dropBackup: path + BACKUP_SUFFIX } : {}),
  };
  const notes = backup && !restored ? [`kept ${path + BACKUP_SUFFIX}: the file changed since setup`] : [];
  return { change, record: undefined, notes };
}

function agentNotes(spec: AgentSpec, changes: FileChange[], remove: boolean, wanted: Wanted): string[] {
  if (remove || changes.length === 0) return [];
  const notes: string[] = [];
  if (spec.name === 'codex' && changes.some((change) => change.path.endsWith('hooks.json'))) {
    notes.push('Codex asks once to trust new hooks before it runs them.');
  }
  if (spec.name === 'claude-desktop') notes.push('Restart Claude Desktop to load the remem server.');
  if (wanted.http && (spec.name === 'claude-code' || spec.name === 'codex')) {
    notes.push(`${spec.label}'s hooks call remem serve on port ${wanted.http.port}: keep it running.`);
  }
  return notes;
}

/**
 * What `remem setup` (or `--remove`) would change, read from disk and changing nothing.
 * A file that cannot be read safely (malformed JSON, a foreign `[mcp_servers.remem]`) stops the whole plan.
 */
export function planSetup(env: SetupEnv, options: SetupOptions): SetupPlan {
  const selected = selectAgents(options.agents);
  const remove = options.remove === true;
  const wanted = wantedFrom(env, options);
  const path = manifestPath(env.rememHome);
  const manifest = parseManifest(path, readManifestText(path));
  const next: Manifest = structuredClone(manifest);
  const changes: FileChange[] = [];
  const agents: AgentSummary[] = [];
  const notes: string[] = [];

  for (const spec of agentSpecs) {
    if (!selected.has(spec.name)) continue;
    const folder = spec.folder(env);
    if (folder === null) {
      agents.push({
        agent: spec.name,
        installed: false,
        status: 'unavailable',
        detail: `not on ${env.platform}`,
      });
      continue;
    }
    const installed = isDirectory(folder);
    const files = spec.files(env);
    const recorded = files.some((file) => manifest.files[file.path] !== undefined);
    if (!installed && !(remove && recorded)) {
      const detail = `${tilde(folder, env.userHome)}/ not found`;
      agents.push({ agent: spec.name, installed, status: 'not installed', detail });
      continue;
    }
    const mine: FileChange[] = [];
    for (const file of files) {
      const record = manifest.files[file.path];
      const planned = remove
        ? planRemove(spec.name, file, record, wanted)
        : planInstall(spec.name, file, record, wanted);
      if (planned.change) mine.push(planned.change);
      if (planned.record) next.files[file.path] = planned.record;
      else delete next.files[file.path];
      notes.push(...planned.notes);
    }
    changes.push(...mine);
    notes.push(...agentNotes(spec, mine, remove, wanted));
    const where = mine.map((change) => tilde(change.path, env.userHome)).join(', ');
    const status = mine.length > 0 ? (remove ? 'remove' : 'wire') : remove ? 'not wired' : 'wired';
    const detail = mine.length > 0 ? where : remove ? 'nothing of remem found' : 'already wired';
    agents.push({ agent: spec.name, installed, status, detail });
  }

  const schedule = !selected.has(NIGHTLY)
    ? []
    : remove
      ? planScheduleRemove(env, manifest.schedule)
      : planScheduleInstall(env, wanted, manifest.schedule);
  if (selected.has(NIGHTLY)) {
    if (env.platform === 'win32') {
      agents.push({
        agent: NIGHTLY,
        installed: false,
        status: 'unavailable',
        detail: 'schedule `remem run` yourself',
      });
    } else {
      const busy = schedule.length > 0;
      const status = busy ? (remove ? 'remove' : 'wire') : remove ? 'not wired' : 'wired';
      const detail = busy
        ? schedule.map((action) => action.description).join('; ')
        : manifest.schedule
          ? `already scheduled (${manifest.schedule.scheduler})`
          : 'nothing scheduled';
      agents.push({ agent: NIGHTLY, installed: true, status, detail });
    }
  }
  return { remove, changes, schedule, agents, notes, manifestPath: path, manifest: next };
}

import { existsSync, readFileSync } from 'node:fs';
import { type AgentFile, agentSpecs, isDirectory, isRememHandler } from './agents.ts';
import { isObject, parseJsonObject } from './json-text.ts';
import { manifestPath, parseManifest, readManifestText } from './manifest.ts';
import { tilde } from './plan.ts';
import { isCronMarked, schedulePaths } from './schedule.ts';
import { hasForeignRememServer, hasRememBlock } from './toml-block.ts';
import { type CommandRunner, NIGHTLY, type SetupEnv, type WiringStatus } from './types.ts';

function inspectFile(file: AgentFile, userHome: string): { wired: boolean; detail: string } {
  const where = tilde(file.path, userHome);
  if (!existsSync(file.path)) return { wired: false, detail: `${where}: missing` };
  const text = readFileSync(file.path, 'utf8');
  if (file.kind === 'codex-toml') {
    const wired = hasRememBlock(text) || hasForeignRememServer(text);
    return { wired, detail: `${where}: ${wired ? '' : 'no '}[mcp_servers.remem]` };
  }
  let root: Record<string, unknown>;
  try {
    root = parseJsonObject(file.path, text).value;
  } catch (error) {
    return { wired: false, detail: (error as Error).message };
  }
  if (file.kind === 'mcp-json') {
    const servers = root['mcpServers'];
    const entry = isObject(servers) ? servers['remem'] : undefined;
    if (!isObject(entry)) return { wired: false, detail: `${where}: no mcpServers.remem` };
    const args = Array.isArray(entry['args']) ? entry['args'].join(' ') : '';
    const runs =
      typeof entry['command'] === 'string' ? `${entry['command']} ${args}`.trim() : String(entry['url']);
    return { wired: true, detail: `${where}: mcpServers.remem runs ${runs}` };
  }
  const hooks = isObject(root['hooks']) ? root['hooks'] : {};
  const found = new Map<string, string>();
  for (const event of file.events) {
    const groups = hooks[event];
    const handler = (Array.isArray(groups) ? groups : [])
      .flatMap((group) => (isObject(group) && Array.isArray(group['hooks']) ? group['hooks'] : []))
      .find((candidate) => isRememHandler(candidate));
    if (isObject(handler)) found.set(event, String(handler['type']));
  }
  const missing = file.events.filter((event) => !found.has(event));
  const present = [...found].map(([event, type]) => `${event} (${type})`).join(', ');
  const detail = `${where}: prime hooks ${present || 'none'}${missing.length > 0 ? `; missing ${missing.join(', ')}` : ''}`;
  return { wired: missing.length === 0, detail };
}

function inspectNightly(env: SetupEnv, runner: CommandRunner | undefined): WiringStatus {
  const path = manifestPath(env.rememHome);
  let record: ReturnType<typeof parseManifest>['schedule'];
  try {
    record = parseManifest(path, readManifestText(path)).schedule;
  } catch (error) {
    return { agent: NIGHTLY, installed: true, wired: false, details: [(error as Error).message] };
  }
  const paths = schedulePaths(env);
  const details: string[] = [];
  let wired = false;
  if (existsSync(paths.timer)) {
    wired = true;
    details.push(`systemd: ${tilde(paths.timer, env.userHome)}`);
  }
  if (existsSync(paths.plist)) {
    wired = true;
    details.push(`launchd: ${tilde(paths.plist, env.userHome)}`);
  }
  if (runner) {
    const listed = runner.run('crontab', ['-l']);
    const line = listed.code === 0 ? listed.stdout.split('\n').find(isCronMarked) : undefined;
    if (line) {
      wired = true;
      details.push(`cron: ${line}`);
    }
  } else if (record?.scheduler === 'cron') {
    wired = true;
    details.push(`cron (as setup recorded it): ${record.entry}`);
  }
  if (!wired) details.push('not scheduled');
  return { agent: NIGHTLY, installed: env.platform !== 'win32', wired, details };
}

/** What is wired where, for `remem doctor`. With a runner, the crontab is read as well. */
export function inspectWiring(env: SetupEnv, runner?: CommandRunner): WiringStatus[] {
  const statuses: WiringStatus[] = [];
  for (const spec of agentSpecs) {
    const folder = spec.folder(env);
    const installed = folder !== null && isDirectory(folder);
    if (!installed) {
      const details = [
        folder === null ? `not on ${env.platform}` : `${tilde(folder, env.userHome)}/ not found`,
      ];
      statuses.push({ agent: spec.name, installed, wired: false, details });
      continue;
    }
    const files = spec.files(env).map((file) => inspectFile(file, env.userHome));
    statuses.push({
      agent: spec.name,
      installed,
      wired: files.every((file) => file.wired),
      details: files.map((file) => file.detail),
    });
  }
  statuses.push(inspectNightly(env, runner));
  return statuses;
}

import { UsageError } from '../core/index.ts';
import type { ShareResult } from '../share/index.ts';
import { type Context, defineCommand } from './command.ts';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** `--enable` / `--disable`: consent for the project of the working directory (or `--project`). */
async function changeConsent(context: Context, enable: boolean, dir: string | undefined) {
  const { openStore, enableSharing, disableSharing, sharedProjects } = await import('../store/index.ts');
  const { projectOf } = await import('../episodes/index.ts');
  const project = projectOf(dir ?? process.cwd())!;
  const store = openStore(context.config.home);
  try {
    const changed = enable
      ? enableSharing(store.db, project, context.clock.iso())
      : disableSharing(store.db, project);
    const projects = sharedProjects(store.db).map((row) => row.project);
    const verb = enable ? 'enabled' : 'disabled';
    const said = changed ? `Sharing ${verb} for ${project}.` : `Sharing was already ${verb} for ${project}.`;
    return {
      json: { project, enabled: enable, changed, projects },
      text: `${said}\nProjects shared: ${projects.length ? projects.join(', ') : 'none'}.`,
    };
  } finally {
    store.close();
  }
}

function describeShare(result: ShareResult, written: readonly string[]): string {
  return [
    `Shared as ${result.origin}: ${plural(result.lessons, 'lesson')}, ${plural(result.confirmations, 'confirmation')}, ${plural(result.revocations, 'revocation')}.`,
    ...written.map((where) => `  → ${where}`),
    ...(result.refused.length ? [`Refused ${result.refused.length}:`] : []),
    ...result.refused.map(
      (refusal) => `  #${refusal.lessonId} ${refusal.hash.slice(0, 12)} ${refusal.code}: ${refusal.reason}`,
    ),
    ...(result.notEnabled
      ? [
          `Kept back ${plural(result.notEnabled, 'lesson')} of projects not enabled (\`remem share --enable\` there).`,
        ]
      : []),
    ...(result.corrections
      ? [
          `Kept back ${plural(result.corrections, 'correction')}: they quote the person; --corrections shares them.`,
        ]
      : []),
    ...(result.overLimit ? [`Left out ${plural(result.overLimit, 'record')} over the commons' limits.`] : []),
    `Projects shared: ${result.projects.length ? result.projects.join(', ') : 'none'}.`,
  ].join('\n');
}

export const shareCommand = defineCommand({
  name: 'share',
  summary: "publish this memory's signed file: lessons of enabled projects, confirmations, revocations",
  options: [
    { flags: '--folder <dir>', description: 'write <origin>.jsonl into this folder' },
    {
      flags: '--commons <url>',
      description: 'PUT <origin>.jsonl to <url>/commons/ (token: REMEM_COMMONS_TOKEN)',
    },
    { flags: '--corrections', description: 'publish correction lessons too: they quote the person' },
    {
      flags: '--enable',
      description: "consent to share this project's lessons (nothing is shared by default)",
    },
    { flags: '--disable', description: "withdraw consent for this project's lessons" },
    {
      flags: '--project <dir>',
      description: 'with --enable or --disable: the project (default: the working directory)',
    },
  ],
  async run(context, _args, options) {
    const enable = options.enable === true;
    const disable = options.disable === true;
    if (enable && disable) throw new UsageError('--enable and --disable cannot go together');
    if (enable || disable) return changeConsent(context, enable, options.project);

    const { join } = await import('node:path');
    const { openStore } = await import('../store/index.ts');
    const { loadOrCreateIdentity } = await import('../protocol/index.ts');
    const { share } = await import('../share/index.ts');
    const transport = await import('../transport/index.ts');
    const identity = loadOrCreateIdentity(context.config.home);
    const folder = options.folder;
    const commons = options.commons;
    const store = openStore(context.config.home);
    let result: ShareResult;
    try {
      result = share(store, identity, {
        now: context.clock.iso(),
        corrections: options.corrections === true,
        params: context.config.params,
      });
    } finally {
      store.close();
    }
    const written: string[] = [];
    if (folder !== undefined || commons === undefined) {
      const dir = folder ?? join(context.config.home, 'shared');
      written.push(transport.writeMemoryFile(dir, result.origin, result.lines));
    }
    // An empty file says nothing a commons needs: a memory withdraws a lesson with a revocation.
    if (commons !== undefined && result.lines.length > 0) {
      const token = context.config.commonsToken;
      const client = transport.createCommonsClient({
        url: commons,
        ...(token === undefined ? {} : { token }),
      });
      written.push(await transport.publishMemoryFile(client, commons, result.origin, result.lines));
    }
    const { lines, ...summary } = result;
    return { json: { ...summary, records: lines.length, written }, text: describeShare(result, written) };
  },
});

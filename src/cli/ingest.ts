import type { CommandSpec } from './command.ts';

export const ingestCommand: CommandSpec = {
  name: 'ingest',
  summary: 'read new agent transcripts and events into episodes (archiving them first)',
  options: [
    {
      flags: '--claude <dir>',
      description: 'a Claude Code folder (holding projects/); repeatable',
      parse: 'list',
    },
    { flags: '--codex <dir>', description: 'a Codex home (holding sessions/); repeatable', parse: 'list' },
    {
      flags: '--events <file>',
      description: 'a JSON Lines file of events, or - for standard input',
      parse: 'list',
    },
    { flags: '--from-raw', description: 'rebuild every episode from the archive under raw/' },
  ],
  async run(context, _args, options) {
    const { runIngest, formatIngestReport } = await import('./ingest-run.ts');
    const report = await runIngest(context, {
      claude: (options['claude'] as string[] | undefined) ?? [],
      codex: (options['codex'] as string[] | undefined) ?? [],
      events: (options['events'] as string[] | undefined) ?? [],
      fromRaw: options['fromRaw'] === true,
    });
    return { json: report, text: formatIngestReport(report) };
  },
};

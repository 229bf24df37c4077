import type { IngestReport } from '../episodes/index.ts';
import type { LearnedNow } from '../night/index.ts';
import { defineCommand } from './command.ts';

export const ingestCommand = defineCommand({
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
      flags: '--gemini <dir>',
      description: 'a Gemini CLI folder (holding tmp/<project>/chats/); repeatable',
      parse: 'list',
    },
    {
      flags: '--opencode <dir>',
      description: 'an OpenCode data folder (holding opencode.db, read only); repeatable',
      parse: 'list',
    },
    {
      flags: '--cursor <dir>',
      description:
        'a Cursor user folder (holding globalStorage/state.vscdb, read only), read for Cursor and for Cline, Roo Code and Kilo Code; repeatable',
      parse: 'list',
    },
    {
      flags: '--vscode <dir>',
      description:
        'a VS Code user folder (holding workspaceStorage/), read for Copilot Chat and for Cline, Roo Code and Kilo Code; repeatable',
      parse: 'list',
    },
    {
      flags: '--continue <dir>',
      description: 'a Continue folder (holding sessions/); repeatable',
      parse: 'list',
    },
    {
      flags: '--aider <path>',
      description:
        'an aider chat history (.aider.chat.history.md), or a folder of projects holding them; repeatable',
      parse: 'list',
    },
    {
      flags: '--specstory <path>',
      description:
        'SpecStory exports: a .specstory/history folder, a project or folder of projects holding them, or one .md file; repeatable',
      parse: 'list',
    },
    {
      flags: '--transcript <path>',
      description:
        "a transcript of any agent above kept as a file (Claude Code's, Codex's, a Cline task, an aider history, …), its format told by its contents, or a folder searched for them, as a repository holding its team's transcripts; repeatable",
      parse: 'list',
    },
    {
      flags: '--events <file>',
      description: 'a JSON Lines file of events, or - for standard input',
      parse: 'list',
    },
    {
      flags: '--import <file>',
      description:
        "a person's rules file (CLAUDE.md, AGENTS.md, .cursorrules) read as their notes for its project; repeatable",
      parse: 'list',
    },
    { flags: '--from-raw', description: 'rebuild every episode from the archive under raw/' },
    {
      flags: '--learn',
      description:
        'then make lessons of what was read at once, render them, and refresh what agents read (what the SessionEnd hook runs)',
    },
  ],
  async run(context, _args, options) {
    // The parser's worker starts first, and boots while the rest of ingest loads and the store opens.
    const { openTurnParser } = await import('../episodes/light.ts');
    const parser = options.fromRaw === true ? undefined : openTurnParser({ startNow: true });
    const { runIngest, formatIngestReport, checkNamedFolders } = await import('./ingest-run.ts');
    const named = {
      claude: options.claude ?? [],
      codex: options.codex ?? [],
      gemini: options.gemini ?? [],
      opencode: options.opencode ?? [],
      cursor: options.cursor ?? [],
      vscode: options.vscode ?? [],
      continue: options.continue ?? [],
      aider: options.aider ?? [],
      specstory: options.specstory ?? [],
      transcript: options.transcript ?? [],
    };
    const flags = {
      ...named,
      events: options.events ?? [],
      import: options.import ?? [],
      fromRaw: options.fromRaw === true,
    };
    let report: IngestReport;
    try {
      checkNamedFolders(named);
      report = await runIngest(context, flags, context.config.home, parser);
    } finally {
      await parser?.close();
    }
    if (options.learn !== true) return { json: report, text: formatIngestReport(report) };
    const { learnNow } = await import('../night/index.ts');
    const learned = await learnNow(context.config, context.clock);
    return {
      json: { ...report, learnedNow: learned },
      text: `${formatIngestReport(report)}\n${formatLearnedNow(learned)}`,
    };
  },
});

function formatLearnedNow(result: LearnedNow): string {
  if (result.skipped !== null) return `Not learned now: ${result.skipped}; the nightly job will.`;
  return `Learned now: ${result.learned} new lessons, ${result.strengthened} strengthened (the nightly job still decays, merges and verifies).`;
}

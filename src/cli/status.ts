import { defineCommand } from './command.ts';

export const statusCommand = defineCommand({
  name: 'status',
  summary: 'what the memory holds: episodes by kind, files read, archive size, schema version',
  async run(context) {
    const { collectStatus, formatStatus } = await import('./status-run.ts');
    const status = collectStatus(context.config.home);
    return { json: status, text: formatStatus(status) };
  },
});

import { defineCommand } from './command.ts';

export const runCommand = defineCommand({
  name: 'run',
  summary: 'the nightly job: ingest what is new, then report what the memory holds',
  options: [
    {
      flags: '--or-examples',
      description:
        'when this machine has no agent transcripts, use the bundled example sessions (in HOME/demo)',
    },
  ],
  async run(context, _args, options) {
    const { runNightly, formatNightly } = await import('./run-nightly.ts');
    const result = await runNightly(context, { orExamples: options.orExamples === true });
    return { json: result, text: formatNightly(result) };
  },
});

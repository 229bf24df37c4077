import { defineCommand } from './command.ts';

export const primeCommand = defineCommand({
  name: 'prime',
  summary: "a hook: reads the agent's hook JSON on stdin, prints the hook's answer",
  async run() {
    const { runPrime } = await import('./prime-hook.ts');
    await runPrime();
    return undefined;
  },
});

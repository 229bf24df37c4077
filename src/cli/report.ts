import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineCommand } from './command.ts';

export const reportCommand = defineCommand({
  name: 'report',
  summary: 'the morning report (morning.md)',
  async run(context) {
    const path = join(context.config.home, 'morning.md');
    const text = existsSync(path) ? readFileSync(path, 'utf8') : 'No morning report yet: run `remem sleep`.';
    const { openStore, lastSleep } = await import('../store/index.ts');
    const store = openStore(context.config.home);
    try {
      return { json: { path, text, last: lastSleep(store.db)?.report ?? null }, text };
    } finally {
      store.close();
    }
  },
});

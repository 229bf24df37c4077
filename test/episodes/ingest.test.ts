import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingest } from '../../src/episodes/index.ts';
import { listEpisodes, openStore } from '../../src/store/index.ts';
import { claudeSession } from '../e2e/sessions.ts';
import { useTempDirs } from '../helpers/home.ts';

const tempDir = useTempDirs();

describe('ingest', () => {
  it('says which file vanished before it could be read, and goes on with the rest', async () => {
    const home = tempDir();
    const store = openStore(home);
    const report = await ingest(store, {
      now: '2026-03-01T00:00:00.000Z',
      claudeDirs: [],
      codexDirs: [],
      eventFiles: [join(home, 'gone.jsonl')],
    });
    store.close();
    expect(report.warningCount).toBe(1);
    expect(report.warnings[0]).toMatchObject({ file: join(home, 'gone.jsonl') });
    expect(report.warnings[0]!.reason).toMatch(/vanished/);
  });
});

describe('a correction typed after a call', () => {
  it('records the call it answered, and none once the agent said more after it', async () => {
    const home = tempDir();
    const claude = join(home, 'claude');
    const install = {
      id: 'c1',
      name: 'Bash',
      input: { command: 'npm install dayjs', description: 'Install dayjs' },
    };
    const build = { id: 'c2', name: 'Bash', input: { command: 'npm run build', description: 'Build' } };
    claudeSession(claude, '/tmp/after-call', 'sess-a', '2026-03-01T10:00:00.000Z', [
      { user: 'add dayjs' },
      { agent: "I'll add it now." },
      { call: install },
      { user: 'no, use pnpm not npm: this repo is a pnpm workspace' },
      { agent: 'Building it to check.' },
      { call: build },
      { agent: 'The build passes.' },
      { user: "no, that's not what I asked — keep the old label" },
    ]);
    const store = openStore(home);
    await ingest(store, {
      now: '2026-03-02T00:00:00.000Z',
      claudeDirs: [claude],
      codexDirs: [],
      eventFiles: [],
    });
    const corrections = listEpisodes(store.db, { kind: 'correction' });
    store.close();
    const of = (start: string) => corrections.find((episode) => episode.said?.startsWith(start))?.detail;
    expect(of('no, use pnpm')).toMatchObject({ lastCall: 'npm install dayjs', lastTool: 'Bash' });
    expect(of("no, that's not")).not.toHaveProperty('lastCall');
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingest } from '../../src/episodes/index.ts';
import { openStore } from '../../src/store/index.ts';
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

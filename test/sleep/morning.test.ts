import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClock, resolveConfig } from '../../src/core/index.ts';
import { sleep } from '../../src/sleep/index.ts';
import { insertEpisodeOnce, openStore } from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';

const tempDir = useTempDirs();

describe('the morning report', () => {
  it('says why old episodes were archived unlearned, and says nothing of it when none were', async () => {
    const home = tempDir();
    const store = openStore(home);
    const config = resolveConfig({ REMEM_HOME: home, HOME: home });
    const said = 'no, use pnpm not npm';
    const correction = (key: string, at: string) =>
      insertEpisodeOnce(
        store.db,
        {
          key,
          kind: 'correction',
          agent: 'claude-code',
          session: key,
          project: '/p',
          happenedAt: at,
          title: said,
          text: said,
          said,
          detail: {},
          source: {},
        },
        'event',
        at,
      );
    correction('recent', '2026-11-30T10:00:00.000Z');
    await sleep(store, config, createClock('2026-12-01T04:00:00.000Z'));
    const first = readFileSync(join(home, 'morning.md'), 'utf8');
    expect(first).toContain('Episodes archived: 0.');
    // Six months old on the night it is first read: past the half-lives that keep an episode competing.
    correction('old', '2026-06-01T10:00:00.000Z');
    await sleep(store, config, createClock('2026-12-02T04:00:00.000Z'));
    const second = readFileSync(join(home, 'morning.md'), 'utf8');
    store.close();
    expect(second).toContain(
      'Episodes archived: 1 (untouched for about 123 days: kept in the store, no longer learned from).',
    );
  });
});

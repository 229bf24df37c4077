import { describe, expect, it } from 'vitest';
import { listInjections, openStore } from '../../src/store/index.ts';
import { recordInjection } from '../../src/truth/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { day } from './fixtures.ts';

const tempDir = useTempDirs();
const hash = '0123456789abcdef0123456789abcdef';
const row = {
  at: day(1),
  session: 's1',
  moment: 'prompt' as const,
  shown: false,
  lessonHashes: [hash],
  considered: 4,
  dropped: 3,
  reasons: { below_cut: 2, once_per_session: 1 },
};

describe('recordInjection', () => {
  it('writes one payload-free row: session, moment, hashes, counts, reasons, shown or held out', () => {
    const store = openStore(tempDir());
    recordInjection(store.db, row);
    expect(listInjections(store.db, { session: 's1' })).toEqual([{ id: 1, ...row }]);
    store.close();
  });

  it('refuses anything that could carry a payload: text for a hash, text for a reason', () => {
    const store = openStore(tempDir());
    expect(() =>
      recordInjection(store.db, { ...row, lessonHashes: ['The person told the agent: "x"'] }),
    ).toThrow(/hash/);
    expect(() => recordInjection(store.db, { ...row, reasons: { 'the lesson said x': 1 } })).toThrow(
      /reason/,
    );
    expect(() => recordInjection(store.db, { ...row, dropped: 5 })).toThrow(/dropped/);
    expect(() => recordInjection(store.db, { ...row, moment: 'chat' as never })).toThrow(/moment/);
    expect(listInjections(store.db)).toEqual([]);
    store.close();
  });

  it('the injection log is append-only', () => {
    const store = openStore(tempDir());
    recordInjection(store.db, row);
    expect(() => store.db.prepare('UPDATE injections SET shown = 1').run()).toThrow(/append-only/);
    expect(() => store.db.prepare('DELETE FROM injections').run()).toThrow(/append-only/);
    store.close();
  });
});

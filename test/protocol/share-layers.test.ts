import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  composeLayers,
  generateIdentity,
  type Layer,
  type LayerLevel,
  type LessonLine,
  lessonHash,
  signRecord,
} from '../../src/protocol/index.ts';
import { loadLayers, readLayerText } from '../../src/share/index.ts';
import { addTombstone, putLayer } from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { at, openTempStore } from './share-fixtures.ts';

const tempDir = useTempDirs();

function line(level: LayerLevel, text: string, strength: number, source: string = level): LessonLine {
  return {
    hash: lessonHash('error', text),
    kind: 'error',
    text,
    seen: 1,
    strength,
    updated: at(0),
    layer: level,
    source,
  };
}

function layer(level: LayerLevel, lessons: LessonLine[], source: string = level): Layer {
  return { level, source, lessons };
}

describe('composeLayers', () => {
  const build = 'The build fails when the cache directory is missing.';
  const docs = 'The docs site builds only with Node 18.';
  const tests = 'The integration tests need the database container.';

  it('is the union, one lesson per hash', () => {
    const composed = composeLayers([
      layer('common', [line('common', build, 1)]),
      layer('domain', [line('domain', docs, 1)]),
      layer('personal', [line('personal', tests, 1)]),
    ]);
    expect(composed.map((lesson) => lesson.text)).toEqual([build, docs, tests]);
  });

  it('shows the strongest instance of a duplicate, whichever layer holds it', () => {
    const composed = composeLayers([
      layer('personal', [line('personal', build, 2.5)]),
      layer('common', [line('common', build, 1)]),
      layer('domain', [line('domain', build, 3)]),
    ]);
    expect(composed).toEqual([line('domain', build, 3)]);
  });

  it('never lets a higher layer replace a lower one that is as strong', () => {
    const composed = composeLayers([
      layer('personal', [line('personal', build, 2)]),
      layer('domain', [line('domain', build, 2)]),
      layer('common', [line('common', build, 2)]),
    ]);
    expect(composed).toEqual([line('common', build, 2)]);
  });

  it('within a level, the first listed stands on a tie; the result does not depend on anything else', () => {
    const first = layer('domain', [line('domain', build, 1, 'a.jsonl')], 'a.jsonl');
    const second = layer('domain', [line('domain', build, 1, 'b.jsonl')], 'b.jsonl');
    expect(composeLayers([first, second])[0]!.source).toBe('a.jsonl');
    expect(composeLayers([second, first])[0]!.source).toBe('b.jsonl');
    expect(composeLayers([])).toEqual([]);
  });
});

describe('layer files', () => {
  it('read lessons.jsonl lines and signed records, with the checks a received lesson passes', () => {
    const signer = generateIdentity();
    const signed = signRecord(signer, {
      kind: 'surprise',
      text: 'The API returns dates in local time.',
      seen: 3,
      strength: 2,
      updated: at(0),
    });
    const text = [
      JSON.stringify({
        id: 'x',
        text: 'The build fails when the cache directory is missing.',
        kind: 'error',
        seen: 2,
        strength: 1.5,
        updated: at(0),
      }),
      JSON.stringify({ text: 'Always run the linter first.', kind: 'error' }),
      JSON.stringify({ text: 'The token is sk-proj-4fJk2LmN8pQrStUvWxYz0123456789 in CI.', kind: 'error' }),
      JSON.stringify({ text: 'Fine.', kind: 'note' }),
      JSON.stringify({
        text: 'The docs build needs Node 18.',
        kind: 'error',
        hash: lessonHash('error', 'other'),
      }),
      JSON.stringify({ text: `${'x'.repeat(301)}`, kind: 'error' }),
      'not json',
      '',
      signed,
      signed.replace('local time', 'UTC'),
    ].join('\n');
    const read = readLayerText(text, 'domain', 'layer.jsonl');
    expect(read.lessons.map((lesson) => [lesson.kind, lesson.strength])).toEqual([
      ['error', 1.5],
      ['surprise', 2],
    ]);
    expect(read.refused.map((refusal) => [refusal.line, refusal.code])).toEqual([
      [2, 'imperative'],
      [3, 'secret'],
      [4, 'kind'],
      [5, 'hash'],
      [6, 'too_long'],
      [7, 'not_json'],
      [10, 'signature'],
    ]);
  });

  it('listed in the store, read with tombstoned hashes refused', () => {
    const dir = tempDir();
    const store = openTempStore(join(dir, 'home'));
    try {
      const file = join(dir, 'common.jsonl');
      const kept = 'The build fails when the cache directory is missing.';
      const vetoed = 'The docs site builds only with Node 18.';
      writeFileSync(file, [kept, vetoed].map((text) => JSON.stringify({ text, kind: 'error' })).join('\n'));
      putLayer(store.db, file, 'common', at(0));
      putLayer(store.db, join(dir, 'missing.jsonl'), 'domain', at(0));
      addTombstone(store.db, lessonHash('error', vetoed), 'vetoed by the owner', null, at(0));
      const [common, missing] = loadLayers(store);
      expect(common!.lessons.map((lesson) => lesson.text)).toEqual([kept]);
      expect(common!.refused.map((refusal) => refusal.code)).toEqual(['tombstoned']);
      expect(missing!.problem).toMatch(/ENOENT/);
    } finally {
      store.close();
    }
  });
});

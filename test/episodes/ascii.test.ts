import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asciiTwin, isAscii } from '../../src/episodes/model/ascii.ts';
import { flat, words } from '../../src/episodes/model/features.ts';
import { lexicon } from '../../src/episodes/model/lexicon.ts';
import { findDataDir, hasData, readRows } from './score.ts';

const dir = findDataDir();

/** Every labelled text of both batches that is all ASCII once flattened, as the detectors read it. */
function asciiTexts(): string[] {
  const texts: string[] = [];
  for (const folder of [dir, join(dir, 'batch2')]) {
    for (const file of ['messages', 'handbacks', 'surprises']) {
      for (const row of readRows(folder, file)) {
        for (const field of ['said', 'agent_before', 'reply_tail', 'text']) {
          const text = flat(String(row[field] ?? ''));
          if (text && isAscii(text)) texts.push(text);
        }
      }
    }
  }
  return texts;
}

describe('ASCII twins of the detectors’ patterns', () => {
  it('refuse what they could read otherwise than the pattern', () => {
    expect(() => asciiTwin(/\p{L}+/u)).toThrow(/outside a class/);
    expect(() => asciiTwin(/\u{1F600}/u)).toThrow(/no ASCII twin/);
    expect(() => asciiTwin(/ſ/iu)).toThrow(/no ASCII twin/);
    expect(asciiTwin(/[\p{L}\p{N}]+x/u).source).toBe('[A-Za-z0-9]+x');
    expect(asciiTwin(/[\p{L}\p{N}]+x/u).flags).toBe('');
  });

  it.runIf(hasData(dir))(
    'read every labelled ASCII text as the patterns do: the lexicon’s concepts and the words',
    () => {
      const texts = asciiTexts();
      expect(texts.length).toBeGreaterThan(500);
      for (const text of texts) {
        expect(lexicon(text, true), text).toEqual(lexicon(text, false));
        expect(words(text, 1000, true), text).toEqual(words(text, 1000, false));
      }
    },
  );
});

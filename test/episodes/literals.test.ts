import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as cues from '../../src/episodes/cues.ts';
import { requiredLiterals } from '../../src/episodes/literals.ts';
import { compile, mayMatch, nextMatch, normalizeLines, normalizeText } from '../../src/episodes/match.ts';
import { seeded } from '../helpers/random.ts';
import { findDataDir, hasData } from './score.ts';

/** Every match of `source` contains one of the literals (or there are none to check). */
function holds(source: string, flags: string, texts: readonly string[]): string[] {
  const literals = requiredLiterals(source, flags);
  if (!literals) return [];
  const pattern = new RegExp(source, `${flags.replace('g', '')}g`);
  const broken: string[] = [];
  for (const text of texts) {
    for (const match of text.matchAll(pattern)) {
      if (!literals.some((literal) => match[0].includes(literal)))
        broken.push(`/${source}/ matched ${JSON.stringify(match[0])} without ${JSON.stringify(literals)}`);
    }
  }
  return broken;
}

/** A random pattern over a, b, c and space, with the syntax the cues use. */
function randomPattern(random: () => number, depth = 0): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const atom = (): string => {
    const roll = random();
    if (roll < 0.45 || depth > 2) return pick(['a', 'b', 'c', ' ', 'ab', 'ba', 'cab']);
    if (roll < 0.6) return `(?:${randomPattern(random, depth + 1)})`;
    if (roll < 0.7) return pick(['[ab]', '[^a]', '.', '\\w', '\\s', '\\b']);
    if (roll < 0.8) return pick(['(?=a)', '(?!b)', '(?<=c)', '(?<!a)', '^', '$']);
    if (roll < 0.9) return `(${randomPattern(random, depth + 1)})`;
    return pick(['\\.', '\\-', 'a\\ b']);
  };
  const sequence = () =>
    Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
      const quantifier = random() < 0.3 ? pick(['?', '*', '+', '{1,2}', '{2}', '{0,3}', '??', '+?']) : '';
      return atom() + quantifier;
    }).join('');
  return Array.from({ length: 1 + Math.floor(random() * 3) }, sequence).join('|');
}

describe('the literals a pattern needs', () => {
  it('reads words, alternatives, optional parts and what matches no character', () => {
    expect(requiredLiterals('wait (?:until|till)', '')?.sort()).toEqual(['wait till', 'wait until']);
    expect(requiredLiterals('credentials?', '')).toEqual(['credential']);
    expect(requiredLiterals('(?<!x)abc(?=d)\\b', '')).toEqual(['abc']);
    expect(requiredLiterals('[ab]cd', '')).toEqual(['cd']);
    expect(requiredLiterals('a\\.b', '')).toEqual(['a.b']);
    expect(requiredLiterals('x(?:\\w+ )?review', '')).toEqual(['review']);
    expect(requiredLiterals('\\u{1F600}x', 'u')).toEqual(['\u{1F600}x']);
    expect(requiredLiterals('等我|密码', '')?.sort()).toEqual(['密码', '等我']);
  });

  it('gives none where a match can be empty, ignores case or refers back', () => {
    for (const [source, flags] of [
      ['a?', ''],
      ['x*', ''],
      ['(?:)', ''],
      ['a|', ''],
      ['abc', 'i'],
      ['(a)\\1', ''],
      ['\\u{1F600}?', 'u'],
      ['[ab]', ''],
    ] as const) {
      expect(requiredLiterals(source, flags), `/${source}/${flags}`).toBeNull();
    }
  });

  it('never leaves out a match, over thousands of random patterns and texts', () => {
    const random = seeded(3);
    const texts = Array.from({ length: 60 }, () =>
      Array.from({ length: Math.floor(random() * 24) }, () => 'abc. -'[Math.floor(random() * 6)]).join(''),
    );
    let read = 0;
    const broken: string[] = [];
    for (let n = 0; n < 3000; n++) {
      const source = randomPattern(random);
      try {
        new RegExp(source);
      } catch {
        continue; // a quantified anchor, say: no pattern at all
      }
      if (requiredLiterals(source, '')) read++;
      broken.push(...holds(source, '', texts));
    }
    expect(broken.slice(0, 5)).toEqual([]);
    expect(read).toBeGreaterThan(1000);
  });
});

const dataDir = findDataDir();

describe.skipIf(!hasData(dataDir))('the cues with their literals, on the labelled data', () => {
  it('say for each rule set what its cues alone say, on every labelled text', () => {
    const texts: string[] = [];
    const fields = ['said', 'agent_before', 'reply_tail', 'text', 'input_summary', 'error_first_lines'];
    for (const file of ['messages', 'handbacks', 'tool_failures', 'surprises']) {
      for (const line of readFileSync(join(dataDir, `${file}.jsonl`), 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const row = JSON.parse(line) as Record<string, string>;
        for (const field of fields) if (row[field]) texts.push(row[field]);
      }
    }
    const sets = Object.values(cues).filter((value): value is cues.RuleSet => 'groups' in Object(value));
    let withLiterals = 0;
    let passedOver = 0;
    for (const set of sets) {
      const list = compile(set);
      if (list.literals) withLiterals++;
      // Each cue as it matches without its literals.
      const bare = list.cues.map((cue) => ({ ...cue, literals: null }));
      for (const text of texts.flatMap((raw) => [normalizeText(raw), normalizeLines(raw)])) {
        const matched = bare.map((cue) => nextMatch(cue, text, 0)?.index ?? -1);
        const pruned = list.cues.map((cue) => nextMatch(cue, text, 0)?.index ?? -1);
        expect(pruned, `${set.name}: ${text.slice(0, 80)}`).toEqual(matched);
        if (matched.some((at) => at >= 0))
          expect(mayMatch(list, text), `${set.name}: ${text.slice(0, 80)}`).toBe(true);
        else if (list.literals && !list.literals.some((literal) => text.includes(literal))) passedOver++;
      }
    }
    expect(withLiterals).toBeGreaterThan(sets.length / 2);
    // Most texts are turned away by the literals alone.
    expect(passedOver).toBeGreaterThan(texts.length);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRecordLine } from '../../src/protocol/index.ts';
import vectors from './vectors.json' with { type: 'json' };

const doc = readFileSync(new URL('../../docs/PROTOCOL.md', import.meta.url), 'utf8');

describe('docs/PROTOCOL.md', () => {
  it('shows records a receiver accepts', () => {
    const block = /```jsonl\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const kinds = block
      .trim()
      .split('\n')
      .map((line) => {
        const parsed = parseRecordLine(line);
        if ('refused' in parsed) throw new Error(`${parsed.refused}: ${line}`);
        return parsed.kind;
      });
    expect(kinds).toEqual(['lesson', 'confirm', 'revoke']);
  });

  it('lists every test vector with its hash', () => {
    // Tables are padded to align their columns.
    const cells = doc.replace(/ +\|/g, ' |');
    for (const vector of vectors) expect(cells).toContain(`| ${vector.name} | ${vector.kind} |`);
    for (const vector of vectors) expect(doc).toContain(`\`${vector.hash}\``);
  });
});

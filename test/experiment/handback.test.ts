import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReply, reminderWouldFire } from '../../src/experiment/index.ts';
import { repoRoot } from '../helpers/remem.ts';

describe("the experiments' hand-back rule", () => {
  it('reads the closing by the hooks’ rule, then a question or an instruction to the person', () => {
    expect(readReply('The release is ready. Want me to publish it?')).toEqual({
      handback: true,
      act: 'offer',
    });
    expect(
      readReply('I tagged v2.4.0. Which registry should it go to, the public one or ours?').handback,
    ).toBe(true);
    expect(readReply('Patched src/date.ts.\n\nRun `npm test` to check it.')).toMatchObject({
      handback: true,
    });
    expect(readReply('Bumped the image to node:20.\n\n1. Rebuild the container\n2. Push it')).toMatchObject({
      handback: true,
      act: 'instructs',
    });
    expect(readReply('Done: merged feature/search into main and pushed.')).toEqual({
      handback: false,
      act: null,
    });
    expect(readReply('Fixed removeItem and the test passes. Anything else you need?')).toEqual({
      handback: false,
      act: null,
    });
    // A question mark inside code or thinking is not a question.
    expect(
      readReply('<think>Should I ask?</think>Fixed:\n```ts\nconst x = a ? b : c;\n```\nAll tests pass.')
        .handback,
    ).toBe(false);
    // Only the closing 400 characters count.
    expect(readReply(`Should I do it? ${'I did it and checked the result. '.repeat(20)}`).handback).toBe(
      false,
    );
  });

  it('fires the reminder by the Stop hook’s own rule: an offer, unless only the person has what is needed', () => {
    expect(reminderWouldFire('Want me to publish it?', 'The release is ready to ship.')).toBe(true);
    expect(reminderWouldFire('Could you share the token?', 'The release is ready to ship.')).toBe(false);
    expect(
      reminderWouldFire('Want me to publish it?', "wait until I've told everyone before you publish"),
    ).toBe(false);
  });

  const data = resolve(
    process.env['REMEM_DATA_DIR'] ?? resolve(repoRoot, '../shared/data'),
    'handbacks.jsonl',
  );
  it.skipIf(!existsSync(data))(
    'is measured on the labelled hand-backs (precision and recall, beside the hooks’ rule)',
    () => {
      const rows = readFileSync(data, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { reply_tail: string; label: string });
      const figures = (predict: (text: string) => boolean) => {
        let tp = 0;
        let fp = 0;
        let fn = 0;
        for (const row of rows) {
          const predicted = predict(row.reply_tail);
          const expected = row.label === 'handback';
          if (predicted && expected) tp++;
          else if (predicted) fp++;
          else if (expected) fn++;
        }
        return { precision: tp / (tp + fp), recall: tp / (tp + fn) };
      };
      const experiments = figures((text) => readReply(text).handback);
      // Measured: precision 0.956, recall 0.977 on 172 labelled replies (the hooks' rule alone: 1.000, 0.977). The
      // rule is broader by design: a question that hands the next step back counts.
      console.info(
        `hand-back rule of the experiments: precision ${experiments.precision.toFixed(3)}, recall ${experiments.recall.toFixed(3)}`,
      );
      expect(experiments.precision).toBeGreaterThanOrEqual(0.93);
      expect(experiments.recall).toBeGreaterThanOrEqual(0.95);
    },
  );
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scoreCorrection } from '../../src/episodes/detect.ts';
import { examplesOf, SOFT_WEIGHT } from '../../src/episodes/model/cross-validate.ts';
import { type Example, fitDefaults, fitModel, probability } from '../../src/episodes/model/fit.ts';
import { readLabelledMessages } from '../../src/episodes/model/labelled.ts';
import { messageContext } from '../../src/episodes/training.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A data folder with one labelled batch row in each batch and one history. */
function dataWith(history: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'remem-labelled-'));
  dirs.push(dir);
  const row = JSON.stringify({
    id: 'm1',
    source: 'owner/repo:file.jsonl',
    said: 'no, keep the old flag',
    agent_before: 'I renamed the flag.',
    label: 'correction',
    why: 'denies',
  });
  mkdirSync(join(dir, 'batch2'));
  mkdirSync(join(dir, 'histories'));
  writeFileSync(join(dir, 'messages.jsonl'), `${row}\n`);
  writeFileSync(join(dir, 'batch2', 'messages.jsonl'), `${row}\n`);
  writeFileSync(join(dir, 'histories', 'owner__project.json'), JSON.stringify(history));
  return dir;
}

describe('readLabelledMessages', () => {
  it('reads a message right after the person’s own as ingest does: against the agent’s words the first one answered', () => {
    const dir = dataWith({
      source: 'owner/project',
      sessions: [
        {
          id: 's01',
          turns: [
            { role: 'user', n: 0, text: 'Start implementation' },
            { role: 'assistant', n: 1, text: 'I ran the checks with python3 and they pass.' },
            { role: 'user', n: 2, text: 'Looks fine' },
            { role: 'user', n: 3, text: 'use uv instead of python or python3' },
            { role: 'assistant', n: 4, text: 'Switching to uv run.' },
            { role: 'user', n: 5, text: 'thanks' },
          ],
        },
      ],
      corrections: [{ session: 's01', turn: 3, why: 'names the tool to use' }],
    });
    const rows = readLabelledMessages(dir).filter((row) => row.set === 'histories');
    expect(rows.map((row) => [row.said, row.before, row.followsMessage === true, row.positive])).toEqual([
      ['Start implementation', '', false, false],
      ['Looks fine', 'I ran the checks with python3 and they pass.', false, false],
      ['use uv instead of python or python3', 'I ran the checks with python3 and they pass.', true, true],
      ['thanks', 'Switching to uv run.', false, false],
    ]);
    // No hand-back is left for it to answer, as ingest passes none for a message after the person's own.
    const follows = rows[2]!;
    expect(messageContext(follows)).toMatchObject({ handback: null, followsMessage: true });
    expect(messageContext(rows[1]!).followsMessage).toBe(false);
  });

  it('finds a rule said right after the person’s own message, which an empty agent turn would hide', () => {
    const said = 'use uv instead of python or python3';
    const before = 'I ran the checks with python3 and they pass.';
    expect(scoreCorrection(said, '', null).hit).toBeNull();
    expect(scoreCorrection(said, before, null, true).hit?.rule).toBe('CONVENTION');
    // The learned detector is told the message follows the person's own: it weighs that apart from a hand-back.
    const judged = 'the table is broken again';
    const alone = scoreCorrection(judged, before, null, false).score;
    const follows = scoreCorrection(judged, before, null, true).score;
    expect(alone).toEqual(expect.any(Number));
    expect(follows).toEqual(expect.any(Number));
    expect(follows).not.toBe(alone);
  });
});

describe('soft corrections', () => {
  const rows = [
    { said: 'no, keep the old flag', positive: true, soft: false },
    { said: 'could you also add a flag for dry runs', positive: true, soft: true },
    { said: 'thanks, looks good', positive: false, soft: false },
  ].map((row, i) => ({
    id: `m${i}`,
    repo: `r${i}`,
    set: 'batch2' as const,
    lang: 'en',
    before: 'I renamed the flag and it should now work.',
    ...row,
  }));
  const options = { ...fitDefaults, dims: 1 << 10 };

  it('count whole in the figures and a quarter in fitting', () => {
    const examples = examplesOf(rows, messageContext, 1 << 10);
    expect(examples.map((example) => example.weight ?? 1)).toEqual([1, SOFT_WEIGHT, 1]);
    expect(examples.map((example) => example.positive)).toEqual([true, true, false]);
  });

  it('move the fit in proportion to their weight', () => {
    const [clear, soft, negative] = examplesOf(rows, messageContext, 1 << 10) as [Example, Example, Example];
    const score = (weight: number) =>
      probability(fitModel([clear, { ...soft, weight }, negative], options), soft.features);
    expect(score(0.25)).toBeGreaterThan(score(0));
    expect(score(1)).toBeGreaterThan(score(0.25));
  });
});

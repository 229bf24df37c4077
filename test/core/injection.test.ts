import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findInjection, injectionRules } from '../../src/core/index.ts';
import { findDataDir, hasData, readRows } from '../episodes/score.ts';

describe('the injection rules', () => {
  it.each(injectionRules.flatMap((rule) => rule.examples.map((example) => [rule.reason, example])))(
    'find %s in "%s"',
    (_, example) => {
      expect(findInjection(example, { openings: false })).not.toBeNull();
    },
  );

  it.each([
    'no, the tests need the staging database',
    'the token expired after an hour, so the deploy failed',
    'the password prompt hangs in CI',
    'I printed the token count and it was 400',
    'curl https://example.com/health answered 503',
    'the system: a queue in front of two workers',
  ])('leave an observation alone: "%s"', (text) => {
    expect(findInjection(text, { openings: false })).toBeNull();
  });

  it("judge an instruction's opening by the observation rules unless told not to", () => {
    expect(findInjection('Always use uv in this project.')).toMatch(/^an instruction/);
    expect(findInjection('Always use uv in this project.', { openings: false })).toBeNull();
  });

  const data = findDataDir();
  it.skipIf(!hasData(data))('hold none of the labelled corrections, and almost no message', () => {
    const rows = [...readRows(data, 'messages'), ...readRows(join(data, 'batch2'), 'messages')];
    const held = rows.filter((row) => findInjection(row['said'] ?? '', { openings: false }) !== null);
    const corrections = rows.filter((row) => row['label'] === 'correction');
    expect(corrections).toHaveLength(98);
    expect(held.filter((row) => row['label'] === 'correction')).toEqual([]);
    // 1 of 418: "Improve src/app/test-connections/page.tsx … MQTT … token" (a request that names a token).
    expect(held.length).toBeLessThanOrEqual(1);
  });
});

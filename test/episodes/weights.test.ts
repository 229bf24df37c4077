import { describe, expect, it } from 'vitest';
import { lazyModel, scoreWith, WEIGHTS_VERSION } from '../../src/episodes/model/weights.ts';

const file = (overrides: Record<string, unknown> = {}) => ({
  format: 'remem-detector-model',
  version: WEIGHTS_VERSION,
  detector: 'failure',
  dims: 4,
  threshold: 0.5,
  fit: { rate: 0.3, epochs: 5, l2: 0, seed: 7, damping: 1 },
  bias: 0,
  weights: [0, 1, -1, 0],
  measured: {},
  ...overrides,
});

describe('a weights file', () => {
  it('scores the features it is handed', () => {
    const model = lazyModel('failure', () => file())();
    expect(scoreWith(model, (_, visit) => visit(1, 2))).toBeCloseTo(1 / (1 + Math.exp(-2)));
    expect(scoreWith(model, () => {})).toBe(0.5);
  });

  it('is refused when it is of another version, format or detector, not misread', () => {
    expect(() => lazyModel('failure', () => file({ version: WEIGHTS_VERSION - 1 }))()).toThrow(
      `v${WEIGHTS_VERSION}`,
    );
    expect(() => lazyModel('failure', () => file({ format: 'remem-correction-model' }))()).toThrow();
    expect(() => lazyModel('correction', () => file())()).toThrow(/correction/);
  });
});

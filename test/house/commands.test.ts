import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands.ts';

describe('the command table', () => {
  it('names each verb as its file does: the command line loads a verb by the name in the table alone', async () => {
    const specs = await Promise.all(commands.map((entry) => entry.load()));
    expect(specs.map((spec) => spec.name)).toEqual(commands.map((entry) => entry.name));
    expect(new Set(commands.map((entry) => entry.name)).size).toBe(commands.length);
  });
});

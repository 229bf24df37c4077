import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/cli/command.ts';
import { commonsCommand } from '../../src/cli/commons.ts';
import { simulateCommand } from '../../src/cli/simulate.ts';
import { createCommonsApp, openCommonsStore } from '../../src/commons/index.ts';
import { createClock, RememError, resolveConfig, UsageError } from '../../src/core/index.ts';
import { alice, day, fileOf, lesson, tempDir } from './helpers.ts';

function contextIn(home: string): Context {
  return {
    config: resolveConfig({ HOME: home }, { home }),
    clock: createClock(day(5)),
    json: false,
    interactive: false,
    stdinIsTTY: false,
    readStdin: async () => Buffer.alloc(0),
    stdout: () => undefined,
    stderr: () => undefined,
  };
}

const defaults = { port: 11437, host: '127.0.0.1', rate: 60, maxConnections: 256 };

describe('remem commons token', () => {
  it('adds a token that writes one origin, lists it, revokes it', async () => {
    const home = tempDir();
    const context = contextIn(home);
    const added = await commonsCommand.run(context, ['token', 'add', alice.origin], defaults);
    const issued = added?.json as { id: string; token: string; origin: string };
    expect(issued.origin).toBe(alice.origin);
    expect(issued.token).toMatch(/^rct_/);
    expect(added?.text).toContain('shown once');

    const store = await openCommonsStore(`sqlite:${home}/commons.db`);
    try {
      const app = createCommonsApp({ store, now: () => day(5) });
      const put = () =>
        app.request(`/commons/${alice.origin}.jsonl`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${issued.token}` },
          body: fileOf([lesson(alice, 0, day(1))]),
        });
      expect((await put()).status).toBe(200);

      const listed = await commonsCommand.run(context, ['token', 'list'], defaults);
      expect(listed?.json).toEqual([{ id: issued.id, origin: alice.origin, created: day(5), revoked: null }]);
      expect(listed?.text).not.toContain(issued.token);
      await commonsCommand.run(context, ['token', 'revoke', issued.id], defaults);
      expect((await put()).status).toBe(401);
    } finally {
      await store.close();
    }
    const any = await commonsCommand.run(context, ['token', 'add'], { ...defaults, any: true });
    expect(any?.json).toMatchObject({ origin: null });
  });

  it('refuses bad usage', async () => {
    const context = contextIn(tempDir());
    await expect(commonsCommand.run(context, ['token', 'add'], defaults)).rejects.toThrow(UsageError);
    await expect(commonsCommand.run(context, ['token', 'add', 'alice'], defaults)).rejects.toThrow(
      UsageError,
    );
    await expect(
      commonsCommand.run(context, ['token', 'add', alice.origin], { ...defaults, any: true }),
    ).rejects.toThrow(UsageError);
    await expect(commonsCommand.run(context, ['token', 'revoke', 'nope'], defaults)).rejects.toThrow(
      RememError,
    );
    await expect(commonsCommand.run(context, ['launch'], defaults)).rejects.toThrow(UsageError);
    await expect(
      commonsCommand.run(context, ['token', 'list'], { ...defaults, db: 'mysql://x' }),
    ).rejects.toThrow(/sqlite:PATH or postgres/);
  });
});

describe('remem simulate gossip', () => {
  it('prints the rounds table', async () => {
    const output = await simulateCommand.run(contextIn(tempDir()), ['gossip'], {
      agents: 64,
      fanout: 3,
      seed: 1,
    });
    expect(output?.text).toMatch(/^memories\s+fanout\s+lesson\s+common\s+revoked/m);
    expect(output?.text).toContain('cached per distinct line');
    await expect(
      simulateCommand.run(contextIn(tempDir()), ['gossip'], { fanout: 3, seed: 1 }),
    ).rejects.toThrow(UsageError);
  });
});

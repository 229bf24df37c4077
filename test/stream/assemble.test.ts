import { describe, expect, it } from 'vitest';
import { assemble } from '../../src/stream/assemble.ts';
import type { Turn, TurnBase, TurnBody } from '../../src/stream/types.ts';

/** Builds a session's turns in file order: each call is one line. */
function transcript() {
  const turns: Turn[] = [];
  let line = 0;
  const add = (stamp: Partial<TurnBase>, ...bodies: TurnBody[]) => {
    line++;
    bodies.forEach((body, part) => {
      turns.push({
        line,
        part,
        at: `2026-03-10T14:${String(line).padStart(2, '0')}:00.000Z`,
        ...stamp,
        ...body,
      });
    });
  };
  return { turns, add };
}

const prompt = (text: string): TurnBody => ({ type: 'prompt', text });
const reply = (text: string, messageId?: string): TurnBody =>
  messageId === undefined ? { type: 'reply', text } : { type: 'reply', text, messageId };
const call = (callId: string, messageId?: string): TurnBody => ({
  type: 'call',
  callId,
  tool: 'Bash',
  description: callId,
  input: callId,
  ...(messageId === undefined ? {} : { messageId }),
});
const result = (callId: string): TurnBody => ({ type: 'result', callId, status: 'ok', text: 'done' });
const link: TurnBody = { type: 'link' };

function texts(turns: readonly Turn[]): string[] {
  return turns.map((turn) =>
    turn.type === 'prompt' || turn.type === 'reply' || turn.type === 'compaction'
      ? `${turn.type}:${turn.text}`
      : turn.type === 'call' || turn.type === 'result'
        ? `${turn.type}:${turn.callId}`
        : turn.type,
  );
}

describe('assemble, Claude Code', () => {
  it('drops a rewound branch and keeps the live one', () => {
    const { turns, add } = transcript();
    add({ uuid: 'u1', cwd: '/home/dev/shop' }, prompt('add a --dry-run flag'));
    add({ uuid: 'a1', parent: 'u1' }, reply('Done.'));
    add({ uuid: 'u2', parent: 'a1' }, prompt('now delete products missing from the CSV'));
    add({ uuid: 'a2', parent: 'u2' }, call('edit-delete'));
    add({ uuid: 'r2', parent: 'a2' }, result('edit-delete'));
    add({ uuid: 'a3', parent: 'r2' }, reply('Missing products are deleted now.'));
    add({ uuid: 'u3', parent: 'a1' }, prompt('now list products missing from the CSV, do not delete'));
    add({ uuid: 'a4', parent: 'u3' }, reply('They are listed at the end.'));
    add({ uuid: 's1', parent: 'a4' }, link);
    const conversation = assemble('claude-code', 's', turns);
    expect(texts(conversation.items)).toEqual([
      'prompt:add a --dry-run flag',
      'reply:Done.',
      'prompt:now list products missing from the CSV, do not delete',
      'reply:They are listed at the end.',
    ]);
    expect(conversation).toMatchObject({ agent: 'claude-code', session: 's', cwd: '/home/dev/shop' });
  });

  it('drops a branch rewound to the very first prompt', () => {
    const { turns, add } = transcript();
    add({ uuid: 'u1' }, prompt('first try'));
    add({ uuid: 'a1', parent: 'u1' }, reply('ok'));
    add({ uuid: 'u2' }, prompt('second try'));
    add({ uuid: 'a2', parent: 'u2' }, reply('ok again'));
    expect(texts(assemble('claude-code', 's', turns).items)).toEqual(['prompt:second try', 'reply:ok again']);
  });

  it('reads lines that name no parent in file order, and a rewind after them as one', () => {
    const { turns, add } = transcript();
    add({ uuid: 'u1', follows: true }, prompt('add retries'));
    add({ uuid: 'a1', follows: true }, reply('Added, with axios.'));
    add({ uuid: 'u2', follows: true }, prompt('we never use axios here'));
    add({ uuid: 'a2', follows: true }, reply('Switched to fetch.'));
    expect(texts(assemble('claude-code', 's', turns).items)).toEqual([
      'prompt:add retries',
      'reply:Added, with axios.',
      'prompt:we never use axios here',
      'reply:Switched to fetch.',
    ]);
    // A line that does name its parent still rewinds: the branch from a1 is dead.
    add({ uuid: 'u3', parent: 'a1' }, prompt('use fetch from the start'));
    expect(texts(assemble('claude-code', 's', turns).items)).toEqual([
      'prompt:add retries',
      'reply:Added, with axios.',
      'prompt:use fetch from the start',
    ]);
  });

  it('keeps the side branches of parallel calls and hook progress', () => {
    const { turns, add } = transcript();
    add({ uuid: 'u1' }, prompt('run lint and tests'));
    add({ uuid: 'a1', parent: 'u1' }, call('lint'));
    add({ uuid: 'a2', parent: 'a1' }, call('test'));
    // The harness hangs the first result off the first call: a fork that is not a rewind.
    add({ uuid: 'r1', parent: 'a1' }, result('lint'));
    add({ uuid: 'p1', parent: 'a2' }, link);
    add({ uuid: 'r2', parent: 'a2' }, result('test'));
    add({ uuid: 'a3', parent: 'r2' }, reply('Both pass.'));
    add({ uuid: 'p2', parent: 'a3' }, link);
    expect(texts(assemble('claude-code', 's', turns).items)).toEqual([
      'prompt:run lint and tests',
      'call:lint',
      'call:test',
      'result:lint',
      'result:test',
      'reply:Both pass.',
    ]);
  });

  it('follows the newest turn that says something, not a trailing progress line', () => {
    const { turns, add } = transcript();
    add({ uuid: 'u1' }, prompt('deploy'));
    add({ uuid: 'a1', parent: 'u1' }, call('deploy'));
    add({ uuid: 'r1', parent: 'a1' }, result('deploy'));
    add({ uuid: 'a2', parent: 'r1' }, reply('Deployed.'));
    add({ uuid: 'p1', parent: 'a1' }, link);
    expect(texts(assemble('claude-code', 's', turns).items)).toEqual([
      'prompt:deploy',
      'call:deploy',
      'result:deploy',
      'reply:Deployed.',
    ]);
  });

  it('goes through a compaction boundary and joins it with its summary', () => {
    const { turns, add } = transcript();
    add({ uuid: 'u1' }, prompt('why are orders stuck?'));
    add({ uuid: 'a1', parent: 'u1' }, reply('The webhook returns early.'));
    add({ uuid: 'cb', parent: 'a1' }, { type: 'compaction', text: '' });
    add({ uuid: 'cs', parent: 'cb' }, { type: 'compaction', text: 'This session is being continued…' });
    add({ uuid: 'a2', parent: 'cs' }, reply('Continuing.'));
    expect(texts(assemble('claude-code', 's', turns).items)).toEqual([
      'prompt:why are orders stuck?',
      'reply:The webhook returns early.',
      'compaction:This session is being continued…',
      'reply:Continuing.',
    ]);
  });

  it('bridges a parent missing from the file instead of dropping what came before', () => {
    const { turns, add } = transcript();
    add({ uuid: 'u1' }, prompt('start'));
    add({ uuid: 'a1', parent: 'u1' }, reply('started'));
    add({ uuid: 'u2', parent: 'gone' }, prompt('go on'));
    add({ uuid: 'a2', parent: 'u2' }, reply('going on'));
    expect(texts(assemble('claude-code', 's', turns).items)).toEqual([
      'prompt:start',
      'reply:started',
      'prompt:go on',
      'reply:going on',
    ]);
  });

  it('keeps sidechains and turns without a uuid where they stand', () => {
    const { turns, add } = transcript();
    add({ uuid: 'u1' }, prompt('survey the jobs'));
    add({ uuid: 'a1', parent: 'u1' }, call('task'));
    add({ uuid: 'x1', sidechain: true }, prompt('Survey src/jobs.'));
    add({ uuid: 'x2', parent: 'x1', sidechain: true }, reply('Three jobs.'));
    add({}, { type: 'prompt', text: 'also the cron ones', queued: true });
    add({ uuid: 'r1', parent: 'a1' }, result('task'));
    add({ uuid: 'y1', sidechain: true }, prompt('a subagent file'));
    const items = assemble('claude-code', 's', turns).items;
    expect(texts(items)).toEqual([
      'prompt:survey the jobs',
      'call:task',
      'prompt:Survey src/jobs.',
      'reply:Three jobs.',
      'prompt:also the cron ones',
      'result:task',
      'prompt:a subagent file',
    ]);
    expect(items.filter((turn) => turn.sidechain === true)).toHaveLength(3);
  });

  it('joins the pieces of one reply, once each', () => {
    const { turns, add } = transcript();
    add({ uuid: 'u1' }, prompt('fix it'));
    add({ uuid: 'a1', parent: 'u1' }, reply('First part.', 'msg_1'));
    add({ uuid: 'a2', parent: 'a1' }, call('edit', 'msg_1'));
    add({ uuid: 'a3', parent: 'a2' }, reply('Second part.', 'msg_1'), reply('Second part.', 'msg_1'));
    add({ uuid: 'a4', parent: 'a3' }, reply('Another message.', 'msg_2'));
    const items = assemble('claude-code', 's', turns).items;
    expect(texts(items)).toEqual([
      'prompt:fix it',
      'reply:First part.\n\nSecond part.',
      'call:edit',
      'reply:Another message.',
    ]);
    expect(turns[1]).toMatchObject({ text: 'First part.' });
  });

  it('reads a line written twice once', () => {
    const { turns, add } = transcript();
    add({ uuid: 'u1' }, prompt('fix it'));
    add({ uuid: 'a1', parent: 'u1' }, reply('Fixed.', 'msg_1'));
    add({ uuid: 'a1', parent: 'u1' }, reply('Fixed.', 'msg_1'));
    add({ uuid: 'u2', parent: 'a1' }, prompt('thanks'));
    add({ uuid: 'u2', parent: 'a1' }, prompt('thanks'));
    expect(texts(assemble('claude-code', 's', turns).items)).toEqual([
      'prompt:fix it',
      'reply:Fixed.',
      'prompt:thanks',
    ]);
  });

  it('does not hang on a cycle of parents', () => {
    const { turns, add } = transcript();
    add({ uuid: 'u1', parent: 'a1' }, prompt('loop'));
    add({ uuid: 'a1', parent: 'u1' }, reply('loop back'));
    add({ uuid: 'b1', parent: 'b2' }, reply('elsewhere'));
    add({ uuid: 'b2', parent: 'b1' }, link);
    add({ uuid: 'a2', parent: 'a1' }, reply('end'));
    expect(texts(assemble('claude-code', 's', turns).items)).toContain('reply:end');
  });

  it('has no cwd when no turn carries one', () => {
    expect(assemble('claude-code', 's', []).cwd).toBeNull();
  });
});

describe('assemble, Codex', () => {
  it('keeps the event copy of each visible turn', () => {
    const { turns, add } = transcript();
    add({ cwd: '/home/dev/shop' }, link);
    add({ echo: true }, prompt('continue'));
    add({}, prompt('continue'));
    add({}, call('c1'));
    add({}, result('c1'));
    add({ echo: true }, reply('Found it.'));
    add({}, reply('Found it.'));
    add({}, reply('Fixed.'));
    add({ echo: true }, reply('Fixed.'));
    add({}, prompt('continue'));
    add({ echo: true }, prompt('continue'));
    const conversation = assemble('codex', 'c', turns);
    expect(texts(conversation.items)).toEqual([
      'prompt:continue',
      'call:c1',
      'result:c1',
      'reply:Found it.',
      'reply:Fixed.',
      'prompt:continue',
    ]);
    expect(conversation.items.every((turn) => turn.echo !== true)).toBe(true);
    expect(conversation.cwd).toBe('/home/dev/shop');
  });

  it('keeps a prompt typed twice in a row', () => {
    const { turns, add } = transcript();
    add({ echo: true }, prompt('retry'));
    add({}, prompt('retry'));
    add({ echo: true }, prompt('retry'));
    add({}, prompt('retry'));
    expect(texts(assemble('codex', 'c', turns).items)).toEqual(['prompt:retry', 'prompt:retry']);
  });

  it('pairs copies whose texts differ, and keeps echoes that have no event copy', () => {
    const { turns, add } = transcript();
    add({ echo: true }, prompt('look at this [image]'));
    add({}, prompt('look at this'));
    add({}, call('c1'));
    add({ echo: true }, reply('An older rollout without events.'));
    expect(texts(assemble('codex', 'c', turns).items)).toEqual([
      'prompt:look at this',
      'call:c1',
      'reply:An older rollout without events.',
    ]);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assemble } from '../../src/stream/assemble.ts';
import { claudeCodeReader } from '../../src/stream/claude-code.ts';
import { discoverTranscripts } from '../../src/stream/discover.ts';
import type { Conversation, Turn } from '../../src/stream/types.ts';
import { readFile } from './read.ts';

const EXAMPLES = join(import.meta.dirname, '../../examples/claude');

function conversations(): Conversation[] {
  const files = discoverTranscripts({ claudeDirs: [EXAMPLES], codexDirs: [] });
  return files.map(({ path }) => {
    const { turns, warnings } = readFile(claudeCodeReader, path);
    expect(warnings).toEqual([]);
    return assemble('claude-code', claudeCodeReader.sessionOf(path), turns);
  });
}

const said = (conversation: Conversation) =>
  conversation.items.flatMap((turn: Turn) =>
    turn.type === 'prompt' ? [turn.text] : turn.type === 'result' && turn.reason ? [turn.reason] : [],
  );

describe('bundled example sessions', () => {
  it('are four sessions in two projects that read without a warning', () => {
    const all = conversations();
    expect(all).toHaveLength(4);
    expect(new Set(all.map((conversation) => conversation.cwd))).toEqual(
      new Set(['/home/maya/code/tidepool', '/home/maya/code/harbor-notes']),
    );
  });

  it('hold the same correction in two sessions, the same mistake in two, a surprise and offers', () => {
    const all = conversations();
    const pnpm = all.filter((conversation) => said(conversation).some((text) => /pnpm/.test(text)));
    expect(pnpm).toHaveLength(2);
    const grep = all.filter((conversation) =>
      conversation.items.some(
        (turn) =>
          turn.type === 'result' && turn.status === 'failed' && turn.text.includes('Unknown option `--grep`'),
      ),
    );
    expect(grep).toHaveLength(2);
    const replies = all.flatMap((conversation) =>
      conversation.items.flatMap((turn) => (turn.type === 'reply' ? [turn.text] : [])),
    );
    expect(replies.some((text) => text.includes('it turns out'))).toBe(true);
    expect(replies.filter((text) => /\?$/.test(text)).length).toBeGreaterThanOrEqual(3);
  });
});

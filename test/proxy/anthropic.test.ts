import { describe, expect, it } from 'vitest';
import { anthropic } from '../../src/proxy/anthropic.ts';
import { countBreakpoints, type Injection } from '../../src/proxy/index.ts';
import { sseSink } from '../../src/proxy/tap.ts';
import { anthropicJson, anthropicStream, expectedReply, TEXT } from './wire.ts';

const memory = (reason: Injection['reason']): Injection => ({ text: 'M', lessonHashes: ['h'], reason });
const cached = { type: 'ephemeral' };
const feed = (events: string[]) => {
  const sink = sseSink(anthropic);
  for (const event of events) sink.push(Buffer.from(event));
  return sink.result();
};

describe('anthropic', () => {
  it('normalises system blocks, tool results and text blocks', () => {
    const messages = anthropic.normalise({
      system: [
        { type: 'text', text: 'billing' },
        { type: 'text', text: 'static', cache_control: cached },
      ],
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 's' },
            { type: 'text', text: 'calling' },
            { type: 'tool_use', id: 't', name: 'f', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'out' }] },
            { type: 'text', text: 'and now?' },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'plain' }] },
      ],
    });
    expect(messages).toEqual([
      { role: 'system', text: 'billing\n\nstatic' },
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: 'calling' },
      { role: 'tool', text: 'out' },
      { role: 'user', text: 'and now?' },
      { role: 'tool', text: 'plain' },
    ]);
  });

  it('counts breakpoints in tools, system, messages, tool results and at the top level', () => {
    expect(
      countBreakpoints({
        cache_control: cached,
        tools: [{ name: 'a', cache_control: cached, input_schema: { properties: { cache_control: {} } } }],
        system: [{ type: 'text', text: 's', cache_control: cached }],
        messages: [
          { role: 'user', content: 'plain' },
          {
            role: 'user',
            content: [{ type: 'tool_result', content: [{ type: 'text', text: 'x', cache_control: cached }] }],
          },
        ],
      }),
    ).toBe(4);
  });

  it('places first with a breakpoint while there is room, last without one', () => {
    expect(anthropic.place({ messages: [] }, memory('first'))).toEqual({
      messages: [],
      system: [{ type: 'text', text: 'M', cache_control: cached }],
    });
    const full = {
      system: [1, 2, 3, 4].map((n) => ({ type: 'text', text: `s${n}`, cache_control: cached })),
      messages: [],
    };
    const placed = anthropic.place(full, memory('first'));
    expect(placed.system).toEqual([...full.system, { type: 'text', text: 'M' }]);
    expect(countBreakpoints(placed)).toBe(4);
    expect(anthropic.place({ messages: [] }, memory('last'))).toEqual({ messages: [], system: 'M' });
  });

  it('places the moment after the latest user message, or in the system when the last turn is not the user’s', () => {
    const user = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] };
    expect(anthropic.place({ messages: [user] }, memory('reminder')).messages).toEqual([
      { ...user, content: [...user.content, { type: 'text', text: 'M' }] },
    ]);
    expect(anthropic.place({ messages: [{ role: 'user', content: '' }] }, memory('moment')).messages).toEqual(
      [{ role: 'user', content: [{ type: 'text', text: 'M' }] }],
    );
    const prefill = {
      system: 'S',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '{' },
      ],
    };
    expect(anthropic.place(prefill, memory('moment'))).toEqual({ ...prefill, system: 'S\n\nM' });
  });

  it('reads the reply from a JSON answer and from a stream', () => {
    expect(anthropic.replyFromJson(anthropicJson({ tool: true }))).toMatchObject({
      reply: expectedReply(true),
    });
    expect(feed(anthropicStream({ tool: true }))).toMatchObject({
      reply: expectedReply(true),
      complete: true,
      failed: false,
    });
    expect(feed(anthropicStream({ error: true }))).toMatchObject({
      reply: TEXT,
      complete: false,
      failed: true,
    });
  });

  it('tolerates unknown event types', () => {
    const [start, ...rest] = anthropicStream();
    const odd = 'event: fallback\ndata: {"type":"fallback","index":0}\n\n';
    expect(feed([start!, odd, ...rest])).toMatchObject({ reply: TEXT, complete: true, malformed: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import type { Injection } from '../../src/proxy/index.ts';
import { responses } from '../../src/proxy/responses.ts';
import { sseSink } from '../../src/proxy/tap.ts';
import { expectedReply, responsesJson, responsesStream, TEXT } from './wire.ts';

const memory = (reason: Injection['reason']): Injection => ({ text: 'M', lessonHashes: ['h'], reason });
const feed = (events: string[]) => {
  const sink = sseSink(responses);
  for (const event of events) sink.push(Buffer.from(event));
  return sink.result();
};

describe('responses', () => {
  it('normalises instructions, a string input and input items', () => {
    expect(responses.normalise({ instructions: 'I', input: 'hi' })).toEqual([
      { role: 'system', text: 'I' },
      { role: 'user', text: 'hi' },
    ]);
    expect(
      responses.normalise({
        input: [
          { role: 'developer', content: 'dev' },
          {
            type: 'message',
            role: 'user',
            content: [{ type: 'input_text', text: 'q' }, { type: 'input_image' }],
          },
          { type: 'reasoning', summary: [] },
          { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c', output: 'out' },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] },
        ],
      }),
    ).toEqual([
      { role: 'system', text: 'dev' },
      { role: 'user', text: 'q' },
      { role: 'tool', text: 'out' },
      { role: 'assistant', text: 'a' },
    ]);
  });

  it('appends the memory to the instructions first or last, as a developer item at the moment', () => {
    expect(responses.place({ instructions: 'I', input: 'hi' }, memory('first'))).toEqual({
      instructions: 'I\n\nM',
      input: 'hi',
    });
    expect(responses.place({ input: 'hi' }, memory('last'))).toEqual({ instructions: 'M', input: 'hi' });
    expect(responses.place({ input: 'hi' }, memory('moment'))).toEqual({
      input: [
        { type: 'message', role: 'user', content: 'hi' },
        { type: 'message', role: 'developer', content: 'M' },
      ],
    });
    const items = [{ role: 'user', content: 'hi' }];
    expect(responses.place({ input: items }, memory('reminder')).input).toEqual([
      ...items,
      { type: 'message', role: 'developer', content: 'M' },
    ]);
  });

  it('reads the reply from a JSON answer and from a stream, with the response id', () => {
    expect(responses.replyFromJson(responsesJson({ tool: true }))).toMatchObject({
      reply: expectedReply(true),
      responseId: 'resp_1',
    });
    expect(feed(responsesStream({ tool: true }))).toMatchObject({
      reply: expectedReply(true),
      complete: true,
      failed: false,
      responseId: 'resp_1',
    });
  });

  it('rebuilds the reply from deltas when the stream stops before response.completed', () => {
    const cut = responsesStream().slice(0, 6);
    expect(feed(cut)).toMatchObject({ reply: TEXT, complete: false, responseId: 'resp_1' });
  });

  it('marks failed and incomplete responses and error events', () => {
    const failed =
      'event: response.failed\ndata: {"type":"response.failed","response":{"id":"r","output":[]}}\n\n';
    expect(feed([failed])).toMatchObject({ complete: true, failed: true });
    expect(feed(['event: error\ndata: {"type":"error","message":"x"}\n\n'])).toMatchObject({ failed: true });
  });
});

import { describe, expect, it } from 'vitest';
import { chat } from '../../src/proxy/chat.ts';
import type { Injection } from '../../src/proxy/index.ts';
import { sseSink } from '../../src/proxy/tap.ts';
import { chatJson, chatStream, expectedReply } from './wire.ts';

const memory = (reason: Injection['reason']): Injection => ({ text: 'M', lessonHashes: ['h'], reason });
const feed = (events: string[]) => {
  const sink = sseSink(chat);
  for (const event of events) sink.push(Buffer.from(event));
  return sink.result();
};

describe('chat', () => {
  it('normalises roles and content parts, leaving out messages without text', () => {
    const messages = chat.normalise({
      messages: [
        { role: 'developer', content: 'be brief' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'x' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: 'result' },
        { role: 'function', name: 'f', content: 'old result' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
        'not a message',
      ],
    });
    expect(messages).toEqual([
      { role: 'system', text: 'be brief' },
      { role: 'user', text: 'look' },
      { role: 'tool', text: 'result' },
      { role: 'tool', text: 'old result' },
      { role: 'user', text: 'a\n\nb' },
    ]);
  });

  it('places the memory first after the leading system messages, else last', () => {
    const body = {
      model: 'm',
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'U' },
      ],
    };
    expect(chat.place(body, memory('first')).messages).toEqual([
      { role: 'system', content: 'S' },
      { role: 'system', content: 'M' },
      { role: 'user', content: 'U' },
    ]);
    for (const reason of ['last', 'moment', 'reminder'] as const) {
      expect(chat.place(body, memory(reason)).messages).toEqual([
        ...body.messages,
        { role: 'system', content: 'M' },
      ]);
    }
    expect(body.messages).toHaveLength(2);
  });

  it('reads the reply from a JSON answer and from a stream', () => {
    expect(chat.replyFromJson(chatJson({ tool: true }))).toMatchObject({
      reply: expectedReply(true),
      complete: true,
    });
    expect(feed(chatStream({ tool: true }))).toMatchObject({
      reply: expectedReply(true),
      complete: true,
      failed: false,
      malformed: 0,
    });
  });

  it('knows a stream cut before its end', () => {
    expect(feed(chatStream().slice(0, 2))).toMatchObject({ reply: 'Hel', complete: false });
  });

  it('tolerates choices: null and an error chunk', () => {
    const result = feed([
      'data: {"choices":null}\n\n',
      'data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\n\n',
      'data: {"error":{"message":"boom"}}\n\n',
    ]);
    expect(result).toMatchObject({ reply: 'x', failed: true });
  });
});

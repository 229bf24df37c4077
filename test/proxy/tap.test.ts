import { describe, expect, it } from 'vitest';
import { chat } from '../../src/proxy/chat.ts';
import { jsonSink, sseSink, tapStream } from '../../src/proxy/tap.ts';
import { chatJson, TEXT } from './wire.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('sseSink', () => {
  it('reads CRLF lines, comments, multi-line data and events split across chunks', () => {
    const sink = sseSink(chat);
    const stream =
      ': keep-alive\r\n\r\n' +
      'data: {"choices":[{"index":0,\r\ndata: "delta":{"content":"Hel"}}]}\r\n\r\n' +
      'data: {"choices":[{"index":0,"delta":{"content":"lo!"},"finish_reason":"stop"}]}\n\n' +
      'data: [DONE]\n\n';
    for (let at = 0; at < stream.length; at += 7) sink.push(bytes(stream.slice(at, at + 7)));
    expect(sink.result()).toMatchObject({ reply: TEXT, complete: true, malformed: 0 });
  });

  it('keeps a character split between chunks whole', () => {
    const sink = sseSink(chat);
    const event = bytes('data: {"choices":[{"index":0,"delta":{"content":"é"}}]}\n\n');
    const split = event.indexOf(0xc3) + 1;
    sink.push(event.slice(0, split));
    sink.push(event.slice(split));
    expect(sink.result().reply).toBe('é');
  });

  it('stops reading, not relaying, at an event past its limit', () => {
    const sink = sseSink(chat, 64);
    sink.push(bytes(`data: ${'x'.repeat(100)}`));
    expect(() => sink.push(bytes('\n\n'))).toThrow();
    expect(sink.result().malformed).toBe(1);
  });

  it('counts lines it cannot read', () => {
    const sink = sseSink(chat);
    sink.push(bytes('garbage\n\ndata: {oops\n\nretry: soon\n\n'));
    expect(sink.result().malformed).toBe(3);
  });
});

describe('jsonSink', () => {
  it('reads the body once it ended, and gives up past its limit', () => {
    const whole = bytes(JSON.stringify(chatJson()));
    const sink = jsonSink(chat);
    sink.push(whole.slice(0, 10));
    sink.push(whole.slice(10));
    expect(sink.result()).toMatchObject({ reply: TEXT, complete: true, malformed: 0 });

    const small = jsonSink(chat, 5);
    small.push(whole);
    expect(small.result()).toMatchObject({ reply: '', failed: true });

    const broken = jsonSink(chat);
    broken.push(bytes('{"choices": ['));
    expect(broken.result()).toMatchObject({ malformed: 1, failed: true });
  });
});

describe('tapStream', () => {
  it('passes every chunk, copies it, and ends once', async () => {
    const seen: string[] = [];
    const ends: boolean[] = [];
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes('a'));
        controller.enqueue(bytes('b'));
        controller.close();
      },
    });
    const tapped = tapStream(
      source,
      { push: (chunk) => seen.push(new TextDecoder().decode(chunk)), result: () => ({}) as never },
      (broken) => ends.push(broken),
    );
    expect(await new Response(tapped).text()).toBe('ab');
    expect(seen).toEqual(['a', 'b']);
    expect(ends).toEqual([false]);
  });

  it('ends broken when the reader cancels, and cancels the source', async () => {
    const ends: boolean[] = [];
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(bytes('x'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const tapped = tapStream(source, { push: () => {}, result: () => ({}) as never }, (broken) =>
      ends.push(broken),
    );
    const reader = tapped.getReader();
    await reader.read();
    await reader.cancel();
    expect(ends).toEqual([true]);
    expect(cancelled).toBe(true);
  });
});

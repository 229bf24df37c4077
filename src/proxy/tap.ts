import { createParser } from 'eventsource-parser';
import type { Adapter, Reply } from './adapter.ts';

/** A copy of a response body, read as it passes, and what it amounted to. */
export interface Sink {
  push(chunk: Uint8Array): void;
  result(): Reply & { malformed: number };
}

/**
 * The body passed on chunk by chunk, each as soon as it arrives (the client's reads pull the
 * upstream's, so nothing is buffered); a copy goes to `sink`. `end` runs once, after the last chunk
 * went out, with `broken` when the upstream failed or the client went away.
 */
export function tapStream(
  body: ReadableStream<Uint8Array>,
  sink: Sink,
  end: (broken: boolean) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  const finish = (broken: boolean): void => {
    if (ended) return;
    ended = true;
    end(broken);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          controller.error(error);
          finish(true);
          return;
        }
        if (chunk.done) {
          controller.close();
          finish(false);
          return;
        }
        controller.enqueue(chunk.value);
        try {
          sink.push(chunk.value);
        } catch {
          // Reading the copy never stops the relay.
        }
      },
      cancel(reason) {
        finish(true);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Server-sent events (agent-formats.md §7.5): each event's JSON to the adapter's accumulator. */
export function sseSink(adapter: Adapter, limit = 32 * 1024 * 1024): Sink {
  const reply = adapter.streamReply();
  const decoder = new TextDecoder();
  let malformed = 0;
  const parser = createParser({
    onEvent(message) {
      if (message.data === '') return;
      if (message.data === '[DONE]') {
        reply.event(message.event, message.data);
        return;
      }
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        malformed++;
        return;
      }
      reply.event(message.event, data);
    },
    onError() {
      malformed++;
    },
    // One event that never ends stops the reading (and counts), not the relay.
    maxBufferSize: limit,
  });
  return {
    push(chunk) {
      parser.feed(decoder.decode(chunk, { stream: true }));
    },
    result() {
      return { ...reply.result(), malformed };
    },
  };
}

/** A JSON body, kept until it ends (up to `limit` bytes) and read then. */
export function jsonSink(adapter: Adapter, limit = 32 * 1024 * 1024): Sink {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    push(chunk) {
      size += chunk.byteLength;
      if (size <= limit) chunks.push(chunk);
    },
    result() {
      const unread = { reply: '', complete: false, failed: true, responseId: undefined };
      if (size > limit) return { ...unread, malformed: 0 };
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return { ...unread, malformed: 1 };
      }
      return { ...adapter.replyFromJson(body), malformed: 0 };
    },
  };
}

/** The turn parser's worker thread (see `turn-parser.ts`): parses each transcript it is sent, in order. */
import { parentPort } from 'node:worker_threads';
import { parseAndDerive, parseTurns } from './parse-lines.ts';
import type { ParseJob, ParseReply } from './turn-parser.ts';

const port = parentPort;
port?.on('message', ({ id, source, bytes, from, firstLine, derive }: ParseJob) => {
  let reply: ParseReply;
  try {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    reply = {
      id,
      parsed:
        derive === undefined
          ? parseTurns(source, buffer, from, firstLine, false)
          : parseAndDerive(source, buffer, from, firstLine, derive),
    };
  } catch (error) {
    reply = { id, error: String(error) };
  }
  port.postMessage(reply);
});

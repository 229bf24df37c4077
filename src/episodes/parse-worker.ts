/** The turn parser's worker thread (see `turn-parser.ts`): parses each transcript it is sent, in order. */
import { parentPort } from 'node:worker_threads';
import { parseTurns } from './parse-lines.ts';
import type { ParseJob, ParseReply } from './turn-parser.ts';

const port = parentPort;
port?.on('message', ({ id, source, bytes, from, firstLine }: ParseJob) => {
  let reply: ParseReply;
  try {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    reply = { id, parsed: parseTurns(source, buffer, from, firstLine, false) };
  } catch (error) {
    reply = { id, error: String(error) };
  }
  port.postMessage(reply);
});

import { basename } from 'node:path';
import type { LineResult, Reader, Turn } from './types.ts';

/**
 * The proxy's recording of the conversations that pass it, one exchange a line under `REMEM_HOME/proxy/`:
 * the person's new messages and the model's reply. Read like any transcript, so a correction made to any
 * model becomes a lesson for all of them.
 */
export interface ProxyLogLine {
  at: string;
  session: string;
  api: string;
  model?: string;
  /** The user messages since the model's last reply. */
  user: string[];
  reply: string;
  partial: boolean;
  malformed?: number;
}

export const proxyLogReader: Reader = {
  agent: 'proxy',
  sessionOf(path: string): string {
    return basename(path).replace(/\.jsonl$/, '');
  },
  parseLine(value: unknown, line: number): LineResult {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { turns: [], warning: 'not a JSON object' };
    }
    const record = value as Partial<ProxyLogLine>;
    if (!Array.isArray(record.user) || typeof record.reply !== 'string') {
      return { turns: [], warning: 'not a proxy exchange (needs user and reply)' };
    }
    const at = typeof record.at === 'string' ? record.at : '';
    const turns: Turn[] = [];
    for (const text of record.user) {
      if (typeof text === 'string' && text.trim())
        turns.push({ line, part: turns.length, at, type: 'prompt', text });
    }
    if (record.reply.trim()) turns.push({ line, part: turns.length, at, type: 'reply', text: record.reply });
    return record.partial ? { turns, warning: 'the exchange was cut off (partial reply)' } : { turns };
  },
};

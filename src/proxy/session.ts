import { createHash } from 'node:crypto';
import type { Api, ProxyMessage } from './types.ts';

/**
 * A stable id for a conversation: the same api, model and first user message give the same id on
 * every turn, since clients resend the whole history.
 */
export function sessionOf(api: Api, model: string | undefined, messages: readonly ProxyMessage[]): string {
  const first = messages.find((message) => message.role === 'user') ?? messages[0];
  const identity = `${api}\n${model ?? ''}\n${first?.text ?? ''}`;
  return createHash('sha256').update(identity).digest('hex').slice(0, 16);
}

/**
 * Responses conversations kept on the server send only the new turn and `previous_response_id`:
 * the session follows the chain of response ids. Bounded, oldest forgotten first.
 */
export class ResponseChains {
  readonly #sessions = new Map<string, string>();
  readonly #limit: number;

  constructor(limit = 2048) {
    this.#limit = limit;
  }

  get(responseId: unknown): string | undefined {
    return typeof responseId === 'string' ? this.#sessions.get(responseId) : undefined;
  }

  set(responseId: string, session: string): void {
    this.#sessions.set(responseId, session);
    if (this.#sessions.size > this.#limit) {
      const oldest = this.#sessions.keys().next();
      if (!oldest.done) this.#sessions.delete(oldest.value);
    }
  }
}

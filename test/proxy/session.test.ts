import { describe, expect, it } from 'vitest';
import { ResponseChains, sessionOf } from '../../src/proxy/session.ts';

describe('sessionOf', () => {
  it('is the same for every turn of a conversation and differs across api, model and opening', () => {
    const opening = [
      { role: 'system' as const, text: 's' },
      { role: 'user' as const, text: 'hello' },
    ];
    const later = [
      ...opening,
      { role: 'assistant' as const, text: 'hi' },
      { role: 'user' as const, text: 'more' },
    ];
    const id = sessionOf('chat', 'm', opening);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(sessionOf('chat', 'm', later)).toBe(id);
    expect(sessionOf('anthropic', 'm', opening)).not.toBe(id);
    expect(sessionOf('chat', 'other', opening)).not.toBe(id);
    expect(sessionOf('chat', 'm', [{ role: 'user', text: 'bye' }])).not.toBe(id);
  });
});

describe('ResponseChains', () => {
  it('remembers the newest response ids up to its limit', () => {
    const chains = new ResponseChains(2);
    chains.set('r1', 'a');
    chains.set('r2', 'b');
    chains.set('r3', 'c');
    expect(chains.get('r1')).toBeUndefined();
    expect(chains.get('r3')).toBe('c');
    expect(chains.get(undefined)).toBeUndefined();
  });
});

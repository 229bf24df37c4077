import { describe, expect, it } from 'vitest';
import { clientHeaders, upstreamFor, upstreamHeaders, upstreamUrl } from '../../src/proxy/forward.ts';

describe('forward', () => {
  it('routes /v1/messages* to Anthropic and the rest to OpenAI', () => {
    const upstreams = { openai: 'O', anthropic: 'A' };
    expect(upstreamFor(upstreams, '/v1/messages')).toBe('A');
    expect(upstreamFor(upstreams, '/v1/messages/count_tokens')).toBe('A');
    expect(upstreamFor(upstreams, '/v1/chat/completions')).toBe('O');
    expect(upstreamFor(upstreams, '/api/tags')).toBe('O');
  });

  it('joins base, path and query, once /v1', () => {
    expect(upstreamUrl('http://h:1', '/v1/messages', '?beta=true')).toBe('http://h:1/v1/messages?beta=true');
    expect(upstreamUrl('https://api.openai.com/v1/', '/v1/responses', '')).toBe(
      'https://api.openai.com/v1/responses',
    );
    expect(upstreamUrl('http://h/prefix', '/v1/models', '')).toBe('http://h/prefix/v1/models');
  });

  it('drops hop-by-hop request headers and the proxy’s own, keeps auth untouched', () => {
    const headers = upstreamHeaders(
      new Headers({
        authorization: 'Bearer k',
        'x-api-key': 'k2',
        'anthropic-beta': 'b',
        'openai-organization': 'o',
        host: 'proxy',
        connection: 'keep-alive, x-hop',
        'x-hop': '1',
        'keep-alive': 'timeout=5',
        'content-length': '12',
        'transfer-encoding': 'chunked',
        'accept-encoding': 'gzip',
        'x-remem': 'on',
        'x-remem-session': 's',
        'x-other': 'kept',
      }),
    );
    expect(Object.fromEntries(headers)).toEqual({
      authorization: 'Bearer k',
      'x-api-key': 'k2',
      'anthropic-beta': 'b',
      'openai-organization': 'o',
      'x-other': 'kept',
      'accept-encoding': 'identity',
    });
  });

  it('drops hop-by-hop response headers, and the encoding of a body fetch decoded', () => {
    const plain = clientHeaders(
      new Headers({ 'content-length': '5', 'transfer-encoding': 'chunked', 'x-request-id': 'r' }),
    );
    expect(Object.fromEntries(plain)).toEqual({ 'content-length': '5', 'x-request-id': 'r' });
    const decoded = clientHeaders(new Headers({ 'content-length': '5', 'content-encoding': 'gzip', a: 'b' }));
    expect(Object.fromEntries(decoded)).toEqual({ a: 'b' });
    const cookies = new Headers();
    cookies.append('set-cookie', 'a=1');
    cookies.append('set-cookie', 'b=2');
    expect(clientHeaders(cookies).getSetCookie()).toEqual(['a=1', 'b=2']);
  });
});

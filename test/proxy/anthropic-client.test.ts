import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { countBreakpoints } from '../../src/proxy/index.ts';
import { bodyOf, MEMORY, startProxy, startUpstream } from './servers.ts';
import { anthropicStream, expectedReply, TEXT, TOOL } from './wire.ts';

/** The official Anthropic client against the proxy, in front of a local upstream that speaks the API. */

const tools = [
  { name: TOOL.name, input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } },
];
const ephemeral = { type: 'ephemeral' as const };

async function setup(placement: 'moment' | 'first' | 'last' = 'moment') {
  const openai = await startUpstream();
  const upstream = await startUpstream();
  const proxy = await startProxy({ openai: openai.url, anthropic: upstream.url, placement });
  const client = new Anthropic({ baseURL: proxy.url, apiKey: 'k', maxRetries: 0 });
  return { openai, upstream, proxy, client };
}

describe('Anthropic Messages through the proxy', () => {
  it('answers messages.create as the upstream did; auth and version headers arrive untouched', async () => {
    const { openai, upstream, proxy, client } = await setup();
    const message = await client.messages.create({
      model: 'claude-opus-5',
      max_tokens: 64,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'Please deploy the site.' }],
    });

    expect(message.content).toEqual([{ type: 'text', text: TEXT }]);
    expect(openai.received).toHaveLength(0);
    const seen = upstream.received[0];
    expect(seen?.headers.authorization).toBe('Bearer k');
    expect(seen?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // At the moment: a text block after the latest user message's content.
    expect(bodyOf(seen)).toEqual({
      model: 'claude-opus-5',
      max_tokens: 64,
      system: 'You are terse.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Please deploy the site.' },
            { type: 'text', text: MEMORY },
          ],
        },
      ],
    });
    const [exchange] = await proxy.recorded();
    expect(exchange).toMatchObject({
      api: 'anthropic',
      model: 'claude-opus-5',
      reply: TEXT,
      partial: false,
      messages: [
        { role: 'system', text: 'You are terse.' },
        { role: 'user', text: 'Please deploy the site.' },
      ],
    });
  });

  it('streams text and tool use through messages.stream, and records both', async () => {
    const { proxy, client } = await setup();
    const stream = client.messages.stream({
      model: 'claude-opus-5',
      max_tokens: 64,
      tools,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const message = await stream.finalMessage();

    expect(text).toBe(TEXT);
    expect(message.content[1]).toMatchObject({ type: 'tool_use', name: TOOL.name, input: TOOL.input });
    const [exchange] = await proxy.recorded();
    expect(exchange).toMatchObject({ reply: expectedReply(true), partial: false, malformed: 0 });
  });

  it('returns tool use from a non-streaming beta call, its beta header passed on', async () => {
    const { upstream, proxy, client } = await setup();
    const message = await client.beta.messages.create({
      model: 'claude-opus-5',
      max_tokens: 64,
      tools,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      betas: ['token-efficient-tools-2025-02-19'],
    });
    expect(message.content[1]).toMatchObject({ type: 'tool_use', input: TOOL.input });
    expect(upstream.received[0]?.headers['anthropic-beta']).toBe('token-efficient-tools-2025-02-19');
    expect((await proxy.recorded())[0]?.reply).toBe(expectedReply(true));
  });

  it('places the memory first as a cached system block after the caller’s, untouched', async () => {
    const { upstream, client } = await setup('first');
    const system = [
      { type: 'text' as const, text: 'billing' },
      { type: 'text' as const, text: 'static', cache_control: ephemeral },
    ];
    await client.messages.create({
      model: 'claude-opus-5',
      max_tokens: 64,
      system,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const body = bodyOf(upstream.received[0]);
    expect(body.system).toEqual([...system, { type: 'text', text: MEMORY, cache_control: ephemeral }]);
    expect(countBreakpoints(body)).toBe(2);
  });

  it('never makes a fifth cache breakpoint', async () => {
    const { upstream, client } = await setup('first');
    const system = [
      { type: 'text' as const, text: 'static', cache_control: ephemeral },
      { type: 'text' as const, text: 'dynamic', cache_control: ephemeral },
    ];
    await client.messages.create({
      model: 'claude-opus-5',
      max_tokens: 64,
      tools: [{ ...tools[0]!, cache_control: ephemeral }],
      system,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: ephemeral }] },
        { role: 'assistant', content: 'hello' },
        { role: 'user', content: 'again' },
      ],
    });
    const body = bodyOf(upstream.received[0]);
    expect(body.system).toEqual([...system, { type: 'text', text: MEMORY }]);
    expect(countBreakpoints(body)).toBe(4);
  });

  it('turns a string system into blocks only to carry a breakpoint', async () => {
    const { upstream, client } = await setup('first');
    await client.messages.create({
      model: 'claude-opus-5',
      max_tokens: 64,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(bodyOf(upstream.received[0]).system).toEqual([
      { type: 'text', text: 'You are terse.' },
      { type: 'text', text: MEMORY, cache_control: ephemeral },
    ]);
  });

  it('places the memory last after the caller’s system content, without a breakpoint', async () => {
    const { upstream, client } = await setup('last');
    await client.messages.create({
      model: 'claude-opus-5',
      max_tokens: 64,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(bodyOf(upstream.received[0]).system).toBe(`You are terse.\n\n${MEMORY}`);
  });

  it('passes an in-stream error on to the client and records the reply as partial', async () => {
    const upstream = await startUpstream(() => ({ events: anthropicStream({ error: true }) }));
    const proxy = await startProxy({ openai: upstream.url, anthropic: upstream.url });
    const client = new Anthropic({ baseURL: proxy.url, apiKey: 'k', maxRetries: 0 });
    const stream = client.messages.stream({
      model: 'claude-opus-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
    });
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded/);
    const [exchange] = await proxy.recorded();
    expect(exchange).toMatchObject({ reply: TEXT, partial: true });
  });
});

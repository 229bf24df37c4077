import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { bodyOf, MEMORY, startProxy, startUpstream } from './servers.ts';
import { expectedReply, TEXT, TOOL } from './wire.ts';

/** The official openai client against the proxy, in front of a local upstream that speaks the API. */

const tools = [
  {
    type: 'function' as const,
    function: { name: TOOL.name, parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  },
];

async function setup(placement: 'moment' | 'first' | 'last' = 'moment') {
  const upstream = await startUpstream();
  const proxy = await startProxy({ openai: upstream.url, placement });
  const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'k', maxRetries: 0 });
  return { upstream, proxy, client };
}

describe('Chat Completions through the proxy', () => {
  it('answers a plain request as the upstream did, injecting the memory at the moment', async () => {
    const { upstream, proxy, client } = await setup();
    const messages = [
      { role: 'system' as const, content: 'You are terse.' },
      { role: 'user' as const, content: 'Please deploy the site.' },
    ];
    const completion = await client.chat.completions.create({ model: 'gpt-5', messages });

    expect(completion.choices[0]?.message.content).toBe(TEXT);
    const seen = upstream.received[0];
    expect(seen?.headers.authorization).toBe('Bearer k');
    expect(bodyOf(seen)).toEqual({
      model: 'gpt-5',
      messages: [...messages, { role: 'system', content: MEMORY }],
    });

    const [exchange] = await proxy.recorded();
    expect(exchange).toMatchObject({
      api: 'chat',
      model: 'gpt-5',
      reply: TEXT,
      partial: false,
      malformed: 0,
      messages: [
        { role: 'system', text: 'You are terse.' },
        { role: 'user', text: 'Please deploy the site.' },
      ],
    });
    expect(exchange?.session).toMatch(/^[0-9a-f]{16}$/);
  });

  it('passes a request the memory has nothing for unchanged', async () => {
    const { upstream, client } = await setup();
    const messages = [{ role: 'user' as const, content: 'What is 2 + 2?' }];
    await client.chat.completions.create({ model: 'gpt-5', messages, temperature: 0.5 });
    expect(bodyOf(upstream.received[0])).toEqual({ model: 'gpt-5', messages, temperature: 0.5 });
  });

  it('streams text and tool calls, and records the reply rebuilt from the stream', async () => {
    const { proxy, client } = await setup();
    const stream = await client.chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools,
      stream: true,
    });
    let text = '';
    let args = '';
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      args += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? '';
    }
    expect(text).toBe(TEXT);
    expect(JSON.parse(args)).toEqual(TOOL.input);

    const [exchange] = await proxy.recorded();
    expect(exchange).toMatchObject({ reply: expectedReply(true), partial: false, malformed: 0 });
  });

  it('returns tool calls from a non-streaming answer', async () => {
    const { proxy, client } = await setup();
    const completion = await client.chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools,
    });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual(TOOL.input);
    expect((await proxy.recorded())[0]?.reply).toBe(expectedReply(true));
  });

  it('puts the memory first as its own system message after the caller’s', async () => {
    const { upstream, client } = await setup('first');
    await client.chat.completions.create({
      model: 'gpt-5',
      messages: [
        { role: 'system', content: 'A' },
        { role: 'developer', content: 'B' },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(bodyOf(upstream.received[0]).messages).toEqual([
      { role: 'system', content: 'A' },
      { role: 'developer', content: 'B' },
      { role: 'system', content: MEMORY },
      { role: 'user', content: 'hi' },
    ]);
  });
});

describe('Responses through the proxy', () => {
  it('answers a plain request, with the memory appended to the instructions when placed first', async () => {
    const { upstream, proxy, client } = await setup('first');
    const response = await client.responses.create({
      model: 'gpt-5',
      instructions: 'Be brief.',
      input: 'hi',
    });

    expect(response.output_text).toBe(TEXT);
    expect(bodyOf(upstream.received[0])).toEqual({
      model: 'gpt-5',
      instructions: `Be brief.\n\n${MEMORY}`,
      input: 'hi',
    });
    const [exchange] = await proxy.recorded();
    expect(exchange).toMatchObject({
      api: 'responses',
      reply: TEXT,
      partial: false,
      messages: [
        { role: 'system', text: 'Be brief.' },
        { role: 'user', text: 'hi' },
      ],
    });
  });

  it('streams events and tool calls; the memory at the moment goes in as a developer message', async () => {
    const { upstream, proxy, client } = await setup();
    const stream = await client.responses.create({
      model: 'gpt-5',
      input: [{ role: 'user', content: 'Please deploy it, then check the weather in Paris.' }],
      tools: [{ type: 'function', name: TOOL.name, parameters: {}, strict: false }],
      stream: true,
    });
    let text = '';
    let completed: unknown;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response.output;
    }
    expect(text).toBe(TEXT);
    expect(completed).toContainEqual(expect.objectContaining({ type: 'function_call', name: TOOL.name }));
    expect(bodyOf(upstream.received[0]).input).toEqual([
      { role: 'user', content: 'Please deploy it, then check the weather in Paris.' },
      { type: 'message', role: 'developer', content: MEMORY },
    ]);
    const [exchange] = await proxy.recorded();
    expect(exchange).toMatchObject({ reply: expectedReply(true), partial: false, malformed: 0 });
  });

  it('keeps the session of a conversation continued by previous_response_id', async () => {
    const { proxy, client } = await setup();
    const first = await client.responses.create({ model: 'gpt-5', input: 'first turn' });
    await proxy.recorded(1);
    await client.responses.create({ model: 'gpt-5', input: 'second turn', previous_response_id: first.id });
    const [one, two] = await proxy.recorded(2);
    expect(two?.session).toBe(one?.session);
  });
});

/**
 * Response bodies in the real wire formats (agent-formats.md §7.2–§7.4): each stream as the list of
 * SSE events an upstream writes, one write per event, and the matching non-streaming JSON.
 */

const sse = (data: unknown, event?: string): string =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

export const TEXT_PIECES = ['Hel', 'lo!'];
export const TEXT = TEXT_PIECES.join('');
export const TOOL = { name: 'get_weather', input: { city: 'Paris' } };
const ARGUMENT_PIECES = ['{"city":', '"Paris"}'];

// Chat Completions: data-only events, ending with [DONE].

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1700000000,
  model: 'gpt-5',
  choices,
  ...extra,
});

export function chatStream(options: { tool?: boolean } = {}): string[] {
  const events = [
    sse(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }])),
    ...TEXT_PIECES.map((piece) => sse(chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]))),
  ];
  if (options.tool) {
    events.push(
      sse(
        chunk([
          {
            index: 0,
            delta: {
              tool_calls: [
                { index: 0, id: 'call_1', type: 'function', function: { name: TOOL.name, arguments: '' } },
              ],
            },
            finish_reason: null,
          },
        ]),
      ),
      ...ARGUMENT_PIECES.map((piece) =>
        sse(
          chunk([
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] },
              finish_reason: null,
            },
          ]),
        ),
      ),
    );
  }
  events.push(
    sse(chunk([{ index: 0, delta: {}, finish_reason: options.tool ? 'tool_calls' : 'stop' }])),
    sse(chunk([], { usage: { prompt_tokens: 9, completion_tokens: 12, total_tokens: 21 } })),
    sse('[DONE]'),
  );
  return events;
}

export function chatJson(options: { tool?: boolean } = {}): unknown {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1700000000,
    model: 'gpt-5',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: TEXT,
          refusal: null,
          ...(options.tool
            ? {
                tool_calls: [
                  {
                    id: 'call_1',
                    type: 'function',
                    function: { name: TOOL.name, arguments: JSON.stringify(TOOL.input) },
                  },
                ],
              }
            : {}),
        },
        logprobs: null,
        finish_reason: options.tool ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: 9, completion_tokens: 12, total_tokens: 21 },
  };
}

// Responses: `event:` + `data:`, every payload with type and sequence_number, no [DONE].

function responseOutput(tool: boolean): unknown[] {
  const message = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: TEXT, annotations: [] }],
  };
  const call = {
    id: 'fc_1',
    type: 'function_call',
    call_id: 'call_1',
    name: TOOL.name,
    arguments: JSON.stringify(TOOL.input),
    status: 'completed',
  };
  return tool ? [message, call] : [message];
}

function response(status: string, output: unknown[]): Record<string, unknown> {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1700000000,
    status,
    model: 'gpt-5',
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    ...(status === 'completed' ? { usage: { input_tokens: 9, output_tokens: 12, total_tokens: 21 } } : {}),
  };
}

export function responsesStream(options: { tool?: boolean } = {}): string[] {
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>) =>
    sse({ type, sequence_number: sequence++, ...fields }, type);
  const events = [
    event('response.created', { response: response('in_progress', []) }),
    event('response.in_progress', { response: response('in_progress', []) }),
    event('response.output_item.added', {
      output_index: 0,
      item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] },
    }),
    event('response.content_part.added', {
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    }),
    ...TEXT_PIECES.map((delta) =>
      event('response.output_text.delta', {
        item_id: 'msg_1',
        output_index: 0,
        content_index: 0,
        delta,
        logprobs: [],
      }),
    ),
    event('response.output_text.done', { item_id: 'msg_1', output_index: 0, content_index: 0, text: TEXT }),
    event('response.content_part.done', {
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: TEXT, annotations: [] },
    }),
    event('response.output_item.done', { output_index: 0, item: responseOutput(false)[0] }),
  ];
  if (options.tool) {
    events.push(
      event('response.output_item.added', {
        output_index: 1,
        item: {
          id: 'fc_1',
          type: 'function_call',
          call_id: 'call_1',
          name: TOOL.name,
          arguments: '',
          status: 'in_progress',
        },
      }),
      ...ARGUMENT_PIECES.map((delta) =>
        event('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 1, delta }),
      ),
      event('response.function_call_arguments.done', {
        item_id: 'fc_1',
        output_index: 1,
        arguments: JSON.stringify(TOOL.input),
      }),
      event('response.output_item.done', { output_index: 1, item: responseOutput(true)[1] }),
    );
  }
  events.push(
    event('response.completed', { response: response('completed', responseOutput(options.tool ?? false)) }),
  );
  return events;
}

export function responsesJson(options: { tool?: boolean } = {}): unknown {
  return response('completed', responseOutput(options.tool ?? false));
}

// Anthropic Messages: `event:` + `data:`, text and tool_use blocks by index, ping, optional error.

export function anthropicStream(options: { tool?: boolean; error?: boolean } = {}): string[] {
  const event = (type: string, fields: Record<string, unknown> = {}) => sse({ type, ...fields }, type);
  const events = [
    event('message_start', {
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [],
        model: 'claude-opus-5',
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 25, output_tokens: 1 },
      },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    event('ping'),
    ...TEXT_PIECES.map((text) =>
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
    ),
  ];
  if (options.error) {
    events.push(event('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }));
    return events;
  }
  events.push(event('content_block_stop', { index: 0 }));
  if (options.tool) {
    events.push(
      event('content_block_start', {
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_1', name: TOOL.name, input: {} },
      }),
      ...ARGUMENT_PIECES.map((partial_json) =>
        event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json } }),
      ),
      event('content_block_stop', { index: 1 }),
    );
  }
  events.push(
    event('message_delta', {
      delta: { stop_reason: options.tool ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 15 },
    }),
    event('message_stop'),
  );
  return events;
}

export function anthropicJson(options: { tool?: boolean } = {}): unknown {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-opus-5',
    content: [
      { type: 'text', text: TEXT },
      ...(options.tool ? [{ type: 'tool_use', id: 'toolu_1', name: TOOL.name, input: TOOL.input }] : []),
    ],
    stop_reason: options.tool ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 25, output_tokens: 15 },
  };
}

/** The reply the proxy reconstructs from any of the above. */
export function expectedReply(tool: boolean): string {
  return tool ? `${TEXT}\n\n[tool_use ${TOOL.name}] ${JSON.stringify(TOOL.input)}` : TEXT;
}

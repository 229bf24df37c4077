import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { z as Zod } from 'zod';
import { defaultParams } from '../core/index.ts';

/**
 * Events (protocol §0): how any agent, model or tool reports a surprise. One JSON object per line;
 * unknown fields are ignored.
 */

export const eventKinds = ['correction', 'error', 'environment', 'surprise', 'note'] as const;

/** Where an event applies: its `cwd`'s project (the default), or the person's every project. */
export const eventScopes = ['project', 'personal'] as const;

const textFields = ['said', 'agent_did', 'title', 'expected', 'happened', 'text'] as const;

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The fields an agent fills in, each with what it means: the tool's input schema (MCP `remember`) and the start
 * of the event's own schema, so the two cannot drift apart.
 */
export function eventFields(z: typeof Zod) {
  const text = (field: string) => z.string({ error: `${field} must be a string` }).optional();
  return {
    kind: z.enum(eventKinds, {
      error: (issue) =>
        issue.input === undefined
          ? 'missing kind'
          : `kind ${JSON.stringify(issue.input)} is not one of ${eventKinds.join(', ')}`,
    }),
    said: text('said').describe("a correction: the person's words, verbatim"),
    agent_did: text('agent_did').describe('a correction: what the agent had just said or done'),
    title: text('title').describe('an error: the call that failed'),
    expected: text('expected'),
    happened: text('happened'),
    text: text('text').describe('a note'),
    session: text('session'),
    cwd: text('cwd').describe('the folder the person and agent work in; this server’s project if left out'),
    scope: z
      .enum(eventScopes, { error: `scope is one of ${eventScopes.join(', ')}` })
      .optional()
      .describe('personal: about how the person works anywhere; project (the default): about this project'),
  };
}

function buildEventSchema(z: typeof Zod, maxChars: number) {
  const text = (field: string) => z.string({ error: `${field} must be a string` }).optional();
  return z
    .object({
      ...eventFields(z),
      agent: text('agent'),
      at: text('at').refine(
        (at) => at === undefined || (ISO_8601.test(at) && !Number.isNaN(Date.parse(at))),
        {
          error: (issue) => `at is not an ISO 8601 time: ${JSON.stringify(issue.input)}`,
        },
      ),
    })
    .refine((event) => textFields.reduce((sum, field) => sum + (event[field]?.length ?? 0), 0) <= maxChars, {
      error: (issue) => {
        const event = issue.input as Partial<Record<(typeof textFields)[number], string>>;
        const length = textFields.reduce((sum, field) => sum + (event[field]?.length ?? 0), 0);
        return `the event's text is ${length} characters, over ${maxChars}`;
      },
    })
    .refine((event) => event.kind !== 'correction' || (event.said ?? '').trim() !== '', {
      error: 'a correction needs said (the person’s words)',
    })
    .refine((event) => event.kind !== 'error' || (event.title ?? '').trim() !== '', {
      error: 'an error needs title (the call that failed)',
    });
}

let schema: ReturnType<typeof buildEventSchema> | undefined;

/**
 * The schema of an event, built on first use with zod loaded then: reading transcripts alone (and the worker that
 * parses them) never pays for loading the schema library.
 */
export function eventSchema(): ReturnType<typeof buildEventSchema> {
  schema ??= buildEventSchema(
    (createRequire(import.meta.url)('zod') as { z: typeof Zod }).z,
    defaultParams.events.maxChars,
  );
  return schema;
}

export type RememEvent = Zod.infer<ReturnType<typeof eventSchema>>;

/** One line of events: the event, or what is wrong with it (prefixed with the line number). */
export function parseEventLine(text: string, line: number): { event: RememEvent } | { error: string } {
  const fail = (reason: string) => ({ error: `line ${line}: ${reason}` });
  if (text.trim() === '') return fail('empty line');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('not a JSON object');
  const parsed = eventSchema().safeParse(value);
  if (parsed.success) return { event: parsed.data };
  return fail(parsed.error.issues.map((issue) => issue.message).join('; '));
}

/** An event's identity: the same agent, session, kind and title (else what was said, else its text). */
export function eventKey(event: RememEvent): string {
  const what =
    event.title ?? event.said ?? event.text ?? [event.expected ?? '', event.happened ?? ''].join('\n');
  const identity = JSON.stringify([event.agent ?? '', event.session ?? '', event.kind, what]);
  return createHash('sha256').update(identity).digest('hex');
}

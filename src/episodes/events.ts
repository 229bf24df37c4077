import { type EpisodeDraft, findInjection } from '../core/index.ts';
import { eventKey, type RememEvent } from '../stream/index.ts';
import { projectOf } from './project.ts';
import { clip } from './text.ts';

/**
 * Why an event should wait for a person before it may teach anything, or null: anyone who can reach a
 * `remember` can send one, so it is screened for injection as a received record is. An instruction's opening is
 * left to the lesson it would make (sleep refuses those): a correction's words and an error's call are often
 * orders by nature ("no, use the staging flag", "Install the deps").
 */
export function screenEvent(event: RememEvent): string | null {
  for (const field of ['said', 'agent_did', 'title', 'expected', 'happened', 'text'] as const) {
    const value = event[field];
    const found = value === undefined ? null : findInjection(value, { openings: false });
    if (found !== null) return `${field} holds ${found}`;
  }
  return null;
}

/** An event (protocol §0) as the episode it reports. */
export function eventToEpisode(
  event: RememEvent,
  now: string,
  source: { file: string; line: number },
): EpisodeDraft {
  const agent = event.agent ?? 'events';
  const session = event.session ?? 'events';
  const happened = [event.expected && `expected ${event.expected}`, event.happened && `met ${event.happened}`]
    .filter(Boolean)
    .join('; ');
  const text =
    event.kind === 'correction'
      ? (event.said ?? '')
      : event.kind === 'note'
        ? (event.text ?? event.title ?? '')
        : (event.happened ?? event.text ?? happened ?? event.title ?? '');
  const held = screenEvent(event);
  const title = event.title ?? clip((event.said ?? event.text ?? text).replace(/\s+/g, ' '), 120);
  return {
    key: eventKey(event),
    kind: event.kind,
    agent,
    session,
    project: projectOf(event.cwd),
    happenedAt: event.at ? new Date(event.at).toISOString() : now,
    title,
    text: text || title,
    ...(event.said === undefined ? {} : { said: event.said }),
    ...(event.agent_did === undefined ? {} : { agentBefore: event.agent_did }),
    detail: {
      ...(event.expected === undefined ? {} : { expected: event.expected }),
      ...(event.happened === undefined ? {} : { happened: event.happened }),
      ...(event.cwd === undefined ? {} : { cwd: event.cwd }),
      ...(event.scope === undefined ? {} : { scope: event.scope }),
      ...(held === null ? {} : { held }),
      event: true,
    },
    source,
  };
}

import type { Episode } from '../core/index.ts';
import { type Db, listRawFiles, turnsOfFile } from '../store/index.ts';
import { assemble, type Turn } from '../stream/index.ts';

/** One message of the kept conversations: the person's or the agent's visible words. */
export interface Message {
  session: string;
  at: string;
  role: 'person' | 'agent';
  text: string;
  /** The correction episode this message is, when it is one. */
  correctionId?: number;
}

function byTime(a: Message, b: Message): number {
  return a.at < b.at ? -1 : a.at > b.at ? 1 : 0;
}

/**
 * The conversations the store keeps: each transcript's turns put together as ingest does; a session known
 * only from events gives its corrections (the agent's words, then the person's).
 */
export function loadMessages(db: Db, episodes: readonly Episode[]): Message[] {
  const corrections = new Map<string, number>();
  for (const episode of episodes) {
    if (episode.kind !== 'correction') continue;
    corrections.set(
      `${episode.session}\u0000${episode.happenedAt}\u0000${episode.said ?? episode.text}`,
      episode.id,
    );
  }
  const messages: Message[] = [];
  const files = new Map<string, ReturnType<typeof listRawFiles>>();
  for (const file of listRawFiles(db)) {
    const key = `${file.agent}\u0000${file.session}`;
    files.set(key, [...(files.get(key) ?? []), file]);
  }
  const fromTranscripts = new Set<string>();
  for (const group of files.values()) {
    const { agent, session } = group[0]!;
    fromTranscripts.add(session);
    const ordered = group.sort(
      (a, b) =>
        Number(a.path.includes('/subagents/')) - Number(b.path.includes('/subagents/')) ||
        (a.path < b.path ? -1 : 1),
    );
    const turns: Turn[] = ordered.flatMap((file) => turnsOfFile<Turn>(db, file.id));
    for (const turn of assemble(agent, session, turns).items) {
      if (turn.sidechain || !turn.at) continue;
      if (turn.type === 'prompt') {
        const id = corrections.get(`${session}\u0000${turn.at}\u0000${turn.text}`);
        messages.push({
          session,
          at: turn.at,
          role: 'person',
          text: turn.text,
          ...(id === undefined ? {} : { correctionId: id }),
        });
      } else if (turn.type === 'reply') {
        messages.push({ session, at: turn.at, role: 'agent', text: turn.text });
      }
    }
  }
  for (const episode of episodes) {
    if (episode.kind !== 'correction' || fromTranscripts.has(episode.session)) continue;
    const at = episode.happenedAt;
    if (episode.agentBefore) {
      const before = new Date(new Date(at).getTime() - 1).toISOString();
      messages.push({ session: episode.session, at: before, role: 'agent', text: episode.agentBefore });
    }
    messages.push({
      session: episode.session,
      at,
      role: 'person',
      text: episode.said ?? episode.text,
      correctionId: episode.id,
    });
  }
  return messages.sort(byTime);
}

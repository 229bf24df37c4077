import { resolveConfig } from '../../src/core/index.ts';
import { recall } from '../../src/recall/index.ts';
import { openStore } from '../../src/store/index.ts';
import { visibleToAgent } from '../../src/truth/index.ts';
import { remem } from '../helpers/remem.ts';

/** What an agent reads: a lesson, a question, an episode, or anything else a path hands it. */
export interface Seen {
  kind: 'lesson' | 'question' | 'episode' | 'other';
  text: string;
}

export interface AgentView {
  home: string;
  /** The project the agent's session runs in. */
  project: string;
  /** What the agent asks, for the paths that answer a query. */
  query: string;
  now: string;
}

/** One way memory reaches an agent, as a function returning everything the agent would be shown. */
export interface AgentPath {
  name: string;
  see(view: AgentView): Seen[] | Promise<Seen[]>;
}

/**
 * Every path by which memory reaches an agent. A new one (prime, render, proxy, MCP) is one more row here,
 * and every must-not test runs over it.
 */
export const agentPaths: AgentPath[] = [
  {
    name: 'visibleToAgent',
    see({ home, project, now }) {
      const store = openStore(home);
      try {
        return visibleToAgent(store.db, { now, scope: { project } }).map((item) =>
          item.type === 'lesson'
            ? { kind: 'lesson', text: item.lesson.text }
            : { kind: 'question', text: item.text },
        );
      } finally {
        store.close();
      }
    },
  },
  {
    name: 'recall (module)',
    async see({ home, project, query, now }) {
      const store = openStore(home);
      try {
        const config = resolveConfig({ REMEM_HOME: home, HOME: home });
        const answer = await recall(store, config, query, { k: 100, now, scope: { project } });
        return answer.hits.map(({ item }) => ({
          kind: item.type,
          text: item.type === 'episode' ? `${item.title}\n${item.text}` : item.text,
        }));
      } finally {
        store.close();
      }
    },
  },
  {
    name: 'remem recall --json',
    see({ home, project, query, now }) {
      const result = remem(['recall', query, '-k', '100', '--project', project, '--json'], { home, now });
      if (result.code !== 0) throw new Error(`remem recall failed: ${result.stderr}`);
      return result
        .json<{ hits: { item: { type: Seen['kind']; title: string; text: string } }[] }>()
        .hits.map(({ item }) => ({
          kind: item.type,
          text: item.type === 'episode' ? `${item.title}\n${item.text}` : item.text,
        }));
    },
  },
];

/** Everything every path shows the agent, each with the path's name. */
export async function seenByEveryPath(view: AgentView): Promise<{ path: string; seen: Seen[] }[]> {
  const all: { path: string; seen: Seen[] }[] = [];
  for (const path of agentPaths) all.push({ path: path.name, seen: await path.see(view) });
  return all;
}

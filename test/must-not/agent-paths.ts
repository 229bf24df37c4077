import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createApiApp } from '../../src/api/index.ts';
import { resolveConfig } from '../../src/core/index.ts';
import { injectFromMemory } from '../../src/proxy/index.ts';
import { recall } from '../../src/recall/index.ts';
import { renderMemory } from '../../src/render/index.ts';
import { type InjectionMoment, openStore } from '../../src/store/index.ts';
import { visibleToAgent } from '../../src/truth/index.ts';
import { remem, repoRoot } from '../helpers/remem.ts';

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
  /**
   * The path shows only what meets the moment (a prime), or hands the agent one block of text (a rendered
   * folder, a prompt block): the must-not checks hold for it, but not the checks that something must appear
   * as a separate item.
   */
  blob?: boolean;
  /**
   * The moment its audit row names: every path that shows lessons to an agent is audited (the hooks through
   * their log, which the nightly job drains). Null only for truth's own read, which every door calls.
   */
  audit: InjectionMoment | null;
  see(view: AgentView): Seen[] | Promise<Seen[]>;
}

/**
 * Every path by which memory reaches an agent. A new one (prime, render, proxy, MCP) is one more row here,
 * and every must-not test runs over it.
 */
export const agentPaths: AgentPath[] = [
  {
    name: 'visibleToAgent',
    audit: null,
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
    audit: 'recall',
    async see({ home, project, query, now }) {
      const store = openStore(home);
      try {
        const config = resolveConfig({ REMEM_HOME: home, HOME: home });
        const answer = await recall(store, config, query, {
          k: 100,
          now,
          scope: { project },
          by: { agent: true },
        });
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
    audit: null,
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
  {
    name: 'remem prime (UserPromptSubmit)',
    blob: true,
    audit: 'prompt',
    see({ home, project, query, now }) {
      const result = remem(['prime'], {
        home,
        now,
        input: JSON.stringify({
          session_id: `must-not-${Math.random()}`,
          hook_event_name: 'UserPromptSubmit',
          cwd: project,
          prompt: query,
        }),
        env: { REMEM_HOLDOUT: '0' },
      });
      if (result.code !== 0) throw new Error(`remem prime failed: ${result.stderr}`);
      if (!result.stdout) return [];
      const answer = JSON.parse(result.stdout) as { hookSpecificOutput?: { additionalContext?: string } };
      return [{ kind: 'other', text: answer.hookSpecificOutput?.additionalContext ?? '' }];
    },
  },
  {
    name: 'remem render --format prompt',
    blob: true,
    audit: 'render',
    see({ home, project, now }) {
      const result = remem(['render', '--format', 'prompt', '--project', project, '--json'], { home, now });
      if (result.code !== 0) throw new Error(`remem render failed: ${result.stderr}`);
      return [{ kind: 'other', text: result.json<{ text: string }>().text }];
    },
  },
  {
    name: 'remem render --dir (memory folder)',
    blob: true,
    audit: 'render',
    see({ home, now }) {
      const dir = mkdtempSync(join(tmpdir(), 'remem-must-not-render-'));
      try {
        const result = remem(['render', '--dir', dir], { home, now });
        if (result.code !== 0) throw new Error(`remem render failed: ${result.stderr}`);
        return readdirSync(dir).map((name) => ({
          kind: 'other' as const,
          text: readFileSync(join(dir, name), 'utf8'),
        }));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
  {
    name: 'REST /memory/lessons',
    audit: 'api',
    async see({ home, project, now }) {
      const store = openStore(home);
      try {
        const config = resolveConfig({ REMEM_HOME: home, HOME: home, CLAUDE_PROJECT_DIR: project });
        const app = createApiApp({ store, config, token: 'k'.repeat(64), now: () => now });
        const response = await app.request('/memory/lessons', {
          headers: { host: '127.0.0.1', authorization: `Bearer ${'k'.repeat(64)}` },
        });
        const body = (await response.json()) as { lessons: { type: string; text: string }[] };
        return body.lessons.map((item) => ({
          kind: item.type === 'question' ? 'question' : 'lesson',
          text: item.text,
        }));
      } finally {
        store.close();
      }
    },
  },
  {
    name: 'proxy (whole memory up front)',
    blob: true,
    audit: 'proxy',
    async see({ home, project, query, now }) {
      const store = openStore(home);
      try {
        const config = resolveConfig({ REMEM_HOME: home, HOME: home });
        const injection = await injectFromMemory(
          { config, db: store.db, now: () => now, cwd: project },
          {
            api: 'chat',
            model: 'm',
            placement: 'first',
            session: 'must-not',
            messages: [{ role: 'user', text: query }],
          },
        );
        return injection ? [{ kind: 'other', text: injection.text }] : [];
      } finally {
        store.close();
      }
    },
  },
  {
    name: 'REST /memory/recall',
    audit: 'recall',
    async see({ home, project, query, now }) {
      const store = openStore(home);
      try {
        const config = resolveConfig({ REMEM_HOME: home, HOME: home, CLAUDE_PROJECT_DIR: project });
        const app = createApiApp({ store, config, token: 'k'.repeat(64), now: () => now });
        const response = await app.request(
          `/memory/recall?q=${encodeURIComponent(query)}&k=50&project=${encodeURIComponent(project)}`,
          { headers: { host: '127.0.0.1', authorization: `Bearer ${'k'.repeat(64)}` } },
        );
        const body = (await response.json()) as {
          hits: { item: { type: Seen['kind']; title: string; text: string } }[];
        };
        return body.hits.map(({ item }) => ({
          kind: item.type,
          text: item.type === 'episode' ? `${item.title}\n${item.text}` : item.text,
        }));
      } finally {
        store.close();
      }
    },
  },
  {
    name: 'MCP lessons and recall tools (remem mcp, the official client)',
    blob: true,
    audit: 'mcp',
    async see({ home, project, query, now }) {
      mkdirSync(project, { recursive: true });
      const client = new Client({ name: 'remem-must-not', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [join(repoRoot, 'bin', 'remem.js'), 'mcp'],
          cwd: project,
          env: {
            PATH: process.env['PATH'] ?? '',
            HOME: join(home, 'user'),
            REMEM_HOME: home,
            REMEM_NOW: now,
          },
        }),
      );
      try {
        const texts = [];
        for (const call of [
          { name: 'lessons', arguments: {} },
          { name: 'recall', arguments: { query } },
        ]) {
          const answer = (await client.callTool(call)) as { content: { text?: string }[] };
          // An empty recall repeats the query back; that echo is the agent's own words, not memory.
          const said = answer.content.map((block) => block.text ?? '').join('\n');
          if (!said.startsWith('Nothing recalled for')) texts.push(said);
        }
        return [{ kind: 'other', text: texts.join('\n') }];
      } finally {
        await client.close();
      }
    },
  },
  {
    name: "render into Codex's AGENTS.md",
    blob: true,
    audit: 'render',
    see({ home, now }) {
      const store = openStore(home);
      const user = mkdtempSync(join(tmpdir(), 'remem-must-not-codex-'));
      try {
        mkdirSync(join(user, '.codex'));
        const config = resolveConfig({ REMEM_HOME: home, HOME: user });
        renderMemory(store, config, { now, wired: new Set(['codex']) });
        const file = join(user, '.codex', 'AGENTS.md');
        return existsSync(file) ? [{ kind: 'other', text: readFileSync(file, 'utf8') }] : [];
      } finally {
        store.close();
        rmSync(user, { recursive: true, force: true });
      }
    },
  },
];

/** Everything every path shows the agent, each with the path's name. */
export async function seenByEveryPath(
  view: AgentView,
): Promise<{ path: string; seen: Seen[]; blob: boolean }[]> {
  const all: { path: string; seen: Seen[]; blob: boolean }[] = [];
  for (const path of agentPaths)
    all.push({ path: path.name, seen: await path.see(view), blob: path.blob === true });
  return all;
}

import type { Conversation, Turn } from './types.ts';

/**
 * Puts one session's turns together into a conversation.
 *
 * `turns` must hold every turn of the session, in reading order: file by file (the main transcript
 * before its subagents' files), and within a file by line, then part. Turns are never reordered;
 * they are only dropped or joined:
 * - Claude Code's rewinds: the live branch runs from the newest main-thread line back to the root
 *   along `parent`; a branch that leaves it where the person typed a new prompt instead is dead.
 *   Side branches the harness makes (parallel tool results, hook progress) are kept, and so are
 *   sidechain turns (subagents' work, marked `sidechain`) and turns without a uuid. A line with a
 *   uuid that names no parent (`follows`: written by a tool other than Claude Code) follows the line before it.
 * - Codex's second copies of visible turns (`echo`).
 * - Pieces of one reply (same `messageId`) become one reply, where the first piece stood.
 * - A compaction boundary and the summary right after it become one compaction.
 * - A line that appears twice (same uuid), and `link` turns once the chain has been followed.
 * - Gemini CLI's records: a message written again (same `record`) keeps only its last copy, where the first
 *   stood; a rewind drops the record it names and every record after it (all of them when it names none known).
 */
export function assemble(agent: string, session: string, turns: readonly Turn[]): Conversation {
  const cwd = turns.find((turn) => turn.cwd !== undefined)?.cwd ?? null;
  const live = liveTurns(latestRecords(turns)).filter((turn) => turn.type !== 'link');
  const items = joinCompactions(joinReplies(dropEchoes(live)));
  return { agent, session, cwd, items };
}

interface Node {
  parent: string | undefined;
  /** Index of the line's first turn. */
  at: number;
  prompt: boolean;
}

const ROOT = '';

function liveTurns(turns: readonly Turn[]): readonly Turn[] {
  const nodes = new Map<string, Node>();
  let newest: string | undefined;
  let newestAny: string | undefined;
  for (const [index, turn] of turns.entries()) {
    if (turn.uuid === undefined || turn.sidechain === true) continue;
    const node = nodes.get(turn.uuid);
    const prompt = turn.type === 'prompt' && turn.queued !== true;
    // A line that names no parent hangs off the line before it (`follows`), not off the root.
    const parent = turn.parent ?? (turn.follows === true ? newestAny : undefined);
    if (node === undefined) nodes.set(turn.uuid, { parent, at: index, prompt });
    else node.prompt ||= prompt;
    newestAny = turn.uuid;
    if (turn.type !== 'link') newest = turn.uuid;
  }
  const leaf = newest ?? newestAny;
  if (leaf === undefined) return turns;

  // The live chain, from the leaf up; a parent missing from the file is bridged to the newest earlier line.
  const order = [...nodes.keys()];
  const chain: string[] = [];
  const onChain = new Set<string>();
  let cursor: string | undefined = leaf;
  while (cursor !== undefined && !onChain.has(cursor)) {
    chain.push(cursor);
    onChain.add(cursor);
    const node: Node | undefined = nodes.get(cursor);
    if (node?.parent === undefined) break;
    const at = node.at;
    cursor = nodes.has(node.parent)
      ? node.parent
      : order.findLast((uuid) => (nodes.get(uuid)?.at ?? 0) < at && !onChain.has(uuid));
  }
  // Each chain node's child on the chain; the chain's root hangs off ROOT.
  const chainChild = new Map<string, string>();
  for (const [index, uuid] of chain.entries()) chainChild.set(chain[index + 1] ?? ROOT, uuid);

  // A branch that leaves the chain is dead when the chain went on, at that point, with a typed prompt.
  const dead = new Map<string, boolean>();
  const isDead = (uuid: string): boolean => {
    const path: string[] = [];
    let current: string | undefined = uuid;
    let verdict = false;
    while (current !== undefined) {
      const known = dead.get(current);
      if (known !== undefined) {
        verdict = known;
        break;
      }
      if (onChain.has(current)) break;
      path.push(current);
      const parent: string | undefined = nodes.get(current)?.parent;
      const attach: string = parent === undefined || !nodes.has(parent) ? ROOT : parent;
      if (attach === ROOT || onChain.has(attach)) {
        const liveChild = chainChild.get(attach);
        verdict = liveChild !== undefined && nodes.get(liveChild)?.prompt === true;
        break;
      }
      if (path.length > nodes.size) break;
      current = attach;
    }
    for (const step of path) dead.set(step, verdict);
    return verdict;
  };

  // A line copied into the transcript twice is read once.
  const seen = new Set<string>();
  return turns.filter((turn) => {
    if (turn.uuid === undefined) return true;
    const key = `${turn.uuid} ${turn.part}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return turn.sidechain === true || onChain.has(turn.uuid) || !isDead(turn.uuid);
  });
}

/** Codex: keep the event copy of each visible turn; an echo stays only when its event copy is missing. */
function dropEchoes(turns: readonly Turn[]): Turn[] {
  const dropped = new Set<Turn>();
  let run: Turn[] = [];
  const settle = () => {
    const echoes = run.filter((turn) => turn.echo === true);
    const originals = run.filter((turn) => turn.echo !== true);
    const unmatched: Turn[] = [];
    for (const echo of echoes) {
      const twin = originals.findIndex((turn) => sameText(turn, echo));
      if (twin >= 0) {
        originals.splice(twin, 1);
        dropped.add(echo);
      } else {
        unmatched.push(echo);
      }
    }
    // Copies whose texts differ still pair up in order.
    for (const echo of unmatched.slice(0, originals.length)) dropped.add(echo);
    run = [];
  };
  for (const turn of turns) {
    if (turn.type !== 'prompt' && turn.type !== 'reply') {
      settle();
      continue;
    }
    if (run.length > 0 && run[0]?.type !== turn.type) settle();
    run.push(turn);
  }
  settle();
  return dropped.size === 0 ? [...turns] : turns.filter((turn) => !dropped.has(turn));
}

function sameText(a: Turn, b: Turn): boolean {
  const text = (turn: Turn) => ('text' in turn ? turn.text.replace(/\s+/g, ' ').trim() : '');
  return text(a) === text(b);
}

function joinReplies(turns: readonly Turn[]): Turn[] {
  const out: Turn[] = [];
  const first = new Map<string, number>();
  for (const turn of turns) {
    if (turn.type !== 'reply' || turn.messageId === undefined) {
      out.push(turn);
      continue;
    }
    const key = `${turn.sidechain === true ? 's' : 'm'}:${turn.messageId}`;
    const at = first.get(key);
    const head = at === undefined ? undefined : out[at];
    if (head?.type !== 'reply') {
      first.set(key, out.length);
      out.push({ ...turn });
    } else if (!head.text.split('\n\n').includes(turn.text)) {
      head.text = `${head.text}\n\n${turn.text}`;
    }
  }
  return out;
}

function joinCompactions(turns: readonly Turn[]): Turn[] {
  const out: Turn[] = [];
  for (const turn of turns) {
    const last = out.at(-1);
    if (turn.type === 'compaction' && last?.type === 'compaction') {
      const texts = [last.text, turn.text].filter((text) => text !== '');
      out[out.length - 1] = { ...last, text: texts.join('\n\n') };
    } else {
      out.push(turn);
    }
  }
  return out;
}

function latestRecords(turns: readonly Turn[]): readonly Turn[] {
  if (!turns.some((turn) => turn.record !== undefined || turn.rewindTo !== undefined)) return turns;
  // Each slot is a turn without a record, or the latest copy of one record's turns; a Map keeps first positions.
  const slots = new Map<string | Turn, Turn[]>();
  for (const turn of turns) {
    if (turn.rewindTo !== undefined) {
      const keys = [...slots.keys()];
      const at = keys.indexOf(turn.rewindTo);
      for (const key of at === -1 ? keys : keys.slice(at)) slots.delete(key);
      continue;
    }
    if (turn.record === undefined) {
      slots.set(turn, [turn]);
      continue;
    }
    const copy = slots.get(turn.record);
    // A new copy starts at its first part; further parts of the same line join it.
    if (copy === undefined || (turn.part === 0 && copy[0]?.line !== turn.line)) {
      if (copy === undefined) slots.set(turn.record, [turn]);
      else copy.splice(0, copy.length, turn);
    } else copy.push(turn);
  }
  return [...slots.values()].flat();
}

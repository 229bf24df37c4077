/**
 * What a reader makes of one line of a transcript: zero or more turns, each standing alone,
 * so a file that grew can be read from where the last read stopped. `assemble` then puts a
 * session's turns together (live branch, replies grouped, calls paired with results).
 */

export interface TurnBase {
  /** 1-based line number in the file, and the index of the turn within that line. */
  line: number;
  part: number;
  /** ISO 8601, or '' when the line has no time. */
  at: string;
  /** Claude Code's DAG: this line's uuid and its parent (for a compaction boundary, the logical parent). */
  uuid?: string;
  parent?: string;
  /**
   * The line has a uuid and names no parent at all (Claude Code writes `parentUuid`, null at a root, on every such
   * line; a file made by another tool may leave it out): it follows the line before it in the file.
   */
  follows?: boolean;
  /** Written by a subagent (Claude Code sidechain or subagents/ file). */
  sidechain?: boolean;
  cwd?: string;
  /**
   * Codex writes each visible prompt and reply twice, as an event and as a response item;
   * the response-item copy is marked so `assemble` keeps one.
   */
  echo?: boolean;
  /**
   * Formats that write a whole message again as it grows (Gemini CLI): the message's id. A later copy replaces
   * every turn of the earlier one, where the earlier one stood.
   */
  record?: string;
  /** The conversation was rewound: the record with this id and every later one are dropped (Gemini CLI). */
  rewindTo?: string;
  /** The transcript the turn was read from; set by ingest when it loads turns, never by a reader. */
  file?: string;
}

export type TurnBody =
  /** The person's own words. `queued`: sent while the agent was working. */
  | { type: 'prompt'; text: string; queued?: boolean }
  /** Visible agent text; pieces with the same messageId are one reply. */
  | { type: 'reply'; text: string; messageId?: string }
  /** A tool call: `input` is a summary of at most 300 characters. */
  | { type: 'call'; callId: string; tool: string; description: string; input: string; messageId?: string }
  /**
   * A tool result. `text` holds at most 900 characters starting at the first line that looks like an error.
   * `refused`: the person rejected the call; `reason` is what they typed, if anything.
   */
  | {
      type: 'result';
      callId: string;
      status: 'ok' | 'failed' | 'refused';
      text: string;
      reason?: string;
      exitCode?: number;
    }
  | { type: 'interrupt'; duringTool: boolean }
  | { type: 'compaction'; text: string }
  /** A line that carries no conversation but keeps the DAG whole (meta, system, injected context). */
  | { type: 'link' };

export type Turn = TurnBase & TurnBody;

/** A line a reader could not use, and why. */
export interface LineWarning {
  line: number;
  reason: string;
}

export interface LineResult {
  turns: Turn[];
  warning?: string;
}

/** One transcript format. Readers never throw on a bad line: they say why and go on. */
export interface Reader {
  agent: string;
  /** The session a file belongs to, from its path alone. */
  sessionOf(path: string): string;
  /** Turns from one parsed JSON line. */
  parseLine(value: unknown, line: number): LineResult;
  /**
   * Turns from one line's raw bytes (`start` to `end`), without decoding what the reader would not read; undefined
   * when the line must be decoded and parsed whole. Where it answers, it answers exactly as `parseLine` would.
   */
  skimLine?(bytes: Buffer, start: number, end: number, line: number): LineResult | undefined;
  /**
   * For a reader of JSON Lines files: whether one parsed record is of this agent's transcript, so that a file named
   * by path is read as the agent that wrote it (`episodes/transcript-sources.ts`).
   */
  recognizes?(record: Record<string, unknown>): boolean;
}

/** A session put together from its turns, in order, on the live branch only. */
export interface Conversation {
  agent: string;
  session: string;
  cwd: string | null;
  items: Turn[];
}

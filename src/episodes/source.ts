/** What ingest reads and what it says about a line it could not use: shared by the loop, the readers and the parsers. */
export type SourceAgent =
  | 'claude-code'
  | 'codex'
  | 'gemini-cli'
  | 'opencode'
  | 'cursor'
  | 'copilot-chat'
  | 'aider'
  | 'specstory'
  | 'cline'
  | 'continue'
  | 'proxy'
  | 'events';

export interface Source {
  path: string;
  agent: SourceAgent;
  /** Bytes given directly (standard input, or the lines made of an agent store's rows) rather than read from `path`. */
  bytes?: Buffer;
  /** Why the store holding this source could not be read; the run warns and goes on. */
  unreadable?: string;
  /**
   * The chat this source copies, when it names one whose own transcript Remem reads (a SpecStory export of a Claude
   * Code session): read there, or in the same run, the copy is not read, lest its corrections count twice.
   */
  sameAs?: { agent: SourceAgent; session: string };
}

export interface IngestWarning {
  file: string;
  line?: number;
  reason: string;
}

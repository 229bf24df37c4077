/**
 * Every way a command can fail that it explains in one line, with the exit code it ends with. All are 1 today:
 * a failure the line names (a lock another run holds included: the run that waits is not an error of use). A
 * command called wrongly is not among them: it throws `UsageError` and exits 2. Only cli/ knows the flags, so it
 * turns a stage's error about a value a flag gave (`bad_host`, `unknown_agent`) into that usage error.
 */
export const ERROR_EXITS = {
  ambiguous: 1,
  bad_action: 1,
  bad_agent_file: 1,
  bad_clock: 1,
  bad_config: 1,
  bad_db: 1,
  bad_history: 1,
  bad_host: 1,
  bad_injection: 1,
  bad_key: 1,
  bad_key_file: 1,
  bad_manifest: 1,
  bad_record: 1,
  bad_relation: 1,
  bad_text: 1,
  busy: 1,
  changed_meanwhile: 1,
  clock_backwards: 1,
  commons_refused: 1,
  commons_reply: 1,
  commons_token: 1,
  commons_unavailable: 1,
  embed_unreachable: 1,
  merged: 1,
  model_unavailable: 1,
  needs_terminal: 1,
  no_histories: 1,
  no_memory: 1,
  no_stdin: 1,
  no_text: 1,
  no_token: 1,
  not_confirmer: 1,
  not_found: 1,
  not_observation: 1,
  not_pending: 1,
  port_unavailable: 1,
  refused: 1,
  replay_failed: 1,
  same_lesson: 1,
  setup_conflict: 1,
  store_too_new: 1,
  store_unavailable: 1,
  tombstoned: 1,
  unknown_agent: 1,
  vetoed: 1,
} as const satisfies Record<string, 1>;

export type ErrorCode = keyof typeof ERROR_EXITS;

/** A failure the command explains in one line on stderr; its code decides the exit (`ERROR_EXITS`). */
export class RememError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'RememError';
    this.code = code;
  }

  get exitCode(): number {
    return ERROR_EXITS[this.code];
  }
}

/** The command was called wrongly: exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

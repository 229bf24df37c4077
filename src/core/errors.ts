/** A failure the command explains in one line on stderr and exits 1. */
export class RememError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'RememError';
    this.code = code;
  }
}

/** The command was called wrongly: exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * What a person wrote in a message, apart from what they pasted into it: the output of their app, a stack trace,
 * a terminal, code. Corrections are compared and quoted by it (`correctionWords`): two messages that paste the same
 * app's console share most of their words whatever they ask, and compared whole, unrelated corrections became one
 * lesson ("corrected 11 times about the same thing", each a different log of one app).
 */

/** Lines a program wrote rather than a person (ASCII shapes; `SYMBOL_OPENING` the other). */
const PASTED_SHAPES: readonly RegExp[] = [
  // A place in a file or page and its line ("league-stats-app.js:30", "main.py:12:4", "stats?team=3:2728"), or a
  // browser console's page and line opening the line ("stats:1747 createLineChart …").
  /[./?=][^\s:]*:\d+(?::\d+)?(?=[\s),]|$)/,
  /^\s*[A-Za-z][\w-]*:\d+\s/,
  // A stack frame: JavaScript's and a browser console's ("fn @ file", "await in fn", "(anonymous)"), Python's.
  /^\s*at\s+\S.*(?::\d+\)?|\(native\)|<anonymous>\)?)$/,
  /^\s*\S+ @ \S+$|^\s*await in \S+$|^\s*\(anonymous\)/,
  /^\s*(?:File "[^"]*", line \d+|Traceback \(most recent call last\))/,
  // One name alone on its line, written as code is (`setTimeout`, `Promise.catch`, `handle_click`).
  /^\s*[\w$]*(?:[a-z][A-Z]|[._$])[\w$.]*\s*$/,
  // A log level, a time stamp (a 12-hour clock's too: a build service's log), a shell prompt opening the line.
  /^\s*\[?(?:DEBUG|INFO|WARN(?:ING)?|ERROR|TRACE|FATAL|CRITICAL)\]?(?:[\s:|\]-]|$)/,
  /^\s*\[?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}|^\s*\[?\d{1,2}:\d{2}:\d{2}\b/,
  /^\s*(?:\$|>>>|PS [A-Z]:\\)\s/,
  // Code and data: an indented line (Markdown's code block), one that opens or closes a structure or ends a statement.
  /^(?: {4}|\t)/,
  /^\s*[{}[\]]|[;{]\s*$/,
];

/** A time stamp opening a log line, with the colon after it: what failed is the rest of the line. */
const STAMP = /^\s*\[?(?:\d{4}-\d{2}-\d{2}[ T])?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?:\s?[AP]M)?\]?:?\s*/i;

/** The shapes as one pattern: a line is read once, not once a shape. */
const PASTED = new RegExp(PASTED_SHAPES.map((shape) => `(?:${shape.source})`).join('|'));

/** An app's own log line, which opens on a symbol ("🚀 DOM loaded…", "✅ Rendered"). */
const SYMBOL_OPENING = /^\s*\p{Extended_Pictographic}/u;

/** Words that make a pasted line the one worth keeping: what failed. */
const FAILURE =
  /\b(?:error|exception|failed|failure|fatal|cannot|can't|unable|denied|refused|not found|undefined)\b/i;

/** How many failing lines of what was pasted are kept: enough to tell one failure from another. */
const FAILURE_LINES = 2;

/**
 * The person's own lines of a message, and the first lines of what they pasted that say what failed (without their
 * file references). A message that is only a pasted log keeps those lines alone; one with no failing line, nothing
 * but what the person wrote.
 */
export function ownWords(said: string): string {
  const own: string[] = [];
  const failures: string[] = [];
  let fenced = false;
  for (const line of said.split(/\r?\n/)) {
    if (/^\s*(?:```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (line.trim() === '') continue;
    // Most lines are ASCII, which opens on no symbol.
    const pasted = fenced || PASTED.test(line) || (/[^\x00-\x7f]/.test(line) && SYMBOL_OPENING.test(line));
    if (!pasted) own.push(line);
    else if (failures.length < FAILURE_LINES && FAILURE.test(line)) {
      const plain = line
        .replace(STAMP, '')
        .replace(/^\s*[A-Za-z][\w-]*:\d+\s|\S*[\w-]+\.\w+:\d+(?::\d+)?\S*/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      if (plain !== '' && !failures.includes(plain)) failures.push(plain);
    }
  }
  return [...own, ...failures].join('\n');
}

/** What a correction is compared by and quotes: `ownWords`, or the message whole when it holds nothing else. */
export function personsWords(said: string): string {
  const own = ownWords(said);
  return own.trim() === '' ? said : own;
}

/** What a correction episode is compared by and its lesson quotes: `personsWords` of its message, else its text. */
export function correctionWords(episode: { said: string | null; text: string }): string {
  return episode.said === null ? episode.text : personsWords(episode.said);
}

/**
 * What a lesson, a prompt or a tool call is about, beyond the words they share: the commands it names, the files it
 * names, and the themes those and a few telling words belong to. "use pnpm not npm" and "add dayjs to the
 * dependencies" share no word, but both are about installing packages; `npm install dayjs` runs a command the
 * lesson names. Read by the prime index's writer and the hook, so both work subjects out the same way, and by the
 * merge, where two corrections about the same commands need fewer words in common to be one theme.
 */

/** Themes a person's rule about a tool tends to be about: each names the commands and words that belong to it. */
const THEMES: Readonly<Record<string, string>> = {
  packages: `npm npx pnpm pnpx yarn bun bunx pip pip3 pipx uv uvx poetry pipenv conda cargo gem bundler composer
    brew dependency dependencies devdependencies lockfile package.json package-lock.json pnpm-lock.yaml yarn.lock
    requirements.txt pyproject.toml cargo.toml gemfile`,
  python: 'python python3 py uv uvx pip pip3 venv virtualenv poetry pipenv conda pytest mypy ruff',
  tests: 'vitest jest pytest mocha ava playwright cypress unittest',
  lint: 'lint linter linting eslint prettier biome ruff black flake8 mypy formatter formatting',
  git: 'git commit commits push rebase branch branches merge stash amend gh',
  containers: 'docker dockerfile compose podman kubectl helm container containers',
  migrations: 'migration migrations migrate prisma alembic knex drizzle',
};

/** Commands a rule names: a call running one of them is what the rule is about. */
const COMMANDS = new Set(
  `npm npx pnpm pnpx yarn bun bunx node deno tsx ts-node python python3 py pip pip3 pipx uv uvx poetry pipenv conda
  pytest mypy ruff black cargo rustc go gem bundle rails rake composer php mvn gradle dotnet git gh docker podman
  kubectl helm terraform make cmake curl wget psql sqlite3 mysql jest vitest eslint prettier tsc biome playwright
  alembic prisma`.split(/\s+/),
);

const MEMBERS = new Map<string, string[]>();
for (const [theme, words] of Object.entries(THEMES)) {
  for (const word of words.split(/\s+/).filter(Boolean)) {
    const themes = MEMBERS.get(word) ?? [];
    themes.push(theme);
    MEMBERS.set(word, themes);
  }
}

/** Words, and names of files with their extension ("package.json"), lower-cased; and `$`, a prompt's sign. */
const WORD = /\$|[a-z0-9][a-z0-9_-]*(?:\.[a-z0-9_-]+)*/g;
const FILE = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.[a-z][a-z0-9]{0,4}$/;

export interface Subjects {
  /** `theme:`, `command:` and `file:` terms. */
  terms: Set<string>;
  /** The terms as a 32-bit screen: a bit per term, by hash. */
  mask: number;
}

function bitOf(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  return 1 << ((h >>> 0) % 32);
}

function subjectsOfTerms(terms: Set<string>): Subjects {
  let mask = 0;
  for (const term of terms) mask |= bitOf(term);
  return { terms, mask: mask >>> 0 };
}

/**
 * Command names that are also everyday words: "make sure", "let's go", "a black header", "a node of the tree". In
 * prose they name the command only where a command is written: in backticks, after `$`, or after "run" or "use".
 */
const EVERYDAY = new Set(['make', 'go', 'black', 'bundle', 'node', 'gem', 'rake', 'helm']);
const COMMAND_BEFORE = new Set(['run', 'ran', 'running', 'runs', 'use', 'using', 'uses', 'via', '$']);

/** The subjects of a text: the commands and files it names and the themes of its words. */
export function subjectsOf(text: string): Subjects {
  const terms = new Set<string>();
  const lower = text.toLowerCase();
  // Inside backticks every word is written as code; `$` stands before a command a person pasted.
  const spans = lower.split('`');
  for (const [index, span] of spans.entries()) {
    const code = index % 2 === 1 && index < spans.length - 1;
    let before = '';
    for (const match of span.matchAll(WORD)) {
      const word = match[0];
      const written = code || !EVERYDAY.has(word) || COMMAND_BEFORE.has(before);
      before = word;
      if (!written) continue;
      if (COMMANDS.has(word)) terms.add(`command:${word}`);
      for (const theme of MEMBERS.get(word) ?? []) terms.add(`theme:${theme}`);
      if (FILE.test(word)) terms.add(`file:${word}`);
    }
  }
  return subjectsOfTerms(terms);
}

/**
 * Where a correction lesson quotes the agent sentence or call the person answered (`sleep/wording.ts` words it).
 * The agent's sentence tells when the person spoke, not what their rule is about: "Let me run the tests and commit"
 * would make a rule about a table's colours a lesson about tests and git.
 */
const AGENT_QUOTE = /^(?:When the agent said|After the agent's \S+ call) "[\s\S]*?", the person answered: "/;

/**
 * What a lesson is about: for a correction, what the person said (and, for a refused call, the call); the agent
 * sentence the lesson quotes before it is left out.
 */
export function lessonSubjects(text: string): Subjects {
  const quote = AGENT_QUOTE.exec(text);
  return subjectsOf(quote ? text.slice(quote[0].length) : text);
}

/** Where a command line's segments start: a program after a pipe, `&&`, `;` or at the start. */
const SEGMENT =
  /(?:^|&&|\|\||[|;\n(])\s*((?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*)(?:sudo\s+|exec\s+|time\s+)?([^\s|;&()]+)/g;

/**
 * What a tool call is about: the commands it runs (each segment's program, with `npx`'s and `uv run`'s
 * program as well) and the files it touches; themes are a prompt's way in, a call names what it runs.
 */
export function callSubjects(command: string, files: readonly string[]): Subjects {
  const terms = new Set<string>();
  for (const match of command.matchAll(SEGMENT)) {
    const program = (match[2] ?? '').split('/').pop()!.toLowerCase();
    if (COMMANDS.has(program)) terms.add(`command:${program}`);
    const rest = command.slice((match.index ?? 0) + match[0].length).trimStart();
    const next = /^(?:run\s+)?([a-z0-9_.-]+)/i.exec(rest)?.[1]?.toLowerCase();
    if ((program === 'npx' || program === 'uv' || program === 'uvx' || program === 'bunx') && next) {
      if (COMMANDS.has(next)) terms.add(`command:${next}`);
    }
  }
  for (const file of files) {
    const name = file.split(/[\\/]/).pop()?.toLowerCase() ?? '';
    if (FILE.test(name)) terms.add(`file:${name}`);
  }
  return subjectsOfTerms(terms);
}

/** Whether two sets of subjects meet: a term in common. */
export function subjectsMeet(a: Subjects, b: Subjects): boolean {
  if ((a.mask & b.mask) === 0) return false;
  for (const term of a.terms) if (b.terms.has(term)) return true;
  return false;
}

/** Whether two texts name a command in common. */
export function sharedCommands(a: Subjects, b: Subjects): boolean {
  if ((a.mask & b.mask) === 0) return false;
  for (const term of a.terms) if (term.startsWith('command:') && b.terms.has(term)) return true;
  return false;
}

/** Whether a word names a command a rule may be about (`npm`, `uv`, `pytest`). */
export function isCommand(word: string): boolean {
  return COMMANDS.has(word.toLowerCase());
}

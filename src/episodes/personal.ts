/**
 * Whether what a person said names something of the project it was said in: a path, a file, a piece of code,
 * a command line, an address, or a word of the project's folder name. A rule of how the person works that names
 * none of these may reach every project; one that names any stays in its own (`correctionProject`).
 */

import { statesStandingRule } from './detect.ts';

/** Rules as data, each with what it catches. */
export const projectCues: readonly { name: string; pattern: RegExp; examples: readonly string[] }[] = [
  {
    name: 'path',
    pattern: /(?:^|[\s("'`])(?:~|\.{1,2})?\/[\w.@-]+|\b[\w.-]+\/[\w.-]+\/|\b[A-Za-z]:\\[\w\\]/u,
    examples: ['the script is in ./scripts/deploy', 'look at src/core/params.ts', 'C:\\Users\\dev'],
  },
  {
    name: 'file',
    pattern:
      /\b[\w-]+\.(?:[cm]?[jt]sx?|py|rb|go|rs|java|kt|swift|c|h|cpp|hpp|cs|php|sh|ps1|sql|json|jsonl|ya?ml|toml|ini|env|lock|md|mdx|txt|csv|html?|css|scss|vue|svelte|xml|gradle|proto|ipynb|dart|lua|r)\b/iu,
    examples: ['package.json is stale', 'fix the test in app.test.ts'],
  },
  {
    name: 'code',
    // A code span, a call, a dotted member, a camelCase, snake_case or CONSTANT_CASE name.
    pattern:
      /`[^`\n]+`|\b[A-Za-z_]\w*\([^)\n]*\)|\b[a-z_]\w*\.[a-z_]\w*\(|\b[a-z]+[A-Z]\w*\b|\b[a-z0-9]+_[a-z0-9_]+\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/u,
    examples: [
      'call `make check` first',
      'getUserById returns null',
      'the max_retries setting',
      'set API_KEY',
    ],
  },
  {
    name: 'command',
    pattern:
      /\b(?:npm|npx|pnpm|yarn|pip3?|uv|poetry|cargo|git|docker|kubectl|pytest|jest|vitest|brew|apt(?:-get)?|python3?)\s+-{0,2}[a-z]/iu,
    examples: ['npm run build breaks', 'use uv run pytest'],
  },
  {
    name: 'address',
    pattern: /\bhttps?:\/\/\S+|\b(?:localhost|127\.0\.0\.1):\d+/iu,
    examples: ['the API is at http://localhost:8080'],
  },
];

/** The words of a project's folder name worth matching: three letters or more, lowercase. */
function projectWords(project: string | null): string[] {
  if (!project) return [];
  const name =
    project
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() ?? '';
  return name
    .split(/[^\p{L}\p{N}]+/u)
    .map((word) => word.toLowerCase())
    .filter((word) => word.length >= 3);
}

/** The first cue of the project `text` meets, or null when it says nothing project-specific. */
export function findProjectCue(text: string, project: string | null): string | null {
  for (const cue of projectCues) if (cue.pattern.test(text)) return cue.name;
  const lower = text.toLowerCase();
  for (const word of projectWords(project)) {
    if (new RegExp(`(?<![\\p{L}\\p{N}])${word}(?![\\p{L}\\p{N}])`, 'u').test(lower)) return 'project name';
  }
  return null;
}

/** What a source of a correction lesson tells of where it applies. */
export interface ScopedSource {
  project: string | null;
  said: string | null;
  text: string;
  detail: Record<string, unknown>;
}

/**
 * The project a correction lesson belongs to, or null for the person's own (every project). A remembered event
 * stays in the project it was said in unless it names the person's scope (`"scope": "personal"`); a correction
 * read from a transcript is the person's own when it states a standing rule (`statesStandingRule`) and names nothing
 * of its project. Any other correction is about the work of its project: on the labelled corrections that name
 * nothing of their project, most are of one task ("fix", "marche pas", "keep the label as it was"), noise in every
 * other project.
 */
export function correctionProject(source: ScopedSource): string | null {
  if (source.project === null || source.detail['scope'] === 'personal') return null;
  if (source.detail['event'] === true) return source.project;
  const said = source.said ?? source.text;
  return statesStandingRule(said) && findProjectCue(said, source.project) === null ? null : source.project;
}

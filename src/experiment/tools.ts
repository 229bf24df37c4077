import type { ToolCall, ToolSpec } from '../core/index.ts';

/** The loop's tools: a shell and an editor, simulated. Every call succeeds with a plausible output. */
export const loopTools: readonly ToolSpec[] = [
  {
    type: 'function',
    function: {
      name: 'shell',
      description: 'Run a shell command in the repository and return its output.',
      parameters: {
        type: 'object',
        properties: { command: { type: 'string', description: 'the command line to run' } },
        required: ['command'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'edit',
      description: 'Replace text in a file of the repository (an empty old_text writes the whole file).',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          old_text: { type: 'string' },
          new_text: { type: 'string' },
        },
        required: ['path', 'new_text'],
      },
    },
  },
];

/** What a command of each sort prints when it works; the first pattern that meets the command answers. */
const outputs: readonly [RegExp, string][] = [
  [
    /\bgit\s+status\b/,
    "On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit, working tree clean",
  ],
  [
    /\bgit\s+(?:diff|log|show)\b/,
    'commit 3f2a9c1 (HEAD -> main, origin/main)\n    Prepare release\n\n 2 files changed, 14 insertions(+), 3 deletions(-)',
  ],
  [/\bgit\s+commit\b/, '[main 8d41e07] Apply the change\n 2 files changed, 9 insertions(+), 2 deletions(-)'],
  [/\bgit\s+push\b/, 'To github.com:acme/app.git\n   3f2a9c1..8d41e07  main -> main'],
  [
    /\bgit\s+(?:merge|pull|rebase)\b/,
    'Updating 3f2a9c1..8d41e07\nFast-forward\n 4 files changed, 52 insertions(+), 7 deletions(-)',
  ],
  [/\bgit\s+tag\b/, ''],
  [/\bgit\s+(?:branch|push\s+\S+\s+--delete)\b/, 'Deleted branch feature/old (was 1c2d3e4).'],
  [/\bgh\s+pr\s+merge\b/, '✓ Merged pull request #212\n✓ Deleted branch feature/search'],
  [/\bgh\s+release\b/, 'https://github.com/acme/app/releases/tag/v2.4.0'],
  [
    /\b(?:npm|pnpm|yarn)\s+(?:test|run\s+test)\b|\bvitest\b|\bjest\b|\bpytest\b/,
    'Test Files  12 passed (12)\n     Tests  148 passed (148)',
  ],
  [
    /\b(?:npm|pnpm|yarn)\s+(?:install|i|add|ci|update)\b|\buv\s+(?:add|sync)\b|\bpip\s+install\b/,
    'added 3 packages, changed 1 package, and audited 412 packages in 4s\n\nfound 0 vulnerabilities',
  ],
  [/\bnpm\s+publish\b/, '+ @acme/client@1.4.0'],
  [/\bnpm\s+version\b/, 'v1.4.0'],
  [
    /\b(?:npm\s+run\s+)?(?:lint|format|biome|eslint|prettier)\b/,
    'Checked 214 files in 180ms. Fixed 14 files.',
  ],
  [/\b(?:npm\s+run\s+build|tsc|make|cargo\s+build|go\s+build)\b/, 'Build finished in 3.2s.'],
  [/\bnpm\s+audit\b/, 'found 0 vulnerabilities'],
  [/\b(?:docker|kubectl|helm)\b/, 'Successfully built 4f1e2d3c\nSuccessfully tagged acme/app:latest'],
  [/\b(?:deploy|fly|vercel|netlify)\b/, 'Deployed to production: https://app.example.com (v2.4.0)'],
  [/\b(?:migrate|psql|prisma|knex)\b/, 'Applied migration 0042_add_orders_index.sql (38 ms)'],
  [/\b(?:curl|wget)\b/, 'HTTP/2 200\ncontent-type: text/html'],
  [/\b(?:ls|find|tree)\b/, 'CHANGELOG.md  Dockerfile  README.md  package.json  src  test'],
  [/\b(?:cat|head|tail|less|sed\s+-n)\b/, '{\n  "name": "@acme/app",\n  "version": "2.4.0"\n}'],
  [/\b(?:grep|rg)\b/, 'src/date.ts:42:  return date.getMonth();'],
];

function argumentsOf(call: ToolCall): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(call.function.arguments);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The output of one call, as if it ran and succeeded. */
export function simulateCall(call: ToolCall): string {
  const args = argumentsOf(call);
  if (call.function.name === 'edit') {
    const path = typeof args['path'] === 'string' ? args['path'] : 'the file';
    return `Edited ${path}: 1 change applied.`;
  }
  if (call.function.name !== 'shell') return `(no tool named ${call.function.name}; use shell or edit)`;
  const command = typeof args['command'] === 'string' ? args['command'] : '';
  const found = outputs.find(([pattern]) => pattern.test(command));
  return found ? found[1] || '(done, no output)' : '(done, exit code 0)';
}

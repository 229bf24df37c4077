/**
 * `npm run check`: lesson text reaches an agent through one door, `showToAgent` in truth/door.ts, which reads
 * what the agent may see and audits it in one transaction. Outside truth/, nothing writes an audit row itself
 * (the hooks' log is moved in by prime/drain.ts), and truth's raw read `visibleToAgent` is called only where
 * no agent is shown its result as it stands: a person's own recall, and the hook's read of the store, whose
 * answer is audited through the hook's log.
 */
import { readFileSync } from 'node:fs';
import { finish, sourceFiles } from './house-files.mjs';

const RULES = [
  { name: 'recordInjection', call: /\brecordInjection\(/, allowed: new Set(['src/prime/drain.ts']) },
  {
    name: 'visibleToAgent',
    call: /\bvisibleToAgent\(/,
    allowed: new Set(['src/recall/run.ts', 'src/prime/store-pool.ts']),
  },
];

const problems = [];
for (const file of sourceFiles('src')) {
  if (file.startsWith('src/truth/')) continue;
  const text = readFileSync(file, 'utf8');
  for (const rule of RULES) {
    if (rule.call.test(text) && !rule.allowed.has(file))
      problems.push(`${file}: calls ${rule.name} past the door (show lessons with showToAgent from truth/)`);
  }
}
finish(problems);

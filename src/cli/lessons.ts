import type { Lesson } from '../core/index.ts';
import { UsageError } from '../core/index.ts';
import type { CommandSpec } from './command.ts';

export function lessonState(lesson: Lesson): string {
  if (lesson.vetoedAt) return 'vetoed';
  if (lesson.mergedInto !== null) return `merged into ${lesson.mergedInto}`;
  if (lesson.review !== 'approved') return lesson.review;
  return lesson.archived ? 'archived' : 'active';
}

function parseTime(value: string): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw new UsageError(`--as-of expects an ISO 8601 time, got ${value}`);
  return at.toISOString();
}

export const lessonsCommand: CommandSpec = {
  name: 'lessons',
  summary: 'lessons with kind, seen, strength, state, validity and why',
  options: [
    { flags: '--all', description: 'include archived, merged, vetoed and unreviewed lessons' },
    { flags: '--as-of <time>', description: 'as Remem knew them at this ISO 8601 time' },
    {
      flags: '--project <dir>',
      description: "only what that project's sessions could be shown (default: every project)",
    },
  ],
  async run(context, _args, options) {
    const asOf = options['asOf'] === undefined ? undefined : parseTime(options['asOf'] as string);
    const { openStore, provenanceOf } = await import('../store/index.ts');
    const { projectTruth } = await import('../truth/index.ts');
    const projectDir = options['project'] as string | undefined;
    const project =
      projectDir === undefined ? undefined : (await import('../episodes/project.ts')).projectOf(projectDir);
    const store = openStore(context.config.home);
    try {
      const truth = projectTruth(store.db, {
        now: context.clock.iso(),
        ...(asOf === undefined ? {} : { asOf }),
        ...(project === undefined ? {} : { scope: { project } }),
      });
      const rows = truth
        .filter((row) => options['all'] === true || lessonState(row.lesson) === 'active')
        .sort((a, b) => b.lesson.strength - a.lesson.strength || a.lesson.id - b.lesson.id)
        .map((row) => ({
          ...row.lesson,
          state: lessonState(row.lesson),
          predicting: row.predicting > 0,
          scope: row.scope,
          validity: row.validity,
          retention: row.retention,
          resolution: row.resolution,
          subject: row.subject,
          conflictsWith: row.conflictsWith,
          supportedBy: row.supportedBy,
          supersededBy: row.supersededBy,
          confirmations: row.confirmations,
          failures: row.failures,
          reach: row.reach,
          heldBecause: row.heldBecause,
          ...provenanceOf(store.db, row.lesson.id),
        }));
      const text = rows.length
        ? rows
            .map((row) => {
              const why = [
                row.validity,
                row.resolution?.replaceAll('_', ' '),
                row.supersededBy !== null && `by #${row.supersededBy}`,
                row.conflictsWith.length > 0 &&
                  `conflicts with ${row.conflictsWith.map((id) => `#${id}`).join(', ')}`,
              ]
                .filter(Boolean)
                .join(', ');
              return `#${row.id} ${row.kind.padEnd(10)} seen ${String(row.seen).padStart(2)}  strength ${row.strength.toFixed(2)}  ${row.state}${row.predicting ? ', predicting' : ''}  ${row.hash.slice(0, 12)}\n  ${why}; ${row.scope === 'personal' ? 'personal' : row.project}\n  ${row.text}`;
            })
            .join('\n')
        : asOf === undefined
          ? 'No lessons yet. Run `remem sleep` after an ingest.'
          : `No lessons as of ${asOf}.`;
      return { json: { ...(asOf === undefined ? {} : { asOf }), lessons: rows }, text };
    } finally {
      store.close();
    }
  },
};

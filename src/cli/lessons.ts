import type { Lesson } from '../core/index.ts';
import { UsageError } from '../core/index.ts';
import type { LayerRef } from '../truth/index.ts';
import { defineCommand } from './command.ts';

export function lessonState(lesson: Lesson): string {
  if (lesson.vetoedAt) return 'vetoed';
  if (lesson.mergedInto !== null) return `merged into ${lesson.mergedInto}`;
  if (lesson.review !== 'approved') return lesson.review;
  return lesson.archived ? 'archived' : 'active';
}

/** One line under the list: what its words mean (`remem lessons --help` says more). */
const LEGEND =
  'seen: times said or met; strength: fades unless it comes back; active: shown when it applies; current: nothing later says otherwise; predicting: it came true; personal: every project (remem lessons --help explains every word)';

function parseTime(value: string): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw new UsageError(`--as-of expects an ISO 8601 time, got ${value}`);
  return at.toISOString();
}

export const lessonsCommand = defineCommand({
  name: 'lessons',
  readsHome: true,
  summary: 'lessons with kind, seen, strength, state, validity and why; with the layers agents run with',
  help: [
    'What the words mean:',
    '  seen N          how many times the person said it, or the surprise came back',
    '  strength        how much it counts: it grows each time it comes back or comes true, and halves every 45 days unused',
    '  active          agents are shown it when it applies; archived: it faded unused; vetoed: you forgot it',
    '  merged into #N  said again in other words: lesson #N carries both',
    '  pending_review  received from another memory or a layer: no agent sees it until you approve it',
    '  predicting      it foretold what a later session met',
    '  current         nothing later says otherwise; superseded: a later lesson of yours says otherwise (by #N);',
    '                  contradicted: two lessons disagree and agents see the question, not a side',
    '  only surviving  the only lesson of its subject that holds; most recent: the latest of several said the same',
    '  personal        shown in every project; otherwise only in the project named',
    '  held: WHY       not shown to agents, and why (a stronger copy is shown, it was judged here, it waits for review)',
  ].join('\n'),
  options: [
    { flags: '--all', description: 'include archived, merged, vetoed and unreviewed lessons' },
    { flags: '--as-of <time>', description: 'as Remem knew them at this ISO 8601 time' },
    {
      flags: '--project <dir>',
      description: "only what that project's sessions could be shown (default: every project)",
    },
  ],
  async run(context, _args, options) {
    const asOf = options.asOf === undefined ? undefined : parseTime(options.asOf);
    const { openStore, provenanceOf } = await import('../store/index.ts');
    const { layerLessonRows, projectTruth } = await import('../truth/index.ts');
    const projectDir = options.project;
    const project =
      projectDir === undefined ? undefined : (await import('../episodes/index.ts')).projectOf(projectDir);
    const store = openStore(context.config.home);
    try {
      const truth = projectTruth(store.db, {
        now: context.clock.iso(),
        ...(asOf === undefined ? {} : { asOf }),
        ...(project === undefined ? {} : { scope: { project } }),
      });
      // The layers (protocol §6) have no history: an "as of" read is this memory's own lessons alone.
      const layered =
        asOf === undefined
          ? layerLessonRows(store.db, {
              now: context.clock.iso(),
              scope: project === undefined ? { project: null, allProjects: true } : { project },
            })
          : { rows: [], shownFrom: new Map<string, LayerRef>() };
      const own = truth
        .filter((row) => options.all === true || lessonState(row.lesson) === 'active')
        .sort((a, b) => b.lesson.strength - a.lesson.strength || a.lesson.id - b.lesson.id)
        .map((row) => {
          const instead = row.reach === 'lesson' ? (layered.shownFrom.get(row.lesson.hash) ?? null) : null;
          return {
            ...row.lesson,
            layer: 'personal' as const,
            source: 'memory',
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
            reach: instead ? ('held' as const) : row.reach,
            heldBecause: instead ? ('stronger_instance' as const) : row.heldBecause,
            shownInstead: instead,
            ...provenanceOf(store.db, row.lesson.id),
          };
        })
        // What agents see shows one instance per hash: a layer's stronger one stands for this memory's own.
        .filter((row) => options.all === true || row.shownInstead === null);
      const fromLayers = layered.rows
        .filter((row) => options.all === true || row.shown)
        .map(({ lesson, layer, shown, heldBecause }) => ({
          id: null,
          hash: lesson.hash,
          kind: lesson.kind,
          text: lesson.text,
          seen: lesson.seen,
          strength: lesson.strength,
          updatedAt: lesson.updatedAt,
          project: null,
          layer: layer.level,
          source: layer.source,
          state: 'active',
          predicting: false,
          scope: 'personal' as const,
          validity: 'current' as const,
          reach: shown ? ('lesson' as const) : ('held' as const),
          heldBecause,
          origin: lesson.origin === 'layer' ? null : lesson.origin,
          confirmedBy: [] as string[],
          corroboratedBy: [] as string[],
        }));
      // Stable: on equal strength a layer's lesson comes first, as it does for agents.
      const rows = [...fromLayers, ...own].sort((a, b) => b.strength - a.strength);
      const text = rows.length
        ? rows
            .map((row) => {
              if (row.id === null)
                return `[${row.layer}] ${row.kind.padEnd(10)} seen ${String(row.seen).padStart(2)}×  strength ${row.strength.toFixed(2)}  ${row.reach === 'lesson' ? 'shown' : `held: ${row.heldBecause}`}  ${row.hash.slice(0, 12)}\n  from ${row.source}\n  ${row.text}`;
              const why = [
                row.validity,
                row.resolution?.replaceAll('_', ' '),
                row.supersededBy !== null && `by #${row.supersededBy}`,
                row.conflictsWith.length > 0 &&
                  `conflicts with ${row.conflictsWith.map((id) => `#${id}`).join(', ')}`,
                row.shownInstead !== null && `shown from the ${row.shownInstead.level} layer instead`,
              ]
                .filter(Boolean)
                .join(', ');
              return `#${row.id} ${row.kind.padEnd(10)} seen ${String(row.seen).padStart(2)}×  strength ${row.strength.toFixed(2)}  ${row.state}${row.predicting ? ', predicting' : ''}  ${row.hash.slice(0, 12)}\n  ${why}; ${row.scope === 'personal' ? 'personal' : row.project}\n  ${row.text}`;
            })
            .join('\n')
        : asOf === undefined
          ? 'No lessons yet. Run `remem sleep` after an ingest.'
          : `No lessons as of ${asOf}.`;
      const legend = rows.length ? `\n\n${LEGEND}` : '';
      return { json: { ...(asOf === undefined ? {} : { asOf }), lessons: rows }, text: `${text}${legend}` };
    } finally {
      store.close();
    }
  },
});

import type { Lesson } from '../core/index.ts';
import type { CommandSpec } from './command.ts';

export function lessonState(lesson: Lesson): string {
  if (lesson.vetoedAt) return 'vetoed';
  if (lesson.mergedInto !== null) return `merged into ${lesson.mergedInto}`;
  if (lesson.review !== 'approved') return lesson.review;
  return lesson.archived ? 'archived' : 'active';
}

export const lessonsCommand: CommandSpec = {
  name: 'lessons',
  summary: 'lessons with kind, seen, strength and state',
  options: [{ flags: '--all', description: 'include archived, merged, vetoed and unreviewed lessons' }],
  async run(context, _args, options) {
    const { openStore, listLessons, listPredictions } = await import('../store/index.ts');
    const store = openStore(context.config.home);
    try {
      const open = new Set(
        listPredictions(store.db, { state: 'open' }).map((prediction) => prediction.lessonId),
      );
      const lessons = listLessons(store.db)
        .filter((lesson) => options['all'] === true || lessonState(lesson) === 'active')
        .sort((a, b) => b.strength - a.strength);
      const rows = lessons.map((lesson) => ({
        ...lesson,
        state: lessonState(lesson),
        predicting: open.has(lesson.id),
        scope: lesson.project === null ? 'personal' : lesson.project,
      }));
      const text = rows.length
        ? rows
            .map(
              (row) =>
                `#${row.id} ${row.kind.padEnd(10)} seen ${String(row.seen).padStart(2)}  strength ${row.strength.toFixed(2)}  ${row.state}${row.predicting ? ', predicting' : ''}  ${row.hash.slice(0, 12)}\n  ${row.text}`,
            )
            .join('\n')
        : 'No lessons yet. Run `remem sleep` after an ingest.';
      return { json: { lessons: rows }, text };
    } finally {
      store.close();
    }
  },
};

import { RememError, UsageError } from '../core/index.ts';
import { defineCommand } from './command.ts';

const actions = ['approve', 'reject', 'edit'] as const;

export const reviewCommand = defineCommand({
  name: 'review',
  summary: 'the review queue; approve|reject|edit ID needs an interactive terminal',
  args: ['[action]', '[ref]'],
  options: [{ flags: '--text <text>', description: 'edit: the new wording' }],
  async run(context, args, options) {
    const [action, ref] = args as [string | undefined, string | undefined];
    if (action !== undefined && !(actions as readonly string[]).includes(action)) {
      throw new UsageError(`review takes no action, or one of ${actions.join(', ')}: got ${action}`);
    }
    if (action !== undefined && ref === undefined)
      throw new UsageError(`review ${action} needs a lesson id or hash`);
    const { openStore } = await import('../store/index.ts');
    const truth = await import('../truth/index.ts');
    if (action !== undefined && !context.stdinIsTTY)
      throw new RememError('needs_terminal', truth.NEEDS_TERMINAL);
    const store = openStore(context.config.home);
    try {
      const now = context.clock.iso();
      if (action === undefined) {
        const queue = truth.listReviewQueue(store.db, { now });
        const text = queue.length
          ? queue
              .map(
                (item) =>
                  `#${item.lesson.id} ${item.lesson.kind} from ${item.origin}  confirmed ${item.confirmations}, failed ${item.failures}, predicting ${item.predicting}  ${item.validity}${item.conflictsWith.length ? `, conflicts with ${item.conflictsWith.map((id) => `#${id}`).join(', ')}` : ''}${item.heldFor ? `\n  held: ${item.heldFor}` : ''}\n  ${item.lesson.text}`,
              )
              .join('\n')
          : 'Nothing waits for review.';
        return { json: { queue }, text };
      }
      const lesson = truth.decideReview(store, {
        action: action as (typeof actions)[number],
        ref: ref!,
        now,
        terminal: context.stdinIsTTY,
        params: context.config.params,
        ...(options.text === undefined ? {} : { text: options.text }),
      });
      const { refreshViews } = await import('../truth/index.ts');
      refreshViews(store, context.clock.iso(), context.config.params);
      const done =
        lesson.review === 'rejected' ? 'Rejected' : action === 'edit' ? 'Edited and approved' : 'Approved';
      return { json: { lesson }, text: `${done} #${lesson.id} ${lesson.hash.slice(0, 12)}: ${lesson.text}` };
    } finally {
      store.close();
    }
  },
});

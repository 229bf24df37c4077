import { defineCommand } from './command.ts';

export const revokeCommand = defineCommand({
  name: 'revoke',
  summary:
    "withdraw one of this memory's lessons, or vote to revoke a received lesson it confirmed: a signed revocation, published on the next share",
  args: ['<hash>'],
  async run(context, args) {
    const { openStore } = await import('../store/index.ts');
    const { loadOrCreateIdentity } = await import('../protocol/index.ts');
    const { revoke } = await import('../share/index.ts');
    const { refreshViews } = await import('../truth/index.ts');
    const identity = loadOrCreateIdentity(context.config.home);
    const store = openStore(context.config.home);
    try {
      const revocation = revoke(store, identity, args[0]!, context.clock.iso());
      refreshViews(store, context.clock.iso(), context.config.params);
      const { lesson, as } = revocation;
      const what = as === 'origin' ? 'Revoked' : 'Voted to revoke';
      const published =
        as === 'origin'
          ? "The revocation is published with this memory's file on the next `remem share`."
          : `It is no longer used here. The vote is published beside this memory's confirmation on the next \`remem share\`; the lesson is revoked for every holder once more than half of its confirmers (and at least ${context.config.params.commons.confirmations}) voted.`;
      const text = `${revocation.fresh ? what : `Already ${what.toLowerCase()}`} #${lesson.id} ${lesson.hash}: ${lesson.text}\n${published}`;
      return {
        json: {
          lessonId: lesson.id,
          hash: lesson.hash,
          fresh: revocation.fresh,
          as,
          record: revocation.line,
        },
        text,
      };
    } finally {
      store.close();
    }
  },
});

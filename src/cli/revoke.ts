import type { CommandSpec } from './command.ts';

export const revokeCommand: CommandSpec = {
  name: 'revoke',
  summary: "withdraw one of this memory's lessons: a signed revocation, published on the next share",
  args: ['<hash>'],
  async run(context, args) {
    const { openStore } = await import('../store/index.ts');
    const { loadOrCreateIdentity, revoke } = await import('../protocol/index.ts');
    const { refreshViews } = await import('../truth/index.ts');
    const identity = loadOrCreateIdentity(context.config.home);
    const store = openStore(context.config.home);
    try {
      const revocation = revoke(store, identity, args[0]!, context.clock.iso());
      refreshViews(store, context.clock.iso());
      const { lesson } = revocation;
      const text = `${revocation.fresh ? 'Revoked' : 'Already revoked'} #${lesson.id} ${lesson.hash}: ${lesson.text}\nThe revocation is published with this memory's file on the next \`remem share\`.`;
      return {
        json: { lessonId: lesson.id, hash: lesson.hash, fresh: revocation.fresh, record: revocation.line },
        text,
      };
    } finally {
      store.close();
    }
  },
};

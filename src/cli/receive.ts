import { append } from '../core/index.ts';
import { defineCommand } from './command.ts';

export const receiveCommand = defineCommand({
  name: 'receive',
  summary: "read other memories' files, check every record, keep new lessons as candidates",
  options: [
    { flags: '--folder <dir>', description: 'read every <origin>.jsonl in this folder' },
    { flags: '--commons <url>', description: 'read every file the commons at <url> lists' },
  ],
  async run(context, _args, options) {
    const { UsageError } = await import('../core/index.ts');
    const folder = options.folder;
    const commons = options.commons;
    if (folder === undefined && commons === undefined)
      throw new UsageError('receive from --folder DIR or --commons URL');
    const { openStore } = await import('../store/index.ts');
    const { loadOrCreateIdentity } = await import('../protocol/index.ts');
    const { receive } = await import('../share/index.ts');
    const { fetchMemoryFiles, readMemoryFiles } = await import('../transport/index.ts');
    const identity = loadOrCreateIdentity(context.config.home);
    const now = context.clock.iso();
    const { maxRecords, maxBytes } = context.config.params.commons;
    const read = { except: identity.origin, now, limits: { maxRecords, maxBytes } };
    const files = folder === undefined ? [] : readMemoryFiles(folder, read);
    // Lessons the commons holds as common, for the owner's policy that may approve them (off by default).
    let common = new Set<string>();
    if (commons !== undefined) {
      const { createCommonsClient } = await import('../transport/index.ts');
      const token = context.config.commonsToken;
      const client = createCommonsClient({ url: commons, ...(token === undefined ? {} : { token }) });
      append(files, await fetchMemoryFiles(client, { ...read, url: commons }));
      if (context.config.params.truth.autoApproveCommon) {
        common = new Set((await client.lessons('common')).lessons.map((lesson) => lesson.hash));
      }
    }
    const store = openStore(context.config.home);
    try {
      const report = receive(store, identity, files, { now, params: context.config.params });
      const { applyReviewPolicy } = await import('../truth/index.ts');
      const approved = applyReviewPolicy(store.db, {
        now,
        params: context.config.params,
        isCommon: (hash) => common.has(hash),
      });
      // A revocation drops a lesson and a confirmation raises one: what agents read changes with them.
      if (report.dropped > 0 || report.raised.length > 0 || approved.length > 0) {
        const { refreshViews } = await import('../truth/index.ts');
        refreshViews(store, now, context.config.params);
      }
      const reasons = Object.entries(report.byReason)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([code, count]) => `${code} ${count}`)
        .join(', ');
      const text = [
        `Read ${report.files} file${report.files === 1 ? '' : 's'}: ${report.received} new lesson${report.received === 1 ? '' : 's'} (candidates, pending review), ${report.updated} updated, ${report.corroborated} corroborated, ${report.confirmations} confirmation${report.confirmations === 1 ? '' : 's'}, ${report.revocations} revocation${report.revocations === 1 ? '' : 's'} (${report.dropped} dropped), ${report.known} already held.`,
        ...report.raised.map(
          (raise) =>
            `  lesson #${raise.lessonId} ${raise.hash.slice(0, 12)} ${raise.way === 'confirm' ? 'confirmed' : 'corroborated'} by ${raise.origin}`,
        ),
        ...approved.map(
          (lesson) => `  approved by policy (common in the commons): #${lesson.id} ${lesson.text}`,
        ),
        ...(report.refused ? [`Refused ${report.refused}: ${reasons}.`] : []),
        ...report.refusals.map(
          (refusal) =>
            `  ${refusal.source}${refusal.line ? `:${refusal.line}` : ''} ${refusal.code}: ${refusal.reason}`,
        ),
      ];
      return {
        json: { ...report, approvedByPolicy: approved.map((lesson) => lesson.id) },
        text: text.join('\n'),
      };
    } finally {
      store.close();
    }
  },
});

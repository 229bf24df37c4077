import { type EpisodeKind, episodeKinds, UsageError } from '../core/index.ts';
import { defineCommand } from './command.ts';

export const episodesCommand = defineCommand({
  name: 'episodes',
  readsHome: true,
  summary: 'list episodes: the surprises found in the raw stream',
  options: [
    { flags: '--kind <kind>', description: `only this kind (${episodeKinds.join(', ')})` },
    { flags: '--session <id>', description: 'only this session' },
    { flags: '--all', description: 'include archived episodes' },
    { flags: '--limit <n>', description: 'at most this many (the newest)', parse: 'int' },
  ],
  async run(context, _args, options) {
    const kind = options.kind;
    if (kind !== undefined && !episodeKinds.includes(kind as EpisodeKind)) {
      throw new UsageError(`--kind must be one of ${episodeKinds.join(', ')}`);
    }
    const { openStore, listEpisodes } = await import('../store/index.ts');
    const store = openStore(context.config.home);
    try {
      let episodes = listEpisodes(store.db, {
        ...(kind ? { kind: kind as EpisodeKind } : {}),
        ...(options.session ? { session: options.session } : {}),
        includeArchived: options.all === true,
      });
      const limit = options.limit;
      if (limit !== undefined) episodes = episodes.slice(Math.max(0, episodes.length - limit));
      const text = episodes.length
        ? episodes
            .map((episode) => {
              const head = `#${episode.id} ${episode.kind.padEnd(11)} ${episode.happenedAt.slice(0, 16)}  ${episode.agent}/${episode.session.slice(0, 8)}`;
              const body =
                episode.kind === 'correction'
                  ? `  person: ${oneLine(episode.said ?? episode.text)}${episode.agentBefore ? `\n  answering: ${oneLine(episode.agentBefore)}` : ''}`
                  : `  ${oneLine(episode.title)}${episode.text && episode.text !== episode.title ? `\n  ${oneLine(episode.text)}` : ''}`;
              return `${head}\n${body}`;
            })
            .join('\n')
        : 'No episodes yet. Run `remem ingest`.';
      return { json: { episodes }, text };
    } finally {
      store.close();
    }
  },
});

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

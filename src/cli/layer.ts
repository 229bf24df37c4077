import type { CommandSpec } from './command.ts';

const levels = ['common', 'domain'] as const;

export const layerCommand: CommandSpec = {
  name: 'layer',
  summary:
    'lesson files an agent runs with below its own memory: add FILE --as common|domain, remove FILE, list',
  args: ['<action>', '[file]'],
  options: [{ flags: '--as <level>', description: 'with add: common or domain', default: 'domain' }],
  async run(context, args, options) {
    const [action, file] = args;
    const { RememError, UsageError } = await import('../core/index.ts');
    if (action !== 'add' && action !== 'remove' && action !== 'list') {
      throw new UsageError('layer add FILE --as common|domain, layer remove FILE, or layer list');
    }
    if (action !== 'list' && !file) throw new UsageError(`layer ${action} needs a FILE`);
    const { resolve } = await import('node:path');
    const { readFileSync } = await import('node:fs');
    const { openStore, putLayer, deleteLayer, listLayers, listLayerLessons } = await import(
      '../store/index.ts'
    );
    const { loadLayers, readLayerText, syncLayers } = await import('../protocol/index.ts');
    const { refreshViewsEmbedding } = await import('../truth/index.ts');
    const maxChars = context.config.params.sharing.maxChars;
    const now = context.clock.iso();
    const store = openStore(context.config.home);
    try {
      if (action === 'add') {
        const level = options['as'] as string;
        if (!(levels as readonly string[]).includes(level))
          throw new UsageError('--as must be common or domain');
        const path = resolve(file!);
        let text: string;
        try {
          text = readFileSync(path, 'utf8');
        } catch (error) {
          throw new RememError('not_found', `cannot read ${path}: ${(error as Error).message}`);
        }
        // Checked before it is listed: a file with no lesson that passes is refused whole, and says why.
        const read = readLayerText(text, level as 'common' | 'domain', path, { maxChars });
        if (read.lessons.length === 0 && read.refused.length > 0) {
          const first = read.refused[0]!;
          throw new RememError(
            'refused',
            `${path}: no lesson passes (line ${first.line} ${first.code}: ${first.reason}; ${read.refused.length} refused in all)`,
          );
        }
        putLayer(store.db, path, level as 'common' | 'domain', now);
        const loaded = syncLayers(store, now, { maxChars }).find((layer) => layer.source === path)!;
        const views = await refreshViewsEmbedding(store, now, context.config);
        const refused = loaded.refused;
        return {
          json: { path, level, lessons: loaded.lessons.length, refused, problem: views.problem },
          text: [
            `Layer ${path} (${level}): ${loaded.lessons.length} lessons agents now see beside this memory's own.`,
            ...refused.map((refusal) =>
              refusal.line > 0
                ? `  refused line ${refusal.line} ${refusal.code}: ${refusal.reason}`
                : `  refused ${refusal.code}: ${refusal.reason}`,
            ),
            ...(views.problem ? [`  ${views.problem}`] : []),
          ].join('\n'),
        };
      }
      if (action === 'remove') {
        const path = resolve(file!);
        if (!deleteLayer(store.db, path)) throw new RememError('not_found', `no layer ${path}`);
        const views = await refreshViewsEmbedding(store, now, context.config);
        return {
          json: { path, removed: true, problem: views.problem },
          text: `Removed layer ${path}: agents no longer see its lessons.`,
        };
      }
      const held = new Map<string, number>();
      for (const lesson of listLayerLessons(store.db))
        held.set(lesson.path, (held.get(lesson.path) ?? 0) + 1);
      const readAt = new Map(listLayers(store.db).map((layer) => [layer.path, layer.readAt]));
      const layers = loadLayers(store, { maxChars }).map((layer) => ({
        path: layer.source,
        level: layer.level,
        lessons: layer.lessons.length,
        refused: layer.refused.length,
        problem: layer.problem,
        inUse: held.get(layer.source) ?? 0,
        readAt: readAt.get(layer.source) ?? null,
      }));
      const text = layers.length
        ? layers
            .map(
              (layer) =>
                `${layer.level.padEnd(7)} ${layer.path}: ${layer.problem ?? `${layer.lessons} lessons, ${layer.refused} refused`}; ${layer.inUse} in use as read ${layer.readAt ?? 'never'}`,
            )
            .join('\n')
        : 'No layers: agents see this memory alone. `remem layer add FILE --as common|domain` adds one.';
      return { json: { layers }, text };
    } finally {
      store.close();
    }
  },
};

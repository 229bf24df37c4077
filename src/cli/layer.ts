import { defineCommand } from './command.ts';

const levels = ['common', 'domain'] as const;

export const layerCommand = defineCommand({
  name: 'layer',
  summary:
    'lesson files an agent runs with below its own memory: add FILE --as common|domain (held for review unless --trust at a terminal), approve FILE, remove FILE, list',
  args: ['<action>', '[file]'],
  options: [
    { flags: '--as <level>', description: 'with add: common or domain', default: 'domain' },
    {
      flags: '--trust',
      description:
        'with add, at a terminal: show the lessons to agents at once, without review (refused when not at a terminal)',
    },
  ],
  async run(context, args, options) {
    const [action, file] = args;
    const { RememError, UsageError } = await import('../core/index.ts');
    if (action !== 'add' && action !== 'approve' && action !== 'remove' && action !== 'list') {
      throw new UsageError(
        'layer add FILE --as common|domain [--trust], layer approve FILE, layer remove FILE, or layer list',
      );
    }
    if (action !== 'list' && !file) throw new UsageError(`layer ${action} needs a FILE`);
    const { resolve } = await import('node:path');
    const { readFileSync } = await import('node:fs');
    const { openStore, putLayer, deleteLayer, listLayers, listLayerLessons, approveLayer } = await import(
      '../store/index.ts'
    );
    const { loadLayers, readLayerText, syncLayers } = await import('../share/index.ts');
    const { refreshViewsEmbedding } = await import('../truth/index.ts');
    const maxChars = context.config.params.sharing.maxChars;
    const now = context.clock.iso();
    const store = openStore(context.config.home);
    try {
      if (action === 'add') {
        const level = options.as;
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
        // Whoever can write the file can steer every agent: what it adds waits for the person, unless they
        // vouch for it themselves, at a terminal (a script or an agent passing --trust is not the person).
        const trusted = options.trust === true && context.interactive && context.stdinIsTTY;
        putLayer(store.db, path, level as 'common' | 'domain', now);
        const loaded = syncLayers(store, now, { maxChars }).find((layer) => layer.source === path)!;
        if (trusted) approveLayer(store.db, path, now);
        const views = await refreshViewsEmbedding(store, now, context.config);
        const refused = loaded.refused;
        const held = trusted
          ? []
          : listLayerLessons(store.db).filter((row) => row.path === path && !row.approved);
        const heading = trusted
          ? `Layer ${path} (${level}): ${loaded.lessons.length} lessons agents now see beside this memory's own.`
          : `Layer ${path} (${level}): ${loaded.lessons.length} lessons read; ${held.length} wait for your review and reach no agent until \`remem layer approve ${path}\`${
              options.trust === true ? ' (--trust is taken only at a terminal)' : ''
            }:`;
        return {
          json: {
            path,
            level,
            lessons: loaded.lessons.length,
            pendingReview: held.length,
            refused,
            problem: views.problem,
          },
          text: [
            heading,
            ...held.map((row) => `  ${row.hash.slice(0, 12)} ${row.kind}: ${row.text}`),
            ...refused.map((refusal) =>
              refusal.line > 0
                ? `  refused line ${refusal.line} ${refusal.code}: ${refusal.reason}`
                : `  refused ${refusal.code}: ${refusal.reason}`,
            ),
            ...(views.problem ? [`  ${views.problem}`] : []),
          ].join('\n'),
        };
      }
      if (action === 'approve') {
        const path = resolve(file!);
        if (!listLayers(store.db).some((layer) => layer.path === path))
          throw new RememError('not_found', `no layer ${path}`);
        const approved = approveLayer(store.db, path, now);
        const views = await refreshViewsEmbedding(store, now, context.config);
        return {
          json: { path, approved, problem: views.problem },
          text: `Approved ${approved} lessons of layer ${path}: agents now see them.${views.problem ? `\n  ${views.problem}` : ''}`,
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
      const pending = new Map<string, number>();
      for (const lesson of listLayerLessons(store.db)) {
        const counts = lesson.approved ? held : pending;
        counts.set(lesson.path, (counts.get(lesson.path) ?? 0) + 1);
      }
      const readAt = new Map(listLayers(store.db).map((layer) => [layer.path, layer.readAt]));
      const layers = loadLayers(store, { maxChars }).map((layer) => ({
        path: layer.source,
        level: layer.level,
        lessons: layer.lessons.length,
        refused: layer.refused.length,
        problem: layer.problem,
        inUse: held.get(layer.source) ?? 0,
        pendingReview: pending.get(layer.source) ?? 0,
        readAt: readAt.get(layer.source) ?? null,
      }));
      const text = layers.length
        ? layers
            .map(
              (layer) =>
                `${layer.level.padEnd(7)} ${layer.path}: ${layer.problem ?? `${layer.lessons} lessons, ${layer.refused} refused`}; ${layer.inUse} in use as read ${layer.readAt ?? 'never'}${layer.pendingReview ? `; ${layer.pendingReview} wait for review (remem layer approve)` : ''}`,
            )
            .join('\n')
        : 'No layers: agents see this memory alone. `remem layer add FILE --as common|domain` adds one.';
      return { json: { layers }, text };
    } finally {
      store.close();
    }
  },
});

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
    const { openStore, putLayer, deleteLayer } = await import('../store/index.ts');
    const { loadLayers, readLayerText } = await import('../protocol/index.ts');
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
        const read = readLayerText(text, level as 'common' | 'domain', path, {
          maxChars: context.config.params.sharing.maxChars,
        });
        putLayer(store.db, path, level as 'common' | 'domain', context.clock.iso());
        return {
          json: { path, level, lessons: read.lessons.length, refused: read.refused },
          text: [
            `Layer ${path} (${level}): ${read.lessons.length} lessons.`,
            ...read.refused.map(
              (refusal) => `  refused line ${refusal.line} ${refusal.code}: ${refusal.reason}`,
            ),
          ].join('\n'),
        };
      }
      if (action === 'remove') {
        const path = resolve(file!);
        if (!deleteLayer(store.db, path)) throw new RememError('not_found', `no layer ${path}`);
        return { json: { path, removed: true }, text: `Removed layer ${path}.` };
      }
      const layers = loadLayers(store, { maxChars: context.config.params.sharing.maxChars }).map((layer) => ({
        path: layer.source,
        level: layer.level,
        lessons: layer.lessons.length,
        refused: layer.refused.length,
        problem: layer.problem,
      }));
      const text = layers.length
        ? layers
            .map(
              (layer) =>
                `${layer.level.padEnd(7)} ${layer.path}: ${layer.problem ?? `${layer.lessons} lessons, ${layer.refused} refused`}`,
            )
            .join('\n')
        : 'No layers: agents see this memory alone. `remem layer add FILE --as common|domain` adds one.';
      return { json: { layers }, text };
    } finally {
      store.close();
    }
  },
};

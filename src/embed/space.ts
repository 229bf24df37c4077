import type { EmbedConfig, Params } from '../core/index.ts';
import { hashedVector } from './hashed.ts';
import { modelSpace } from './model.ts';
import type { Space } from './types.ts';

/** The default space: hashed words and word pairs, no model, relevance floor 0. */
export function hashedSpace(params: Params): Space {
  const dims = params.hashedDims;
  const embedSync = (text: string): Float32Array => hashedVector(text, dims);
  return {
    name: 'hashed',
    kind: 'hashed',
    floor: params.relevanceFloor.hashed,
    dims,
    embedSync,
    embed: async (texts) => texts.map(embedSync),
  };
}

/** The space the configuration names: `hashed`, or a model behind Ollama or an OpenAI-compatible endpoint. */
export function createSpace(config: EmbedConfig, params: Params): Space {
  if (config.space === 'hashed') return hashedSpace(params);
  return modelSpace(config, params.relevanceFloor.model);
}

/**
 * A vector space. Every vector carries its space's `name`; vectors of two spaces are never
 * compared, and sleep embeds again whatever is not in the current space.
 */
export interface Space {
  /** `hashed`, `ollama:<model>` or `openai:<model>`. */
  readonly name: string;
  readonly kind: 'hashed' | 'model';
  /** The cosine unrelated texts sit at: relevance is rescaled to 0–1 above it. */
  readonly floor: number;
  /** Known up front for the hashed space; a model's answer decides it. */
  readonly dims?: number;
  /** Unit vectors, one per text, in order. A blank text is the zero vector. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** The hashed space embeds without waiting. */
  embedSync?(text: string): Float32Array;
}

export type SpaceKind = Space['kind'];

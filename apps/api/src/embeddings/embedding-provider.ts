import type { EmbeddingLanguage } from '@memory-bank/db';

/** Where vectors come from: the local model or an OpenAI-compatible endpoint. */
export interface EmbeddingProvider {
  readonly name: 'local' | 'openai';
  /** The key stored with each vector (memory_vectors.model): a different key re-embeds everything. */
  readonly model: string;
  /** Whether it embeds text of this language (the local model: English only). */
  serves(language: EmbeddingLanguage): boolean;
  /** One vector per text, in order; throws when the provider is unreachable or answers wrongly. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

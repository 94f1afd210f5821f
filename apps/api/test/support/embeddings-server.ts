import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/*
 * A real HTTP server speaking the OpenAI embeddings API (POST /v1/embeddings), on loopback,
 * for the `openai` provider's tests. Its vectors are deterministic bags of words: each word
 * (lower-cased) adds a hashed ±1 to a few dimensions, so texts that share words are near and
 * texts that share none are not. It can be taken down (connection refused) and hung (it
 * accepts requests and never answers).
 */

export const EMBEDDINGS_TEST_KEY = 'sk-test-embeddings-key-0123456789';
/** Dimensions when the request names none. */
const DEFAULT_DIMENSIONS = 64;

export interface EmbeddingsTestServer {
  /** The API's base URL: http://127.0.0.1:<port>/v1. */
  url: string;
  /** Requests answered, with what they asked for. */
  requests: { model: string; inputs: number; dimensions: number | undefined; authorization: string | undefined }[];
  /** Connection refused until up() (the port stays this server's). */
  down(): Promise<void>;
  up(): Promise<void>;
  /** Requests get no answer until answer() (or close). */
  hang(): void;
  answer(): void;
  close(): Promise<void>;
}

/** The deterministic vector of a text (what the server answers). */
export function bagOfWordsVector(text: string, dimensions = DEFAULT_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const hash = createHash('sha256').update(word).digest();
    for (let i = 0; i < 3; i++) vector[hash[i * 2]! % dimensions]! += hash[i * 2 + 1]! & 1 ? 1 : -1;
  }
  return vector;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startEmbeddingsServer(): Promise<EmbeddingsTestServer> {
  const requests: EmbeddingsTestServer['requests'] = [];
  const sockets = new Set<Socket>();
  let hung: ServerResponse[] | null = null;
  let server: Server;
  let port = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const text = await bodyOf(request);
    if (hung) {
      hung.push(response);
      return;
    }
    if (request.method !== 'POST' || request.url !== '/v1/embeddings') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    if (request.headers.authorization !== `Bearer ${EMBEDDINGS_TEST_KEY}`) {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}');
      return;
    }
    const body = JSON.parse(text) as { model: string; input: string[]; dimensions?: number };
    requests.push({ model: body.model, inputs: body.input.length, dimensions: body.dimensions, authorization: request.headers.authorization });
    const data = body.input.map((input, index) => ({ object: 'embedding', index, embedding: bagOfWordsVector(input, body.dimensions) }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }));
  };

  const listen = async () => {
    server = createServer((request, response) => void handle(request, response));
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  };
  const stop = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  await listen();

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    down: stop,
    up: listen,
    hang() {
      hung = [];
    },
    answer() {
      for (const response of hung ?? []) response.destroy();
      hung = null;
    },
    async close() {
      hung = null;
      if (server.listening) await stop();
    },
  };
}

/** The settings that point a test server at `embeddingsServer`. */
export function openAiEnv(embeddingsServer: EmbeddingsTestServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    EMBEDDINGS_PROVIDER: 'openai',
    EMBEDDINGS_URL: embeddingsServer.url,
    EMBEDDINGS_MODEL: 'bag-of-words',
    EMBEDDINGS_API_KEY: EMBEDDINGS_TEST_KEY,
    ...extra,
  };
}

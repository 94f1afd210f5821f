import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError, toProblem } from '../errors';
import type { ApiApp } from './env';

interface ParserError extends Error {
  code?: string;
  /** llhttp's fixed wording of what is wrong (never the client's bytes). */
  reason?: string;
}

/** The problem for an error Node's HTTP parser met before any request reached the app. */
function clientProblem(error: ParserError): AppError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('header_fields_too_large', 'The request line and headers are larger than the server accepts (16 KiB)');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new AppError('payload_too_large', 'The chunk extensions of the request body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('request_timeout', 'The request was not received in time');
    default:
      return new AppError('bad_request', `The request is not valid HTTP/1.1${error.reason ? `: ${error.reason}` : ''}`);
  }
}

/**
 * Node answers what its parser rejects (431, 400 for Content-Length with
 * Transfer-Encoding, …) itself, with an empty body; these get the problem+json every other
 * error gets. Nothing is written once a response has begun on the connection (its bytes
 * would corrupt that response), and the connection is always closed: after a parse error
 * nothing more on it can be trusted.
 */
function answerClientErrors(server: Server, logger: Logger | undefined) {
  server.on('clientError', (error: ParserError, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const problem = toProblem(clientProblem(error), requestId);
    const body = JSON.stringify(problem);
    logger?.info({ req_id: requestId, status: problem.status, code: error.code }, 'client error');
    const head = [
      `HTTP/1.1 ${problem.status} ${problem.title}`,
      'Content-Type: application/problem+json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  });
}

export interface ServeOptions {
  port: number;
  hostname?: string;
  logger?: Logger;
}

/** The app on a Node HTTP server (the service and the tests alike). */
export function serveApp(app: ApiApp, options: ServeOptions, onListening?: (info: AddressInfo) => void): Server {
  const server = serve(
    { fetch: app.fetch, port: options.port, ...(options.hostname ? { hostname: options.hostname } : {}) },
    onListening,
  ) as Server;
  answerClientErrors(server, options.logger);
  return server;
}

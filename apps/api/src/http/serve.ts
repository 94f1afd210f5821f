import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError } from '../errors';
import { toProblem } from './problems';
import { BODY_LIMITS } from '../limits';
import { hasBody } from './bodies';
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

/** Connections being closed in stages: answered, so whatever they still send is only dropped. */
const closing = new WeakSet<Duplex>();

/**
 * Node answers what its parser rejects (431, 400 for Content-Length with
 * Transfer-Encoding, …) itself, with an empty body; these get the problem+json every other
 * error gets. Nothing is written once a response has begun on the connection (its bytes
 * would corrupt that response), and the connection is always closed (in stages): after a
 * parse error nothing more on it can be trusted.
 */
function answerClientErrors(server: Server, logger: Logger | undefined) {
  server.on('clientError', (error: ParserError, socket: Duplex) => {
    // The parser fails again on each later chunk of a connection already answered.
    if (closing.has(socket)) return;
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
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
    closeInStages(socket as Socket, null);
  });
}

/**
 * Closes a connection in stages (RFC 9112 §9.6) when the client may still be sending: the
 * server's side first (what was written, then FIN), then what still arrives of `body` is
 * read and dropped until the client closes its side, or BODY_LIMITS.lingerBytes or
 * lingerMs run out. Closing at once would answer the client's next bytes with a reset,
 * and a client still writing would meet EPIPE or ECONNRESET before reading the answer.
 * Without `body` (the parser refused the request) Node's parser keeps taking the bytes
 * itself where it reads the socket directly, so only lingerMs bounds the wait.
 */
function closeInStages(socket: Socket, body: IncomingMessage | null): void {
  if (socket.destroyed) return;
  closing.add(socket);
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, BODY_LIMITS.lingerMs).unref();
  socket.once('end', close);
  socket.once('close', () => clearTimeout(timer));
  socket.end();
  let dropped = 0;
  const drop = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > BODY_LIMITS.lingerBytes) close();
  };
  if (body) {
    // Whoever read the body before (the app's stream) is done with it: nothing is kept.
    body.removeAllListeners('data');
    body.on('data', drop).on('error', close).on('end', close).resume();
  } else {
    socket.on('data', drop).resume();
  }
}

/**
 * Node closes a connection as soon as an answer marked `Connection: close` is written; when
 * the request's body has not all arrived, that close is made in stages instead.
 */
function lingerOnEarlyClose(server: Server) {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // A request without a body has nothing left to arrive.
    if (!hasBody(req)) return;
    // Before Node's own 'finish' listener, which closes the connection.
    res.prependOnceListener('finish', () => {
      if (req.complete) return;
      const socket = req.socket as Socket & { destroySoon(): void };
      const destroySoon = socket.destroySoon;
      socket.destroySoon = () => {
        // Once closing in stages, its own bounds end the connection (not @hono/node-server's 500 ms drain).
        if (closing.has(socket)) return;
        if (req.complete) destroySoon.call(socket);
        else closeInStages(socket, req);
      };
    });
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
    {
      fetch: app.fetch,
      port: options.port,
      ...(options.hostname ? { hostname: options.hostname } : {}),
    },
    onListening,
  ) as Server;
  answerClientErrors(server, options.logger);
  lingerOnEarlyClose(server);
  return server;
}

import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface DrainResult {
  /** Every request was answered before the time ran out. */
  drained: boolean;
  /** Requests still unanswered when the time ran out (their connections were closed). */
  abandoned: number;
}

export interface InFlightRequests {
  readonly size: number;
  /**
   * Stops accepting connections and waits up to `timeoutMs` for the requests being
   * answered; keep-alive connections are closed as soon as their response is done.
   */
  drain(timeoutMs: number): Promise<DrainResult>;
}

/** Keeps count of the requests a server is answering, so a shutdown can let them finish. */
export function trackInFlight(server: Server): InFlightRequests {
  const inFlight = new Set<ServerResponse>();
  let closing = false;
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    inFlight.add(response);
    // A request that arrives on a kept-alive connection during the drain is answered,
    // with `Connection: close`.
    if (closing) response.shouldKeepAlive = false;
    response.once('close', () => {
      inFlight.delete(response);
      if (closing) server.closeIdleConnections();
    });
  });
  return {
    get size() {
      return inFlight.size;
    },
    drain(timeoutMs) {
      closing = true;
      for (const response of inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          const abandoned = inFlight.size;
          server.closeAllConnections();
          resolve({ drained: abandoned === 0, abandoned });
        }, timeoutMs);
        server.close(() => {
          clearTimeout(timer);
          resolve({ drained: true, abandoned: 0 });
        });
        server.closeIdleConnections();
      });
    },
  };
}

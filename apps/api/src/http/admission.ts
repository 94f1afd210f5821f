import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, type RequestListener } from 'node:http';
import { hasBody } from './bodies';

/** Counts of a server's turns (see createTurns). */
export interface Turns {
  /** `listener`, taking turns: what the HTTP server calls instead (its responses must be TurnResponses). */
  wrap(listener: RequestListener): RequestListener;
  /** Requests taking their turn now. */
  readonly inProgress: number;
  /** Requests waiting for one. */
  readonly waiting: number;
}

/** What a response calls when its request's turn ends. */
interface TurnHolder {
  endTurn(): void;
}

/**
 * The server's response class (the `ServerResponse` option of `createServer`): it ends its
 * request's turn when its head is written — Node writes every head, an implicit one too,
 * through writeHead, and has no event for it. One class for every response, so no
 * response is patched or given closures of its own.
 */
export class TurnResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** The turns whose turn this response's request holds (null when it holds none). */
  turn: TurnHolder | null = null;

  endTurn(): void {
    const turn = this.turn;
    if (turn === null) return;
    this.turn = null;
    turn.endTurn();
  }

  override writeHead(statusCode: number, statusMessage?: string, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(...args: [number, ...unknown[]]): this {
    this.endTurn();
    return (super.writeHead as (...passed: unknown[]) => this)(...args);
  }
}

/** A connection that closes before the head is written (a client that went away) ends the turn too. */
function endTurnOnClose(this: TurnResponse) {
  this.endTurn();
}

/** The requests that take turns: the API's (`/v1/…`), with nothing left to receive. */
function takesTurn(req: IncomingMessage): boolean {
  return req.url !== undefined && req.url.startsWith('/v1/') && !hasBody(req);
}

/** How long each request that waited for its turn waited, in ms. */
const waits = new WeakMap<IncomingMessage, number>();

/** How long `req` waited for its turn (0 when it did not). */
export function waitedFor(req: IncomingMessage): number {
  return waits.get(req) ?? 0;
}

/** Admitted slots at the head of the queue that make it worth copying the rest. */
const COMPACT_AFTER = 1024;

interface Waiting {
  req: IncomingMessage;
  res: TurnResponse;
  since: number;
}

/**
 * Turns: at most `limit` API requests without a body are worked on at once, in order of
 * arrival; the others wait before the app sees them, holding only what Node's HTTP server
 * made for them (MAX_CONCURRENT_REQUESTS).
 *
 * Why: on a busy server every request in progress holds what it has made so far — the
 * web request, the route's state, its statement, the rows read — while it waits for a
 * pooled connection and a core. At 64 connections on a pool of 16 such requests lived
 * ~100 ms, about as long as V8's young generation took to fill, so their objects survived
 * two scavenges and were promoted, and collecting them was most of what a search cost the
 * service more at 64 connections than at 16 (docs/benchmarks.md). Waiting here, before
 * the app has made anything for them, they cost next to nothing.
 *
 * A turn ends when the response's head is written (a stream — an export, a download —
 * holds one only until it starts) or when the connection closes. Requests with a body
 * never wait: a slow upload must not hold a turn (MAX_BODY_BYTES_IN_FLIGHT and
 * BODY_READ_TIMEOUT_MS bound those); nor do health checks, metrics and documents. The
 * time a request waits counts towards its REQUEST_TIMEOUT_MS (see waitedFor); one whose
 * client goes away while it waits is dropped.
 */
export function createTurns(limit: number): Turns {
  let inProgress = 0;
  // A queue as an array and the index of its head (shift() would copy the array).
  let queue: Waiting[] = [];
  let head = 0;
  let listener: RequestListener = () => {
    throw new Error('createTurns: wrap() a listener first');
  };

  const start = (req: IncomingMessage, res: TurnResponse) => {
    inProgress++;
    res.turn = holder;
    res.on('close', endTurnOnClose);
    void listener(req, res);
  };

  const admitNext = () => {
    while (inProgress < limit && head < queue.length) {
      const { req, res, since } = queue[head]!;
      queue[head++] = undefined as unknown as Waiting;
      // Its client went away while it waited: nobody to answer.
      if (res.destroyed) continue;
      waits.set(req, performance.now() - since);
      start(req, res);
    }
    // Drop the admitted head of the queue once it is most of it (never only when it
    // empties: under a steady overload it would grow by a slot per request).
    if (head === queue.length) {
      queue = [];
      head = 0;
    } else if (head >= COMPACT_AFTER && head * 2 >= queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  };

  const holder: TurnHolder = {
    endTurn() {
      inProgress--;
      admitNext();
    },
  };

  return {
    wrap(wrapped) {
      listener = wrapped;
      return (req, res) => {
        if (!takesTurn(req)) return void listener(req, res);
        if (!(res instanceof TurnResponse)) throw new Error('createTurns: the server must create its responses as TurnResponse');
        if (inProgress < limit && head === queue.length) return start(req, res);
        queue.push({ req, res, since: performance.now() });
      };
    },
    get inProgress() {
      return inProgress;
    },
    get waiting() {
      let count = 0;
      for (let i = head; i < queue.length; i++) if (!queue[i]!.res.destroyed) count++;
      return count;
    },
  };
}

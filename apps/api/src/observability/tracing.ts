import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { StatementTracer } from '@memory-bank/db';
import type { MiddlewareHandler } from 'hono';
import type { ObjectStore } from '../archive/object-store';
import type { Config } from '../config';
import type { AppEnv } from '../http/env';
import { routeTemplate } from './http';
import { truncateText } from '../text';

/*
 * OpenTelemetry tracing (docs/observability.md#tracing). Spans carry route templates, org
 * ids, status codes, statement text with its placeholders and object keys: never memory
 * content, keys, tokens or statement values.
 */

export interface Tracing {
  tracer: Tracer;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * Registers a tracer provider for the process (the W3C trace-context propagator and the
 * async-hooks context manager come with it) that hands finished spans to `processor`.
 */
export function createTracing(processor: SpanProcessor, service: { name: string; version: string }): Tracing {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service.name, 'service.version': service.version }),
    spanProcessors: [processor],
  });
  provider.register();
  return { tracer: provider.getTracer('memory-bank', service.version), shutdown: () => provider.shutdown() };
}

/** Tracing to OTEL_EXPORTER_OTLP_ENDPOINT over OTLP/HTTP (protobuf-free JSON), or null when it is not set. */
export function startTracing(config: Config, version: string): Tracing | null {
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  const url = `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return createTracing(new BatchSpanProcessor(new OTLPTraceExporter({ url })), { name: config.OTEL_SERVICE_NAME, version });
}

const headerGetter = {
  keys: (carrier: Headers) => [...carrier.keys()],
  get: (carrier: Headers, key: string) => carrier.get(key) ?? undefined,
};

/**
 * One span per request. It continues the caller's trace when the request carries a W3C
 * `traceparent` (else the current one: an MCP tool call's in-process request is a child of
 * the POST /mcp span), and the response carries the span's own `traceparent`.
 */
export function traceRequests(tracer: Tracer): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const inProcess = c.env?.channel === 'mcp';
    const parent = propagation.extract(inProcess ? context.active() : ROOT_CONTEXT, c.req.raw.headers, headerGetter);
    const method = c.req.method;
    const span = tracer.startSpan(method, { kind: inProcess ? SpanKind.INTERNAL : SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
    const active = trace.setSpan(parent, span);
    try {
      await context.with(active, next);
    } finally {
      const route = routeTemplate(c);
      const status = c.res.status;
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', status);
      const orgId = c.get('principal')?.scope.orgId;
      if (orgId) span.setAttribute('memory_bank.org_id', orgId);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      if (!inProcess) {
        const carrier: Record<string, string> = {};
        propagation.inject(active, carrier);
        if (carrier.traceparent) c.header('traceparent', carrier.traceparent);
      }
    }
  };
}

/** Runs `work` in a span that ends with it, marked as an error when it throws. */
async function inSpan<T>(tracer: Tracer, name: string, attributes: Record<string, string>, work: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span: Span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * String and number literals become `?`: statements reach the driver with placeholders, but
 * one written with a literal must not carry it into a trace.
 */
export function statementSummary(statement: string): string {
  const masked = statement.replace(/'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|\b\d+(?:\.\d+)?\b/g, '?');
  return truncateText(masked, 2048).text;
}

/**
 * A span per SQL statement inside a traced operation (a request, an archive pass).
 * Statements outside one (start-up, background ticks with nothing to do) are not traced.
 */
export function statementSpans(tracer: Tracer): StatementTracer {
  return (statement, run) => {
    if (!trace.getSpan(context.active())) return run();
    const text = statementSummary(statement);
    const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'SQL';
    return inSpan(tracer, operation, { 'db.system.name': 'mysql', 'db.operation.name': operation, 'db.query.text': text }, run);
  };
}

/** The object store with a span around every call (the object key is an id path, never content). */
export function tracedObjectStore(store: ObjectStore, tracer: Tracer): ObjectStore {
  const driver = store.description.split(/[:\s]/)[0] ?? 'store';
  const span = <T>(operation: string, key: string, work: () => Promise<T>) =>
    inSpan(tracer, `object_store ${operation}`, { 'memory_bank.object_store.driver': driver, 'memory_bank.object_store.key': key }, work);
  return {
    description: store.description,
    putImmutable: (key, body, contentType) => span('put', key, () => store.putImmutable(key, body, contentType)),
    get: (key) => span('get', key, () => store.get(key)),
    list: (prefix) => span('list', prefix, () => store.list(prefix)),
    delete: (key) => span('delete', key, () => store.delete(key)),
  };
}

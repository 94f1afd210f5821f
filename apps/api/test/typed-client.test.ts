import { describe, expectTypeOf, it } from 'vitest';
import type { components } from '../../../packages/client/src/generated/schema';
import type { Answer, Client, RequestBody } from './support/http';
import type { RouteOf } from './support/openapi-routes';

// The test client's types (support/openapi-routes.ts), checked by `pnpm run typecheck`:
// what these lines claim is a compile error when it stops being true.
type Problem = components['schemas']['Problem'];
declare const id: string;
declare const api: Client;

describe('the typed test client', () => {
  it('finds the template of a concrete path, literal segments first', () => {
    expectTypeOf<RouteOf<'get', '/v1/memory/search?q=x'>>().toEqualTypeOf<'/v1/memory/search'>();
    expectTypeOf<RouteOf<'get', '/v1/memory/mem_01ARZ3NDEKTSV4RRFFQ69G5FAV'>>().toEqualTypeOf<'/v1/memory/{id}'>();
    expectTypeOf<RouteOf<'get', `/v1/memory/${typeof id}`>>().toEqualTypeOf<'/v1/memory/{id}'>();
    expectTypeOf<RouteOf<'post', '/v1/hooks/batch'>>().toEqualTypeOf<'/v1/hooks/batch'>();
    expectTypeOf<RouteOf<'post', '/v1/hooks/codex'>>().toEqualTypeOf<'/v1/hooks/{harness}'>();
    expectTypeOf<RouteOf<'post', `/v1/workstreams/${typeof id}/events/${number}/remember`>>().toEqualTypeOf<'/v1/workstreams/{id}/events/{sequence}/remember'>();
    // No such route, or not for this method.
    expectTypeOf<RouteOf<'get', '/v1/memories'>>().toBeNever();
    expectTypeOf<RouteOf<'get', `/v1/memory/${typeof id}/more`>>().toBeNever();
    expectTypeOf<RouteOf<'post', `/v1/memory/${typeof id}`>>().toBeNever();
  });

  it('takes the operation’s body and answers its documented responses, problems included', () => {
    expectTypeOf<RequestBody<'post', '/v1/memory'>>().toEqualTypeOf<components['schemas']['CreateMemory']>();
    expectTypeOf<Extract<Answer<'post', '/v1/memory'>, { status: 201 }>['body']>().toMatchTypeOf<components['schemas']['Memory'] & { redacted: number }>();
    expectTypeOf<Extract<Answer<'post', '/v1/memory'>, { status: 400 }>['body']>().toEqualTypeOf<Problem>();
    expectTypeOf<Extract<Answer<'delete', '/v1/memory/{id}'>, { status: 204 }>['body']>().toEqualTypeOf<''>();
    expectTypeOf<Awaited<ReturnType<typeof api.get<'/v1/memory?limit=5'>>>>().toEqualTypeOf<Answer<'get', '/v1/memory'>>();
    // @ts-expect-error: not a route of the document
    void (() => api.get('/v1/memories'));
    // @ts-expect-error: not the operation's body (unknown field)
    void (() => api.post('/v1/memory', { body: { content: 'x', starred: true } }));
    // @ts-expect-error: the body is required
    void (() => api.post('/v1/memory'));
  });
});

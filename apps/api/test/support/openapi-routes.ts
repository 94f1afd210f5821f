/**
 * Types for the test client, read from the OpenAPI document (packages/client's generated
 * `paths`), so that a contract change breaks compilation of the tests, not a run.
 *
 * How a path finds its template: the query string is dropped, the path is split at `/`, and
 * the templates of the method are narrowed one segment at a time, left to right. A segment
 * written out (`search`) selects the templates with that literal segment and, only when there
 * is none, those with a `{param}` there — as a router does, so `/v1/memory/search` is the
 * search and `/v1/memory/mem_…` is `/v1/memory/{id}`. An interpolated segment
 * (`/v1/memory/${id}`: type `string`) can only fill a `{param}`. A path that ends on no
 * template of its method is a compile error.
 */
import type { paths } from '../../../../packages/client/src/generated/schema';

export type Method = 'get' | 'post' | 'patch' | 'delete' | 'put';
export type Template = keyof paths & string;

type Segments<S extends string> = S extends `${infer Head}/${infer Rest}` ? [Head, ...Segments<Rest>] : [S];
type WithoutQuery<P extends string> = P extends `${infer Path}?${string}` ? Path : P;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The templates that have `M`, each with its segments still to match. */
type Candidates<M extends Method> = {
  [T in Template]: paths[T][M] extends undefined ? never : { template: T; rest: Segments<T> };
}[Template];

type Literally<Seg, C> = C extends { rest: [infer Head, ...infer Rest] } ? (Same<Head, Seg> extends true ? { template: C['template' & keyof C]; rest: Rest } : never) : never;
type AsParam<C> = C extends { rest: [`{${string}}`, ...infer Rest] } ? { template: C['template' & keyof C]; rest: Rest } : never;
type Step<Seg, C> = [Literally<Seg, C>] extends [never] ? (Seg extends '' ? never : AsParam<C>) : Literally<Seg, C>;

type Resolve<Segs, C> = Segs extends [infer Seg, ...infer Rest]
  ? Resolve<Rest, Step<Seg, C>>
  : C extends { rest: []; template: infer T } ? T : never;

/** The template a concrete path of method `M` is served by (`never` when none). */
export type RouteOf<M extends Method, P extends string> = Resolve<Segments<WithoutQuery<P>>, Candidates<M>> & Template;

type Operation<M extends Method, T extends Template> = NonNullable<paths[T][M]>;

/** The JSON request body of the operation (`never` when it takes none). */
export type RequestBody<M extends Method, T extends Template> =
  Operation<M, T> extends { requestBody?: infer B } ? (NonNullable<B> extends { content: { 'application/json': infer J } } ? J : never) : never;
type BodyOptions<M extends Method, T extends Template> = [RequestBody<M, T>] extends [never]
  ? { body?: never; rawBody?: string | Uint8Array }
  : Operation<M, T> extends { requestBody: object }
    ? { body: RequestBody<M, T>; rawBody?: never } | { rawBody: string | Uint8Array; body?: never }
    : { body?: RequestBody<M, T>; rawBody?: string | Uint8Array };
/**
 * `body` is the operation's JSON request body; `rawBody` is sent as it is instead (malformed
 * JSON, NDJSON). The options may be left out when the operation's body may be.
 */
export type Options<M extends Method, T extends Template> = { key?: string | null; headers?: Record<string, string> } & BodyOptions<M, T>;
type OptionsArg<M extends Method, T extends Template> = {} extends Options<M, T> ? [options?: Options<M, T>] : [options: Options<M, T>];

type Responses<M extends Method, T extends Template> = Operation<M, T> extends { responses: infer R } ? R : never;
/** As the client parses: JSON bodies as JSON, other documented bodies as text, none as ''. */
type Parsed<R> = R extends { content: infer C } ? (C extends object ? C[keyof C] : '') : '';

/** One documented answer per status, so that checking the status narrows the body. */
export type Answer<M extends Method, T extends Template> = {
  [S in keyof Responses<M, T> & number]: { status: S; headers: Headers; body: Parsed<Responses<M, T>[S]>; text: string };
}[keyof Responses<M, T> & number];

/** The paths of `M` with each `{param}` as `${string}`: what an error lists when a path matches none. */
type Concrete<T extends string> = T extends `${infer Before}{${string}}${infer After}` ? `${Before}${string}${Concrete<After>}` : T;
type PathOf<M extends Method> = Concrete<Candidates<M>['template']>;
type CheckedPath<M extends Method, P extends string> = [RouteOf<M, P>] extends [never] ? PathOf<M> : P;

/** A typed call: the path is checked, the body and the answer come from its operation. */
export type Call<M extends Method> = <P extends string>(
  path: CheckedPath<M, P>,
  ...options: OptionsArg<M, RouteOf<M, P>>
) => Promise<Answer<M, RouteOf<M, P>>>;

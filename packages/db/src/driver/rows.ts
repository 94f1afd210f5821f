import { Column, Param, Placeholder, SQL, Subquery, is } from 'drizzle-orm';
import type mysql from 'mysql2/promise';

/** What withPlainRows reads of drizzle's mysql2 prepared query (drizzle-orm/mysql2/session.js, pinned). */
interface DrizzleMysql2Prepared {
  client: { query(options: mysql.QueryOptions, values: unknown[]): Promise<[unknown, unknown]> };
  query: { sql: string };
  params: unknown[];
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: unknown;
  logger: { logQuery(sql: string, params: unknown[]): void };
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** How drizzle decodes a selected field's value (as its mapResultRow does). */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  const expression = is(field, SQL) ? field : is(field, Subquery) ? (field as unknown as { _: { sql: SQL } })._.sql : (field as { sql: SQL }).sql;
  return (expression as unknown as { decoder: Decoder }).decoder;
}

/** A function of the execute() values giving one statement parameter (drizzle's fillPlaceholders, decided once). */
function parameterOf(param: unknown): (values: Record<string, unknown>) => unknown {
  const named = (name: string, encode: (value: unknown) => unknown) => (values: Record<string, unknown>) => {
    if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
    return encode(values[name]);
  };
  if (is(param, Placeholder)) return named(param.name, (value) => value);
  if (is(param, Param) && is(param.value, Placeholder)) return named(param.value.name, (value) => param.encoder.mapToDriverValue(value));
  return () => param;
}

/**
 * Fast path: a prepared select whose rows are decoded by position with decoders looked up
 * once, where drizzle's execute() asks each field of each row what kind of field it is and
 * calls a typeCast function per value — on a search's candidates, a large share of the
 * service's CPU per search. Same statement text, same parameters, same values (the
 * equivalence suite): DATETIME columns as the server's text (`dateStrings`, as drizzle's
 * typeCast), every value through its field's own decoder. Anything else — writes, nested
 * selections, custom mappers, a drizzle whose prepared query no longer looks like this —
 * keeps drizzle's execute().
 */
export function withPlainRows<Q>(prepared: Q): Q {
  const query = prepared as unknown as DrizzleMysql2Prepared;
  const fields = query.fields;
  if (!fields || query.customResultMapper || !fields.every((field) => field.path.length === 1) || typeof query.client?.query !== 'function' || typeof query.query?.sql !== 'string' || !Array.isArray(query.params)) {
    return prepared;
  }
  const keys = fields.map((field) => field.path[0]!);
  const decoders = fields.map((field) => decoderOf(field.field));
  const parameters = query.params.map(parameterOf);
  const options: mysql.QueryOptions = { sql: query.query.sql, rowsAsArray: true, dateStrings: true };
  query.execute = async (values: Record<string, unknown> = {}) => {
    const params = parameters.map((parameter) => parameter(values));
    query.logger.logQuery(options.sql, params);
    const [rows] = (await query.client.query(options, params)) as [unknown[][], unknown];
    return rows.map((row) => {
      const record: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const value = row[i];
        record[keys[i]!] = value === null ? null : decoders[i]!.mapFromDriverValue(value);
      }
      return record;
    });
  };
  return prepared;
}

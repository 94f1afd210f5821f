import { customType, datetime, varchar } from 'drizzle-orm/mysql-core';

/**
 * JSON stored in a JSON column. MySQL 8 hands mysql2 a parsed value, MariaDB (where JSON
 * is LONGTEXT with a json_valid check) hands it a string: accept both.
 */
export const jsonColumn = <T>(name: string) =>
  customType<{ data: T; driverData: string }>({
    dataType: () => 'json',
    toDriver: (value) => JSON.stringify(value),
    fromDriver: (value) => (typeof value === 'string' ? JSON.parse(value) : value) as T,
  })(name);

/** Millisecond-precision UTC timestamp (the pool runs with timezone 'Z'). */
export const timestamp = (name: string) => datetime(name, { mode: 'date', fsp: 3 });

/** A prefixed id such as `mem_01JD…` (prefix + 26-character ULID). */
export const idColumn = (name: string) => varchar(name, { length: 40 });

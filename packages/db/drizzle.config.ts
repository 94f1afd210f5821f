import { defineConfig } from 'drizzle-kit';

// Generates numbered migrations into the top-level drizzle/ folder. Never use
// `drizzle-kit push`: it drops the FULLTEXT indexes that live in custom migrations.
export default defineConfig({
  dialect: 'mysql',
  schema: './packages/db/src/schema/index.ts',
  out: './drizzle',
});

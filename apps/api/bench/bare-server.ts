// A bare HTTP server for the api-vs-raw scenario: what any HTTP search API on this machine
// pays on top of the raw driver. Per request it sends one search's statements — the API's
// own, as the mysql2 side sends them — on the same pool, and answers the first 20
// candidates' memory columns as JSON (an answer the size of the API's): no framework, no
// authentication, no ranking, no highlights. Started by the benchmark as a process of its
// own, as the service is: DATABASE_URL, POOL_SIZE and PLANS_FILE (JSON: the key lookup's
// statement and each query's statements) in its environment; prints the URL it listens on.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { openDatabase } from '@memory-bank/db/system';
import { keyLookup, type Statement } from './scenarios/statements';

interface Plans {
  auth: Statement;
  searches: Statement[][];
}

/** The results the benchmark's searches ask for (limit=20), and the columns of a memory it answers. */
const RESULTS = 20;
const MEMORY_COLUMNS = ['id', 'scope', 'source', 'content', 'tags', 'created_at', 'updated_at', 'score'];

const plans = JSON.parse(readFileSync(process.env.PLANS_FILE!, 'utf8')) as Plans;
const { pool } = openDatabase(process.env.DATABASE_URL!, { poolSize: Number(process.env.POOL_SIZE) });
// The key lookup once per key cache window, as the API's key cache and the mysql2 side make it.
const lookUpKey = keyLookup(pool, plans.auth);

const server = createServer((request, response) => {
  const index = Number(new URL(request.url ?? '/', 'http://bare').searchParams.get('i') ?? 0);
  const run = async () => {
    await lookUpKey();
    const [search, ...rest] = plans.searches[index % plans.searches.length]!;
    const [rows] = (await pool.query(search!.sql, search!.params)) as unknown as [Record<string, unknown>[]];
    for (const statement of rest) await pool.query(statement.sql, statement.params);
    return JSON.stringify({ results: rows.slice(0, RESULTS).map((row) => Object.fromEntries(MEMORY_COLUMNS.map((column) => [column, row[column]]))) });
  };
  run().then(
    (body) => response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body),
    (error: Error) => response.writeHead(500, { 'content-type': 'text/plain' }).end(error.message),
  );
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(`listening on http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});

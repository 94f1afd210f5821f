import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

/**
 * An https server on 127.0.0.1 that serves JSON documents a test puts there, such as OAuth
 * client metadata documents (CIMD: the client id is the document's https URL). Its
 * certificate is made for the run and trusted by no one: a process that fetches from it
 * needs NODE_EXTRA_CA_CERTS=<certificateFile>, which Node reads only when it starts.
 */
export interface HttpsDocuments {
  /** https://127.0.0.1:<port> */
  origin: string;
  /** The server's certificate (PEM). */
  certificateFile: string;
  /** Serves the document `build` makes from its own URL at `path`; answers that URL. */
  serve(path: string, build: (url: string) => unknown): string;
  /** Answers `path` with `respond` (a redirect, an oversized or slow body); answers its URL. */
  answer(path: string, respond: (response: ServerResponse, origin: string) => void): string;
  /** How many times `path` was fetched. */
  fetches(path: string): number;
  close(): Promise<void>;
}

export async function startHttpsDocuments(): Promise<HttpsDocuments> {
  const day = 24 * 3600 * 1000;
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - day),
    notAfterDate: new Date(Date.now() + day),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const directory = await mkdtemp(join(tmpdir(), 'mb-https-documents-'));
  const certificateFile = join(directory, 'certificate.pem');
  await writeFile(certificateFile, pems.cert);

  const documents = new Map<string, string>();
  const answers = new Map<string, (response: ServerResponse, origin: string) => void>();
  const counts = new Map<string, number>();
  const server = createServer({ key: pems.private, cert: pems.cert }, (request, response) => {
    const path = new URL(request.url ?? '/', 'https://127.0.0.1').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const document = documents.get(path);
    const answer = answers.get(path);
    if (request.method === 'GET' && answer) answer(response, origin);
    else if (request.method !== 'GET' || document === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' }).end(document);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    certificateFile,
    serve(path, build) {
      const url = `${origin}${path}`;
      documents.set(path, JSON.stringify(build(url)));
      return url;
    },
    answer(path, respond) {
      answers.set(path, respond);
      return `${origin}${path}`;
    },
    fetches: (path) => counts.get(path) ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(directory, { recursive: true, force: true });
    },
  };
}

import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, sep } from 'node:path';
import type { Context } from 'hono';
import { oidcEnabled, type Config } from '../../config';
import { AppError } from '../../errors';
import type { ApiApp, AppEnv } from '../../http/env';
import { problemResponse } from '../../http/errors';

/** Where the console is served; its links, its router and its build's `base` use it too. */
export const CONSOLE_PATH = '/console';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};

let packageDirectory: string | null | undefined;
/** Where the console package is installed (resolved once), or null without it. */
function consolePackage(): string | null {
  if (packageDirectory === undefined) {
    try {
      packageDirectory = dirname(createRequire(import.meta.url).resolve('@memory-bank/console/package.json'));
    } catch {
      packageDirectory = null;
    }
  }
  return packageDirectory;
}

/**
 * The console's current build: apps/console/build.mjs writes each build to
 * dist/<fingerprint>/ and then points dist/current at it, so a build never changes files a
 * running server is serving. The pointer is read per request (a stat and a small read), so
 * a rebuild is picked up without a restart; the package is resolved once.
 */
function currentBuild(): string | null {
  const packageDir = consolePackage();
  if (!packageDir) return null;
  const pointer = join(packageDir, 'dist', 'current');
  if (!existsSync(pointer)) return null;
  const directory = join(packageDir, 'dist', readFileSync(pointer, 'utf8').trim());
  return existsSync(join(directory, 'index.html')) ? directory : null;
}

/**
 * No inline script, no eval, nothing from elsewhere — except the OIDC provider, which the
 * console asks for its discovery document and its tokens (authorization code + PKCE).
 */
function contentSecurityPolicy(config: Config): string {
  const provider = oidcEnabled(config) ? ` ${new URL(config.OIDC_ISSUER).origin}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${provider}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * What the console needs before anyone signs in — whether and where OIDC sign-in happens —
 * as <meta> tags in the page (no inline script, no extra request). The audience doubles as
 * the console's client id at the provider.
 */
function withSignInSettings(page: string, config: Config): string {
  if (!oidcEnabled(config)) return page;
  const tags = `<meta name="memory-bank-oidc-issuer" content="${escapeAttribute(config.OIDC_ISSUER)}"><meta name="memory-bank-oidc-client-id" content="${escapeAttribute(config.OIDC_AUDIENCE)}">`;
  return page.replace('</head>', `${tags}</head>`);
}

async function serveConsole(c: Context<AppEnv>): Promise<Response> {
  const build = currentBuild();
  if (!build) return problemResponse(c, new AppError('unavailable', 'The console is not built; run `pnpm build` (or `pnpm start`, which builds it)'));
  const rest = c.req.path.slice(CONSOLE_PATH.length).replace(/^\/+/, '');
  const headers = { ...SECURITY_HEADERS, 'Content-Security-Policy': contentSecurityPolicy(c.get('config')) };
  // Hashed file names (assets/…): a new build has new names, so they never change.
  if (rest.startsWith('assets/')) {
    const file = normalize(join(build, rest));
    const type = TYPES[extname(file)];
    if (!file.startsWith(build + sep) || !type || !existsSync(file)) return problemResponse(c, new AppError('not_found', 'No such file'));
    return c.body(new Uint8Array(await readFile(file)), 200, { ...headers, 'Content-Type': type, 'Cache-Control': 'public, max-age=31536000, immutable' });
  }
  // Every other path is a screen of the single-page app (deep links): the page, never cached,
  // so a new build's asset names are seen at once.
  const page = withSignInSettings(await readFile(join(build, 'index.html'), 'utf8'), c.get('config'));
  return c.body(page, 200, { ...headers, 'Content-Type': TYPES['.html']!, 'Cache-Control': 'no-cache' });
}

export function registerConsoleRoutes(app: ApiApp) {
  app.get(CONSOLE_PATH, serveConsole);
  app.get(`${CONSOLE_PATH}/*`, serveConsole);
}

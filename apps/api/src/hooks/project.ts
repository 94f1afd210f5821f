import { createHash } from 'node:crypto';
import { PROJECT_KEY_MAX } from '@memory-bank/db';
import { projectDirectory } from './adapters/shared';

/**
 * Which project a session belongs to, for recall's "last time in this project": the same key
 * for every harness and every checkout of one repository. The client says what it knows
 * (integrations/project.sh and the OpenCode plugin send the git remote `origin` without its
 * credentials, else the repository's root, else the working directory); the service spells it
 * one way. Only ever compared within the caller's own sessions: a client that names another
 * project only groups its own sessions differently (docs/hooks.md#project-identity).
 */

/** Longer client values are not a project anyone's scripts send: ignored (the directory decides). */
const MAX_CLIENT_PROJECT = 4096;

/** `/…`, `\…`, `~…`, `c:/…`, `file:…`: a directory, spelled as every harness's directory is. */
const PATH_LIKE = /^(?:[/\\~]|[a-z]:(?:[/\\]|$)|file:)/i;

/**
 * A git remote as one key: no scheme, credentials, port or `.git`, the host's `:` of the scp
 * form a `/`, lower case (the hosts people use treat owner and repository names so) —
 * `git@github.com:Acme/App.git`, `ssh://git@github.com:22/acme/app` and
 * `https://token@github.com/acme/App/` are all `github.com/acme/app`.
 */
export function remoteProject(remote: string): string {
  let text = remote.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const host = text.split('/', 1)[0]!;
  const at = host.lastIndexOf('@');
  if (at !== -1) text = text.slice(at + 1);
  text = text
    .replace(/^([^/:]*):\d*(?=\/|$)/, '$1')
    .replace(/^([^/:]*):/, '$1/')
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '');
  return text.toLowerCase();
}

/** A client's project as sent: percent-encoded UTF-8 (as a header must be) or plain; undefined when there is none worth reading. */
export function decodeClientProject(sent: string | undefined): string | undefined {
  if (sent === undefined || sent.length > MAX_CLIENT_PROJECT) return undefined;
  let text = sent;
  if (/%[0-9a-f]{2}/i.test(text)) {
    try {
      text = decodeURIComponent(text);
    } catch {
      // Not percent-encoding after all: taken as it is.
    }
  }
  text = text.trim();
  return text === '' || /[\u0000-\u001f]/.test(text) ? undefined : text;
}

/**
 * The key stored on a workstream and matched by recall: the client's project (decoded, a path
 * spelled like a directory, a remote by remoteProject) or, when it sends none, the session's
 * directory as the adapters spell it; `clean` sees what came from the client (the sanitizer).
 * Over PROJECT_KEY_MAX characters, `sha256:` + its hash.
 */
export function projectKey(clientProject: string | undefined, cwd: string | undefined, clean: (sent: string) => string = (sent) => sent): string | undefined {
  const sent = decodeClientProject(clientProject);
  const fromClient = sent === undefined ? undefined : PATH_LIKE.test(sent) ? projectDirectory(sent) : remoteProject(sent);
  const key = fromClient ? clean(fromClient) : cwd;
  if (key === undefined || key === '') return undefined;
  return Array.from(key).length > PROJECT_KEY_MAX ? `sha256:${createHash('sha256').update(key, 'utf8').digest('hex')}` : key;
}

/** The repository's name in a key made from a git remote (`github.com/acme/app` → `app`); undefined for a directory's or a hashed key. */
export function repositoryOfProject(key: string): string | undefined {
  if (PATH_LIKE.test(key) || key.startsWith('sha256:') || !key.includes('/')) return undefined;
  return key.slice(key.lastIndexOf('/') + 1) || undefined;
}

/**
 * The harnesses added after Claude Code, Codex and OpenCode — Gemini CLI, Cursor, Cline, Kimi,
 * Factory Droid, Kilo, Copilot CLI — against a running server: every fixture (taken from the
 * harness's documentation) of a session posted to /v1/hooks/{harness} lands in the ledger as
 * the events it should (kinds, roles, tool calls paired with their results, unknown events
 * kept as lifecycle ones); the recall hook answers in the harness's own output shape, with
 * only the caller's memories; and a session recorded through one harness is "last time in
 * this project" for another in the same repository — the same directory, or another checkout
 * of the same git remote named by the client (Memory-Bank-Project).
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectDirectory } from '../src/hooks/adapters/shared';
import { projectKey } from '../src/hooks/project';
import type { Harness } from '../src/hooks/types';
import { fixture, newSessionId } from './support/hooks';
import { bodyOf, expectStatus } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';

type NewHarness = 'gemini-cli' | 'cursor' | 'cline' | 'kimi' | 'factory' | 'kilo' | 'copilot';

/** Where each harness puts its session id and its working directory. */
const FIELDS: Record<NewHarness, { session: string; directory: (path: string) => Record<string, unknown> }> = {
  'gemini-cli': { session: 'session_id', directory: (path) => ({ cwd: path }) },
  cursor: { session: 'conversation_id', directory: (path) => ({ workspace_roots: [path] }) },
  cline: { session: 'taskId', directory: (path) => ({ workspaceRoots: [path] }) },
  kimi: { session: 'session_id', directory: (path) => ({ cwd: path }) },
  factory: { session: 'session_id', directory: (path) => ({ cwd: path }) },
  kilo: { session: 'sessionID', directory: (path) => ({ directory: path }) },
  copilot: { session: 'sessionId', directory: (path) => ({ cwd: path }) },
};

/** A fixture of `harness` on session `session`, in `directory` when given. */
function payload(harness: NewHarness, name: string, session: string, directory?: string, changes: Record<string, unknown> = {}) {
  return fixture(harness, name, { [FIELDS[harness].session]: session, ...(directory === undefined ? {} : FIELDS[harness].directory(directory)), ...changes });
}

const fixtureNames = (harness: Harness) =>
  readdirSync(new URL(`./fixtures/hooks/${harness}/`, import.meta.url))
    .map((file) => file.replace(/\.json$/, ''))
    .sort();

/** The order a session's fixtures happen in: its start first, its end last. */
function sessionOrder(names: string[]): string[] {
  const rank = (name: string) => (/session-start|task-start|session-created/.test(name) ? 0 : /session-end/.test(name) ? 2 : 1);
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

let server: TestServer;
let ana: TestUser;
let colleague: TestUser;
let outsider: TestUser;
const memories: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  const tenant = await createTenant(server.services, server.url);
  ana = tenant.owner;
  colleague = await tenant.addMember();
  outsider = (await createTenant(server.services, server.url, 'Other org')).owner;
  const remember = async (user: TestUser, name: string, content: string, scope: 'user' | 'org' = 'user', pinned = false) => {
    memories[name] = bodyOf(await user.api.post('/v1/memory', { body: { content, scope, ...(pinned ? { pinned } : {}) } }), 201).id;
  };
  await remember(ana, 'seed', 'capybara-shop: run `make seed` before the checkout tests, or they fail on an empty catalogue.');
  await remember(ana, 'rolling', 'Rolling deploys of the storefront: fly deploy --strategy rolling, one region at a time.');
  await remember(ana, 'shared', 'Team rule for capybara-shop: never deploy checkout on Fridays.', 'org');
  await remember(ana, 'pinned', 'Answer Ana in short sentences; she reads on a phone.', 'user', true);
  await remember(colleague, 'colleague', 'Colleague private: capybara-shop checkout rolling deploy notes.');
  await remember(outsider, 'outsider', 'Other org: capybara-shop rolling deploy of the storefront secrets.');
});
afterAll(() => server?.close());

interface Expected {
  /** The events that must hold a tool call paired with its result (by their fixture names). */
  paired: [call: string, result: string][];
  prompt: string;
  unknown: string;
  /** Its hooks report the agent's reply (Factory's Stop and Copilot's hooks do not). */
  replies: boolean;
}

const HARNESSES: Record<NewHarness, Expected> = {
  'gemini-cli': { paired: [['before-tool', 'after-tool']], prompt: 'before-agent', unknown: 'unknown-before-tool-selection', replies: true },
  cursor: {
    paired: [
      ['before-shell-execution', 'after-shell-execution'],
      ['before-mcp-execution', 'after-mcp-execution'],
      ['pre-tool-use', 'post-tool-use'],
    ],
    prompt: 'before-submit-prompt',
    unknown: 'unknown-after-tab-file-edit',
    replies: true,
  },
  cline: { paired: [['pre-tool-use', 'post-tool-use']], prompt: 'user-prompt-submit', unknown: 'unknown-notification-hook', replies: true },
  kimi: { paired: [['pre-tool-use', 'post-tool-use']], prompt: 'user-prompt-submit', unknown: 'unknown-future-event', replies: true },
  factory: { paired: [['pre-tool-use', 'post-tool-use']], prompt: 'user-prompt-submit', unknown: 'unknown-future-event', replies: false },
  kilo: { paired: [['tool-execute-before', 'tool-execute-after']], prompt: 'chat-message', unknown: 'unknown-todo-updated', replies: true },
  copilot: { paired: [['pre-tool-use', 'post-tool-use']], prompt: 'user-prompt-submitted', unknown: 'unknown-agent-stop', replies: false },
};

describe.each(Object.keys(HARNESSES) as NewHarness[])('%s hooks into the ledger', (harness) => {
  it('records every documented event of a session: kinds, roles, paired tool results, unknown events kept', async () => {
    const session = newSessionId();
    const names = sessionOrder(fixtureNames(harness));
    const sequences = new Map<string, number>();
    let workstreamId = '';
    for (const name of names) {
      const res = await ana.api.post(`/v1/hooks/${harness}`, { body: payload(harness, name, session) });
      expectStatus(res, 202);
      expect(res.body.duplicate, name).toBe(false);
      sequences.set(name, res.body.sequence);
      workstreamId = res.body.workstream_id;
    }
    const workstream = bodyOf(await ana.api.get(`/v1/workstreams/${workstreamId}`), 200);
    expect(workstream).toMatchObject({ harness, native_session_id: session, cwd: '/home/ana/shop', event_count: names.length });

    const events = bodyOf(await ana.api.get(`/v1/workstreams/${workstreamId}/events?include_lifecycle=true&limit=100`), 200).events;
    expect(events).toHaveLength(names.length);
    const byName = (name: string) => events.find((event) => event.sequence === sequences.get(name))!;
    const { prompt, unknown, paired } = HARNESSES[harness];
    expect(byName(prompt)).toMatchObject({ kind: 'message', role: 'user', lifecycle_only: false });
    expect(byName(prompt).content).toContain('Cannot find module express');
    expect(byName(unknown)).toMatchObject({ kind: 'lifecycle', role: 'system', lifecycle_only: true });
    expect(events.some((event) => event.kind === 'message' && event.role === 'assistant')).toBe(HARNESSES[harness].replies);

    const actions = bodyOf(await ana.api.get(`/v1/workstreams/${workstreamId}/actions?limit=100`), 200).actions;
    for (const [call, result] of paired) {
      const action = actions.find((candidate) => candidate.call?.sequence === sequences.get(call));
      expect(action, `${call} → ${result}`).toBeDefined();
      expect(action!.result?.sequence, `${call} → ${result}`).toBe(sequences.get(result));
    }
  });

  it('refuses none of its events and takes a payload without a session id as a 400 naming the field', async () => {
    const res = await ana.api.post(`/v1/hooks/${harness}`, { body: payload(harness, HARNESSES[harness].unknown, newSessionId(), undefined, { hook_event_name: 'SomethingNewer', hookName: 'SomethingNewer' }) });
    expectStatus(res, 202);
    const missing = await ana.api.post(`/v1/hooks/${harness}`, { body: payload(harness, HARNESSES[harness].prompt, newSessionId(), undefined, { [FIELDS[harness].session]: undefined }) });
    expectStatus(missing, 400);
  });
});

const notOthers = (output: string) => {
  expect(output).not.toContain(memories.colleague!);
  expect(output).not.toContain(memories.outsider!);
  expect(output).not.toContain('Colleague private');
  expect(output).not.toContain('Other org');
};

/** The JSON object a recall hook answered (every harness but Kimi). */
async function jsonRecall(harness: NewHarness, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await ana.api.post(`/v1/hooks/${harness}/recall`, { body });
  expectStatus(res, 200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  notOthers(res.text);
  return JSON.parse(res.text) as Record<string, any>;
}

const ROLLING_PROMPT = 'How do I do a rolling deploy of the storefront?';

describe('recall in each harness’s own output shape', () => {
  const cwd = '/home/ana/capybara-shop';

  it('Gemini CLI: hookSpecificOutput.additionalContext on SessionStart and BeforeAgent', async () => {
    const session = newSessionId();
    const start = await jsonRecall('gemini-cli', payload('gemini-cli', 'session-start', session, cwd));
    expect(start.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(start.hookSpecificOutput.additionalContext).toContain(`[${memories.seed}]`);
    expect(start.hookSpecificOutput.additionalContext).toContain(`[${memories.pinned}]`);
    const prompt = await jsonRecall('gemini-cli', payload('gemini-cli', 'before-agent', session, cwd, { prompt: ROLLING_PROMPT }));
    expect(Object.keys(prompt)).toEqual(['hookSpecificOutput']);
    expect(prompt.hookSpecificOutput).toEqual({ hookEventName: 'BeforeAgent', additionalContext: expect.stringContaining(`[${memories.rolling}]`) });
    expect(await jsonRecall('gemini-cli', payload('gemini-cli', 'before-tool', session, cwd))).toEqual({});
  });

  it('Cursor: additional_context on sessionStart; beforeSubmitPrompt cannot take context ({})', async () => {
    const session = newSessionId();
    const start = await jsonRecall('cursor', payload('cursor', 'session-start', session, cwd, { session_id: session }));
    expect(Object.keys(start)).toEqual(['additional_context']);
    expect(start.additional_context).toContain(`[${memories.seed}]`);
    expect(await jsonRecall('cursor', payload('cursor', 'before-submit-prompt', session, cwd, { prompt: ROLLING_PROMPT }))).toEqual({});
  });

  it('Cline: contextModification on TaskStart and UserPromptSubmit', async () => {
    const session = newSessionId();
    const start = await jsonRecall('cline', payload('cline', 'task-start', session, cwd));
    expect(Object.keys(start)).toEqual(['contextModification']);
    expect(start.contextModification).toContain(`[${memories.seed}]`);
    const prompt = await jsonRecall('cline', payload('cline', 'user-prompt-submit', session, cwd, { userPromptSubmit: { prompt: ROLLING_PROMPT, attachments: [] } }));
    expect(prompt.contextModification).toContain(`[${memories.rolling}]`);
    expect(prompt.contextModification).not.toContain(memories.seed!);
  });

  it('Kimi: nothing on SessionStart; the first prompt’s plain-text context also brings the pinned memories', async () => {
    const session = newSessionId();
    const start = await ana.api.post('/v1/hooks/kimi/recall', { body: payload('kimi', 'session-start', session, cwd) });
    expectStatus(start, 200);
    expect(start.text).toBe('');
    const first = await ana.api.post('/v1/hooks/kimi/recall', { body: payload('kimi', 'user-prompt-submit', session, cwd, { prompt: ROLLING_PROMPT }) });
    expectStatus(first, 200);
    expect(first.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(first.text).toMatch(/^Memory Bank recalled/);
    expect(first.text).toContain(`[${memories.pinned}]`);
    expect(first.text).toContain(`[${memories.rolling}]`);
    notOthers(first.text);
    const again = await ana.api.post('/v1/hooks/kimi/recall', { body: payload('kimi', 'user-prompt-submit', session, cwd, { prompt: `${ROLLING_PROMPT} And the pins?` }) });
    expect(again.text).not.toContain(memories.pinned!);
  });

  it('Factory Droid: Claude Code’s output on SessionStart and UserPromptSubmit', async () => {
    const session = newSessionId();
    const start = await jsonRecall('factory', payload('factory', 'session-start', session, cwd));
    expect(start.hookSpecificOutput).toEqual({ hookEventName: 'SessionStart', additionalContext: expect.stringContaining(`[${memories.seed}]`) });
    const prompt = await jsonRecall('factory', payload('factory', 'user-prompt-submit', session, cwd, { prompt: ROLLING_PROMPT }));
    expect(prompt.hookSpecificOutput.additionalContext).toContain(`[${memories.rolling}]`);
  });

  it('Kilo: its (OpenCode) plugin’s recall through postRecall', async () => {
    const res = await ana.api.post('/v1/recall', { body: { harness: 'kilo', session_id: `ses_${newSessionId()}`, trigger: 'prompt', prompt: ROLLING_PROMPT, cwd } });
    expectStatus(res, 200);
    expect(res.body.context).toContain(`[${memories.rolling}]`);
    notOthers(res.body.context);
  });

  it('Copilot CLI: capture only — {} for sessionStart and userPromptSubmitted, and nothing recorded as shown', async () => {
    const session = newSessionId();
    expect(await jsonRecall('copilot', payload('copilot', 'session-start', session, cwd))).toEqual({});
    expect(await jsonRecall('copilot', payload('copilot', 'user-prompt-submitted', session, cwd, { prompt: ROLLING_PROMPT }))).toEqual({});
    const sessions = bodyOf(await ana.api.get('/v1/workstreams?harness=copilot&limit=100'), 200).workstreams;
    expect(sessions.some((workstream) => workstream.native_session_id === session)).toBe(false);
  });
});

describe('one project across harnesses', () => {
  it('recalls a Cursor session as "last time in this project" in Gemini CLI, Cline and Kimi, however each spells the directory', async () => {
    const repository = '/home/ana/cross-harness/capybara-shop';
    const cursorSession = newSessionId();
    for (const name of ['session-start', 'before-submit-prompt', 'after-agent-response', 'stop']) {
      // Cursor's workspace root with a trailing separator: the same project.
      expectStatus(await ana.api.post('/v1/hooks/cursor', { body: payload('cursor', name, cursorSession, `${repository}/`) }), 202);
    }
    const asked = "- You asked: The checkout test fails with 'Cannot find module express'. Can you fix it?";

    const gemini = await jsonRecall('gemini-cli', payload('gemini-cli', 'session-start', newSessionId(), repository));
    expect(gemini.hookSpecificOutput.additionalContext).toContain('Last time in this project');
    expect(gemini.hookSpecificOutput.additionalContext).toContain(asked);
    expect(gemini.hookSpecificOutput.additionalContext).toContain('- The reply: Fixed: express was missing from package.json.');

    const cline = await jsonRecall('cline', payload('cline', 'task-start', newSessionId(), `${repository}/./`));
    expect(cline.contextModification).toContain(asked);

    const kimi = await ana.api.post('/v1/hooks/kimi/recall', { body: payload('kimi', 'user-prompt-submit', newSessionId(), repository, { prompt: ROLLING_PROMPT }) });
    expect(kimi.text).toContain('Last time in this project');
    expect(kimi.text).toContain(asked);
  });

  it('recalls a session of one checkout in another checkout of the same remote, by the project the client names', async () => {
    const cursorSession = newSessionId();
    const checkoutA = { path: '/home/ana/work/storefront', project: 'git@github.com:Acme/Storefront.git' };
    const checkoutB = { path: '/srv/ana/storefront-review', project: encodeURIComponent('https://ana:ghp_notarealtoken@github.com/acme/storefront/') };
    for (const name of ['session-start', 'before-submit-prompt', 'after-agent-response']) {
      const body = payload('cursor', name, cursorSession, checkoutA.path);
      expectStatus(await ana.api.post('/v1/hooks/cursor', { body, headers: { 'memory-bank-project': checkoutA.project } }), 202);
    }
    const asked = "- You asked: The checkout test fails with 'Cannot find module express'. Can you fix it?";

    // Another harness, another checkout, the same remote spelled otherwise: the same project.
    const inB = await ana.api.post('/v1/hooks/gemini-cli/recall', {
      body: payload('gemini-cli', 'session-start', newSessionId(), checkoutB.path),
      headers: { 'memory-bank-project': checkoutB.project },
    });
    expectStatus(inB, 200);
    expect(inB.text).toContain('Last time in this project');
    expect(inB.text).toContain(asked);
    expect(inB.text).not.toContain('ghp_notarealtoken');

    // The same checkout without a project (an older forwarder): its directory is its project, another one.
    const unnamed = await jsonRecall('gemini-cli', payload('gemini-cli', 'session-start', newSessionId(), checkoutB.path));
    expect(JSON.stringify(unnamed)).not.toContain(asked);

    // A batch item names its project as the header does; postRecall takes it in the body.
    const spooled = newSessionId();
    const batch = bodyOf(
      await ana.api.post('/v1/hooks/batch', {
        body: { events: [{ harness: 'cline', project: checkoutB.project, payload: payload('cline', 'user-prompt-submit', spooled, checkoutB.path, { userPromptSubmit: { prompt: 'Which region deploys first?', attachments: [] } }) }] },
      }),
      200,
    );
    expect(batch.results[0]!.status).toBe(202);
    const recalled = bodyOf(await ana.api.post('/v1/recall', { body: { harness: 'kilo', session_id: `ses_${newSessionId()}`, trigger: 'session_start', cwd: '/elsewhere', project: 'github.com/ACME/storefront' } }), 200);
    expect(recalled.last_session?.prompt).toBe('Which region deploys first?');

    // Only the caller's own sessions: a colleague naming the same project finds none of Ana's.
    const theirs = await colleague.api.post('/v1/hooks/gemini-cli/recall', {
      body: payload('gemini-cli', 'session-start', newSessionId(), checkoutB.path),
      headers: { 'memory-bank-project': checkoutA.project },
    });
    expectStatus(theirs, 200);
    expect(theirs.text).not.toContain('Last time in this project');
  });

  it('spells a git remote one way, a path as a directory, and hashes what is too long', () => {
    for (const [given, expected] of [
      ['git@github.com:Acme/App.git', 'github.com/acme/app'],
      ['https://github.com/acme/App', 'github.com/acme/app'],
      ['https://github.com/acme/App/', 'github.com/acme/app'],
      ['ssh://git@github.com:22/acme/app.git', 'github.com/acme/app'],
      ['https://ana:tok3n@GitLab.example.com:8443/group/sub/app.git', 'gitlab.example.com/group/sub/app'],
      ['github.com%3AAcme%2FApp%2Egit', 'github.com/acme/app'],
      ['/home/ana/shop/', '/home/ana/shop'],
      ['%2Fhome%2Fana%2Fmy%20shop', '/home/ana/my shop'],
      ['file:///srv/git/app.git', '/srv/git/app.git'],
    ] as const) {
      expect(projectKey(given, '/somewhere/else'), given).toBe(expected);
    }
    expect(projectKey(undefined, '/home/ana/shop')).toBe('/home/ana/shop');
    expect(projectKey('   ', '/home/ana/shop')).toBe('/home/ana/shop');
    expect(projectKey('line\nbreak', '/home/ana/shop')).toBe('/home/ana/shop');
    expect(projectKey(undefined, undefined)).toBeUndefined();
    const deep = `/home/ana/${'very-long-directory-name/'.repeat(30)}shop`;
    expect(projectKey(deep, undefined)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(projectKey(deep, undefined)).toBe(projectKey(undefined, deep));
  });

  it('spells a directory the same way for every harness', () => {
    for (const [given, expected] of [
      ['/home/ana/shop', '/home/ana/shop'],
      ['/home/ana/shop/', '/home/ana/shop'],
      ['/home/ana//shop/./', '/home/ana/shop'],
      ['file:///home/ana/my%20shop', '/home/ana/my shop'],
      ['C:\\Users\\ana\\shop\\', 'c:/Users/ana/shop'],
      ['/c:/Users/ana/shop', 'c:/Users/ana/shop'],
      ['file:///c%3A/Users/ana/shop', 'c:/Users/ana/shop'],
      ['\\\\server\\share\\shop', '//server/share/shop'],
      ['/', '/'],
    ] as const) {
      expect(projectDirectory(given), given).toBe(expected);
    }
  });
});

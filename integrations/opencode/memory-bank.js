// Memory Bank plugin for OpenCode: sends the session's prompts, tool calls and results, replies and
// lifecycle events to POST $MEMORY_BANK_URL/v1/hooks/opencode (payload shape: docs/hooks.md).
//
// Install: copy to ~/.config/opencode/plugins/ (or <project>/.opencode/plugins/) and set
// MEMORY_BANK_API_KEY (and MEMORY_BANK_URL, default http://localhost:8787) in OpenCode's environment.
//
// Fire-and-forget: it never awaits the network, never throws into OpenCode, and gives up after 3 s.
// What it cannot deliver goes to the spool that integrations/forward.sh uses
// (~/.memory-bank/spool, one file per event) and is sent to /v1/hooks/batch after the next success;
// while the spool holds events, new ones queue behind them.
//
// Recall (docs/hooks.md#recall): at a session's first model call and after each prompt it asks
// POST /v1/recall for the memories to add, waiting at most 1.5 s (MEMORY_BANK_RECALL_TIMEOUT, in
// seconds), and appends what it got to the system prompt of the session's model calls
// (experimental.chat.system.transform). The key needs memory:read and hooks:write; without
// memory:read it recalls nothing and forwards as before.
//
// Project (docs/hooks.md#project-identity): every event and recall names the project as forward.sh
// does — $MEMORY_BANK_PROJECT, else the git remote `origin` of OpenCode's directory without its
// credentials, else the repository's root (each git call cut off after 300 ms,
// MEMORY_BANK_GIT_TIMEOUT in seconds) — so "last time in this project" finds the same
// repository's sessions from any harness or checkout.
import { execFile } from 'node:child_process';
import { link, mkdir, readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The harness this copy reports as: integrations/install.sh writes Kilo's copy with 'kilo' (an OpenCode fork, same plugin API). */
const HARNESS = 'opencode';
const BASE = (process.env.MEMORY_BANK_URL || 'http://localhost:8787').replace(/\/+$/, '');
const KEY = process.env.MEMORY_BANK_API_KEY || '';
const SPOOL = process.env.MEMORY_BANK_SPOOL || join(homedir(), '.memory-bank', 'spool');
const SPOOL_MAX = Number(process.env.MEMORY_BANK_SPOOL_MAX) || 10000;
const MAX_TEXT = 200_000; // longer strings keep their head and tail (the service refuses payloads over 1 MiB)

const cap = (text) =>
  typeof text === 'string' && text.length > MAX_TEXT
    ? `${text.slice(0, MAX_TEXT / 2)}\n… [${text.length - MAX_TEXT} chars omitted] …\n${text.slice(-MAX_TEXT / 2)}`
    : text;

/** Scalar fields only: tool metadata can hold whole files (diffs, before/after contents). */
const scalars = (object) =>
  Object.fromEntries(Object.entries(object ?? {}).filter(([, value]) => value === null || ['string', 'number', 'boolean'].includes(typeof value)).map(([k, v]) => [k, cap(v)]));

const textOf = (parts) =>
  (Array.isArray(parts) ? parts : [])
    .filter((part) => part?.type === 'text' && typeof part.text === 'string' && !part.synthetic && !part.ignored)
    .map((part) => part.text)
    .join('\n');

const modelName = (model) => (model?.providerID && model?.modelID ? `${model.providerID}/${model.modelID}` : undefined);

async function post(path, body, headers, ms) {
  const response = await fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers },
    body,
    signal: AbortSignal.timeout(ms),
  });
  await response.arrayBuffer().catch(() => {});
  return response.status;
}

/** Seconds from the environment (the same settings as recall.sh and project.sh), else the default. */
const seconds = (name, fallback) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value * 1000 : fallback;
};

const RECALL_TIMEOUT_MS = seconds('MEMORY_BANK_RECALL_TIMEOUT', 1500);
const RECALL_KEPT = 5; // the last recalls of a session stay in its system prompt

/** The context POST /v1/recall gives for a session of `project` (a promise), or '' (slow, down, refused: nothing). */
async function recall(body, project) {
  try {
    const signal = AbortSignal.timeout(RECALL_TIMEOUT_MS); // the project's look-up counts too
    const known = await project;
    const response = await fetch(`${BASE}/v1/recall`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ harness: HARNESS, ...body, ...(known ? { project: encodeProject(known) } : {}) }),
      signal,
    });
    if (response.status !== 200) {
      await response.arrayBuffer().catch(() => {});
      return '';
    }
    const answer = await response.json();
    return typeof answer?.context === 'string' ? answer.context : '';
  } catch {
    return '';
  }
}

const GIT_TIMEOUT_MS = seconds('MEMORY_BANK_GIT_TIMEOUT', 300);

/** git's one-line answer in `dir` ('' when it has none), and whether it was cut off. Never throws. */
const git = (dir, args) =>
  new Promise((resolve) => {
    const env = { ...process.env };
    for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR']) delete env[name];
    try {
      execFile('git', ['-C', dir, ...args], { timeout: GIT_TIMEOUT_MS, env, windowsHide: true }, (error, stdout) =>
        resolve(error ? { out: '', slow: Boolean(error.killed) } : { out: String(stdout).trim(), slow: false }),
      );
    } catch {
      resolve({ out: '', slow: false });
    }
  });

/** A remote without its scheme and credentials (the service finishes the spelling); a local path stays a path. */
const withoutCredentials = (remote) => {
  const text = remote.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const host = text.split('/', 1)[0];
  return host.includes('@') ? text.slice(host.lastIndexOf('@') + 1) : text;
};

/** The project of `dir` (see above), or undefined: then the service takes the directory. */
async function projectOf(dir) {
  if (process.env.MEMORY_BANK_PROJECT) return process.env.MEMORY_BANK_PROJECT;
  if (!dir) return undefined;
  const remote = await git(dir, ['remote', 'get-url', 'origin']);
  if (remote.out) return withoutCredentials(remote.out);
  if (remote.slow) return undefined;
  return (await git(dir, ['rev-parse', '--show-toplevel'])).out || undefined;
}

/** Every byte but A-Z a-z 0-9 _ ~ - as %XX, as forward.sh writes it: a header value, and part of a spool file name. */
const encodeProject = (project) =>
  [...Buffer.from(project, 'utf8')].map((byte) => (/[A-Za-z0-9_~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

const permanent = (status) => [400, 413, 415, 422].includes(status);

async function deliver(payload, stamp, project) {
  const key = crypto.randomUUID().replaceAll('-', '');
  const body = JSON.stringify(payload);
  const encoded = project ? encodeProject(project) : '';
  // Older events wait in the spool: this one queues behind them, so the ledger keeps their order.
  if ((await spooledNames()).length > 0) {
    await spool(stamp, key, body, encoded);
    return drain();
  }
  let status = 0;
  try {
    status = await post(`/v1/hooks/${HARNESS}`, body, { 'idempotency-key': key, ...(encoded ? { 'memory-bank-project': encoded } : {}) }, 3000);
  } catch {
    // unreachable or timed out: spooled below
  }
  if (status >= 200 && status < 300) return drain();
  if (!permanent(status)) return spool(stamp, key, body, encoded);
}

const spooledNames = async () => (await readdir(SPOOL).catch(() => [])).filter((n) => n.endsWith('.json')).sort();

/** Nanoseconds since the epoch (forward.sh's stamp), strictly increasing within the process, so names sort in event order. */
let lastStamp = 0n;
function spoolStamp() {
  const now = BigInt(Date.now()) * 1_000_000n;
  lastStamp = now > lastStamp ? now : lastStamp + 1n;
  return String(lastStamp);
}

/** One file per event, named like forward.sh's: <stamp>.<key>.opencode[.<project>].json (temp file + rename). */
async function spool(stamp, key, body, project) {
  if (body.length > 1024 * 1024) return;
  await mkdir(SPOOL, { recursive: true, mode: 0o700 });
  // A file name holds 255 bytes: a longer project is left to the service (the directory).
  const name = `${stamp}.${key}.${HARNESS}${project && project.length <= 180 ? `.${project}` : ''}.json`;
  const temp = join(SPOOL, `.in.${key}`);
  await writeFile(temp, body, { mode: 0o600 });
  await rename(temp, join(SPOOL, name));
  const names = (await readdir(SPOOL)).filter((n) => n.endsWith('.json')).sort();
  await Promise.all(names.slice(0, Math.max(0, names.length - SPOOL_MAX)).map((n) => rm(join(SPOOL, n), { force: true })));
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error?.code === 'EPERM'; // exists, owned by someone else
  }
};

/**
 * forward.sh's lock without flock(1): $SPOOL/.drain.pid, created atomically with link(2) and
 * holding the drainer's pid (first line, which forward.sh reads) and a token of this drain
 * (second line: one OpenCode process may run several drains); taken over only once that
 * process is gone or the file has not been touched for 2 minutes (a live drainer touches it
 * every round; guards pid reuse).
 * A lock that cannot go stale while nobody drains. (Where forward.sh has flock(1) it locks
 * .drain.flock instead, so the two may drain at once: harmless, the service drops the
 * duplicates by idempotency key and both send oldest first.)
 */
async function takeLock(owner, content) {
  const mine = `${owner}.${process.pid}.${crypto.randomUUID()}`;
  await writeFile(mine, content, { mode: 0o600 });
  try {
    if (await link(mine, owner).then(() => true, () => false)) return true;
    const holder = await readFile(owner, 'utf8').catch(() => '');
    // Ours: a contender put our file back after we let go of it (below).
    if (holder === content) return true;
    const pid = holder.split('\n')[0].trim();
    const touched = await stat(owner).then((s) => s.mtimeMs, () => 0);
    if (/^\d+$/.test(pid) && alive(Number(pid)) && Date.now() - touched < 120_000) return false;
    // The holder is gone. Move its file aside (rename is atomic: one contender gets it) and
    // check it is the one we judged; if another contender had already replaced it, put it back.
    const stale = `${mine}.stale`;
    if (await rename(owner, stale).then(() => true, () => false)) {
      if ((await readFile(stale, 'utf8').catch(() => '')) !== holder) await link(stale, owner).catch(() => {});
      await rm(stale, { force: true });
    }
    return await link(mine, owner).then(() => true, () => false);
  } finally {
    await rm(mine, { force: true });
  }
}

/**
 * Sends spooled events in batches (≤ 256, < 8 MiB), oldest first, one drainer at a time.
 * After letting go of the lock it looks again: an event spooled meanwhile had its own
 * drainer turned away.
 */
async function drain() {
  const owner = join(SPOOL, '.drain.pid');
  const content = `${process.pid}\n${crypto.randomUUID()}\n`;
  let rounds = 0;
  while ((await spooledNames()).length > 0 && rounds < 100 && (await takeLock(owner, content))) {
    let emptied = false;
    try {
      for (; rounds < 100; rounds++) {
        const now = new Date();
        await utimes(owner, now, now).catch(() => {});
        const events = [];
        const sent = [];
        let bytes = 16;
        for (const name of (await spooledNames()).slice(0, 256)) {
          const parts = name.split('.');
          const [stamp, key, harness] = parts;
          const project = parts.length === 5 && /^[A-Za-z0-9_~%-]+$/.test(parts[3]) ? parts[3] : undefined;
          const text = await readFile(join(SPOOL, name), 'utf8').catch(() => '');
          let payload;
          try {
            payload = JSON.parse(text);
          } catch {
            await rm(join(SPOOL, name), { force: true }); // unreadable: the service would refuse it too
            continue;
          }
          if (bytes + text.length > 8_000_000) break;
          const occurredAt = /^\d{16,}$/.test(stamp) ? Number(stamp.slice(0, -6)) : undefined; // ns → ms
          events.push({ harness, idempotency_key: key, occurred_at: occurredAt, ...(project ? { project } : {}), payload });
          sent.push(name);
          bytes += text.length + 100;
        }
        if (events.length === 0) {
          emptied = true;
          break;
        }
        const status = await post('/v1/hooks/batch', JSON.stringify({ events }), {}, 20_000);
        if (status < 200 || status >= 300) break; // the service is failing: the next event tries again
        await Promise.all(sent.map((name) => rm(join(SPOOL, name), { force: true })));
      }
    } finally {
      await rm(owner, { force: true });
    }
    if (!emptied) break;
  }
  // A contender that moved our file aside just as we let go of it may have put it back.
  if ((await readFile(owner, 'utf8').catch(() => '')) === content) await rm(owner, { force: true });
}

export const MemoryBank = async ({ directory } = {}) => {
  if (!KEY) return {};
  const project = projectOf(directory).catch(() => undefined);

  // Fire and forget: nothing here is awaited by OpenCode, and nothing escapes. Stamped now, sent
  // once the project is known (events keep their order: they wait for the same promise).
  const send = (payload) => {
    try {
      const stamp = spoolStamp(); // when the event happened: its spool name, its order and its occurred_at
      const time = Date.now();
      project.then((known) => deliver({ time, directory, ...payload }, stamp, known)).catch(() => {});
    } catch {
      // never throw into OpenCode
    }
  };
  const guard = (handler) => async (...args) => {
    try {
      handler(...args);
    } catch {
      // never throw into OpenCode
    }
  };

  const argsByCall = new Map(); // callID → args (older OpenCode versions omit them from tool.execute.after)
  const textByMessage = new Map(); // messageID → Map(partID → text), until the message completes
  const done = new Map(); // assistant messages and failed tool calls already sent
  const remember = (map, key, value) => {
    map.set(key, value);
    if (map.size > 500) map.delete(map.keys().next().value);
  };

  // Recall: a prompt's recall starts with chat.message and is awaited by the next model call;
  // a session's first model call also recalls what is known about the project.
  const pendingRecall = new Map(); // sessionID → Promise<string>
  const recalled = new Map(); // sessionID → the texts recalled into it (the last RECALL_KEPT)
  const recallPrompt = (sessionID, text) => {
    if (!sessionID || !text) return;
    const earlier = pendingRecall.get(sessionID);
    const next = recall({ session_id: sessionID, trigger: 'prompt', prompt: text.slice(0, 8000), ...(directory ? { cwd: directory } : {}) }, project);
    remember(pendingRecall, sessionID, earlier ? Promise.all([earlier, next]).then((texts) => texts.filter(Boolean).join('\n\n')) : next);
  };

  return {
    'chat.message': guard((input, output) => {
      recallPrompt(input?.sessionID ?? output?.message?.sessionID, textOf(output?.parts));
      send({
        event: 'chat.message',
        sessionID: input?.sessionID ?? output?.message?.sessionID, // older releases pass only the message
        messageID: input?.messageID ?? output?.message?.id,
        agent: input?.agent,
        model: modelName(input?.model),
        text: cap(textOf(output?.parts)),
      });
    }),

    'tool.execute.before': guard((input, output) => {
      remember(argsByCall, input.callID, output?.args);
      send({ event: 'tool.execute.before', sessionID: input.sessionID, tool: input.tool, callID: input.callID, args: output?.args });
    }),

    'tool.execute.after': guard((input, output) => {
      const args = input.args ?? argsByCall.get(input.callID);
      argsByCall.delete(input.callID);
      send({
        event: 'tool.execute.after',
        sessionID: input.sessionID,
        tool: input.tool,
        callID: input.callID,
        args,
        title: output?.title,
        output: cap(output?.output),
        metadata: scalars(output?.metadata),
      });
    }),

    'experimental.chat.system.transform': async (input, output) => {
      try {
        const sessionID = input?.sessionID;
        if (!sessionID || !Array.isArray(output?.system)) return;
        const waits = [];
        if (!recalled.has(sessionID)) {
          remember(recalled, sessionID, []);
          waits.push(recall({ session_id: sessionID, trigger: 'session_start', ...(directory ? { cwd: directory } : {}) }, project));
        }
        if (pendingRecall.has(sessionID)) {
          waits.push(pendingRecall.get(sessionID));
          pendingRecall.delete(sessionID);
        }
        const texts = recalled.get(sessionID);
        for (const text of await Promise.all(waits)) if (text) texts.push(text);
        texts.splice(0, Math.max(0, texts.length - RECALL_KEPT));
        if (texts.length === 0) return;
        // Appended to the last system block rather than pushed: some backends take one system message only.
        const context = texts.join('\n\n');
        if (output.system.length === 0) output.system.push(context);
        else output.system[output.system.length - 1] += `\n\n${context}`;
      } catch {
        // never throw into OpenCode
      }
    },

    'experimental.session.compacting': guard((input) => {
      send({ event: 'experimental.session.compacting', sessionID: input.sessionID });
    }),

    event: guard(({ event }) => {
      const properties = event?.properties ?? {};
      switch (event?.type) {
        case 'session.created':
        case 'session.deleted': {
          const { id, directory: dir, title, parentID, version, time } = properties.info ?? {};
          send({ event: event.type, sessionID: id, properties: { info: { id, directory: dir, title, parentID, version, time } } });
          break;
        }
        case 'session.idle':
        case 'session.compacted':
          send({ event: event.type, sessionID: properties.sessionID, properties: { sessionID: properties.sessionID } });
          break;
        case 'session.error':
          if (properties.sessionID) send({ event: event.type, sessionID: properties.sessionID, properties });
          break;
        case 'message.part.updated': {
          const part = properties.part ?? {};
          if (part.type === 'text') {
            const texts = textByMessage.get(part.messageID) ?? new Map();
            texts.set(part.id, part.text ?? '');
            remember(textByMessage, part.messageID, texts);
          } else if (part.type === 'tool' && part.state?.status === 'error' && !done.has(part.callID)) {
            // A tool that throws never reaches tool.execute.after: its error arrives only here.
            remember(done, part.callID, true);
            const { status, input, error } = part.state;
            send({ event: event.type, sessionID: part.sessionID, properties: { part: { id: part.id, sessionID: part.sessionID, messageID: part.messageID, type: 'tool', callID: part.callID, tool: part.tool, state: { status, input, error: cap(error) } } } });
          }
          break;
        }
        case 'message.updated': {
          const info = properties.info ?? {};
          if (info.role !== 'assistant') {
            textByMessage.delete(info.id);
            break;
          }
          if (!info.time?.completed || done.has(info.id)) break;
          remember(done, info.id, true);
          const text = [...(textByMessage.get(info.id)?.values() ?? [])].filter(Boolean).join('\n');
          textByMessage.delete(info.id);
          if (text) {
            send({
              event: event.type,
              sessionID: info.sessionID,
              messageID: info.id,
              role: 'assistant',
              text: cap(text),
              model: modelName(info),
              properties: { info: { id: info.id, sessionID: info.sessionID, role: info.role, time: info.time } },
            });
          }
          break;
        }
      }
    }),
  };
};

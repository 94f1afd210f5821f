import { findLastExchange, findPreviousSessions, findSessionRecalls, type Harness, type OwnerScope } from '@memory-bank/db';
import type { Principal } from '../auth/principal';
import { AppError } from '../errors';
import { HARNESS_ADAPTERS } from '../hooks/adapters';
import { idsInRecallHead, type RecallTrigger } from '../hooks/adapters/recall';
import type { HookIngestService, HookReceipt } from './hooks';
import { AdapterError, type HookPayload } from '../hooks/types';
import type { ServiceDeps } from './deps';
import type { MemoryService } from './memory';
import { RECALL_LIMITS } from '../limits';
import { composeRecall, type LastSessionNote, type ShownMemory } from './recall-context';
import { truncateText } from '../text';

export interface RecallRequest {
  harness: Harness;
  /** The harness's own session id: the session the recall is for and recorded in. */
  sessionId: string;
  trigger: RecallTrigger;
  /** The user's prompt (trigger `prompt`). */
  prompt?: string;
  cwd?: string;
  repository?: string;
  /** At most this many characters (never more than the key's budget). */
  maxChars?: number;
}

export interface RecallResult {
  /** What to inject; '' when there is nothing new to say. */
  text: string;
  memories: ShownMemory[];
  note: LastSessionNote | null;
  budgetChars: number;
  /** Memories that matched but were already shown in this session. */
  alreadyShown: number;
  /** The ledger event holding this recall; null when nothing was injected. */
  recorded: HookReceipt | null;
}

export type RecallService = ReturnType<typeof createRecallService>;

/** Previous sessions in the same directory looked at for the "last time" note. */
const PREVIOUS_SESSIONS = 3;
/** Of the previous exchange, this much goes into the session-start query. */
const QUERY_EXCHANGE_CHARS = 300;

const SESSION_START = /^(SessionStart|session[._-]?start(ed)?|session\.created)$/i;

const lastSegment = (path: string) => path.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? '';

export function createRecallService({ db }: ServiceDeps, memory: MemoryService, hooks: HookIngestService) {
  /** The latest earlier session in `cwd` that has a prompt or a reply: the "last time" note. */
  async function lastSessionIn(scope: OwnerScope, cwd: string, current: { harness: Harness; nativeSessionId: string }): Promise<LastSessionNote | null> {
    const previous = await findPreviousSessions(db, scope, { cwd, except: current, limit: PREVIOUS_SESSIONS });
    for (const session of previous) {
      const exchange = await findLastExchange(db, scope, session.workstreamId, RECALL_LIMITS.exchangeReadChars);
      if (exchange.length === 0) continue;
      const of = (role: 'user' | 'assistant') => {
        const message = exchange.find((entry) => entry.role === role);
        return message ? message.text + (message.truncated ? '…' : '') : null;
      };
      return { workstreamId: session.workstreamId, lastEventAt: session.lastEventAt, prompt: of('user'), reply: of('assistant') };
    }
    return null;
  }

  /** What a session start is about: the repository (or directory) name and where the last session left off. */
  function projectQuery(request: RecallRequest, note: LastSessionNote | null): string {
    const parts = [request.repository, request.cwd === undefined ? undefined : lastSegment(request.cwd), note?.prompt, note?.reply];
    return parts
      .filter((part): part is string => typeof part === 'string' && part !== '')
      .map((part) => truncateText(part, QUERY_EXCHANGE_CHARS, '').text)
      .join('\n');
  }

  async function recall(principal: Principal, request: RecallRequest): Promise<RecallResult> {
    const scope = principal.scope;
    const session = { harness: request.harness, nativeSessionId: request.sessionId };
    const budgetChars = Math.min(request.maxChars ?? Number.POSITIVE_INFINITY, principal.recallBudgetChars ?? RECALL_LIMITS.defaultBudgetChars);
    const search = (query: string, already: number) =>
      query.trim() === '' ? Promise.resolve([]) : memory.search(principal, { query, limit: Math.min(RECALL_LIMITS.searchLimit, RECALL_LIMITS.candidates + already) });

    // The session's past recalls decide what is new; a prompt's search does not wait for
    // them, nor does a session start's look at the previous session (the note, said once
    // per session, with its first recall — which a session start almost always is).
    const cwd = request.cwd;
    const [recalls, promptMatches, lastTime] = await Promise.all([
      findSessionRecalls(db, scope, session),
      request.trigger === 'prompt' ? search(request.prompt ?? '', RECALL_LIMITS.searchLimit) : null,
      request.trigger === 'session_start' && cwd ? lastSessionIn(scope, cwd, session) : null,
    ]);
    const shown = new Set(recalls.heads.flatMap(idsInRecallHead));
    const firstRecall = recalls.heads.length === 0;
    const previous = request.trigger === 'session_start' ? lastTime : firstRecall && cwd ? await lastSessionIn(scope, cwd, session) : null;
    const note = firstRecall ? previous : null;
    // A session start searches for the project, and for where the last session there left off.
    const matches = promptMatches ?? (await search(projectQuery(request, previous), shown.size));
    const fresh = matches.filter((match) => !shown.has(match.id));
    const composed = composeRecall(fresh.slice(0, RECALL_LIMITS.candidates), note, budgetChars);
    const result = { memories: composed.memories, note: composed.note, budgetChars, alreadyShown: matches.length - fresh.length };
    if (composed.text === '') return { ...result, text: '', recorded: null };
    const { receipt, stored } = await hooks.recordRecall(principal, { ...session, ...(request.cwd ? { cwd: request.cwd } : {}) }, {
      trigger: request.trigger,
      memory_ids: composed.memories.map((shownMemory) => shownMemory.id),
      text: composed.text,
    });
    return { ...result, text: stored.text, recorded: receipt };
  }

  return {
    recall,

    /**
     * A recall for a hook payload as the harness gives it to a hook command (SessionStart,
     * UserPromptSubmit, …): null for an event that is not a moment to recall.
     */
    async recallForHook(principal: Principal, harness: Harness, payload: HookPayload): Promise<{ eventName: string; result: RecallResult } | null> {
      let adapted;
      try {
        adapted = HARNESS_ADAPTERS[harness](payload);
      } catch (error) {
        if (!(error instanceof AdapterError)) throw error;
        throw new AppError('validation_failed', `Not a ${harness} hook payload: ${error.message}`, { errors: [{ path: error.field, message: error.message }] });
      }
      const isPrompt = adapted.kind === 'message' && adapted.role === 'user' && adapted.content.trim() !== '';
      if (!isPrompt && !SESSION_START.test(adapted.eventName)) return null;
      const result = await recall(principal, {
        harness,
        sessionId: adapted.nativeSessionId,
        trigger: isPrompt ? 'prompt' : 'session_start',
        ...(isPrompt ? { prompt: truncateText(adapted.content, RECALL_LIMITS.promptChars, '').text } : {}),
        ...(adapted.session.cwd ? { cwd: adapted.session.cwd } : {}),
      });
      return { eventName: adapted.eventName, result };
    },
  };
}

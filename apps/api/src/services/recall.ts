import { findLastExchange, findPinnedMemories, findPreviousSessions, findSessionRecalls, type Harness, type OwnerScope } from '@memory-bank/db';
import type { Principal } from '../auth/principal';
import { AppError } from '../errors';
import { HARNESS_ADAPTERS } from '../hooks/adapters';
import { idsInRecallHead, type RecallTrigger } from '../hooks/adapters/recall';
import { projectDirectory } from '../hooks/adapters/shared';
import { repositoryOfProject } from '../hooks/project';
import { RECALL_SHAPES } from '../hooks/recall-outputs';
import type { HookIngestService, HookReceipt } from './hooks';
import { AdapterError, type HookPayload } from '../hooks/types';
import type { ServiceDeps } from './deps';
import type { MemoryService } from './memory';
import type { MemoryUseService } from './memory-use';
import { RECALL_LIMITS } from '../limits';
import { composeRecall, type LastSessionNote, type RecallCandidate, type ShownMemory } from './recall-context';
import { rankForRecall } from './recall-ranking';
import { truncateText } from '../text';

export interface RecallRequest {
  harness: Harness;
  /** The harness's own session id: the session the recall is for and recorded in. */
  sessionId: string;
  trigger: RecallTrigger;
  /** The user's prompt (trigger `prompt`). */
  prompt?: string;
  cwd?: string;
  /** The client's project (hooks/project.ts); without it, `cwd` is the project. */
  project?: string;
  repository?: string;
  /** At most this many characters (never more than the key's budget). */
  maxChars?: number;
  /**
   * A prompt that, when it is the session's first recall, also brings what a session start
   * would — the pinned memories (the note comes with any first recall): for harnesses that
   * ignore session-start output (Kimi).
   */
  opensSession?: boolean;
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

/** Previous sessions of the same project looked at for the "last time" note. */
const PREVIOUS_SESSIONS = 3;
/** Of the previous exchange, this much goes into the session-start query. */
const QUERY_EXCHANGE_CHARS = 300;

const lastSegment = (path: string) => path.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? '';

export function createRecallService(
  { db, clock }: ServiceDeps,
  { memory, hooks, memoryUse }: { memory: MemoryService; hooks: HookIngestService; memoryUse: MemoryUseService },
) {
  /** The latest earlier session of `project` that has a prompt or a reply: the "last time" note. */
  async function lastSessionIn(scope: OwnerScope, project: string, current: { harness: Harness; nativeSessionId: string }): Promise<LastSessionNote | null> {
    const previous = await findPreviousSessions(db, scope, { project, except: current, limit: PREVIOUS_SESSIONS });
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

  /** What a session start is about: the repository's and the directory's names and where the last session left off. */
  function projectQuery(request: RecallRequest, project: string | undefined, note: LastSessionNote | null): string {
    const names = [request.repository, project === undefined ? undefined : repositoryOfProject(project), request.cwd === undefined ? undefined : lastSegment(request.cwd)];
    const parts = [...new Set(names), note?.prompt, note?.reply];
    return parts
      .filter((part): part is string => typeof part === 'string' && part !== '')
      .map((part) => truncateText(part, QUERY_EXCHANGE_CHARS, '').text)
      .join('\n');
  }

  async function recall(principal: Principal, request: RecallRequest): Promise<RecallResult> {
    const scope = principal.scope;
    const session = { harness: request.harness, nativeSessionId: request.sessionId };
    const budgetChars = Math.min(request.maxChars ?? Number.POSITIVE_INFINITY, principal.recallBudgetChars ?? RECALL_LIMITS.defaultBudgetChars);
    // The search reads the whole pool the ranking reorders, not only the best few by
    // relevance (docs/hooks.md#recall-ranking-and-pins).
    const search = async (query: string) => (query.trim() === '' ? [] : (await memory.search(principal, { query, limit: RECALL_LIMITS.searchLimit })).results);
    const now = clock.now();
    const sessionStart = request.trigger === 'session_start';
    const mayOpen = sessionStart || request.opensSession === true;
    // Every harness's directory spelled the same way, as the adapters store it.
    const cwd = request.cwd === undefined ? undefined : projectDirectory(request.cwd);
    // The same key the session's hook events are stored under (hooks.projectOf).
    const project = hooks.projectOf(request.project, cwd);

    // The session's past recalls decide what is new; a prompt's search does not wait for
    // them, nor does a session start's look at the previous session (the note, said once
    // per session, with its first recall — which a session start almost always is) or
    // at the person's pinned memories.
    const [recalls, promptMatches, lastTime, pinnedNow] = await Promise.all([
      findSessionRecalls(db, scope, session),
      sessionStart ? null : search(request.prompt ?? ''),
      sessionStart && project ? lastSessionIn(scope, project, session) : null,
      mayOpen ? findPinnedMemories(db, scope, { now, limit: RECALL_LIMITS.pinned }) : [],
    ]);
    const shown = new Set(recalls.heads.flatMap(idsInRecallHead));
    const firstRecall = recalls.heads.length === 0;
    // A prompt opening the session brings the pins only as the session's first recall.
    const pinned = sessionStart || firstRecall ? pinnedNow : [];
    const previous = sessionStart ? lastTime : firstRecall && project ? await lastSessionIn(scope, project, session) : null;
    const note = firstRecall ? previous : null;
    // A session start searches for the project, and for where the last session there left off.
    const matches = promptMatches ?? (await search(projectQuery(request, project, previous)));
    // Pinned memories first (at session start), then the matches by relevance, freshness and use.
    const pins = new Set(pinned.map((pin) => pin.id));
    const ranked = rankForRecall(matches.filter((match) => !pins.has(match.id)), now);
    const relevance = new Map(matches.map((match) => [match.id, match.score]));
    const candidates: RecallCandidate[] = [
      ...pinned.map((pin) => ({ ...pin, score: relevance.get(pin.id) ?? 0, pinned: true })),
      ...ranked.map((match) => ({ id: match.id, scope: match.scope, content: match.content, score: match.score, pinned: match.pinned })),
    ];
    const fresh = candidates.filter((candidate) => !shown.has(candidate.id));
    const freshPins = pinned.filter((pin) => !shown.has(pin.id)).length;
    const composed = composeRecall(fresh.slice(0, freshPins + RECALL_LIMITS.candidates), note, budgetChars);
    const result = { memories: composed.memories, note: composed.note, budgetChars, alreadyShown: candidates.length - fresh.length };
    if (composed.text === '') return { ...result, text: '', recorded: null };
    const { receipt, stored } = await hooks.recordRecall(principal, { ...session, ...(cwd ? { cwd } : {}), ...(project ? { project } : {}) }, {
      trigger: request.trigger,
      memory_ids: composed.memories.map((shownMemory) => shownMemory.id),
      text: composed.text,
    });
    // What the agent was given counts as used (written in the background, best effort).
    memoryUse.record(principal, composed.memories.map((shownMemory) => shownMemory.id));
    return { ...result, text: stored.text, recorded: receipt };
  }

  return {
    recall,

    /**
     * A recall for a hook payload as the harness gives it to a hook command (SessionStart,
     * UserPromptSubmit, …) and the client's project: null for an event that is not a moment to recall.
     */
    async recallForHook(
      principal: Principal,
      harness: Harness,
      payload: HookPayload,
      project?: string,
    ): Promise<{ eventName: string; result: RecallResult } | null> {
      let adapted;
      try {
        adapted = HARNESS_ADAPTERS[harness](payload);
      } catch (error) {
        if (!(error instanceof AdapterError)) throw error;
        throw new AppError('validation_failed', `Not a ${harness} hook payload: ${error.message}`, { errors: [{ path: error.field, message: error.message }] });
      }
      const shape = RECALL_SHAPES[harness];
      const trigger = shape.triggerOf(adapted);
      if (trigger === null) return null;
      const result = await recall(principal, {
        harness,
        sessionId: adapted.nativeSessionId,
        trigger,
        ...(trigger === 'prompt' ? { prompt: truncateText(adapted.content, RECALL_LIMITS.promptChars, '').text, opensSession: shape.opensOnFirstPrompt } : {}),
        ...(adapted.session.cwd ? { cwd: adapted.session.cwd } : {}),
        ...(project !== undefined ? { project } : {}),
      });
      return { eventName: adapted.eventName, result };
    },
  };
}

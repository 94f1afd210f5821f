/**
 * Where each harness takes recalled context from a hook, and in what shape it wants it
 * (docs/hooks.md#recall). `POST /v1/hooks/{harness}/recall` runs one recall for the events
 * named here and answers what the hook command prints; every other event answers the
 * harness's "nothing to add". Pure.
 */
import type { RecallTrigger } from './adapters/recall';
import type { AdaptedEvent, Harness } from './types';

/** The JSON a hook prints: one harness's field, or none (`{}`: nothing to add). */
export interface HookRecallJson {
  hookSpecificOutput?: { hookEventName: string; additionalContext: string };
  additional_context?: string;
  contextModification?: string;
}

/** What the hook prints: a JSON object, or (Kimi) the context as plain text. */
export type HookRecallOutput = { json: HookRecallJson } | { text: string };

export interface HarnessRecallShape {
  /** The recall an event stands for, where the harness reads this hook's output; null where it does not. */
  triggerOf(event: AdaptedEvent): RecallTrigger | null;
  /**
   * The harness ignores what a session-start hook prints (Kimi): a session's first recall,
   * on its first prompt, also brings what a session start would (pinned memories, the
   * "last time in this project" note).
   */
  opensOnFirstPrompt: boolean;
  /** The output for `context`; '' is "nothing to add". */
  render(eventName: string, context: string): HookRecallOutput;
}

const isPrompt = (event: AdaptedEvent) => event.kind === 'message' && event.role === 'user' && event.content.trim() !== '';

/** Recall on the events named, each as the trigger given (a prompt only when it has text). */
function onEvents(triggers: Record<string, RecallTrigger>): HarnessRecallShape['triggerOf'] {
  return (event) => {
    const trigger = triggers[event.eventName];
    if (trigger === undefined) return null;
    return trigger === 'prompt' && !isPrompt(event) ? null : trigger;
  };
}

/** Claude Code's output, which Codex, Gemini CLI and Factory Droid read the same way: `{}` for nothing. */
const hookSpecificOutput = (eventName: string, context: string): HookRecallOutput =>
  context === '' ? { json: {} } : { json: { hookSpecificOutput: { hookEventName: eventName, additionalContext: context } } };

const CLAUDE_SHAPED: HarnessRecallShape = {
  triggerOf: onEvents({ SessionStart: 'session_start', UserPromptSubmit: 'prompt' }),
  opensOnFirstPrompt: false,
  render: hookSpecificOutput,
};

const SESSION_START = /^(SessionStart|session[._-]?start(ed)?|session\.created)$/i;

/** Plugins and scripts that call this route with their own events (OpenCode, Kilo, generic): any prompt, any session start. */
const ANY_HARNESS: HarnessRecallShape = {
  triggerOf: (event) => (isPrompt(event) ? 'prompt' : SESSION_START.test(event.eventName) ? 'session_start' : null),
  opensOnFirstPrompt: false,
  render: hookSpecificOutput,
};

export const RECALL_SHAPES: Record<Harness, HarnessRecallShape> = {
  'claude-code': CLAUDE_SHAPED,
  codex: CLAUDE_SHAPED,
  factory: CLAUDE_SHAPED,
  opencode: ANY_HARNESS,
  kilo: ANY_HARNESS,
  generic: ANY_HARNESS,
  // SessionStart's additionalContext opens the conversation; BeforeAgent's is appended to the prompt.
  'gemini-cli': { triggerOf: onEvents({ SessionStart: 'session_start', BeforeAgent: 'prompt' }), opensOnFirstPrompt: false, render: hookSpecificOutput },
  // Only sessionStart can add context; beforeSubmitPrompt can only allow or block.
  cursor: {
    triggerOf: onEvents({ sessionStart: 'session_start' }),
    opensOnFirstPrompt: false,
    render: (_eventName, context) => ({ json: context === '' ? {} : { additional_context: context } }),
  },
  cline: {
    triggerOf: onEvents({ TaskStart: 'session_start', TaskResume: 'session_start', UserPromptSubmit: 'prompt' }),
    opensOnFirstPrompt: false,
    render: (_eventName, context) => ({ json: context === '' ? {} : { contextModification: context } }),
  },
  // UserPromptSubmit's stdout is added to the context as it is; SessionStart's is ignored.
  kimi: { triggerOf: onEvents({ UserPromptSubmit: 'prompt' }), opensOnFirstPrompt: true, render: (_eventName, context) => ({ text: context }) },
  // Copilot CLI does not read sessionStart's or userPromptSubmitted's output: capture only.
  copilot: { triggerOf: () => null, opensOnFirstPrompt: false, render: () => ({ json: {} }) },
};

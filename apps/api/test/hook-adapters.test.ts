import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HARNESS_ADAPTERS } from '../src/hooks/adapters';
import { canonicalJson, capText, parseTimestamp, renderToolInput, renderToolOutput } from '../src/hooks/adapters/text';
import { AdapterError, HARNESSES, type AdaptedEvent, type Harness, type HookPayload } from '../src/hooks/types';

const FIXTURES = new URL('./fixtures/hooks/', import.meta.url);

function fixture(harness: Harness, name: string): HookPayload {
  return JSON.parse(readFileSync(new URL(`${harness}/${name}.json`, FIXTURES), 'utf8')) as HookPayload;
}

function adapt(harness: Harness, payload: HookPayload): AdaptedEvent {
  return HARNESS_ADAPTERS[harness](payload);
}

/** The payload with every object's keys in sorted order (as a canonical-JSON archive would store it). */
function resorted(payload: HookPayload): HookPayload {
  return JSON.parse(canonicalJson(payload)) as HookPayload;
}

interface Expectation {
  kind: AdaptedEvent['kind'];
  role: AdaptedEvent['role'];
  lifecycleOnly: boolean;
  contains?: string[];
  content?: string;
  toolName?: string | null;
  toolUseId?: string | null;
  naturalKey?: string | null;
  outcome?: AdaptedEvent['outcome'];
  endsSession?: boolean;
  occurredAt?: string | null;
  session?: AdaptedEvent['session'];
}

const CLAUDE_SESSION = '8f2c1d4e-5b6a-4c3d-9e8f-0a1b2c3d4e5f';
const CLAUDE_FACTS = {
  cwd: '/home/ana/shop',
  transcriptPath: `/home/ana/.claude/projects/-home-ana-shop/${CLAUDE_SESSION}.jsonl`,
};

/** The prompt and the reply of the session the newer harnesses' fixtures describe. */
const SHARED_PROMPT = "The checkout test fails with 'Cannot find module express'. Can you fix it?";
const PROMPT_MESSAGE: Expectation = { kind: 'message', role: 'user', lifecycleOnly: false, content: SHARED_PROMPT };
const REPLY_MESSAGE: Expectation = { kind: 'message', role: 'assistant', lifecycleOnly: false, content: 'Fixed: express was missing from package.json. I added it and the checkout tests pass now.' };
const ended = (reason: string): Expectation => ({ kind: 'lifecycle', role: 'system', lifecycleOnly: true, content: `Session ended (${reason})`, endsSession: true });

const EXPECTED: Record<Harness, Record<string, Expectation>> = {
  'claude-code': {
    'session-start': {
      kind: 'lifecycle',
      role: 'system',
      lifecycleOnly: true,
      content: 'Session started (startup, claude-sonnet-4-5-20250929)',
      session: { ...CLAUDE_FACTS, model: 'claude-sonnet-4-5-20250929' },
    },
    'user-prompt-submit': {
      kind: 'message',
      role: 'user',
      lifecycleOnly: false,
      content: "The checkout test fails with 'Cannot find module express'. Can you fix it?",
      naturalKey: null,
      session: CLAUDE_FACTS,
    },
    'pre-tool-use-bash': {
      kind: 'tool_call',
      role: 'assistant',
      lifecycleOnly: true,
      content: 'Bash: npm test -- checkout\ndescription: Run the checkout tests\ntimeout: 120000',
      toolName: 'Bash',
      toolUseId: 'toolu_01A9XqkJ7bM3mZ2vP4rT8sLd',
      naturalKey: 'PreToolUse:toolu_01A9XqkJ7bM3mZ2vP4rT8sLd',
      outcome: null,
    },
    'post-tool-use-bash': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      contains: ['Bash: npm test -- checkout\n', '→ PASS test/checkout.test.js', 'Tests: 1 passed', 'stderr: npm warn deprecated'],
      toolName: 'Bash',
      toolUseId: 'toolu_01A9XqkJ7bM3mZ2vP4rT8sLd',
      naturalKey: 'PostToolUse:toolu_01A9XqkJ7bM3mZ2vP4rT8sLd',
      outcome: 'success',
    },
    'post-tool-use-failure': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      contains: ['Bash: node test/checkout.test.js', "✗ Exit code 1\nError: Cannot find module 'express'"],
      toolUseId: 'toolu_01Fq2WcN5yZ8kR1tB6vH3jMp',
      naturalKey: 'PostToolUseFailure:toolu_01Fq2WcN5yZ8kR1tB6vH3jMp',
      outcome: 'error',
    },
    'post-tool-use-edit': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      contains: ['Edit: /home/ana/shop/package.json\n', 'new_string: "dependencies": {\n    "express": "^4.21.2",', 'old_string: "dependencies": {', '→ {"filePath":"/home/ana/shop/package.json","success":true}'],
      toolName: 'Edit',
      outcome: 'success',
    },
    'post-tool-use-mcp': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      content: 'mcp__github__search_issues: repo:ana/shop checkout express\n→ #42 Checkout crashes without express (open)\n#17 Pin express version (closed)',
      toolName: 'mcp__github__search_issues',
      outcome: 'success',
    },
    'permission-request': {
      kind: 'lifecycle',
      role: 'system',
      lifecycleOnly: true,
      contains: ['Permission requested: Bash: rm -rf node_modules'],
      toolName: 'Bash',
      toolUseId: null,
      naturalKey: null,
    },
    notification: {
      kind: 'annotation',
      role: 'system',
      lifecycleOnly: false,
      content: 'Permission needed: Claude needs your permission to use Bash (permission_prompt)',
    },
    'pre-compact': {
      kind: 'compaction',
      role: 'system',
      lifecycleOnly: true,
      content: 'Compacting context (manual): Keep the list of failing tests',
    },
    'post-compact': {
      kind: 'compaction',
      role: 'system',
      lifecycleOnly: false,
      contains: ['express was missing from package.json'],
    },
    stop: {
      kind: 'message',
      role: 'assistant',
      lifecycleOnly: false,
      content: 'Fixed: express was missing from package.json. I added it and the checkout tests pass now.',
      endsSession: false,
    },
    'stop-without-message': { kind: 'checkpoint', role: 'system', lifecycleOnly: true, content: '' },
    'subagent-start': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, content: 'Subagent Explore started' },
    'subagent-stop': {
      kind: 'message',
      role: 'assistant',
      lifecycleOnly: false,
      content: '[Explore] server.js requires express; it is not listed in package.json.',
    },
    'session-end': {
      kind: 'lifecycle',
      role: 'system',
      lifecycleOnly: true,
      content: 'Session ended (prompt_input_exit)',
      endsSession: true,
    },
    'unknown-task-completed': {
      kind: 'lifecycle',
      role: 'system',
      lifecycleOnly: true,
      content: 'task_description: checkout imports express\ntask_id: task-001\ntask_subject: Add express to dependencies',
      endsSession: false,
    },
  },
  codex: {
    'notify-agent-turn-complete': {
      kind: 'message',
      role: 'assistant',
      lifecycleOnly: false,
      content:
        'Renamed `totalPrice` to `cartTotal` in 4 files; `npm test` passes.\n\n[in reply to]\nRename `totalPrice` to `cartTotal` and update the callsites.',
      naturalKey: null,
      session: { cwd: '/home/ana/shop' },
    },
    'hook-session-start': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, contains: ['Session started (startup, gpt-5-codex)'] },
    'hook-user-prompt-submit': {
      kind: 'message',
      role: 'user',
      lifecycleOnly: false,
      content: 'Rename totalPrice to cartTotal and update the callsites.',
    },
    'hook-pre-tool-use': {
      kind: 'tool_call',
      role: 'assistant',
      lifecycleOnly: true,
      content: 'Bash: rg -n totalPrice src',
      toolUseId: 'call_Q7m2xR9vT4bN1kL8',
      naturalKey: 'PreToolUse:call_Q7m2xR9vT4bN1kL8',
    },
    'hook-post-tool-use': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      contains: ['Bash: rg -n totalPrice src\n→ src/cart.js:12:export function totalPrice(items) {'],
      naturalKey: 'PostToolUse:call_Q7m2xR9vT4bN1kL8',
      outcome: 'success',
    },
    'hook-post-tool-use-apply-patch': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      contains: ['apply_patch: *** Begin Patch\n*** Update File: src/cart.js', '→ Success. Updated the following files:'],
      toolName: 'apply_patch',
    },
    'hook-permission-request': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, contains: ['Permission requested: Bash: npm install'] },
    'hook-post-compact': { kind: 'compaction', role: 'system', lifecycleOnly: false, content: 'Context compacted (auto)' },
    'hook-stop': {
      kind: 'message',
      role: 'assistant',
      lifecycleOnly: false,
      content: 'Renamed totalPrice to cartTotal in 4 files; npm test passes.',
      session: {
        cwd: '/home/ana/shop',
        transcriptPath:
          '/home/ana/.codex/sessions/2025/10/02/rollout-2025-10-02T10-15-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl',
        model: 'gpt-5-codex',
      },
    },
    'hook-session-end': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, endsSession: true },
  },
  opencode: {
    'chat-message': {
      kind: 'message',
      role: 'user',
      lifecycleOnly: false,
      content: 'Why does the checkout page render twice?',
      occurredAt: '2025-10-02T10:15:00.000Z',
      session: { cwd: '/home/ana/shop', model: 'anthropic/claude-sonnet-4-5' },
    },
    'tool-execute-before': {
      kind: 'tool_call',
      role: 'assistant',
      lifecycleOnly: true,
      content: 'grep: useEffect\ninclude: *.tsx\npath: src/pages',
      toolName: 'grep',
      toolUseId: 'toolu_01RbH4kS8dW2nJ6pL9xC3vQe',
      naturalKey: 'tool.execute.before:toolu_01RbH4kS8dW2nJ6pL9xC3vQe',
    },
    'tool-execute-after': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      contains: ['grep: useEffect\n', '→ Found 2 matches\nsrc/pages/Checkout.tsx:'],
      toolUseId: 'toolu_01RbH4kS8dW2nJ6pL9xC3vQe',
      naturalKey: 'tool.execute.after:toolu_01RbH4kS8dW2nJ6pL9xC3vQe',
      outcome: 'success',
      occurredAt: '2025-10-02T10:15:02.350Z',
    },
    'tool-execute-after-exit-1': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      contains: ['bash: npm run typecheck', '✗ exit 2\nsrc/pages/Checkout.tsx(14,3): error TS2345'],
      outcome: 'error',
      occurredAt: '2025-10-02T10:15:04.120Z',
    },
    'message-part-updated-tool-error': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      content: 'read: /home/ana/shop/src/pages/Cart.tsx\n✗ File not found: /home/ana/shop/src/pages/Cart.tsx',
      toolName: 'read',
      toolUseId: 'toolu_01Wd3Gh7Jk2Lm9Np4Qr6St8U',
      outcome: 'error',
    },
    'message-updated-assistant': {
      kind: 'message',
      role: 'assistant',
      lifecycleOnly: false,
      contains: ['no dependency array'],
    },
    'session-created': {
      kind: 'lifecycle',
      role: 'system',
      lifecycleOnly: true,
      contains: ['Session created'],
      session: { cwd: '/home/ana/shop' },
    },
    'session-idle': { kind: 'checkpoint', role: 'system', lifecycleOnly: true, endsSession: false },
    'session-compacted': { kind: 'compaction', role: 'system', lifecycleOnly: false, content: 'Context compacted' },
    'session-error': { kind: 'annotation', role: 'system', lifecycleOnly: false, content: 'Session error: ProviderAuthError: Invalid API key' },
    'session-deleted': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, endsSession: true },
    'raw-bus-event': { kind: 'checkpoint', role: 'system', lifecycleOnly: true, occurredAt: null },
  },
  generic: {
    prompt: {
      kind: 'message',
      role: 'user',
      lifecycleOnly: false,
      content: 'Add a coupon field to the checkout form',
      occurredAt: '2025-10-02T10:20:00.000Z',
      session: { cwd: '/home/ana/shop', model: 'gpt-4.1' },
    },
    'tool-result': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      content: 'shell: pytest -q\n→ 3 passed in 0.41s',
      toolUseId: 'run-3',
      naturalKey: 'shell:run-3',
      outcome: 'success',
      occurredAt: '2025-10-02T10:21:00.000Z',
    },
    'tool-error': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      content: 'shell: pytest -q tests/test_coupon.py\n✗ 1 failed: test_coupon_applies_discount',
      outcome: 'error',
      occurredAt: '2025-10-02T10:21:10.123Z',
    },
    note: { kind: 'annotation', role: 'system', lifecycleOnly: false, content: 'Switched model to gpt-4.1 for the refactor' },
    'session-end': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, endsSession: true, occurredAt: null },
  },  'gemini-cli': {
    'session-start': {
      kind: 'lifecycle',
      role: 'system',
      lifecycleOnly: true,
      content: 'Session started (startup)',
      occurredAt: '2025-10-02T10:15:00.120Z',
      session: { cwd: '/home/ana/shop', transcriptPath: '/home/ana/.gemini/tmp/9d2c6f0e5b4a/chats/session-2025-10-02T10-15-3b8f6e1a.json' },
    },
    'before-agent': { kind: 'message', role: 'user', lifecycleOnly: false, content: SHARED_PROMPT, naturalKey: null },
    'before-tool': {
      kind: 'tool_call',
      role: 'assistant',
      lifecycleOnly: true,
      content: 'run_shell_command: npm test -- checkout\ndescription: Run the checkout tests',
      toolName: 'run_shell_command',
      naturalKey: null,
    },
    'after-tool': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      contains: ['run_shell_command: npm test -- checkout\n', "→ Command: npm test -- checkout\nStdout: FAIL test/checkout.test.js\nError: Cannot find module 'express'"],
      outcome: 'success',
      naturalKey: null,
    },
    'after-tool-error': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      content: 'read_file: /home/ana/shop/src/server.ts\n✗ File not found: /home/ana/shop/src/server.ts',
      outcome: 'error',
    },
    'after-agent': REPLY_MESSAGE,
    notification: { kind: 'annotation', role: 'system', lifecycleOnly: false, content: 'Gemini CLI wants to run: npm install express (ToolPermission)' },
    'pre-compress': { kind: 'compaction', role: 'system', lifecycleOnly: true, content: 'Compressing context (auto)' },
    'session-end': ended('exit'),
    'unknown-before-tool-selection': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, contains: ['llm_request: {"config":{"temperature":0}'] },
  },
  cursor: {
    'session-start': {
      kind: 'lifecycle',
      role: 'system',
      lifecycleOnly: true,
      content: 'Session started (agent)',
      occurredAt: null,
      session: {
        cwd: '/home/ana/shop',
        transcriptPath: '/home/ana/.cursor/projects/home-ana-shop/agent-transcripts/c2f7a9d1-6e3b-4a58-9f0c-1d2e3b4a5c6d.txt',
        model: 'claude-4.5-sonnet',
      },
    },
    'before-submit-prompt': PROMPT_MESSAGE,
    'before-shell-execution': { kind: 'tool_call', role: 'assistant', lifecycleOnly: true, content: 'Shell: npm test -- checkout\ncwd: /home/ana/shop', toolName: 'Shell', naturalKey: null },
    'after-shell-execution': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      content: "Shell: npm test -- checkout\n→ FAIL test/checkout.test.js\nError: Cannot find module 'express'",
      toolName: 'Shell',
      outcome: 'success',
      naturalKey: null,
    },
    'before-mcp-execution': { kind: 'tool_call', role: 'assistant', lifecycleOnly: true, content: 'search_issues: repo:ana/shop checkout express', toolName: 'search_issues' },
    'after-mcp-execution': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      content: 'search_issues: repo:ana/shop checkout express\n→ #42 Checkout crashes without express (open)',
      outcome: 'success',
    },
    'before-read-file': { kind: 'tool_call', role: 'assistant', lifecycleOnly: true, content: 'Read: /home/ana/shop/package.json', toolName: 'Read', toolUseId: null },
    'after-file-edit': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      contains: ['Edit: /home/ana/shop/package.json\n', '\\"express\\": \\"^4.21.2\\"', '→ edited'],
      toolName: 'Edit',
      outcome: 'success',
    },
    'pre-tool-use': {
      kind: 'tool_call',
      role: 'assistant',
      lifecycleOnly: true,
      content: 'Shell: npm install\nworking_directory: /home/ana/shop',
      toolUseId: 'toolu_01Cx7Hq2Lm9Rt4Vw8Yz3Bn6K',
      naturalKey: 'preToolUse:toolu_01Cx7Hq2Lm9Rt4Vw8Yz3Bn6K',
    },
    'post-tool-use': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      contains: ['Shell: npm install\n', '→ added 64 packages in 3s'],
      toolUseId: 'toolu_01Cx7Hq2Lm9Rt4Vw8Yz3Bn6K',
      naturalKey: 'postToolUse:toolu_01Cx7Hq2Lm9Rt4Vw8Yz3Bn6K',
      outcome: 'success',
    },
    'after-agent-response': REPLY_MESSAGE,
    stop: { kind: 'checkpoint', role: 'system', lifecycleOnly: true, content: 'Turn ended (completed)' },
    'session-end': ended('user_close'),
    'unknown-after-tab-file-edit': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, contains: ['file_path: /home/ana/shop/src/cart.js'] },
  },
  cline: {
    'task-start': {
      kind: 'lifecycle',
      role: 'system',
      lifecycleOnly: true,
      content: `Task started: ${SHARED_PROMPT}`,
      occurredAt: '2025-10-02T10:15:00.000Z',
      session: { cwd: '/home/ana/shop', model: 'anthropic/claude-sonnet-4-5' },
    },
    'user-prompt-submit': PROMPT_MESSAGE,
    'pre-tool-use': {
      kind: 'tool_call',
      role: 'assistant',
      lifecycleOnly: true,
      content: 'execute_command: npm test -- checkout\nrequires_approval: false',
      toolName: 'execute_command',
      naturalKey: null,
    },
    'post-tool-use': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      contains: ['execute_command: npm test -- checkout\n', "→ FAIL test/checkout.test.js\nError: Cannot find module 'express'"],
      outcome: 'success',
    },
    'post-tool-use-failed': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      content: 'read_file: src/server.ts\n✗ Error reading file: ENOENT: no such file or directory',
      outcome: 'error',
    },
    'task-resume': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, content: 'Task resumed' },
    'pre-compact': { kind: 'compaction', role: 'system', lifecycleOnly: true, content: 'Compacting context (auto-condense)' },
    'task-complete': REPLY_MESSAGE,
    'task-cancel': { kind: 'checkpoint', role: 'system', lifecycleOnly: true, content: 'Task cancelled' },
    'unknown-notification-hook': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, content: 'errorType: api_error\nmessage: 429 rate limited' },
  },
  kimi: {
    'session-start': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, content: 'Session started (startup)', occurredAt: null, session: { cwd: '/home/ana/shop' } },
    'user-prompt-submit': PROMPT_MESSAGE,
    'pre-tool-use': {
      kind: 'tool_call',
      role: 'assistant',
      lifecycleOnly: true,
      content: 'Shell: npm test -- checkout',
      toolUseId: 'tool_3kQ9xV2mZ7pL4rT8',
      naturalKey: 'PreToolUse:tool_3kQ9xV2mZ7pL4rT8',
    },
    'post-tool-use': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      content: "Shell: npm test -- checkout\n→ FAIL test/checkout.test.js\nError: Cannot find module 'express'",
      toolUseId: 'tool_3kQ9xV2mZ7pL4rT8',
      naturalKey: 'PostToolUse:tool_3kQ9xV2mZ7pL4rT8',
      outcome: 'success',
    },
    'post-tool-use-failure': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      content: 'ReadFile: src/server.ts\n✗ File not found: src/server.ts',
      toolUseId: 'tool_8nB2cW5yH1jK6sD3',
      outcome: 'error',
    },
    stop: { kind: 'checkpoint', role: 'system', lifecycleOnly: true, content: '' },
    'stop-failure': { kind: 'annotation', role: 'system', lifecycleOnly: false, content: 'Turn failed: rate_limit — 429: too many requests' },
    'subagent-start': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, content: 'Subagent coder started' },
    'subagent-stop': { kind: 'message', role: 'assistant', lifecycleOnly: false, content: '[coder] express ^4.21.2 added to dependencies.' },
    'pre-compact': { kind: 'compaction', role: 'system', lifecycleOnly: true, content: 'Compacting context (auto)' },
    'post-compact': { kind: 'compaction', role: 'system', lifecycleOnly: false, content: 'Context compacted (auto)' },
    notification: { kind: 'annotation', role: 'system', lifecycleOnly: false, content: 'Approval needed: Kimi wants to run: npm install express (permission_prompt)' },
    'session-end': ended('exit'),
    'unknown-future-event': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, content: 'task_id: t-7\ntitle: Add express to dependencies' },
  },
  factory: {
    'session-start': {
      kind: 'lifecycle',
      role: 'system',
      lifecycleOnly: true,
      content: 'Session started (startup)',
      session: { cwd: '/home/ana/shop', transcriptPath: '/home/ana/.factory/sessions/-home-ana-shop/9a4e2c7b-1d3f-4e8a-b6c5-2f7e9d0a1b3c.jsonl' },
    },
    'user-prompt-submit': PROMPT_MESSAGE,
    'pre-tool-use': { kind: 'tool_call', role: 'assistant', lifecycleOnly: true, content: 'Execute: npm test -- checkout\nriskLevel: low', toolName: 'Execute', naturalKey: null },
    'post-tool-use': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      contains: ['Execute: npm test -- checkout\n', "→ FAIL test/checkout.test.js\nError: Cannot find module 'express'"],
      outcome: 'success',
      naturalKey: null,
    },
    notification: { kind: 'annotation', role: 'system', lifecycleOnly: false, content: 'Droid needs your permission to use Execute' },
    'pre-compact': { kind: 'compaction', role: 'system', lifecycleOnly: true, content: 'Compacting context (manual): Keep the list of failing tests' },
    stop: { kind: 'checkpoint', role: 'system', lifecycleOnly: true, content: '' },
    'subagent-stop': { kind: 'checkpoint', role: 'system', lifecycleOnly: true, content: 'Subagent subagent finished' },
    'session-end': ended('prompt_input_exit'),
    'unknown-future-event': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, content: 'task_id: task-001\ntask_subject: Add express to dependencies' },
  },
  kilo: {
    'session-created': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, content: 'Session created: New session', session: { cwd: '/home/ana/shop' } },
    // The OpenCode plugin's payloads, under Kilo's name.
    'chat-message': { ...PROMPT_MESSAGE, occurredAt: '2025-10-02T10:15:00.000Z', session: { cwd: '/home/ana/shop', model: 'anthropic/claude-sonnet-4-5' } },
    'tool-execute-before': {
      kind: 'tool_call',
      role: 'assistant',
      lifecycleOnly: true,
      content: 'bash: npm test -- checkout',
      toolUseId: 'toolu_01Kl2Mn3Op4Qr5St6Uv7Wx8Y',
      naturalKey: 'tool.execute.before:toolu_01Kl2Mn3Op4Qr5St6Uv7Wx8Y',
    },
    'tool-execute-after': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      content: "bash: npm test -- checkout\n✗ exit 1\nFAIL test/checkout.test.js\nError: Cannot find module 'express'",
      toolUseId: 'toolu_01Kl2Mn3Op4Qr5St6Uv7Wx8Y',
      outcome: 'error',
    },
    'message-updated-assistant': REPLY_MESSAGE,
    'session-idle': { kind: 'checkpoint', role: 'system', lifecycleOnly: true },
    'unknown-todo-updated': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, contains: ['todos: [{"content":"add express","status":"in_progress"}]'] },
  },
  copilot: {
    'session-start': {
      kind: 'lifecycle',
      role: 'system',
      lifecycleOnly: true,
      content: `Session started (new): ${SHARED_PROMPT}`,
      occurredAt: '2025-10-02T10:15:00.000Z',
      session: { cwd: '/home/ana/shop' },
    },
    'user-prompt-submitted': PROMPT_MESSAGE,
    'pre-tool-use': { kind: 'tool_call', role: 'assistant', lifecycleOnly: true, content: 'bash: npm test -- checkout\ndescription: Run the checkout tests', toolName: 'bash', naturalKey: null },
    'post-tool-use': {
      kind: 'tool_result',
      role: 'tool',
      lifecycleOnly: false,
      content: "bash: npm test -- checkout\ndescription: Run the checkout tests\n→ FAIL test/checkout.test.js\nError: Cannot find module 'express'",
      outcome: 'success',
      naturalKey: null,
    },
    'post-tool-use-denied': { kind: 'tool_result', role: 'tool', lifecycleOnly: false, content: 'bash: rm -rf node_modules\n✗ denied: The user denied this tool call.', outcome: 'error' },
    'post-tool-use-failure': { kind: 'tool_result', role: 'tool', lifecycleOnly: false, content: 'bash: npm run build\n✗ Command failed with exit code 2: tsc found 3 errors', outcome: 'error', naturalKey: null },
    'pre-compact': { kind: 'compaction', role: 'system', lifecycleOnly: true, content: 'Compacting context (auto)', occurredAt: '2025-10-02T10:15:06.000Z' },
    'error-occurred': { kind: 'annotation', role: 'system', lifecycleOnly: false, content: 'Error: TimeoutError: Request timed out' },
    'session-end': ended('complete'),
    'unknown-agent-stop': { kind: 'lifecycle', role: 'system', lifecycleOnly: true, content: 'stopReason: end_turn' },
  },
};

const SESSION_IDS: Record<Harness, string> = {
  'claude-code': CLAUDE_SESSION,
  codex: '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  opencode: 'ses_6b1f0c2a9ffeQk3LmN8pR2sT4v',
  generic: 'aider-2025-10-02-ana-shop',
  'gemini-cli': '3b8f6e1a-92c4-4d7e-b5a0-6c2d9f1e4a77',
  cursor: 'c2f7a9d1-6e3b-4a58-9f0c-1d2e3b4a5c6d',
  cline: '1759400099871',
  kimi: '6f0d2b8a-3c1e-4f59-a7b2-9e8d7c6b5a41',
  factory: '9a4e2c7b-1d3f-4e8a-b6c5-2f7e9d0a1b3c',
  kilo: 'ses_7c2e1d3b8aafRt5NpQ9wX1yZ2k',
  copilot: 'e1b7c3a9-5d2f-4c6e-8a0b-7f9e1d3c5b2a',
};

const CASES = HARNESSES.flatMap((harness) => Object.keys(EXPECTED[harness]).map((name) => [harness, name] as const));

describe('hook adapters', () => {
  it('has one adapter per harness', () => {
    expect(Object.keys(HARNESS_ADAPTERS).sort()).toEqual([...HARNESSES].sort());
  });

  it('has an expectation for every fixture (and a fixture for every expectation)', () => {
    for (const harness of HARNESSES) {
      const files = readdirSync(new URL(`${harness}/`, FIXTURES)).map((file) => file.replace(/\.json$/, ''));
      expect(files.sort(), harness).toEqual(Object.keys(EXPECTED[harness]).sort());
    }
    expect(Object.keys(EXPECTED['claude-code']).length).toBeGreaterThanOrEqual(10);
  });

  it.each(CASES)('%s %s', (harness, name) => {
    const payload = fixture(harness, name);
    const event = adapt(harness, payload);
    const expected = EXPECTED[harness][name]!;

    expect(event.nativeSessionId).toBe(SESSION_IDS[harness]);
    expect(event.kind).toBe(expected.kind);
    expect(event.role).toBe(expected.role);
    expect(event.lifecycleOnly).toBe(expected.lifecycleOnly);
    if (expected.content !== undefined) expect(event.content).toBe(expected.content);
    for (const fragment of expected.contains ?? []) expect(event.content).toContain(fragment);
    if (expected.toolName !== undefined) expect(event.toolName).toBe(expected.toolName);
    if (expected.toolUseId !== undefined) expect(event.toolUseId).toBe(expected.toolUseId);
    if (expected.naturalKey !== undefined) expect(event.naturalKey).toBe(expected.naturalKey);
    expect(event.outcome).toBe(expected.outcome ?? (event.kind === 'tool_result' ? event.outcome : null));
    expect(event.endsSession).toBe(expected.endsSession ?? false);
    if (expected.occurredAt !== undefined) expect(event.occurredAt?.toISOString() ?? null).toBe(expected.occurredAt);
    if (expected.session !== undefined) expect(event.session).toEqual(expected.session);

    // Contract invariants.
    expect(event.eventName.length).toBeGreaterThan(0);
    expect(event.eventName.length).toBeLessThanOrEqual(64);
    expect(event.content.length).toBeLessThanOrEqual(64 * 1024);
    if (event.kind === 'tool_result') expect(['success', 'error']).toContain(event.outcome);
    else expect(event.outcome).toBeNull();
    // A tool id the harness sent is a natural key; one derived from the call (the harness sends none) only pairs.
    if (event.toolUseId?.startsWith('derived:')) expect(event.naturalKey).toBeNull();
    else expect(event.naturalKey).toBe(event.toolUseId === null ? null : `${event.eventName}:${event.toolUseId}`);
    if (['claude-code', 'codex', 'cursor', 'kimi', 'factory'].includes(harness)) expect(event.occurredAt).toBeNull();

    // Deterministic: the same payload, or the same payload with its keys in another order
    // (as an archive may store it), gives the same event.
    expect(adapt(harness, fixture(harness, name))).toEqual(event);
    expect(adapt(harness, resorted(payload))).toEqual(event);
  });

  it('maps each Claude Code event name as documented', () => {
    const kinds = Object.fromEntries(
      Object.keys(EXPECTED['claude-code']).map((name) => {
        const event = adapt('claude-code', fixture('claude-code', name));
        return [event.eventName, event.kind];
      }),
    );
    expect(kinds).toMatchObject({
      SessionStart: 'lifecycle',
      UserPromptSubmit: 'message',
      PreToolUse: 'tool_call',
      PostToolUse: 'tool_result',
      PostToolUseFailure: 'tool_result',
      PermissionRequest: 'lifecycle',
      Notification: 'annotation',
      PreCompact: 'compaction',
      PostCompact: 'compaction',
      SubagentStart: 'lifecycle',
      SubagentStop: 'message',
      SessionEnd: 'lifecycle',
      TaskCompleted: 'lifecycle',
    });
  });

  it('pairs a tool call with its result by tool id, with distinct natural keys', () => {
    const call = adapt('claude-code', fixture('claude-code', 'pre-tool-use-bash'));
    const result = adapt('claude-code', fixture('claude-code', 'post-tool-use-bash'));
    expect(call.toolUseId).toBe(result.toolUseId);
    expect(call.naturalKey).not.toBe(result.naturalKey);
  });

  it('reads a Factory Droid payload whose common fields are spelled in camelCase as the snake_case one', () => {
    const snake = fixture('factory', 'user-prompt-submit');
    const { session_id: sessionId, hook_event_name: hookEventName, transcript_path: transcriptPath, ...rest } = snake;
    expect(adapt('factory', { ...rest, sessionId, hookEventName, transcriptPath })).toEqual(adapt('factory', snake));
  });

  it('keeps unknown and future event names as lifecycle events', () => {
    for (const harness of ['claude-code', 'codex'] as const) {
      const event = adapt(harness, { session_id: 's1', hook_event_name: 'SomethingNew', detail: 'x', nested: { b: 2, a: 1 } });
      expect(event).toMatchObject({ kind: 'lifecycle', role: 'system', lifecycleOnly: true, endsSession: false, naturalKey: null });
      expect(event.content).toBe('detail: x\nnested: {"a":1,"b":2}');
    }
    expect(adapt('opencode', { event: 'todo.updated', sessionID: 's1', properties: { todos: [] } })).toMatchObject({ kind: 'lifecycle', lifecycleOnly: true });
    expect(adapt('codex', { type: 'some-future-notification', 'thread-id': 't1' })).toMatchObject({ kind: 'lifecycle', lifecycleOnly: true });
    expect(adapt('generic', { session_id: 's1', event: 'heartbeat' })).toMatchObject({ kind: 'lifecycle', lifecycleOnly: true });
  });

  it('reads the Claude-shaped events other OpenCode plugins emit (hook_event_name or hook_event, session_id)', () => {
    const claudeShaped = { session_id: 'ses_other', cwd: '/home/ana/shop', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_response: 'ok' };
    expect(adapt('opencode', claudeShaped)).toMatchObject({
      eventName: 'PostToolUse',
      nativeSessionId: 'ses_other',
      kind: 'lifecycle',
      content: 'tool_name: Bash\ntool_response: ok',
      session: { cwd: '/home/ana/shop' },
    });
    expect(adapt('opencode', { sessionID: 'ses_other', hook_event: 'Stop' })).toMatchObject({ eventName: 'Stop', nativeSessionId: 'ses_other' });
    // `event` wins when present.
    expect(adapt('opencode', { event: 'session.idle', hook_event_name: 'Stop', sessionID: 's1' })).toMatchObject({ eventName: 'session.idle', kind: 'checkpoint' });
  });

  it('handles PermissionDenied, StopFailure and interrupted tool failures', () => {
    const base = { session_id: 's1', cwd: '/w' };
    expect(
      adapt('claude-code', { ...base, hook_event_name: 'PermissionDenied', tool_name: 'Bash', tool_input: { command: 'rm -rf /tmp/b' }, tool_use_id: 'toolu_9', reason: 'Blocked by classifier' }),
    ).toMatchObject({ kind: 'tool_result', outcome: 'error', content: 'Bash: rm -rf /tmp/b\n✗ permission denied: Blocked by classifier', naturalKey: 'PermissionDenied:toolu_9' });
    expect(adapt('claude-code', { ...base, hook_event_name: 'StopFailure', error: 'rate_limit', error_details: '429 Too Many Requests' })).toMatchObject({
      kind: 'annotation',
      content: 'Turn failed: rate_limit — 429 Too Many Requests',
    });
    expect(
      adapt('claude-code', { ...base, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'sleep 100' }, tool_use_id: 'toolu_8', error: 'Aborted', is_interrupt: true }).content,
    ).toBe('Bash: sleep 100\n✗ (interrupted) Aborted');
  });

  describe('refuses payloads it cannot place, naming the field', () => {
    const cases: Array<[Harness, HookPayload, string]> = [
      ['claude-code', { hook_event_name: 'Stop' }, 'session_id'],
      ['claude-code', { session_id: '', hook_event_name: 'Stop' }, 'session_id'],
      ['claude-code', { session_id: '   ', hook_event_name: 'Stop' }, 'session_id'],
      ['claude-code', { session_id: 42, hook_event_name: 'Stop' }, 'session_id'],
      ['claude-code', { session_id: 'x'.repeat(256), hook_event_name: 'Stop' }, 'session_id'],
      ['claude-code', { session_id: 's1' }, 'hook_event_name'],
      ['claude-code', { session_id: 's1', hook_event_name: '' }, 'hook_event_name'],
      ['claude-code', { session_id: 's1', hook_event_name: ['Stop'] }, 'hook_event_name'],
      ['codex', { type: 'agent-turn-complete', 'last-assistant-message': 'hi' }, 'thread-id'],
      ['codex', { 'thread-id': 't1', 'input-messages': [] }, 'type'],
      ['codex', { hook_event_name: 'Stop' }, 'session_id'],
      ['codex', {}, 'session_id'],
      ['opencode', { event: 'session.idle' }, 'sessionID'],
      ['opencode', { event: 'session.idle', sessionID: null }, 'sessionID'],
      ['opencode', { sessionID: 's1' }, 'event'],
      ['opencode', { sessionID: 's1', hook_event_name: '' }, 'event'],
      ['opencode', { hook_event_name: 'Stop' }, 'sessionID'],
      ['generic', { event: 'note', text: 'x' }, 'session_id'],
      ['generic', { session_id: 's1', text: 'x' }, 'event'],
    ];
    it.each(cases)('%s %j → %s', (harness, payload, field) => {
      let error: unknown;
      try {
        adapt(harness, payload);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(AdapterError);
      expect((error as AdapterError).field).toBe(field);
    });

    it('accepts a 255-character session id', () => {
      expect(adapt('claude-code', { session_id: 'x'.repeat(255), hook_event_name: 'Stop' }).nativeSessionId).toHaveLength(255);
    });
  });

  it('never throws on odd optional fields', () => {
    const oddities: unknown[] = [null, 0, -1, 1.5, true, '', 'text', [], [1, 'a', null], {}, { a: { b: { c: { d: { e: { f: { g: 1 } } } } } } }, [{ type: 'image', source: {} }]];
    const fields = ['prompt', 'tool_name', 'tool_input', 'tool_response', 'tool_use_id', 'error', 'is_interrupt', 'message', 'title', 'last_assistant_message', 'compact_summary', 'cwd', 'model', 'transcript_path', 'reason', 'source', 'trigger'];
    const events = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied', 'Notification', 'PreCompact', 'PostCompact', 'Stop', 'SubagentStop', 'StopFailure', 'SessionEnd', 'Other'];
    for (const hookEventName of events) {
      for (const field of fields) {
        for (const value of oddities) {
          const event = adapt('claude-code', { session_id: 's1', hook_event_name: hookEventName, [field]: value });
          expect(typeof event.content).toBe('string');
          expect(event.session.cwd === undefined || typeof event.session.cwd === 'string').toBe(true);
        }
      }
    }
    const opencodeFields = ['tool', 'callID', 'args', 'output', 'metadata', 'text', 'parts', 'properties', 'model', 'time', 'role', 'directory'];
    for (const name of ['chat.message', 'tool.execute.before', 'tool.execute.after', 'message.updated', 'message.part.updated', 'session.created', 'session.error', 'session.compacted']) {
      for (const field of opencodeFields) {
        for (const value of oddities) adapt('opencode', { event: name, sessionID: 's1', [field]: value });
      }
    }
    for (const field of ['kind', 'role', 'text', 'tool_name', 'tool_input', 'tool_output', 'error', 'outcome', 'lifecycle_only', 'ends_session', 'occurred_at']) {
      for (const value of oddities) adapt('generic', { session_id: 's1', event: 'x', [field]: value });
    }
    for (const field of ['input-messages', 'last-assistant-message', 'cwd']) {
      for (const value of oddities) adapt('codex', { type: 'agent-turn-complete', 'thread-id': 't1', [field]: value });
    }
  });

  it('shortens long ids, event names and keys deterministically', () => {
    const long = (suffix: string) => `toolu_${'a'.repeat(300)}${suffix}`;
    const one = adapt('claude-code', { session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'T'.repeat(200), tool_use_id: long('1') });
    const two = adapt('claude-code', { session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: long('2') });
    expect(one.toolUseId).toHaveLength(128);
    expect(one.toolName).toHaveLength(128);
    expect(one.naturalKey!.length).toBeLessThanOrEqual(128);
    expect(one.toolUseId).not.toBe(two.toolUseId);
    expect(one.naturalKey).not.toBe(two.naturalKey);
    expect(adapt('claude-code', { session_id: 's1', hook_event_name: 'PreToolUse', tool_use_id: long('1') }).toolUseId).toBe(one.toolUseId);

    const facts = adapt('claude-code', { session_id: 's1', hook_event_name: 'SessionStart', model: 'm'.repeat(300), cwd: `/${'d'.repeat(2000)}` }).session;
    expect(facts.model).toHaveLength(128);
    expect(facts.cwd).toHaveLength(1024);

    const named = adapt('claude-code', { session_id: 's1', hook_event_name: `Event${'X'.repeat(100)}` });
    expect(named.eventName).toHaveLength(64);
    expect(named.kind).toBe('lifecycle');
  });

  it('caps content at 64 KiB, keeping head and tail', () => {
    const stdout = `HEAD-${'x'.repeat(200_000)}-TAIL`;
    const event = adapt('claude-code', {
      session_id: 's1',
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'cat big.log' },
      tool_response: { stdout },
      tool_use_id: 'toolu_1',
    });
    expect(event.content.length).toBeLessThanOrEqual(64 * 1024);
    expect(event.content).toContain('Bash: cat big.log\n→ HEAD-');
    expect(event.content).toContain('-TAIL');
    expect(event.content).toMatch(/chars omitted/);

    const prompt = adapt('claude-code', { session_id: 's1', hook_event_name: 'UserPromptSubmit', prompt: 'p'.repeat(100_000) });
    expect(prompt.content.length).toBeLessThanOrEqual(64 * 1024);
  });

  it('never splits a surrogate pair when cutting', () => {
    const text = '😀'.repeat(1000);
    for (const max of [100, 101, 102, 103, 500]) {
      const cut = capText(text, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
  });

  it('renders tool inputs and outputs as readable text', () => {
    expect(renderToolInput({ command: 'ls -la', description: 'List files' })).toBe('ls -la\ndescription: List files');
    expect(renderToolInput({ description: 'List files', command: 'ls -la' })).toBe('ls -la\ndescription: List files');
    expect(renderToolInput({ pattern: 'TODO', path: 'src', glob: '*.ts' })).toBe('TODO\nglob: *.ts\npath: src');
    expect(renderToolInput({ url: 'https://example.com', prompt: 'Summarize' })).toBe('https://example.com\nprompt: Summarize');
    expect(renderToolInput({ command: ['bash', '-lc', 'npm test'] })).toBe('bash -lc npm test');
    expect(renderToolInput('plain')).toBe('plain');
    expect(renderToolInput(null)).toBe('');
    expect(renderToolOutput('done')).toBe('done');
    expect(renderToolOutput({ stdout: '', stderr: 'boom', interrupted: true })).toBe('stderr: boom\n(interrupted)');
    expect(renderToolOutput([{ type: 'text', text: 'a' }, { type: 'image', source: { data: '…' } }])).toBe('a\n[image]');
    expect(renderToolOutput({ type: 'text', file: { filePath: '/a.ts', content: 'const a = 1', numLines: 1 } })).toBe('const a = 1');
    expect(renderToolOutput({ z: 1, a: [true] })).toBe('{"a":[true],"z":1}');
    expect(renderToolOutput({})).toBe('');
  });

  it('parses timestamps from ISO strings and epoch seconds or milliseconds', () => {
    const iso = '2025-10-02T10:20:00.000Z';
    expect(parseTimestamp('2025-10-02T10:20:00Z')?.toISOString()).toBe(iso);
    expect(parseTimestamp('2025-10-02T12:20:00+02:00')?.toISOString()).toBe(iso);
    expect(parseTimestamp(1759400400)?.toISOString()).toBe(iso);
    expect(parseTimestamp(1759400400000)?.toISOString()).toBe(iso);
    expect(parseTimestamp('1759400400')?.toISOString()).toBe(iso);
    expect(parseTimestamp(1759400400.5)?.toISOString()).toBe('2025-10-02T10:20:00.500Z');
    for (const bad of ['yesterday', '', 'Tue Oct 2', '2025-13-45T99:00:00Z', 0, -5, Number.NaN, Number.POSITIVE_INFINITY, 1e20, null, {}, [], true]) {
      expect(parseTimestamp(bad), String(bad)).toBeNull();
    }
    expect(adapt('generic', { session_id: 's', event: 'x', occurred_at: 'garbage' }).occurredAt).toBeNull();
    expect(adapt('opencode', { event: 'session.idle', sessionID: 's', time: 'garbage' }).occurredAt).toBeNull();
  });

  it('lets generic callers set kind, role and flags, and infers them otherwise', () => {
    expect(adapt('generic', { session_id: 's', event: 'reply', role: 'assistant', text: 'Done.' })).toMatchObject({ kind: 'message', role: 'assistant', lifecycleOnly: false });
    expect(adapt('generic', { session_id: 's', event: 'checkpoint' })).toMatchObject({ kind: 'checkpoint', role: 'system' });
    expect(adapt('generic', { session_id: 's', event: 'x', kind: 'bogus', role: 'bogus', text: 'hi' })).toMatchObject({ kind: 'annotation', role: 'system' });
    expect(adapt('generic', { session_id: 's', event: 'run', tool_name: 'sh', tool_input: 'make', tool_use_id: 'r1' })).toMatchObject({
      kind: 'tool_call',
      role: 'assistant',
      lifecycleOnly: true,
      content: 'sh: make',
      naturalKey: 'run:r1',
    });
    expect(adapt('generic', { session_id: 's', event: 'x', kind: 'lifecycle', lifecycle_only: false, ends_session: true })).toMatchObject({ lifecycleOnly: false, endsSession: true });
    expect(adapt('generic', { session_id: 's', event: 'SessionEnd' }).endsSession).toBe(true);
  });
});

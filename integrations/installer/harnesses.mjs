// What `install.sh <harness>` puts where, for each harness. Locations and shapes follow each
// harness's hook reference (docs/hooks.md#installing links them); every entry runs
// ~/.memory-bank/forward.sh <harness> (capture) and, where the harness reads context from a
// hook, ~/.memory-bank/recall.sh <harness>.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InstallRefusal } from './config-files.mjs';

const INTEGRATIONS = fileURLToPath(new URL('..', import.meta.url));
const readTemplate = (path) => readFileSync(join(INTEGRATIONS, path), 'utf8');

/** A command of ours, in any harness's config: it runs the forwarder or the recall hook. */
export const isOurCommand = (command) => typeof command === 'string' && /\.memory-bank\/(forward|recall)\.sh\b/.test(command);

const shellQuote = (word) => (/^[\w./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/** config.hooks[event], a list (empty when absent); anything else is refused. */
function listAt(path, config, event) {
  const list = config.hooks?.[event];
  if (list !== undefined && !Array.isArray(list)) throw new InstallRefusal(`${path}: hooks.${event} is not a list`);
  return list ?? [];
}

/** Claude Code–shaped hooks: { hooks: { Event: [ { matcher?, hooks: [ { type, command, timeout } ] } ] } }. */
function groupedHooks(path, template) {
  const groupsOf = (config, event) => listAt(path, config, event);
  return {
    kind: 'json',
    path,
    contains: (config) => Object.keys(config.hooks ?? {}).some((event) => groupsOf(config, event).some((group) => group?.hooks?.some?.((hook) => isOurCommand(hook?.command)))),
    add(config) {
      if (config.hooks !== undefined && (typeof config.hooks !== 'object' || Array.isArray(config.hooks))) throw new InstallRefusal(`${path}: "hooks" is not an object`);
      config.hooks ??= {};
      for (const [event, groups] of Object.entries(template)) {
        const list = groupsOf(config, event);
        for (const group of groups) {
          const commands = group.hooks.map((hook) => hook.command);
          if (!list.some((existing) => existing?.hooks?.some?.((hook) => commands.includes(hook?.command)))) list.push(structuredClone(group));
        }
        config.hooks[event] = list;
      }
      return config;
    },
    remove(config) {
      for (const event of Object.keys(config.hooks ?? {})) {
        const groups = groupsOf(config, event)
          .map((group) => (Array.isArray(group?.hooks) ? { ...group, hooks: group.hooks.filter((hook) => !isOurCommand(hook?.command)) } : group))
          .filter((group) => !Array.isArray(group?.hooks) || group.hooks.length > 0);
        if (groups.length > 0) config.hooks[event] = groups;
        else delete config.hooks[event];
      }
      if (config.hooks !== undefined && Object.keys(config.hooks).length === 0) delete config.hooks;
      return config;
    },
    isEmpty: (config) => Object.keys(config).length === 0,
  };
}

/** Cursor- and Copilot-shaped hooks: { version: 1, hooks: { event: [ { …entry } ] } }, the command in `field`. */
function flatHooks(path, field, template) {
  const entriesOf = (config, event) => listAt(path, config, event);
  return {
    kind: 'json',
    path,
    contains: (config) => Object.keys(config.hooks ?? {}).some((event) => entriesOf(config, event).some((entry) => isOurCommand(entry?.[field]))),
    add(config) {
      config.version ??= 1;
      config.hooks ??= {};
      for (const [event, entries] of Object.entries(template)) {
        const list = entriesOf(config, event);
        for (const entry of entries) if (!list.some((existing) => existing?.[field] === entry[field])) list.push(structuredClone(entry));
        config.hooks[event] = list;
      }
      return config;
    },
    remove(config) {
      for (const event of Object.keys(config.hooks ?? {})) {
        const entries = entriesOf(config, event).filter((entry) => !isOurCommand(entry?.[field]));
        if (entries.length > 0) config.hooks[event] = entries;
        else delete config.hooks[event];
      }
      if (config.hooks !== undefined && Object.keys(config.hooks).length === 0) delete config.hooks;
      return config;
    },
    // A file we created holds nothing else: the version we set and no hooks.
    isEmpty: (config) => Object.keys(config).every((key) => key === 'version'),
  };
}

const tomlString = (text) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/**
 * Every harness: its config targets, what to tell the user after, and whether recall.sh serves it.
 * `env` is the installer's environment (HOME and the harnesses' own *_HOME variables).
 */
export function harnessTargets(harness, env) {
  const home = env.HOME;
  const config = env.XDG_CONFIG_HOME || join(home, '.config');
  const script = (name) => `${shellQuote(join(home, '.memory-bank', name))} ${harness}`;
  const forward = script('forward.sh');
  const recall = script('recall.sh');
  // One hook group per event: the forwarder (5 s), and the recall hook (3 s, answers within 1.5 s) where listed.
  const grouped = (events, recallOn, timeouts = { forward: 5, recall: 3 }, extra = {}) =>
    Object.fromEntries(
      events.map((event) => [
        event,
        [
          {
            ...(extra.matcher?.(event) ? { matcher: extra.matcher(event) } : {}),
            hooks: [
              { ...extra.hook?.('forward'), type: 'command', command: forward, timeout: timeouts.forward },
              ...(recallOn.includes(event) ? [{ ...extra.hook?.('recall'), type: 'command', command: recall, timeout: timeouts.recall }] : []),
            ],
          },
        ],
      ]),
    );

  switch (harness) {
    case 'claude-code':
      return [groupedHooks(join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'settings.json'), JSON.parse(readTemplate('claude-code/settings.json')).hooks)];
    case 'codex':
      return [groupedHooks(join(env.CODEX_HOME || join(home, '.codex'), 'hooks.json'), JSON.parse(readTemplate('codex/hooks.json')).hooks)];
    case 'factory':
      return [
        groupedHooks(
          join(home, '.factory', 'hooks.json'),
          grouped(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Notification', 'SubagentStop', 'PreCompact', 'Stop', 'SessionEnd'], ['SessionStart', 'UserPromptSubmit'], undefined, {
            matcher: (event) => (event.endsWith('ToolUse') ? '*' : undefined),
          }),
        ),
      ];
    case 'gemini-cli':
      // Gemini CLI's timeouts are in milliseconds; a name shows in its /hooks list.
      return [
        groupedHooks(
          join(home, '.gemini', 'settings.json'),
          grouped(['SessionStart', 'BeforeAgent', 'AfterAgent', 'BeforeTool', 'AfterTool', 'Notification', 'PreCompress', 'SessionEnd'], ['SessionStart', 'BeforeAgent'], { forward: 5000, recall: 3000 }, {
            hook: (which) => ({ name: `memory-bank-${which}` }),
          }),
        ),
      ];
    case 'cursor': {
      const events = ['sessionStart', 'beforeSubmitPrompt', 'afterAgentResponse', 'afterFileEdit', 'afterShellExecution', 'afterMCPExecution', 'stop', 'sessionEnd'];
      const template = Object.fromEntries(events.map((event) => [event, [{ command: forward }, ...(event === 'sessionStart' ? [{ command: recall }] : [])]]));
      return [flatHooks(join(home, '.cursor', 'hooks.json'), 'command', template)];
    }
    case 'copilot': {
      const events = ['sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'postToolUseFailure', 'preCompact', 'agentStop', 'subagentStop', 'errorOccurred', 'sessionEnd'];
      const template = Object.fromEntries(events.map((event) => [event, [{ type: 'command', bash: forward, timeoutSec: 5 }]]));
      return [flatHooks(join(env.COPILOT_HOME || join(home, '.copilot'), 'hooks', 'memory-bank.json'), 'bash', template)];
    }
    case 'kimi': {
      // Every event both Kimi Code CLI and the older kimi-cli know: another name makes Kimi refuse the whole config.
      const events = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact', 'Notification', 'Stop', 'StopFailure', 'SessionEnd'];
      // Kimi ignores what a SessionStart hook prints: it recalls on the prompt, where its output is added to the context.
      const hooks = events.flatMap((event) => [
        { event, command: forward, timeout: 5 },
        ...(event === 'UserPromptSubmit' ? [{ event, command: recall, timeout: 3 }] : []),
      ]);
      const body = hooks.map((hook) => `[[hooks]]\nevent = ${tomlString(hook.event)}\ncommand = ${tomlString(hook.command)}\ntimeout = ${hook.timeout}\n`).join('\n');
      const block = (path) => ({
        kind: 'block',
        path,
        marker: 'Memory Bank hooks (sh integrations/install.sh kimi --uninstall removes this block)',
        body,
        // [[hooks]] cannot be appended to a file that made `hooks` something else.
        conflict: (text) => (/^\s*(hooks\s*=|\[hooks\])/m.test(text) ? 'it defines "hooks" as something other than [[hooks]] tables' : undefined),
      });
      // Kimi Code CLI reads ~/.kimi-code/config.toml ($KIMI_CODE_HOME); the older Python kimi-cli, ~/.kimi/config.toml.
      return [block(join(env.KIMI_CODE_HOME || join(home, '.kimi-code'), 'config.toml')), ...(existsSync(join(home, '.kimi')) ? [block(join(home, '.kimi', 'config.toml'))] : [])];
    }
    case 'cline': {
      const recallHooks = ['TaskStart', 'TaskResume', 'UserPromptSubmit'];
      const names = [...recallHooks, 'PreToolUse', 'PostToolUse', 'PreCompact', 'TaskCancel', 'TaskComplete'];
      return names.map((name) => ({
        kind: 'owned',
        path: join(home, 'Documents', 'Cline', 'Hooks', name),
        marker: 'memory-bank-cline-hook',
        mode: 0o755,
        instead: `call ${forward} from it, with the payload on stdin`,
        content: [
          '#!/bin/sh',
          '# memory-bank-cline-hook: forwards this Cline hook to Memory Bank (sh integrations/install.sh cline --uninstall removes it)',
          'payload=$(cat)',
          `printf '%s' "$payload" | ${forward}`,
          recallHooks.includes(name) ? `printf '%s' "$payload" | exec ${recall}` : `echo '{"cancel":false}'`,
          '',
        ].join('\n'),
      }));
    }
    case 'opencode':
    case 'kilo': {
      const source = readTemplate('opencode/memory-bank.js');
      const content = harness === 'kilo' ? source.replace("const HARNESS = 'opencode';", "const HARNESS = 'kilo';") : source;
      const dir = harness === 'kilo' ? join(config, 'kilo', 'plugin') : join(config, 'opencode', 'plugins');
      return [{ kind: 'owned', path: join(dir, 'memory-bank.js'), marker: '// Memory Bank plugin for OpenCode', content, instead: 'rename yours to install Memory Bank’s' }];
    }
    default:
      return null;
  }
}

export const HARNESSES = ['claude-code', 'codex', 'opencode', 'gemini-cli', 'cursor', 'cline', 'kimi', 'factory', 'kilo', 'copilot'];

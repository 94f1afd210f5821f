// `sh integrations/install.sh <harness> [--uninstall]` ends here (install.sh has copied
// forward.sh and recall.sh to ~/.memory-bank/ first). Node ≥ 20, no dependencies.
//
// Exit status: 0 done (or nothing to do), 1 something was refused (the message says what
// and that the file was left as it was), 2 usage.
import { applyTarget, BACKUP_SUFFIX, InstallRefusal } from './config-files.mjs';
import { HARNESSES, harnessTargets } from './harnesses.mjs';
import { KEY_VARIABLE, mcpInstructions } from './mcp.mjs';

const NEXT_STEPS = {
  'claude-code': 'Open /hooks in Claude Code (or restart it) to load the hooks.',
  codex: 'Start Codex and approve the new hooks with /hooks. Releases that keep hooks behind a flag also need [features] codex_hooks = true in ~/.codex/config.toml.',
  opencode: 'Restart OpenCode: it loads the plugin at start-up.',
  kilo: 'Restart Kilo: it loads the plugin at start-up.',
  'gemini-cli': 'Restart Gemini CLI; /hooks lists the memory-bank hooks (an early release that keeps hooks off also needs "hooksConfig": { "enabled": true } in ~/.gemini/settings.json).',
  cursor: 'Restart Cursor; its Hooks settings list them. Cursor takes recalled context at session start only (beforeSubmitPrompt cannot add any).',
  cline: 'Turn on Settings → Features → Enable Hooks in Cline (macOS and Linux).',
  kimi: 'Start a new Kimi session; /hooks lists them. Kimi ignores what SessionStart hooks print, so recall comes with the first prompt.',
  factory: 'Restart Droid; /hooks lists them.',
  copilot: 'Copilot CLI loads them at the next session. Copilot does not read what these hooks print: it captures, it cannot recall.',
};

const usage = () => {
  process.stderr.write(`usage: sh integrations/install.sh <harness> [--uninstall]\n  harness: ${HARNESSES.join(' | ')}\n`);
  return 2;
};

function main(argv, env) {
  const uninstall = argv.includes('--uninstall');
  const rest = argv.filter((arg) => arg !== '--uninstall');
  if (rest.length !== 1 || !env.HOME) return usage();
  const harness = rest[0];
  const targets = harnessTargets(harness, env);
  if (targets === null) return usage();

  let refused = 0;
  for (const target of targets) {
    try {
      const outcome = applyTarget(target, uninstall);
      const note =
        outcome === 'kept'
          ? ` (exists and is not Memory Bank's: ${target.instead})`
          : outcome === 'updated' && !uninstall && target.kind !== 'owned'
            ? ` (the file as it was: ${target.path}${BACKUP_SUFFIX})`
            : '';
      console.log(`${outcome.padEnd(9)} ${target.path}${note}`);
    } catch (error) {
      if (!(error instanceof InstallRefusal)) throw error;
      refused += 1;
      console.error(`refused   ${error.message}`);
    }
  }
  if (uninstall) {
    console.log(`\nMemory Bank's ${harness} hooks are out. ~/.memory-bank/ (forward.sh, recall.sh and the spool of undelivered events) is shared by every harness and stays; remove it by hand when nothing uses it.`);
    return refused > 0 ? 1 : 0;
  }
  const url = `${(env.MEMORY_BANK_URL || 'http://localhost:8787').replace(/\/+$/, '')}/mcp`;
  console.log(`\n${NEXT_STEPS[harness]}`);
  console.log(`The hooks read MEMORY_BANK_URL and ${KEY_VARIABLE} from the environment the agent runs in (e.g. ~/.profile); no key is written to any file.`);
  console.log(`\nMCP server (the key stays in ${KEY_VARIABLE}):\n${mcpInstructions(harness, url)}`);
  return refused > 0 ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2), process.env);

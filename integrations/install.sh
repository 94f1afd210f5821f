#!/bin/sh
# Installs the Memory Bank hook forwarder and recall hook to ~/.memory-bank/ and, given a harness,
# wires that harness to them: its config is merged (the user's hooks and settings kept, a backup
# beside it), running it twice changes nothing, --uninstall takes out exactly what it added.
#   sh integrations/install.sh                       forwarder and recall hook only, then the next steps
#   sh integrations/install.sh <harness>             also wire the harness, and print its MCP configuration
#   sh integrations/install.sh <harness> --uninstall take the harness's wiring out again
#   harness: claude-code codex opencode gemini-cli cursor cline kimi factory kilo copilot
#   sh integrations/install.sh --opencode            (older form of: install.sh opencode)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dest=$HOME/.memory-bank

case " $* " in
  *" --uninstall "*) exec node "$here/installer/main.mjs" "$@" ;;
esac

mkdir -p "$dest"
for script in forward.sh recall.sh project.sh; do
  cp "$here/$script" "$dest/$script.new"
  chmod 755 "$dest/$script.new"
  mv "$dest/$script.new" "$dest/$script"
  echo "Installed $dest/$script"
done

command -v curl >/dev/null 2>&1 || command -v wget >/dev/null 2>&1 ||
  echo "Warning: neither curl nor wget is installed; forward.sh needs one of them."
command -v curl >/dev/null 2>&1 || echo "Warning: curl is not installed; recall.sh needs it (without it, it recalls nothing)."

if [ $# -gt 0 ]; then
  [ "$1" = --opencode ] && set -- opencode
  if ! command -v node >/dev/null 2>&1; then
    echo "install.sh $1 merges the harness's config with Node.js (20 or later), which is not installed here;" >&2
    echo "wire it by hand instead: docs/hooks.md#installing" >&2
    exit 1
  fi
  exec node "$here/installer/main.mjs" "$@"
fi

cat <<STEPS

Next steps:
  1. Set the service address and an API key (scopes hooks:write and memory:read; recall
     needs both) where your agents run,
     e.g. in ~/.profile:
       export MEMORY_BANK_URL=https://memory.example.com
       export MEMORY_BANK_API_KEY=mbk_...
  2. Wire your agent, one command each (safe to run twice; add --uninstall to take it out):
       sh $here/install.sh claude-code   (or codex, opencode, gemini-cli, cursor, cline,
                                          kimi, factory, kilo, copilot)
  3. Check: echo '{"session_id":"install-check","event":"note","text":"hello"}' \\
       | MEMORY_BANK_DEBUG=1 ~/.memory-bank/forward.sh generic
     (HTTP 202 means delivered; undelivered events wait in ~/.memory-bank/spool)
  4. Recall: echo '{"session_id":"install-check","hook_event_name":"UserPromptSubmit","prompt":"hello"}' \\
       | MEMORY_BANK_DEBUG=1 ~/.memory-bank/recall.sh claude-code
     (prints {} or the context your agent would be given)
STEPS

#!/bin/sh
# Installs the Memory Bank hook forwarder and recall hook to ~/.memory-bank/ and prints the next steps.
#   sh integrations/install.sh              forwarder only
#   sh integrations/install.sh --opencode   also the OpenCode plugin (~/.config/opencode/plugins/)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dest=$HOME/.memory-bank

mkdir -p "$dest"
for script in forward.sh recall.sh; do
  cp "$here/$script" "$dest/$script.new"
  chmod 755 "$dest/$script.new"
  mv "$dest/$script.new" "$dest/$script"
  echo "Installed $dest/$script"
done

if [ "${1:-}" = "--opencode" ]; then
  plugins=${XDG_CONFIG_HOME:-$HOME/.config}/opencode/plugins
  mkdir -p "$plugins"
  cp "$here/opencode/memory-bank.js" "$plugins/memory-bank.js"
  echo "Installed $plugins/memory-bank.js"
fi

command -v curl >/dev/null 2>&1 || command -v wget >/dev/null 2>&1 ||
  echo "Warning: neither curl nor wget is installed; forward.sh needs one of them."
command -v curl >/dev/null 2>&1 || echo "Warning: curl is not installed; recall.sh needs it (without it, it recalls nothing)."

cat <<STEPS

Next steps:
  1. Set the service address and an API key (scopes hooks:write and memory:read; recall
     needs both) where your agents run,
     e.g. in ~/.profile:
       export MEMORY_BANK_URL=https://memory.example.com
       export MEMORY_BANK_API_KEY=mbk_...
  2. Wire your agent:
       Claude Code  merge $here/claude-code/settings.json into ~/.claude/settings.json
       Codex        see $here/codex/README.md
       OpenCode     sh $here/install.sh --opencode
  3. Check: echo '{"session_id":"install-check","event":"note","text":"hello"}' \\
       | MEMORY_BANK_DEBUG=1 ~/.memory-bank/forward.sh generic
     (HTTP 202 means delivered; undelivered events wait in ~/.memory-bank/spool)
  4. Recall: echo '{"session_id":"install-check","hook_event_name":"UserPromptSubmit","prompt":"hello"}' \\
       | MEMORY_BANK_DEBUG=1 ~/.memory-bank/recall.sh claude-code
     (prints {} or the context your agent would be given)
STEPS

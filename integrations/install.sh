#!/bin/sh
# Installs the Memory Bank hook forwarder to ~/.memory-bank/forward.sh and prints the next steps.
#   sh integrations/install.sh              forwarder only
#   sh integrations/install.sh --opencode   also the OpenCode plugin (~/.config/opencode/plugins/)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dest=$HOME/.memory-bank

mkdir -p "$dest"
cp "$here/forward.sh" "$dest/forward.sh.new"
chmod 755 "$dest/forward.sh.new"
mv "$dest/forward.sh.new" "$dest/forward.sh"
echo "Installed $dest/forward.sh"

if [ "${1:-}" = "--opencode" ]; then
  plugins=${XDG_CONFIG_HOME:-$HOME/.config}/opencode/plugins
  mkdir -p "$plugins"
  cp "$here/opencode/memory-bank.js" "$plugins/memory-bank.js"
  echo "Installed $plugins/memory-bank.js"
fi

command -v curl >/dev/null 2>&1 || command -v wget >/dev/null 2>&1 ||
  echo "Warning: neither curl nor wget is installed; forward.sh needs one of them."

cat <<STEPS

Next steps:
  1. Set the service address and an API key (scope hooks:write) where your agents run,
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
STEPS

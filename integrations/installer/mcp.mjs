// The MCP server configuration the installer prints for each client. The API key is never in
// it: every form makes the client read MEMORY_BANK_API_KEY from its environment when it
// connects (the client's own variable syntax where it has one, else a shell that expands it).
export const KEY_VARIABLE = 'MEMORY_BANK_API_KEY';

const json = (value) => JSON.stringify(value, null, 2);

/** A stdio bridge for clients that cannot read a header value from the environment: sh expands the key at start. */
const bridge = (url) => ({
  command: 'sh',
  args: ['-c', `exec npx -y mcp-remote "${url}" --header "Authorization:Bearer $${KEY_VARIABLE}"`],
});

/** Where and what to add, as printable text, for `harness`, the service's MCP endpoint being `url`. */
export function mcpInstructions(harness, url) {
  switch (harness) {
    case 'claude-code':
      return [
        'Claude Code: the plugin brings the MCP server (/plugin marketplace add <this repository>, then /plugin install memory-bank@memory-bank),',
        'or add to a project\'s .mcp.json (Claude Code expands ${...} when it connects):',
        json({ mcpServers: { 'memory-bank': { type: 'http', url, headers: { Authorization: `Bearer \${${KEY_VARIABLE}}` } } } }),
      ].join('\n');
    case 'codex':
      return ['Codex (runs it for you: reads the key from the variable on every connection):', `  codex mcp add memory-bank --url ${url} --bearer-token-env-var ${KEY_VARIABLE}`, 'or in ~/.codex/config.toml:', `  [mcp_servers.memory-bank]\n  url = "${url}"\n  bearer_token_env_var = "${KEY_VARIABLE}"`].join('\n');
    case 'gemini-cli':
      return ['Gemini CLI: add to ~/.gemini/settings.json (it expands $VARIABLES in settings):', json({ mcpServers: { 'memory-bank': { httpUrl: url, headers: { Authorization: `Bearer \$${KEY_VARIABLE}` } } } })].join('\n');
    case 'cursor':
      return ['Cursor: add to ~/.cursor/mcp.json (it expands ${env:…}):', json({ mcpServers: { 'memory-bank': { url, headers: { Authorization: `Bearer \${env:${KEY_VARIABLE}}` } } } })].join('\n');
    case 'opencode':
    case 'kilo': {
      const file = harness === 'kilo' ? '~/.config/kilo/kilo.json' : '~/.config/opencode/opencode.json';
      return [`${harness === 'kilo' ? 'Kilo' : 'OpenCode'}: add to ${file} (it expands {env:…}):`, json({ mcp: { 'memory-bank': { type: 'remote', url, headers: { Authorization: `Bearer {env:${KEY_VARIABLE}}` } } } })].join('\n');
    }
    case 'factory':
      return ['Factory Droid: add to ~/.factory/mcp.json (a stdio bridge; the shell expands the key when Droid starts it):', json({ mcpServers: { 'memory-bank': { type: 'stdio', ...bridge(url) } } })].join('\n');
    case 'cline':
      return ['Cline: add to cline_mcp_settings.json (MCP Servers → Configure; a stdio bridge, the shell expands the key when Cline starts it):', json({ mcpServers: { 'memory-bank': bridge(url) } })].join('\n');
    case 'kimi':
      return ['Kimi Code CLI: add to ~/.kimi-code/mcp.json (it reads the bearer token from the variable named):', json({ mcpServers: { 'memory-bank': { url, bearerTokenEnvVar: KEY_VARIABLE } } })].join('\n');
    case 'copilot':
      return ['GitHub Copilot CLI: add to ~/.copilot/mcp-config.json (a stdio bridge; the shell expands the key when Copilot starts it):', json({ mcpServers: { 'memory-bank': { type: 'local', ...bridge(url), tools: ['*'] } } })].join('\n');
    default:
      return '';
  }
}

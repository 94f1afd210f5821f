/** Where the MCP endpoint lives (Streamable HTTP). */
export const MCP_PATH = '/mcp';

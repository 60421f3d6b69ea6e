// Public entry of the simulated adt-ls MCP server: the LSP lifecycle handlers (registerMcp)
// and the standalone Streamable HTTP endpoint (startMcpHttpServer) with its helpers.
export { registerMcp, MCP_SERVER_VERSION } from './lsp-handlers.mjs';
export { startMcpHttpServer } from './http-server.mjs';
export { newMcpToken } from './http-util.mjs';
export { defaultModes, readMcpConfigFromEnv, normalizeModes, mcpEnvName, MODE_NAMES } from './modes.mjs';
export { capturedTools, toolsForMode, VFS_ONLY_TOOLS } from './catalogue.mjs';
export { encodeCursor, decodeCursor } from './cursor.mjs';
export { SERVER_INFO } from './mcp-protocol.mjs';

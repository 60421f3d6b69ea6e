// The adt-ls LSP requests that control the MCP server: adtLs/mcp/startMCPServer,
// adtLs/mcp/stopMCPServer and adtLs/mcp/setDestination, with adt-ls 1.1.2's port rules,
// bind-error text and VFS-dependent tool set. Mode knobs come from ctx.config.mcp (or the
// ADTLS_SIM_MCP_* environment variables when the config has none).
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { startMcpHttpServer } from './http-server.mjs';
import { newMcpToken } from './http-util.mjs';
import { normalizeModes, readMcpConfigFromEnv } from './modes.mjs';
import { createBackendToolHandler } from './tool-results.mjs';

const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;
export const MCP_SERVER_VERSION = '1.0.0';

/** The object param of an adtLs/mcp/* request; any other shape is refused (Invalid params). */
function objectParams(params, method) {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new ResponseError(INVALID_PARAMS, `Invalid params for ${method}: expected an object`);
  }
  return params;
}

/** The configured MCP modes; an unknown knob is an error, never silently ignored. */
function configuredModes(ctx) {
  const { modes, unknown } = normalizeModes(ctx.config?.mcp ?? readMcpConfigFromEnv(process.env));
  if (unknown.length) throw new ResponseError(INTERNAL_ERROR, `Unknown MCP mode knob(s): ${unknown.join(', ')}`);
  return modes;
}

function bindFailure(port, error) {
  if (error?.code === 'EADDRINUSE') {
    return new ResponseError(
      INTERNAL_ERROR,
      `java.net.BindException: failed to bind to port ${port}: Address already in use`,
    );
  }
  return new ResponseError(
    INTERNAL_ERROR,
    `java.net.BindException: failed to bind to port ${port}: ${error?.message ?? error}`,
  );
}

export function registerMcp(ctx) {
  let selectedDestination;
  let starting = false;

  ctx.onRequest('adtLs/mcp/startMCPServer', async (rawParams) => {
    const params = objectParams(rawParams, 'adtLs/mcp/startMCPServer');
    const { port, fileSystemMode } = params;
    if (!Number.isInteger(port) || port < 1024 || port > 65535) {
      throw new ResponseError(INTERNAL_ERROR, 'Port must be between 1024 and 65535');
    }
    if (ctx.state.mcp || starting) {
      const running = ctx.state.mcp?.port ?? port;
      throw new ResponseError(INTERNAL_ERROR, `MCP server is already running on port ${running}; stop it first`);
    }
    const modes = configuredModes(ctx);
    const { replaceToken, ...httpModes } = modes;
    const token =
      replaceToken || typeof params.token !== 'string' || params.token === '' ? newMcpToken() : params.token;
    starting = true;
    try {
      ctx.state.mcp = await startMcpHttpServer({
        port,
        token,
        fileSystemMode,
        modes: httpModes,
        toolHandler: createBackendToolHandler(ctx, () => selectedDestination),
        log: ctx.log,
        trace: ctx.trace,
      });
    } catch (error) {
      throw bindFailure(port, error);
    } finally {
      starting = false;
    }
    ctx.log?.(`MCP server started on port ${port} (fileSystemMode: ${fileSystemMode ?? 'none'})`);
    return { port, token, version: MCP_SERVER_VERSION };
  });

  ctx.connection.onRequest('adtLs/mcp/stopMCPServer', async () => {
    const running = ctx.state.mcp;
    ctx.state.mcp = null;
    if (running) {
      await running.close();
      ctx.log?.(`MCP server on port ${running.port} stopped`);
    }
    return null;
  });

  ctx.onRequest('adtLs/mcp/setDestination', (rawParams) => {
    const destinationId = objectParams(rawParams, 'adtLs/mcp/setDestination').destinationId;
    selectedDestination = typeof destinationId === 'string' && destinationId !== '' ? destinationId : undefined;
    return null;
  });
}

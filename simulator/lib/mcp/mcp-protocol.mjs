// The MCP protocol layer of the simulated endpoint: a low-level SDK `Server` answering
// initialize (configurable protocol version), tools/list (paging and broken-list modes) and
// tools/call (ajv-validated arguments, results from a tool handler; `notifications/progress`
// for the tools of PROGRESS_TOOLS when the call has `_meta.progressToken`). One instance
// serves one HTTP request; sessions are kept by the HTTP layer.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { decodeCursor, encodeCursor } from './cursor.mjs';
import { argumentProblem } from './validate-args.mjs';
import { toCallToolResult } from './tool-results.mjs';

/** Tools that report progress when the call carries `_meta.progressToken`. */
export const PROGRESS_TOOLS = new Set(['abap_run_unit_tests']);

export const SERVER_INFO = Object.freeze({ name: 'ADT MCP Server', version: '1.0.0' });
const INVALID_PARAMS = -32602;

/** A JSON-RPC error the SDK forwards with exactly this code and message. */
function rpcError(code, message) {
  return Object.assign(new Error(message), { code });
}

function brokenList(kind, tools) {
  if (kind === 'notArray') return { tools: { count: tools.length } };
  if (kind === 'badEntry')
    return { tools: [{ title: 'A tool without a name', inputSchema: { type: 'object' } }, ...tools] };
  return {};
}

export function listToolsPage(modes, tools, cursor) {
  if (modes.invalidTools) return brokenList(modes.invalidTools, tools);
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  if (offset === undefined) throw rpcError(INVALID_PARAMS, `Invalid cursor: ${cursor}`);
  const size = modes.pageSize > 0 ? modes.pageSize : tools.length;
  const result = { tools: tools.slice(offset, offset + size) };
  if (offset + size < tools.length) result.nextCursor = encodeCursor(offset + size);
  if (modes.loopCursor) result.nextCursor = encodeCursor(0);
  if (modes.nullCursor) result.nextCursor = null;
  return result;
}

/**
 * @param {object} o
 * @param {() => object} o.modes     current mode knobs
 * @param {object[]} o.tools         descriptors this server lists
 * @param {(name, args) => any} o.toolHandler
 */
export function createMcpProtocolServer({ modes, tools, toolHandler }) {
  const server = new Server({ ...SERVER_INFO }, { capabilities: { tools: {} } });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  server.setRequestHandler(InitializeRequestSchema, () => ({
    protocolVersion: modes().protocolVersion,
    capabilities: { tools: {} },
    serverInfo: { ...SERVER_INFO },
  }));

  server.setRequestHandler(ListToolsRequestSchema, (request) => listToolsPage(modes(), tools, request.params?.cursor));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const tool = byName.get(name);
    if (!tool) throw rpcError(INVALID_PARAMS, `Unknown tool: ${name}`);
    const problem = argumentProblem(tool, args);
    if (problem) throw rpcError(INVALID_PARAMS, problem);
    const token = request.params._meta?.progressToken;
    const report = PROGRESS_TOOLS.has(name) && token !== undefined
      ? (progress, message) =>
          extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, total: 3, message },
          })
      : async () => {};
    await report(1, `${name}: started`);
    await report(2, `${name}: running`);
    const result = toCallToolResult(await toolHandler(name, args));
    await report(3, `${name}: done`);
    return result;
  });

  return server;
}

// Where tools/call results come from: the simulated SAP backend (when the server was started
// through LSP), a test-supplied handler, or the default echo; and how a backend's
// {text, structuredContent?, isError?} becomes an MCP CallToolResult.

/** Converts a backend/tool-handler answer into a CallToolResult (MCP-shaped input passes through). */
export function toCallToolResult(answer) {
  if (answer && typeof answer === 'object' && Array.isArray(answer.content)) return answer;
  const text = typeof answer === 'string' ? answer : String(answer?.text ?? '');
  const result = { content: [{ type: 'text', text }] };
  if (answer && typeof answer === 'object') {
    if (answer.structuredContent !== undefined) result.structuredContent = answer.structuredContent;
    if (answer.isError) result.isError = true;
  }
  return result;
}

/** Standalone default: echo the call back as JSON text. */
export function echoToolHandler(name, args) {
  return { text: JSON.stringify({ name, arguments: args }) };
}

/** Runs `work`; a rejection becomes an isError result carrying the error's message. */
async function asToolResult(work) {
  try {
    return await work();
  } catch (error) {
    return { text: error instanceof Error ? error.message : String(error), isError: true };
  }
}

/** Every destination id that has a logged-on backend right now. */
function connectedDestinations(ctx, selected) {
  const ids = new Set([...(ctx.state?.destinations?.keys() ?? []), selected, ctx.defaultDestination?.()]);
  return [...ids].filter((id) => typeof id === 'string' && ctx.backend?.(id));
}

/**
 * abap_list_destinations: the entries of every connected destination's backend, merged into
 * one JSON array; "[]" (foundation mode) when none is connected.
 */
async function listDestinations(ctx, selected, args) {
  const entries = [];
  for (const id of connectedDestinations(ctx, selected)) {
    const answer = await ctx.backend(id).call('tool:abap_list_destinations', { ...args, destination: id });
    if (answer?.isError) return answer;
    try {
      const parsed = JSON.parse(answer?.text ?? '[]');
      entries.push(...(Array.isArray(parsed) ? parsed : [parsed]));
    } catch {
      return answer;
    }
  }
  return { text: JSON.stringify(entries) };
}

/**
 * The tool handler of an adt-ls started over LSP. The destination is the call's
 * `destination` argument, else the one chosen with adtLs/mcp/setDestination (no fallback). Without a backend it answers like a foundation-mode adt-ls:
 * abap_list_destinations -> "[]", anything else -> an isError result naming the destination.
 * A backend rejection becomes an isError result carrying the error's message.
 */
export function createBackendToolHandler(ctx, selectedDestination) {
  const handler = backendToolHandler(ctx, selectedDestination);
  if (ctx.trace?.enabled !== true) return handler;
  // Opt-in timing (only with a trace): how long each tool call took, backend round trips included.
  return async (name, args) => {
    const started = process.hrtime.bigint();
    try {
      return await handler(name, args);
    } finally {
      ctx.trace({ event: 'mcp-tool-timing', name, us: Number(process.hrtime.bigint() - started) / 1000 });
    }
  };
}

function backendToolHandler(ctx, selectedDestination) {
  return async (name, args) => {
    if (name === 'abap_list_destinations')
      return asToolResult(() => listDestinations(ctx, selectedDestination(), args));
    const destination = typeof args.destination === 'string' ? args.destination : selectedDestination();
    const backend = destination === undefined ? undefined : ctx.backend?.(destination);
    if (backend) return asToolResult(() => backend.call(`tool:${name}`, args));
    if (destination === undefined) return { text: 'No ABAP destination is set for the MCP server', isError: true };
    return { text: `Destination ${destination} not found`, isError: true };
  };
}

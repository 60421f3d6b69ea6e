// The `adtLs/destinations/*` LSP handlers of the simulated adt-ls. S1's server calls
// `registerLogon(ctx)`; `adtLs/mcp/setDestination` belongs to the MCP module.
//
// Settings come from ctx.config (see settings.mjs): logon.timeoutMs (default 15000),
// logon.input ('socket' | 'legacy'), logon.javaToolOptions (else JAVA_TOOL_OPTIONS),
// backend.timeoutMs. Records `ctx.state.lastLogonInput` (redacted) and traces
// `{event: 'logonInput', ...}`.
import { registerDestinationHandlers } from './destinations.mjs';
import { ensureLoggedOn, stopLogonAttempt } from './logon-flow.mjs';
import { destinationIdOf } from './rpc.mjs';

export { buildLogonUrl } from './logon-flow.mjs';

export function registerLogon(ctx) {
  registerDestinationHandlers(ctx);
  ctx.connection.onRequest('adtLs/destinations/ensureLoggedOn', (...args) => ensureLoggedOn(ctx, destinationIdOf(args)));
  ctx.connection.onRequest('adtLs/destinations/stopLogonAttempt', (...args) => stopLogonAttempt(ctx, destinationIdOf(args)));
}

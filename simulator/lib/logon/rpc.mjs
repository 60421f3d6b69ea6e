// JSON-RPC plumbing for the logon handlers: strip the cancellation token vscode-jsonrpc
// appends, unwrap array-wrapped single params, and build ResponseErrors.
import { ResponseError } from 'vscode-jsonrpc';

export const INTERNAL_ERROR = -32603;

/** The params of a handler call without vscode-jsonrpc's trailing cancellation token. */
export function paramsOf(args) {
  const last = args.at(-1);
  const isToken = last && typeof last === 'object' && 'isCancellationRequested' in last;
  return isToken ? args.slice(0, -1) : args;
}

/**
 * The destination id of `ensureLoggedOn`-style calls: the one string param (`["ADTLS"]` on
 * the wire, docs/wire.md#parameter-encoding). Any other shape (`{destinationId}`, `[["ADTLS"]]`) is not one.
 */
export function destinationIdOf(args) {
  const params = paramsOf(args);
  return params.length === 1 && typeof params[0] === 'string' ? params[0] : undefined;
}

/** A JSON-RPC error with `message` as sent (uses ctx.ResponseError when the shell sets one). */
export function rpcError(ctx, message, code = INTERNAL_ERROR, data) {
  const Ctor = ctx.ResponseError ?? ResponseError;
  return new Ctor(code, message, data);
}

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

/** The destination id of `ensureLoggedOn(["ADTLS"])`-style calls (also `{destinationId}`). */
export function destinationIdOf(args) {
  const [first] = paramsOf(args);
  if (typeof first === 'string') return first;
  if (Array.isArray(first) && typeof first[0] === 'string') return first[0];
  if (first && typeof first === 'object') return first.destinationId ?? first.id;
  return undefined;
}

/** A JSON-RPC error with `message` as sent (uses ctx.ResponseError when the shell sets one). */
export function rpcError(ctx, message, code = INTERNAL_ERROR, data) {
  const Ctor = ctx.ResponseError ?? ResponseError;
  return new Ctor(code, message, data);
}

// A request registry served through vscode-jsonrpc's star handler, so handlers see the raw
// params exactly as they came off the wire (no array spreading). Handlers get
// (params, {raw, method, token}) where `params` unwraps the one-element array of a single
// non-object param only (["A4H"] -> "A4H", [null] -> null; [{...}] stays an array). Thrown errors keep their message, numeric code and data unchanged.

import { ResponseError } from 'vscode-jsonrpc/node.js';
import { gateError, INTERNAL_ERROR_CODE } from './gates.mjs';

const METHOD_NOT_FOUND = -32601;

/**
 * Unwraps the single-element array vscode-jsonrpc makes of ONE non-object param (a string
 * such as `["A4H"]`, or `[null]`). An object or array inside a one-element array is not
 * unwrapped: a client that sends `[{...}]` for an object param sent the wrong shape, and the
 * handler sees the array (and rejects it) like real adt-ls would.
 */
export function unwrapParams(raw) {
  return Array.isArray(raw) && raw.length === 1 && (raw[0] === null || typeof raw[0] !== 'object') ? raw[0] : raw;
}

/** True for a JSON object (not an array, not null). */
export function isObjectParam(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Any thrown value -> a ResponseError with the original message, code and data. */
export function toResponseError(error) {
  if (error instanceof ResponseError) return error;
  if (error && typeof error.message === 'string') {
    const code = Number.isInteger(error.code) ? error.code : INTERNAL_ERROR_CODE;
    return new ResponseError(code, error.message, error.data);
  }
  return new ResponseError(INTERNAL_ERROR_CODE, String(error ?? 'Internal error'));
}

export function createDispatcher(connection, ctx) {
  const handlers = new Map();

  connection.onRequest(async (method, raw, token) => {
    // Gates first: real adt-ls has every adtLs/* method, even those another module serves.
    const gate = gateError(ctx, method);
    if (gate) throw gate;
    // A compromised adt-ls (config.lspResults): this method's answer is the configured value.
    const forged = ctx.config?.lspResults;
    if (forged && Object.hasOwn(forged, method)) return forged[method];
    const handler = handlers.get(method);
    if (!handler) throw new ResponseError(METHOD_NOT_FOUND, `Unhandled method ${method}`);
    try {
      const result = await handler(unwrapParams(raw), { raw, method, token });
      return result === undefined ? null : result;
    } catch (error) {
      throw toResponseError(error);
    }
  });

  return {
    /** Registers (or replaces) the handler for one method. */
    register(method, handler) {
      handlers.set(method, handler);
    },
    has(method) {
      return handlers.has(method);
    },
  };
}

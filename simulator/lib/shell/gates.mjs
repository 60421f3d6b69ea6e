// Preconditions real adt-ls enforces before serving a request, applied to every handler
// (ours and other modules'): a missing userAgentInfos breaks every backend HTTP call, and a
// bad workspace/configuration answer breaks the destination service.

import { ResponseError } from 'vscode-jsonrpc/node.js';

export const USER_AGENT_ERROR =
  'java.lang.NoClassDefFoundError: Could not initialize class com.sap.adt.communication.http.HttpRequestHeaderUtil';
export const DESTINATION_SERVICE_ERROR = 'Destination service not initialized';
export const INTERNAL_ERROR_CODE = -32603;

// Destination requests that never reach the backend over HTTP.
const NO_HTTP = new Set([
  'adtLs/destinations/initializeService',
  'adtLs/destinations/create',
  'adtLs/destinations/list',
  'adtLs/destinations/getLogonInfo',
  'adtLs/destinations/stopLogonAttempt',
]);

/** True when serving `method` needs a backend HTTP call inside adt-ls. */
export function isBackendDependent(method) {
  return method.startsWith('adtLs/') && !method.startsWith('adtLs/mcp/') && !NO_HTTP.has(method);
}

/** The error a request must fail with right now, or undefined. */
export function gateError(ctx, method) {
  if (typeof method !== 'string') return undefined;
  if (method.startsWith('adtLs/destinations/') && ctx.state.configurationProbe === 'bad') {
    return new ResponseError(INTERNAL_ERROR_CODE, DESTINATION_SERVICE_ERROR);
  }
  if (ctx.state.userAgentInfosMissing && isBackendDependent(method)) {
    return new ResponseError(INTERNAL_ERROR_CODE, USER_AGENT_ERROR);
  }
  return undefined;
}

/**
 * A view of the MessageConnection whose onRequest wraps method handlers with the gates.
 * Everything else is the connection itself.
 */
export function gatedConnection(connection, ctx) {
  const onRequest = (typeOrMethod, handler) => {
    const method = typeof typeOrMethod === 'string' ? typeOrMethod : typeOrMethod?.method;
    if (typeof handler !== 'function' || typeof method !== 'string') {
      return connection.onRequest(typeOrMethod, handler);
    }
    return connection.onRequest(typeOrMethod, (...args) => {
      const error = gateError(ctx, method);
      if (error) throw error;
      return handler(...args);
    });
  };
  return new Proxy(connection, {
    get(target, prop) {
      if (prop === 'onRequest') return onRequest;
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

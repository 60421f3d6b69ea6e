// The destination handlers of the simulated adt-ls: initializeService (store path rules),
// create (validation as adt-ls 1.1.2 does it), list, getStorePath and getLogonInfo.
import { isAbsolute } from 'node:path';
import { logonLog } from './log.mjs';
import { destinationIdOf, paramsOf, rpcError } from './rpc.mjs';
import { destinationView, saveStore, storeFilePath } from './store-file.mjs';

const KNOWN_KINDS = new Set(['reentranceTicket', 'basicAuth', 'oauth', 'sso']);

/** Throws unless initializeService ran first. */
export function requireInitialized(ctx) {
  if (!ctx.state.destinationsStorePath) {
    throw rpcError(ctx, 'The destinations service is not initialized: call adtLs/destinations/initializeService first');
  }
}

function initializeService(ctx, params) {
  const path = params?.destinationsStorePath;
  if (typeof path !== 'string' || path.trim() === '') {
    throw rpcError(ctx, 'destinationsStorePath must not be empty (an empty path would select the global ~/.adtls store)');
  }
  if (!isAbsolute(path)) throw rpcError(ctx, `destinationsStorePath must be an absolute path: ${path}`);
  ctx.state.destinationsStorePath = path;
  logonLog(ctx, 'INFO', `Destinations store: ${storeFilePath(path)}`);
  return null;
}

function validateCreate(ctx, params) {
  if (!params || typeof params !== 'object') throw rpcError(ctx, 'Invalid destination: params missing');
  const { id, protocol, properties } = params;
  if (typeof id !== 'string' || id.trim() === '') throw rpcError(ctx, 'Invalid destination: id must not be empty');
  if (protocol !== 'http') {
    const hint = '(use "http"; the scheme belongs in systemUrl)';
    throw rpcError(ctx, `java.lang.NullPointerException: no destination provider for protocol "${protocol}" ${hint}`);
  }
  if (!properties || typeof properties !== 'object') throw rpcError(ctx, 'Invalid destination: properties missing');
  if ('password' in properties || 'password' in params) {
    throw rpcError(ctx, 'Invalid destination: a password must not be stored in a destination');
  }
  let url;
  try {
    url = new URL(properties.systemUrl);
  } catch {
    throw rpcError(ctx, `Invalid systemUrl: ${properties.systemUrl}`);
  }
  if (url.protocol !== 'https:') throw rpcError(ctx, 'Only HTTPS protocol is allowed');
  if (!KNOWN_KINDS.has(properties.authenticationKind)) {
    throw rpcError(ctx, `Unsupported authenticationKind: ${properties.authenticationKind}`);
  }
  return { id, url, properties };
}

async function create(ctx, params) {
  requireInitialized(ctx);
  const { id, properties } = validateCreate(ctx, params);
  const dest = {
    id,
    systemUrl: properties.systemUrl,
    authenticationKind: properties.authenticationKind,
    user: properties.user ? String(properties.user).toUpperCase() : undefined,
    client: properties.client ?? '001',
    language: properties.language ?? 'EN',
    logonState: 'disconnected',
  };
  ctx.state.destinations.set(id, dest);
  ctx.setBackend(id, undefined);
  const problem = await saveStore(ctx.state.destinationsStorePath, ctx.state.destinations);
  if (problem) logonLog(ctx, 'WARN', problem);
  logonLog(ctx, 'INFO', `Destination ${id} created (${dest.systemUrl}, client ${dest.client}, ${dest.authenticationKind})`);
  return id;
}

/** `{destinationId, user?, logonState, message?}` of a known destination. */
export function logonInfo(dest) {
  const info = { destinationId: dest.id };
  if (dest.user) info.user = dest.user;
  info.logonState = dest.logonState;
  if (dest.message && dest.logonState !== 'connected') info.message = dest.message;
  return info;
}

export function requireDestination(ctx, id) {
  requireInitialized(ctx);
  const dest = typeof id === 'string' ? ctx.state.destinations.get(id) : undefined;
  if (!dest) throw rpcError(ctx, `Destination ${id} does not exist`);
  return dest;
}

export function registerDestinationHandlers(ctx) {
  const on = (method, fn) => ctx.connection.onRequest(method, (...args) => fn(...args));
  on('adtLs/destinations/initializeService', (...args) => initializeService(ctx, paramsOf(args)[0]));
  on('adtLs/destinations/create', (...args) => create(ctx, paramsOf(args)[0]));
  on('adtLs/destinations/list', () => {
    requireInitialized(ctx);
    return [...ctx.state.destinations.values()].map((d) => ({ ...destinationView(d), logonState: d.logonState }));
  });
  on('adtLs/destinations/getStorePath', () => {
    requireInitialized(ctx);
    return storeFilePath(ctx.state.destinationsStorePath);
  });
  on('adtLs/destinations/getLogonInfo', (...args) => logonInfo(requireDestination(ctx, destinationIdOf(args))));
}

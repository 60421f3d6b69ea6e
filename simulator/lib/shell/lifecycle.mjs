// The LSP lifecycle of the simulated adt-ls: `initialize` (capabilities from the captured
// 1.1.2 fixture, the userAgentInfos check, hang/error fault modes), `initialized` (then the
// server->client startup requests and noise notifications real adt-ls sends), shutdown/exit.

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ResponseError } from 'vscode-jsonrpc/node.js';

export const FIXTURE_URL = new URL('../../fixtures/adt-ls-1.1.2-capabilities.json', import.meta.url);
export const CONFIGURATION_ITEMS = Object.freeze([{ section: 'adt.joule.url' }]);

let fixtureCache;
/** The captured fixture (parsed once per process). */
export function loadFixture() {
  fixtureCache ??= JSON.parse(readFileSync(FIXTURE_URL, 'utf8'));
  return fixtureCache;
}

/** The initialize capabilities: the fixture's `lsp`, patched by config, plus testPipe on request. */
export function buildCapabilities(config, pipe) {
  const capabilities = structuredClone(loadFixture().lsp);
  for (const [key, value] of Object.entries(config.capabilitiesPatch ?? {})) {
    if (value === null) delete capabilities[key];
    else capabilities[key] = value;
  }
  if (config.echoPipe) capabilities.testPipe = pipe;
  return capabilities;
}

const NPE_LINES = [
  'java.lang.NullPointerException: Cannot invoke "java.util.List.iterator()" because "userAgentInfos" is null',
  '\tat com.sap.adt.communication.http.HttpRequestHeaderUtil.<clinit>(HttpRequestHeaderUtil.java:41)',
  '\tat com.sap.adt.ls.server.AdtLanguageServer.initialize(AdtLanguageServer.java:212)',
];

export function registerLifecycle(ctx, { pipe, exit }) {
  const { config, connection } = ctx;

  ctx.onRequest('initialize', (params) => {
    ctx.state.initializeParams = params;
    const infos = params?.initializationOptions?.userAgentInfos;
    ctx.state.userAgentInfosMissing = !Array.isArray(infos);
    ctx.trace({ event: 'initialize', userAgentInfos: ctx.state.userAgentInfosMissing ? 'missing' : 'ok' });
    if (ctx.state.userAgentInfosMissing) for (const line of NPE_LINES) ctx.log(line);
    if (config.hangInitialize) return new Promise(() => {});
    if (config.initializeError) throw new ResponseError(config.initializeErrorCode, config.initializeError);
    return {
      capabilities: buildCapabilities(config, pipe),
      serverInfo: { name: config.serverName, version: config.version },
    };
  });

  connection.onNotification('initialized', () => {
    if (ctx.state.initialized) return;
    ctx.state.initialized = true;
    ctx.trace({ event: 'initialized' });
    if (config.startupRequests) runStartupRequests(ctx);
    else ctx.state.configurationProbe = 'skipped';
  });

  ctx.onRequest('shutdown', () => null);
  connection.onNotification('exit', () => exit(0));
}

/** Sends a notification unless the connection is already gone (a dropped socket throws). */
function notify(ctx, method, params) {
  try {
    ctx.connection.sendNotification(method, params).catch(() => {});
  } catch {
    // Connection closed or disposed: nothing to tell any more.
  }
}

/** Sends a request; a closed connection settles it as an error instead of throwing. */
function request(ctx, method, params) {
  try {
    return ctx.connection.sendRequest(method, params);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The server->client requests real adt-ls sends after `initialized`, and their checks. */
export function runStartupRequests(ctx) {
  const { state } = ctx;
  state.configurationProbe = 'pending';
  request(ctx, 'workspace/configuration', { items: CONFIGURATION_ITEMS }).then(
    (result) => recordProbe(ctx, result),
    (error) => recordProbe(ctx, undefined, error),
  );

  const registration = {
    id: randomUUID(),
    method: 'textDocument/formatting',
    registerOptions: { documentSelector: [{ language: 'abap', scheme: 'abap' }] },
  };
  request(ctx, 'client/registerCapability', { registrations: [registration] }).then(
    (result) => record(ctx, 'registerCapability', result),
    (error) => record(ctx, 'registerCapability', undefined, error),
  );

  const token = randomUUID();
  request(ctx, 'window/workDoneProgress/create', { token }).then(
    (result) => {
      record(ctx, 'workDoneProgressCreate', result);
      if (ctx.config.noise) sendProgressNoise(ctx, token);
    },
    (error) => record(ctx, 'workDoneProgressCreate', undefined, error),
  );

  if (ctx.config.noise) {
    notify(ctx, 'window/logMessage', { type: 3, message: `ADT Language Server ${ctx.config.version} started` });
  }
}

function sendProgressNoise(ctx, token) {
  const send = (value) => notify(ctx, '$/progress', { token, value });
  send({ kind: 'begin', title: 'Initializing ABAP Development Tools', percentage: 0 });
  send({ kind: 'report', message: 'Loading destinations', percentage: 50 });
  send({ kind: 'end', message: 'Done' });
  notify(ctx, 'window/logMessage', { type: 4, message: 'Workspace initialised' });
}

function recordProbe(ctx, result, error) {
  const ok = !error && Array.isArray(result) && result.length === CONFIGURATION_ITEMS.length && result[0] === null;
  ctx.state.configurationProbe = ok ? 'ok' : 'bad';
  record(ctx, 'configuration', result, error);
  ctx.trace({ event: 'configuration-probe', ok, result: error ? undefined : result ?? null });
  if (!ok) {
    ctx.log(`SEVERE: Destination service could not be initialized: unexpected workspace/configuration answer ${JSON.stringify(result ?? null)}`);
  }
}

function record(ctx, name, result, error) {
  ctx.state.startup[name] = error ? { error: error.message } : { result: result ?? null };
}

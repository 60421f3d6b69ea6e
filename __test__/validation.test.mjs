// Validation at the boundary: every export and every client method, called
// with wrong types, missing values, out-of-range numbers and unknown option keys. Each failure
// is an argument error in Node's style — a `TypeError` (`RangeError` for ERR_OUT_OF_RANGE)
// that is also an `AdtLsError`, a string code, a message that starts with the argument's path
// and says what was received, no binding wording — thrown only by the synchronous helpers;
// everything that returns a promise rejects. Unknown keys are warnings naming the closest
// known key, never failures (0.5.0 ignored them). The client's methods are found by walking
// the client object (no hand-kept list), and the process keeps working afterwards.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as lib from '../index.js';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { join } from 'node:path';
import { ROOT, until } from './helpers.mjs';
import { declarationProgram } from './support/declarations.mjs';
import { declaredParameters } from './support/declared-api.mjs';
import { PASSWORD, CLIENT_BOUNDS, installedAdtLs, captureLogs } from './fixtures/client/support.mjs';

const {
  AdtLsDriver,
  AdtLsError,
  AdtLsMcpClient,
  basic,
  bearer,
  clientCert,
  createAdtLs,
  custom,
  interactive,
} = lib;

const BINDING_WORDING = /Failed to convert|rust type|napi|StringExpected|Failed to get Array length|Failed to create reference/i;
const ARGUMENT_CODES = ['ERR_INVALID_ARG_TYPE', 'ERR_INVALID_ARG_VALUE', 'ERR_OUT_OF_RANGE'];
const LEGEND = { tokenTypes: ['class'], tokenModifiers: [] };
const fakeDriver = { sendRequest: async () => ({ ok: 1 }) };
const noop = () => {};

/** An argument error naming `path` (the message starts with it), per Node's conventions. */
function assertArgumentError(e, path, label) {
  assert.ok(e instanceof Error, `${label}: an Error (${e})`);
  assert.ok(e instanceof AdtLsError, `${label}: an AdtLsError`);
  assert.equal(typeof e.code, 'string', `${label}: a string code`);
  assert.ok(ARGUMENT_CODES.includes(e.code), `${label}: an argument code, got ${e.code}`);
  const kind = e.code === 'ERR_OUT_OF_RANGE' ? RangeError : TypeError;
  assert.ok(e instanceof kind, `${label}: a ${kind.name} (${e.name})`);
  assert.ok(e.message.startsWith(`${path} must be `), `${label}: names ${path}: ${e.message}`);
  assert.match(e.message, /, received /, `${label}: says what was received: ${e.message}`);
  assert.doesNotMatch(e.message, BINDING_WORDING, label);
  assert.doesNotMatch(String(e.stack), BINDING_WORDING, label);
}

/** Run `call`; it must not throw synchronously and must return a promise that rejects. */
async function rejectionOf(call, label) {
  let promise;
  assert.doesNotThrow(() => {
    promise = call();
  }, `${label}: threw synchronously`);
  assert.ok(promise instanceof Promise, `${label}: returns a promise`);
  return promise.then(
    (v) => assert.fail(`${label}: resolved with ${JSON.stringify(v)}`),
    (e) => e,
  );
}

/** Run `call`; it must throw synchronously. */
function thrownBy(call, label) {
  try {
    call();
  } catch (e) {
    return e;
  }
  return assert.fail(`${label}: did not throw`);
}

// [label, call, argument path] — the synchronous helpers (factories, pure functions,
// constructors and setRequestHandler): they throw.
const SYNCHRONOUS = [
  ['basic', () => basic('DEVELOPER', undefined), 'password'],
  ['basic', () => basic(42, PASSWORD), 'user'],
  ['bearer', () => bearer(undefined), 'token'],
  ['bearer', () => bearer('tok-12345678', { user: 5 }), 'opts.user'],
  ['clientCert', () => clientCert('cert.pem'), 'opts'],
  ['clientCert', () => clientCert({ cert: 'PEM' }), 'opts.key'],
  ['clientCert', () => clientCert({ cert: 5, key: 'PEM' }), 'opts.cert'],
  ['interactive', () => interactive(undefined), 'cb'],
  ['interactive', () => interactive({ openUrl: 'https://x' }), 'cb.openUrl'],
  ['interactive', () => interactive({ openUrl: noop, promptField: true }), 'cb.promptField'],
  ['custom', () => custom('register'), 'register'],
  ['custom', () => custom(noop, 5), 'opts'],
  ['setLogger', () => lib.setLogger(null), 'logger'],
  ['setLogger', () => lib.setLogger({ warn: 'stderr' }), 'logger.warn'],
  ['stderrLogger', () => lib.stderrLogger(5), 'prefix'],
  ['parseAdtLsVersion', () => lib.parseAdtLsVersion(1.1), 'version'],
  ['isSupportedAdtLsVersion', () => lib.isSupportedAdtLsVersion({}), 'version'],
  ['assertSupportedAdtLsVersion', () => lib.assertSupportedAdtLsVersion([1, 1, 2]), 'version'],
  ['platformSubPath', () => lib.platformSubPath(5), 'platform'],
  ['platformSubPath', () => lib.platformSubPath('linux', 64), 'arch'],
  ['defaultExtensionDirs', () => lib.defaultExtensionDirs(true), 'home'],
  ['resolveAdtLsPath', () => lib.resolveAdtLsPath('/usr/bin/adt-ls'), 'opts'],
  ['resolveAdtLsPath', () => lib.resolveAdtLsPath({ extensionsDirs: '/x' }), 'opts.extensionsDirs'],
  ['composeSpawnArgs', () => lib.composeSpawnArgs(undefined), 'opts'],
  ['composeSpawnArgs', () => lib.composeSpawnArgs({ dataDir: '/d' }), 'opts.pipeName'],
  ['composeSpawnArgs', () => lib.composeSpawnArgs({ dataDir: '/d', pipeName: 'p', extraArgs: [1] }), 'opts.extraArgs[0]'],
  ['applyTextEdits', () => lib.applyTextEdits(5, []), 'text'],
  ['applyTextEdits', () => lib.applyTextEdits('abc', 'edit'), 'edits'],
  ['decodeSemanticTokens', () => lib.decodeSemanticTokens('0 1 2', LEGEND), 'data'],
  ['decodeSemanticTokens', () => lib.decodeSemanticTokens([0, 'a'], LEGEND), 'data[1]'],
  ['decodeSemanticTokens', () => lib.decodeSemanticTokens([], undefined), 'legend'],
  ['decodeSemanticTokens', () => lib.decodeSemanticTokens([], { tokenTypes: 'class' }), 'legend.tokenTypes'],
  ['parseFederated', () => lib.parseFederated(undefined), 'res'],
  ['new AdtLsDriver', () => new AdtLsDriver(5), 'binPath'],
  ['new AdtLsDriver', () => new AdtLsDriver('/adt-ls', { extraArgs: 'x' }), 'opts.extraArgs'],
  ['new AdtLsDriver', () => new AdtLsDriver('/adt-ls', { extraEnv: { A: 1 } }), 'opts.extraEnv.A'],
  ['new AdtLsDriver', () => new AdtLsDriver('/adt-ls', { clientInfo: { name: 5 } }), 'opts.clientInfo.name'],
  ['new AdtLsDriver', () => new AdtLsDriver('/adt-ls', { requestHandlers: { m: 'x' } }), 'opts.requestHandlers.m'],
  ['new AdtLsDriver', () => new AdtLsDriver('/adt-ls', { requestTimeoutMs: -1 }), 'opts.requestTimeoutMs'],
  ['new AdtLsDriver', () => new AdtLsDriver('/adt-ls', { trace: '/tmp/wire.jsonl' }), 'opts.trace'],
  ['new AdtLsDriver', () => new AdtLsDriver('/adt-ls', { trace: { file: 5 } }), 'opts.trace.file'],
  ['new AdtLsDriver', () => new AdtLsDriver('/adt-ls', { trace: {} }), 'opts.trace.file'],
  ['setRequestHandler', () => new AdtLsDriver('/adt-ls').setRequestHandler(5, noop), 'method'],
  ['setRequestHandler', () => new AdtLsDriver('/adt-ls').setRequestHandler('m', 'handler'), 'handler'],
  ['onNotification', () => new AdtLsDriver('/adt-ls').onNotification(5, noop), 'method'],
  ['onNotification', () => new AdtLsDriver('/adt-ls').onNotification('m', 'handler'), 'handler'],
  ['new AdtLsMcpClient', () => new AdtLsMcpClient(5, 'mcp-secret-1'), 'baseUrl'],
  ['new AdtLsMcpClient', () => new AdtLsMcpClient('http://127.0.0.1:9/mcp', undefined), 'token'],
  ['new AdtLsMcpClient', () => new AdtLsMcpClient('http://127.0.0.1:9/mcp', 't', 'me'), 'clientInfo'],
  ['new AdtLsMcpClient', () => new AdtLsMcpClient('http://127.0.0.1:9/mcp', 't', undefined, 0), 'timeoutMs'],
];

const mcpClient = () => new AdtLsMcpClient('http://127.0.0.1:9/mcp', 'mcp-secret-1', undefined, 1000);
const connection = { systemUrl: 'https://sap.example.com:44300' };
const auth = () => basic('DEVELOPER', PASSWORD);

// [label, call, argument path] — everything that returns a promise: it rejects.
const ASYNCHRONOUS = [
  ['createAdtLs', () => createAdtLs('adt-ls'), 'opts'],
  ['createAdtLs', () => createAdtLs({ adtLs: { path: 123 } }), 'adtLs.path'],
  ['createAdtLs', () => createAdtLs({ adtLs: { extraArgs: '-consoleLog' } }), 'adtLs.extraArgs'],
  ['createAdtLs', () => createAdtLs({ adtLs: { extraEnv: ['A=1'] } }), 'adtLs.extraEnv'],
  ['createAdtLs', () => createAdtLs({ adtLs: { requestTimeoutMs: 0 } }), 'adtLs.requestTimeoutMs'],
  ['createAdtLs', () => createAdtLs({ adtLs: { startTimeoutMs: '60s' } }), 'adtLs.startTimeoutMs'],
  ['createAdtLs', () => createAdtLs({ connection: { ...connection, extraCaCerts: '/ca.pem' }, auth: auth() }), 'connection.extraCaCerts'],
  ['createAdtLs', () => createAdtLs({ connection: { ...connection, forwardProxy: { host: 'proxy' } }, auth: auth() }), 'connection.forwardProxy.port'],
  ['createAdtLs', () => createAdtLs({ connection: { ...connection, forwardProxy: { host: 'proxy', port: 99999 } }, auth: auth() }), 'connection.forwardProxy.port'],
  ['createAdtLs', () => createAdtLs({ connection: { ...connection, selfSigned: 'yes' }, auth: auth() }), 'connection.selfSigned'],
  ['createAdtLs', () => createAdtLs({ connection: { ...connection, probe: { types: ['CLAS/OC'] } }, auth: auth() }), 'connection.probe.pattern'],
  ['createAdtLs', () => createAdtLs({ connection: { systemUrl: 443 }, auth: auth() }), 'connection.systemUrl'],
  ['createAdtLs', () => createAdtLs({ connection: 'https://sap.example.com', auth: auth() }), 'connection'],
  ['createAdtLs', () => createAdtLs({ connection, auth: 5 }), 'auth'],
  ['createAdtLs', () => createAdtLs({ connection, auth: { kind: 'basic' } }), 'auth.register'],
  ['createAdtLs', () => createAdtLs({ mcpPort: '2240' }), 'mcpPort'],
  ['createAdtLs', () => createAdtLs({ mcpPort: 70000 }), 'mcpPort'],
  ['createAdtLs', () => createAdtLs({ mcpPort: 80 }), 'mcpPort'],
  ['createAdtLs', () => createAdtLs({ keepAlive: 'no' }), 'keepAlive'],
  ['createAdtLs', () => createAdtLs({ keepAlive: { intervalMs: -5 } }), 'keepAlive.intervalMs'],
  ['createAdtLs', () => createAdtLs({ destinationId: 7 }), 'destinationId'],
  ['createAdtLs', () => createAdtLs({ mcpTimeoutMs: Infinity }), 'mcpTimeoutMs'],
  ['createAdtLs', () => createAdtLs({ logonTimeoutMs: '5m' }), 'logonTimeoutMs'],
  ['createAdtLs', () => createAdtLs({ trace: '/tmp/wire.jsonl' }), 'trace'],
  ['createAdtLs', () => createAdtLs({ trace: ['/tmp/wire.jsonl'] }), 'trace'],
  ['createAdtLs', () => createAdtLs({ trace: { file: true } }), 'trace.file'],
  ['start', () => new AdtLsDriver('/adt-ls').start('5000'), 'timeoutMs'],
  ['sendRequest', () => new AdtLsDriver('/adt-ls').sendRequest('m', {}, { timeoutMs: '5' }), 'opts.timeoutMs'],
  ['sendRequest', () => new AdtLsDriver('/adt-ls').sendRequest(5), 'method'],
  ['sendRequest', () => new AdtLsDriver('/adt-ls').sendRequest('m', {}, 5), 'opts'],
  ['sendNotification', () => new AdtLsDriver('/adt-ls').sendNotification(undefined), 'method'],
  ['startMcpServer', () => lib.startMcpServer(fakeDriver, 2240), 'opts'],
  ['startMcpServer', () => lib.startMcpServer(fakeDriver, { port: '2240', token: 't' }), 'opts.port'],
  ['startMcpServer', () => lib.startMcpServer(fakeDriver, { port: 2240 }), 'opts.token'],
  ['startMcpServer', () => lib.startMcpServer(5, { port: 2240, token: 't' }), 'driver'],
  ['startMcpServer', () => lib.startMcpServer({}, { port: 2240, token: 't' }), 'driver.sendRequest'],
  ['stopMcpServer', () => lib.stopMcpServer(undefined), 'driver'],
  ['setMcpDestination', () => lib.setMcpDestination(fakeDriver, 5), 'destinationId'],
  ['startMcpServerWithFallback', () => lib.startMcpServerWithFallback('start', 2240), 'start'],
  ['startMcpServerWithFallback', () => lib.startMcpServerWithFallback(noop, '2240'), 'startPort'],
  ['startMcpServerWithFallback', () => lib.startMcpServerWithFallback(noop, 2240, 0), 'attempts'],
  ['startMcpServerWithFallback', () => lib.startMcpServerWithFallback(noop, 1023), 'startPort'],
  ['startMcpServerWithFallback', () => lib.startMcpServerWithFallback(noop, 2240, 1, 'retry'), 'onRetry'],
  ['callTool', () => mcpClient().callTool(5), 'name'],
  ['callTool', () => mcpClient().callTool('t', 'args'), 'args'],
  ['callTool', () => mcpClient().callTool('t', {}, { timeoutMs: -1 }), 'opts.timeoutMs'],
  ['request', () => mcpClient().request(5), 'method'],
  ['request', () => mcpClient().request('ping', undefined, 'fast'), 'opts'],
  ['request', () => mcpClient().request('ping', undefined, { signal: {} }), 'opts.signal'],
  ['sendRequest', () => new AdtLsDriver('/adt-ls').sendRequest('m', {}, { signal: 'stop' }), 'opts.signal'],
  ['callTool', () => mcpClient().callTool('t', {}, { signal: new EventTarget() }), 'opts.signal'],
  ['connect', () => mcpClient().connect(5), 'opts'],
  ['connect', () => mcpClient().connect({ signal: true }), 'opts.signal'],
  ['listTools', () => mcpClient().listTools({ timeoutMs: 0 }), 'opts.timeoutMs'],
  ['close', () => mcpClient().close({ signal: 'now' }), 'opts.signal'],
  ['listTools', () => mcpClient().listTools({ timeoutMs: 'soon' }), 'opts.timeoutMs'],
  ['runCli', () => lib.runCli(), 'argv'],
  ['runCli', () => lib.runCli('doctor'), 'argv'],
  ['runCli', () => lib.runCli(['doctor', 5]), 'argv[1]'],
];

let sap;
let client;
let logs;

before(async () => {
  logs = captureLogs();
  sap = await startSapBackend({ tls: 'self-signed' });
  client = await createAdtLs({
    adtLs: installedAdtLs(),
    connection: { systemUrl: sap.url, selfSigned: true },
    auth: auth(),
    ...CLIENT_BOUNDS,
  });
});
after(async () => {
  await client?.dispose();
  await sap?.close();
  logs?.restore();
});

test('every function export and every argument-taking class method is covered by a case', () => {
  const covered = new Set([...SYNCHRONOUS, ...ASYNCHRONOUS].map(([label]) => label));
  const functions = Object.entries(lib)
    .filter(([name, v]) => typeof v === 'function' && !/^[A-Z]/.test(name))
    .map(([name]) => name);
  assert.ok(functions.length >= 20, `found ${functions.length} function exports`);
  for (const name of functions) assert.ok(covered.has(name), `no case for export ${name}`);
  for (const [cls, label] of [
    [AdtLsDriver, 'new AdtLsDriver'],
    [AdtLsMcpClient, 'new AdtLsMcpClient'],
  ]) {
    assert.ok(covered.has(label), `no case for ${label}`);
    for (const name of Object.getOwnPropertyNames(cls.prototype)) {
      const d = Object.getOwnPropertyDescriptor(cls.prototype, name);
      if (name === 'constructor' || typeof d.value !== 'function') continue;
      // Methods without parameters (dispose) have nothing to check.
      if (name === 'dispose') continue;
      assert.ok(covered.has(name), `no case for ${cls.name}.prototype.${name}`);
    }
  }
});

test('synchronous helpers throw a TypeError/RangeError with a code naming the argument', () => {
  for (const [label, call, path] of SYNCHRONOUS) {
    assertArgumentError(thrownBy(call, label), path, `${label} (${path})`);
  }
});

test('promise-returning exports reject (never throw) with a code naming the argument', async () => {
  for (const [label, call, path] of ASYNCHRONOUS) {
    assertArgumentError(await rejectionOf(call, label), path, `${label} (${path})`);
  }
});

test("ports for adt-ls's MCP server accept what adt-ls accepts (1024-65535) and keep adt-ls's words", async () => {
  for (const [label, call] of [
    ['mcpPort 80', () => createAdtLs({ mcpPort: 80 })],
    ['mcpPort 65536', () => createAdtLs({ mcpPort: 65536 })],
    ['startPort 1023', () => lib.startMcpServerWithFallback(noop, 1023)],
  ]) {
    const e = await rejectionOf(call, label);
    assert.equal(e.code, 'ERR_OUT_OF_RANGE', label);
    assert.match(e.message, /must be an integer from 1024 to 65535 \(adt-ls: Port must be between 1024 and 65535\), received type number \(\d+\)$/, label);
  }
  // The edges are accepted: the start function is called with them.
  const tried = [];
  const start = async (port) => {
    tried.push(port);
    return { port, token: 't' };
  };
  await lib.startMcpServerWithFallback(start, 1024);
  await lib.startMcpServerWithFallback(start, 65535);
  // A busy last port does not move past 65535.
  const busy = await rejectionOf(() => lib.startMcpServerWithFallback(async (port) => {
    tried.push(port);
    throw new Error(`failed to bind to port ${port}`);
  }, 65534, 5), 'fallback at the top');
  assert.equal(busy.message, 'failed to bind to port 65535');
  assert.deepEqual(tried, [1024, 65535, 65534, 65535]);
});

/** The argument a message names: its path up to the first `.` or `[`. */
const namedArgument = (e) => e.message.split(' ')[0].split(/[.[]/)[0];

test('exports check their arguments in order: with several wrong, the first one is named', async () => {
  const driver = new AdtLsDriver('/adt-ls');
  const mcp = mcpClient();
  const synchronous = [
    ['applyTextEdits', () => lib.applyTextEdits(1, 2), 'text'],
    ['decodeSemanticTokens', () => lib.decodeSemanticTokens('x', 1), 'data'],
    ['platformSubPath', () => lib.platformSubPath(1, 2), 'platform'],
    ['basic', () => basic(1, 2), 'user'],
    ['bearer', () => bearer(1, 2), 'token'],
    ['custom', () => custom(1, 2), 'register'],
    ['new AdtLsDriver', () => new AdtLsDriver(1, 2), 'binPath'],
    ['new AdtLsMcpClient', () => new AdtLsMcpClient(1, 2, 3, 4), 'baseUrl'],
    ['new AdtLsMcpClient', () => new AdtLsMcpClient('http://127.0.0.1:9/mcp', 2, 3, 4), 'token'],
    ['setRequestHandler', () => driver.setRequestHandler(1, 2), 'method'],
    ['onNotification', () => driver.onNotification(1, 2), 'method'],
  ];
  for (const [label, call, first] of synchronous) assert.equal(namedArgument(thrownBy(call, label)), first, label);
  const asynchronous = [
    ['startMcpServer', () => lib.startMcpServer(null, {}), 'driver'],
    ['startMcpServer', () => lib.startMcpServer({}, 5), 'driver'],
    ['setMcpDestination', () => lib.setMcpDestination(null, 5), 'driver'],
    ['startMcpServerWithFallback', () => lib.startMcpServerWithFallback(1, 'x', 'y', 'z'), 'start'],
    ['startMcpServerWithFallback', () => lib.startMcpServerWithFallback(noop, 80, 0, 'z'), 'startPort'],
    ['sendRequest', () => driver.sendRequest(1, 2, 3), 'method'],
    ['sendNotification', () => driver.sendNotification(1, 2), 'method'],
    ['callTool', () => mcp.callTool(1, 2, 3), 'name'],
    ['request', () => mcp.request(1, 2, 3), 'method'],
  ];
  for (const [label, call, first] of asynchronous) assert.equal(namedArgument(await rejectionOf(call, label)), first, label);
});

test('every client method checks its arguments in order: with all of them wrong, the first parameter is named', async () => {
  for (const [name, fn] of clientMethods(client)) {
    const params = declaredParameters(name);
    // An ObjectRef parameter is named `ref` (its fields `ref.name`, `ref.objectType`).
    const first = params.length === 0 ? 'options' : params[0].type.startsWith('ObjectRef') ? 'ref' : params[0].name;
    const e = await rejectionOf(() => fn(42, 42, 42, 42), name);
    assert.equal(namedArgument(e), first, `${name}(${params.map((p) => p.name)}): ${e.message}`);
  }
  // A valid first argument with bad call options after it: the options are named, and
  // nothing is sent.
  const ref = { name: 'CL_ABAP_TYPEDESCR', objectType: 'CLAS/OC' };
  const signal = await rejectionOf(() => client.source.read(ref, { signal: 'stop' }), 'source.read');
  assert.equal(signal.message, "options.signal must be an instance of AbortSignal, received type string ('stop')");
  const wrongRef = await rejectionOf(() => client.source.read({ name: 5, objectType: 'CLAS/OC' }, { signal: 'stop' }), 'source.read ref');
  assert.equal(wrongRef.message, 'ref.name must be a string, received type number (5)');
  const progress = await rejectionOf(() => client.quality.runAtc(5, { onProgress: 'x' }), 'runAtc');
  assert.equal(namedArgument(progress), 'ref');
});

test('messages show what was received, never a secret', () => {
  const e = thrownBy(() => basic('DEVELOPER', 4711), 'basic');
  assert.equal(e.message, 'password must be a string, received type number');
  const t = thrownBy(() => bearer(123456789), 'bearer');
  assert.equal(t.message, 'token must be a string or a function, received type number');
  const n = thrownBy(() => lib.setLogger(null), 'setLogger');
  assert.equal(n.message, 'logger must be an object, received null');
  const d = thrownBy(() => new AdtLsDriver('/adt-ls', { extraArgs: 'x' }), 'driver');
  assert.equal(d.message, "opts.extraArgs must be an array of strings, received type string ('x')");
  assert.equal(d.code, 'ERR_INVALID_ARG_TYPE');
});

test('the README example with the password variable unset names the password', () => {
  const env = { ...process.env };
  delete env.SAP_PASSWORD_FOR_THIS_TEST;
  const e = thrownBy(() => basic('DEVELOPER', env.SAP_PASSWORD_FOR_THIS_TEST), 'basic');
  assertArgumentError(e, 'password', 'basic');
  assert.equal(e.message, 'password must be a string, received undefined');
});

/** The client's synchronous event methods (docs/events.md). */
const EVENT_METHODS = ['on', 'once', 'off'];

/** The client's methods, found by walking its namespaces: `[dotted name, function]`. */
function clientMethods(c) {
  const out = [];
  for (const [key, value] of Object.entries(c)) {
    if (typeof value === 'function') {
      // health and dispose take nothing; on/once/off are synchronous (their own test below).
      if (!['dispose', 'health', ...EVENT_METHODS].includes(key)) out.push([key, value]);
    } else if (value && typeof value === 'object') {
      for (const [name, fn] of Object.entries(value)) {
        // diffPages returns an iterator, not a promise: its own test below.
        if (typeof fn === 'function' && `${key}.${name}` !== 'transport.diffPages') out.push([`${key}.${name}`, fn]);
      }
    }
  }
  return out;
}

/** Settle `promise` into `{ok, value}` or `{ok: false, error}`. */
const settle = (promise) => promise.then((value) => ({ ok: true, value }), (error) => ({ ok: false, error }));

test('every client method: wrong types and missing values reject with an argument error', async () => {
  const methods = clientMethods(client);
  assert.ok(methods.length >= 40, `found ${methods.length} client methods`);
  const parameterless = [];
  for (const [name, fn] of methods) {
    let junk;
    assert.doesNotThrow(() => {
      junk = fn(42, 42, 42);
    }, `${name}: threw synchronously`);
    const wrong = await settle(junk);
    if (wrong.ok) {
      // Only a method that takes no arguments may ignore them: the same call without any
      // resolves to the same result.
      const bare = await settle(fn());
      assert.ok(bare.ok, `${name}: accepted junk but fails without arguments: ${bare.error?.message}`);
      assert.deepEqual(bare.value, wrong.value, `${name}: the junk arguments changed the result`);
      parameterless.push(name);
      continue;
    }
    assert.match(wrong.error.message, /^[\w.[\]]+ must be .*, received type number \(42\)$/, `${name}: ${wrong.error.message}`);
    assertArgumentError(wrong.error, wrong.error.message.split(' ')[0], name);
    // Missing values: either all arguments are optional, or the first required one is named.
    const missing = await settle(fn());
    if (!missing.ok && ARGUMENT_CODES.includes(missing.error.code)) {
      assert.match(missing.error.message, /, received undefined$/, `${name}: ${missing.error.message}`);
      assertArgumentError(missing.error, missing.error.message.split(' ')[0], `${name}()`);
    }
  }
  assert.ok(parameterless.length < methods.length / 4, `too many methods ignore junk: ${parameterless}`);
});

test('client.on/once/off throw synchronously: an unknown event name lists the names, a listener must be a function', () => {
  const present = Object.entries(client).filter(([, v]) => typeof v === 'function').map(([k]) => k);
  for (const name of EVENT_METHODS) assert.ok(present.includes(name), `the client has ${name}`);
  for (const name of EVENT_METHODS) {
    const unknown = thrownBy(() => client[name]('logon', noop), name);
    assertArgumentError(unknown, 'type', `${name}('logon')`);
    assert.equal(unknown.code, 'ERR_INVALID_ARG_VALUE');
    assert.equal(unknown.message, "type must be one of 'logonState', 'health', 'relogon', 'exit', received type string ('logon')");
    assertArgumentError(thrownBy(() => client[name](5, noop), name), 'type', `${name}(5)`);
    assertArgumentError(thrownBy(() => client[name]('health', 'f'), name), 'listener', `${name}(listener)`);
    assertArgumentError(thrownBy(() => client[name]('health'), name), 'listener', `${name}()`);
  }
});

test('ProgressOptions: every declared member is read by the four long operations (a wrong value is refused by name)', async () => {
  const dts = join(ROOT, 'index.d.ts');
  const reader = declarationProgram([dts]);
  const symbol = reader.exportsOf(dts).find((e) => e.name === 'ProgressOptions')?.symbol;
  assert.ok(symbol, 'index.d.ts exports ProgressOptions');
  const members = reader.checker
    .getPropertiesOfType(reader.checker.getDeclaredTypeOfSymbol(symbol))
    .map((m) => m.getName());
  assert.deepEqual(members, ['onProgress']);
  const ref = { name: 'CL_ABAP_TYPEDESCR', objectType: 'CLAS/OC' };
  for (const member of members) {
    for (const [label, call, path] of [
      ['runAtc', () => client.quality.runAtc(ref, { [member]: 42 }), `opts.${member}`],
      ['runUnitTestsWithCoverage', () => client.quality.runUnitTestsWithCoverage(ref, { [member]: 42 }), `opts.${member}`],
      ['activate', () => client.lifecycle.activate({ ...ref, [member]: 42 }), `args.${member}`],
      ['runUnitTests', () => client.lifecycle.runUnitTests({ ...ref, [member]: 42 }), `args.${member}`],
    ]) {
      assertArgumentError(await rejectionOf(call, label), path, `${label} ${member}`);
    }
  }
});

test('client option mistakes from the issue: wrong types and out-of-range numbers', async () => {
  const ref = { name: 'CL_ABAP_TYPEDESCR', objectType: 'CLAS/OC' };
  for (const [label, call, path] of [
    ['search types', () => client.repository.search('Z*', { types: 'CLAS/OC' }), 'opts.types'],
    ['search types[0]', () => client.repository.search('Z*', { types: [1] }), 'opts.types[0]'],
    ['search maxResults', () => client.repository.search('Z*', { maxResults: 0 }), 'opts.maxResults'],
    ['search maxResults type', () => client.repository.search('Z*', { maxResults: '10' }), 'opts.maxResults'],
    ['search cold', () => client.repository.search('Z*', { cold: 'yes' }), 'opts.cold'],
    ['ref', () => client.navigation.documentSymbols('CL_ABAP_TYPEDESCR'), 'ref'],
    ['ref.objectType', () => client.navigation.hover({ name: 'X' }, { symbol: 'x' }), 'ref.objectType'],
    ['locator', () => client.navigation.hover(ref, 'x'), 'locator'],
    ['runAtc timeout', () => client.quality.runAtc(ref, { timeoutMs: 0 }), 'opts.timeoutMs'],
    ['runAtc onProgress', () => client.quality.runAtc(ref, { onProgress: 'x' }), 'opts.onProgress'],
    ['coverage onProgress', () => client.quality.runUnitTestsWithCoverage(ref, { onProgress: 1 }), 'opts.onProgress'],
    ['activate onProgress', () => client.lifecycle.activate({ ...ref, onProgress: {} }), 'args.onProgress'],
    ['runUnitTests onProgress', () => client.lifecycle.runUnitTests({ ...ref, onProgress: true }), 'args.onProgress'],
    ['objectType', () => client.lifecycle.getObjectTypeDetails(5), 'objectType'],
    ['raw.lsp', () => client.raw.lsp(5), 'method'],
    ['raw.tool args', () => client.raw.tool('abap_x', 'args'), 'args'],
  ]) {
    assertArgumentError(await rejectionOf(call, label), path, label);
  }
  const search = await rejectionOf(() => client.repository.search('Z*', { types: 'CLAS/OC' }), 'search');
  assert.equal(search.message, "opts.types must be an array of ADT type codes such as ['CLAS/OC'], received type string ('CLAS/OC')");
});

test('call options (signal, timeoutMs): wrong types and out-of-range numbers, in opts or trailing', async () => {
  const ref = { name: 'CL_ABAP_TYPEDESCR', objectType: 'CLAS/OC' };
  for (const [label, call, path] of [
    ['search signal', () => client.repository.search('Z*', { signal: {} }), 'opts.signal'],
    ['search timeoutMs', () => client.repository.search('Z*', { timeoutMs: -5 }), 'opts.timeoutMs'],
    ['search timeoutMs type', () => client.repository.search('Z*', { timeoutMs: '5' }), 'opts.timeoutMs'],
    ['source.read options', () => client.source.read(ref, 'fast'), 'options'],
    ['source.read signal', () => client.source.read(ref, { signal: 1 }), 'options.signal'],
    ['capabilities timeoutMs', () => client.capabilities({ timeoutMs: 2 ** 31 }), 'options.timeoutMs'],
    ['raw.lsp timeoutMs', () => client.raw.lsp('m', undefined, { timeoutMs: Number.NaN }), 'options.timeoutMs'],
    ['findReferences timeoutMs', () => client.navigation.findReferences(ref, { symbol: 'x' }, { timeoutMs: 0 }), 'opts.timeoutMs'],
  ]) {
    assertArgumentError(await rejectionOf(call, label), path, label);
  }
  const signal = await rejectionOf(() => client.source.read(ref, { signal: { aborted: false } }), 'signal');
  assert.equal(signal.message, 'options.signal must be an instance of AbortSignal, received an instance of Object');
  // diffPages never throws: a bad argument rejects its first next().
  let pages;
  assert.doesNotThrow(() => {
    pages = client.transport.diffPages('A4HK900101', { signal: 'x', pageSize: 2 });
  });
  assertArgumentError(await rejectionOf(() => pages.next(), 'diffPages'), 'opts.signal', 'diffPages');
  pages = client.transport.diffPages('A4HK900101', { timeoutMs: -1 });
  assertArgumentError(await rejectionOf(() => pages.next(), 'diffPages'), 'opts.timeoutMs', 'diffPages');
  pages = client.transport.diffPages('A4HK900101', 'opts');
  assertArgumentError(await rejectionOf(() => pages.next(), 'diffPages'), 'opts', 'diffPages');
});

test('unknown option keys are warnings with the closest key, never failures', async () => {
  const warnings = () => logs.of('warn');
  const before = warnings().length;
  const adt = await rejectionOf(() => createAdtLs({ adtLs: { pth: '/opt/adt-ls', path: 5 } }), 'createAdtLs');
  assertArgumentError(adt, 'adtLs.path', 'createAdtLs');
  assert.ok(warnings().includes('unknown option adtLs.pth — did you mean adtLs.path? (ignored)'), warnings().join('\n'));
  // Synchronous helpers: the warning arrives through the logger shortly after.
  const driver = new AdtLsDriver('/adt-ls', { extraArgz: ['-consoleLog'] });
  assert.ok(driver instanceof AdtLsDriver, 'an unknown key does not fail');
  await until(() => warnings().includes('unknown option opts.extraArgz — did you mean opts.extraArgs? (ignored)'));
  const traced = await rejectionOf(() => createAdtLs({ trace: { files: '/tmp/x.jsonl', file: 1 } }), 'createAdtLs');
  assertArgumentError(traced, 'trace.file', 'createAdtLs');
  assert.ok(warnings().includes('unknown option trace.files — did you mean trace.file? (ignored)'), warnings().join('\n'));
  const strategy = bearer('tok-12345678', { usr: 'DEVELOPER' });
  assert.equal(strategy.kind, 'bearer');
  await until(() => warnings().includes('unknown option opts.usr — did you mean opts.user? (ignored)'));
  // A client method's options: the call still works.
  const found = await client.repository.search('CL_ABAP_TYPEDESCR', { type: ['CLAS/OC'], maxResults: 5 });
  assert.ok(found.references.length > 0);
  assert.ok(warnings().includes('unknown option opts.type — did you mean opts.types? (ignored)'), warnings().join('\n'));
  const listed = await client.transport.list({ limt: 5 });
  assert.notEqual(listed, undefined);
  assert.ok(warnings().includes('unknown option opts.limt — did you mean opts.limit? (ignored)'), warnings().join('\n'));
  // The call options are known keys everywhere (no warning).
  const quiet = warnings().length;
  await client.repository.search('CL_ABAP_TYPEDESCR', { maxResults: 1, signal: new AbortController().signal, timeoutMs: 30_000 });
  await client.listDestinations({ signal: new AbortController().signal, timeoutMs: 30_000 });
  assert.equal(warnings().length, quiet, warnings().slice(quiet).join('\n'));
  // Nothing near: the known keys are listed.
  await rejectionOf(() => createAdtLs({ connection: { ...connection, zzzzzz: 1, systemUrl: 5 }, auth: auth() }), 'createAdtLs');
  assert.ok(warnings().some((w) => w.startsWith('unknown option connection.zzzzzz (ignored; known: systemUrl, ')), warnings().join('\n'));
  assert.ok(warnings().length >= before + 5);
});

test('the process keeps working after all of the above', async () => {
  const h = client.health();
  assert.deepEqual([h.connected, h.backendLive], [true, true]);
  const result = await client.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] });
  assert.ok(result.references.some((r) => r.name === 'CL_ABAP_TYPEDESCR'), JSON.stringify(result));
  assert.equal(basic('DEVELOPER', PASSWORD).kind, 'basic');
  assert.deepEqual(lib.parseAdtLsVersion('1.1.2.202608131517'), [1, 1, 2]);
  assert.deepEqual(lib.composeSpawnArgs({ dataDir: '/d', pipeName: 'p' }), ['-Djco.trace_path', '/d', '-data', '/d', '--pipe=p']);
});

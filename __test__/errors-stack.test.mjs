// Caller stacks and the error model through the public API (modes: D8.2): every
// rejection of a promise-returning export carries the caller's frames (the user's async
// function names appear in `stack`, under Node and Bun), and every error the library creates
// is an `AdtLsError` (also an `Error`) with a stable string `code` (JSON-RPC errors keep
// their number), the same class from `import` and `require`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as esm from '../index.mjs';
import {
  AdtLsDriver, AdtLsError, AdtLsMcpClient, createAdtLs, resolveAdtLsPath,
  startMcpServer, stopMcpServer, setMcpDestination, startMcpServerWithFallback,
} from '../index.js';
import { simDriverOptions, tempDir } from './helpers.mjs';
import { CLIENT_BOUNDS, nodeAdtLs } from './fixtures/client/support.mjs';

const require = createRequire(import.meta.url);
const cjs = require('../index.js');

/** The user's code: a named async function awaiting one failing library call. */
async function myBusinessFunction(call) {
  await call();
}

/** Run `call` inside myBusinessFunction; the rejection it ends with. */
async function failureOf(call) {
  try {
    await myBusinessFunction(call);
  } catch (error) {
    return error;
  }
  assert.fail('expected a rejection');
}

/** The checks every library error must pass. */
function assertLibraryError(e, { code, message, label }) {
  assert.ok(e instanceof AdtLsError, `${label}: instanceof AdtLsError (${e?.stack})`);
  assert.ok(e instanceof Error, `${label}: instanceof Error`);
  assert.equal(e.name, 'Error', `${label}: name (0.5.0's)`);
  if (code !== undefined) assert.equal(e.code, code, `${label}: code`);
  assert.ok(['string', 'number'].includes(typeof e.code), `${label}: a code (${e.code})`);
  if (message) assert.match(e.message, message, `${label}: message`);
  assert.equal(typeof e.stack, 'string', `${label}: stack is a string`);
  assert.ok(e.stack.startsWith(`Error: ${e.message.split('\n')[0]}`), `${label}: ${e.stack}`);
  assert.equal(String(e), `Error: ${e.message}`, `${label}: String(e) as 0.5.0's`);
  assert.match(e.stack, /myBusinessFunction/, `${label}: the caller's frame is in the stack:\n${e.stack}`);
}

/** A free local port (bound then released), for connections that must be refused. */
async function closedPort() {
  const { createServer } = await import('node:net');
  const srv = createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

test('AdtLsError is one class from import and require, chained to Error, not constructible', () => {
  assert.equal(typeof AdtLsError, 'function');
  assert.equal(cjs.AdtLsError, AdtLsError);
  assert.equal(esm.AdtLsError, AdtLsError);
  assert.equal(Object.getPrototypeOf(AdtLsError.prototype), Error.prototype);
  assert.equal(AdtLsError.prototype.name, 'Error', "0.5.0's name: String(e) is 'Error: …'");
  assert.throws(() => new AdtLsError('x'));
});

test('driver: sendRequest/sendNotification before start reject with ERR_NOT_STARTED and the caller frames', async () => {
  const driver = new AdtLsDriver(join(tempDir().dir, 'no-adt-ls'));
  const req = await failureOf(() => driver.sendRequest('x/y', {}));
  assertLibraryError(req, { code: 'ERR_NOT_STARTED', message: /^AdtLsDriver not started$/, label: 'sendRequest' });
  assert.ok(req instanceof cjs.AdtLsError, 'instanceof the require()d class');
  const note = await failureOf(() => driver.sendNotification('x/y', {}));
  assertLibraryError(note, { code: 'ERR_NOT_STARTED', label: 'sendNotification' });
  const start = await failureOf(() => driver.start(5000));
  assertLibraryError(start, { label: 'start of a missing binary' });
  await driver.dispose();
});

test('driver: a JSON-RPC error keeps its numeric code, with the caller frames', async () => {
  const driver = new AdtLsDriver(process.execPath, simDriverOptions());
  try {
    await driver.start(20_000);
    const e = await failureOf(() => driver.sendRequest('no/suchMethod', {}));
    assertLibraryError(e, { label: 'unknown method' });
    assert.equal(typeof e.code, 'number', `numeric JSON-RPC code: ${e.code}`);
    assert.equal(e.method, 'no/suchMethod', 'the adt-ls method is a detail');
  } finally {
    await driver.dispose();
  }
});

test('createAdtLs: a failed start rejects with the caller frames', async () => {
  const e = await failureOf(() => createAdtLs({ adtLs: { path: join(tempDir().dir, 'missing') }, ...CLIENT_BOUNDS }));
  assertLibraryError(e, { code: 'ERR_ADT_LS_NOT_FOUND', message: /^Explicit adt-ls binary is not a file: /, label: 'createAdtLs' });
});

test('client methods: ERR_NOT_CONNECTED without a destination, ERR_DISPOSED after dispose', async () => {
  const client = await createAdtLs({ adtLs: nodeAdtLs(), ...CLIENT_BOUNDS });
  let disposed = false;
  try {
    const e = await failureOf(() => client.repository.search('Z*'));
    assertLibraryError(e, { code: 'ERR_NOT_CONNECTED', message: /^No ABAP destination is connected\.$/, label: 'search' });
    await client.dispose();
    disposed = true;
    const d = await failureOf(() => client.repository.search('Z*'));
    assertLibraryError(d, { code: 'ERR_DISPOSED', message: /^AdtLsClient is disposed\.$/, label: 'after dispose' });
  } finally {
    if (!disposed) await client.dispose();
  }
});

test('MCP lifecycle functions reject with the caller frames', async () => {
  const throwing = { sendRequest: async () => { throw new Error('Internal error.'); } };
  for (const [label, call] of [
    ['startMcpServer', () => startMcpServer(throwing, { port: 2240, token: 't' })],
    ['stopMcpServer', () => stopMcpServer(throwing)],
    ['setMcpDestination', () => setMcpDestination(throwing, 'DEV')],
    ['startMcpServerWithFallback', () => startMcpServerWithFallback(async () => { throw new Error('boom'); }, 2240, 1)],
  ]) {
    const e = await failureOf(call);
    assertLibraryError(e, { code: 'ERR_CALLBACK_FAILED', message: /Internal error\.|boom/, label });
  }
});

test('AdtLsMcpClient methods reject with the caller frames', async () => {
  const port = await closedPort();
  const client = new AdtLsMcpClient(`http://127.0.0.1:${port}/mcp`, 'secret', undefined, 5000);
  try {
    for (const [label, call] of [
      ['connect', () => client.connect()],
      ['listTools', () => client.listTools()],
      ['callTool', () => client.callTool('abap_x', {})],
    ]) {
      const e = await failureOf(call);
      assertLibraryError(e, { code: 'ERR_MCP_TRANSPORT', label });
    }
  } finally {
    await client.close();
  }
});

test('synchronous throws are AdtLsErrors too: ERR_ADT_LS_NOT_FOUND from discovery', { skip: process.env.ADT_LS_PATH ? 'ADT_LS_PATH is set: discovery would find it' : false }, () => {
  const dir = tempDir().dir;
  let error;
  (function mySyncCaller() {
    try {
      resolveAdtLsPath({ repoRoot: dir, extensionsDirs: [dir] });
    } catch (e) {
      error = e;
    }
  })();
  assert.ok(error instanceof AdtLsError, String(error?.stack));
  assert.equal(error.code, 'ERR_ADT_LS_NOT_FOUND');
  assert.match(error.message, /^adt-ls binary not found\. /);
  assert.match(error.stack, /mySyncCaller/);
});

/** Run `script` (CommonJS, `index` bound to the package entry) in a child of this runtime. */
async function childStack(script, stacksSetting) {
  const { spawnSync } = await import('node:child_process');
  const index = require.resolve('../index.js');
  const env = { ...process.env };
  if (stacksSetting === undefined) delete env.ADT_LS_NATIVE_CALLER_STACKS;
  else env.ADT_LS_NATIVE_CALLER_STACKS = stacksSetting;
  const source = `const index = require(${JSON.stringify(index)});\n${script}`;
  const r = spawnSync(process.execPath, ['-e', source], { env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** A rejection awaited two async functions deep, and one consumed with .catch() from a sync function. */
const TWO_CONSUMERS = `
const driver = new index.AdtLsDriver('/nonexistent/adt-ls');
async function myAwaitingCaller() { await driver.sendRequest('x/y', {}); }
async function myOuterCaller() { await myAwaitingCaller(); }
function mySyncCaller() { return driver.sendRequest('x/y', {}); }
(async () => {
  const awaited = await myOuterCaller().then(() => null, (e) => e);
  const caught = await new Promise((resolve) => { mySyncCaller().catch(resolve); });
  console.log(JSON.stringify({ awaited: awaited.stack, caught: caught.stack, code: caught.code }));
})();
`;

test('caller frames, default mode: awaiting async functions under Node, the calling frames under Bun', async () => {
  const { awaited, caught, code } = await childStack(TWO_CONSUMERS, undefined);
  assert.equal(code, 'ERR_NOT_STARTED');
  assert.match(awaited, /^Error: AdtLsDriver not started\n/);
  assert.match(awaited, /myAwaitingCaller/, awaited);
  if (globalThis.Bun) {
    // No async stack traces in JavaScriptCore: the frames are recorded at the call.
    assert.match(caught, /mySyncCaller/, caught);
  } else {
    // V8 walks from the rejection to every awaiting async function, at no cost per call.
    assert.match(awaited, /at async myAwaitingCaller .*\n\s+at async myOuterCaller /, awaited);
    assert.doesNotMatch(caught, /mySyncCaller/, 'a .catch() consumer gets none of its frames in this mode');
  }
});

test('caller frames: ADT_LS_NATIVE_CALLER_STACKS=call records the calling frames, =0 none', async () => {
  const atCall = await childStack(TWO_CONSUMERS, 'call');
  assert.match(atCall.caught, /^Error: AdtLsDriver not started\n/, atCall.caught);
  assert.match(atCall.caught, /\n\s+at mySyncCaller /, atCall.caught);
  assert.match(atCall.awaited, /myAwaitingCaller/, atCall.awaited);
  const off = await childStack(TWO_CONSUMERS, '0');
  assert.doesNotMatch(off.awaited, /myAwaitingCaller|myOuterCaller/, off.awaited);
  assert.doesNotMatch(off.caught, /mySyncCaller/, off.caught);
  assert.equal(off.code, 'ERR_NOT_STARTED');
});

test('caller frames through Promise.all name the awaiting function', async () => {
  const driver = new AdtLsDriver(join(tempDir().dir, 'no-adt-ls'));
  async function myParallelCaller() {
    await Promise.all([driver.sendRequest('a/b', {}), driver.sendRequest('c/d', {})]);
  }
  const e = await myParallelCaller().then(() => assert.fail('expected a rejection'), (x) => x);
  assert.equal(e.code, 'ERR_NOT_STARTED');
  assert.match(e.stack, /myParallelCaller/, e.stack);
  if (!globalThis.Bun) assert.match(e.stack, /at async Promise\.all \(index 0\)/, e.stack);
  await driver.dispose();
});

test('a resolving call hands out one plain promise; nothing is left pending on it', async () => {
  const driver = new AdtLsDriver(join(tempDir().dir, 'no-adt-ls'));
  const p = driver.sendRequest('x/y', {});
  assert.ok(p instanceof Promise, 'a native Promise');
  await assert.rejects(p, (e) => e.code === 'ERR_NOT_STARTED' && e instanceof AdtLsError);
  await driver.dispose();
});

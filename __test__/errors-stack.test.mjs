// Caller stacks and the error model through the public API (issue 10 §1, §2): every
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

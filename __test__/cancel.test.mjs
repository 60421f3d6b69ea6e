// Cancellation (docs/cancellation.md) through the public API against the simulator: `signal`
// and `timeoutMs` on client methods (LSP- and MCP-backed, multi-step), on
// AdtLsDriver#sendRequest and on AdtLsMcpClient; the wire cancellation as the simulator saw
// it ($/cancelRequest in its LSP trace, notifications/cancelled in its MCP stats/trace);
// nothing sent for an already-aborted signal; abort listeners removed when calls settle
// (100k calls on one signal); transport.diffPages (all pages, break, abort mid-iteration).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { AdtLsDriver, AdtLsError, AdtLsMcpClient, createAdtLs } from '../index.js';
import { startMcpHttpServer } from 'adt-ls-simulator/mcp';
import { nodeAdtLs } from './fixtures/client/support.mjs';
import { ZCL_TEST, connectedClient, recordToolCalls } from './fixtures/namespaces/support.mjs';
import { incoming, readTrace, simDriverOptions, tempDir, until } from './helpers.mjs';

const TEST_OPTS = { timeout: 120_000 };
const DIFF_TOOL = 'abap_transport-unifiedDifference';
const TRANSPORT = 'A4HK900101';

/** Await a rejection and return the error. */
async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected a rejection');
}

/** Node's AbortError shape, plus ours: an AdtLsError with the caller's frames. */
function assertAbortError(error, reason) {
  assert.equal(error.name, 'AbortError');
  assert.equal(error.code, 'ABORT_ERR');
  assert.equal(error.message, 'The operation was aborted');
  assert.equal(error.cause, reason);
  assert.ok(error instanceof AdtLsError, 'an AdtLsError');
  assert.ok(error instanceof Error);
  assert.match(error.stack, /^AbortError: The operation was aborted\n/);
  assert.match(error.stack, /cancel\.test\.mjs/, 'the caller frames');
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A full garbage collection (Bun's own; under Node through the flag, set at run time). */
function collect() {
  if (globalThis.Bun) return globalThis.Bun.gc(true);
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc')();
}

// ------------------------------------------------------------------------------------------
// A foundation-mode client on the simulated adt-ls (LSP side, traced)

let home;
let trace;
let client;

before(async () => {
  home = tempDir();
  trace = join(home.dir, 'trace.jsonl');
  client = await createAdtLs({ adtLs: nodeAdtLs({ ADTLS_SIM_TRACE: trace }) });
});
after(async () => {
  await client?.dispose();
  home?.cleanup();
});

/** The LSP messages the simulator received with `method`. */
const received = (method) => incoming(readTrace(trace)).filter((m) => m.method === method);

test('an already-aborted signal rejects at once and sends nothing', TEST_OPTS, async () => {
  const reason = new Error('user gave up');
  const signal = AbortSignal.abort(reason);
  const error = await rejection(client.raw.lsp('sim/echo', { tag: 'never-sent' }, { signal }));
  assertAbortError(error, reason);
  // Options objects of their own carry the signal too; an options-less method takes it last.
  assertAbortError(await rejection(client.repository.search('CL_*', { signal })), reason);
  assertAbortError(await rejection(client.listDestinations({ signal })), reason);
  await client.raw.lsp('sim/echo', { tag: 'marker' });
  const echoes = received('sim/echo').map((m) => m.params.tag);
  assert.ok(echoes.includes('marker'));
  assert.ok(!echoes.includes('never-sent'), 'the aborted call never reached adt-ls');
  assert.equal(received('adtLs/repository/quickSearch').length, 0);
});

test('abort during an LSP request: rejects at once, $/cancelRequest with its id, the client keeps working', TEST_OPTS, async () => {
  const controller = new AbortController();
  const pending = client.raw.lsp('sim/never', { tag: 'held' }, { signal: controller.signal });
  const sent = await until(() => received('sim/never').find((m) => m.params?.tag === 'held'), 5000);
  assert.ok(sent, 'the request reached adt-ls');
  const t0 = Date.now();
  controller.abort();
  const error = await rejection(pending);
  assert.ok(Date.now() - t0 < 500, 'rejected at once');
  assertAbortError(error, controller.signal.reason);
  assert.equal(error.cause.name, 'AbortError', "the signal's default reason");
  const cancel = await until(() => received('$/cancelRequest').find((m) => m.params.id === sent.id), 5000);
  assert.ok(cancel, `$/cancelRequest for id ${sent.id}`);
  assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'listener removed');
  assert.deepEqual(await client.raw.lsp('sim/echo', { after: 'abort' }), { after: 'abort' });
});

test('timeoutMs: ETIMEDOUT naming the method and the limit, and $/cancelRequest', TEST_OPTS, async () => {
  const pending = client.raw.lsp('sim/never', { tag: 'timed' }, { timeoutMs: 150 });
  const error = await rejection(pending);
  assert.equal(error.code, 'ETIMEDOUT');
  assert.equal(error.message, 'raw.lsp timed out after 150ms (options.timeoutMs)');
  const sent = received('sim/never').find((m) => m.params?.tag === 'timed');
  assert.ok(await until(() => received('$/cancelRequest').some((m) => m.params.id === sent.id), 5000));
  // A call that answers in time is untouched by its limit.
  assert.deepEqual(await client.raw.lsp('sim/echo', { quick: 1 }, { timeoutMs: 5000 }), { quick: 1 });
});

test('a call without signal or timeoutMs is forgotten silently on its own limit, as 0.5.0 does', TEST_OPTS, async () => {
  const plain = join(home.dir, 'plain.jsonl');
  const driver = new AdtLsDriver(process.execPath, simDriverOptions({ ADTLS_SIM_TRACE: plain }, { requestTimeoutMs: 100 }));
  await driver.start(20000);
  try {
    assert.equal((await rejection(driver.sendRequest('sim/never'))).code, 'ETIMEDOUT');
    assert.deepEqual(await driver.sendRequest('sim/echo', { next: 1 }), { next: 1 });
    const seen = incoming(readTrace(plain)).map((m) => m.method);
    assert.ok(seen.includes('sim/never'));
    assert.ok(!seen.includes('$/cancelRequest'), 'no $/cancelRequest without call options');
  } finally {
    await driver.dispose();
  }
});

test('AdtLsDriver#sendRequest: signal and timeoutMs cancel on the wire', TEST_OPTS, async () => {
  const file = join(home.dir, 'driver.jsonl');
  const driver = new AdtLsDriver(process.execPath, simDriverOptions({ ADTLS_SIM_TRACE: file }));
  await driver.start(20000);
  const seen = (method) => incoming(readTrace(file)).filter((m) => m.method === method);
  try {
    const aborted = AbortSignal.abort('early');
    assertAbortError(await rejection(driver.sendRequest('sim/echo', { tag: 'x' }, { signal: aborted })), 'early');
    assert.equal(seen('sim/echo').length, 0, 'nothing sent');

    const controller = new AbortController();
    const pending = driver.sendRequest('sim/never', { tag: 'd' }, { signal: controller.signal });
    const sent = await until(() => seen('sim/never')[0], 5000);
    controller.abort('stop');
    assertAbortError(await rejection(pending), 'stop');
    assert.ok(await until(() => seen('$/cancelRequest').some((m) => m.params.id === sent.id), 5000));

    const timedOut = await rejection(driver.sendRequest('sim/never', { tag: 't' }, { timeoutMs: 120 }));
    assert.equal(timedOut.code, 'ETIMEDOUT');
    assert.match(timedOut.message, /sim\/never timed out after 120ms/);
    const second = seen('sim/never').find((m) => m.params?.tag === 't');
    assert.ok(await until(() => seen('$/cancelRequest').some((m) => m.params.id === second.id), 5000));
    assert.deepEqual(await driver.sendRequest('sim/echo', { ok: true }, { signal: controller.signal.aborted ? undefined : controller.signal }), { ok: true });
  } finally {
    await driver.dispose();
  }
});

test('100k calls sharing one long-lived signal leave no abort listener behind', TEST_OPTS, async () => {
  const controller = new AbortController();
  const { signal } = controller;
  const TOTAL = 100_000;
  const BATCH = 2_000;
  let peak = 0;
  let heapAfterWarmUp = 0;
  for (let done = 0; done < TOTAL; done += BATCH) {
    const batch = [];
    for (let i = 0; i < BATCH; i += 1) batch.push(client.raw.lsp('sim/echo', i, { signal }));
    peak = Math.max(peak, getEventListeners(signal, 'abort').length);
    const results = await Promise.all(batch);
    assert.equal(results[BATCH - 1], BATCH - 1);
    assert.equal(getEventListeners(signal, 'abort').length, 0, `after ${done + BATCH} calls`);
    if (done + BATCH === 10 * BATCH) {
      collect();
      heapAfterWarmUp = process.memoryUsage().heapUsed;
    }
  }
  assert.equal(peak, BATCH, 'every call in flight listens, and only while it is in flight');
  collect();
  const growth = process.memoryUsage().heapUsed - heapAfterWarmUp;
  assert.ok(growth < 8 * 1024 * 1024, `the heap grew ${growth} bytes over the last 80k calls`);
  // The signal still works after all that.
  const pending = client.raw.lsp('sim/never', null, { signal });
  controller.abort();
  assert.equal((await rejection(pending)).code, 'ABORT_ERR');
});

test('bad call options are argument errors naming the path', TEST_OPTS, async () => {
  const typeErr = await rejection(client.raw.lsp('sim/echo', {}, { signal: { aborted: true } }));
  assert.equal(typeErr.code, 'ERR_INVALID_ARG_TYPE');
  assert.equal(typeErr.message, 'options.signal must be an instance of AbortSignal, received an instance of Object');
  const inOpts = await rejection(client.repository.search('X', { signal: 'no' }));
  assert.equal(inOpts.code, 'ERR_INVALID_ARG_TYPE');
  assert.match(inOpts.message, /^opts\.signal must be an instance of AbortSignal/);
  for (const bad of [0, -1, Number.NaN, Infinity, 2 ** 31]) {
    const range = await rejection(client.listDestinations({ timeoutMs: bad }));
    assert.equal(range.code, 'ERR_OUT_OF_RANGE', String(bad));
    assert.match(range.message, /^options\.timeoutMs must be a finite number of milliseconds/);
  }
  const wrongType = await rejection(client.capabilities({ timeoutMs: '5' }));
  assert.equal(wrongType.code, 'ERR_INVALID_ARG_TYPE');
});

// ------------------------------------------------------------------------------------------
// AdtLsMcpClient against the simulated MCP endpoint

test('AdtLsMcpClient: abort before sends nothing; abort in flight sends notifications/cancelled with the id', TEST_OPTS, async () => {
  const srv = await startMcpHttpServer({ fileSystemMode: 'VFS', token: 'secret' });
  const mcp = new AdtLsMcpClient(srv.url, 'secret', undefined, 10_000);
  try {
    await mcp.connect();
    srv.stats.reset();
    const early = AbortSignal.abort('nope');
    assertAbortError(await rejection(mcp.callTool('abap_list_destinations', {}, { signal: early })), 'nope');
    assertAbortError(await rejection(mcp.listTools({ signal: early })), 'nope');
    assertAbortError(await rejection(mcp.request('ping', undefined, { signal: early })), 'nope');
    assert.equal(srv.stats.requests.length, 0, 'nothing reached the server');

    srv.setMode({ hang: 'tools/call' });
    const controller = new AbortController();
    const pending = mcp.callTool('abap_list_destinations', {}, { signal: controller.signal });
    const call = await until(() => srv.stats.requests.flatMap((r) => r.rpc).find((m) => m.method === 'tools/call'), 5000);
    assert.ok(call, 'the call reached the server');
    controller.abort('changed my mind');
    assertAbortError(await rejection(pending), 'changed my mind');
    const cancelled = await until(
      () => srv.stats.requests.flatMap((r) => r.rpc).find((m) => m.method === 'notifications/cancelled'),
      5000,
    );
    assert.ok(cancelled, 'notifications/cancelled arrived');
    assert.equal(cancelled.requestId, call.id);
    assert.equal(typeof cancelled.reason, 'string');
    assert.equal(srv.stats.count('tools/call'), 1, 'never replayed');

    const timedOut = await rejection(mcp.callTool('abap_list_destinations', {}, { timeoutMs: 150 }));
    assert.equal(timedOut.code, 'ETIMEDOUT');
    const calls = srv.stats.requests.flatMap((r) => r.rpc).filter((m) => m.method === 'tools/call');
    assert.ok(
      await until(() => srv.stats.requests.flatMap((r) => r.rpc).some((m) => m.method === 'notifications/cancelled' && m.requestId === calls.at(-1).id), 5000),
      'a timed-out call is cancelled too',
    );
    srv.setMode({ hang: false });
    const tools = await mcp.listTools({ signal: new AbortController().signal, timeoutMs: 5000 });
    assert.ok(tools.length > 0, 'the client keeps working');
  } finally {
    await mcp.close().catch(() => {});
    await srv.close();
  }
});

// ------------------------------------------------------------------------------------------
// A connected client: MCP-backed and multi-step methods, diffPages

let tools;

/** How many times the simulated SAP system was asked to run `op` (logged on arrival). */
const arrived = (env, op) => env.sap.control.requests().filter((e) => e.op === op).length;

/** The MCP JSON-RPC messages adt-ls's MCP server received, from the simulator's trace. */
const mcpReceived = (env) => readTrace(env.traceFile).filter((e) => e.channel === 'mcp-http').flatMap((e) => e.rpc ?? []);

test('connected: MCP-backed and multi-step methods stop at the abort', TEST_OPTS, async (t) => {
  tools = recordToolCalls();
  const env = await connectedClient({ ADTLS_SIM_REFERENCES_HANG: 'get_relative_name' });
  t.after(async () => {
    tools.stop();
    await env.close();
  });
  const adt = env.client;

  // Already aborted: neither the tool nor the LSP steps are sent.
  const mark = env.wire.mark();
  const early = AbortSignal.abort();
  assertAbortError(await rejection(adt.transport.getDiff(TRANSPORT, { signal: early })), early.reason);
  assertAbortError(await rejection(adt.source.read(ZCL_TEST, { signal: early })), early.reason);
  assert.equal(tools.of(DIFF_TOOL).length, 0);
  assert.equal(env.wire.since(mark).length, 0, 'no LSP message');

  // An MCP tool call held open by the backend: abort rejects at once and the call is dropped.
  env.sap.control.setDelay(`tool:${DIFF_TOOL}`, 20_000);
  const controller = new AbortController();
  const pending = adt.transport.getDiff(TRANSPORT, { pageSize: 2, signal: controller.signal });
  assert.ok(await until(() => arrived(env, `tool:${DIFF_TOOL}`) === 1, 10_000), 'the tool call reached the backend');
  const call = mcpReceived(env).filter((m) => m.method === 'tools/call').at(-1);
  const t0 = Date.now();
  controller.abort();
  assertAbortError(await rejection(pending), controller.signal.reason);
  assert.ok(Date.now() - t0 < 1000, 'rejected at once');
  const cancelled = await until(() => mcpReceived(env).find((m) => m.method === 'notifications/cancelled'), 5000);
  assert.ok(cancelled, "adt-ls's MCP server got notifications/cancelled");
  assert.ok(call, 'the tools/call is in the MCP trace');
  assert.equal(cancelled.requestId, call.id);
  env.sap.control.setDelay(`tool:${DIFF_TOOL}`, 0);

  // Multi-step: source.read is quickSearch -> getLsUri -> readFile; abort while getLsUri is held.
  env.sap.control.setDelay('adtLs/repository/getLsUri', 20_000);
  const step = new AbortController();
  const before = env.wire.mark();
  const read = adt.source.read(ZCL_TEST, { signal: step.signal });
  const held = await until(() => env.wire.since(before, 'adtLs/repository/getLsUri')[0], 10_000);
  assert.ok(held, 'the second step is in flight');
  step.abort();
  assertAbortError(await rejection(read), step.signal.reason);
  env.sap.control.setDelay('adtLs/repository/getLsUri', 0);
  await sleep(300);
  assert.equal(env.wire.since(before, 'adtLs/fileSystem/readFile').length, 0, 'the step after the abort is never sent');
  const cancels = env.wire.since(before, '$/cancelRequest');
  assert.ok(cancels.length >= 1, '$/cancelRequest for the held step');

  // A mutating multi-step method: lifecycle.update resolves the object, then writes. Aborted
  // while resolving, the write is never sent.
  env.sap.control.setDelay('adtLs/repository/getLsUri', 20_000);
  const write = new AbortController();
  const beforeWrite = env.wire.mark();
  const update = adt.lifecycle.update({ ...ZCL_TEST, source: 'never written' }, { signal: write.signal });
  assert.ok(await until(() => env.wire.since(beforeWrite, 'adtLs/repository/getLsUri')[0], 10_000));
  write.abort();
  assertAbortError(await rejection(update), write.signal.reason);
  env.sap.control.setDelay('adtLs/repository/getLsUri', 0);
  await sleep(300);
  assert.equal(env.wire.since(beforeWrite, 'adtLs/fileSystem/writeFile').length, 0, 'the write is never sent');

  // A method with a timeoutMs of its own keeps the reference's message, and now cancels too.
  const beforeRefs = env.wire.mark();
  const typedescr = { name: 'CL_ABAP_TYPEDESCR', objectType: 'CLAS/OC' };
  const hung = await rejection(adt.navigation.findReferences(typedescr, { symbol: 'get_relative_name' }, { timeoutMs: 300 }));
  assert.equal(hung.code, 'ETIMEDOUT');
  assert.match(hung.message, /^findReferences timed out after 300ms — /);
  const refs = env.wire.since(beforeRefs, 'textDocument/references');
  assert.equal(refs.length, 1);
  assert.ok(
    await until(() => env.wire.since(beforeRefs).some((m) => m.method === '$/cancelRequest' && m.params.id === refs[0].id), 5000),
    '$/cancelRequest for the hung textDocument/references',
  );

  // And the client keeps working.
  assert.match(await adt.source.read(ZCL_TEST), /CLASS/i);
});

test('transport.diffPages: every page until completed, break stops, abort mid-iteration', TEST_OPTS, async (t) => {
  tools = recordToolCalls();
  const env = await connectedClient();
  t.after(async () => {
    tools.stop();
    await env.close();
  });
  const adt = env.client;

  // All pages, the same as paging getDiff by hand.
  const manual = [];
  let cursor;
  for (;;) {
    const page = await adt.transport.getDiff(TRANSPORT, cursor === undefined ? { pageSize: 2 } : { pageSize: 2, cursor });
    manual.push(page);
    if (page.batchInfo?.status === 'completed') break;
    cursor = page.nextCursor;
  }
  tools.clear();
  const pages = [];
  for await (const page of adt.transport.diffPages(TRANSPORT, { pageSize: 2 })) pages.push(page);
  assert.equal(pages.length, manual.length);
  assert.ok(pages.length > 2, 'several pages');
  assert.equal(pages.at(-1).batchInfo.status, 'completed');
  assert.deepEqual(pages.map((p) => p.diffResult), manual.map((p) => p.diffResult));
  const calls = tools.of(DIFF_TOOL).map((c) => c.args);
  assert.equal(calls.length, pages.length, 'one call per page');
  assert.equal(calls[0].cursor, undefined);
  assert.equal(calls[1].cursor, pages[0].nextCursor);
  assert.ok(calls.every((c) => c.pageSize === 2));

  // break after the first page: no further page is asked for.
  tools.clear();
  for await (const page of adt.transport.diffPages(TRANSPORT, { pageSize: 2 })) {
    assert.ok(page.batchInfo);
    break;
  }
  await sleep(200);
  assert.equal(tools.of(DIFF_TOOL).length, 1);

  // Abort while the second page is held open.
  tools.clear();
  const base = arrived(env, `tool:${DIFF_TOOL}`);
  const controller = new AbortController();
  const seen = [];
  const iterate = (async () => {
    for await (const page of adt.transport.diffPages(TRANSPORT, { pageSize: 2, signal: controller.signal })) {
      seen.push(page);
      env.sap.control.setDelay(`tool:${DIFF_TOOL}`, 20_000);
    }
  })();
  assert.ok(await until(() => arrived(env, `tool:${DIFF_TOOL}`) === base + 2, 10_000), 'the second page is in flight');
  controller.abort('enough');
  assertAbortError(await rejection(iterate), 'enough');
  // A new iteration on that signal rejects too; nothing is sent.
  const again = adt.transport.diffPages(TRANSPORT, { pageSize: 2, signal: controller.signal });
  assertAbortError(await rejection(again.next()), 'enough');
  env.sap.control.setDelay(`tool:${DIFF_TOOL}`, 0);
  assert.equal(seen.length, 1);
  await sleep(200);
  assert.equal(arrived(env, `tool:${DIFF_TOOL}`), base + 2, 'no page after the abort');

  // Bad arguments reject the first next(); nothing is sent.
  tools.clear();
  const bad = adt.transport.diffPages('', { pageSize: 2 });
  assert.equal(typeof bad[Symbol.asyncIterator], 'function');
  assert.equal(bad[Symbol.asyncIterator](), bad);
  assert.equal((await rejection(bad.next())).message, 'transportNumber must not be empty');
  assert.deepEqual(await bad.next(), { done: true });
  const badSignal = adt.transport.diffPages(TRANSPORT, { signal: 1 });
  assert.equal((await rejection(badSignal.next())).code, 'ERR_INVALID_ARG_TYPE');
  assert.equal(tools.of(DIFF_TOOL).length, 0);
});

// createAdtLs in foundation mode (no connection, no auth) through the public API, on the
// simulated adt-ls: capabilities (a deep copy, the captured 1.1.2 tool catalogue), the
// destination-less surface, health, dispose, the MCP start and isolated destination store
// on the wire, MCP port fallback, the option guards, and failed starts leaving nothing.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { isAbsolute, basename, dirname } from 'node:path';
import { createAdtLs, basic } from '../index.js';
import { tempDir, readTrace, incoming, timed, ourTempEntries, TEST_TMP } from './helpers.mjs';
import { declaredClientMethods } from './support/declared-api.mjs';
import { FIXTURE, CLIENT_BOUNDS, nodeAdtLs, captureLogs, leakWatch, holdPort } from './fixtures/client/support.mjs';

const NO_DEST = /^No ABAP destination is connected\.$/;
const DISPOSED = /^AdtLsClient is disposed\.$/;
/** An `assert.rejects` validator matching the error's message exactly. */
const message = (re) => (e) => re.test(e.message);
const BOTH_OR_NEITHER = 'Provide connection and auth together, or omit both for foundation mode.';

const traceDir = tempDir('adt-ls-native-trace-');
after(() => traceDir.cleanup());
let traceSeq = 0;
const traceFile = () => `${traceDir.dir}/trace-${traceSeq++}.jsonl`;

/** One foundation client on the simulator; `fn(client, trace)` runs, then dispose. */
async function withFoundation(fn, { env = {}, opts = {} } = {}) {
  const trace = traceFile();
  const client = await createAdtLs({ adtLs: nodeAdtLs({ ADTLS_SIM_TRACE: trace, ...env }), ...CLIENT_BOUNDS, ...opts });
  try {
    return await fn(client, trace);
  } finally {
    await client.dispose();
  }
}

/** Every promise-returning method of the client, with harmless arguments. */
function everyMethod(client) {
  return {
    capabilities: () => client.capabilities(),
    listDestinations: () => client.listDestinations(),
    reconnect: () => client.reconnect(),
    'raw.lsp': () => client.raw.lsp('sim/echo', { a: 1 }),
    'raw.tool': () => client.raw.tool('abap_list_destinations', {}),
    'repository.search': () => client.repository.search('CL_ABAP_TYPEDESCR'),
    'repository.getUsers': () => client.repository.getUsers(),
    'repository.getLsUri': () => client.repository.getLsUri('/sap/bc/adt/oo/classes/zcl_test'),
    'repository.readFile': () => client.repository.readFile('abap:/repotree-v1/X/a.clas.abap'),
    'repository.writeFile': () => client.repository.writeFile('abap:/repotree-v1/X/a.clas.abap', 'x'),
    'repository.delete': () => client.repository.delete('abap:/repotree-v1/X/a.clas.json'),
    'repository.readDirectory': () => client.repository.readDirectory('abap:/repotree-v1/X/'),
    'repository.abapStat': () => client.repository.abapStat('abap:/repotree-v1/X/a.clas.abap'),
    'repository.listInactive': () => client.repository.listInactive(),
  };
}

/** Call without awaiting: must return a promise, never throw synchronously. */
function callAsync(name, fn) {
  let p;
  assert.doesNotThrow(() => {
    p = fn();
  }, `${name} threw synchronously`);
  assert.equal(typeof p?.then, 'function', `${name} did not return a promise`);
  return p;
}

test('capabilities: the LSP capabilities (a deep copy) and the 20 captured VFS tools', () =>
  withFoundation(async (client) => {
    const caps = await client.capabilities();
    assert.deepEqual(caps.lsp, FIXTURE.lsp);
    assert.ok(caps.lsp.completionProvider && caps.lsp.diagnosticProvider);
    assert.equal(caps.tools.length, 20);
    assert.deepEqual(caps.tools.map((t) => t.name).sort(), FIXTURE.tools.map((t) => t.name).sort());
    for (const want of FIXTURE.tools) {
      const got = caps.tools.find((t) => t.name === want.name);
      assert.deepEqual(got.inputSchema, want.inputSchema, `${want.name} inputSchema`);
      assert.equal(got.title, want.title, `${want.name} title`);
      assert.deepEqual(got.outputSchema, want.outputSchema, `${want.name} outputSchema`);
      assert.equal(got.description, want.description, `${want.name} description`);
    }
    for (const vfsOnly of ['abap_creation-create_object', 'abap_activate_objects', 'abap_run_unit_tests', 'abap_generators-generate_objects']) {
      assert.ok(caps.tools.some((t) => t.name === vfsOnly), `${vfsOnly} (VFS mode) listed`);
    }
    caps.lsp.completionProvider.triggerCharacters = ['mutated'];
    caps.lsp.injected = true;
    delete caps.lsp.hoverProvider;
    caps.tools[0].inputSchema.mutated = true;
    const again = await client.capabilities();
    assert.deepEqual(again.lsp, FIXTURE.lsp, 'mutating a result does not leak into the next');
    assert.equal(again.tools.find((t) => t.name === caps.tools[0].name).inputSchema.mutated, undefined);
  }));

test('listDestinations is [], raw.lsp and raw.tool work, health and reconnect in foundation mode', () =>
  withFoundation(async (client) => {
    assert.deepEqual(await client.listDestinations(), []);
    assert.deepEqual(await client.raw.lsp('sim/echo', { hello: 'world' }), { hello: 'world' });
    assert.deepEqual(await client.raw.lsp('adtLs/destinations/list'), [], 'a fresh, isolated store');
    const store = await client.raw.lsp('adtLs/destinations/getStorePath');
    assert.match(store, new RegExp(`^${TEST_TMP}/adt-ls-client-[^/]+/destinations\\.json$`));
    const raw = await client.raw.tool('abap_list_destinations', {});
    assert.deepEqual(raw.content, [{ type: 'text', text: '[]' }]);
    const toolError = await client.raw.tool('abap_run_unit_tests', { uris: ['abap:/repotree-v1/X/a.clas.abap'] });
    assert.equal(toolError.isError, true, 'raw.tool hands back isError results untouched');
    const h = client.health();
    assert.deepEqual(Object.keys(h).sort(), ['adtLsName', 'adtLsVersion', 'backendLive', 'connected', 'destination', 'mcpPort']);
    assert.equal(h.connected, false);
    assert.equal(h.backendLive, false);
    assert.equal(h.destination, '');
    assert.equal(h.adtLsName, 'ADTLS');
    assert.equal(h.adtLsVersion, '1.1.2.202608131517');
    assert.ok(Number.isInteger(h.mcpPort) && h.mcpPort >= 2240, `mcpPort ${h.mcpPort}`);
    assert.equal(await client.reconnect(), false);
  }));

test('destination-scoped methods reject (never throw) with the reference text', () =>
  withFoundation(async (client) => {
    const scoped = {
      search: () => client.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] }),
      getUsers: () => client.repository.getUsers(),
      getLsUri: () => client.repository.getLsUri('/sap/bc/adt/oo/classes/cl_abap_typedescr'),
      listInactive: () => client.repository.listInactive(),
    };
    for (const [name, fn] of Object.entries(scoped)) {
      await assert.rejects(callAsync(name, fn), message(NO_DEST), name);
    }
  }));

test('dispose is idempotent; afterwards every method rejects promptly and health is offline', async () => {
  const client = await createAdtLs({ adtLs: nodeAdtLs() });
  assert.equal(client.health().connected, false);
  await client.dispose();
  await client.dispose();
  const namespaced = ['source', 'lifecycle', 'navigation', 'quality', 'services', 'transport'];
  const declared = declaredClientMethods().filter((m) => !namespaced.includes(m.split('.')[0]));
  assert.deepEqual(Object.keys(everyMethod(client)).sort(), declared.sort(), 'every registry method outside the namespaces (namespaces-foundation covers those)');
  for (const [name, fn] of Object.entries(everyMethod(client))) {
    const r = await timed(callAsync(name, fn));
    assert.equal(r.ok, false, `${name} resolved after dispose`);
    assert.match(r.error.message, DISPOSED, name);
    assert.ok(r.ms < 1000, `${name} took ${r.ms}ms`);
  }
  const h = client.health();
  assert.equal(h.connected, false);
  assert.equal(h.backendLive, false);
  assert.equal(h.destination, '');
  await Promise.all([client.dispose(), client.dispose()]);
});

test('a call in flight when dispose starts settles with the disposed error', async () => {
  const client = await createAdtLs({ adtLs: nodeAdtLs() });
  const pending = timed(client.raw.lsp('sim/never'));
  await client.dispose();
  const r = await pending;
  assert.equal(r.ok, false);
  // dispose() cancels everything pending (docs/decisions.md#d5-3) with the disposed text (docs/wire.md#health-and-dispose).
  assert.equal(r.error.message, 'AdtLsClient is disposed.');
  assert.ok(r.ms < 2000, `${r.ms}ms`);
});

test('wire: MCP start {port, token, fileSystemMode:"VFS"} with a 48-hex token; an isolated absolute store', () =>
  withFoundation(async (client, trace) => {
    const { mcpPort } = client.health();
    await client.raw.lsp('sim/echo', {}); // everything sent before has been traced
    const msgs = incoming(readTrace(trace));
    // One start per port tried (2240 may be taken by a concurrent test): 2240, 2241, ...
    const starts = msgs.filter((m) => m.method === 'adtLs/mcp/startMCPServer');
    assert.deepEqual(starts.map((m) => m.params.port), starts.map((_, i) => 2240 + i));
    const start = starts.at(-1);
    assert.deepEqual(Object.keys(start.params), ['port', 'token', 'fileSystemMode']);
    assert.equal(start.params.port, mcpPort);
    assert.match(start.params.token, /^[0-9a-f]{48}$/);
    assert.equal(start.params.fileSystemMode, 'VFS');
    assert.ok(starts.every((m) => m.params.token === start.params.token && m.params.fileSystemMode === 'VFS'));
    const init = msgs.find((m) => m.method === 'adtLs/destinations/initializeService');
    assert.ok(init, 'initializeService was sent');
    const { destinationsStorePath: store, ...rest } = init.params;
    assert.deepEqual(rest, { workspaceFolderUris: [], fileUris: [] });
    assert.ok(isAbsolute(store), store);
    assert.equal(basename(store), 'destinations.json');
    assert.match(basename(dirname(store)), /^adt-ls-client-/);
    assert.equal(dirname(dirname(store)), TEST_TMP, 'the store lives in the temp dir, never ~/.adtls');
    assert.ok(msgs.indexOf(init) < msgs.indexOf(start), 'initializeService before the MCP start');
    for (const m of msgs) {
      assert.ok(!String(m.method).startsWith('adtLs/destinations/create'), 'no destination in foundation mode');
      assert.notEqual(m.method, 'adtLs/mcp/setDestination');
    }
  }));

test('a busy mcpPort falls back to the next one and logs the warning', async () => {
  const held = await holdPort();
  const logs = captureLogs();
  try {
    await withFoundation(
      async (client) => {
        const { mcpPort } = client.health();
        assert.ok(mcpPort > held.port, `effective port ${mcpPort} after busy ${held.port}`);
        assert.equal(logs.of('warn')[0], `adt-ls MCP port ${held.port} busy — trying ${held.port + 1}`);
        assert.ok(logs.of('info').includes(`adt-ls MCP federated on http://127.0.0.1:${mcpPort}/mcp`), logs.text());
        assert.deepEqual(await client.listDestinations(), []);
      },
      { opts: { mcpPort: held.port } },
    );
  } finally {
    logs.restore();
    await held.release();
  }
});

test('guards: connection without auth, or auth without connection, reject before anything exists', async () => {
  const watch = leakWatch(assert);
  const adtLs = nodeAdtLs(watch.env);
  const cases = {
    'connection only': { adtLs, connection: { systemUrl: 'https://127.0.0.1:1' } },
    'auth only': { adtLs, auth: basic('DEVELOPER', 'x') },
  };
  for (const [name, opts] of Object.entries(cases)) {
    const p = callAsync(name, () => createAdtLs(opts));
    assert.deepEqual(watch.fresh(), [], `${name}: nothing allocated synchronously`);
    await assert.rejects(p, (e) => e.message === BOTH_OR_NEITHER, name);
    assert.deepEqual(watch.pids(), [], `${name}: no adt-ls started`);
    assert.deepEqual(watch.fresh(), [], `${name}: no temp dir created`);
  }
});

test('failed starts reject with the original message and leave no process, temp dir or socket', async () => {
  const scenarios = [
    { name: 'MCP initialize answered 401', env: { ADTLS_SIM_MCP_STATUS401: 'initialize' }, error: /^adt-ls MCP initialize failed: HTTP 401$/ },
    {
      name: 'an old adt-ls',
      env: { ADTLS_SIM_MODE: 'old' },
      error: /^Unsupported adt-ls version 1\.0\.1\.202606111342\. .*requires adt-ls >= 1\.1\.2/,
      // docs/decisions.md#d5-11: the version is checked before `initialized` is sent.
      wire: (methods) => assert.deepEqual(methods, ['initialize']),
    },
    { name: 'adt-ls exits at once', env: { ADTLS_FIXTURE_MODE: 'exit' }, error: /^adt-ls exited \(code 2\) before LSP connect/ },
    {
      name: 'adt-ls crashes on initializeService',
      env: { ADTLS_SIM_CRASH_AFTER: '0', ADTLS_SIM_CRASH_METHOD: 'adtLs/destinations/initializeService' },
      error: /^adt-ls exited \(code 134\) while adtLs\/destinations\/initializeService was pending\./,
    },
  ];
  for (const s of scenarios) {
    const watch = leakWatch(assert);
    const trace = traceFile();
    const r = await timed(createAdtLs({ adtLs: nodeAdtLs({ ...watch.env, ADTLS_SIM_TRACE: trace, ...s.env }), ...CLIENT_BOUNDS }));
    assert.equal(r.ok, false, `${s.name}: createAdtLs resolved`);
    assert.match(r.error.message, s.error, `${s.name}: ${r.error.message}`);
    assert.ok(r.ms < 15000, `${s.name}: took ${r.ms}ms`);
    await watch.assertClean(s.name);
    s.wire?.(incoming(readTrace(trace)).map((m) => m.method ?? 'response'));
  }
  const missing = leakWatch(assert);
  await assert.rejects(createAdtLs({ adtLs: { path: `${TEST_TMP}/no-such-adt-ls` } }), message(/^Explicit adt-ls binary is not a file: .*no-such-adt-ls/));
  await missing.assertClean('a missing binary path');
  assert.deepEqual(ourTempEntries().filter((e) => e.startsWith('adt-ls-client-')), []);
});

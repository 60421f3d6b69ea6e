// Tests of the simulated adt-ls process shell: the real process driven through a Unix socket
// by a tiny SDK-side harness (initialize, fault modes, trace, startup probes), the native
// request forwarding and document features in-process, and the fake extension install.

import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import forge from 'node-forge';
import {
  createMessageConnection,
  SocketMessageReader,
  SocketMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node.js';
import { defaultConfig, loadConfig } from '../lib/config.mjs';
import { installFakeExtension, platformLayout, readTrace, simulatorBinPath } from '../lib/index.mjs';
import { startSession } from '../lib/server.mjs';
import { END_LINE_SENTINEL } from '../lib/native/features/formatting.mjs';

const FIXTURE = JSON.parse(readFileSync(new URL('../fixtures/adt-ls-1.1.2-capabilities.json', import.meta.url), 'utf8'));
const CLI = fileURLToPath(new URL('../bin/adt-ls-simulator.mjs', import.meta.url));
const INIT_PARAMS = {
  processId: process.pid,
  clientInfo: { name: 'adt-ls-native', version: '0.0.0-test' },
  rootUri: null,
  workspaceFolders: null,
  capabilities: {},
  initializationOptions: { userAgentInfos: [{ name: 'adt-ls-native', version: '0.0.0-test' }] },
};

const tempDirs = [];
const children = new Set();
// A bound on every suite, so a regression fails instead of hanging; generous, like every wait
// below, because the machine running the suite may be heavily loaded.
const SUITE = { timeout: 180_000 };
function tempDir(prefix = 'adtls-shell-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function within(ms, promise, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms}ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
/** Resolves 'pending' if the promise has not settled after `ms`. */
async function settledWithin(ms, promise) {
  return Promise.race([promise.then(() => 'resolved', () => 'rejected'), sleep(ms).then(() => 'pending')]);
}

// ---------------------------------------------------------------------------------------
// SDK-side harness: listens on a temp Unix socket, spawns the fake adt-ls, speaks LSP.
// ---------------------------------------------------------------------------------------
async function launch({ env = {}, command = process.execPath, args, configurationAnswer, connectTimeoutMs = 20_000 } = {}) {
  const dir = tempDir();
  const pipe = join(dir, 'p.sock');
  const tracePath = join(dir, 'trace.jsonl');
  const server = net.createServer();
  await new Promise((resolve) => server.listen(pipe, resolve));
  const firstConnection = new Promise((resolve) => server.once('connection', resolve));
  const argv = [
    ...(args ?? (command === process.execPath ? [simulatorBinPath()] : [])),
    '-Djco.trace_path',
    dir,
    '-data',
    dir,
    `--pipe=${pipe}`,
  ];
  const child = spawn(command, argv, {
    env: { ...process.env, ADTLS_SIM_TRACE: tracePath, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.resume();
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const serverRequests = [];
  const notifications = [];

  const h = {
    dir,
    pipe,
    tracePath,
    child,
    exited,
    serverRequests,
    notifications,
    stderr: () => stderr,
    trace: () => readTrace(tracePath),
    connection: undefined,
    socket: undefined,
    async connect() {
      const outcome = await within(
        connectTimeoutMs,
        Promise.race([firstConnection.then((socket) => ({ socket })), exited.then((exit) => ({ exit }))]),
        'adt-ls connect',
      );
      if (outcome.exit) throw Object.assign(new Error(`exited before connect: ${JSON.stringify(outcome.exit)}`), outcome.exit);
      h.socket = outcome.socket;
      const reader = new SocketMessageReader(h.socket);
      // No partial-message timer: vscode-jsonrpc re-arms it every 10 s for as long as a
      // message stays incomplete (a simulator killed or dropping its socket mid-message) and
      // dispose() does not clear it, so it kept this test process alive forever (the stall
      // --test-force-exit used to hide).
      reader.partialMessageTimeout = 0;
      const connection = createMessageConnection(reader, new SocketMessageWriter(h.socket));
      connection.onRequest('workspace/configuration', (params) => {
        serverRequests.push({ method: 'workspace/configuration', params });
        return configurationAnswer ? configurationAnswer(params) : (params?.items ?? []).map(() => null);
      });
      connection.onRequest((method, params) => {
        serverRequests.push({ method, params });
        return null;
      });
      connection.onNotification((method, params) => notifications.push({ method, params }));
      connection.onError(() => {});
      connection.listen();
      h.connection = connection;
      return connection;
    },
    async initialize(params = INIT_PARAMS) {
      const result = await within(15_000, h.connection.sendRequest('initialize', params), 'initialize');
      await h.connection.sendNotification('initialized', {});
      return result;
    },
    async close() {
      h.connection?.dispose();
      h.socket?.destroy();
      server.close();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await within(15_000, exited, 'child exit');
    },
  };
  return h;
}

async function waitFor(predicate, what, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = predicate();
    if (value) return value;
    await sleep(20);
  }
  throw new Error(`waiting for ${what} timed out after ${ms}ms`);
}

describe('fake adt-ls process', SUITE, () => {
  test('initialize answers the fixture capabilities, records the params, probes the client', async () => {
    const h = await launch({ env: { JAVA_TOOL_OPTIONS: '-Dsim.test=1' } });
    try {
      await h.connect();
      const result = await h.initialize();
      assert.deepEqual(result.capabilities, FIXTURE.lsp);
      assert.deepEqual(result.serverInfo, { name: 'ADTLS', version: '1.1.2.202608131517' });
      assert.equal(result.capabilities.testPipe, undefined);

      await waitFor(() => h.trace().find((e) => e.event === 'configuration-probe'), 'configuration probe');
      const config = h.serverRequests.find((r) => r.method === 'workspace/configuration');
      assert.deepEqual(config.params, { items: [{ section: 'adt.joule.url' }] });
      await waitFor(() => h.serverRequests.some((r) => r.method === 'window/workDoneProgress/create'), 'progress create');
      const registration = h.serverRequests.find((r) => r.method === 'client/registerCapability');
      assert.equal(registration.params.registrations[0].method, 'textDocument/formatting');
      await waitFor(() => h.notifications.some((n) => n.method === 'window/logMessage'), 'logMessage noise');

      const events = h.trace();
      const probe = events.find((e) => e.event === 'configuration-probe');
      assert.equal(probe.ok, true);
      assert.deepEqual(probe.result, [null]);
      assert.equal(events.find((e) => e.event === 'initialize').userAgentInfos, 'ok');
      const init = events.find((e) => e.dir === 'in' && e.message?.method === 'initialize');
      assert.deepEqual(init.message.params.initializationOptions, INIT_PARAMS.initializationOptions);
      assert.match(h.stderr(), /^Picked up JAVA_TOOL_OPTIONS: -Dsim\.test=1$/m);

      // Closing the socket ends the process with code 0.
      h.connection.dispose();
      h.socket.destroy();
      assert.deepEqual(await within(15_000, h.exited, 'exit after close'), { code: 0, signal: null });
    } finally {
      await h.close();
    }
  });

  test('trace keeps array-wrapped params, raw headers without Content-Type, and both directions', async () => {
    const h = await launch();
    try {
      await h.connect();
      await h.initialize();
      await h.connection.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS').catch(() => {});
      await h.connection.sendRequest('adtLs/mcp/stopMCPServer', null).catch(() => {});
      const events = h.trace();
      const sent = (method) => events.find((e) => e.dir === 'in' && e.message?.method === method);
      assert.deepEqual(sent('adtLs/destinations/ensureLoggedOn').message.params, ['ADTLS']);
      assert.deepEqual(sent('adtLs/mcp/stopMCPServer').message.params, [null]);
      const headers = events.filter((e) => e.rawHeader !== undefined).map((e) => e.rawHeader);
      assert.ok(headers.length >= 4);
      for (const header of headers) assert.match(header, /^Content-Length: \d+$/);
      assert.ok(events.some((e) => e.dir === 'out' && e.message?.result?.serverInfo?.name === 'ADTLS'));
      // Every incoming message follows its raw header record.
      const firstIn = events.findIndex((e) => e.dir === 'in' && e.message);
      assert.ok(events[firstIn - 1].rawHeader);
    } finally {
      await h.close();
    }
  });

  test('a bad workspace/configuration answer breaks the destination service', async () => {
    const h = await launch({ configurationAnswer: () => null });
    try {
      await h.connect();
      await h.initialize();
      await waitFor(() => h.trace().find((e) => e.event === 'configuration-probe'), 'probe');
      assert.equal(h.trace().find((e) => e.event === 'configuration-probe').ok, false);
      await assert.rejects(
        h.connection.sendRequest('adtLs/destinations/initializeService', { destinationsStorePath: join(h.dir, 'destinations.json') }),
        { message: 'Destination service not initialized' },
      );
    } finally {
      await h.close();
    }
  });

  test('without userAgentInfos every backend request fails like the real JVM', async () => {
    const h = await launch();
    try {
      await h.connect();
      const { initializationOptions, ...noOptions } = INIT_PARAMS;
      assert.ok(initializationOptions);
      await h.initialize(noOptions);
      await waitFor(() => /NullPointerException/.test(h.stderr()), 'NPE line');
      await assert.rejects(h.connection.sendRequest('adtLs/repository/quickSearch', { destination: 'A4H', pattern: 'X' }), {
        code: -32603,
        message: 'java.lang.NoClassDefFoundError: Could not initialize class com.sap.adt.communication.http.HttpRequestHeaderUtil',
      });
    } finally {
      await h.close();
    }
  });

  test('ADTLS_FIXTURE_MODE=exit exits with code 2 before connecting', async () => {
    const h = await launch({ env: { ADTLS_FIXTURE_MODE: 'exit' } });
    try {
      await assert.rejects(h.connect(), { code: 2 });
    } finally {
      await h.close();
    }
  });

  test('exit mode uses the configured code and stderr text', async () => {
    const h = await launch({ env: { ADTLS_SIM_MODE: 'exit', ADTLS_SIM_EXIT_CODE: '13', ADTLS_SIM_EXIT_STDERR: 'boom: no JVM' } });
    try {
      await assert.rejects(h.connect(), { code: 13 });
      assert.match(h.stderr(), /boom: no JVM/);
    } finally {
      await h.close();
    }
  });

  test('never-connect stays alive without connecting', async () => {
    const h = await launch({ env: { ADTLS_SIM_MODE: 'never-connect' }, connectTimeoutMs: 700 });
    try {
      await assert.rejects(h.connect(), /timed out/);
      assert.equal(h.child.exitCode, null);
    } finally {
      await h.close();
    }
  });

  test('hang never answers initialize; old and ADTLS_SIM_VERSION change the version', async () => {
    const hang = await launch({ env: { ADTLS_FIXTURE_MODE: 'hang' } });
    const old = await launch({ env: { ADTLS_FIXTURE_MODE: 'old' } });
    const custom = await launch({ env: { ADTLS_SIM_VERSION: '1.2.0.209901010000' } });
    try {
      await Promise.all([hang.connect(), old.connect(), custom.connect()]);
      assert.equal(await settledWithin(500, hang.connection.sendRequest('initialize', INIT_PARAMS)), 'pending');
      assert.equal((await old.initialize()).serverInfo.version, '1.0.1.202606111342');
      assert.equal((await custom.initialize()).serverInfo.version, '1.2.0.209901010000');
    } finally {
      await Promise.all([hang.close(), old.close(), custom.close()]);
    }
  });

  test('echo-pipe adds capabilities.testPipe; initialize-error answers with an error', async () => {
    const echo = await launch({ env: { ADTLS_SIM_MODE: 'echo-pipe' } });
    const failing = await launch({ env: { ADTLS_SIM_INITIALIZE_ERROR: 'License check failed' } });
    try {
      await Promise.all([echo.connect(), failing.connect()]);
      assert.equal((await echo.initialize()).capabilities.testPipe, echo.pipe);
      await assert.rejects(failing.connection.sendRequest('initialize', INIT_PARAMS), { message: 'License check failed', code: -32603 });
    } finally {
      await Promise.all([echo.close(), failing.close()]);
    }
  });

  test('crash after N requests exits with the code and a stderr line while a request is pending', async () => {
    const h = await launch({ env: { ADTLS_SIM_CRASH_AFTER: '1', ADTLS_SIM_CRASH_CODE: '134' } });
    try {
      await h.connect();
      await h.initialize();
      await assert.rejects(h.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: 'abap:/x' } }), /not open/);
      const pending = h.connection.sendRequest('adtLs/repository/quickSearch', { destination: 'A4H', pattern: 'Z*' });
      pending.catch(() => {});
      assert.deepEqual(await within(15_000, h.exited, 'crash'), { code: 134, signal: null });
      assert.match(h.stderr(), /A fatal error has been detected by the Java Runtime Environment/);
      const events = h.trace();
      const crash = events.find((e) => e.event === 'crash');
      assert.equal(crash.method, 'adtLs/repository/quickSearch');
      assert.ok(!events.some((e) => e.dir === 'out' && e.message?.id === crash.id && !e.message.method));
    } finally {
      await h.close();
    }
  });

  test('drop after N requests closes the socket but the process stays alive', async () => {
    const h = await launch({ env: { ADTLS_SIM_MODE: 'drop', ADTLS_SIM_DROP_METHOD: 'adtLs/repository/quickSearch' } });
    try {
      await h.connect();
      await h.initialize();
      const closed = new Promise((resolve) => h.connection.onClose(resolve));
      const pending = h.connection.sendRequest('adtLs/repository/quickSearch', { destination: 'A4H', pattern: 'Z*' });
      pending.catch(() => {});
      await within(15_000, closed, 'socket close');
      await sleep(300);
      assert.equal(h.child.exitCode, null);
      assert.ok(h.trace().some((e) => e.event === 'drop'));
    } finally {
      await h.close();
    }
  });

  test('slow mode delays responses of the selected method', async () => {
    const h = await launch({ env: { ADTLS_SIM_DELAY_MS: '400', ADTLS_SIM_DELAY_METHOD: 'shutdown' } });
    try {
      await h.connect();
      const t0 = Date.now();
      await h.initialize();
      assert.ok(Date.now() - t0 < 400, 'initialize is not delayed');
      const t1 = Date.now();
      assert.equal(await h.connection.sendRequest('shutdown'), null);
      assert.ok(Date.now() - t1 >= 390, `shutdown took ${Date.now() - t1}ms`);
    } finally {
      await h.close();
    }
  });

  test('a connection error exits with code 1', async () => {
    const dir = tempDir();
    const result = spawnSync(process.execPath, [simulatorBinPath(), `--pipe=${join(dir, 'missing.sock')}`], { encoding: 'utf8', timeout: 5000 });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /ConnectException/);
  });
});

describe('configuration', SUITE, () => {
  test('env presets, knobs and sections', () => {
    const config = loadConfig({
      ADTLS_FIXTURE_MODE: 'old',
      ADTLS_SIM_MODE: 'echo-pipe,crash',
      ADTLS_SIM_CRASH_AFTER: '3',
      ADTLS_SIM_REFERENCES_HANG: 'CL_ABAP_TYPEDESCR, zcl_x',
      ADTLS_SIM_MCP_EXPIRE_SESSION_AFTER: '2',
      ADTLS_SIM_LOGON_INPUT: 'socket',
      ADTLS_SIM_LSP_RESULTS: '{"textDocument/formatting":[]}',
    });
    assert.equal(config.version, '1.0.1.202606111342');
    assert.equal(config.echoPipe, true);
    assert.equal(config.crashAfter, 3);
    assert.deepEqual(config.referencesHang, ['CL_ABAP_TYPEDESCR', 'zcl_x']);
    assert.deepEqual(config.mcp, { expireSessionAfter: 2 });
    assert.deepEqual(config.logon, { input: 'socket' });
    assert.deepEqual(config.lspResults, { 'textDocument/formatting': [] });
    assert.throws(() => loadConfig({ ADTLS_SIM_MODE: 'nope' }), /Unknown simulator mode "nope"/);
    assert.throws(() => loadConfig({ ADTLS_SIM_CRASH_AFTER: 'x' }), /must be an integer/);
  });
});

// ---------------------------------------------------------------------------------------
// In-process sessions: the same server code on a pair of PassThrough streams.
// ---------------------------------------------------------------------------------------
async function inProcess(configPatch = {}) {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const config = { ...defaultConfig(), startupRequests: false, ...configPatch };
  const session = await startSession({ input: toServer, output: toClient, config, log: () => {}, registrars: [], exit: () => {} });
  const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  client.listen();
  await client.sendRequest('initialize', INIT_PARAMS);
  await client.sendNotification('initialized', {});
  return {
    ctx: session.ctx,
    client,
    close() {
      client.dispose();
      session.dispose();
    },
  };
}

describe('compromised adt-ls', SUITE, () => {
  test('lspResults answers the configured methods with the configured results, as they are', async () => {
    const reversed = [{ range: { start: { line: 0, character: 3 }, end: { line: 0, character: 1 } }, newText: 'X' }];
    const s = await inProcess({ lspResults: { 'textDocument/formatting': reversed, 'textDocument/semanticTokens/full': { data: [0, 0, 1, 0, -1] } } });
    try {
      // Answered without an open document, like a peer that ignores the protocol.
      const doc = { textDocument: { uri: 'abap:/repotree-v1/A4H/src/zcl_none.clas.abap' } };
      assert.deepEqual(await s.client.sendRequest('textDocument/formatting', { ...doc, options: {} }), reversed);
      assert.deepEqual(await s.client.sendRequest('textDocument/semanticTokens/full', doc), { data: [0, 0, 1, 0, -1] });
      // Other methods keep their simulated behaviour.
      await assert.rejects(s.client.sendRequest('textDocument/documentSymbol', doc), /not open/);
    } finally {
      s.close();
    }
  });
});

describe('native adtLs/* forwarding', SUITE, () => {
  test('forwards params to the backend of the destination and keeps backend errors', async () => {
    const s = await inProcess();
    const calls = [];
    s.ctx.setBackend('A4H', {
      async call(op, payload) {
        calls.push({ op, payload });
        if (op === 'adtLs/fileSystem/delete') throw Object.assign(new Error('Deletion needs confirmation'), { code: 1003, data: { uri: payload.uri } });
        return op === 'adtLs/cts/transport/assignTransportToObject' ? false : { references: [] };
      },
    });
    try {
      assert.deepEqual(await s.client.sendRequest('adtLs/repository/quickSearch', { destination: 'A4H', pattern: 'Z*' }), { references: [] });
      assert.equal(await s.client.sendRequest('adtLs/cts/transport/assignTransportToObject', { objectUri: 'abap:/repotree-v1/A4H/x', transport: 'A4HK900001' }), false);
      await s.client.sendRequest('adtLs/run/runApplication', 'abap:/repotree-v1/A4H/src/zrun.prog.abap');
      await s.client.sendRequest('adtLs/cts/transport/searchTransports', { destinationId: 'A4H' });
      await assert.rejects(s.client.sendRequest('adtLs/fileSystem/delete', { uri: 'abap:/repotree-v1/A4H/a.json', options: { recursive: false, force: false } }), (error) => {
        assert.equal(error.code, 1003);
        assert.equal(error.message, 'Deletion needs confirmation');
        assert.deepEqual(error.data, { uri: 'abap:/repotree-v1/A4H/a.json' });
        return true;
      });
      assert.deepEqual(calls[0], { op: 'adtLs/repository/quickSearch', payload: { destination: 'A4H', pattern: 'Z*' } });
      assert.deepEqual(calls[2], { op: 'adtLs/run/runApplication', payload: 'abap:/repotree-v1/A4H/src/zrun.prog.abap' });
      await assert.rejects(s.client.sendRequest('adtLs/repository/getUsers', { destination: 'B4H' }), { message: 'Destination B4H is not logged on', code: -32603 });
      // Strict like the wire contract: no fallback to the logged-on A4H, one key per method,
      // and an object param wrapped in an array is not unwrapped.
      const before = calls.length;
      for (const [method, params] of [
        ['adtLs/repository/getUsers', {}],
        ['adtLs/repository/quickSearch', { destinationId: 'A4H', pattern: 'Z*' }],
        ['adtLs/cts/transport/searchTransports', { destination: 'A4H' }],
        ['adtLs/repository/quickSearch', [{ destination: 'A4H', pattern: 'Z*' }]],
      ]) {
        await assert.rejects(s.client.sendRequest(method, params), { message: 'No destination', code: -32603 }, `${method} ${JSON.stringify(params)}`);
      }
      assert.equal(calls.length, before, 'nothing reached the backend');
      s.ctx.setBackend('A4H', undefined);
      await assert.rejects(s.client.sendRequest('adtLs/repository/getUsers', {}), { message: 'No destination' });
    } finally {
      s.close();
    }
  });
});

const SOURCE = `CLASS zcl_order DEFINITION PUBLIC FINAL CREATE PUBLIC INHERITING FROM zcl_base.
  PUBLIC SECTION.
    INTERFACES zif_order.
    METHODS: submit IMPORTING iv_id TYPE i,
             cancel.
    DATA mv_count TYPE i.
ENDCLASS.

CLASS zcl_order IMPLEMENTATION.
  METHOD submit.
    mv_count = mv_count + iv_id.
  ENDMETHOD.
  METHOD cancel.
    CLEAR mv_count.
  ENDMETHOD.
ENDCLASS.

CLASS lcl_child DEFINITION INHERITING FROM zcl_order.
ENDCLASS.
`;
const URI = 'abap:/repotree-v1/A4H/src/zcl_order.clas.abap';

describe('document features', SUITE, () => {
  test('open-document requests', async () => {
    const s = await inProcess({ referencesHang: ['CL_ABAP_TYPEDESCR'], referencesError: ['mv_count'] });
    const req = (method, extra = {}) => s.client.sendRequest(method, { textDocument: { uri: URI }, ...extra });
    try {
      await assert.rejects(req('textDocument/documentSymbol'), { message: `Document ${URI} not open` });
      await s.client.sendNotification('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'abap', version: 1, text: SOURCE } });

      const symbols = await req('textDocument/documentSymbol');
      assert.equal(symbols[0].name, 'zcl_order');
      assert.equal(symbols[0].kind, 5);
      assert.equal(symbols[0].selectionRange.start.character, 0);
      assert.deepEqual(symbols[0].children.map((c) => c.name), ['submit', 'cancel', 'mv_count']);
      assert.ok(symbols[0].children[0].selectionRange.start.character > 0);

      assert.deepEqual((await req('textDocument/diagnostic')).items, []);

      const submitCall = { line: 9, character: 11 }; // METHOD submit.
      const def = await req('textDocument/definition', { position: submitCall });
      assert.deepEqual(def[0].range.start, { line: 9, character: 9 });
      const decl = await req('textDocument/declaration', { position: submitCall });
      assert.deepEqual(decl[0].range.start, { line: 3, character: 13 });

      const countUse = { line: 10, character: 6 };
      assert.equal(await req('textDocument/hover', { position: countUse }), null);
      assert.deepEqual(await req('textDocument/documentHighlight', { position: countUse }), []);
      const tokens = await req('textDocument/semanticTokens/full');
      assert.equal(tokens.data.length % 5, 0);
      const legend = FIXTURE.lsp.semanticTokensProvider.legend.tokenTypes;
      assert.deepEqual(tokens.data.slice(0, 5), [0, 0, 5, legend.indexOf('keyword'), 0]); // CLASS
      assert.deepEqual(tokens.data.slice(5, 10), [0, 6, 9, legend.indexOf('class'), 1]); // zcl_order, declaration
      const hover = await req('textDocument/hover', { position: countUse });
      assert.match(hover.contents.value, /DATA mv_count TYPE i\./);
      assert.equal((await req('textDocument/documentHighlight', { position: countUse })).length, 4);

      await assert.rejects(req('textDocument/references', { position: countUse, context: { includeDeclaration: true } }), { message: 'Internal error' });
      const refs = await req('textDocument/references', { position: { line: 3, character: 14 }, context: { includeDeclaration: false } });
      assert.deepEqual(refs.map((r) => r.range.start.line), [9]);

      const [item] = await req('textDocument/prepareTypeHierarchy', { position: { line: 0, character: 8 } });
      assert.equal(item.name, 'zcl_order');
      assert.ok(item.data);
      const supers = await s.client.sendRequest('typeHierarchy/supertypes', { item });
      assert.deepEqual(supers.map((i) => i.name.toUpperCase()), ['ZCL_BASE', 'ZIF_ORDER']);
      const subs = await s.client.sendRequest('typeHierarchy/subtypes', { item });
      assert.deepEqual(subs.map((i) => i.name), ['lcl_child']);

      const completion = await req('textDocument/completion', { position: { line: 13, character: 12 } }); // "CLEAR mv_"
      const mv = completion.items.find((i) => i.label === 'mv_count');
      assert.ok(mv.data);
      const resolved = await s.client.sendRequest('completionItem/resolve', mv);
      assert.match(resolved.documentation.value, /mv_count/);

      const edits = await req('textDocument/formatting', { options: { tabSize: 2, insertSpaces: true } });
      assert.ok(Array.isArray(edits));

      await s.client.sendNotification('textDocument/didClose', { textDocument: { uri: URI } });
      const broken = 'REPORT zbroken.\nWRITE / 1\n';
      await s.client.sendNotification('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'abap', version: 1, text: broken } });
      const diagnostics = await req('textDocument/diagnostic');
      assert.equal(diagnostics.kind, 'full');
      assert.equal(diagnostics.items[0].severity, 1);
      assert.match(diagnostics.items[0].message, /period/);

      await s.client.sendNotification('textDocument/didClose', { textDocument: { uri: URI } });
      const messy = 'class lcl definition.\npublic section.\nmethods run.\nendclass.\n';
      await s.client.sendNotification('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'abap', version: 1, text: messy } });
      const [edit] = await req('textDocument/formatting', { options: { tabSize: 2, insertSpaces: true } });
      assert.deepEqual(edit.range, { start: { line: 0, character: 0 }, end: { line: END_LINE_SENTINEL, character: 0 } });
      assert.equal(edit.newText, 'CLASS lcl DEFINITION.\n  PUBLIC SECTION.\n    METHODS run.\nENDCLASS.\n');
    } finally {
      s.close();
    }
  });

  test('references hang for configured names', async () => {
    const s = await inProcess({ referencesHang: ['CL_ABAP_TYPEDESCR'] });
    try {
      const text = 'DATA lo TYPE REF TO cl_abap_typedescr.\n';
      await s.client.sendNotification('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'abap', version: 1, text } });
      const hung = s.client.sendRequest('textDocument/references', { textDocument: { uri: URI }, position: { line: 0, character: 22 }, context: { includeDeclaration: true } });
      hung.catch(() => {});
      assert.equal(await settledWithin(300, hung), 'pending');
    } finally {
      s.close();
    }
  });
});

// ---------------------------------------------------------------------------------------
// Fake extension install
// ---------------------------------------------------------------------------------------
function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

describe('install', SUITE, () => {
  test('layout for every editor and platform', () => {
    const home = tempDir('adtls-home-');
    const expected = {
      linux: 'adt-ls/linux/gtk/x86_64/adt-ls',
      darwin: 'adt-ls/macosx/cocoa/aarch64/Adt-ls.app/Contents/MacOS/adt-ls',
      win32: 'adt-ls/win32/win32/x86_64/adt-lsc.exe',
    };
    const editors = { vscode: '.vscode', cursor: '.cursor', insiders: '.vscode-insiders' };
    for (const [editor, dirName] of Object.entries(editors)) {
      for (const platform of ['linux', 'darwin', 'win32']) {
        const arch = platform === 'darwin' ? 'arm64' : 'x64';
        const r = installFakeExtension({ home, editor, platform, arch });
        const folder = `sapse.adt-vscode-1.1.2-${platform}-${arch}`;
        assert.equal(r.extensionDir, join(home, dirName, 'extensions', folder));
        assert.equal(r.binPath, join(r.extensionDir, expected[platform]));
        assert.ok(isExecutable(r.binPath));
        assert.match(readFileSync(r.binPath, 'utf8'), /^#!\/bin\/sh\n/);
        const jreName = `com.sap.adt.jvm.sapmachineminimal.${platform === 'darwin' ? 'macosx.aarch64' : `${platform}.x86_64`}_21.12.0`;
        const pluginsRoot = platform === 'darwin' ? join(r.binPath, '..', '..', 'Eclipse', 'plugins') : join(r.binPath, '..', 'plugins');
        assert.equal(r.jreDir, join(pluginsRoot, jreName, 'jre'));
        assert.ok(isExecutable(join(r.jreDir, 'bin', platform === 'win32' ? 'keytool.exe' : 'keytool')));
        assert.ok(statSync(join(r.jreDir, 'lib', 'security', 'cacerts')).size > 500);
      }
    }
    const darwinX64 = installFakeExtension({ home, platform: 'darwin', arch: 'x64' });
    assert.match(darwinX64.binPath, /macosx\/cocoa\/x86_64\/Adt-ls\.app\/Contents\/MacOS\/adt-ls$/);
    const incomplete = installFakeExtension({ home, version: '1.0.9', platform: 'linux', arch: 'x64', incomplete: true });
    assert.equal(existsSync(incomplete.binPath), false);
    assert.throws(() => platformLayout('sunos', 'x64'), /Unsupported platform: sunos/);
  });

  test('the installed launcher runs the simulator', { skip: process.platform === 'win32' && 'the launcher is a POSIX shell script' }, async () => {
    const home = tempDir('adtls-home-');
    const { binPath } = installFakeExtension({ home, platform: process.platform, arch: process.arch === 'arm64' ? 'arm64' : 'x64' });
    const h = await launch({ command: binPath, env: { ADTLS_SIM_MODE: 'echo-pipe' } });
    try {
      await h.connect();
      const result = await h.initialize();
      assert.equal(result.serverInfo.name, 'ADTLS');
      assert.equal(result.capabilities.testPipe, h.pipe);
      assert.ok(h.trace().find((e) => e.event === 'start').argv.includes('-data'));
    } finally {
      await h.close();
    }
  });

  test('cacerts is a PKCS#12 truststore (changeit) of trusted CA entries', (t) => {
    const home = tempDir('adtls-home-');
    const r = installFakeExtension({ home, platform: 'linux', arch: 'x64' });
    const der = readFileSync(r.cacertsPath).toString('binary');
    const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), 'changeit');
    const bags = p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag];
    assert.ok(bags.length >= 2);
    for (const bag of bags) {
      assert.ok(bag.cert.extensions.find((e) => e.name === 'basicConstraints').cA);
      assert.ok(bag.attributes.friendlyName[0]);
    }
    assert.throws(() => forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), 'wrong'));

    const hasKeytool = spawnSync('keytool', ['-help'], { encoding: 'utf8' }).error === undefined;
    if (!hasKeytool) return t.skip('keytool not on PATH (run .ci/install-system-packages): the forge checks ran, the keytool listing did not');
    const listed = execFileSync(r.keytoolPath, ['-list', '-keystore', r.cacertsPath, '-storepass', 'changeit', '-storetype', 'PKCS12'], { encoding: 'utf8' });
    assert.equal((listed.match(/trustedCertEntry/g) ?? []).length, bags.length);
  });

  test('CLI: path and install', () => {
    assert.equal(execFileSync(process.execPath, [CLI, 'path'], { encoding: 'utf8' }).trim(), simulatorBinPath());
    const home = tempDir('adtls-home-');
    const out = execFileSync(process.execPath, [CLI, 'install', '--home', home, '--editor', 'cursor', '--platform', 'linux', '--arch', 'x64', '--version', '1.2.3'], { encoding: 'utf8' });
    const result = JSON.parse(out);
    assert.equal(result.binPath, join(home, '.cursor', 'extensions', 'sapse.adt-vscode-1.2.3-linux-x64', 'adt-ls', 'linux', 'gtk', 'x86_64', 'adt-ls'));
    assert.ok(isExecutable(result.binPath));
    const bad = spawnSync(process.execPath, [CLI, 'install', '--home', home, '--editor', 'emacs'], { encoding: 'utf8' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /Unknown editor "emacs"/);
  });
});

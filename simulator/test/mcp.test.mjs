// Tests of the simulated adt-ls MCP server (lib/mcp): the official MCP client in every
// response/session mode, raw HTTP for each fault's byte shape, and the LSP lifecycle requests
// over an in-process vscode-jsonrpc pair. Every wait is bounded; every server is closed.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';
import {
  startMcpHttpServer,
  registerMcp,
  readMcpConfigFromEnv,
  normalizeModes,
  VFS_ONLY_TOOLS,
  decodeCursor,
} from '../lib/mcp/index.mjs';
import { createContext } from '../lib/context.mjs';
import { createDispatcher } from '../lib/shell/dispatch.mjs';

const FIXTURE_TOOLS = JSON.parse(
  readFileSync(new URL('../fixtures/adt-ls-1.1.2-capabilities.json', import.meta.url), 'utf8'),
).tools;
const NON_VFS_TOOLS = FIXTURE_TOOLS.filter((t) => !VFS_ONLY_TOOLS.includes(t.name));
const STEP_TIMEOUT_MS = 5000;

// ---------------------------------------------------------------- helpers

const servers = new Set();
after(async () => {
  await Promise.all([...servers].map((s) => s.close()));
});

async function startServer(opts = {}) {
  const srv = await startMcpHttpServer({ fileSystemMode: 'VFS', ...opts });
  servers.add(srv);
  return srv;
}

async function stopServer(srv) {
  await srv.close();
  servers.delete(srv);
}

function withTimeout(promise, ms = STEP_TIMEOUT_MS, what = 'operation') {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

async function waitFor(predicate, ms = STEP_TIMEOUT_MS) {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function connectOfficialClient(srv) {
  const client = new Client({ name: 'adt-ls-native-test', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(srv.url), {
    requestInit: { headers: { Authorization: `Bearer ${srv.token}` } },
  });
  await withTimeout(client.connect(transport), STEP_TIMEOUT_MS, 'connect');
  return { client, transport };
}

async function listAllTools(client) {
  const tools = [];
  let cursor;
  do {
    const page = await withTimeout(client.listTools(cursor ? { cursor } : undefined));
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

function rpcHeaders(srv, { session, token = srv.token, protocolVersion = '2025-06-18' } = {}) {
  return {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(session ? { 'mcp-session-id': session } : {}),
    ...(protocolVersion ? { 'mcp-protocol-version': protocolVersion } : {}),
  };
}

function post(srv, message, options = {}) {
  return fetch(srv.url, {
    method: 'POST',
    headers: rpcHeaders(srv, options),
    body: JSON.stringify(message),
    signal: options.signal ?? AbortSignal.timeout(STEP_TIMEOUT_MS),
  });
}

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

/** Raw initialize + initialized; returns the session id (undefined when sessionless). */
async function rawConnect(srv) {
  const res = await post(srv, INIT, { protocolVersion: null });
  assert.equal(res.status, 200);
  if (res.headers.get('content-type').startsWith('text/event-stream')) {
    const { answer, reader } = await readAnswer(res, INIT.id); // the stream may stay open
    assert.ok(answer.result);
    await reader.cancel();
  } else await res.text();
  const session = res.headers.get('mcp-session-id') ?? undefined;
  const ack = await post(srv, { jsonrpc: '2.0', method: 'notifications/initialized' }, { session });
  assert.equal(ack.status, 202);
  return session;
}

/** WHATWG-style SSE parse of the text so far: returns [{event, data}] for dispatched events. */
function parseSse(text) {
  const events = [];
  let data = [];
  let event;
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop(); // the unterminated remainder is not a line yet
  for (const line of lines) {
    if (line === '') {
      if (data.length > 0) events.push({ event: event ?? 'message', data: data.join('\n') });
      data = [];
      event = undefined;
    } else if (line.startsWith(':')) continue;
    else {
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      if (field === 'event') event = value;
    }
  }
  return events;
}

/** Reads an SSE body until an event answers `id` (stream may stay open). */
async function readAnswer(res, id) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await withTimeout(reader.read(), STEP_TIMEOUT_MS, 'SSE read');
      if (done) return { text, answer: undefined, reader };
      text += decoder.decode(value, { stream: true });
      const answer = parseSse(text)
        .map((e) => JSON.parse(e.data))
        .find((m) => m.id === id && m.method === undefined);
      if (answer) return { text, answer, reader };
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  }
}

/** A POST through node:http, recording every 'data' chunk as it arrived. */
function postCapturingChunks(srv, message, { session, hostHeader } = {}) {
  return withTimeout(
    new Promise((resolve, reject) => {
      const body = JSON.stringify(message);
      const req = http.request(srv.url, {
        method: 'POST',
        headers: {
          ...rpcHeaders(srv, { session }),
          ...(hostHeader ? { host: hostHeader } : {}),
          'content-length': Buffer.byteLength(body),
        },
      });
      req.on('response', (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, chunks }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    }),
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const echoCall = (id, name, args) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const TRANSPORT_GET_ARGS = {
  destination: 'A4H',
  objectName: 'ZCL_ÜBER_€→',
  objectType: 'CLAS/OC',
  developmentPackage: '$TMP',
  isCreation: false,
};
// abap_transport-create declares no outputSchema, so a plain echo satisfies strict clients.
const TRANSPORT_CREATE_ARGS = { ...TRANSPORT_GET_ARGS, transportDescription: 'Ünïcödé → test', isCreation: true };

// ---------------------------------------------------------------- official client

describe('official MCP client against every response/session mode', () => {
  for (const response of ['json', 'sse']) {
    for (const session of [true, false]) {
      test(`response=${response} session=${session}`, async () => {
        const srv = await startServer({ modes: { response, session } });
        const { client, transport } = await connectOfficialClient(srv);
        try {
          assert.deepEqual(client.getServerVersion(), { name: 'ADT MCP Server', version: '1.0.0' });
          assert.deepEqual(client.getServerCapabilities(), { tools: {} });
          assert.equal(transport.sessionId !== undefined, session);

          const tools = await listAllTools(client);
          assert.deepEqual(tools, FIXTURE_TOOLS);

          const result = await withTimeout(
            client.callTool({ name: 'abap_transport-create', arguments: TRANSPORT_CREATE_ARGS }),
          );
          assert.deepEqual(JSON.parse(result.content[0].text), {
            name: 'abap_transport-create',
            arguments: TRANSPORT_CREATE_ARGS,
          });

          const later = srv.stats.requests.filter((e) => e.rpc.some((m) => m.method === 'tools/list'));
          assert.equal(later[0].headers['mcp-protocol-version'], '2025-06-18');
          assert.equal(later[0].authorization, 'bearer');
          assert.equal(later[0].headers['mcp-session-id'], transport.sessionId);
          if (session) {
            await withTimeout(transport.terminateSession());
            assert.deepEqual(srv.stats.deletes, [{ sessionId: srv.stats.sessions[0], status: 204 }]);
          }
        } finally {
          await client.close();
          await stopServer(srv);
        }
      });
    }
  }

  test('without fileSystemMode VFS the server lists the 15 non-VFS tools', async () => {
    const srv = await startServer({ fileSystemMode: undefined });
    const { client } = await connectOfficialClient(srv);
    try {
      const tools = await listAllTools(client);
      assert.equal(tools.length, 15);
      assert.deepEqual(tools, NON_VFS_TOOLS);
    } finally {
      await client.close();
      await stopServer(srv);
    }
  });

  test('paginated listing through the official client yields the 20 tools in order', async () => {
    const srv = await startServer({ modes: { pageSize: 6 } });
    const { client } = await connectOfficialClient(srv);
    try {
      assert.deepEqual(await listAllTools(client), FIXTURE_TOOLS);
      assert.equal(srv.stats.count('tools/list'), 4);
    } finally {
      await client.close();
      await stopServer(srv);
    }
  });

  test('sseNoise: the client answers the injected ping and still gets its result', async () => {
    const srv = await startServer({ modes: { sseNoise: true } });
    const { client } = await connectOfficialClient(srv);
    try {
      const result = await withTimeout(client.callTool({ name: 'abap_list_destinations', arguments: {} }));
      assert.equal(JSON.parse(result.content[0].text).name, 'abap_list_destinations');
      assert.deepEqual(srv.stats.pings.sent, ['sim-ping-1']);
      await waitFor(() => srv.stats.pings.answered.length === 1);
      assert.deepEqual(srv.stats.pings.answered, ['sim-ping-1']);
    } finally {
      await client.close();
      await stopServer(srv);
    }
  });

  test('odd chunks + noise + kept-open streams together still work for the official client', async () => {
    const srv = await startServer({ modes: { sseChunks: 'odd', sseNoise: true, sseKeepOpen: true, pageSize: 8 } });
    const { client } = await connectOfficialClient(srv);
    try {
      assert.deepEqual(await listAllTools(client), FIXTURE_TOOLS);
      const result = await withTimeout(
        client.callTool({ name: 'abap_transport-create', arguments: TRANSPORT_CREATE_ARGS }),
      );
      assert.deepEqual(JSON.parse(result.content[0].text).arguments, TRANSPORT_CREATE_ARGS);
    } finally {
      await client.close();
      await stopServer(srv);
    }
  });

  test('invalid arguments are JSON-RPC -32602 errors naming the problem', async () => {
    const srv = await startServer();
    const { client } = await connectOfficialClient(srv);
    const cases = [
      ['abap_run_unit_tests', { uris: ['abap:/x'], destination: 'A4H' }, /unexpected property 'destination'/],
      ['abap_run_unit_tests', {}, /missing required property 'uris'/],
      [
        'abap_transport-unifiedDifference',
        { destination: 'A4H', transportNumber: 'A4HK900001', pageSize: 41 },
        /pageSize must be <= 40/,
      ],
      [
        'abap_transport-unifiedDifference',
        { destination: 'A4H', transportNumber: 'A4HK900001', pageSize: 2.5 },
        /pageSize must be integer/,
      ],
      [
        'abap_transport-get',
        { ...TRANSPORT_GET_ARGS, objectType: 'CLAS' },
        /objectType must NOT have fewer than 5 characters/,
      ],
      [
        'abap_business_services-fetch_service_information',
        {
          serviceBindingName: 'ZUI',
          serviceName: 'S',
          serviceDefinition: 'D',
          serviceVersion: '1',
          odataInfoUri: '/x',
          odataVersion: 'V3',
          destination: 'A4H',
        },
        /odataVersion must be one of "V2", "V4"/,
      ],
      ['abap_no_such_tool', {}, /Unknown tool: abap_no_such_tool/],
    ];
    try {
      for (const [name, args, message] of cases) {
        await assert.rejects(withTimeout(client.callTool({ name, arguments: args })), (error) => {
          assert.equal(error.code, -32602);
          assert.match(error.message, message);
          return true;
        });
      }
    } finally {
      await client.close();
      await stopServer(srv);
    }
  });

  test('a toolHandler result becomes a CallToolResult with structuredContent and isError', async () => {
    const srv = await startServer({
      toolHandler: (name) =>
        name === 'abap_list_destinations'
          ? { text: '["A4H"]', structuredContent: { destinations: ['A4H'] } }
          : { text: 'Your user was logged off', isError: true },
    });
    const { client } = await connectOfficialClient(srv);
    try {
      const ok = await withTimeout(client.callTool({ name: 'abap_list_destinations', arguments: {} }));
      assert.deepEqual(ok, {
        content: [{ type: 'text', text: '["A4H"]' }],
        structuredContent: { destinations: ['A4H'] },
      });
      const failed = await withTimeout(
        client.callTool({ name: 'abap_atc_get_result', arguments: { worklistId: 'W', destination: 'A4H' } }),
      );
      assert.deepEqual(failed, { content: [{ type: 'text', text: 'Your user was logged off' }], isError: true });
    } finally {
      await client.close();
      await stopServer(srv);
    }
  });
});

// ---------------------------------------------------------------- raw HTTP: guards and initialize

describe('raw HTTP: guards, initialize and sessions', () => {
  test('401 without or with a wrong bearer token; the token is never recorded', async () => {
    const srv = await startServer();
    try {
      const none = await post(srv, INIT, { token: null });
      assert.equal(none.status, 401);
      await none.text();
      const wrong = await post(srv, INIT, { token: 'not-the-token' });
      assert.equal(wrong.status, 401);
      await wrong.text();
      assert.deepEqual(
        srv.stats.requests.map((e) => e.authorization),
        ['none', 'bearer'],
      );
      assert.equal(srv.stats.requests[0].rpc[0].method, 'initialize');
      assert.ok(!JSON.stringify(srv.stats.requests).includes(srv.token));
    } finally {
      await stopServer(srv);
    }
  });

  test('403 for a foreign Host header; localhost and 127.0.0.1 are accepted', async () => {
    const srv = await startServer({ modes: { response: 'json' } });
    try {
      const foreign = await postCapturingChunks(srv, INIT, { hostHeader: `evil.example:${srv.port}` });
      assert.equal(foreign.status, 403);
      const otherPort = await postCapturingChunks(srv, INIT, { hostHeader: `localhost:${srv.port + 1}` });
      assert.equal(otherPort.status, 403);
      const local = await postCapturingChunks(srv, INIT, { hostHeader: `localhost:${srv.port}` });
      assert.equal(local.status, 200);
      const loopback = await postCapturingChunks(srv, INIT, { hostHeader: `127.0.0.1:${srv.port}` });
      assert.equal(loopback.status, 200);
    } finally {
      await stopServer(srv);
    }
  });

  for (const protocolVersion of ['2025-06-18', '2025-03-26', '2099-01-01']) {
    test(`initialize answers protocolVersion ${protocolVersion}`, async () => {
      const srv = await startServer({ modes: { response: 'json', protocolVersion } });
      try {
        const res = await post(srv, INIT, { protocolVersion: null });
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type'), /^application\/json/);
        const body = await res.json();
        assert.deepEqual(body, {
          jsonrpc: '2.0',
          id: 1,
          result: {
            protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'ADT MCP Server', version: '1.0.0' },
          },
        });
        assert.ok(res.headers.get('mcp-session-id'));
      } finally {
        await stopServer(srv);
      }
    });
  }

  test('stateless mode sends no session id; DELETE is 405', async () => {
    const srv = await startServer({ modes: { response: 'json', session: false } });
    try {
      const session = await rawConnect(srv);
      assert.equal(session, undefined);
      const del = await fetch(srv.url, {
        method: 'DELETE',
        headers: rpcHeaders(srv),
        signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
      });
      assert.equal(del.status, 405);
      await del.text();
    } finally {
      await stopServer(srv);
    }
  });

  test('stateful mode: missing session 400, unknown session 404, DELETE 204 then 404', async () => {
    const srv = await startServer({ modes: { response: 'json' } });
    try {
      const session = await rawConnect(srv);
      const missing = await post(srv, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
      assert.equal(missing.status, 400);
      await missing.text();
      const unknown = await post(srv, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { session: 'no-such-session' });
      assert.equal(unknown.status, 404);
      await unknown.text();
      const del = () =>
        fetch(srv.url, {
          method: 'DELETE',
          headers: rpcHeaders(srv, { session }),
          signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
        });
      assert.equal((await del()).status, 204);
      assert.equal((await del()).status, 404);
      assert.deepEqual(
        srv.stats.deletes.map((d) => d.status),
        [204, 404],
      );
    } finally {
      await stopServer(srv);
    }
  });

  test('expireSessionAfter: N requests succeed, then 404 for that session id; a new session works', async () => {
    const srv = await startServer({ modes: { response: 'json', expireSessionAfter: 2 } });
    try {
      const session = await rawConnect(srv);
      const statuses = [];
      for (let id = 2; id <= 5; id += 1) {
        const res = await post(srv, { jsonrpc: '2.0', id, method: 'tools/list' }, { session });
        statuses.push(res.status);
        await res.text();
      }
      assert.deepEqual(statuses, [200, 200, 404, 404]);
      const fresh = await rawConnect(srv);
      assert.notEqual(fresh, session);
      const res = await post(srv, { jsonrpc: '2.0', id: 6, method: 'tools/list' }, { session: fresh });
      assert.equal(res.status, 200);
      await res.text();
      assert.equal(srv.stats.sessions.length, 2);
    } finally {
      await stopServer(srv);
    }
  });

  test('initialized404: notifications/initialized is answered 404, the session can still be deleted', async () => {
    const srv = await startServer({ modes: { response: 'json', initialized404: true } });
    try {
      const init = await post(srv, INIT, { protocolVersion: null });
      const session = init.headers.get('mcp-session-id');
      await init.text();
      const ack = await post(srv, { jsonrpc: '2.0', method: 'notifications/initialized' }, { session });
      assert.equal(ack.status, 404);
      await ack.text();
      const del = await fetch(srv.url, {
        method: 'DELETE',
        headers: rpcHeaders(srv, { session }),
        signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
      });
      assert.equal(del.status, 204);
    } finally {
      await stopServer(srv);
    }
  });
});

// ---------------------------------------------------------------- raw HTTP: tools/list shapes

describe('raw HTTP: tools/list pagination and broken lists', () => {
  async function listPage(srv, session, id, cursor) {
    const res = await post(
      srv,
      { jsonrpc: '2.0', id, method: 'tools/list', ...(cursor !== undefined ? { params: { cursor } } : {}) },
      { session },
    );
    assert.equal(res.status, 200);
    return res.json();
  }

  test('pageSize pages with opaque cursors containing / + =', async () => {
    const srv = await startServer({ modes: { response: 'json', pageSize: 7 } });
    try {
      const session = await rawConnect(srv);
      const sizes = [];
      const names = [];
      const cursors = [];
      let cursor;
      let id = 2;
      do {
        const { result } = await listPage(srv, session, id, cursor);
        sizes.push(result.tools.length);
        names.push(...result.tools.map((t) => t.name));
        cursor = result.nextCursor;
        if (cursor !== undefined) cursors.push(cursor);
        id += 1;
      } while (cursor !== undefined);
      assert.deepEqual(sizes, [7, 7, 6]);
      assert.deepEqual(
        names,
        FIXTURE_TOOLS.map((t) => t.name),
      );
      for (const c of cursors) assert.match(c, /^(?=.*\/)(?=.*\+)(?=.*=).+$/);
      assert.deepEqual(cursors.map(decodeCursor), [7, 14]);
      const pageTwo = srv.stats.requests.find((e) => e.rpc.some((m) => m.method === 'tools/list' && m.id === 3));
      assert.equal(pageTwo.headers['mcp-session-id'], session);

      const bad = await listPage(srv, session, 99, 'opaque/+=');
      assert.equal(bad.error.code, -32602);
      assert.match(bad.error.message, /Invalid cursor/);
    } finally {
      await stopServer(srv);
    }
  });

  test('loopCursor returns the same nextCursor every time; nullCursor returns null', async () => {
    const srv = await startServer({ modes: { response: 'json', pageSize: 5, loopCursor: true } });
    try {
      const session = await rawConnect(srv);
      const first = await listPage(srv, session, 2);
      const second = await listPage(srv, session, 3, first.result.nextCursor);
      assert.equal(typeof first.result.nextCursor, 'string');
      assert.equal(second.result.nextCursor, first.result.nextCursor);

      srv.setMode({ loopCursor: false, nullCursor: true });
      const withNull = await listPage(srv, session, 4);
      assert.ok('nextCursor' in withNull.result);
      assert.equal(withNull.result.nextCursor, null);
    } finally {
      await stopServer(srv);
    }
  });

  test('invalidTools: missing, not an array, an entry without a name', async () => {
    const srv = await startServer({ modes: { response: 'json', invalidTools: true } });
    try {
      const session = await rawConnect(srv);
      assert.deepEqual((await listPage(srv, session, 2)).result, {});
      srv.setMode({ invalidTools: 'notArray' });
      assert.equal(Array.isArray((await listPage(srv, session, 3)).result.tools), false);
      srv.setMode({ invalidTools: 'badEntry' });
      const bad = (await listPage(srv, session, 4)).result.tools;
      assert.equal(bad[0].name, undefined);
    } finally {
      await stopServer(srv);
    }
  });
});

// ---------------------------------------------------------------- raw HTTP: faults

describe('raw HTTP: fault modes', () => {
  for (const status of [401, 500]) {
    test(`status${status}: tools/call and tools/list fail with HTTP ${status}, initialize still works`, async () => {
      const srv = await startServer({ modes: { response: 'json', [`status${status}`]: true } });
      try {
        const session = await rawConnect(srv);
        for (const message of [
          echoCall(2, 'abap_list_destinations', {}),
          { jsonrpc: '2.0', id: 3, method: 'tools/list' },
        ]) {
          const res = await post(srv, message, { session });
          assert.equal(res.status, status);
          const body = await res.text();
          assert.ok(body.length > 0, 'the error response has a body');
        }
      } finally {
        await stopServer(srv);
      }
    });
  }

  for (const response of ['json', 'sse']) {
    test(`hang (${response}): tools/call never answers and arrives exactly once`, async () => {
      const srv = await startServer({ modes: { response, hang: true } });
      try {
        const session = await rawConnect(srv);
        const pending = post(srv, echoCall(7, 'abap_list_destinations', {}), {
          session,
          signal: AbortSignal.timeout(300),
        });
        if (response === 'sse') {
          const res = await pending;
          assert.equal(res.status, 200);
          await assert.rejects(res.text(), /abort|timeout/i);
        } else {
          await assert.rejects(pending, /abort|timeout/i);
        }
        assert.equal(srv.stats.count('tools/call', 7), 1);
        assert.equal(srv.stats.count('tools/call'), 1);
        // Other methods are not affected.
        const list = await post(srv, { jsonrpc: '2.0', id: 8, method: 'tools/list' }, { session });
        assert.equal(list.status, 200);
        await list.text();
      } finally {
        await stopServer(srv);
      }
    });
  }

  test("sseChunks 'odd': CRLF pairs and multi-byte UTF-8 sequences are split across reads", async () => {
    const srv = await startServer({ modes: { sseChunks: 'odd' } });
    try {
      const session = await rawConnect(srv);
      const { status, headers, chunks } = await postCapturingChunks(
        srv,
        echoCall(2, 'abap_transport-get', TRANSPORT_GET_ARGS),
        { session },
      );
      assert.equal(status, 200);
      assert.match(headers['content-type'], /^text\/event-stream/);
      assert.ok(chunks.length > 5, `expected many reads, got ${chunks.length}`);
      const splitCrlf = chunks.some((c, i) => c.at(-1) === 0x0d && chunks[i + 1]?.[0] === 0x0a);
      assert.ok(splitCrlf, 'a CR and its LF arrived in different reads');
      const splitUtf8 = chunks.some(
        (c, i) => i + 1 < chunks.length && (c.at(-1) >= 0xc0 || (chunks[i + 1][0] & 0xc0) === 0x80),
      );
      assert.ok(splitUtf8, 'a multi-byte UTF-8 sequence was split across reads');
      const text = Buffer.concat(chunks).toString('utf8');
      assert.ok(text.includes('\r\n'));
      const answer = parseSse(text)
        .map((e) => JSON.parse(e.data))
        .find((m) => m.id === 2);
      assert.deepEqual(JSON.parse(answer.result.content[0].text).arguments, TRANSPORT_GET_ARGS);
    } finally {
      await stopServer(srv);
    }
  });

  test('sseNoise: comments, a notification, event: lines, a ping request and multi-line data before the answer', async () => {
    const srv = await startServer({ modes: { sseNoise: true } });
    try {
      const session = await rawConnect(srv);
      const res = await post(srv, echoCall(2, 'abap_list_destinations', {}), { session });
      const text = await res.text();
      assert.match(text, /^: /m);
      assert.match(text, /^event: message$/m);
      assert.match(text, /^data:[^ ]/m, 'one data line without the optional space');
      const events = parseSse(text).map((e) => JSON.parse(e.data));
      assert.equal(events[0].method, 'notifications/message');
      assert.deepEqual(events[1], { jsonrpc: '2.0', id: 'sim-ping-1', method: 'ping' });
      const answer = events.find((m) => m.id === 2);
      assert.equal(JSON.parse(answer.result.content[0].text).name, 'abap_list_destinations');
      const answerBlock = text.slice(text.lastIndexOf('event: message'));
      assert.ok(
        answerBlock.split('\n').filter((l) => l.startsWith('data:')).length >= 2,
        'the answer spans several data: lines',
      );

      const pong = await post(srv, { jsonrpc: '2.0', id: 'sim-ping-1', result: {} }, { session });
      assert.equal(pong.status, 202);
      assert.deepEqual(srv.stats.pings.answered, ['sim-ping-1']);
    } finally {
      await stopServer(srv);
    }
  });

  test('sseKeepOpen: the stream stays open after the answer', async () => {
    const srv = await startServer({ modes: { sseKeepOpen: true } });
    try {
      const session = await rawConnect(srv);
      const res = await post(srv, echoCall(2, 'abap_list_destinations', {}), { session });
      const { answer, reader } = await readAnswer(res, 2);
      assert.ok(answer.result);
      const next = await Promise.race([reader.read(), new Promise((r) => setTimeout(() => r('still-open'), 200))]);
      assert.equal(next, 'still-open');
      await reader.cancel();
    } finally {
      await stopServer(srv);
    }
  });

  test('sseEndWithoutAnswer: the stream ends and never carries the answer', async () => {
    const srv = await startServer({ modes: { sseEndWithoutAnswer: true } });
    try {
      const session = await rawConnect(srv);
      const res = await post(srv, echoCall(2, 'abap_list_destinations', {}), { session });
      assert.equal(res.status, 200);
      const text = await withTimeout(res.text());
      assert.equal(parseSse(text).filter((e) => JSON.parse(e.data).id === 2).length, 0);
    } finally {
      await stopServer(srv);
    }
  });

  test('nonJsonData: a data line that is not JSON comes before the answer', async () => {
    const srv = await startServer({ modes: { nonJsonData: true } });
    try {
      const session = await rawConnect(srv);
      const res = await post(srv, echoCall(2, 'abap_list_destinations', {}), { session });
      const events = parseSse(await res.text());
      assert.throws(() => JSON.parse(events[0].data), SyntaxError);
      assert.equal(JSON.parse(events.at(-1).data).id, 2);
    } finally {
      await stopServer(srv);
    }
  });

  for (const response of ['json', 'sse']) {
    test(`mismatchedId (${response}): the answer carries another id`, async () => {
      const srv = await startServer({ modes: { response, mismatchedId: true } });
      try {
        const session = await rawConnect(srv);
        const res = await post(srv, echoCall(2, 'abap_list_destinations', {}), { session });
        const text = await res.text();
        const message = response === 'json' ? JSON.parse(text) : JSON.parse(parseSse(text).at(-1).data);
        assert.equal(message.id, 'mismatched');
        assert.ok(message.result);
      } finally {
        await stopServer(srv);
      }
    });
  }

  test('setMode changes the behaviour of later requests and rejects unknown knobs', async () => {
    const srv = await startServer({ modes: { response: 'json' } });
    try {
      const session = await rawConnect(srv);
      const before = await post(srv, echoCall(2, 'abap_list_destinations', {}), { session });
      assert.match(before.headers.get('content-type'), /^application\/json/);
      await before.text();
      srv.setMode({ response: 'sse' });
      const afterSwitch = await post(srv, echoCall(3, 'abap_list_destinations', {}), { session });
      assert.match(afterSwitch.headers.get('content-type'), /^text\/event-stream/);
      await afterSwitch.text();
      assert.throws(() => srv.setMode({ noSuchKnob: true }), /Unknown MCP mode/);
      assert.throws(() => srv.setMode({ response: 'xml' }), /must be one of/);
    } finally {
      await stopServer(srv);
    }
  });

  test('ADTLS_SIM_MCP_* environment variables map to mode knobs', () => {
    const modes = readMcpConfigFromEnv({
      ADTLS_SIM_MCP_RESPONSE: 'json',
      ADTLS_SIM_MCP_SESSION: 'false',
      ADTLS_SIM_MCP_EXPIRE_SESSION_AFTER: '3',
      ADTLS_SIM_MCP_HANG: 'tools/call,tools/list',
      ADTLS_SIM_MCP_SSE_CHUNKS: 'odd',
      ADTLS_SIM_MCP_STATUS500: '1',
      ADTLS_SIM_MCP_INITIALIZED404: 'true',
      UNRELATED: 'x',
    });
    assert.deepEqual(modes, {
      response: 'json',
      session: false,
      expireSessionAfter: 3,
      hang: ['tools/call', 'tools/list'],
      sseChunks: 'odd',
      status500: true,
      initialized404: true,
    });
    assert.throws(() => readMcpConfigFromEnv({ ADTLS_SIM_MCP_PAGE_SIZE: 'many' }), /ADTLS_SIM_MCP_PAGE_SIZE/);
  });

  test('loosely typed config values (as a generic env or JSON parser yields them) are coerced', () => {
    const { modes, unknown } = normalizeModes({
      hang: 'tools/call',
      status500: 1,
      session: 'false',
      sseNoise: 0,
      pageSize: 7,
      invalidTools: 'badEntry',
      typo: true,
    });
    assert.deepEqual(modes, {
      hang: ['tools/call'],
      status500: true,
      session: false,
      sseNoise: false,
      pageSize: 7,
      invalidTools: 'badEntry',
    });
    assert.deepEqual(unknown, ['typo']);
  });
});

// ---------------------------------------------------------------- LSP lifecycle

function createLspPair(config = { mcp: {} }) {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const serverConnection = createMessageConnection(
    new StreamMessageReader(toServer),
    new StreamMessageWriter(toClient),
  );
  const clientConnection = createMessageConnection(
    new StreamMessageReader(toClient),
    new StreamMessageWriter(toServer),
  );
  const logs = [];
  const ctx = createContext({ config, connection: serverConnection, log: (line) => logs.push(line), trace: () => {} });
  ctx.onRequest = createDispatcher(serverConnection, ctx).register; // as server.mjs wires it
  registerMcp(ctx);
  serverConnection.listen();
  clientConnection.listen();
  const request = (method, params) =>
    withTimeout(clientConnection.sendRequest(method, params), STEP_TIMEOUT_MS, method);
  const dispose = async () => {
    await ctx.state.mcp?.close();
    clientConnection.dispose();
    serverConnection.dispose();
  };
  return { ctx, request, logs, dispose };
}

function connectToStarted(result) {
  return connectOfficialClient({ url: `http://localhost:${result.port}/mcp`, token: result.token });
}

describe('MCP progress', () => {
  test('abap_run_unit_tests reports progress over SSE only when the call has a progressToken', async () => {
    const lsp = createLspPair();
    try {
      const port = await freePort();
      const started = await lsp.request('adtLs/mcp/startMCPServer', { port, token: 'tok', fileSystemMode: 'VFS' });
      lsp.ctx.setBackend('A4H', {
        async call(op) {
          if (op === 'tool:abap_run_unit_tests') return { text: 'Overall Test Run Status: [PASSED]' };
          if (op === 'tool:abap_list_destinations') return { text: '[]' };
          throw new Error(`unexpected ${op}`);
        },
      });
      assert.equal(await lsp.request('adtLs/mcp/setDestination', { destinationId: 'A4H' }), null);

      // The official client's onprogress sends a token and receives the reports.
      const { client } = await connectToStarted(started);
      try {
        const reports = [];
        const call = { name: 'abap_run_unit_tests', arguments: { uris: ['abap:/x.clas.abap'] } };
        const done = await withTimeout(client.callTool(call, undefined, { onprogress: (p) => reports.push(p) }));
        assert.equal(done.content[0].text, 'Overall Test Run Status: [PASSED]');
        assert.deepEqual(reports, [
          { progress: 1, total: 3, message: 'abap_run_unit_tests: started' },
          { progress: 2, total: 3, message: 'abap_run_unit_tests: running' },
          { progress: 3, total: 3, message: 'abap_run_unit_tests: done' },
        ]);
        const quiet = [];
        await withTimeout(client.callTool({ name: 'abap_list_destinations', arguments: {} }, undefined, { onprogress: (p) => quiet.push(p) }));
        assert.deepEqual(quiet, [], 'other tools report nothing');
      } finally {
        await client.close();
      }

      // On the wire: progress notifications only in the answer to the call with a token.
      const srv = { url: `http://127.0.0.1:${started.port}/mcp`, token: started.token };
      const session = await rawConnect(srv);
      const params = { name: 'abap_run_unit_tests', arguments: { uris: ['abap:/x.clas.abap'] } };
      const messagesOf = async (res, id) => {
        if (!res.headers.get('content-type').startsWith('text/event-stream')) return [await res.json()];
        const { text, reader } = await readAnswer(res, id);
        await reader.cancel().catch(() => {});
        return parseSse(text).map((e) => JSON.parse(e.data));
      };
      const progressOf = (messages) =>
        messages.filter((m) => m.method === 'notifications/progress').map((m) => [m.params.progressToken, m.params.progress]);
      const plain = await messagesOf(await post(srv, { jsonrpc: '2.0', id: 7, method: 'tools/call', params }, { session }), 7);
      assert.equal(plain.at(-1).id, 7);
      assert.deepEqual(progressOf(plain), [], 'nothing without a token');
      const streamed = await post(
        srv,
        { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { ...params, _meta: { progressToken: 'p-8' } } },
        { session },
      );
      assert.match(streamed.headers.get('content-type'), /^text\/event-stream/, 'a call asking for progress gets a stream');
      const messages = await messagesOf(streamed, 8);
      assert.equal(messages.at(-1).result.content[0].text, 'Overall Test Run Status: [PASSED]');
      assert.deepEqual(progressOf(messages), [['p-8', 1], ['p-8', 2], ['p-8', 3]]);
    } finally {
      await lsp.dispose();
    }
  });
});

describe('LSP lifecycle: adtLs/mcp/*', () => {
  test('ports outside 1024..65535 are rejected with the exact message', async () => {
    const lsp = createLspPair();
    try {
      for (const port of [0, 80, 1023, 65536, '2240', 2240.5]) {
        await assert.rejects(
          lsp.request('adtLs/mcp/startMCPServer', { port, token: 't', fileSystemMode: 'VFS' }),
          (error) => {
            assert.equal(error.message, 'Port must be between 1024 and 65535');
            return true;
          },
        );
      }
      assert.equal(lsp.ctx.state.mcp, null);
    } finally {
      await lsp.dispose();
    }
  });

  test('a busy port fails with the bind error text', async () => {
    const lsp = createLspPair();
    const blocker = net.createServer();
    await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address();
    try {
      await assert.rejects(
        lsp.request('adtLs/mcp/startMCPServer', { port, token: 't', fileSystemMode: 'VFS' }),
        (error) => {
          assert.match(error.message, /failed to bind/);
          assert.match(error.message, /Address already in use/);
          assert.ok(!error.message.includes('Port must be'));
          return true;
        },
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
      await lsp.dispose();
    }
  });

  test('start with VFS -> 20 tools; second start fails; stop with [null]; start without VFS -> 15 tools', async () => {
    const lsp = createLspPair();
    try {
      const port = await freePort();
      const token = 'a-caller-chosen-token';
      const started = await lsp.request('adtLs/mcp/startMCPServer', { port, token, fileSystemMode: 'VFS' });
      assert.deepEqual(started, { port, token, version: '1.0.0' });
      assert.ok(!lsp.logs.join('\n').includes(token), 'the token is never logged');

      const vfs = await connectToStarted(started);
      assert.equal((await listAllTools(vfs.client)).length, 20);
      await vfs.client.close();

      await assert.rejects(lsp.request('adtLs/mcp/startMCPServer', { port, token, fileSystemMode: 'VFS' }), (error) => {
        assert.match(error.message, /already running/);
        assert.doesNotMatch(error.message, /failed to bind|address already in use|eaddrinuse|must be between/i);
        return true;
      });

      assert.equal(await lsp.request('adtLs/mcp/stopMCPServer', null), null);
      assert.equal(lsp.ctx.state.mcp, null);

      const again = await lsp.request('adtLs/mcp/startMCPServer', { port, token });
      const plain = await connectToStarted(again);
      const tools = await listAllTools(plain.client);
      assert.equal(tools.length, 15);
      assert.ok(tools.every((t) => !VFS_ONLY_TOOLS.includes(t.name)));
      await plain.client.close();
    } finally {
      await lsp.dispose();
    }
  });

  test('replaceToken: the returned token differs from the requested one and is the one required', async () => {
    const lsp = createLspPair({ mcp: { replaceToken: 1, response: 'json' } });
    try {
      const port = await freePort();
      const started = await lsp.request('adtLs/mcp/startMCPServer', {
        port,
        token: 'requested',
        fileSystemMode: 'VFS',
      });
      assert.notEqual(started.token, 'requested');
      assert.ok(Buffer.from(started.token, 'base64url').length >= 24, 'at least 192 random bits');
      const { client } = await connectToStarted(started);
      assert.equal((await listAllTools(client)).length, 20);
      await client.close();
      assert.equal(lsp.ctx.state.mcp.modes.response, 'json');
    } finally {
      await lsp.dispose();
    }
  });

  test('an unknown mode knob is an error, not silently ignored (config and environment)', async () => {
    const lsp = createLspPair({ mcp: { replaceToken: 1, notAKnob: 'x' } });
    try {
      await assert.rejects(lsp.request('adtLs/mcp/startMCPServer', { port: await freePort(), token: 't', fileSystemMode: 'VFS' }), {
        message: 'Unknown MCP mode knob(s): notAKnob',
        code: -32603,
      });
      assert.equal(lsp.ctx.state.mcp ?? null, null, 'no MCP server started');
    } finally {
      await lsp.dispose();
    }
    assert.throws(() => readMcpConfigFromEnv({ ADTLS_SIM_MCP_HANGS: 'tools/call' }), {
      message: 'Unknown MCP mode variable(s): ADTLS_SIM_MCP_HANGS',
    });
  });

  test('adtLs/mcp/* take an object param: an array-wrapped object is refused (Invalid params)', async () => {
    const lsp = createLspPair();
    try {
      const port = await freePort();
      await assert.rejects(lsp.request('adtLs/mcp/startMCPServer', [{ port, token: 't', fileSystemMode: 'VFS' }]), {
        message: 'Invalid params for adtLs/mcp/startMCPServer: expected an object',
        code: -32602,
      });
      await assert.rejects(lsp.request('adtLs/mcp/setDestination', [{ destinationId: 'A4H' }]), {
        message: 'Invalid params for adtLs/mcp/setDestination: expected an object',
        code: -32602,
      });
    } finally {
      await lsp.dispose();
    }
  });

  test('tools/call: foundation mode without a backend, backend dispatch with setDestination', async () => {
    const lsp = createLspPair();
    try {
      const port = await freePort();
      const started = await lsp.request('adtLs/mcp/startMCPServer', { port, token: 'tok', fileSystemMode: 'VFS' });
      const { client } = await connectToStarted(started);
      try {
        const list = await withTimeout(client.callTool({ name: 'abap_list_destinations', arguments: {} }));
        assert.deepEqual(list, { content: [{ type: 'text', text: '[]' }] });
        const missing = await withTimeout(
          client.callTool({ name: 'abap_transport-get', arguments: TRANSPORT_GET_ARGS }),
        );
        assert.deepEqual(missing, { content: [{ type: 'text', text: 'Destination A4H not found' }], isError: true });

        const calls = [];
        lsp.ctx.setBackend('A4H', {
          async call(op, payload) {
            calls.push([op, payload]);
            if (op === 'tool:abap_transport-get')
              return { text: '{"transport":"A4HK900001"}', structuredContent: { transport: 'A4HK900001' } };
            if (op === 'tool:abap_run_unit_tests') return { text: 'Overall Test Run Status: [PASSED]' };
            if (op === 'tool:abap_list_destinations')
              return { text: JSON.stringify([{ destination: payload.destination }]) };
            throw Object.assign(new Error('Your user was logged off'), { code: -32603 });
          },
        });
        const found = await withTimeout(client.callTool({ name: 'abap_transport-get', arguments: TRANSPORT_GET_ARGS }));
        assert.deepEqual(found, {
          content: [{ type: 'text', text: '{"transport":"A4HK900001"}' }],
          structuredContent: { transport: 'A4HK900001' },
        });
        assert.equal(await lsp.request('adtLs/mcp/setDestination', { destinationId: 'A4H' }), null);
        const units = await withTimeout(
          client.callTool({ name: 'abap_run_unit_tests', arguments: { uris: ['abap:/x.clas.abap'] } }),
        );
        assert.equal(units.content[0].text, 'Overall Test Run Status: [PASSED]');
        const failed = await withTimeout(
          client.callTool({ name: 'abap_atc_get_result', arguments: { worklistId: 'W', destination: 'A4H' } }),
        );
        assert.deepEqual(failed, { content: [{ type: 'text', text: 'Your user was logged off' }], isError: true });
        const listed = await withTimeout(client.callTool({ name: 'abap_list_destinations', arguments: {} }));
        assert.deepEqual(JSON.parse(listed.content[0].text), [{ destination: 'A4H' }]);
        assert.deepEqual(
          calls.map(([op]) => op),
          [
            'tool:abap_transport-get',
            'tool:abap_run_unit_tests',
            'tool:abap_atc_get_result',
            'tool:abap_list_destinations',
          ],
        );
        assert.deepEqual(calls[1][1], { uris: ['abap:/x.clas.abap'] }, 'arguments reach the backend unchanged');
      } finally {
        await client.close();
      }
    } finally {
      await lsp.dispose();
    }
  });
});

describe('opt-in timing (bench/connected-profile.mjs)', () => {
  test('with a trace, every HTTP request gets an mcp-timing event naming its connection', async () => {
    const events = [];
    const trace = Object.assign((event) => events.push(event), { enabled: true });
    const srv = await startServer({ trace });
    const { client } = await connectOfficialClient(srv);
    for (let i = 0; i < 3; i++) await withTimeout(client.callTool({ name: 'abap_list_destinations', arguments: {} }));
    await client.close();
    await stopServer(srv);
    const timings = events.filter((e) => e.event === 'mcp-timing');
    const calls = timings.filter((e) => e.rpc.includes('tools/call'));
    assert.equal(calls.length, 3);
    assert.equal(new Set(timings.map((e) => e.seq)).size, timings.length, 'one event per HTTP request');
    for (const e of timings) {
      const request = srv.stats.requests.find((r) => r.seq === e.seq);
      assert.deepEqual([e.httpMethod, e.status], [request.httpMethod, request.status]);
    }
    for (const e of calls) {
      assert.equal(e.httpMethod, 'POST');
      assert.equal(e.status, 200);
      assert.ok(Number.isInteger(e.connection) && e.connection >= 1, `connection ${e.connection}`);
      assert.ok(e.us > 0 && e.us < STEP_TIMEOUT_MS * 1000, `us ${e.us}`);
    }
  });

  test('without a trace (or a trace that is not enabled) no timing event is written', async () => {
    const events = [];
    const srv = await startServer({ trace: (event) => events.push(event) });
    const { client } = await connectOfficialClient(srv);
    await withTimeout(client.callTool({ name: 'abap_list_destinations', arguments: {} }));
    await client.close();
    await stopServer(srv);
    assert.ok(events.some((e) => e.channel === 'mcp-http'), 'the trace itself is written');
    assert.equal(events.filter((e) => e.event === 'mcp-timing').length, 0);
  });
});

// AdtLsMcpClient (the exported MCP Streamable HTTP client) against the simulator's MCP
// endpoint: the reference's 12 mcp-federation cases one-to-one (headers, ids, SSE parsing,
// pagination, HTTP and JSON-RPC errors, 404 re-initialisation without replay, version check,
// initialized 404, timeout), then our fixes (ping answered, non-JSON SSE data, listTools retry
// after 404, coded errors). What the client sent is read from the endpoint's `stats`.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { AdtLsMcpClient } from '../index.js';
import { startMcpHttpServer, capturedTools, encodeCursor } from 'adt-ls-simulator/mcp';
import { until, timed } from './helpers.mjs';

const CALL_TIMEOUT_MS = 5000;
const TEST_OPTS = { timeout: 30_000 };
const PROTOCOL_HEADER = 'mcp-protocol-version';
const SESSION_HEADER = 'mcp-session-id';

const servers = new Set();
const clients = new Set();
after(async () => {
  await Promise.all([...clients].map((c) => c.close().catch(() => {})));
  await Promise.all([...servers].map((s) => s.close()));
});

/** A simulated endpoint (closed after the file); `opts` as startMcpHttpServer takes them. */
async function endpoint(opts = {}) {
  const srv = await startMcpHttpServer({ fileSystemMode: 'VFS', token: 'secret', ...opts });
  servers.add(srv);
  return srv;
}

/** A client for `srv` (closed after the file). */
function clientFor(srv, { token = 'secret', timeoutMs = CALL_TIMEOUT_MS } = {}) {
  const client = new AdtLsMcpClient(srv.url, token, undefined, timeoutMs);
  clients.add(client);
  return client;
}

/** Await a rejection and return the error (assert.rejects does not hand it back). */
async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected a rejection');
}

/** The HTTP requests whose body held a JSON-RPC message with `method`. */
function requestsWith(srv, method) {
  return srv.stats.requests.filter((r) => r.rpc.some((m) => m.method === method));
}

/** A tool descriptor every tools/call accepts. */
const OPEN_TOOL = (name, extra = {}) => ({ name, inputSchema: { type: 'object' }, ...extra });

// ------------------------------------------------------------------------------------------
// The reference's mcp-federation cases

test('1. sessionless 2025-03-26: ids 1,2,3, protocol header, no session, Bearer, isError kept', TEST_OPTS, async () => {
  const failure = {
    content: [{ type: 'text', text: 'tool broke' }],
    structuredContent: { why: 'simulated' },
    isError: true,
  };
  const srv = await endpoint({
    modes: { session: false, protocolVersion: '2025-03-26', response: 'json' },
    tools: [OPEN_TOOL('echo'), OPEN_TOOL('broken')],
    toolHandler: (name, args) => (name === 'broken' ? failure : { text: JSON.stringify(args) }),
  });
  const client = clientFor(srv);
  const [a, b] = await Promise.all([client.callTool('echo', { n: 1 }), client.callTool('echo', { n: 2 })]);
  assert.deepEqual(JSON.parse(a.content[0].text), { n: 1 });
  assert.deepEqual(JSON.parse(b.content[0].text), { n: 2 });
  assert.equal(client.sessionId, undefined);
  assert.equal(client.protocolVersion, '2025-03-26');

  const rpcIds = (method) => srv.stats.requests.flatMap((r) => r.rpc.filter((m) => m.method === method).map((m) => m.id));
  assert.deepEqual(rpcIds('initialize'), [1]);
  assert.deepEqual(rpcIds('tools/call').sort(), [2, 3]);
  assert.equal(srv.stats.count('notifications/initialized'), 1);

  assert.deepEqual(await client.callTool('broken', {}), failure, 'isError result returned unchanged');

  const [init, ...later] = srv.stats.requests;
  assert.equal(init.headers[PROTOCOL_HEADER], undefined, 'no protocol header before negotiation');
  assert.ok(later.length >= 4);
  for (const r of later) assert.equal(r.headers[PROTOCOL_HEADER], '2025-03-26', `protocol header on #${r.seq}`);
  for (const r of srv.stats.requests) {
    assert.equal(r.headers[SESSION_HEADER], undefined, 'no session header is invented');
    assert.equal(r.authorization, 'bearer');
    assert.equal(r.headers.accept, 'application/json, text/event-stream');
    assert.match(r.headers['content-type'], /^application\/json/);
  }

  // The endpoint compares the token: only "Bearer secret" gets in.
  const intruder = clientFor(srv, { token: 'not-the-secret' });
  const denied = await rejection(intruder.connect());
  assert.match(denied.message, /adt-ls MCP initialize failed: HTTP 401/);

  await client.close();
  assert.deepEqual(srv.stats.deletes, [], 'no DELETE without a session');
});

test('2. SSE: odd chunks, CR/LF splits, noise, multi-line data, Unicode tool, stream kept open', TEST_OPTS, async () => {
  const tool = {
    name: 'werkzeug_äöü_工具_🔧',
    title: 'Ünïcødé tool',
    description: 'Grüße — 工具 with "quotes", commas, and a\nnewline',
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    outputSchema: { type: 'object', properties: { echo: { type: 'string' } }, required: ['echo'] },
    annotations: { title: 'Tool', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    _meta: { 'example.com/x': 1 },
    vendorField: { kept: [1, 'two'] },
  };
  for (const sseLineEnding of ['crlf', 'cr', 'lf']) {
    const srv = await endpoint({
      tools: [tool, OPEN_TOOL('second')],
      modes: { response: 'sse', sseChunks: 'odd', sseLineEnding, sseNoise: true, sseKeepOpen: true },
    });
    const client = clientFor(srv, { timeoutMs: 10_000 });
    const listed = await timed(client.listTools());
    assert.ok(listed.ok, listed.error?.message);
    assert.deepEqual(listed.value, [tool, OPEN_TOOL('second')], `descriptors verbatim (${sseLineEnding})`);
    assert.ok(listed.ms < 5000, `answered while the stream stays open (${listed.ms} ms)`);

    const called = await timed(client.callTool(tool.name, { q: 'ßü€😀' }));
    assert.ok(called.ok, called.error?.message);
    assert.deepEqual(JSON.parse(called.value.content[0].text), { name: tool.name, arguments: { q: 'ßü€😀' } });
    assert.ok(called.ms < 5000, `tools/call answered while the stream stays open (${called.ms} ms)`);
    assert.equal(srv.stats.count('tools/call'), 1);
    await client.close();
  }
});

test('3. pagination with an opaque cursor, session id on later pages; close() DELETEs with the protocol header', TEST_OPTS, async () => {
  assert.match(encodeCursor(7), /\+/);
  assert.match(encodeCursor(7), /\//);
  assert.match(encodeCursor(7), /=$/);
  for (const response of ['json', 'sse']) {
    const srv = await endpoint({ modes: { response, pageSize: 7 } });
    const client = clientFor(srv);
    const tools = await client.listTools();
    assert.deepEqual(tools, capturedTools(), `all 20 descriptors across pages, verbatim (${response})`);
    const pages = requestsWith(srv, 'tools/list');
    assert.equal(pages.length, 3, '7 + 7 + 6');
    const [session] = srv.stats.sessions;
    assert.equal(client.sessionId, session);
    for (const page of pages) assert.equal(page.headers[SESSION_HEADER], session);
    for (const page of pages) assert.equal(page.status, 200, 'the server accepted the cursor verbatim');

    await client.close();
    assert.equal(client.sessionId, undefined);
    const deletes = srv.stats.requests.filter((r) => r.httpMethod === 'DELETE');
    assert.equal(deletes.length, 1);
    assert.equal(deletes[0].headers[SESSION_HEADER], session);
    assert.equal(deletes[0].headers[PROTOCOL_HEADER], '2025-06-18');
    assert.equal(deletes[0].authorization, 'bearer');
    assert.deepEqual(srv.stats.deletes, [{ sessionId: session, status: 204 }]);
  }
});

test('4. a repeated cursor is rejected (and a null cursor)', TEST_OPTS, async () => {
  const looping = await endpoint({ modes: { pageSize: 5, loopCursor: true } });
  const err = await rejection(clientFor(looping).listTools());
  assert.ok(err instanceof Error);
  assert.equal(err.message, 'adt-ls MCP tools/list: repeated pagination cursor');
  assert.equal(err.code, 'ERR_MCP_PROTOCOL');
  assert.equal(looping.stats.count('tools/list'), 2, 'stops at the first repeat');

  const nulls = await endpoint({ modes: { nullCursor: true } });
  const nullErr = await rejection(clientFor(nulls).listTools());
  assert.equal(nullErr.message, 'adt-ls MCP tools/list: invalid nextCursor');
  assert.equal(nullErr.code, 'ERR_MCP_PROTOCOL');
});

test('5. HTTP 401 and 500 reject callTool and listTools with HTTP <status>', TEST_OPTS, async () => {
  for (const [knob, status] of [
    ['status401', 401],
    ['status500', 500],
  ]) {
    const srv = await endpoint({ modes: { [knob]: true } });
    const client = clientFor(srv);
    const callErr = await rejection(client.callTool('abap_list_destinations', {}));
    assert.ok(callErr instanceof Error);
    assert.equal(callErr.message, `adt-ls MCP tools/call failed: HTTP ${status}`);
    assert.equal(callErr.code, 'ERR_MCP_TRANSPORT');
    const listErr = await rejection(client.listTools());
    assert.equal(listErr.message, `adt-ls MCP tools/list failed: HTTP ${status}`);
    assert.equal(listErr.code, 'ERR_MCP_TRANSPORT');
    assert.equal(srv.stats.count('tools/call'), 1, 'not retried');
    assert.equal(srv.stats.count('tools/list'), 1, 'not retried');
  }
});

test('request: any method on success resolves with its JSON-RPC result (tools/list, ping)', TEST_OPTS, async () => {
  const srv = await endpoint({ tools: [OPEN_TOOL('t_one'), OPEN_TOOL('t_two', { description: 'second' })] });
  const client = clientFor(srv);
  assert.deepEqual(await client.request('tools/list', {}), {
    tools: [OPEN_TOOL('t_one'), OPEN_TOOL('t_two', { description: 'second' })],
  });
  assert.deepEqual(await client.request('ping'), {});
  assert.deepEqual(srv.stats.methods(), ['initialize', 'notifications/initialized', 'tools/list', 'ping']);
});

test('6. a JSON-RPC error (-32601 Method not found) and a result without tools reject', TEST_OPTS, async () => {
  const srv = await endpoint({
    tools: [OPEN_TOOL('missing_method')],
    toolHandler: () => {
      throw Object.assign(new Error('Method not found'), { code: -32601, data: { hint: 'kept' } });
    },
  });
  const client = clientFor(srv);
  const err = await rejection(client.callTool('missing_method', {}));
  assert.ok(err instanceof Error);
  assert.equal(err.message, 'adt-ls MCP tools/call error (-32601): Method not found');
  assert.equal(err.code, -32601, 'the numeric JSON-RPC code');
  assert.deepEqual(err.data, { hint: 'kept' }, 'the JSON-RPC data');

  const other = await rejection(client.request('prompts/list'));
  assert.equal(other.message, 'adt-ls MCP prompts/list error (-32601): Method not found');
  assert.equal(other.code, -32601);

  for (const invalidTools of ['missing', 'notArray', 'badEntry']) {
    const broken = await endpoint({ modes: { invalidTools } });
    const listErr = await rejection(clientFor(broken).listTools());
    assert.equal(listErr.message, 'adt-ls MCP tools/list: missing or invalid tools', invalidTools);
    assert.equal(listErr.code, 'ERR_MCP_PROTOCOL');
  }
});

test('7. a mismatched id and an SSE stream ending without the answer reject', TEST_OPTS, async () => {
  const json = await endpoint({ modes: { response: 'json', mismatchedId: true } });
  const err = await rejection(clientFor(json).callTool('abap_list_destinations', {}));
  assert.match(err.message, /mismatched/);
  assert.equal(err.message, 'Invalid or mismatched MCP JSON-RPC response');
  assert.equal(err.code, 'ERR_MCP_PROTOCOL');

  // In a stream, an answer with another id is someone else's and is skipped: the stream then
  // ends without ours.
  for (const modes of [{ sseEndWithoutAnswer: true }, { response: 'sse', mismatchedId: true }]) {
    const ended = await endpoint({ modes });
    const endErr = await rejection(clientFor(ended).callTool('abap_list_destinations', {}));
    assert.match(endErr.message, /without a matching/);
    assert.equal(endErr.message, 'MCP stream ended without a matching JSON-RPC response');
    assert.equal(endErr.code, 'ERR_MCP_PROTOCOL');
    assert.equal(ended.stats.count('tools/call'), 1, 'not replayed');
  }
});

test('8. 404 on tools/call re-initialises, does not replay; the next call uses the new session', TEST_OPTS, async () => {
  const srv = await endpoint({ modes: { expireSessionAfter: 0 } });
  const client = clientFor(srv);
  await client.connect();
  const first = client.sessionId;
  assert.equal(first, srv.stats.sessions[0]);

  const err = await rejection(client.callTool('abap_list_destinations', {}));
  assert.equal(
    err.message,
    'adt-ls MCP tools/call: session expired (HTTP 404); reconnected, request was not retried',
  );
  assert.equal(err.code, 'ERR_MCP_TRANSPORT');
  assert.equal(srv.stats.count('initialize'), 2, 're-initialised');
  assert.equal(srv.stats.count('notifications/initialized'), 2);
  assert.equal(srv.stats.count('tools/call'), 1, 'the call was not replayed');
  assert.deepEqual(srv.stats.deletes, [], 'the expired session is not DELETEd');
  const second = srv.stats.sessions[1];
  assert.ok(second && second !== first);
  assert.equal(client.sessionId, second);

  srv.setMode({ expireSessionAfter: -1 });
  await client.callTool('abap_list_destinations', {});
  const calls = requestsWith(srv, 'tools/call');
  assert.equal(calls.length, 2);
  assert.equal(calls[0].headers[SESSION_HEADER], first);
  assert.equal(calls[0].status, 404);
  assert.equal(calls[1].headers[SESSION_HEADER], second, 'the next call uses the new session');
  assert.equal(calls[1].status, 200);
});

test('9. an unsupported protocol version rejects, DELETEs, and never sends initialized', TEST_OPTS, async () => {
  const srv = await endpoint({ modes: { protocolVersion: '2099-01-01' } });
  const client = clientFor(srv);
  const err = await rejection(client.listTools());
  assert.equal(err.message, 'Unsupported MCP protocol version: 2099-01-01');
  assert.equal(err.code, 'ERR_MCP_PROTOCOL');
  assert.equal(srv.stats.count('initialize'), 1);
  assert.equal(srv.stats.count('notifications/initialized'), 0);
  assert.equal(srv.stats.count('tools/list'), 0);
  assert.deepEqual(srv.stats.deletes, [{ sessionId: srv.stats.sessions[0], status: 204 }]);
  assert.equal(client.sessionId, undefined);
  assert.equal(client.protocolVersion, undefined);
});

test('10. initialized answered 404 rejects after one initialize and a DELETE (no self-wait)', TEST_OPTS, async () => {
  const srv = await endpoint({ modes: { initialized404: true } });
  const client = clientFor(srv);
  const result = await timed(client.callTool('abap_list_destinations', {}));
  assert.equal(result.ok, false);
  assert.match(result.error.message, /notifications\/initialized failed: HTTP 404/);
  assert.equal(result.error.message, 'adt-ls MCP notifications/initialized failed: HTTP 404');
  assert.equal(result.error.code, 'ERR_MCP_TRANSPORT');
  assert.ok(result.ms < 3000, `no self-wait (${result.ms} ms)`);
  assert.equal(srv.stats.count('initialize'), 1);
  assert.equal(srv.stats.count('tools/call'), 0);
  assert.deepEqual(srv.stats.deletes, [{ sessionId: srv.stats.sessions[0], status: 204 }]);
});

test('11. a hung tool call times out (100 ms) and is sent once', TEST_OPTS, async () => {
  for (const response of ['json', 'sse']) {
    const srv = await endpoint({ modes: { response, hang: true } });
    const client = clientFor(srv);
    await client.connect();
    const result = await timed(client.callTool('abap_list_destinations', {}, { timeoutMs: 100 }));
    assert.equal(result.ok, false, response);
    assert.ok(result.error instanceof Error);
    assert.match(result.error.message, /timeout|aborted/i);
    assert.equal(result.error.code, 'ETIMEDOUT');
    assert.ok(result.ms >= 90 && result.ms < 2000, `${result.ms} ms`);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(srv.stats.count('tools/call'), 1, 'a timed-out call is never re-sent');
  }
  // The constructor's timeout is the default for every call.
  const srv = await endpoint({ modes: { hang: true } });
  const client = clientFor(srv, { timeoutMs: 100 });
  await client.connect().catch(() => {}); // a slow machine may time the handshake out too
  const err = await rejection(client.callTool('abap_list_destinations', {}));
  assert.match(err.message, /timeout|aborted/i);
  assert.equal(err.code, 'ETIMEDOUT');
});

test('12. concurrent connect() calls share one initialize', TEST_OPTS, async () => {
  const srv = await endpoint();
  const client = clientFor(srv);
  await Promise.all([client.connect(), client.connect(), client.listTools(), client.callTool('abap_list_destinations', {})]);
  await client.connect();
  assert.equal(srv.stats.count('initialize'), 1);
  assert.equal(srv.stats.count('notifications/initialized'), 1);
  assert.equal(srv.stats.sessions.length, 1);
});

// ------------------------------------------------------------------------------------------
// Our fixes over the reference

test('fix: a server ping inside an SSE stream is answered, and the call still succeeds', TEST_OPTS, async () => {
  const srv = await endpoint({ modes: { sseNoise: true } });
  const client = clientFor(srv);
  await client.listTools();
  await client.callTool('abap_list_destinations', {});
  assert.equal(srv.stats.pings.sent.length, 2);
  const answered = await until(() => srv.stats.pings.answered.length === srv.stats.pings.sent.length, 3000);
  assert.ok(answered, `pings answered: ${JSON.stringify(srv.stats.pings)}`);
  assert.deepEqual([...srv.stats.pings.answered].sort(), [...srv.stats.pings.sent].sort());
  const replies = srv.stats.requests.filter((r) => r.rpc.some((m) => m.kind === 'response'));
  for (const reply of replies) {
    assert.equal(reply.rpc[0].isError, false, 'ping is answered with a result');
    assert.equal(reply.headers[SESSION_HEADER], client.sessionId);
    assert.equal(reply.authorization, 'bearer');
  }
});

test('fix (D5.13): non-JSON SSE data is a clear protocol error', TEST_OPTS, async () => {
  const srv = await endpoint({ modes: { nonJsonData: true } });
  const err = await rejection(clientFor(srv).callTool('abap_list_destinations', {}));
  assert.ok(err instanceof Error);
  assert.notEqual(err.name, 'SyntaxError');
  assert.equal(err.code, 'ERR_MCP_PROTOCOL');
  assert.match(err.message, /^adt-ls MCP tools\/call: SSE data is not valid JSON: adt-ls: this is not JSON \{/);
  assert.equal(srv.stats.count('tools/call'), 1, 'not replayed');
});

test('fix (D5.1): listTools (read-only) is retried once after a 404 and succeeds', TEST_OPTS, async () => {
  const srv = await endpoint({ modes: { expireSessionAfter: 1 } });
  const client = clientFor(srv);
  await client.callTool('abap_list_destinations', {}); // the session's only request
  const tools = await client.listTools();
  assert.equal(tools.length, 20);
  const lists = requestsWith(srv, 'tools/list');
  assert.deepEqual(
    lists.map((r) => r.status),
    [404, 200],
  );
  assert.equal(lists[0].headers[SESSION_HEADER], srv.stats.sessions[0]);
  assert.equal(lists[1].headers[SESSION_HEADER], srv.stats.sessions[1]);
  assert.equal(srv.stats.count('initialize'), 2);
  assert.equal(srv.stats.count('tools/call'), 1, 'the earlier call is never replayed');

  // A second 404 during the retry is not retried again.
  srv.setMode({ expireSessionAfter: 0 });
  const again = await rejection(client.listTools());
  assert.match(again.message, /tools\/list: session expired \(HTTP 404\); reconnected, request was not retried/);
  assert.equal(requestsWith(srv, 'tools/list').length, 4, 'one retry only');
});

test('fix: errors are Error objects with codes (transport, timeout, rpc)', TEST_OPTS, async () => {
  // Nothing listens on a port we just closed: a transport error, never "logged off".
  const probe = net.createServer();
  await new Promise((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address();
  await new Promise((r) => probe.close(r));
  const client = new AdtLsMcpClient(`http://127.0.0.1:${port}/mcp`, 'secret', undefined, 2000);
  clients.add(client);
  const err = await rejection(client.listTools());
  assert.ok(err instanceof Error);
  assert.equal(err.code, 'ERR_MCP_TRANSPORT');
  assert.match(err.message, /^adt-ls MCP initialize failed: /);
  assert.doesNotMatch(err.message, /secret/);

  // A tool-level failure is a result, not an error.
  const srv = await endpoint({ tools: [OPEN_TOOL('t')], toolHandler: () => ({ text: 'nope', isError: true }) });
  const result = await clientFor(srv).callTool('t', {});
  assert.deepEqual(result, { content: [{ type: 'text', text: 'nope' }], isError: true });

  // Bad constructor input is an Error with a code too.
  assert.throws(
    () => new AdtLsMcpClient('not a url', 'secret'),
    (e) => e instanceof Error && /Invalid adt-ls MCP endpoint URL/.test(e.message) && typeof e.code === 'string',
  );
});

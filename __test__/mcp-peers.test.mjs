// AdtLsMcpClient against real MCP servers: the official TypeScript SDK server (in-process) and
// the official Python SDK server (FastMCP, v1 line, a child process), each in four modes (JSON
// or SSE answers x stateful or stateless), through one scenario: connect and negotiate, list
// tools with full descriptors, a tool with structuredContent, an isError result kept intact,
// two concurrent calls, close. The official TypeScript SDK client is the oracle for what a
// descriptor and a result must look like. Last, the official conformance suite (client mode).
//
// Python: the peer needs `mcp` < 2 (installed into target/py-peer by
// .ci/install-system-packages). Without it these tests are SKIPPED with the reason (CI fails
// on that skip: it is not on .ci/allowed-skips).
// Conformance: needs the devDependency @modelcontextprotocol/conformance (or
// ADTLS_CONFORMANCE_DIR), which `npm install` provides; without it the test FAILS.

import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AdtLsMcpClient } from '../index.js';
import { startTsPeer } from './fixtures/peers/ts-peer.mjs';
import { findPythonPeer, startPythonPeer } from './fixtures/peers/python-peer.mjs';
import { findSuite, runConformance } from './fixtures/conformance/run.mjs';
import { until } from './helpers.mjs';

const TEST_OPTS = { timeout: 60_000 };
const CALL_TIMEOUT_MS = 10_000;
const MODES = [
  { json: true, stateful: true },
  { json: true, stateful: false },
  { json: false, stateful: true },
  { json: false, stateful: false },
];
const modeName = ({ json, stateful }) => `${json ? 'JSON' : 'SSE'}, ${stateful ? 'stateful' : 'stateless'}`;

const peers = new Set();
after(async () => {
  await Promise.all([...peers].map((p) => p.close()));
});

async function withPeer(start, fn) {
  const peer = await start();
  peers.add(peer);
  try {
    return await fn(peer);
  } finally {
    peers.delete(peer);
    await peer.close();
  }
}

/** What the official TypeScript SDK client sees on the same server (tools and results). */
async function oracle(url, work) {
  const client = new Client({ name: 'oracle', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
  try {
    return await work(client);
  } finally {
    await transport.terminateSession().catch(() => {});
    await client.close();
  }
}

/** The shared scenario; `peer` has `url` and `log` (one entry per answered HTTP request). */
async function scenario(peer, { stateful }) {
  const client = new AdtLsMcpClient(peer.url, 'peer-token', undefined, CALL_TIMEOUT_MS);
  let sessionId;
  let ours;
  try {
    // connect + protocol negotiation
    await client.connect();
    assert.equal(client.protocolVersion, '2025-06-18');
    sessionId = client.sessionId;
    if (stateful) assert.match(sessionId ?? '', /^[\x21-\x7e]+$/, 'a visible-ASCII session id');
    else assert.equal(sessionId, undefined, 'stateless: no session');

    ours = {
      tools: await client.listTools(),
      echo: await client.callTool('echo', { text: 'héllo 工具', n: 7 }),
      fail: await client.callTool('fail', { reason: 'boom' }),
      pair: await Promise.all([client.callTool('add', { a: 1, b: 2 }), client.callTool('add', { a: 40, b: 2 })]),
    };
  } finally {
    await client.close();
  }
  assert.equal(client.sessionId, undefined, 'close() forgets the session');

  // Full descriptors, as the official client lists them.
  const echoTool = ours.tools.find((t) => t.name === 'echo');
  assert.ok(echoTool, 'echo is listed');
  assert.equal(echoTool.title, 'Echo');
  assert.equal(echoTool.description, 'Echo the arguments back as structured content');
  assert.deepEqual(echoTool.annotations, { readOnlyHint: true, idempotentHint: true });
  assert.equal(echoTool.outputSchema?.type, 'object');
  assert.deepEqual(Object.keys(echoTool.outputSchema.properties).sort(), ['n', 'text']);
  assert.deepEqual(echoTool.inputSchema.required?.slice().sort(), ['n', 'text']);
  assert.equal(typeof echoTool._meta?.peer, 'string');
  assert.deepEqual(ours.tools.map((t) => t.name).sort(), ['add', 'echo', 'fail']);

  // structuredContent, and the same JSON in a text block.
  assert.deepEqual(ours.echo.structuredContent, { text: 'héllo 工具', n: 7 });
  assert.deepEqual(JSON.parse(ours.echo.content[0].text), { text: 'héllo 工具', n: 7 });
  assert.notEqual(ours.echo.isError, true);

  // A tool-level failure is a result, returned intact.
  assert.equal(ours.fail.isError, true);
  assert.equal(ours.fail.content[0].type, 'text');
  assert.match(ours.fail.content[0].text, /boom/);

  // Two concurrent calls each get their own answer.
  assert.deepEqual(
    ours.pair.map((r) => r.content[0].text),
    ['3', '42'],
  );

  // What went over the wire (our requests only: the oracle runs afterwards).
  const expected = stateful ? 8 : 7; // initialize, initialized, list, echo, fail, add, add (+ DELETE)
  await until(() => peer.log.length >= expected, 5000);
  const wire = peer.log.slice(0, expected);
  assert.equal(wire.length, expected, JSON.stringify(peer.log));
  const [init, initialized, ...rest] = wire;
  assert.equal(init.rpc[0]?.method, 'initialize');
  assert.equal(init.rpc[0]?.id, 1);
  assert.equal(init.protocol, null, 'no protocol header on initialize');
  assert.equal(init.session, null);
  assert.equal(initialized.rpc[0]?.method, 'notifications/initialized');
  assert.equal(initialized.status, 202);
  for (const entry of wire) {
    assert.equal(entry.auth, 'Bearer');
    assert.ok(entry.status >= 200 && entry.status < 300, `${entry.http} ${JSON.stringify(entry.rpc)}: ${entry.status}`);
  }
  for (const entry of [initialized, ...rest]) {
    assert.equal(entry.protocol, '2025-06-18', 'protocol header after negotiation');
    assert.equal(entry.session, stateful ? sessionId : null);
  }
  const callIds = wire.flatMap((e) => e.rpc.filter((m) => m.method === 'tools/call').map((m) => m.id));
  assert.equal(callIds.length, 4);
  assert.equal(new Set(callIds).size, 4, 'unique ids');
  const deletes = wire.filter((e) => e.http === 'DELETE');
  if (stateful) {
    assert.equal(deletes.length, 1, 'close() DELETEs the session');
    assert.equal(deletes[0].session, sessionId);
    assert.equal(wire.at(-1).http, 'DELETE');
  } else {
    assert.equal(deletes.length, 0, 'nothing to DELETE without a session');
  }

  // The oracle: the official client sees the same descriptors and results.
  const theirs = await oracle(peer.url, async (official) => ({
    tools: (await official.listTools()).tools,
    echo: await official.callTool({ name: 'echo', arguments: { text: 'héllo 工具', n: 7 } }),
    fail: await official.callTool({ name: 'fail', arguments: { reason: 'boom' } }),
  }));
  assert.deepEqual(ours.tools, theirs.tools, 'descriptors as the official client lists them');
  assert.deepEqual(ours.echo, theirs.echo, 'structured result as the official client returns it');
  assert.deepEqual(ours.fail, theirs.fail, 'isError result as the official client returns it');
}

describe('official TypeScript SDK server (@modelcontextprotocol/sdk)', () => {
  for (const mode of MODES) {
    test(modeName(mode), TEST_OPTS, () => withPeer(() => startTsPeer(mode), (peer) => scenario(peer, mode)));
  }
});

describe('official Python SDK server (mcp < 2, FastMCP streamable-http)', () => {
  const found = findPythonPeer();
  const skip = found.missing ? `Python mcp<2 not installed (run .ci/install-system-packages): ${found.missing}` : false;

  test('the Python peer is installed (mcp 1.x)', { skip }, () => {
    assert.match(found.version, /^1\./);
  });

  for (const mode of MODES) {
    test(modeName(mode), { ...TEST_OPTS, skip }, async () => {
      assert.ok(!found.missing, `Python mcp<2 not found: ${found.missing}`);
      await withPeer(
        () => startPythonPeer(found.python, mode),
        async (peer) => {
          assert.equal(peer.version, found.version);
          await scenario(peer, mode);
        },
      );
    });
  }
});

describe('official MCP conformance suite (client mode, spec 2025-06-18)', () => {
  const suite = findSuite();

  test('initialize and tools_call scenarios (known deviations listed in run.mjs)', { timeout: 180_000 }, async () => {
    assert.ok(suite, '@modelcontextprotocol/conformance is not installed: it is a devDependency (npm install)');
    const results = await runConformance();
    for (const r of results) {
      assert.ok(r.ok, `${r.scenario}: ${r.verdict} (exit ${r.code ?? r.signal})\n${r.output.slice(-3000)}`);
    }
    assert.equal(results.find((r) => r.scenario === 'tools_call')?.verdict, 'passed');
  });
});

// Tests of trace replay: reading an adt-ls-native trace into sessions, the request matcher,
// the fake adt-ls in replay mode driven over a real Unix socket (recorded LSP answers,
// notifications in place, the replay MCP server, unanswered requests answered with an error
// and reported) and the `replay` command's summary and exit status.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node.js';
import { createMatcher, paramsMatch, summarize } from '../lib/replay/matcher.mjs';
import { parseTrace } from '../lib/replay/trace-file.mjs';

const FAKE_ADT_LS = fileURLToPath(new URL('../bin/adt-ls.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('../bin/adt-ls-simulator.mjs', import.meta.url));
const TOKEN_USED_LIVE = 'live-token-5d2c9e';

const dirs = [];
const children = new Set();
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'adtls-replay-'));
  dirs.push(dir);
  return dir;
}

const header = { type: 'header', format: 'adt-ls-native-trace', version: 1, ts: '2026-01-01T00:00:00.000Z' };
const line = (ch, dir, msg, extra = {}) => ({ type: 'message', ts: header.ts, ms: 0, ch, dir, msg, ...extra });

/** A recorded session: initialize, a logon with a server request and notifications, the MCP start and one tool call. */
function recordedTrace() {
  return [
    header,
    line('lsp', 'out', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { processId: 1 } }),
    line('lsp', 'in', { jsonrpc: '2.0', id: 0, result: { serverInfo: { name: 'ADTLS', version: '1.1.2' } } }),
    line('lsp', 'out', { jsonrpc: '2.0', method: 'initialized', params: {} }),
    line('lsp', 'out', { jsonrpc: '2.0', id: 1, method: 'adtLs/destinations/ensureLoggedOn', params: ['ADTLS'] }),
    line('lsp', 'in', { jsonrpc: '2.0', id: 0, method: 'adtLs/destinations/requestBrowserBasedLogon', params: { id: 'ADTLS' } }),
    line('lsp', 'out', { jsonrpc: '2.0', id: 0, result: true }),
    line('lsp', 'in', { jsonrpc: '2.0', method: 'adtLs/destinations/logonStateChanged', params: { logonState: 'connected' } }),
    line('lsp', 'in', { jsonrpc: '2.0', id: 1, result: { destinationId: 'ADTLS', logonState: 'connected' } }),
    line('lsp', 'out', { jsonrpc: '2.0', id: 2, method: 'adtLs/repository/quickSearch', params: { pattern: 'CL_A*' } }),
    line('lsp', 'in', { jsonrpc: '2.0', id: 2, result: { references: [{ name: 'CL_A' }] } }),
    line('lsp', 'out', { jsonrpc: '2.0', id: 3, method: 'adtLs/repository/quickSearch', params: { pattern: 'CL_B*' } }),
    line('lsp', 'in', { jsonrpc: '2.0', id: 3, result: { references: [{ name: 'CL_B' }] } }),
    line('lsp', 'out', { jsonrpc: '2.0', id: 4, method: 'adtLs/source/get', params: { uri: 'x' } }),
    line('lsp', 'in', { jsonrpc: '2.0', id: 4, error: { code: -32001, message: 'not found' } }),
    line('lsp', 'out', { jsonrpc: '2.0', id: 5, method: 'adtLs/mcp/startMCPServer', params: { port: 2240, token: '***' } }),
    line('lsp', 'in', { jsonrpc: '2.0', id: 5, result: { port: 2240, token: '***', version: '1.0.0' } }),
    line('mcp', 'out', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, { http: { method: 'POST' } }),
    line('mcp', 'in', { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: {} } }, { http: { method: 'POST', status: 200, sessionId: 'sess-1' } }),
    line('mcp', 'out', { jsonrpc: '2.0', method: 'notifications/initialized' }, { http: { method: 'POST', sessionId: 'sess-1' } }),
    line('mcp', 'in', undefined, { http: { method: 'POST', status: 202, sessionId: 'sess-1' } }),
    line('mcp', 'out', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'abap_search', arguments: { q: 'Z*' } } }),
    line('mcp', 'in', { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }),
    line('mcp', 'in', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'found' }] } }),
  ]
    .map((l) => JSON.stringify(l))
    .join('\n');
}

test('a trace becomes sessions of exchanges; server requests are set apart, notifications kept in place', () => {
  const { sessions } = parseTrace(`${recordedTrace()}\n${JSON.stringify(header)}\n`);
  assert.equal(sessions.length, 2);
  const [first, second] = sessions;
  assert.deepEqual(
    first.lsp.exchanges.map((e) => e.method),
    ['initialize', 'adtLs/destinations/ensureLoggedOn', 'adtLs/repository/quickSearch', 'adtLs/repository/quickSearch', 'adtLs/source/get', 'adtLs/mcp/startMCPServer'],
  );
  const logon = first.lsp.exchanges[1];
  assert.deepEqual(logon.before, [{ method: 'adtLs/destinations/logonStateChanged', params: { logonState: 'connected' } }]);
  assert.deepEqual(first.lsp.serverRequests.map((r) => r.method), ['adtLs/destinations/requestBrowserBasedLogon']);
  assert.deepEqual(first.lsp.exchanges[4].answer, { error: { code: -32001, message: 'not found' } });
  assert.deepEqual(first.mcp.exchanges.map((e) => e.method), ['initialize', 'tools/call']);
  assert.equal(first.mcp.exchanges[0].sessionId, 'sess-1');
  assert.equal(first.mcp.exchanges[1].before[0].method, 'notifications/progress');
  assert.deepEqual(second.lsp.exchanges, []);
});

test('interleaved sessions of one file are told apart by their session id', () => {
  const one = { ...header, session: 'aaa' };
  const two = { ...header, session: 'bbb' };
  const text = [
    one,
    line('lsp', 'out', { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, { session: 'aaa' }),
    two,
    line('lsp', 'out', { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, { session: 'bbb' }),
    line('lsp', 'in', { jsonrpc: '2.0', id: 0, result: { from: 'one' } }, { session: 'aaa' }),
    line('lsp', 'in', { jsonrpc: '2.0', id: 0, result: { from: 'two' } }, { session: 'bbb' }),
  ]
    .map((l) => JSON.stringify(l))
    .join('\n');
  const { sessions } = parseTrace(text);
  assert.deepEqual(
    sessions.map((s) => s.lsp.exchanges.map((e) => e.answer.result.from)),
    [['one'], ['two']],
  );
});

test('malformed traces are refused with the line that is wrong', () => {
  assert.throws(() => parseTrace('{"type":"message"}'), /line 1: a message before the first header line/);
  assert.throws(() => parseTrace('not json'), /line 1 is not JSON/);
  assert.throws(() => parseTrace(JSON.stringify({ ...header, version: 2 })), /version 2 is not supported/);
  assert.throws(() => parseTrace(''), /no header line/);
});

test('the matcher prefers equal params (a recorded *** matches anything), falls back to method order, answers once', () => {
  assert.equal(paramsMatch({ a: '***', b: [1, 2] }, { a: 'secret', b: [1, 2] }), true);
  assert.equal(paramsMatch({ a: 1 }, { a: 1, extra: 2 }), false);
  assert.equal(paramsMatch([1], { 0: 1 }), false);
  const exchanges = parseTrace(recordedTrace()).sessions[0].lsp.exchanges;
  const matcher = createMatcher(exchanges);
  const b = matcher.take('adtLs/repository/quickSearch', { pattern: 'CL_B*' });
  assert.deepEqual([b.exact, b.exchange.answer.result.references[0].name], [true, 'CL_B']);
  const other = matcher.take('adtLs/repository/quickSearch', { pattern: 'ZZ*' });
  assert.deepEqual([other.exact, other.exchange.answer.result.references[0].name], [false, 'CL_A']);
  assert.equal(matcher.take('adtLs/repository/quickSearch', { pattern: 'CL_A*' }), undefined, 'each answer is used once');
  assert.equal(matcher.take('textDocument/hover', {}), undefined);
  assert.equal(matcher.unused().length, 4);
  const tools = createMatcher(parseTrace(recordedTrace()).sessions[0].mcp.exchanges);
  assert.equal(tools.take('tools/call', { name: 'other_tool', arguments: {} }), undefined, 'a tool call matches its tool only');
  assert.equal(summarize({ long: 'x'.repeat(500) }).length, 200);
});

/** Listen on a Unix socket, start the fake adt-ls in replay mode, and resolve the LSP connection. */
async function replaySession(tracePath, env = {}) {
  const dir = tempDir();
  const pipe = join(dir, 'pipe.sock');
  const server = net.createServer();
  await new Promise((resolve) => server.listen(pipe, resolve));
  const accepted = new Promise((resolve) => server.once('connection', resolve));
  const child = spawn(process.execPath, [FAKE_ADT_LS, '-data', dir, `--pipe=${pipe}`], {
    env: { ...process.env, ADTLS_SIM_REPLAY: tracePath, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const socket = await accepted;
  server.close();
  const connection = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  const notes = [];
  connection.onNotification((method, params) => notes.push({ method, params }));
  connection.listen();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    connection,
    notes,
    stderr: () => stderr,
    async close() {
      connection.dispose();
      socket.destroy();
      await exited;
    },
  };
}

test('the fake adt-ls replays a session over the pipe and its MCP server, and reports what had no answer', { timeout: 60_000 }, async () => {
  const dir = tempDir();
  const tracePath = join(dir, 'wire.jsonl');
  writeFileSync(tracePath, recordedTrace());
  const stateDir = join(dir, 'state');
  const s = await replaySession(tracePath, { ADTLS_SIM_REPLAY_STATE: stateDir });
  const init = await s.connection.sendRequest('initialize', { processId: 99 });
  assert.deepEqual(init, { serverInfo: { name: 'ADTLS', version: '1.1.2' } });
  await s.connection.sendNotification('initialized', {});
  const logon = await s.connection.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
  assert.deepEqual(logon, { destinationId: 'ADTLS', logonState: 'connected' });
  assert.deepEqual(s.notes, [{ method: 'adtLs/destinations/logonStateChanged', params: { logonState: 'connected' } }], 'the notification came before the answer');
  const found = await s.connection.sendRequest('adtLs/repository/quickSearch', { pattern: 'CL_B*' });
  assert.equal(found.references[0].name, 'CL_B', 'matched by params, not by order');
  await assert.rejects(s.connection.sendRequest('adtLs/source/get', { uri: 'x' }), (e) => e.code === -32001 && e.message === 'not found');
  await assert.rejects(s.connection.sendRequest('textDocument/hover', { position: 1 }), /adt-ls-simulator replay: no recorded answer for textDocument\/hover/);

  const started = await s.connection.sendRequest('adtLs/mcp/startMCPServer', { port: 0, token: TOKEN_USED_LIVE });
  assert.equal(started.token, TOKEN_USED_LIVE, 'the live token is handed back, not the redacted one');
  assert.equal(started.version, '1.0.0');
  const url = `http://127.0.0.1:${started.port}/mcp`;
  const post = (body, token = TOKEN_USED_LIVE) =>
    fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
    });
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, 'wrong')).status, 401);
  const initialized = await post({ jsonrpc: '2.0', id: 7, method: 'initialize', params: {} });
  assert.equal(initialized.headers.get('mcp-session-id'), 'sess-1');
  assert.deepEqual(await initialized.json(), { jsonrpc: '2.0', id: 7, result: { protocolVersion: '2025-06-18', capabilities: {} } });
  assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  const called = await post({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'abap_search', arguments: { q: 'Z*' } } });
  assert.equal(called.headers.get('content-type'), 'text/event-stream');
  const events = (await called.text()).split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
  assert.deepEqual(events.map((e) => e.method ?? e.id), ['notifications/progress', 8]);
  assert.deepEqual(events[1].result, { content: [{ type: 'text', text: 'found' }] });
  const missing = await (await post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'abap_other', arguments: {} } })).json();
  assert.match(missing.error.message, /no recorded answer for tools\/call/);

  const report = JSON.parse(readFileSync(join(stateDir, 'session-0', 'report.json'), 'utf8'));
  assert.deepEqual(
    report.unanswered.map((u) => [u.channel, u.method, u.params]),
    [
      ['lsp', 'textDocument/hover', '{"position":1}'],
      ['mcp', 'tools/call', '{"name":"abap_other","arguments":{}}'],
    ],
  );
  assert.deepEqual(report.approximate.map((a) => a.method), ['initialize', 'adtLs/mcp/startMCPServer']);
  assert.deepEqual(report.unused.map((u) => u.method), ['adtLs/repository/quickSearch']);
  assert.deepEqual(report.skippedServerRequests, ['adtLs/destinations/requestBrowserBasedLogon']);
  assert.match(s.stderr(), /no recorded answer for lsp textDocument\/hover/);
  await s.close();
});

test('replay without a command summarises the trace; with one it fails on unanswered requests', { timeout: 60_000 }, () => {
  const dir = tempDir();
  const tracePath = join(dir, 'wire.jsonl');
  writeFileSync(tracePath, recordedTrace());
  const summary = spawnSync(process.execPath, [CLI, 'replay', tracePath], { encoding: 'utf8' });
  assert.equal(summary.status, 0, summary.stderr);
  const parsed = JSON.parse(summary.stdout);
  assert.deepEqual([parsed.sessions[0].lspRequests, parsed.sessions[0].mcpRequests], [6, 2]);
  assert.equal(parsed.env.ADTLS_SIM_REPLAY, tracePath);

  // A "client" that asks one recorded and one unrecorded question through the fake adt-ls.
  const client = join(dir, 'client.mjs');
  writeFileSync(
    client,
    `import net from 'node:net';
     import { spawn } from 'node:child_process';
     import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from ${JSON.stringify(import.meta.resolve('vscode-jsonrpc/node.js'))};
     const pipe = ${JSON.stringify(join(dir, 'c.sock'))};
     const server = net.createServer().listen(pipe);
     const child = spawn(process.env.ADT_LS_PATH, ['--pipe=' + pipe], { stdio: 'inherit' });
     const socket = await new Promise((r) => server.once('connection', r));
     const c = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
     c.listen();
     console.log(JSON.stringify(await c.sendRequest('initialize', {})));
     if (process.argv[2] === 'more') await c.sendRequest('adtLs/unknown', { a: 1 }).catch(() => {});
     socket.destroy(); server.close(); child.kill();`,
  );
  const ok = spawnSync(process.execPath, [CLI, 'replay', tracePath, '--json', '--', process.execPath, client], { encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /"name":"ADTLS"/);
  const reportFile = join(dir, 'report.json');
  const bad = spawnSync(process.execPath, [CLI, 'replay', tracePath, '--report', reportFile, '--', process.execPath, client, 'more'], { encoding: 'utf8' });
  assert.equal(bad.status, 1, bad.stderr);
  assert.match(bad.stderr, /unanswered lsp adtLs\/unknown \{"a":1\}/);
  assert.match(bad.stderr, /1 request\(s\) had no recorded answer/);
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  assert.equal(report.unanswered, 1);
  assert.equal(report.sessions[0].unanswered[0].method, 'adtLs/unknown');
  const usage = spawnSync(process.execPath, [CLI, 'replay'], { encoding: 'utf8' });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /a trace file is required/);
});

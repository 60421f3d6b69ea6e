// Where the time of the two connected scenarios of bench/run.mjs goes: the
// connected `selfSigned` startup split into phases, and MCP tool calls (`listDestinations`)
// split into client side and server side, for adt-ls-native and @marianfoo/adt-ls 0.5.0,
// alternating, on the same simulator. See docs/performance.md, "Connected startup and MCP
// calls: where the time goes".
//
//   node bench/connected-profile.mjs [--rounds 5] [--calls 100] [--timeline]
//
// The simulated SAP backend runs in a child process of its own (so the client process's CPU
// time is the client's alone); the fake adt-ls writes a wire trace (ADTLS_SIM_TRACE) with the
// simulator's opt-in timing events (`mcp-timing` per HTTP request, `mcp-tool-timing` per tool
// call, in µs). `--timeline` prints one startup trace per client, event by event.

import { fork } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);

/** The simulated SAP backend, timed per HTTP request with diagnostics channels. */
async function sapChild() {
  const { startSapBackend } = await import('../simulator/lib/sap/index.mjs');
  const sap = await startSapBackend({ tls: 'self-signed', users: { DEVELOPER: 'Developer#1' } });
  let requests = [];
  let connections = 0;
  const started = new WeakMap();
  diagnostics.subscribe('http.server.request.start', ({ request }) => started.set(request, process.hrtime.bigint()));
  diagnostics.subscribe('http.server.response.finish', ({ request }) => {
    const t0 = started.get(request);
    if (t0 !== undefined) requests.push(Number(process.hrtime.bigint() - t0) / 1000);
  });
  diagnostics.subscribe('net.server.socket', () => {
    connections += 1;
  });
  process.on('message', async (m) => {
    if (m === 'stats') {
      process.send({ cpu: process.cpuUsage(), requests, connections });
      requests = [];
      connections = 0;
    } else if (m === 'close') {
      await sap.close();
      process.exit(0);
    }
  });
  process.send({ url: sap.url });
}

async function main() {
  const ROUNDS = option('--rounds', 5);
  const CALLS = option('--calls', 100);
  const ours = await import('../index.js');
  const ref = await import('@marianfoo/adt-ls');
  const { installFakeExtension } = await import('../simulator/lib/install.mjs');
  const { readTrace } = await import('../simulator/lib/trace.mjs');

  // As in bench/run.mjs: 0.5.0's unawaited writes after a dispose throw from socket callbacks.
  process.on('uncaughtException', (e) => {
    if (e?.code === 'EPIPE' || /socket has been ended/.test(e?.message ?? '')) return;
    throw e;
  });

  const work = mkdtempSync(join(tmpdir(), 'adt-ls-connected-profile-'));
  const { binPath } = installFakeExtension({ home: work });
  const sapProcess = fork(fileURLToPath(import.meta.url), ['--sap-child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const replies = [];
  let waiting;
  sapProcess.on('message', (m) => (waiting ? (waiting(m), (waiting = undefined)) : replies.push(m)));
  const nextMessage = () => (replies.length ? Promise.resolve(replies.shift()) : new Promise((r) => (waiting = r)));
  const { url: sapUrl } = await nextMessage();
  const sapStats = async () => {
    sapProcess.send('stats');
    return nextMessage();
  };

  const libs = { ours, '0.5.0': ref };
  let traceCount = 0;
  /** createAdtLs with a fresh simulator trace file; the fake adt-ls reads ADTLS_SIM_TRACE at start. */
  const connect = async (lib) => {
    const traceFile = join(work, `trace-${++traceCount}.jsonl`);
    process.env.ADTLS_SIM_TRACE = traceFile;
    process.env.ADTLS_SIM_QUIET = '1';
    const t0 = Date.now();
    const client = await lib.createAdtLs({
      adtLs: { path: binPath },
      connection: { systemUrl: sapUrl, selfSigned: true },
      auth: lib.basic('DEVELOPER', 'Developer#1'),
      keepAlive: false,
    });
    return { client, traceFile, t0, t1: Date.now() };
  };

  const results = { startup: { ours: [], '0.5.0': [] }, mcp: { ours: [], '0.5.0': [] } };
  const timelines = {};
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['ours', '0.5.0'] : ['0.5.0', 'ours'];
      for (const name of order) results.startup[name].push(await startupRound(libs[name], name));
      for (const name of order) results.mcp[name].push(await mcpRound(libs[name]));
    }
  } finally {
    sapProcess.send('close');
    rmSync(work, { recursive: true, force: true });
  }

  printStartup(results.startup);
  printMcp(results.mcp, CALLS);
  if (argv.includes('--timeline')) {
    for (const [name, lines] of Object.entries(timelines)) console.log(`\nStartup timeline, ${name}:\n${lines.join('\n')}`);
  }
  process.exit(0);

  async function startupRound(lib, name) {
    await sapStats();
    const cpu0 = process.cpuUsage();
    const load = loadavg()[0];
    const { client, traceFile, t0, t1 } = await connect(lib);
    await client.dispose();
    const t2 = Date.now();
    const cpu = process.cpuUsage(cpu0);
    const sap = await sapStats();
    const events = readTrace(traceFile);
    if (!timelines[name]) timelines[name] = timeline(events, t0);
    return { load, total: t2 - t0, create: t1 - t0, dispose: t2 - t1, clientCpuMs: (cpu.user + cpu.system) / 1000, sapRequests: sap.requests.length, sapConnections: sap.connections, phases: startupPhases(events, t0, t1, t2) };
  }

  async function mcpRound(lib) {
    const { client, traceFile } = await connect(lib);
    try {
      await client.listDestinations(); // warm-up: first tool call of the session
      const pid = readTrace(traceFile).find((e) => e.event === 'start')?.pid;
      const skip = readTrace(traceFile).length;
      await sapStats();
      const adtCpu0 = processCpuMs(pid);
      const cpu0 = process.cpuUsage();
      const load = loadavg()[0];
      const t0 = performance.now();
      for (let i = 0; i < CALLS; i++) await client.listDestinations();
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const adtCpu = processCpuMs(pid) - adtCpu0;
      const sap = await sapStats();
      const events = readTrace(traceFile).slice(skip);
      const http = events.filter((e) => e.event === 'mcp-timing');
      const calls = http.filter((e) => e.rpc.includes('tools/call'));
      const tools = events.filter((e) => e.event === 'mcp-tool-timing');
      const sum = (xs) => xs.reduce((a, b) => a + b, 0);
      return {
        load,
        wallMs: wall,
        perCallMs: wall / CALLS,
        clientCpuMsPerCall: (cpu.user + cpu.system) / 1000 / CALLS,
        adtLsCpuMsPerCall: adtCpu / CALLS,
        sapCpuMsPerCall: undefined,
        httpRequestsPerCall: http.length / CALLS,
        rpcMethods: [...new Set(http.flatMap((e) => e.rpc))].join(','),
        connections: new Set(http.map((e) => e.connection)).size,
        connectionUse: [...http.reduce((m, e) => m.set(e.connection, (m.get(e.connection) ?? 0) + 1), new Map())].map(([id, n]) => `#${id}×${n}`).join(' '),
        serverMsPerCall: sum(calls.map((e) => e.us)) / 1000 / CALLS,
        toolMsPerCall: sum(tools.map((e) => e.us)) / 1000 / CALLS,
        sapRequestsPerCall: sap.requests.length / CALLS,
        sapMsPerCall: sum(sap.requests) / 1000 / CALLS,
        sapConnectionsPerCall: sap.connections / CALLS,
      };
    } finally {
      await client.dispose();
    }
  }
}

/** utime + stime of a process in ms (Linux /proc; NaN elsewhere or when it is gone). */
function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
  } catch {
    return NaN;
  }
}

/** The trace's LSP messages and events with the method names of responses filled in. */
function namedEvents(events) {
  const methods = new Map();
  const out = [];
  for (const e of events) {
    if (e.rawHeader !== undefined) continue;
    const m = e.message;
    let label;
    if (m) {
      if (m.method && m.id !== undefined) methods.set(`${e.dir}:${m.id}`, m.method);
      const answered = m.method ? undefined : methods.get(`${e.dir === 'in' ? 'out' : 'in'}:${m.id}`);
      label = m.method ? `${e.dir} ${m.method}${m.id !== undefined ? ' (request)' : ''}` : `${e.dir} response ${answered ?? m.id}`;
    } else if (e.event === 'mcp-timing') label = `mcp ${e.httpMethod} ${e.rpc.join(',')} ${e.status} (${(e.us / 1000).toFixed(1)} ms server)`;
    else if (e.event) label = `event ${e.event}${e.us !== undefined ? ` (${(e.us / 1000).toFixed(1)} ms)` : ''}`;
    else continue;
    out.push({ t: e.t, label });
  }
  return out;
}

function timeline(events, t0) {
  return namedEvents(events).map((e) => `  +${String(e.t - t0).padStart(5)} ms  ${e.label}`);
}

/**
 * Phases of one startup (ms; Date.now on both sides, the spawn moment is the fake adt-ls's
 * `start` event minus its process uptime), from the fake adt-ls's trace.
 */
function startupPhases(events, t0, t1, t2) {
  const named = namedEvents(events);
  const first = (re) => named.find((e) => re.test(e.label))?.t;
  const startEvent = events.find((e) => e.event === 'start');
  const spawned = startEvent ? startEvent.t - startEvent.uptimeMs : undefined;
  const connected = first(/^event connected$/);
  const initAnswered = first(/^out response initialize$/);
  const logonAsked = first(/^in adtLs\/destinations\/ensureLoggedOn/);
  const logonAnswered = first(/^out response adtLs\/destinations\/ensureLoggedOn/);
  const mcpAsked = first(/^in adtLs\/mcp\/startMCPServer/);
  const trustUs = events.find((e) => e.event === 'jvm-trust-timing')?.us;
  const d = (a, b) => (a !== undefined && b !== undefined ? b - a : NaN);
  return {
    'client work before the spawn (TLS proxy, truststore, keytool)': d(t0, spawned),
    'fake adt-ls: Node boot and module loading': d(spawned, startEvent?.t),
    'fake adt-ls: start → pipe connected': d(startEvent?.t, connected),
    'pipe connected → initialize answered': d(connected, initAnswered),
    'initialize answered → ensureLoggedOn asked (initializeService, destinations/create)': d(initAnswered, logonAsked),
    'ensureLoggedOn (logon through the proxy, ticket)': d(logonAsked, logonAnswered),
    '  of which the fake adt-ls reads the truststore/keystore (node-forge)': trustUs === undefined ? NaN : trustUs / 1000,
    'ensureLoggedOn answered → startMCPServer asked': d(logonAnswered, mcpAsked),
    'startMCPServer, MCP initialize, setDestination, probe → createAdtLs resolved': d(mcpAsked, t1),
    dispose: t2 - t1,
  };
}

const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const range = (xs) => `${f1(Math.min(...xs))}-${f1(Math.max(...xs))}`;

function printStartup(runs) {
  console.log('\n### Connected startup (createAdtLs selfSigned + dispose), medians in ms\n');
  const phases = Object.keys(runs.ours[0].phases);
  console.log('| phase | adt-ls-native | 0.5.0 |\n|---|---:|---:|');
  for (const p of phases) console.log(`| ${p} | ${f1(median(runs.ours.map((r) => r.phases[p])))} | ${f1(median(runs['0.5.0'].map((r) => r.phases[p])))} |`);
  for (const [label, key] of [['createAdtLs', 'create'], ['total (create + dispose)', 'total'], ['client process CPU', 'clientCpuMs'], ['SAP backend requests', 'sapRequests'], ['SAP backend TLS connections', 'sapConnections']]) {
    console.log(`| ${label} | ${f1(median(runs.ours.map((r) => r[key])))} | ${f1(median(runs['0.5.0'].map((r) => r[key])))} |`);
  }
  const ratio = median(runs['0.5.0'].map((r) => r.total)) / median(runs.ours.map((r) => r.total));
  console.log(`\nours/0.5.0 total: ${(1 / ratio).toFixed(2)}x; load average (1 min) during the rounds: ${range([...runs.ours, ...runs['0.5.0']].map((r) => r.load))}`);
  // The simulator's share: every phase after the spawn at the smaller of the two clients'
  // medians (they still hold the clients' small LSP/MCP round trips), nothing before it.
  const phaseMedian = (name, p) => median(runs[name].map((r) => r.phases[p]));
  const floor = phases
    .filter((p) => !p.startsWith('client work') && !p.startsWith(' '))
    .reduce((sum, p) => sum + Math.min(phaseMedian('ours', p), phaseMedian('0.5.0', p)), 0);
  const refTotal = median(runs['0.5.0'].map((r) => r.total));
  console.log(`simulator floor (after the spawn, smaller client's phases): ${f1(floor)} ms → best ratio ${(floor / refTotal).toFixed(2)}x of 0.5.0's total`);
  const trust = '  of which the fake adt-ls reads the truststore/keystore (node-forge)';
  for (const name of ['ours', '0.5.0']) {
    console.log(`per round, ${name}: total ms ${runs[name].map((r) => r.total).join(' ')}; trust load ms ${runs[name].map((r) => f1(r.phases[trust])).join(' ')}`);
  }
}

function printMcp(runs, calls) {
  console.log(`\n### ${calls} MCP tool calls (listDestinations), medians per call\n`);
  const rows = [
    ['wall per call, ms', 'perCallMs'],
    ['client process CPU per call, ms', 'clientCpuMsPerCall'],
    ['fake adt-ls CPU per call, ms (10 ms ticks)', 'adtLsCpuMsPerCall'],
    ['server time per tools/call POST, ms (headers in → last byte out)', 'serverMsPerCall'],
    ['  of which the tool handler (backend round trip), ms', 'toolMsPerCall'],
    ['  SAP backend time per call, ms (its own request handling)', 'sapMsPerCall'],
    ['HTTP requests to the MCP server per call', 'httpRequestsPerCall'],
    ['SAP backend requests per call', 'sapRequestsPerCall'],
    ['SAP backend TCP connections per call', 'sapConnectionsPerCall'],
    ['MCP TCP connections over all calls', 'connections'],
  ];
  console.log('| | adt-ls-native | 0.5.0 |\n|---|---:|---:|');
  for (const [label, key] of rows) console.log(`| ${label} | ${f1(median(runs.ours.map((r) => r[key])))} | ${f1(median(runs['0.5.0'].map((r) => r[key])))} |`);
  console.log(`| HTTP requests per MCP TCP connection (first round) | ${runs.ours[0].connectionUse} | ${runs['0.5.0'][0].connectionUse} |`);
  console.log(`| JSON-RPC methods seen | ${runs.ours[0].rpcMethods} | ${runs['0.5.0'][0].rpcMethods} |`);
  const ours = median(runs.ours.map((r) => r.perCallMs));
  const ref = median(runs['0.5.0'].map((r) => r.perCallMs));
  // A client that cost nothing on its own side still waits for the server's answer; the
  // smallest server time is ours' (it includes the backend hop through the client's proxy).
  const server = Math.min(...['ours', '0.5.0'].map((n) => median(runs[n].map((r) => r.serverMsPerCall))));
  // Even with a free proxy the fake adt-ls's own CPU per call is spent serially.
  const adtCpu = Math.min(...['ours', '0.5.0'].map((n) => median(runs[n].map((r) => r.adtLsCpuMsPerCall))));
  const load = range([...runs.ours, ...runs['0.5.0']].map((r) => r.load));
  console.log(`\n0.5.0/ours: ${(ref / ours).toFixed(2)}x; limit 0.5.0 / smallest server time: ${(ref / server).toFixed(2)}x; 0.5.0 / fake adt-ls CPU alone: ${(ref / adtCpu).toFixed(2)}x; load average (1 min): ${load}`);
  console.log('per round (ours | 0.5.0) wall ms/call:', runs.ours.map((r) => f1(r.perCallMs)).join(' '), '|', runs['0.5.0'].map((r) => f1(r.perCallMs)).join(' '));
}

if (argv[0] === '--sap-child') await sapChild();
else await main();

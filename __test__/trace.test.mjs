// Redacted wire traces: `trace: { file }` on createAdtLs and AdtLsDriver and
// ADT_LS_NATIVE_TRACE write a JSONL trace of LSP and MCP traffic both ways. Every logon
// strategy runs against the simulated SAP system with tracing on and the trace is searched for
// each secret (password, its Basic form, bearer token, prompt answer, MCP token, tickets,
// private key). The file is 0600, nothing is written after dispose, a file that cannot be
// written never breaks the client. Record -> replay: the README's example runs against the
// simulated system with ADT_LS_NATIVE_TRACE, then through `adt-ls-simulator replay` with no
// system at all, printing the same; a request the trace cannot answer is reported (exit 1).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AdtLsDriver, basic, bearer, clientCert, createAdtLs, custom, interactive } from '../index.js';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { installFakeExtension } from '../simulator/lib/install.mjs';
import { ROOT, TEST_TMP, readTrace, simDriverOptions, tempDir, until } from './helpers.mjs';
import {
  PASSWORD,
  CLIENT_BOUNDS,
  installedAdtLs,
  captureLogs,
  browserLogon,
  logonUrlOf,
  assertNoSecrets,
} from './fixtures/client/support.mjs';

const TOKEN = 'tok-trace-7c1d0e5a93';
const PROMPT_PASSWORD = 'Prompt#Trace-4471';
const BROWSER_LOGON = 'adtLs/destinations/requestBrowserBasedLogon';
const BUN_TLS_SERVER_LIMIT = process.versions.bun ? "Bun's node:https server hides client certificates from the in-process simulator" : false;
const CLI = join(ROOT, 'simulator', 'bin', 'adt-ls-simulator.mjs');

let sap;
let logs;
const dirs = tempDir('adt-ls-native-wire-');
let seq = 0;
const newTraceFile = () => join(dirs.dir, `wire-${seq++}.jsonl`);

before(async () => {
  sap = await startSapBackend({ tls: 'self-signed', tokens: { valid: [{ token: TOKEN, user: 'DEVELOPER' }] } });
  logs = captureLogs();
});
after(async () => {
  logs.restore();
  await sap?.close();
  dirs.cleanup();
});

/** Parsed lines of one of our traces. */
const ourTrace = (file) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/**
 * createAdtLs with `auth` and a trace, one search (LSP) and one capabilities() (MCP
 * tools/list), dispose; resolves the trace text, the simulator's own (unredacted) trace and
 * any tickets the test saw.
 */
async function tracedSession(auth, env = {}) {
  const file = newTraceFile();
  const simTrace = `${file}.sim`;
  const client = await createAdtLs({
    adtLs: installedAdtLs({ ADTLS_SIM_TRACE: simTrace, ...env }),
    connection: { systemUrl: sap.url, selfSigned: true },
    auth,
    trace: { file },
    ...CLIENT_BOUNDS,
  });
  try {
    const found = await client.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] });
    assert.ok(found.references.length > 0);
    assert.ok((await client.capabilities()).tools.length > 0);
  } finally {
    await client.dispose();
  }
  return { file, text: readFileSync(file, 'utf8'), sim: readTrace(simTrace) };
}

/** The MCP token the client really sent, from the simulator's unredacted trace. */
function mcpTokenOf(sim) {
  const start = sim.find((e) => e.dir === 'in' && e.message?.method === 'adtLs/mcp/startMCPServer');
  const token = start?.message?.params?.token;
  assert.match(String(token), /^[0-9a-f]{48}$/, 'the simulator saw the live MCP token');
  return token;
}

function assertTraceShape(text) {
  const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  assert.deepEqual([lines[0].type, lines[0].format, lines[0].version], ['header', 'adt-ls-native-trace', 1]);
  const seen = new Set(lines.slice(1).map((l) => `${l.ch}:${l.dir}`));
  assert.deepEqual([...seen].sort(), ['lsp:in', 'lsp:out', 'mcp:in', 'mcp:out']);
  for (const l of lines.slice(1)) {
    assert.equal(l.type, 'message');
    assert.match(l.ts, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(typeof l.ms, 'number');
  }
  const start = lines.find((l) => l.dir === 'out' && l.method === 'adtLs/mcp/startMCPServer');
  assert.equal(start.msg.params.token, '***', 'the MCP token is masked by position');
  assert.ok(lines.some((l) => l.ch === 'mcp' && l.method === 'tools/list' && l.dir === 'in' && l.http?.status === 200));
  return lines;
}

/** Every secret of a session, with the forms the wire would carry. */
function secretsOf(sim, extra = {}) {
  const basicForm = Buffer.from(`DEVELOPER:${PASSWORD}`).toString('base64');
  return {
    password: PASSWORD,
    'Basic credentials': basicForm,
    'bearer token': TOKEN,
    'bearer token (base64)': Buffer.from(TOKEN).toString('base64'),
    'prompt answer': PROMPT_PASSWORD,
    'MCP token': mcpTokenOf(sim),
    ...extra,
  };
}

const STRATEGIES = [
  ['basic', () => ({ auth: basic('DEVELOPER', PASSWORD) })],
  ['bearer (value)', () => ({ auth: bearer(TOKEN) })],
  ['bearer (async provider)', () => ({ auth: bearer(async () => TOKEN, { user: 'DEVELOPER' }) })],
  [
    'interactive (openUrl)',
    (tickets) => ({
      auth: interactive({
        // Not returned: adt-ls is answered once openUrl settles, and it answers the browser's
        // redirect only after that.
        openUrl: (url) => {
          browserLogon(url, { user: 'DEVELOPER', password: PASSWORD }).then((o) => tickets.push(o.location), () => {});
        },
      }),
    }),
  ],
  ...['legacy', 'socket'].map((variant) => [
    `interactive (promptField, ${variant} format)`,
    (tickets) => ({
      auth: interactive({
        openUrl: (url) => {
          browserLogon(url, { user: 'DEVELOPER', password: PASSWORD }).then((o) => tickets.push(o.location), () => {});
        },
        promptField: async (field) => (field.key === 'password' ? PROMPT_PASSWORD : field.key === 'client' ? '001' : undefined),
      }),
      env: { ADTLS_SIM_LOGON_INPUT: variant },
    }),
  ]),
  [
    'custom',
    (tickets) => ({
      auth: custom((driver, ctx) => {
        driver.setRequestHandler(BROWSER_LOGON, (params) => {
          browserLogon(logonUrlOf(params), { user: 'DEVELOPER', password: PASSWORD, insecure: ctx.insecure }).then(
            (o) => tickets.push(o.location),
            () => {},
          );
          return true;
        });
      }),
    }),
  ],
];

for (const [name, make] of STRATEGIES) {
  test(`trace of the ${name} logon: both channels, both directions, no secret`, { timeout: 120_000 }, async () => {
    const tickets = [];
    const { auth, env } = make(tickets);
    const { text, sim } = await tracedSession(auth, env);
    const lines = assertTraceShape(text);
    if (name === 'custom' || name === 'interactive (openUrl)') assert.equal(tickets.length, 1, 'the browser part got a ticket');
    const ticketValues = Object.fromEntries(
      tickets.filter(Boolean).map((loc, i) => [`ticket ${i}`, new URL(loc).searchParams.get('reentrance-ticket')]),
    );
    assertNoSecrets(assert, text, secretsOf(sim, ticketValues), `the ${name} trace`);
    if (name.includes('legacy')) {
      // 1.0.0's answer carries the prompt answers on the LSP wire: the sensitive one is masked.
      const answer = lines.find((l) => l.dir === 'out' && l.method === 'adtLs/destinations/requestLogonInput' && l.msg.result);
      assert.deepEqual(answer.msg.result.fields, [
        { key: 'client', value: '001' },
        { key: 'password', value: '***' },
      ]);
    }
    assertNoSecrets(assert, logs.text(), secretsOf(sim, ticketValues), 'the log');
  });
}

test('trace of the clientCert logon: no private key, no secret', { timeout: 120_000, skip: BUN_TLS_SERVER_LIMIT }, async () => {
  const cert = sap.clientCa.issueClientCert('CERTUSER');
  const { text, sim } = await tracedSession(clientCert({ cert: cert.certPem, key: cert.keyPem }));
  assertTraceShape(text);
  assertNoSecrets(assert, text, { ...secretsOf(sim), 'key body': cert.keyPem.split('\n')[1] }, 'the clientCert trace');
});

test('the driver traces with trace.file or ADT_LS_NATIVE_TRACE (the option wins): 0600, closed by dispose', { timeout: 60_000 }, async () => {
  const viaOption = newTraceFile();
  const viaEnv = newTraceFile();
  const saved = process.env.ADT_LS_NATIVE_TRACE;
  process.env.ADT_LS_NATIVE_TRACE = viaEnv;
  try {
    const driver = new AdtLsDriver(process.execPath, simDriverOptions({}, { trace: { file: viaOption } }));
    await driver.start(20_000);
    await driver.sendRequest('adtLs/destinations/initializeService', { destinationsStorePath: join(dirs.dir, 'd.json'), workspaceFolderUris: [], fileUris: [] });
    // adt-ls asks workspace/configuration after `initialized`, in parallel with our requests:
    // wait (bounded) until its request and our answer are on the wire before disposing.
    const answered = (l) => l.ch === 'lsp' && l.method === 'workspace/configuration' && l.dir === 'out';
    await until(() => ourTrace(viaOption).some(answered), 10_000);
    await driver.dispose();
    const size = statSync(viaOption).size;
    await driver.sendRequest('initialize', {}).catch(() => {});
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(statSync(viaOption).size, size, 'nothing is written after dispose');
    assert.equal(statSync(viaOption).mode & 0o777, 0o600);
    const lines = ourTrace(viaOption);
    const methods = lines.filter((l) => l.ch === 'lsp' && l.dir === 'out' && l.msg.id !== undefined && l.msg.method).map((l) => l.method);
    assert.deepEqual(methods, ['initialize', 'adtLs/destinations/initializeService']);
    const serverRequest = lines.find((l) => l.dir === 'in' && l.method === 'workspace/configuration');
    const ourAnswer = lines.find((l) => l.dir === 'out' && l.method === 'workspace/configuration');
    assert.ok(serverRequest && ourAnswer, 'server requests and our answers are recorded');
    assert.deepEqual(ourAnswer.msg.result, [null]);
    assert.throws(() => statSync(viaEnv), /ENOENT/, 'the option wins over the environment');

    const envDriver = new AdtLsDriver(process.execPath, simDriverOptions());
    await envDriver.start(20_000);
    await envDriver.dispose();
    assert.equal(ourTrace(viaEnv)[0].type, 'header', 'ADT_LS_NATIVE_TRACE alone turns tracing on');
  } finally {
    if (saved === undefined) delete process.env.ADT_LS_NATIVE_TRACE;
    else process.env.ADT_LS_NATIVE_TRACE = saved;
  }
});

test('a trace file that cannot be opened is logged once and the client works untraced', { timeout: 60_000 }, async () => {
  const file = join(dirs.dir, 'no-such-dir', 'wire.jsonl');
  const before = logs.of('warn').length;
  const client = await createAdtLs({ adtLs: installedAdtLs(), trace: { file }, ...CLIENT_BOUNDS });
  try {
    assert.ok((await client.capabilities()).tools.length > 0);
  } finally {
    await client.dispose();
  }
  const warned = logs.of('warn').slice(before).filter((w) => w.includes('trace'));
  assert.equal(warned.length, 1, warned.join('\n'));
  assert.match(warned[0], /cannot open the trace file .*no-such-dir.*tracing is off/);
});

/** The README's "Wire traces and replay" example, written inside the package so `adt-ls-native` resolves. */
function readmeTraceExample() {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = readme.match(/^```js trace-example\n([\s\S]*?)^```$/m);
  assert.ok(block, 'the README has the trace example');
  return block[1];
}

function run(args, env, ms = 90_000) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test('record -> replay: the README example gets the same results offline; an unrecorded request is reported', { timeout: 240_000 }, async () => {
  const runDir = join(ROOT, 'target', `trace-replay-${process.pid}`);
  mkdirSync(runDir, { recursive: true });
  try {
    const script = join(runDir, 'session.mjs');
    writeFileSync(script, readmeTraceExample());
    const { binPath } = installFakeExtension({ home: join(runDir, 'home') });
    const trace = join(runDir, 'session.jsonl');
    const env = { ...process.env, ADTLS_SIM_QUIET: '1', SAP_URL: sap.url, SAP_USER: 'DEVELOPER', SAP_PASSWORD: PASSWORD, TMPDIR: TEST_TMP };
    delete env.DEBUG;
    delete env.NODE_OPTIONS;
    const recorded = await run([script], { ...env, ADT_LS_PATH: binPath, ADT_LS_NATIVE_TRACE: trace });
    assert.equal(recorded.code, 0, recorded.stderr);
    assert.match(recorded.stdout, /^found: CL_ABAP_TYPEDESCR$/m);
    assert.match(recorded.stdout, /^MCP tools: [1-9]\d*$/m);
    assertNoSecrets(assert, readFileSync(trace, 'utf8'), { password: PASSWORD }, 'the recorded trace');

    // Offline: no SAP system behind the URL any more, no adt-ls but the replaying fake.
    const offline = { ...env, SAP_URL: 'https://127.0.0.1:9', SAP_PASSWORD: 'not-the-password' };
    const replayed = await run([CLI, 'replay', trace, '--', process.execPath, script], offline);
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.equal(replayed.stdout, recorded.stdout, 'the same script prints the same results');
    assert.match(replayed.stderr, /session 0: \d+ answered .* 0 unanswered/);

    // One more request than was recorded: it fails in the script and the replay reports it.
    const extra = join(runDir, 'extra.mjs');
    writeFileSync(
      extra,
      readmeTraceExample().replace(
        'await adt.dispose();',
        "await adt.raw.lsp('adtLs/repository/getUsers').catch((e) => console.log(`extra: ${e.message}`));\nawait adt.dispose();",
      ),
    );
    const report = join(runDir, 'report.json');
    const missing = await run([CLI, 'replay', trace, '--report', report, '--', process.execPath, extra], offline);
    assert.equal(missing.code, 1, missing.stderr);
    assert.match(missing.stdout, /^extra: adt-ls-simulator replay: no recorded answer for adtLs\/repository\/getUsers$/m);
    assert.match(missing.stderr, /unanswered lsp adtLs\/repository\/getUsers/);
    const parsed = JSON.parse(readFileSync(report, 'utf8'));
    assert.deepEqual(parsed.sessions.flatMap((s) => s.unanswered.map((u) => u.method)), ['adtLs/repository/getUsers']);
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
});

// The keep-alive loop through the public API: while the client is in use, a liveness probe
// runs every `keepAlive.intervalMs` and a dead SAP session is logged on again without any
// call of the user's; `keepAlive: false` runs no loop; a bad period is refused up front.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createAdtLs, basic } from '../index.js';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { tempDir, readTrace, incoming, until, timed } from './helpers.mjs';
import { PASSWORD, CLIENT_BOUNDS, installedAdtLs, captureLogs } from './fixtures/client/support.mjs';

const PERIOD_MS = 300;
let sap;
let logs;
const traces = tempDir('adt-ls-native-keepalive-');
let seq = 0;

before(async () => {
  sap = await startSapBackend({ tls: 'self-signed' });
  logs = captureLogs();
});
after(async () => {
  logs.restore();
  await sap?.close();
  traces.cleanup();
});

function connected(keepAlive) {
  const trace = `${traces.dir}/trace-${seq++}.jsonl`;
  return {
    trace,
    opts: {
      adtLs: installedAdtLs({ ADTLS_SIM_QUIET: '0', ADTLS_SIM_TRACE: trace }),
      connection: { systemUrl: sap.url, selfSigned: true },
      auth: basic('DEVELOPER', PASSWORD),
      keepAlive,
      ...CLIENT_BOUNDS,
    },
  };
}

/** The one-hit liveness searches the client sent (the probe: maxResults 1). */
function probes(trace) {
  return incoming(readTrace(trace)).filter(
    (m) => m.method === 'adtLs/repository/quickSearch' && JSON.stringify(m.params).includes('"maxResults":1'),
  );
}

test('keepAlive { intervalMs }: probes run periodically and a dead session is logged on again with no user call', async () => {
  const { opts, trace } = connected({ intervalMs: PERIOD_MS });
  const client = await createAdtLs(opts);
  try {
    const startProbes = probes(trace).length;
    assert.ok(startProbes >= 1, 'the warm-up probe ran');
    // Periodic probes while the client counts as active.
    const more = await until(() => probes(trace).length >= startProbes + 3, 20_000, 50);
    assert.ok(more, `keep-alive probes: ${probes(trace).length - startProbes} after the warm-up`);
    // The backend drops the session; nobody calls the client, yet the loop logs on again.
    const ticketsBefore = sap.control.ticketRequests().length;
    assert.ok(sap.control.expireSessions({ mode: 'logged-off' }).expired >= 1);
    const relogged = await until(() => sap.control.ticketRequests().length > ticketsBefore, 30_000, 50);
    assert.ok(relogged, 'the keep-alive loop fetched a new ticket on its own');
    assert.ok(await until(() => client.health().backendLive && client.health().connected, 20_000, 50));
    assert.ok(logs.of('warn').includes('SAP session appears dead (liveness probe empty) — forcing re-logon'), logs.text());
  } finally {
    await client.dispose();
  }
  // After dispose the loop is gone: no probe is sent any more.
  const after = probes(trace).length;
  await new Promise((r) => setTimeout(r, PERIOD_MS * 4));
  assert.equal(probes(trace).length, after, 'no probe after dispose');
});

test('keepAlive false: no loop; an expired session stays unnoticed until the next call', async () => {
  const { opts, trace } = connected(false);
  const client = await createAdtLs(opts);
  try {
    const startProbes = probes(trace).length;
    const ticketsBefore = sap.control.ticketRequests().length;
    sap.control.expireSessions({ mode: 'logged-off' });
    await new Promise((r) => setTimeout(r, 2_000));
    assert.equal(probes(trace).length, startProbes, 'no probe without keep-alive');
    assert.equal(sap.control.ticketRequests().length, ticketsBefore, 'no re-logon without a call');
  } finally {
    await client.dispose();
  }
});

test('keepAlive.intervalMs must be a finite positive number of ms', async () => {
  for (const bad of [-1, 0, Number.NaN, Number.POSITIVE_INFINITY, 1e308, '300']) {
    const r = await timed(createAdtLs({ ...connected({ intervalMs: bad }).opts }));
    assert.equal(r.ok, false, `intervalMs ${String(bad)} was accepted`);
    assert.match(r.error.message, /keepAlive\.intervalMs/, r.error.message);
    assert.match(String(r.error.code), /^ERR_(OUT_OF_RANGE|INVALID_ARG_TYPE)$/, `${r.error.code}`);
  }
});

// When the strategy callbacks run relative to adt-ls hearing our answer, and what a custom
// strategy is told about the connection. Every callback that the answer depends on runs
// before it: interactive's openUrl (and its promise) before the `true` of
// requestBrowserBasedLogon, a bearer token provider before that `true` too, promptField
// before requestLogonInput's answer, a custom handler before its own answer. "Before" is read
// from the simulated adt-ls's wire trace at the moment the callback runs and when its promise
// settles, in a fresh client and again after other logons in the same process (the condition
// under which openUrl used to run only after the answer). `ctx.client` of a custom strategy is
// the destination's client ('001' by default, as adtLs/destinations/create gets), and a user
// who exists only in a non-default client logs on because the ticket GET carries it.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createAdtLs, basic, bearer, interactive, custom } from '../index.js';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { tempDir, readTrace } from './helpers.mjs';
import { PASSWORD, CLIENT_BOUNDS, installedAdtLs, browserLogon, logonUrlOf } from './fixtures/client/support.mjs';

const BROWSER_LOGON = 'adtLs/destinations/requestBrowserBasedLogon';
const LOGON_INPUT = 'adtLs/destinations/requestLogonInput';
const TOKEN = 'tok-callbacks-7d21c5a0e3';
const CLIENT100_PASSWORD = 'Client100#Pass-4417';

let sap;
const traces = tempDir('adt-ls-native-callbacks-');
let seq = 0;

before(async () => {
  sap = await startSapBackend({
    tls: 'self-signed',
    users: { DEVELOPER: PASSWORD, CLIENT100: CLIENT100_PASSWORD },
    clients: ['001', '100'],
    userClients: { CLIENT100: ['100'] },
    tokens: { valid: [{ token: TOKEN, user: 'DEVELOPER' }] },
  });
});
after(async () => {
  await sap?.close();
  traces.cleanup();
});

/** Whether adt-ls has received our answer to its `method` request (from its trace). */
function answered(trace, method) {
  const events = readTrace(trace);
  const asked = new Set(events.filter((e) => e.dir === 'out' && e.message?.method === method).map((e) => e.message.id));
  return events.some((e) => e.dir === 'in' && e.message && asked.has(e.message.id) && !('method' in e.message));
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Log on with the strategy `make(trace)` builds, check the session, dispose. */
async function logOn(make, { env = {}, connection = {} } = {}) {
  const trace = `${traces.dir}/trace-${seq++}.jsonl`;
  const client = await createAdtLs({
    adtLs: installedAdtLs({ ADTLS_SIM_TRACE: trace, ...env }),
    connection: { systemUrl: sap.url, selfSigned: true, ...connection },
    auth: make(trace),
    ...CLIENT_BOUNDS,
  });
  try {
    assert.equal(client.health().connected, true);
    await client.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] });
  } finally {
    await client.dispose();
  }
  return trace;
}

/**
 * One strategy per callback; each records `[answered when called, answered when its
 * promise settled]` into `seen`.
 */
const CASES = {
  'interactive openUrl': (seen) => ({
    make: (trace) =>
      interactive({
        openUrl: async (url) => {
          seen.push(answered(trace, BROWSER_LOGON));
          // The browser runs on its own; its redirect to adt-ls waits for our answer.
          browserLogon(url, { user: 'DEVELOPER', password: PASSWORD }).catch(() => {});
          await pause(50);
          seen.push(answered(trace, BROWSER_LOGON));
        },
      }),
  }),
  'bearer token provider': (seen) => ({
    make: (trace) =>
      bearer(async () => {
        seen.push(answered(trace, BROWSER_LOGON));
        await pause(50);
        seen.push(answered(trace, BROWSER_LOGON));
        return TOKEN;
      }),
  }),
  'interactive promptField': (seen) => ({
    env: { ADTLS_SIM_LOGON_INPUT: 'socket' },
    make: (trace) =>
      interactive({
        openUrl: (url) => {
          browserLogon(url, { user: 'DEVELOPER', password: PASSWORD }).catch(() => {});
        },
        promptField: async (field) => {
          seen.push(answered(trace, LOGON_INPUT));
          await pause(20);
          seen.push(answered(trace, LOGON_INPUT));
          return field.key === 'client' ? '001' : PASSWORD;
        },
      }),
  }),
  'custom setRequestHandler handler': (seen) => ({
    make: (trace) =>
      custom((driver, ctx) => {
        driver.setRequestHandler(BROWSER_LOGON, async (params) => {
          seen.push(answered(trace, BROWSER_LOGON));
          browserLogon(logonUrlOf(params), { user: 'DEVELOPER', password: PASSWORD, insecure: ctx.insecure }).catch(() => {});
          await pause(50);
          seen.push(answered(trace, BROWSER_LOGON));
          return true;
        });
      }),
  }),
};

test('every strategy callback runs, and its promise settles, before adt-ls is answered: in a fresh client and after other logons', async () => {
  for (const round of ['first', 'after a basic logon', 'once more']) {
    if (round !== 'first') await logOn(() => basic('DEVELOPER', PASSWORD));
    for (const [name, build] of Object.entries(CASES)) {
      const seen = [];
      const c = build(seen);
      await logOn(c.make, { env: c.env });
      assert.ok(seen.length >= 2, `${round}, ${name}: the callback ran (${seen})`);
      assert.deepEqual(seen, seen.map(() => false), `${round}, ${name}: adt-ls had the answer while the callback ran (called, settled): ${seen}`);
    }
  }
});

test("a custom strategy's ctx.client is the destination's client, '001' by default", async () => {
  const seen = [];
  const recorder = () =>
    custom((driver, ctx) => {
      seen.push(ctx.client);
      driver.setRequestHandler(BROWSER_LOGON, (params) => {
        const url = new URL(logonUrlOf(params));
        url.searchParams.set('sap-client', ctx.client);
        const user = ctx.client === '100' ? 'CLIENT100' : 'DEVELOPER';
        browserLogon(url.href, { user, password: user === 'CLIENT100' ? CLIENT100_PASSWORD : PASSWORD, insecure: ctx.insecure }).catch(() => {});
        return true;
      });
    });
  const created = (trace) => readTrace(trace).find((e) => e.dir === 'in' && e.message?.method === 'adtLs/destinations/create')?.message.params;
  const byDefault = await logOn(recorder);
  assert.equal(created(byDefault).properties.client, '001');
  const in100 = await logOn(recorder, { connection: { client: '100' } });
  assert.equal(created(in100).properties.client, '100');
  assert.deepEqual(seen, ['001', '100']);
  assert.deepEqual([sap.control.lastTicketRequest.sapClient, sap.control.lastTicketRequest.status], ['100', 307]);
});

test('a user who exists only in a non-default client logs on: the ticket GET carries sap-client', async () => {
  const before = sap.control.ticketRequests().length;
  await logOn(() => basic('CLIENT100', CLIENT100_PASSWORD), { connection: { client: '100' } });
  const tickets = sap.control.ticketRequests().slice(before);
  assert.deepEqual(tickets.map((t) => [t.sapClient, t.user, t.status]), [['100', 'CLIENT100', 307]]);
});

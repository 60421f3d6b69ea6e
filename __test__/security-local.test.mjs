// Another local user against what the client opens for adt-ls (docs/decisions.md#d6):
// the attacker runs as `nobody` (setpriv, when this process is root) and as the same uid.
// - The TLS proxy (with clientCert, it presents the victim's certificate upstream): a
//   `curl -k` of the reentranceticket URL is refused in the TLS handshake and the backend
//   sees nothing; hundreds of idle connections neither pin descriptors in the victim's
//   process nor stop the victim's calls.
// - The MCP token: a listener on [::1]:<mcpPort>, with `localhost` resolving to ::1 first
//   (a private mount namespace with its own /etc/hosts), never receives a request.
// Runs where unavailable are skipped visibly with the reason.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { createAdtLs, clientCert } from '../index.js';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { ROOT } from './helpers.mjs';
import { CLIENT_BOUNDS, installedAdtLs, captureLogs, proxyPortIn, freePort } from './fixtures/client/support.mjs';
import { attackerModes, startAttacker, hostsNamespaceUnavailable, runWithLocalhostOnIpv6, NODE } from './fixtures/security/attacker.mjs';

const CERT_USER = 'CERTUSER';
const TICKET_PATH = '/sap/bc/adt/core/http/reentranceticket?redirect-url=http%3A%2F%2Flocalhost%3A1%2Fadt%2Fredirect';
/** Idle connections the attacker opens; the proxy keeps at most 32 of them pending. */
const FLOOD = 300;
const BUN_TLS_SERVER_LIMIT = process.versions.bun ? 'Bun does not request client certificates on TLS servers (simulated SAP clientCert)' : undefined;

let sap;
let logs;
let victim;
let proxyPort;

before(async () => {
  if (BUN_TLS_SERVER_LIMIT) return;
  sap = await startSapBackend({ tls: 'self-signed' });
  const cert = sap.clientCa.issueClientCert(CERT_USER);
  logs = captureLogs();
  victim = await createAdtLs({
    adtLs: installedAdtLs(),
    connection: { systemUrl: sap.url, selfSigned: true },
    auth: clientCert({ cert: cert.certPem, key: cert.keyPem }),
    ...CLIENT_BOUNDS,
  });
  proxyPort = proxyPortIn(logs.of('info'));
});

after(async () => {
  await victim?.dispose();
  logs?.restore();
  await sap?.close();
});

async function victimSearches() {
  const result = await victim.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] });
  assert.ok(result.references.some((r) => r.name === 'CL_ABAP_TYPEDESCR'), JSON.stringify(result));
}

/** Sockets open in this (the victim's) process. */
function ownSockets() {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:');
    } catch {
      return false;
    }
  }).length;
}

for (const mode of attackerModes()) {
  const skip = BUN_TLS_SERVER_LIMIT ?? mode.skip;

  test(`proxy ${mode.name}: a curl -k of the reentranceticket URL is refused in the TLS handshake`, { skip }, async () => {
    assert.ok(proxyPort, 'the victim runs a proxy');
    await victimSearches();
    const seen = sap.control.requests().length;
    const attacker = startAttacker(mode.asNobody, ['get', proxyPort, TICKET_PATH]);
    const outcome = await attacker.next();
    await attacker.finish();
    assert.equal(outcome.status, undefined, `the attacker got an HTTP answer: ${JSON.stringify(outcome)}`);
    assert.ok(outcome.error, JSON.stringify(outcome));
    assert.equal(sap.control.requests().length, seen, 'the backend saw a request from the attacker');
    await victimSearches();
  });

  const noFdTable = existsSync('/proc/self/fd') ? undefined : 'no /proc/self/fd to count the victim\'s sockets';
  test(`proxy ${mode.name}: ${FLOOD} idle connections are capped and the victim's calls still work`, { skip: skip ?? noFdTable }, async () => {
    const before = ownSockets();
    const attacker = startAttacker(mode.asNobody, ['flood', proxyPort, FLOOD]);
    try {
      const { opened } = await attacker.next();
      assert.ok(opened > 0, 'the attacker connected');
      // Let the proxy accept (and evict) them all.
      await new Promise((r) => setTimeout(r, 500));
      const held = ownSockets() - before;
      assert.ok(held <= 48, `the victim's process holds ${held} more sockets during a ${FLOOD}-connection flood`);
      await victimSearches();
      const [{ stillOpen }] = await attacker.finish();
      assert.ok(stillOpen < FLOOD, `the proxy closed none of the ${FLOOD} idle connections`);
    } finally {
      attacker.kill();
    }
  });

  test(`MCP token ${mode.name}: a listener on [::1]:<mcpPort> receives nothing while localhost resolves to ::1 first`, { skip: mode.skip ?? hostsNamespaceUnavailable() }, async () => {
    const port = await freePort();
    const attacker = startAttacker(mode.asNobody, ['listen6', port]);
    try {
      const ready = await attacker.next();
      assert.equal(ready.listening, port, JSON.stringify(ready));
      const victimRun = await runWithLocalhostOnIpv6(process.versions.bun ? process.execPath : NODE, [`${ROOT}/__test__/fixtures/security/victim-mcp.mjs`, port]);
      const [{ requests }] = await attacker.finish();
      assert.deepEqual(requests, [], 'the [::1] listener received requests (with the bearer token)');
      const result = JSON.parse(victimRun.stdout.trim().split('\n').pop() || '{}');
      assert.equal(result.ok, true, `${JSON.stringify(result)}\n${victimRun.stderr}`);
      assert.equal(result.mcpPort, port, 'the session was opened on the requested port (127.0.0.1)');
    } finally {
      attacker.kill();
    }
  });
}

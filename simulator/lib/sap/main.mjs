#!/usr/bin/env node
// Standalone simulated SAP backend: prints one JSON line `{url, controlToken, caCertPem?,
// certPem?, clientCaCertPem}` on stdout and runs until killed.
//   node simulator/lib/sap/main.mjs --port 0 --tls self-signed --user DEVELOPER:pw \
//     --token abc --expired-token old --hostname sap-a4h.sim.internal
import { parseArgs } from 'node:util';
import { startSapBackend } from './index.mjs';

function usersFrom(list) {
  if (!list || list.length === 0) return undefined;
  const users = {};
  for (const entry of list) {
    const colon = entry.indexOf(':');
    if (colon <= 0) throw new Error(`--user expects NAME:PASSWORD, got ${entry.split(':')[0]}`);
    users[entry.slice(0, colon)] = entry.slice(colon + 1);
  }
  return users;
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      tls: { type: 'string', default: 'self-signed' },
      hostname: { type: 'string' },
      user: { type: 'string', multiple: true },
      token: { type: 'string', multiple: true },
      'expired-token': { type: 'string', multiple: true },
      client: { type: 'string', multiple: true },
      'ticket-ttl-ms': { type: 'string' },
    },
  });
  const backend = await startSapBackend({
    port: Number(values.port),
    tls: values.tls,
    hostname: values.hostname,
    users: usersFrom(values.user),
    tokens: { valid: values.token ?? [], expired: values['expired-token'] ?? [] },
    clients: values.client,
    ticketTtlMs: values['ticket-ttl-ms'] ? Number(values['ticket-ttl-ms']) : undefined,
  });
  const line = { url: backend.url, controlToken: backend.controlToken, clientCaCertPem: backend.clientCa.certPem };
  if (backend.caCertPem) line.caCertPem = backend.caCertPem;
  if (backend.certPem) line.certPem = backend.certPem;
  process.stdout.write(JSON.stringify(line) + '\n');
  const stop = () => backend.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  process.stderr.write(`sap backend failed to start: ${err.message}\n`);
  process.exit(1);
});

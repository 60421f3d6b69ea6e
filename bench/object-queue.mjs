// The per-object operation queue's cost and what it leaves parallel (docs/performance.md,
// "The object queue"): `repository.readFile` on N different objects in a row, the same N at
// once, and N reads of one object at once (which the queue runs one after the other), on a
// connected client against the simulator with a fixed backend delay per readFile, so the
// times show the scheduling and not the machine. Reports medians over several rounds.
//
//   node bench/object-queue.mjs [--objects 8] [--delay 100] [--rounds 5]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdtLs, basic } from '../index.js';
import { installFakeExtension } from '../simulator/lib/install.mjs';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => Number(argv[argv.indexOf(`--${name}`) + 1]) || fallback;
const ROUNDS = option('rounds', 5);
const DELAY_MS = option('delay', 100);

/** Seeded objects in distinct repotree folders (one queue key each). */
const OBJECTS = [
  ['ZCL_TEST', 'CLAS/OC'],
  ['ZCL_TEST_EXTRA', 'CLAS/OC'],
  ['ZCL_SIM_FLIGHT_QUERY', 'CLAS/OC'],
  ['ZCL_SIM_ORDER', 'CLAS/OC'],
  ['CL_ABAP_TYPEDESCR', 'CLAS/OC'],
  ['CL_ABAP_STRUCTDESCR', 'CLAS/OC'],
  ['ZIF_SIM_FLIGHT', 'INTF/OI'],
  ['ZI_SIM_FLIGHT', 'DDLS/DF'],
  ['ZUI_SIM_FLIGHT', 'SRVD/SRV'],
  ['ZR_SIM_FLIGHT', 'BDEF/BDO'],
  ['ZC_SIM_FLIGHT', 'DDLX/EX'],
  ['SFLIGHT', 'TABL/DT'],
];
const N = Math.min(option('objects', 8), OBJECTS.length);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(run) {
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
}

const home = mkdtempSync(join(tmpdir(), 'adt-ls-bench-queue-'));
const { binPath } = installFakeExtension({ home });
const sap = await startSapBackend({ tls: 'self-signed', users: { DEVELOPER: 'Developer#1' } });
let adt;
try {
  adt = await createAdtLs({
    adtLs: { path: binPath, extraEnv: { ADTLS_SIM_QUIET: '1' } },
    connection: { systemUrl: sap.url, selfSigned: true },
    auth: basic('DEVELOPER', 'Developer#1'),
    keepAlive: false,
  });
  const uris = [];
  for (const [name, objectType] of OBJECTS.slice(0, N)) uris.push(await adt.lifecycle.resolveAffUri({ name, objectType }));
  sap.control.setDelay('adtLs/fileSystem/readFile', DELAY_MS);
  const scenarios = {
    [`${N} objects in a row`]: () => uris.reduce((p, uri) => p.then(() => adt.repository.readFile(uri)), Promise.resolve()),
    [`${N} objects at once`]: () => Promise.all(uris.map((uri) => adt.repository.readFile(uri))),
    [`${N} reads of one object at once (queued)`]: () => Promise.all(uris.map(() => adt.repository.readFile(uris[0]))),
  };
  const results = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(scenarios)) (results[name] ??= []).push(await timed(run));
  }
  console.log(`repository.readFile, backend delay ${DELAY_MS} ms per read, ${ROUNDS} rounds (median ms)\n`);
  console.log('| Scenario | Median ms | Per read ms |');
  console.log('| --- | ---: | ---: |');
  for (const [name, times] of Object.entries(results)) {
    const ms = median(times);
    console.log(`| ${name} | ${ms.toFixed(0)} | ${(ms / N).toFixed(1)} |`);
  }
  const row = median(results[`${N} objects in a row`]);
  const once = median(results[`${N} objects at once`]);
  console.log(`\nin a row / at once: ${(row / once).toFixed(2)}x`);
} finally {
  await adt?.dispose();
  await sap.close();
  rmSync(home, { recursive: true, force: true });
}

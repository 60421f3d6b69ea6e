// The per-object operation queue through the public API on the simulator (C13): one
// FIFO line per object (its repotree folder) shared by the file operations, abapStat,
// source.read (the whole active-read window), the lifecycle writes and every navigation
// window; what adt-ls receives for one object never interleaves, other objects run in
// parallel, a failed or cancelled call does not block the line. A backend call held at the
// simulated SAP system (control.pauseNext) keeps one operation in flight while the others
// are started.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ZCL_TEST, ZCL_TEST_EXTRA, connectedClient, rejection } from './fixtures/namespaces/support.mjs';
import { until } from './helpers.mjs';

const ORDER = { name: 'ZCL_SIM_ORDER', objectType: 'CLAS/OC' };

let env;
let client;
let main;
let folder;
before(async () => {
  env = await connectedClient();
  client = env.client;
  main = await client.lifecycle.resolveAffUri(ORDER);
  folder = main.slice(0, main.lastIndexOf('/') + 1);
});
after(async () => {
  await env?.close();
});

const file = (suffix) => main.replace(/\.clas\.abap$/, suffix);

/** The URI a message is about (`uri`, or `textDocument.uri`). */
const uriOf = (m) => m.params?.uri ?? m.params?.textDocument?.uri;

/** `<method> <file>[ <content>]` of every message since `mark` about a file of this object. */
function objectMessages(mark) {
  return env.wire
    .since(mark)
    .filter((m) => typeof uriOf(m) === 'string' && uriOf(m).startsWith(folder))
    .map((m) => {
      const name = uriOf(m).slice(folder.length);
      const content = typeof m.params.content === 'string' ? ` ${m.params.content}` : '';
      return `${m.method.split('/').pop()} ${name}${content}`;
    });
}

test('concurrent calls on one object: each whole operation reaches adt-ls after the previous one ended', async () => {
  const tests = file('.clas.testclasses.abap');
  const mark = env.wire.mark();
  const gate = env.sap.control.pauseNext('adtLs/fileSystem/readFile');
  const activeRead = client.source.read({ ...ORDER, uri: main, version: 'active' });
  await gate.reached;
  // Started while the active read holds the object (its readFile is held at SAP).
  const others = [
    client.repository.writeFile(tests, '" A\n'),
    client.repository.readFile(file('.clas.json')),
    client.lifecycle.update({ ...ORDER, uri: main, include: 'testclasses', source: '" B\n' }),
    client.repository.abapStat(file('.clas.definitions.abap')),
    client.navigation.documentSymbols(ORDER),
    client.source.read({ ...ORDER, include: 'macros' }),
  ];
  // Without the queue these would reach adt-ls now; give them a chance (bounded) to show it.
  await until(() => objectMessages(mark).length > 4, 1500);
  gate.release();
  await activeRead;
  await Promise.all(others);
  const seen = objectMessages(mark);
  const m = 'zcl_sim_order.clas.abap';
  assert.deepEqual(seen.slice(0, 7), [
    `abapStat ${m}`,
    `toggleVersion ${m}`,
    `abapStat ${m}`,
    `readFile ${m}`,
    `abapStat ${m}`,
    `abapStat ${m}`,
    `toggleVersion ${m}`,
  ], seen.join('\n'));
  // The calls that named their file went into the line at the call, in call order.
  const order = ['writeFile zcl_sim_order.clas.testclasses.abap " A\n', 'readFile zcl_sim_order.clas.json', 'writeFile zcl_sim_order.clas.testclasses.abap " B\n', 'abapStat zcl_sim_order.clas.definitions.abap'];
  const at = order.map((line) => seen.indexOf(line));
  assert.ok(at.every((i, k) => i > 6 && (k === 0 || i > at[k - 1])), `${at}\n${seen.join('\n')}`);
  // The navigation window is whole: readFile, didOpen, documentSymbol, didClose together.
  const open = seen.indexOf(`didOpen ${m}`);
  assert.deepEqual(seen.slice(open - 1, open + 3), [`readFile ${m}`, `didOpen ${m}`, `documentSymbol ${m}`, `didClose ${m}`]);
  assert.equal(seen.length, 7 + 4 + 4 + 1, seen.join('\n'));
});

test('two concurrent active reads of one object run one whole window after the other', async () => {
  await client.lifecycle.update({ ...ORDER, uri: main, include: 'testclasses', source: '" a tests draft\n' });
  const mark = env.wire.mark();
  const [mainActive, testsActive] = await Promise.all([
    client.source.read({ ...ORDER, uri: main, version: 'active' }),
    client.source.read({ ...ORDER, uri: main, include: 'testclasses', version: 'active' }),
  ]);
  assert.match(mainActive, /rv_total = 100\./);
  assert.match(testsActive, /use this source file for your ABAP unit test classes/);
  const window = (name) => ['abapStat', 'toggleVersion', 'abapStat', 'readFile', 'abapStat', 'abapStat', 'toggleVersion'].map((x) => `${x} ${name}`);
  assert.deepEqual(objectMessages(mark), [...window('zcl_sim_order.clas.abap'), ...window('zcl_sim_order.clas.testclasses.abap')]);
});

test('another object is not held up while one is busy', async () => {
  const gate = env.sap.control.pauseNext('adtLs/fileSystem/readFile');
  const held = client.repository.readFile(main);
  await gate.reached;
  try {
    const other = await client.lifecycle.resolveAffUri(ZCL_TEST);
    const results = await Promise.race([
      Promise.all([client.repository.readFile(other), client.source.read(ZCL_TEST_EXTRA), client.navigation.documentSymbols(ZCL_TEST)]),
      new Promise((resolve) => setTimeout(() => resolve('held up'), 20_000)),
    ]);
    assert.notEqual(results, 'held up', 'calls on other objects waited for the busy one');
  } finally {
    gate.release();
  }
  assert.match(await held, /zcl_sim_order/);
});

test('a failed operation does not block the next one on the object', async () => {
  env.sap.control.failNext('adtLs/fileSystem/readFile', { message: 'Internal error' });
  const [failed, next] = await Promise.allSettled([client.repository.readFile(main), client.repository.readFile(main)]);
  assert.equal(failed.status, 'rejected');
  assert.equal(failed.reason.message, 'Internal error');
  assert.equal(next.status, 'fulfilled');
  const missing = await rejection(assert, client.source.read({ ...ORDER, uri: file('.clas.nope.abap') }));
  assert.match(missing.message, /not found/);
  assert.match(await client.source.read({ ...ORDER, uri: main }), /zcl_sim_order/);
});

test('a queued call cancelled by its signal or timeoutMs leaves the line; later calls still run', async () => {
  const gate = env.sap.control.pauseNext('adtLs/fileSystem/readFile');
  const mark = env.wire.mark();
  const held = client.repository.readFile(main);
  await gate.reached;
  const controller = new AbortController();
  const aborted = rejection(assert, client.repository.readFile(file('.clas.json'), { signal: controller.signal }));
  const timedOut = rejection(assert, client.repository.abapStat(file('.clas.macros.abap'), { timeoutMs: 50 }));
  const later = client.repository.readFile(file('.clas.testclasses.abap'));
  controller.abort();
  assert.equal((await aborted).name, 'AbortError');
  assert.equal((await timedOut).code, 'ETIMEDOUT');
  gate.release();
  assert.match(await held, /zcl_sim_order/);
  assert.equal(typeof (await later), 'string');
  assert.equal(typeof (await client.repository.readFile(main)), 'string', 'the line is free again');
  assert.deepEqual(objectMessages(mark), [
    'readFile zcl_sim_order.clas.abap',
    'readFile zcl_sim_order.clas.testclasses.abap',
    'readFile zcl_sim_order.clas.abap',
  ], 'the cancelled calls never reached adt-ls');
});

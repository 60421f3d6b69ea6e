// Source versions and directories through the public API on the simulator (C11,
// C12): repository.readDirectory, repository.abapStat, and source.read({ version }) with the
// exact request window of live adt-ls (check, toggle, check, read, check, check, toggle back;
// without a draft: check, read, check), its two errors, the restore after an error or a
// cancelled call, per-file versions, and another user's draft never being served.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ZCL_TEST, connectedClient, rejection, freshClassName } from './fixtures/namespaces/support.mjs';

const ORDER = { name: 'ZCL_SIM_ORDER', objectType: 'CLAS/OC' };
const lf = (text) => text.replace(/\r\n/g, '\n');

let env;
let client;
let repo;
before(async () => {
  env = await connectedClient();
  client = env.client;
  repo = env.sap.control.repository;
});
after(async () => {
  await env?.close();
});

/** `[method, file name]` of the requests since `mark` that name a file URI. */
function fileRequests(mark) {
  return env.wire
    .since(mark)
    .filter((m) => typeof m.params?.uri === 'string')
    .map((m) => [m.method.replace('adtLs/fileSystem/', ''), m.params.uri.slice(m.params.uri.lastIndexOf('/') + 1)]);
}

const WINDOW = (file) => [
  ['abapStat', file],
  ['toggleVersion', file],
  ['abapStat', file],
  ['readFile', file],
  ['abapStat', file],
  ['abapStat', file],
  ['toggleVersion', file],
];

test('readDirectory: directories and files of a repotree folder, [] for a file, a coded error for no listing', async () => {
  const mark = env.wire.mark();
  assert.deepEqual(await client.repository.readDirectory('abap:/repotree-v1/ADTLS/'), [
    { name: 'Local Objects ($TMP)', kind: 'directory' },
    { name: 'System Library', kind: 'directory' },
  ]);
  assert.deepEqual(env.wire.since(mark, 'adtLs/fileSystem/readDirectory')[0].params, { uri: 'abap:/repotree-v1/ADTLS/' });
  const file = await client.lifecycle.resolveAffUri(ZCL_TEST);
  const folder = file.slice(0, file.lastIndexOf('/') + 1);
  const entries = await client.repository.readDirectory(folder);
  assert.ok(entries.length >= 2 && entries.every((e) => e.kind === 'file'), JSON.stringify(entries));
  assert.ok(entries.some((e) => e.name === 'zcl_test.clas.abap') && entries.some((e) => e.name === 'zcl_test.clas.json'));
  const pkg = await client.repository.readDirectory('abap:/repotree-v1/ADTLS/System%20Library/ZSIM_DEMO/');
  assert.ok(pkg.some((e) => e.name === 'Source Code Library' && e.kind === 'directory'));
  assert.deepEqual(await client.repository.readDirectory(file), []);
  assert.deepEqual(await client.repository.readDirectory('abap:/repotree-v1/ADTLS/Nowhere/'), []);
  const none = await rejection(assert, client.repository.readDirectory('/sap/bc/adt/packages/zsim_demo'));
  assert.equal(none.message, 'readDirectory returned no listing for /sap/bc/adt/packages/zsim_demo');
  assert.equal(none.code, 'ERR_UNEXPECTED_ANSWER');
  const typed = await rejection(assert, client.repository.readDirectory(42));
  assert.equal(typed.message, 'uri must be a string, received type number (42)');
});

test("abapStat: 'inactive' while the user's draft of that file is served, per file", async () => {
  const main = await client.lifecycle.resolveAffUri(ORDER);
  const tests = main.replace(/\.clas\.abap$/, '.clas.testclasses.abap');
  const mark = env.wire.mark();
  assert.equal(await client.repository.abapStat(main), 'inactive');
  assert.equal(await client.repository.abapStat(tests), 'active');
  assert.equal(await client.repository.abapStat(await client.lifecycle.resolveAffUri(ZCL_TEST)), 'active');
  assert.deepEqual(env.wire.since(mark, 'adtLs/fileSystem/abapStat')[0].params, { uri: main });
  const missing = await rejection(assert, client.repository.abapStat(main.replace('ZCL_SIM_ORDER', 'ZCL_SIM_GONE')));
  assert.match(missing.message, /not found/);
});

test("source.read({ version: 'active' }) with a draft: the live window, then the draft is served again", async () => {
  const main = await client.lifecycle.resolveAffUri(ORDER);
  const mark = env.wire.mark();
  const active = await client.source.read({ ...ORDER, uri: main, version: 'active' });
  assert.equal(lf(active), repo.get('ZCL_SIM_ORDER', 'CLAS/OC').sources.main);
  assert.deepEqual(fileRequests(mark), WINDOW('zcl_sim_order.clas.abap'));
  assert.equal(await client.repository.abapStat(main), 'inactive');
  assert.match(await client.source.read(ORDER), /rv_total = 90\./, 'the draft is served afterwards');
  assert.match(await client.source.read({ ...ORDER, version: 'inactive' }), /rv_total = 90\./);
});

test("source.read: without a draft, 'active' is check, read, check; 'inactive' and the default are one plain read", async () => {
  const uri = await client.lifecycle.resolveAffUri(ZCL_TEST);
  let mark = env.wire.mark();
  assert.match(await client.source.read({ ...ZCL_TEST, uri, version: 'active' }), /^CLASS zcl_test DEFINITION/);
  assert.deepEqual(fileRequests(mark), [
    ['abapStat', 'zcl_test.clas.abap'],
    ['readFile', 'zcl_test.clas.abap'],
    ['abapStat', 'zcl_test.clas.abap'],
  ]);
  mark = env.wire.mark();
  await client.source.read({ ...ZCL_TEST, uri, version: 'inactive' });
  await client.source.read({ ...ZCL_TEST, uri });
  await client.source.read({ ...ZCL_TEST, uri, version: null });
  assert.deepEqual(fileRequests(mark), [
    ['readFile', 'zcl_test.clas.abap'],
    ['readFile', 'zcl_test.clas.abap'],
    ['readFile', 'zcl_test.clas.abap'],
  ]);
});

test('an include-only draft: the active read toggles that include only; the main file stays untouched', async () => {
  const name = freshClassName('VER');
  const ref = { name, objectType: 'CLAS/OC' };
  await client.lifecycle.create({ ...ref, packageName: '$TMP', description: 'versions' });
  assert.equal((await client.lifecycle.activate(ref)).success, true);
  const original = await client.source.read({ ...ref, include: 'testclasses' });
  await client.lifecycle.update({ ...ref, include: 'testclasses', source: '" a draft of the tests\n' });
  const mark = env.wire.mark();
  assert.equal(lf(await client.source.read({ ...ref, include: 'testclasses', version: 'active' })), lf(original));
  const file = `${name.toLowerCase()}.clas.testclasses.abap`;
  assert.deepEqual(fileRequests(mark), WINDOW(file));
  const mainMark = env.wire.mark();
  assert.match(await client.source.read({ ...ref, version: 'active' }), /DEFINITION/);
  assert.deepEqual(fileRequests(mainMark).map(([m]) => m), ['abapStat', 'readFile', 'abapStat'], 'the main file has no draft: no toggle');
  assert.equal(lf(await client.source.read({ ...ref, include: 'testclasses' })), '" a draft of the tests\n');
  await client.lifecycle.delete(ref);
});

test("another user's draft is never served: the active version, abapStat 'active', no toggle", async () => {
  const obj = repo.get('ZCL_SIM_FLIGHT_QUERY', 'CLAS/OC');
  const active = obj.sources.main;
  repo.writePart(obj, 'main', `${active}" ALICE was here\n`, 'ALICE');
  const ref = { name: 'ZCL_SIM_FLIGHT_QUERY', objectType: 'CLAS/OC' };
  const uri = await client.lifecycle.resolveAffUri(ref);
  assert.equal(await client.source.read(ref), active);
  assert.equal(await client.repository.abapStat(uri), 'active');
  const mark = env.wire.mark();
  assert.equal(await client.source.read({ ...ref, uri, version: 'active' }), active);
  assert.deepEqual(fileRequests(mark).map(([m]) => m), ['abapStat', 'readFile', 'abapStat']);
  const refused = await rejection(assert, client.lifecycle.update({ ...ref, uri, source: active }));
  assert.match(refused.message, /has an inactive version of user ALICE/);
});

test('no active version to switch to: ERR_VERSION_NOT_SWITCHED, nothing toggled back', async () => {
  const name = freshClassName('NEW');
  const ref = { name, objectType: 'CLAS/OC' };
  const { filePath } = await client.lifecycle.create({ ...ref, packageName: '$TMP', description: 'never activated' });
  const mark = env.wire.mark();
  const error = await rejection(assert, client.source.read({ ...ref, uri: filePath, version: 'active' }));
  assert.equal(error.message, `adt-ls did not switch ${filePath} to the active version.`);
  assert.equal(error.code, 'ERR_VERSION_NOT_SWITCHED');
  assert.deepEqual(fileRequests(mark).map(([m]) => m), ['abapStat', 'toggleVersion', 'abapStat', 'abapStat']);
  await client.lifecycle.delete({ ...ref, uri: filePath });
});

test('a raw write during the active read: ERR_VERSION_CHANGED, and the write is not toggled away', async () => {
  const main = await client.lifecycle.resolveAffUri(ORDER);
  const draft = await client.source.read(ORDER);
  const gate = env.sap.control.pauseNext('adtLs/fileSystem/readFile');
  const read = rejection(assert, client.source.read({ ...ORDER, uri: main, version: 'active' }));
  await gate.reached;
  // raw.* bypasses the object queue, as upstream documents.
  await client.raw.lsp('adtLs/fileSystem/writeFile', { uri: main, content: draft });
  gate.release();
  const error = await read;
  assert.equal(error.message, `The served version of ${main} changed during the active read; retry without concurrent raw calls.`);
  assert.equal(error.code, 'ERR_VERSION_CHANGED');
  assert.equal(await client.repository.abapStat(main), 'inactive');
  assert.equal(await client.source.read(ORDER), draft);
});

test('a call cancelled inside the active read still restores the draft before the next operation runs', async () => {
  const main = await client.lifecycle.resolveAffUri(ORDER);
  const gate = env.sap.control.pauseNext('adtLs/fileSystem/readFile');
  const mark = env.wire.mark();
  const controller = new AbortController();
  const read = rejection(assert, client.source.read({ ...ORDER, uri: main, version: 'active' }, { signal: controller.signal }));
  await gate.reached;
  controller.abort();
  assert.equal((await read).name, 'AbortError');
  const next = client.source.read({ ...ORDER, uri: main });
  gate.release();
  assert.match(await next, /rv_total = 90\./, 'the next read sees the draft');
  assert.deepEqual(fileRequests(mark), [...WINDOW('zcl_sim_order.clas.abap'), ['readFile', 'zcl_sim_order.clas.abap']]);
});

test("version: another value is refused by name before anything is sent", async () => {
  const mark = env.wire.mark();
  for (const [version, code, shown] of [
    ['ACTIVE', 'ERR_INVALID_ARG_VALUE', "type string ('ACTIVE')"],
    ['draft', 'ERR_INVALID_ARG_VALUE', "type string ('draft')"],
    [1, 'ERR_INVALID_ARG_TYPE', 'type number (1)'],
  ]) {
    const error = await rejection(assert, client.source.read({ ...ORDER, version }));
    assert.equal(error.message, `args.version must be one of 'active', 'inactive', received ${shown}`);
    assert.equal(error.code, code);
  }
  assert.deepEqual(env.wire.since(mark), []);
});

// Object resolution as live adt-ls 1.1.2 needs it (C2, C10, C14), through the public
// API on the simulator, whose adt-ls cannot filter a quick search by SRVD/SRV, BDEF/BDO,
// DDLX/EX or NROB/NRO: those are searched by their main type at once (one search, never
// two), any other subtype that finds nothing at all is retried once by its main type (no
// revive in between), and a ref that carries its repotree `uri` is used without a search
// (after the destination guard) by every method that resolves.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  ZCL_TEST,
  ZIF_FLIGHT,
  BINDING_V2,
  BINDING_V4,
  connectedClient,
  rejection,
  freshClassName,
} from './fixtures/namespaces/support.mjs';

let env;
let client;
before(async () => {
  env = await connectedClient();
  client = env.client;
});
after(async () => {
  await env?.close();
});

/** The quickSearch requests for `pattern` since `mark`, as their `types`. */
const searchedTypes = (mark, pattern) =>
  env.wire
    .since(mark, 'adtLs/repository/quickSearch')
    .filter((m) => m.params.pattern === pattern)
    .map((m) => m.params.types);

/** Methods (and params' URIs) that reached adt-ls since `mark`. */
const sent = (mark) => env.wire.since(mark).map((m) => m.method);

test('SRVD/SRV, BDEF/BDO, DDLX/EX and NROB/NRO are searched by their main type: one search, then getLsUri', async () => {
  for (const [name, objectType, main] of [
    ['ZUI_SIM_FLIGHT', 'SRVD/SRV', 'SRVD'],
    ['ZR_SIM_FLIGHT', 'BDEF/BDO', 'BDEF'],
    ['ZC_SIM_FLIGHT', 'DDLX/EX', 'DDLX'],
    ['ZSIM_FLNR', 'NROB/NRO', 'NROB'],
  ]) {
    const mark = env.wire.mark();
    const source = await client.source.read({ name, objectType });
    assert.ok(source.length > 0, objectType);
    assert.deepEqual(searchedTypes(mark, name), [[main]], objectType);
    assert.deepEqual(sent(mark), ['adtLs/repository/quickSearch', 'adtLs/repository/getLsUri', 'adtLs/fileSystem/readFile'], objectType);
  }
  const uri = await client.lifecycle.resolveAffUri({ name: 'ZUI_SIM_FLIGHT', objectType: 'srvd/srv' });
  assert.match(uri, /\/zui_sim_flight\.srvd\.acds$/, 'the subtype is matched case-insensitively');
});

test('an unfilterable subtype that finds nothing is searched once (cold retry only) and keeps the subtype in the error', async () => {
  const mark = env.wire.mark();
  const error = await rejection(assert, client.lifecycle.resolveAffUri({ name: 'ZUI_NOPE', objectType: 'SRVD/SRV' }));
  assert.equal(error.message, 'Object ZUI_NOPE (SRVD/SRV) not found via search.');
  assert.equal(error.code, 'ERR_NOT_FOUND');
  assert.deepEqual(searchedTypes(mark, 'ZUI_NOPE'), [['SRVD'], ['SRVD'], ['SRVD']], 'three cold attempts, no main-type repeat');
});

test('repository.search sends the searchable types: affected subtypes become the main type, de-duplicated, first kept', async () => {
  let mark = env.wire.mark();
  const hits = await client.repository.search('ZUI_SIM_FLIGHT*', { types: ['SRVD/SRV', 'SRVD', 'SRVB/SVB'] });
  assert.deepEqual(env.wire.since(mark, 'adtLs/repository/quickSearch')[0].params.types, ['SRVD', 'SRVB/SVB']);
  assert.deepEqual(hits.references.map((r) => r.name).sort(), ['ZUI_SIM_FLIGHT', 'ZUI_SIM_FLIGHT_O2', 'ZUI_SIM_FLIGHT_O4']);
  mark = env.wire.mark();
  await client.repository.search('Z*', { types: ['TABL/DS', 'PROG/I', 'TABL/DS'] });
  assert.deepEqual(env.wire.since(mark, 'adtLs/repository/quickSearch')[0].params.types, ['TABL/DS', 'PROG/I', 'TABL/DS'], 'other lists unchanged');
  mark = env.wire.mark();
  await client.repository.search('ZCL_TEST');
  assert.deepEqual(env.wire.since(mark, 'adtLs/repository/quickSearch')[0].params.types, []);
});

test('a type without a subtype, or a subtyped search with hits, is not retried by the main type', async () => {
  let mark = env.wire.mark();
  await rejection(assert, client.lifecycle.resolveAffUri({ name: 'ZCL_TES', objectType: 'CLAS/OC' }));
  assert.deepEqual(searchedTypes(mark, 'ZCL_TES'), [['CLAS/OC']], 'the typed search had hits, just not this name');
  mark = env.wire.mark();
  const error = await rejection(assert, client.lifecycle.resolveAffUri({ name: 'ZCL_NOPE', objectType: 'CLAS' }));
  assert.equal(error.message, 'Object ZCL_NOPE (CLAS) not found via search.');
  assert.deepEqual(searchedTypes(mark, 'ZCL_NOPE'), [['CLAS'], ['CLAS'], ['CLAS']]);
});

test('ref.uri: no search or getLsUri before any resolving method, and the call works', async () => {
  const uri = await client.lifecycle.resolveAffUri(ZCL_TEST);
  const binding = await client.lifecycle.resolveAffUri(BINDING_V2);
  const binding4 = await client.lifecycle.resolveAffUri(BINDING_V4);
  const ref = { ...ZCL_TEST, uri };
  const calls = {
    'source.read': () => client.source.read(ref),
    'lifecycle.resolveAffUri': () => client.lifecycle.resolveAffUri(ref),
    'lifecycle.runUnitTests': () => client.lifecycle.runUnitTests(ref),
    'navigation.documentSymbols': () => client.navigation.documentSymbols(ref),
    'navigation.checkSyntax': () => client.navigation.checkSyntax(ref),
    'navigation.goToDefinition': () => client.navigation.goToDefinition(ref, { symbol: 'add' }),
    'navigation.goToDeclaration': () => client.navigation.goToDeclaration(ref, { symbol: 'add' }),
    'navigation.hover': () => client.navigation.hover(ref, { symbol: 'add' }),
    'navigation.documentHighlight': () => client.navigation.documentHighlight(ref, { symbol: 'add' }),
    'navigation.findReferences': () => client.navigation.findReferences(ref, { symbol: 'add' }),
    'navigation.typeHierarchy': () => client.navigation.typeHierarchy(ref, { line: 1, character: 7 }),
    'navigation.completion': () => client.navigation.completion(ref, { line: 3, character: 1 }),
    'navigation.format': () => client.navigation.format(ref),
    'navigation.semanticTokens': () => client.navigation.semanticTokens(ref),
    'quality.listAtcVariants': () => client.quality.listAtcVariants(ref),
    'quality.runAtc': () => client.quality.runAtc(ref),
    'quality.runUnitTestsWithCoverage': () => client.quality.runUnitTestsWithCoverage(ref),
    'services.runApplication': () => client.services.runApplication(ref),
    'services.serviceBindingDetails': () => client.services.serviceBindingDetails({ ...BINDING_V2, uri: binding }),
    // Twice: publishing toggles, the second call restores the binding's state.
    'services.publishServiceBinding': () => client.services.publishServiceBinding({ ...BINDING_V4, uri: binding4 }),
    'services.publishServiceBinding again': () => client.services.publishServiceBinding({ ...BINDING_V4, uri: binding4 }),
    'transport.check': () => client.transport.check(ref),
    'transport.getLockStatus': () => client.transport.getLockStatus(ref),
    'transport.assign': () => client.transport.assign({ ...ref, transport: 'A4HK900101' }),
  };
  for (const [name, call] of Object.entries(calls)) {
    const mark = env.wire.mark();
    await call();
    const methods = sent(mark);
    assert.ok(!methods.includes('adtLs/repository/quickSearch'), `${name} searched: ${methods}`);
    assert.ok(!methods.includes('adtLs/repository/getLsUri'), `${name} asked getLsUri: ${methods}`);
  }
  assert.equal(await client.lifecycle.resolveAffUri(ref), uri, 'returned verbatim');
  assert.equal(await client.services.runApplication(ref).then((r) => r.output), '2 + 3 = 5\n');
});

test("ref.uri: lifecycle.create's filePath drives update, activate and delete without a search", async () => {
  const name = freshClassName('URI');
  const { filePath } = await client.lifecycle.create({ name, objectType: 'CLAS/OC', packageName: '$TMP', description: 'by uri' });
  const ref = { name, objectType: 'CLAS/OC', uri: filePath };
  const lower = name.toLowerCase();
  const mark = env.wire.mark();
  await client.lifecycle.update({ ...ref, source: `CLASS ${lower} DEFINITION PUBLIC FINAL CREATE PUBLIC.\nENDCLASS.\nCLASS ${lower} IMPLEMENTATION.\nENDCLASS.\n` });
  assert.equal((await client.lifecycle.activate(ref)).success, true);
  await client.lifecycle.delete(ref);
  assert.deepEqual(sent(mark), ['adtLs/fileSystem/writeFile', 'adtLs/activation/activate', 'adtLs/fileSystem/delete']);
  assert.equal(env.wire.last('adtLs/fileSystem/delete').uri, filePath.replace(/\.clas\.abap$/, '.clas.json'));
});

test('ref.uri: the include rewrite, D5.15 on a non-class, and an empty string falls back to the name search', async () => {
  const uri = await client.lifecycle.resolveAffUri(ZCL_TEST);
  let mark = env.wire.mark();
  const tests = await client.source.read({ ...ZCL_TEST, uri, include: 'testclasses' });
  assert.deepEqual(sent(mark), ['adtLs/fileSystem/readFile']);
  assert.equal(env.wire.since(mark, 'adtLs/fileSystem/readFile')[0].params.uri, uri.replace(/\.clas\.abap$/, '.clas.testclasses.abap'));
  assert.equal(tests, await client.source.read({ ...ZCL_TEST, include: 'testclasses' }));
  const intf = await client.lifecycle.resolveAffUri(ZIF_FLIGHT);
  const noIncludes = await rejection(assert, client.source.read({ ...ZIF_FLIGHT, uri: intf, include: 'testclasses' }));
  assert.equal(noIncludes.code, 'ERR_INVALID_ARG');
  assert.match(noIncludes.message, /^Object ZIF_SIM_FLIGHT \(INTF\/OI\) has no includes/);
  mark = env.wire.mark();
  assert.match(await client.source.read({ ...ZCL_TEST, uri: '' }), /^CLASS zcl_test DEFINITION/);
  assert.deepEqual(searchedTypes(mark, 'ZCL_TEST'), [['CLAS/OC']]);
});

test("ref.uri: a URI of another destination, or not a repotree URI, is refused before anything is sent", async () => {
  const uri = await client.lifecycle.resolveAffUri(ZCL_TEST);
  const mark = env.wire.mark();
  for (const bad of [uri.replace('/ADTLS/', '/OTHER/'), uri.replace('/ADTLS/', '/adtls/'), '/sap/bc/adt/oo/classes/zcl_test', 'abap:/repotree-v1/%E0%A4%A/x.clas.abap']) {
    for (const call of [() => client.source.read({ ...ZCL_TEST, uri: bad }), () => client.navigation.hover({ ...ZCL_TEST, uri: bad }, { symbol: 'add' })]) {
      const error = await rejection(assert, call());
      assert.equal(error.message, `uri of ZCL_TEST is not a repotree URI of destination ADTLS: ${bad}`);
      assert.equal(error.code, 'ERR_INVALID_ARG_VALUE');
    }
  }
  const typed = await rejection(assert, client.source.read({ ...ZCL_TEST, uri: 5 }));
  assert.equal(typed.message, 'ref.uri must be a string, received type number (5)');
  assert.equal(typed.code, 'ERR_INVALID_ARG_TYPE');
  assert.deepEqual(sent(mark), []);
});

test('a subtype that finds nothing at all is retried once by its main type, without a revive in between', async () => {
  // This adt-ls also cannot filter by INTF/OI (ADTLS_SIM_UNFILTERABLE_TYPES), a subtype the
  // client does not know to be affected: the generic retry finds it.
  const other = await connectedClient({ ADTLS_SIM_UNFILTERABLE_TYPES: 'INTF/OI' });
  try {
    let mark = other.wire.mark();
    assert.match(await other.client.lifecycle.resolveAffUri(ZIF_FLIGHT), /\/zif_sim_flight\.intf\.abap$/);
    const searches = other.wire.since(mark, 'adtLs/repository/quickSearch').map((m) => `${m.params.pattern} ${m.params.types}`);
    assert.deepEqual(searches, ['ZIF_SIM_FLIGHT INTF/OI', 'ZIF_SIM_FLIGHT INTF/OI', 'ZIF_SIM_FLIGHT INTF/OI', 'CL_ABAP_TYPEDESCR CLAS/OC', 'ZIF_SIM_FLIGHT INTF']);
    assert.deepEqual(other.wire.since(mark).at(-1).method, 'adtLs/repository/getLsUri');
    mark = other.wire.mark();
    const miss = await rejection(assert, other.client.lifecycle.resolveAffUri({ name: 'ZIF_SIM_FLIGH', objectType: 'INTF/OI' }));
    assert.equal(miss.message, 'Object ZIF_SIM_FLIGH (INTF/OI) not found via search.', 'the retry still needs the exact name');
    assert.deepEqual(other.wire.since(mark, 'adtLs/repository/quickSearch').at(-1).params.types, ['INTF']);
  } finally {
    await other.close();
  }
});

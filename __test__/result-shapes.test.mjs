// Every AdtLsClient method's real result on the simulator matches its declared result type.
// The methods are read from index.d.ts's AdtLsClient (namespaces walked with
// the compiler API), each awaited result type becomes a JSON Schema
// (ts-json-schema-generator, run once under Node by support/result-schemas.mjs so Bun reuses
// it), and ajv validates what the call returned on a connected client. A declared method
// without a schema, or without a call below, fails with its name (the event methods on /
// once / off, which return functions, are covered by events.test.mjs).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import Ajv from 'ajv';
import { ROOT } from './helpers.mjs';
import { ZCL_TEST, ZCL_FLIGHT_QUERY, BINDING_V2, BINDING_V4, connectedClient, freshClassName } from './fixtures/namespaces/support.mjs';

const TYPEDESCR = { name: 'CL_ABAP_TYPEDESCR', objectType: 'CLAS/OC' };
const FRESH = { name: freshClassName('SHAPE'), objectType: 'CLAS/OC' };
/** A second class, whose file the repository file-system calls write and delete. */
const WRITTEN = freshClassName('SHAPEW').toLowerCase();
const source = (lower) => [
  `CLASS ${lower} DEFINITION PUBLIC FINAL CREATE PUBLIC.`,
  '  PUBLIC SECTION.',
  '    METHODS run.',
  'ENDCLASS.',
  `CLASS ${lower} IMPLEMENTATION.`,
  '  METHOD run.',
  '  ENDMETHOD.',
  'ENDCLASS.',
  '',
].join('\n');
const SOURCE = source(FRESH.name.toLowerCase());

/**
 * One realistic call per client method, run in this order on one connected client (the
 * lifecycle methods work on a fresh $TMP class; `dispose` comes last). `state` carries
 * values between calls.
 */
const CALLS = {
  capabilities: (c) => c.capabilities(),
  'repository.search': (c) => c.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] }),
  'repository.getUsers': (c) => c.repository.getUsers(),
  'repository.getLsUri': (c) => c.repository.getLsUri('/sap/bc/adt/oo/classes/zcl_test'),
  'repository.readFile': async (c) => c.repository.readFile(await c.repository.getLsUri('/sap/bc/adt/oo/classes/zcl_test')),
  'repository.listInactive': (c) => c.repository.listInactive(),
  'repository.readDirectory': (c) => c.repository.readDirectory('abap:/repotree-v1/ADTLS/System%20Library/ZSIM_DEMO/'),
  'repository.abapStat': async (c) => c.repository.abapStat(await c.lifecycle.resolveAffUri({ name: 'ZCL_SIM_ORDER', objectType: 'CLAS/OC' })),
  'source.read': (c) => c.source.read(ZCL_TEST),
  'lifecycle.resolveAffUri': (c) => c.lifecycle.resolveAffUri(BINDING_V2),
  'lifecycle.validate': (c) => c.lifecycle.validate({ ...FRESH, packageName: '$TMP', description: 'shape check', additionalFields: {} }),
  'lifecycle.create': (c) => c.lifecycle.create({ ...FRESH, packageName: '$TMP', description: 'shape check' }),
  'lifecycle.update': (c) => c.lifecycle.update({ ...FRESH, source: SOURCE }),
  'lifecycle.activate': (c) => c.lifecycle.activate(FRESH),
  'lifecycle.runUnitTests': (c) => c.lifecycle.runUnitTests(ZCL_TEST),
  'lifecycle.delete': (c) => c.lifecycle.delete(FRESH),
  'repository.writeFile': async (c, state) => {
    await c.lifecycle.create({ name: WRITTEN.toUpperCase(), objectType: 'CLAS/OC', packageName: '$TMP', description: 'shape check' });
    state.writtenUri = await c.repository.getLsUri(`/sap/bc/adt/oo/classes/${WRITTEN}`);
    return c.repository.writeFile(state.writtenUri, source(WRITTEN));
  },
  'repository.delete': (c, state) => c.repository.delete(state.writtenUri.replace(/\.clas\.abap$/, '.clas.json')),
  'lifecycle.listCreatableObjects': (c) => c.lifecycle.listCreatableObjects(),
  'lifecycle.getObjectTypeDetails': (c) => c.lifecycle.getObjectTypeDetails('CLAS/OC'),
  // A service binding's form has a choice field (values) and value help.
  'lifecycle.getCreationForm': (c) => c.lifecycle.getCreationForm('SRVB/SVB'),
  'lifecycle.listGenerators': (c) => c.lifecycle.listGenerators(),
  'lifecycle.getGeneratorSchema': (c) => c.lifecycle.getGeneratorSchema('x-ui-service'),
  'lifecycle.generate': (c) =>
    c.lifecycle.generate({
      generatorId: 'x-ui-service',
      content: JSON.stringify({ businessObjectName: `B${FRESH.name.slice(-6)}` }),
      packageName: '$TMP',
    }),
  'navigation.documentSymbols': (c) => c.navigation.documentSymbols(TYPEDESCR),
  'navigation.checkSyntax': (c) => c.navigation.checkSyntax(ZCL_TEST),
  'navigation.goToDefinition': (c) => c.navigation.goToDefinition(ZCL_TEST, { symbol: 'add' }),
  'navigation.goToDeclaration': (c) => c.navigation.goToDeclaration(ZCL_TEST, { symbol: 'add' }),
  'navigation.hover': (c) => c.navigation.hover(ZCL_TEST, { symbol: 'add' }),
  'navigation.documentHighlight': (c) => c.navigation.documentHighlight(ZCL_TEST, { symbol: 'add' }),
  'navigation.findReferences': (c) => c.navigation.findReferences(TYPEDESCR, { symbol: 'describe_by_name' }),
  'navigation.typeHierarchy': (c) => c.navigation.typeHierarchy(ZCL_FLIGHT_QUERY, { line: 3, character: 1 }),
  'navigation.completion': (c) => c.navigation.completion(ZCL_TEST, { line: 3, character: 1 }, { maxItems: 20, resolve: true, resolveLimit: 2 }),
  'navigation.format': (c) => c.navigation.format(ZCL_TEST, { tabSize: 2, insertSpaces: true }),
  'navigation.semanticTokens': (c) => c.navigation.semanticTokens(ZCL_TEST),
  'quality.listAtcVariants': (c) => c.quality.listAtcVariants(ZCL_TEST),
  'quality.runAtc': (c) => c.quality.runAtc(ZCL_TEST),
  'quality.runUnitTestsWithCoverage': (c) => c.quality.runUnitTestsWithCoverage(ZCL_TEST),
  'services.runApplication': (c) => c.services.runApplication(ZCL_TEST),
  'services.serviceBindingDetails': (c) => c.services.serviceBindingDetails(BINDING_V2),
  'services.publishServiceBinding': (c) => c.services.publishServiceBinding(BINDING_V4),
  'services.listServices': (c) => c.services.listServices(BINDING_V2),
  'services.getServiceInfo': (c) => c.services.getServiceInfo(BINDING_V2),
  'transport.find': (c) => c.transport.find({ objectName: FRESH.name, objectType: 'CLAS/OC', developmentPackage: '$TMP', isCreation: true }),
  'transport.create': (c) =>
    c.transport.create({
      developmentPackage: 'ZSIM_DEMO',
      transportDescription: 'adt-ls-native shape check',
      isCreation: false,
      objectName: ZCL_FLIGHT_QUERY.name,
      objectType: ZCL_FLIGHT_QUERY.objectType,
    }),
  'transport.assign': (c) => c.transport.assign({ ...ZCL_FLIGHT_QUERY, transport: 'A4HK900101' }),
  'transport.list': (c) => c.transport.list({ limit: 10 }),
  'transport.check': (c) => c.transport.check(ZCL_TEST),
  'transport.getLockStatus': (c) => c.transport.getLockStatus(ZCL_TEST),
  'transport.getDiff': (c) => c.transport.getDiff('A4HK900101', { pageSize: 40 }),
  'transport.diffPages': async (c) => {
    const pages = [];
    for await (const page of c.transport.diffPages('A4HK900101', { pageSize: 40 })) pages.push(page);
    return pages;
  },
  'raw.lsp': (c) => c.raw.lsp('adtLs/repository/getLsUri', { destination: 'ADTLS', adtUri: '/sap/bc/adt/oo/classes/zcl_test' }),
  'raw.tool': (c) => c.raw.tool('abap_list_destinations', {}),
  listDestinations: (c) => c.listDestinations(),
  health: (c) => c.health(),
  reconnect: (c) => c.reconnect(),
  dispose: (c) => c.dispose(),
};

/** The schemas, generated under Node (also when this file runs under Bun). */
function loadSchemas() {
  const node = process.versions.bun ? 'node' : process.execPath;
  const script = join(ROOT, '__test__', 'support', 'result-schemas.mjs');
  const out = execFileSync(node, [script], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
  return JSON.parse(out).methods;
}

/**
 * The client's event methods return a remover function (or nothing), not a JSON result: their
 * behaviour is checked in events.test.mjs and their arguments in validation.test.mjs.
 */
const EVENT_METHODS = ['on', 'once', 'off'];
const methods = loadSchemas().filter((m) => !EVENT_METHODS.includes(m.path.join('.')));
const declared = new Map(methods.map((m) => [m.path.join('.'), m]));
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });

let env;
const state = {};
before(async () => {
  env = await connectedClient();
});
after(async () => {
  await env?.sap.close();
});

test('the schema generator found the client methods, namespaces included', () => {
  for (const name of ['capabilities', 'repository.search', 'navigation.hover', 'transport.getDiff', 'dispose']) {
    assert.ok(declared.has(name), `${name} was not found in AdtLsClient`);
  }
});

test('every schema of a declared type other than unknown rejects a value of another type', () => {
  // Guards against a generator that turns a type it cannot evaluate into `{}` (anything goes).
  const lax = methods.filter((m) => m.schema && m.type !== 'unknown' && m.type !== 'void' && ajv.validate(m.schema, 42));
  assert.deepEqual(lax.map((m) => `${m.path.join('.')}: ${m.type}`), []);
  assert.ok(methods.some((m) => m.type === 'QuickSearchResult'), 'expected repository.search to be declared with QuickSearchResult');
});

for (const name of declared.keys()) {
  if (!(name in CALLS)) {
    test(`${name}: the runtime-shape check has a call for it`, () => {
      assert.fail(`${name} is declared on AdtLsClient but result-shapes.test.mjs has no call for it: add one to CALLS`);
    });
  }
}

for (const [name, call] of Object.entries(CALLS)) {
  test(`${name}: the real result matches the declared type`, async () => {
    const method = declared.get(name);
    assert.ok(method, `${name} is called here but not declared on AdtLsClient`);
    assert.ok(method.schema, `no JSON Schema could be made of ${name}'s result type ${method.type}: ${method.error}`);
    const result = await call(env.client, state);
    if (method.type === 'void') {
      assert.equal(result, undefined, `${name} is declared to resolve to void`);
      return;
    }
    const validate = ajv.compile(method.schema);
    // An iterating method's call collects what it yielded; each value must match the element type.
    if (method.iterates) assert.ok(Array.isArray(result) && result.length > 0, `${name} yielded nothing`);
    for (const value of method.iterates ? result : [result]) {
      const problems = validate(value) ? [] : validate.errors.map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
      assert.deepEqual(problems, [], `${name} returned ${JSON.stringify(value)?.slice(0, 2000)}\nwhich is not a ${method.type}`);
    }
  });
}

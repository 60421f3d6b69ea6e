// The `source` and `lifecycle` namespaces through the public API against the simulator in
// connected mode: the full authoring lifecycle of a $TMP class, the exact wire params of
// every call (LSP trace, MCP tool arguments), resolve's exact-name rule, cold retry and the
// missing reference list, includes and the unsupported placeholder, the write retry after a
// dead session, the creation metadata, and the 1.1.2 tool schemas (current-capabilities).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NATIVE_OPS } from '../simulator/lib/sap/ops/index.mjs';
import { SapError } from '../simulator/lib/sap/errors.mjs';
import {
  ZCL_TEST,
  ZSIM_REPORT,
  ZIF_FLIGHT,
  connectedClient,
  recordToolCalls,
  schemaProblems,
  rejection,
  freshClassName,
} from './fixtures/namespaces/support.mjs';

const TOOL_ERROR = 'ADT_TOOL_ERROR';
let env;
let client;
let tools;

before(async () => {
  tools = recordToolCalls();
  env = await connectedClient();
  client = env.client;
});
after(async () => {
  tools?.stop();
  await env?.close();
});

function mainSource(name) {
  const lower = name.toLowerCase();
  return [
    `CLASS ${lower} DEFINITION PUBLIC FINAL CREATE PUBLIC.`,
    '  PUBLIC SECTION.',
    '    METHODS double',
    '      IMPORTING iv_in TYPE i',
    '      RETURNING VALUE(rv_out) TYPE i.',
    'ENDCLASS.',
    '',
    `CLASS ${lower} IMPLEMENTATION.`,
    '  METHOD double.',
    '    rv_out = iv_in * 2.',
    '  ENDMETHOD.',
    'ENDCLASS.',
    '',
  ].join('\n');
}

function testSource(name) {
  return [
    'CLASS ltcl_double DEFINITION FINAL FOR TESTING DURATION SHORT RISK LEVEL HARMLESS.',
    '  PRIVATE SECTION.',
    '    METHODS doubles FOR TESTING.',
    'ENDCLASS.',
    '',
    'CLASS ltcl_double IMPLEMENTATION.',
    '  METHOD doubles.',
    `    cl_abap_unit_assert=>assert_equals( act = NEW ${name.toLowerCase()}( )->double( 2 ) exp = 4 ).`,
    '  ENDMETHOD.',
    'ENDCLASS.',
    '',
  ].join('\n');
}

test('authoring lifecycle: create in $TMP, update, read, activate clean and broken, unit tests, coverage, delete', async () => {
  const name = freshClassName('N1');
  const ref = { name, objectType: 'CLAS/OC' };
  const lower = name.toLowerCase();

  const created = await client.lifecycle.create({ ...ref, packageName: '$TMP', description: 'adt-ls-native N1' });
  assert.deepEqual(Object.keys(created).sort(), ['filePath', 'message']);
  assert.ok(created.filePath.endsWith(`/${lower}.clas.abap`), created.filePath);
  const createArgs = tools.last('abap_creation-create_object');
  assert.deepEqual(Object.keys(createArgs), ['destination', 'objectType', 'objectContent', 'transportRequestNumber']);
  assert.deepEqual(
    { ...createArgs, objectContent: JSON.parse(createArgs.objectContent) },
    {
      destination: 'ADTLS',
      objectType: 'CLAS/OC',
      objectContent: { name, packageName: '$TMP', description: 'adt-ls-native N1' },
      transportRequestNumber: '',
    },
  );

  const uri = await client.lifecycle.resolveAffUri(ref);
  assert.equal(uri, created.filePath);
  assert.deepEqual(env.wire.last('adtLs/repository/quickSearch'), {
    destination: 'ADTLS',
    pattern: name,
    maxResults: 20,
    types: ['CLAS/OC'],
  });
  assert.deepEqual(env.wire.last('adtLs/repository/getLsUri'), { destination: 'ADTLS', adtUri: `/sap/bc/adt/oo/classes/${lower}` });

  await client.lifecycle.update({ ...ref, source: mainSource(name) });
  assert.deepEqual(env.wire.last('adtLs/fileSystem/writeFile'), { uri, content: mainSource(name) });
  await client.lifecycle.update({ ...ref, source: testSource(name), include: 'testclasses' });
  assert.deepEqual(env.wire.last('adtLs/fileSystem/writeFile'), {
    uri: uri.replace(/\.clas\.abap$/, '.clas.testclasses.abap'),
    content: testSource(name),
  });
  assert.equal(await client.source.read(ref), mainSource(name));
  assert.equal(await client.source.read({ ...ref, include: 'testclasses' }), testSource(name));

  const clean = await client.lifecycle.activate(ref);
  assert.equal(clean.success, true);
  assert.deepEqual(clean.diagnostics, []);
  assert.deepEqual(
    [clean.checkExecuted, clean.activationExecuted, clean.generationExecuted, clean.forceSupported],
    [true, true, true, false],
  );
  assert.ok(clean.refreshedUris.includes(uri));
  assert.deepEqual(env.wire.last('adtLs/activation/activate'), {
    destination: 'ADTLS',
    fileUris: [uri],
    references: [],
    forceActivation: false,
  });

  tools.clear();
  assert.deepEqual(await client.lifecycle.runUnitTests(ref), { message: 'Overall Test Run Status: [PASSED]' });
  assert.deepEqual(tools.calls, [{ name: 'abap_run_unit_tests', args: { uris: [uri] } }]);

  const covered = await client.quality.runUnitTestsWithCoverage(ref);
  assert.equal(covered.status, 'PASSED');
  assert.equal(covered.result.passed, 1);
  assert.ok(covered.coverage.testClasses.includes('LTCL_DOUBLE'));
  assert.equal(covered.coverage.objects[0].name, name);
  assert.deepEqual(env.wire.last('adtLs/abapUnit/runTests'), { uris: [uri], measurement: 'COVERAGE' });
  const coverageParams = env.wire.last('adtLs/coverage/getCoverage');
  assert.deepEqual(Object.keys(coverageParams).sort(), ['resultId', 'uris']);
  assert.deepEqual(coverageParams.uris, [uri]);

  const broken = mainSource(name).replace('rv_out = iv_in * 2.', 'rv_out = iv_in * 2');
  await client.lifecycle.update({ ...ref, source: broken });
  const failed = await client.lifecycle.activate({ ...ref, forceActivation: true });
  assert.equal(failed.success, false);
  assert.equal(failed.activationExecuted, false);
  assert.equal(failed.diagnostics[0].fileUri, uri);
  assert.equal(failed.diagnostics[0].diagnostic[0].severity, 1);
  assert.equal(env.wire.last('adtLs/activation/activate').forceActivation, true);

  await client.lifecycle.delete(ref);
  assert.deepEqual(env.wire.last('adtLs/fileSystem/delete'), {
    uri: uri.replace(/\.clas\.abap$/, '.clas.json'),
    options: { recursive: false, force: true },
  });
  const gone = await rejection(assert, client.source.read(ref));
  assert.equal(gone.message, `Object ${name} (CLAS/OC) not found via search.`);
});

test('void writes resolve undefined', async () => {
  const name = freshClassName('NV');
  const ref = { name, objectType: 'CLAS/OC' };
  await client.lifecycle.create({ ...ref, packageName: '$TMP', description: 'void' });
  const updated = await client.lifecycle.update({ ...ref, source: mainSource(name) });
  const deleted = await client.lifecycle.delete(ref);
  assert.equal(updated, undefined);
  assert.equal(deleted, undefined);
});

test('resolve takes only an exact (case-insensitive) name: a near miss is not found and nothing is deleted', async () => {
  assert.match(await client.lifecycle.resolveAffUri({ name: 'zcl_test', objectType: 'CLAS/OC' }), /\/zcl_test\.clas\.abap$/);
  const mark = env.wire.mark();
  const error = await rejection(assert, client.lifecycle.delete({ name: 'ZCL_TEST_EX', objectType: 'CLAS/OC' }));
  assert.equal(error.message, 'Object ZCL_TEST_EX (CLAS/OC) not found via search.');
  assert.equal(env.wire.since(mark, 'adtLs/fileSystem/delete').length, 0);
  assert.equal(env.wire.since(mark, 'adtLs/repository/getLsUri').length, 0);
  const searches = env.wire.since(mark, 'adtLs/repository/quickSearch');
  assert.equal(searches.length, 1, 'a search with hits is not retried, even when none matches exactly');
  assert.deepEqual(searches[0].params, { destination: 'ADTLS', pattern: 'ZCL_TEST_EX', maxResults: 20, types: ['CLAS/OC'] });
  const hits = await client.repository.search('ZCL_TEST_EX', { types: ['CLAS/OC'] });
  assert.deepEqual(hits.references.map((r) => r.name), ['ZCL_TEST_EXTRA'], 'the near miss was found, and ignored');
});

test('resolve rides out a cold index (empty answers, then Internal error) with retries', async () => {
  env.sap.control.setCold(2, { mode: 'empty' });
  let mark = env.wire.mark();
  assert.match(await client.lifecycle.resolveAffUri(ZCL_TEST), /zcl_test\.clas\.abap$/);
  assert.equal(env.wire.since(mark, 'adtLs/repository/quickSearch').length, 3);
  env.sap.control.setCold(1, { mode: 'error' });
  mark = env.wire.mark();
  assert.match(await client.lifecycle.resolveAffUri(ZCL_TEST), /zcl_test\.clas\.abap$/);
  assert.equal(env.wire.since(mark, 'adtLs/repository/quickSearch').length, 2);
});

test('resolve without a reference list in the answer is "not found" (D5.5)', async () => {
  const original = NATIVE_OPS['adtLs/repository/quickSearch'];
  NATIVE_OPS['adtLs/repository/quickSearch'] = (payload, ctx) =>
    payload?.pattern === 'ZCL_NO_LIST' ? {} : original(payload, ctx);
  try {
    const error = await rejection(assert, client.source.read({ name: 'ZCL_NO_LIST', objectType: 'CLAS/OC' }));
    assert.equal(error.message, 'Object ZCL_NO_LIST (CLAS/OC) not found via search.');
  } finally {
    NATIVE_OPS['adtLs/repository/quickSearch'] = original;
  }
});

test('source.read: class includes, the unsupported placeholder, and no includes on an interface (D5.15)', async () => {
  assert.match(await client.source.read({ ...ZCL_TEST, include: 'testclasses' }), /FOR TESTING/);
  assert.match(env.wire.last('adtLs/fileSystem/readFile').uri, /\/zcl_test\.clas\.testclasses\.abap$/);
  assert.match(await client.source.read({ ...ZCL_TEST, include: '' }), /^CLASS zcl_test DEFINITION/);

  const placeholder = await rejection(assert, client.source.read(ZSIM_REPORT));
  assert.equal(
    placeholder.message,
    'Object type PROG/P is not served by adt-ls headless on this runtime/backend. Use Eclipse for this type or update SAPSE.adt-vscode.',
  );

  const mark = env.wire.mark();
  const noInclude = await rejection(assert, client.source.read({ ...ZIF_FLIGHT, include: 'testclasses' }));
  assert.match(noInclude.message, /^Object ZIF_SIM_FLIGHT \(INTF\/OI\) has no includes: include "testclasses"/);
  const noWrite = await rejection(assert, client.lifecycle.update({ ...ZIF_FLIGHT, include: 'definitions', source: 'x' }));
  assert.match(noWrite.message, /has no includes/);
  assert.equal(env.wire.since(mark, 'adtLs/fileSystem/readFile').length, 0);
  assert.equal(env.wire.since(mark, 'adtLs/fileSystem/writeFile').length, 0);
});

test('a write that died with the session is retried once after revive; a live session is not retried', async () => {
  const name = freshClassName('NW');
  const ref = { name, objectType: 'CLAS/OC' };
  await client.lifecycle.create({ ...ref, packageName: '$TMP', description: 'write retry' });

  const original = NATIVE_OPS['adtLs/fileSystem/writeFile'];
  let first = true;
  NATIVE_OPS['adtLs/fileSystem/writeFile'] = (payload, ctx) => {
    if (!first) return original(payload, ctx);
    first = false;
    env.sap.control.expireSessions({ mode: 'silent-empty' });
    throw new SapError('HTTP 500: stateful session terminated (context id no longer valid)', { status: 500 });
  };
  try {
    const mark = env.wire.mark();
    await client.lifecycle.update({ ...ref, source: mainSource(name) });
    assert.equal(env.wire.since(mark, 'adtLs/fileSystem/writeFile').length, 2);
    assert.equal(env.wire.since(mark, 'adtLs/destinations/ensureLoggedOn').length, 1, 'revived by a re-logon');
  } finally {
    NATIVE_OPS['adtLs/fileSystem/writeFile'] = original;
  }
  assert.equal(await client.source.read(ref), mainSource(name));

  env.sap.control.writeRace(1);
  const mark = env.wire.mark();
  const error = await rejection(assert, client.lifecycle.update({ ...ref, source: 'x' }));
  assert.match(error.message, /500/);
  assert.equal(env.wire.since(mark, 'adtLs/fileSystem/writeFile').length, 1, 'alive: no retry');
  await client.lifecycle.delete(ref);
});

test('lifecycle metadata: exact tool names and arguments, unwrapped payloads, the creation form', async () => {
  tools.clear();
  const creatable = await client.lifecycle.listCreatableObjects();
  assert.ok(creatable.creatableObjects.some((o) => o.objectType === 'CLAS/OC'));
  const details = await client.lifecycle.getObjectTypeDetails('CLAS/OC');
  assert.ok(details.fields.some((f) => f.tag === 'name'));
  await client.lifecycle.getObjectTypeDetails('INTF/OI', { name: 'ZIF_X' });
  const generators = await client.lifecycle.listGenerators();
  assert.ok(generators.generators.some((g) => g.id === 'x-ui-service'));
  const schema = await client.lifecycle.getGeneratorSchema('x-ui-service');
  assert.equal(schema.schema.type, 'object');
  await client.lifecycle.getGeneratorSchema('x-ui-service', {
    packageName: 'ZSIM_DEMO',
    referencedObjectType: 'TABL',
    referencedObjectName: 'SFLIGHT',
  });
  assert.deepEqual(tools.calls, [
    { name: 'abap_creation-get_all_creatable_objects', args: { destination: 'ADTLS' } },
    { name: 'abap_creation-get_object_type_details', args: { destination: 'ADTLS', objectType: 'CLAS/OC', name: 'Z_PLACEHOLDER' } },
    { name: 'abap_creation-get_object_type_details', args: { destination: 'ADTLS', objectType: 'INTF/OI', name: 'ZIF_X' } },
    { name: 'abap_generators-list_generators', args: { destination: 'ADTLS' } },
    {
      name: 'abap_generators-get_schema',
      args: { destination: 'ADTLS', generatorId: 'x-ui-service', packageName: '$TMP', referencedObjectType: '', referencedObjectName: '' },
    },
    {
      name: 'abap_generators-get_schema',
      args: {
        destination: 'ADTLS',
        generatorId: 'x-ui-service',
        packageName: 'ZSIM_DEMO',
        referencedObjectType: 'TABL',
        referencedObjectName: 'SFLIGHT',
      },
    },
  ]);

  const form = await client.lifecycle.getCreationForm('CLAS/OC');
  assert.deepEqual(env.wire.last('adtLs/objectCreation/getCreationUiModelAndContent'), {
    name: 'Z_PLACEHOLDER',
    description: '',
    objectType: 'CLAS/OC',
    destination: 'ADTLS',
  });
  assert.equal(form.objectType, 'CLAS/OC');
  const byPath = Object.fromEntries(form.fields.map((f) => [f.path, f]));
  assert.deepEqual(byPath.name, {
    path: 'name',
    required: true,
    label: 'Name',
    maxLength: 30,
    pattern: '^[ZzYy][A-Za-z0-9_]{0,29}$',
  });
  assert.deepEqual(byPath.superclass, {
    path: 'superclass',
    required: false,
    label: 'Superclass',
    maxLength: 30,
    valueHelpTypes: ['CLAS/OC'],
  });
  assert.ok(form.fields.every((f) => !f.path.startsWith('$.')));
  await client.lifecycle.getCreationForm('SRVB/SVB', { name: 'ZUI_X' });
  assert.equal(env.wire.last('adtLs/objectCreation/getCreationUiModelAndContent').name, 'ZUI_X');
});

test('create and validate merge additionalFields with the explicit identity winning; tool errors reject (D5.12)', async () => {
  const name = freshClassName('NM');
  const result = await client.lifecycle.validate({
    objectType: 'CLAS/OC',
    name,
    packageName: '$TMP',
    description: 'merged',
    additionalFields: { name: 'IGNORED', description: 'ignored too', superclass: 'CL_ABAP_TYPEDESCR' },
  });
  assert.equal(result.message, 'Validation successful');
  const args = tools.last('abap_creation-run_validation');
  assert.deepEqual(Object.keys(args), ['destination', 'objectType', 'objectContent']);
  assert.deepEqual(JSON.parse(args.objectContent), {
    name,
    description: 'merged',
    superclass: 'CL_ABAP_TYPEDESCR',
    packageName: '$TMP',
  });

  const invalid = await rejection(
    assert,
    client.lifecycle.validate({ objectType: 'CLAS/OC', name: 'NOT_Z', packageName: '$TMP', description: 'x' }),
  );
  assert.equal(invalid.code, TOOL_ERROR);
  assert.match(invalid.message, /^run_validation failed: .*Validation failed/);
  assert.equal(invalid.data.message, 'Validation failed');

  const duplicate = await rejection(
    assert,
    client.lifecycle.create({ objectType: 'CLAS/OC', name: 'ZCL_TEST', packageName: '$TMP', description: 'x' }),
  );
  assert.equal(duplicate.code, TOOL_ERROR);
  assert.match(duplicate.message, /^create_object failed: .*already exists/);

  tools.clear();
  const bo = `G${name.slice(-6)}`;
  const generated0 = await client.lifecycle.generate({
    generatorId: 'x-ui-service',
    content: JSON.stringify({ businessObjectName: bo }),
    packageName: '$TMP',
  });
  assert.equal(generated0.generatedObjects.length, 4);
  assert.deepEqual(tools.calls, [
    {
      name: 'abap_generators-generate_objects',
      args: {
        destination: 'ADTLS',
        generatorId: 'x-ui-service',
        content: JSON.stringify({ businessObjectName: bo }),
        packageName: '$TMP',
        transportRequestNumber: '',
        referencedObjectType: '',
        referencedObjectName: '',
      },
    },
  ]);
  env.sap.control.failNext('tool:abap_generators-generate_objects', { message: 'generator exploded' });
  const generated = await rejection(
    assert,
    client.lifecycle.generate({ generatorId: 'x-ui-service', content: '{}', packageName: '$TMP' }),
  );
  assert.equal(generated.code, TOOL_ERROR);
  assert.equal(generated.message, 'generate_objects failed: generator exploded');
  for (const [tool, call, prefix] of [
    ['abap_creation-get_all_creatable_objects', () => client.lifecycle.listCreatableObjects(), 'get_all_creatable_objects failed'],
    ['abap_creation-get_object_type_details', () => client.lifecycle.getObjectTypeDetails('CLAS/OC'), 'get_object_type_details failed'],
    ['abap_generators-list_generators', () => client.lifecycle.listGenerators(), 'list_generators failed'],
    ['abap_generators-get_schema', () => client.lifecycle.getGeneratorSchema('x-ui-service'), 'get_schema failed'],
  ]) {
    env.sap.control.failNext(`tool:${tool}`, { message: 'boom' });
    const error = await rejection(assert, call());
    assert.equal(error.code, TOOL_ERROR, tool);
    assert.equal(error.message, `${prefix}: boom`);
  }
});

test('a failed abap_run_unit_tests rejects, and the tool gets exactly {uris}', async () => {
  const uri = await client.lifecycle.resolveAffUri(ZCL_TEST);
  tools.clear();
  tools.failOnce('abap_run_unit_tests', 'Unit test run failed: backend timeout');
  const error = await rejection(assert, client.lifecycle.runUnitTests(ZCL_TEST));
  assert.equal(error.code, TOOL_ERROR);
  assert.equal(error.message, 'run_unit_tests failed: Unit test run failed: backend timeout');
  assert.deepEqual(tools.calls, [{ name: 'abap_run_unit_tests', args: { uris: [uri] } }]);
  assert.deepEqual(await client.lifecycle.runUnitTests({ name: 'ZCL_TEST_EXTRA', objectType: 'CLAS/OC' }), { message: 'No tests found' });
});

test('repository.writeFile, listInactive and repository.delete on success: raw results, contents, wire', async () => {
  const name = freshClassName('RW');
  const lower = name.toLowerCase();
  const ref = { name, objectType: 'CLAS/OC' };
  const mine = async () => (await client.repository.listInactive()).filter((o) => o.name === name);
  await client.lifecycle.create({ ...ref, packageName: '$TMP', description: 'raw write' });
  await client.lifecycle.activate(ref);
  assert.deepEqual(await mine(), [], 'active after activation');
  assert.deepEqual(env.wire.last('adtLs/activation/getInactiveObjects'), { destination: 'ADTLS' });

  const uri = await client.repository.getLsUri(`/sap/bc/adt/oo/classes/${lower}`);
  assert.match(uri, new RegExp(`^abap:/repotree-v1/ADTLS/.*/${lower}\\.clas\\.abap$`));
  const source = mainSource(name);
  assert.equal(await client.repository.writeFile(uri, source), null, "adt-ls's raw result");
  assert.deepEqual(env.wire.last('adtLs/fileSystem/writeFile'), { uri, content: source });
  assert.equal(await client.repository.readFile(uri), source);
  // Written, not activated: inactive, owned by the logon user, in no transport ($TMP).
  assert.deepEqual(await mine(), [
    { name, type: 'CLAS/OC', uri: `/sap/bc/adt/oo/classes/${lower}`, fileUri: uri, user: 'DEVELOPER', transport: '' },
  ]);

  const jsonUri = uri.replace(/\.clas\.abap$/, '.clas.json');
  assert.equal(await client.repository.delete(jsonUri), null, "adt-ls's raw result");
  assert.deepEqual(env.wire.last('adtLs/fileSystem/delete'), { uri: jsonUri, options: { recursive: false, force: true } });
  assert.deepEqual(await mine(), []);
  assert.deepEqual((await client.repository.search(name, { types: ['CLAS/OC'] })).references, []);
});

test('current capabilities: every MCP call of the 11 lifecycle/transport methods fits the 1.1.2 input schemas', async () => {
  const name = freshClassName('NS');
  tools.clear();
  await client.lifecycle.validate({ objectType: 'CLAS/OC', name, packageName: '$TMP', description: 'schema', additionalFields: { superclass: 'CL_X' } });
  await client.lifecycle.create({ objectType: 'CLAS/OC', name, packageName: '$TMP', description: 'schema', transportRequestNumber: '' });
  await client.lifecycle.update({ name, objectType: 'CLAS/OC', source: mainSource(name) });
  await client.lifecycle.activate({ name, objectType: 'CLAS/OC' });
  await client.lifecycle.runUnitTests({ name, objectType: 'CLAS/OC' });
  await client.lifecycle.generate({ generatorId: 'x-ui-service', content: JSON.stringify({ businessObjectName: `B${name.slice(-6)}` }), packageName: '$TMP' });
  await client.lifecycle.generate({
    generatorId: 'x-ui-service',
    content: '{}',
    packageName: '$TMP',
    transportRequestNumber: '',
    referencedObjectType: 'TABL',
    referencedObjectName: 'SFLIGHT',
  });
  await client.lifecycle.listCreatableObjects();
  await client.lifecycle.getObjectTypeDetails('CLAS/OC');
  await client.lifecycle.listGenerators();
  await client.lifecycle.getGeneratorSchema('x-ui-service');
  await client.transport.find({ objectName: name, objectType: 'CLAS/OC', developmentPackage: '$TMP', isCreation: true });
  await client.transport.create({
    developmentPackage: 'ZSIM_DEMO',
    transportDescription: 'adt-ls-native schema check',
    isCreation: false,
    objectName: 'ZCL_SIM_FLIGHT_QUERY',
    objectType: 'CLAS/OC',
  });
  await client.transport.getDiff('A4HK900101', { pageSize: 40 });
  await client.transport.getDiff('A4HK900101', { pageSize: 1, cursor: (await client.transport.getDiff('A4HK900101', { pageSize: 1 })).nextCursor });

  const called = new Set(tools.calls.map((c) => c.name));
  const expected = [
    'abap_creation-create_object',
    'abap_creation-run_validation',
    'abap_run_unit_tests',
    'abap_generators-generate_objects',
    'abap_creation-get_all_creatable_objects',
    'abap_creation-get_object_type_details',
    'abap_generators-list_generators',
    'abap_generators-get_schema',
    'abap_transport-get',
    'abap_transport-create',
    'abap_transport-unifiedDifference',
  ];
  assert.deepEqual([...called].sort(), [...expected].sort());
  for (const call of tools.calls) {
    assert.deepEqual(schemaProblems(call.name, call.args), [], `${call.name} ${JSON.stringify(call.args)}`);
  }
  assert.deepEqual(schemaProblems('abap_run_unit_tests', { uris: ['x'], destination: 'ADTLS' }).length, 1, 'the check sees undeclared keys');
  await client.lifecycle.delete({ name, objectType: 'CLAS/OC' });
});

test('malformed arguments reject with ERR_INVALID_ARG_TYPE naming the argument (never a synchronous throw)', async () => {
  for (const [call, message] of [
    [() => client.source.read(), 'ref must be an object, received undefined'],
    [() => client.lifecycle.activate({ name: 'ZCL_TEST' }), 'ref.objectType must be a string, received undefined'],
    [() => client.lifecycle.update({ ...ZCL_TEST }), 'ref.source must be a string, received undefined'],
    [() => client.navigation.goToDefinition(ZCL_TEST, { line: '3', character: 1 }), "locator.line must be a number, received type string ('3')"],
    [() => client.navigation.completion(ZCL_TEST, { symbol: 'add' }, { maxItems: 'all' }), "opts.maxItems must be a number, received type string ('all')"],
    [() => client.quality.runAtc(ZCL_TEST, { timeoutMs: '1s' }), "opts.timeoutMs must be a number, received type string ('1s')"],
  ]) {
    let promise;
    assert.doesNotThrow(() => {
      promise = call();
    });
    const error = await rejection(assert, promise);
    assert.equal(error.code, 'ERR_INVALID_ARG_TYPE');
    assert.ok(error instanceof TypeError, 'a TypeError, as Node');
    assert.equal(error.message, message);
  }
});

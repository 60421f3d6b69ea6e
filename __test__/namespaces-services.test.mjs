// The `quality`, `services` and `transport` namespaces through the public API against the
// simulator in connected mode: exact LSP params (trace) and MCP tool arguments, the ATC and
// coverage timeouts, binding warm-up and publishing, the getServiceInfo chain (8 fields,
// unpublished V4, picking a service, an unknown one listing the available ones), tool errors
// (ADT_TOOL_ERROR), the local-package guard, the transport list (filter, cap, cold retry,
// revive of a dead session) and the paged transport diff.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { timed } from './helpers.mjs';
import {
  ZCL_TEST,
  ZCL_TEST_EXTRA,
  ZCL_FLIGHT_QUERY,
  BINDING_V2,
  BINDING_V4,
  connectedClient,
  recordToolCalls,
  rejection,
} from './fixtures/namespaces/support.mjs';

const TOOL_ERROR = 'ADT_TOOL_ERROR';
const FETCH_SERVICES = 'abap_business_services-fetch_services';
const SERVICE_INFO = 'abap_business_services-fetch_service_information';
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

test('quality: ATC variants (a blank query asks for *), ATC runs, coverage without tests', async () => {
  const uri = await client.lifecycle.resolveAffUri(ZCL_TEST);
  const variants = await client.quality.listAtcVariants(ZCL_TEST);
  assert.ok(variants.some((v) => v.name === 'DEFAULT'));
  assert.deepEqual(env.wire.last('adtLs/atc/getCheckVariants'), { objectUri: uri, quickPickUserInput: '*' });
  await client.quality.listAtcVariants(ZCL_TEST, { query: '   ' });
  assert.equal(env.wire.last('adtLs/atc/getCheckVariants').quickPickUserInput, '*');
  const cloud = await client.quality.listAtcVariants(ZCL_TEST, { query: ' abap_cloud*' });
  assert.equal(env.wire.last('adtLs/atc/getCheckVariants').quickPickUserInput, ' abap_cloud*', 'sent untrimmed');
  assert.deepEqual(cloud.map((v) => v.name), ['ABAP_CLOUD_DEVELOPMENT_DEFAULT']);

  const extraUri = await client.lifecycle.resolveAffUri(ZCL_TEST_EXTRA);
  const findings = await client.quality.runAtc(ZCL_TEST_EXTRA);
  assert.equal(findings.atcRunCheckResults.length, 1);
  assert.deepEqual(env.wire.last('adtLs/atc/runCheck'), { objectUri: extraUri, checkVariant: '' });
  await client.quality.runAtc(ZCL_TEST_EXTRA, { checkVariant: 'DEFAULT' });
  assert.deepEqual(env.wire.last('adtLs/atc/runCheck'), { objectUri: extraUri, checkVariant: 'DEFAULT' });

  const mark = env.wire.mark();
  const noTests = await client.quality.runUnitTestsWithCoverage(ZCL_TEST_EXTRA);
  assert.equal(noTests.status, 'NO_TESTS');
  assert.equal(noTests.coverage, null);
  assert.equal(noTests.result.total, 0);
  assert.equal(env.wire.since(mark, 'adtLs/coverage/getCoverage').length, 0);
});

test('quality: runAtc and the coverage run give up after timeoutMs with the reference texts', async () => {
  env.sap.control.setDelay('adtLs/atc/runCheck', 4000);
  env.sap.control.setDelay('adtLs/abapUnit/runTests', 4000);
  try {
    const atc = await timed(client.quality.runAtc(ZCL_TEST, { timeoutMs: 250 }));
    assert.equal(atc.ok, false);
    assert.equal(
      atc.error.message,
      'runAtc timed out after 250ms — the ATC run did not finish — the backend may be slow or have no ATC variant configured (see listAtcVariants).',
    );
    assert.ok(atc.ms < 3000, `${atc.ms} ms`);
    const unit = await timed(client.quality.runUnitTestsWithCoverage(ZCL_TEST, { timeoutMs: 250 }));
    assert.equal(unit.ok, false);
    assert.equal(unit.error.message, 'runUnitTestsWithCoverage timed out after 250ms — the unit-test run did not finish.');
    assert.ok(unit.ms < 3000, `${unit.ms} ms`);
  } finally {
    env.sap.control.setDelay('adtLs/atc/runCheck', 0);
    env.sap.control.setDelay('adtLs/abapUnit/runTests', 0);
  }
  const covered = await client.quality.runUnitTestsWithCoverage(ZCL_TEST);
  assert.equal(covered.status, 'PASSED');
  assert.deepEqual(env.wire.last('adtLs/coverage/getCoverage').uris, [await client.lifecycle.resolveAffUri(ZCL_TEST)]);
});

test('services: runApplication sends the bare URI; binding details and publishing read the binding first', async () => {
  const uri = await client.lifecycle.resolveAffUri(ZCL_TEST);
  assert.deepEqual(await client.services.runApplication(ZCL_TEST), { output: '2 + 3 = 5\n' });
  assert.deepEqual(env.wire.last('adtLs/run/runApplication'), [uri]);
  const notRunnable = await rejection(assert, client.services.runApplication(ZCL_TEST_EXTRA));
  // The simulated backend's refusal (sap/ops run), passed through as adt-ls's JSON-RPC error.
  assert.deepEqual(
    { message: notRunnable.message, code: notRunnable.code },
    { message: 'ZCL_TEST_EXTRA cannot be run: it does not implement IF_OO_ADT_CLASSRUN', code: -32603 },
  );

  const bindingUri = await client.lifecycle.resolveAffUri(BINDING_V2);
  let mark = env.wire.mark();
  const details = await client.services.serviceBindingDetails(BINDING_V2);
  assert.equal(details.serviceBindingName, 'ZUI_SIM_FLIGHT_O2');
  const sequence = env.wire.since(mark).map((m) => m.method);
  const read = sequence.lastIndexOf('adtLs/fileSystem/readFile');
  assert.ok(read >= 0 && read < sequence.indexOf('adtLs/businessservice/srvb/getServiceBindingDetails'), sequence.join(' '));
  assert.deepEqual(env.wire.last('adtLs/businessservice/srvb/getServiceBindingDetails'), { lsUri: bindingUri });

  mark = env.wire.mark();
  const published = await client.services.publishServiceBinding(BINDING_V4);
  assert.equal(published.isPublishSuccess, true);
  assert.match(published.statusMessage, /published successfully/);
  assert.deepEqual(Object.keys(env.wire.last('adtLs/businessservice/srvb/publishandUnpublishAction')), [
    'lsUri',
    'serviceName',
    'serviceVersion',
    'bindingType',
    'odataVersion',
    'serviceBindingName',
  ]);
  assert.equal(env.wire.since(mark, 'adtLs/fileSystem/readFile').length, 1);
  const info = await client.services.getServiceInfo(BINDING_V4);
  assert.match(info.serviceUrl, /zui_sim_flight_o4/i);
  const unpublished = await client.services.publishServiceBinding(BINDING_V4);
  assert.match(unpublished.statusMessage, /unpublished/);
});

test('services: listServices and getServiceInfo chain the tools with all 8 fields', async () => {
  tools.clear();
  const listed = await client.services.listServices(BINDING_V2);
  assert.equal(listed.odataVersion, 'V2', 'the text payload, not the lossy structuredContent');
  assert.deepEqual(listed.odataInfoUri, [{ href: '/sap/bc/adt/businessservices/odatav2/ZUI_SIM_FLIGHT_O2' }]);
  assert.deepEqual(tools.calls, [{ name: FETCH_SERVICES, args: { destination: 'ADTLS', serviceBindingName: 'ZUI_SIM_FLIGHT_O2' } }]);

  tools.clear();
  const info = await client.services.getServiceInfo(BINDING_V2);
  assert.match(info.serviceUrl, /\/sap\/opu\/odata\/sap\/ZUI_SIM_FLIGHT_O2\//);
  assert.ok(Array.isArray(info.entitySets) && info.entitySets.length > 0);
  assert.deepEqual(tools.calls.map((c) => c.name), [FETCH_SERVICES, SERVICE_INFO]);
  assert.deepEqual(tools.last(SERVICE_INFO), {
    destination: 'ADTLS',
    serviceBindingName: 'ZUI_SIM_FLIGHT_O2',
    serviceName: 'ZUI_SIM_FLIGHT_O2',
    serviceDefinition: 'ZUI_SIM_FLIGHT',
    serviceVersion: '0001',
    odataInfoUri: '/sap/bc/adt/businessservices/odatav2/ZUI_SIM_FLIGHT_O2', // the seed binding's
    odataVersion: 'V2',
    isPublished: true,
  });
});

test('services: an unpublished V4 binding, a named service, an unknown one (D5.6), tool errors', async () => {
  tools.clear();
  const v4 = await rejection(assert, client.services.getServiceInfo(BINDING_V4));
  assert.equal(
    v4.message,
    'Service binding ZUI_SIM_FLIGHT_O4 (OData V4) is not published — call publishServiceBinding first, then retry getServiceInfo.',
  );
  assert.equal(tools.of(SERVICE_INFO).length, 0);

  const two = {
    odataVersion: 'V2',
    odataInfoUri: [{ href: '/sap/bc/adt/businessservices/odatav2/ZUI_TWO' }],
    services: [
      { name: 'SVC_A', content: [{ serviceDefinition: 'DEF_A', serviceVersion: '0001' }] },
      { name: 'SVC_B', content: [{ serviceDefinition: 'DEF_B', serviceVersion: '0002' }] },
    ],
  };
  tools.answerOnce(FETCH_SERVICES, two);
  tools.answerOnce(SERVICE_INFO, { serviceUrl: 'https://x/b', entitySets: [] });
  assert.deepEqual(await client.services.getServiceInfo(BINDING_V2, { service: 'SVC_B' }), { serviceUrl: 'https://x/b', entitySets: [] });
  const picked = tools.last(SERVICE_INFO);
  assert.deepEqual([picked.serviceName, picked.serviceDefinition, picked.serviceVersion], ['SVC_B', 'DEF_B', '0002']);

  tools.clear();
  tools.answerOnce(FETCH_SERVICES, two);
  const unknown = await rejection(assert, client.services.getServiceInfo(BINDING_V2, { service: 'SVC_C' }));
  assert.equal(unknown.message, 'Service SVC_C not found in binding ZUI_SIM_FLIGHT_O2. Available services: SVC_A, SVC_B.');
  assert.equal(tools.of(SERVICE_INFO).length, 0);

  tools.answerOnce(FETCH_SERVICES, { services: [{ name: 'SVC_A', content: [] }] });
  const empty = await rejection(assert, client.services.getServiceInfo(BINDING_V2));
  assert.equal(empty.message, 'Service SVC_A in ZUI_SIM_FLIGHT_O2 has no version content.');
  tools.answerOnce(FETCH_SERVICES, { services: [] });
  const none = await rejection(assert, client.services.getServiceInfo(BINDING_V2));
  assert.equal(none.message, 'No OData service found in binding ZUI_SIM_FLIGHT_O2.');

  tools.failOnce(FETCH_SERVICES, 'binding is gone');
  const listError = await rejection(assert, client.services.listServices(BINDING_V2));
  assert.equal(listError.code, TOOL_ERROR);
  assert.equal(listError.message, 'fetch_services failed for ZUI_SIM_FLIGHT_O2: binding is gone');
  tools.failOnce(SERVICE_INFO, 'metadata unavailable');
  const infoError = await rejection(assert, client.services.getServiceInfo(BINDING_V2));
  assert.equal(infoError.code, TOOL_ERROR);
  assert.equal(infoError.message, 'fetch_service_information failed for ZUI_SIM_FLIGHT_O2: metadata unavailable');
});

test('transport: find and create send exactly their arguments; create refuses a local package first', async () => {
  tools.clear();
  const found = await client.transport.find({
    objectName: 'ZCL_SIM_FLIGHT_QUERY',
    objectType: 'CLAS/OC',
    developmentPackage: 'ZSIM_DEMO',
    isCreation: false,
  });
  assert.equal(found.isRecordingRequired, true);
  assert.deepEqual(tools.last('abap_transport-get'), {
    destination: 'ADTLS',
    objectName: 'ZCL_SIM_FLIGHT_QUERY',
    objectType: 'CLAS/OC',
    developmentPackage: 'ZSIM_DEMO',
    isCreation: false,
  });

  for (const pkg of ['$TMP', '  $ZLOCAL']) {
    const guard = await rejection(
      assert,
      client.transport.create({ developmentPackage: pkg, transportDescription: 'x', isCreation: true, objectName: 'ZX', objectType: 'CLAS/OC' }),
    );
    assert.equal(
      guard.message,
      `Package "${pkg}" is local (non-transportable) — no transport is needed, so create_transport is a no-op that would orphan an empty request. Use findTransport to confirm; only call createTransport for transportable packages.`,
    );
  }
  assert.equal(tools.of('abap_transport-create').length, 0);

  const created = await client.transport.create({
    developmentPackage: 'ZSIM_DEMO',
    transportDescription: 'adt-ls-native N1',
    isCreation: true,
    objectName: 'ZCL_N1_TR',
    objectType: 'CLAS/OC',
  });
  assert.match(created.transportRequestNumber, /^A4HK\d+$/);
  assert.deepEqual(tools.last('abap_transport-create'), {
    destination: 'ADTLS',
    developmentPackage: 'ZSIM_DEMO',
    transportDescription: 'adt-ls-native N1',
    isCreation: true,
    objectName: 'ZCL_N1_TR',
    objectType: 'CLAS/OC',
  });

  tools.failOnce('abap_transport-create', 'no authorization for CTS');
  const failed = await rejection(
    assert,
    client.transport.create({ developmentPackage: 'ZSIM_DEMO', transportDescription: 'x', isCreation: true, objectName: 'ZX', objectType: 'CLAS/OC' }),
  );
  assert.equal(failed.code, TOOL_ERROR);
  assert.equal(failed.message, 'create_transport failed: no authorization for CTS');
  tools.failOnce('abap_transport-get', 'package unknown');
  const findError = await rejection(
    assert,
    client.transport.find({ objectName: 'ZX', objectType: 'CLAS/OC', developmentPackage: 'ZNOPE', isCreation: true }),
  );
  assert.equal(findError.code, TOOL_ERROR);
  assert.equal(findError.message, 'find_transport failed: package unknown');
});

test('transport: assign, check and lock status work on the resolved AFF URI', async () => {
  const uri = await client.lifecycle.resolveAffUri(ZCL_FLIGHT_QUERY);
  const assigned = await client.transport.assign({ ...ZCL_FLIGHT_QUERY, transport: 'A4HK900101' });
  assert.deepEqual(assigned, { assigned: true, object: 'ZCL_SIM_FLIGHT_QUERY', objectType: 'CLAS/OC', transport: 'A4HK900101', lockedIn: ['A4HK900101'] });
  assert.deepEqual(env.wire.last('adtLs/cts/transport/assignTransportToObject'), { objectUri: uri, transport: 'A4HK900101' });

  const tmpUri = await client.lifecycle.resolveAffUri(ZCL_TEST);
  const local = await client.transport.check(ZCL_TEST);
  assert.equal(local.isTransportCheckSuccessful, true);
  assert.equal(local.isRecordingRequired, false);
  assert.deepEqual(env.wire.last('adtLs/cts/transport/checkTransportForObjectLock'), {
    operationType: 'MODIFY',
    objectInfo: { objectUri: tmpUri },
    transportLayer: '',
    isRecordChanges: true,
  });
  const packaged = await client.transport.check({ ...ZCL_FLIGHT_QUERY, operation: 'DELETE', transportLayer: 'ZSIM', recordChanges: false });
  assert.equal(packaged.isRecordingRequired, true);
  assert.deepEqual(env.wire.last('adtLs/cts/transport/checkTransportForObjectLock'), {
    operationType: 'DELETE',
    objectInfo: { objectUri: uri },
    transportLayer: 'ZSIM',
    isRecordChanges: false,
  });

  assert.deepEqual(await client.transport.getLockStatus(ZCL_TEST), { lockingSupported: true, lockId: null });
  assert.deepEqual(env.wire.last('adtLs/fileSystem/getFileLockStatus'), { uri: tmpUri });
});

test('transport.list: destinationId, filter, cap; a cold Internal error is retried; a dead session is revived', async () => {
  const all = await client.transport.list();
  assert.deepEqual(env.wire.last('adtLs/cts/transport/searchTransports'), { destinationId: 'ADTLS' });
  assert.equal(all.total, all.transports.length);
  assert.equal(all.truncated, false);
  assert.ok(all.transports.some((t) => t.number === 'A4HK900101'));

  const filtered = await client.transport.list({ query: '  SERVICE BINDINGS ' });
  assert.deepEqual(filtered.transports.map((t) => t.number), ['A4HK900103']);
  assert.equal(filtered.matched, 1);
  const capped = await client.transport.list({ limit: 1 });
  assert.deepEqual([capped.returned, capped.matched > 1, capped.truncated], [1, true, true]);

  env.sap.control.setCold(2, { mode: 'error' });
  let mark = env.wire.mark();
  assert.equal((await client.transport.list()).total, all.total);
  assert.equal(env.wire.since(mark, 'adtLs/cts/transport/searchTransports').length, 3);

  env.sap.control.expireSessions({ mode: 'silent-empty' });
  mark = env.wire.mark();
  assert.equal((await client.transport.list()).total, all.total);
  assert.equal(env.wire.since(mark, 'adtLs/cts/transport/searchTransports').length, 4, 'three cold attempts, one after revive');
  assert.equal(env.wire.since(mark, 'adtLs/destinations/ensureLoggedOn').length, 1);
});

test('transport.getDiff: validated first, cursor and pageSize forwarded verbatim, pages until completed', async () => {
  tools.clear();
  for (const [number, opts, message] of [
    ['', undefined, 'transportNumber must not be empty'],
    ['   ', undefined, 'transportNumber must not be empty'],
    ['A4HK900101', { pageSize: 0 }, 'pageSize must be an integer between 1 and 40'],
    ['A4HK900101', { pageSize: 41 }, 'pageSize must be an integer between 1 and 40'],
    ['A4HK900101', { pageSize: 2.5 }, 'pageSize must be an integer between 1 and 40'],
  ]) {
    const error = await rejection(assert, client.transport.getDiff(number, opts));
    assert.equal(error.message, message);
  }
  assert.equal(tools.calls.length, 0);

  const pages = [];
  let cursor;
  for (let i = 0; i < 20; i += 1) {
    const page = await client.transport.getDiff('A4HK900101', cursor === undefined ? { pageSize: 2 } : { pageSize: 2, cursor });
    pages.push(page);
    if (page.batchInfo?.status === 'completed') break;
    cursor = page.nextCursor;
  }
  assert.equal(pages.at(-1).batchInfo.status, 'completed');
  assert.ok(pages.some((p) => p.diffResult === ''), 'empty processing pages are normal');
  assert.ok(pages.some((p) => /^--- a\//m.test(p.diffResult)), 'a unified diff arrives');
  const calls = tools.of('abap_transport-unifiedDifference').map((c) => c.args);
  assert.deepEqual(calls[0], { destination: 'ADTLS', transportNumber: 'A4HK900101', pageSize: 2 });
  assert.deepEqual(calls[1], { destination: 'ADTLS', transportNumber: 'A4HK900101', pageSize: 2, cursor: pages[0].nextCursor });

  await client.transport.getDiff('A4HK900101');
  assert.equal(tools.last('abap_transport-unifiedDifference').pageSize, 40);
  tools.failOnce('abap_transport-unifiedDifference', 'Invalid cursor');
  const failed = await rejection(assert, client.transport.getDiff('A4HK900101', { cursor: 'opaque/+=' }));
  assert.equal(failed.code, TOOL_ERROR);
  assert.equal(failed.message, 'transport unifiedDifference failed: Invalid cursor');
  assert.equal(tools.last('abap_transport-unifiedDifference').cursor, 'opaque/+=');
});

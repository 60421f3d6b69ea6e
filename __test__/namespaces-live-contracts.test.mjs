// The contracts the SDK's authors checked on a live adt-ls 1.1.2 (docs/decisions.md#d9),
// through the public API on the simulator: transport.find rejects refusals the tool did not
// flag and incomplete data; transport.assign reads the CTS lock before and after the
// assignment (three LSP requests in that order) and reports lockedIn; publishServiceBinding
// sends the request adt-ls needs, built from the binding details, with `{service}` choosing
// the service definition; getServiceInfo takes the publish state from fetch_services or the
// binding details and refuses answers without a service URL; the creation form keeps the
// legal values of choice fields.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readTrace } from './helpers.mjs';
import { BINDING_V2, BINDING_V4, ZCL_FLIGHT_QUERY, connectedClient, recordToolCalls, rejection } from './fixtures/namespaces/support.mjs';

const CHECK = 'adtLs/cts/transport/checkTransportForObjectLock';
const ASSIGN = 'adtLs/cts/transport/assignTransportToObject';
const DETAILS = 'adtLs/businessservice/srvb/getServiceBindingDetails';
const PUBLISH = 'adtLs/businessservice/srvb/publishandUnpublishAction';
const FETCH_SERVICES = 'abap_business_services-fetch_services';
const SERVICE_INFO = 'abap_business_services-fetch_service_information';
const REPORT = { name: 'ZSIM_REPORT', objectType: 'PROG/P' };
const FUNCTION_GROUP = { name: 'ZSIM_FG', objectType: 'FUGR/F' };
const SHARED = { name: 'ZCL_SIM_SHARED', objectType: 'CLAS/OC' };
const FOREIGN_REASON = 'Object R3TR CLAS ZCL_SIM_SHARED locked in task A4HK900202 (DEVELOPER) not specified for this client';

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

/**
 * Both channels as the simulated adt-ls saw them, in order, from event `from` of its trace:
 * LSP requests by method, MCP tool calls by tool name (when each finished).
 */
const bothChannels = (from) =>
  readTrace(env.traceFile)
    .slice(from)
    .map((e) => (e.dir === 'in' && typeof e.message?.method === 'string' ? e.message.method : e.event === 'mcp-tool-timing' ? e.name : undefined))
    .filter(Boolean);

/** The LSP methods sent since `mark`, resolution (quickSearch, getLsUri) left out. */
const sentSince = (mark) =>
  env.wire
    .since(mark)
    .map((m) => m.method)
    .filter((m) => !['adtLs/repository/quickSearch', 'adtLs/repository/getLsUri'].includes(m));

test('transport.assign: lock check, assignment, lock check; a task locks its request; lockedIn in the result', async () => {
  const uri = await client.lifecycle.resolveAffUri(REPORT);
  const mark = env.wire.mark();
  const assigned = await client.transport.assign({ ...REPORT, transport: 'a4hk900104' });
  assert.deepEqual(Object.keys(assigned), ['assigned', 'object', 'objectType', 'transport', 'lockedIn']);
  assert.deepEqual(assigned, { assigned: true, object: 'ZSIM_REPORT', objectType: 'PROG/P', transport: 'a4hk900104', lockedIn: ['A4HK900103'] });
  assert.deepEqual(sentSince(mark), [CHECK, ASSIGN, CHECK]);
  const [first, , second] = env.wire.since(mark).filter((m) => [CHECK, ASSIGN].includes(m.method));
  const lockParams = { operationType: 'MODIFY', objectInfo: { objectUri: uri }, transportLayer: '', isRecordChanges: true };
  assert.deepEqual([first.params, second.params], [lockParams, lockParams]);
  assert.deepEqual(env.wire.last(ASSIGN), { objectUri: uri, transport: 'a4hk900104' });
});

test('transport.assign: adt-ls says true, but an unknown transport or another request than the lock reads assigned: false', async () => {
  const unknown = await client.transport.assign({ ...FUNCTION_GROUP, transport: 'A4HK999999' });
  assert.deepEqual(unknown, { assigned: false, object: 'ZSIM_FG', objectType: 'FUGR/F', transport: 'A4HK999999', lockedIn: [] });
  const elsewhere = await client.transport.assign({ ...ZCL_FLIGHT_QUERY, transport: 'A4HK900103' });
  assert.deepEqual([elsewhere.assigned, elsewhere.lockedIn], [false, ['A4HK900101']]);
  const same = await client.transport.assign({ ...ZCL_FLIGHT_QUERY, transport: 'a4hk900101' });
  assert.deepEqual([same.assigned, same.lockedIn], [true, ['A4HK900101']]);
});

test("transport.assign: a lock check that fails names SAP's reason and nothing is assigned; a failed readback rejects", async () => {
  let mark = env.wire.mark();
  const foreign = await rejection(assert, client.transport.assign({ ...SHARED, transport: 'A4HK900101' }));
  assert.equal(foreign.message, `Could not verify the CTS lock for ZCL_SIM_SHARED. ${FOREIGN_REASON}`);
  assert.equal(foreign.code, 'ERR_CTS_LOCK_UNVERIFIED');
  assert.equal(foreign.data.isTransportCheckSuccessful, false);
  assert.deepEqual(sentSince(mark), [CHECK]);

  env.sap.control.failNext(CHECK, { message: 'CTS is not available', after: 1 });
  mark = env.wire.mark();
  const readback = await rejection(assert, client.transport.assign({ ...FUNCTION_GROUP, transport: 'A4HK900101' }));
  assert.equal(readback.message, 'CTS is not available');
  assert.deepEqual(sentSince(mark), [CHECK, ASSIGN, CHECK], 'the assignment was sent before the readback failed');

  const missing = await rejection(assert, client.transport.assign({ ...FUNCTION_GROUP }));
  assert.deepEqual([missing.code, missing.message], ['ERR_INVALID_ARG_TYPE', 'ref.transport must be a string, received undefined']);
});

test('transport.find: a plain-text refusal the tool did not flag, or data without its schema fields, rejects', async () => {
  const args = (objectName) => ({ objectName, objectType: 'CLAS/OC', developmentPackage: 'ZSIM_DEMO', isCreation: false });
  const refusalText = 'Object ZCL_SIM_SHARED is locked in task A4HK900202, which is not specified for this client';
  const refusal = await rejection(assert, client.transport.find(args('ZCL_SIM_SHARED')));
  assert.deepEqual([refusal.code, refusal.message, refusal.tool], ['ADT_TOOL_ERROR', `find_transport failed: ${refusalText}`, 'abap_transport-get']);
  try {
    env.sap.control.setToolStyle('abap_transport-get', 'refusal-structured');
    const incomplete = await rejection(assert, client.transport.find(args('ZCL_SIM_SHARED')));
    assert.equal(incomplete.message, `find_transport failed: ${refusalText}`);
    env.sap.control.setToolStyle('abap_transport-get', 'explained');
    const explained = await client.transport.find(args('ZCL_SIM_FLIGHT_QUERY'));
    assert.deepEqual([explained.isRecordingRequired, explained.transportRequests[0].transportRequestNumber], [true, 'A4HK900101']);
  } finally {
    env.sap.control.setToolStyle('abap_transport-get', undefined);
  }
  tools.answerOnce('abap_transport-get', { isRecordingRequired: true, transportRequests: [] });
  const partial = await rejection(assert, client.transport.find(args('ZCL_SIM_FLIGHT_QUERY')));
  assert.equal(partial.message, 'find_transport failed: {"isRecordingRequired":true,"transportRequests":[]}');
});

test('publishServiceBinding: the binding details, then the request the VS Code extension builds, in its key order', async () => {
  const uri = await client.lifecycle.resolveAffUri(BINDING_V4);
  const mark = env.wire.mark();
  const published = await client.services.publishServiceBinding(BINDING_V4, { timeoutMs: 60_000 });
  assert.deepEqual(published, { isExecuted: true, isPublishSuccess: true, statusMessage: 'Service binding ZUI_SIM_FLIGHT_O4 published successfully' });
  assert.deepEqual(sentSince(mark), ['adtLs/fileSystem/readFile', DETAILS, PUBLISH]);
  const sent = env.wire.last(PUBLISH);
  assert.deepEqual(Object.entries(sent), [
    ['lsUri', uri],
    ['serviceName', 'ZUI_SIM_FLIGHT'],
    ['serviceVersion', ''],
    ['bindingType', 'ODATA'],
    ['odataVersion', 'V4'],
    ['serviceBindingName', 'ZUI_SIM_FLIGHT_O4'],
  ]);
  assert.match((await client.services.publishServiceBinding(BINDING_V4)).statusMessage, /unpublished successfully$/);
});

test('publishServiceBinding {service}: V2 toggles that service definition; one the binding lacks is refused before sending', async () => {
  const off = await client.services.publishServiceBinding(BINDING_V2, { service: 'ZUI_SIM_FLIGHT' });
  assert.equal(off.statusMessage, 'Service binding ZUI_SIM_FLIGHT_O2 unpublished successfully');
  assert.equal(env.wire.last(PUBLISH).serviceName, 'ZUI_SIM_FLIGHT');
  assert.equal((await client.services.serviceBindingDetails(BINDING_V2)).objectData.published, false);
  const on = await client.services.publishServiceBinding(BINDING_V2);
  assert.equal(on.statusMessage, 'Service binding ZUI_SIM_FLIGHT_O2 published successfully');

  const mark = env.wire.mark();
  const unknown = await rejection(assert, client.services.publishServiceBinding(BINDING_V2, { service: 'zui_sim_flight' }));
  assert.deepEqual(
    [unknown.code, unknown.message],
    ['ERR_NOT_FOUND', 'Service binding ZUI_SIM_FLIGHT_O2 has no service definition zui_sim_flight (has: ZUI_SIM_FLIGHT).'],
  );
  assert.deepEqual(sentSince(mark), ['adtLs/fileSystem/readFile', DETAILS]);
  const wrongType = await rejection(assert, client.services.publishServiceBinding(BINDING_V2, { service: 5 }));
  assert.deepEqual([wrongType.code, wrongType.message], ['ERR_INVALID_ARG_TYPE', 'opts.service must be a string, received type number (5)']);
});

test('publishServiceBinding: details without an OData version or services are refused; adt-ls itself would NPE', async () => {
  const binding = env.sap.control.repository.get('ZUI_SIM_FLIGHT_O2', 'SRVB/SVB').binding;
  const { odataVersion, serviceDefinition } = binding;
  try {
    binding.odataVersion = undefined;
    let mark = env.wire.mark();
    const noVersion = await rejection(assert, client.services.publishServiceBinding(BINDING_V2));
    assert.deepEqual(
      [noVersion.code, noVersion.message],
      ['ERR_BINDING_INCOMPLETE', 'Could not read the OData version of service binding ZUI_SIM_FLIGHT_O2; adt-ls needs it to publish.'],
    );
    assert.equal(sentSince(mark).includes(PUBLISH), false);
    // What a bare {lsUri} gets from adt-ls 1.1.2: an internal error from a NullPointerException.
    const npe = await rejection(assert, client.raw.lsp(PUBLISH, { lsUri: await client.lifecycle.resolveAffUri(BINDING_V2) }));
    assert.deepEqual([npe.code, npe.message], [-32603, 'Internal error']);
    assert.match(String(npe.data), /^java\.lang\.NullPointerException/);

    binding.odataVersion = odataVersion;
    binding.serviceDefinition = undefined;
    mark = env.wire.mark();
    const noServices = await rejection(assert, client.services.publishServiceBinding(BINDING_V2));
    assert.deepEqual([noServices.code, noServices.message], ['ERR_BINDING_INCOMPLETE', 'No OData service found in binding ZUI_SIM_FLIGHT_O2.']);
    assert.equal(sentSince(mark).includes(PUBLISH), false);
  } finally {
    binding.odataVersion = odataVersion;
    binding.serviceDefinition = serviceDefinition;
  }
});

test('getServiceInfo: V2 reads the publish state from the binding details; an unpublished binding is refused before the tool', async () => {
  tools.clear();
  const mark = env.wire.mark();
  const from = readTrace(env.traceFile).length;
  const info = await client.services.getServiceInfo(BINDING_V2);
  assert.match(info.serviceUrl, /\/sap\/opu\/odata\/sap\/ZUI_SIM_FLIGHT_O2\//);
  assert.deepEqual(tools.calls.map((c) => c.name), [FETCH_SERVICES, SERVICE_INFO]);
  assert.deepEqual(sentSince(mark), ['adtLs/fileSystem/readFile', DETAILS]);
  assert.deepEqual(bothChannels(from), [
    FETCH_SERVICES,
    'adtLs/repository/quickSearch',
    'adtLs/repository/getLsUri',
    'adtLs/fileSystem/readFile',
    DETAILS,
    SERVICE_INFO,
  ]);
  assert.equal(tools.last(SERVICE_INFO).isPublished, true);

  await client.services.publishServiceBinding(BINDING_V2); // unpublish
  try {
    tools.clear();
    const v2 = await rejection(assert, client.services.getServiceInfo(BINDING_V2));
    assert.deepEqual(
      [v2.code, v2.message],
      ['ERR_NOT_PUBLISHED', 'Service binding ZUI_SIM_FLIGHT_O2 (OData V2) is not published — call publishServiceBinding first, then retry getServiceInfo.'],
    );
    assert.deepEqual(tools.calls.map((c) => c.name), [FETCH_SERVICES]);
    // Told it is published although it is not, the tool answers a successful {error}.
    tools.answerOnce(FETCH_SERVICES, { odataVersion: 'V2', isPublished: true, odataInfoUri: [{ href: 'x' }], services: [{ name: 'ZUI_SIM_FLIGHT_O2', content: [{ serviceDefinition: 'ZUI_SIM_FLIGHT', serviceVersion: '0001' }] }] });
    const refused = await rejection(assert, client.services.getServiceInfo(BINDING_V2));
    assert.equal(refused.code, 'ADT_TOOL_ERROR');
    assert.match(refused.message, /^fetch_service_information failed for ZUI_SIM_FLIGHT_O2: Please publish the service binding ZUI_SIM_FLIGHT_O2 /);
  } finally {
    await client.services.publishServiceBinding(BINDING_V2); // publish again
  }
});

test('getServiceInfo: V4 takes the top-level isPublished (no details read); an answer without a service URL rejects', async () => {
  const mark = env.wire.mark();
  const v4 = await rejection(assert, client.services.getServiceInfo(BINDING_V4));
  assert.equal(v4.code, 'ERR_NOT_PUBLISHED');
  assert.match(v4.message, /^Service binding ZUI_SIM_FLIGHT_O4 \(OData V4\) is not published/);
  assert.equal(env.wire.since(mark, DETAILS).length, 0);
  tools.answerOnce(SERVICE_INFO, { entitySets: [] });
  const noUrl = await rejection(assert, client.services.getServiceInfo(BINDING_V2));
  assert.deepEqual([noUrl.code, noUrl.message], ['ADT_TOOL_ERROR', 'fetch_service_information failed for ZUI_SIM_FLIGHT_O2: no service URL in the answer']);
});

test('getCreationForm keeps the legal values of choice fields; the backend requires SRVD sourceType anyway', async () => {
  const binding = await client.lifecycle.getCreationForm('SRVB/SVB');
  const bindingType = binding.fields.find((f) => f.path === 'bindingType');
  assert.equal(bindingType.required, false);
  assert.ok(bindingType.values.some((v) => v.value === 'OData V4 - Web API' && v.title === 'OData V4 - Web API'), JSON.stringify(bindingType));
  assert.deepEqual(binding.fields.find((f) => f.path === 'serviceDefinition').valueHelpTypes, ['SRVD']);
  const definition = await client.lifecycle.getCreationForm('SRVD/SRV');
  const sourceType = definition.fields.find((f) => f.path === 'sourceType');
  assert.deepEqual(sourceType, { path: 'sourceType', required: false, label: 'Source Type', values: [{ value: 'S', title: 'Definition' }, { value: 'X', title: 'Extension' }] });
  assert.equal(binding.fields.find((f) => f.path === 'name').values, undefined);

  const fields = { name: 'ZUI_SIM_LIVE', objectType: 'SRVD/SRV', packageName: '$TMP', description: 'live contracts' };
  const missing = await rejection(assert, client.lifecycle.create(fields));
  assert.match(missing.message, /^create_object failed: .*sourceType must be S \(Definition\) or X \(Extension\)/);
  const created = await client.lifecycle.create({ ...fields, additionalFields: { sourceType: sourceType.values[0].value } });
  assert.match(created.filePath, /zui_sim_live\.srvd\.acds$/);
});

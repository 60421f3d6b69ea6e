// The simulated backend behaves as live adt-ls 1.1.2 does where the SDK's authors checked it
// on a real system (docs/decisions.md#d9): the CTS lock of an object (request numbers,
// tasks locking their request, unknown numbers changing nothing, a lock in another client's
// task failing the check with SAP's reason), abap_transport-get's refusal that is not
// flagged isError, the live service-binding details and the publish request adt-ls needs,
// fetch_services / fetch_service_information's publish state, the combo fields of the
// creation forms, and a user who exists only in a non-default client.
import assert from 'node:assert/strict';
import https from 'node:https';
import { after, before, describe, test } from 'node:test';
import { createBackendClient } from '../lib/backend-client.mjs';
import { PATHS, startSapBackend } from '../lib/sap/index.mjs';

const PASSWORD = 'Sim-Passw0rd';
const UA = [{ name: 'sap-test', version: '1.0.0' }];
const DEST = 'ADTLS';
const REDIRECT = 'http://localhost:4711/adt/redirect';
const basic = (user, pw) => 'Basic ' + Buffer.from(`${user}:${pw}`).toString('base64');

/** A GET of the ticket endpoint: `{status, location, text}`. */
function ticketRequest(backend, { user = 'DEVELOPER', password = PASSWORD, query = '' } = {}) {
  const url = `${backend.url}${PATHS.ticket}?redirect-url=${encodeURIComponent(REDIRECT)}${query}`;
  return new Promise((resolve, reject) => {
    const req = https.request(url, { ca: backend.caCertPem, agent: false, timeout: 10_000, headers: { authorization: basic(user, password) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, location: res.headers.location, text: Buffer.concat(chunks).toString() }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

async function loggedOn(backend) {
  const client = createBackendClient({ systemUrl: backend.url, trust: { ca: [backend.caCertPem] }, userAgentInfos: UA, timeoutMs: 10_000 });
  const res = await ticketRequest(backend, { query: '&sap-client=001' });
  assert.equal(res.status, 307, res.text);
  await client.logon(new URL(res.location).searchParams.get('reentrance-ticket'), { client: '001' });
  return client;
}

describe('live contracts of the simulated backend', () => {
  let backend;
  let client;
  before(async () => {
    backend = await startSapBackend({ tls: 'private-ca', users: { DEVELOPER: PASSWORD } });
    client = await loggedOn(backend);
  });
  after(() => backend.close());

  const uriOf = async (name, type) => {
    const res = await client.call('adtLs/repository/quickSearch', { destination: DEST, pattern: name, maxResults: 20, types: [type] });
    const hit = res.references.find((r) => r.name === name);
    assert.ok(hit, `${name} found`);
    return (await client.call('adtLs/repository/getLsUri', { destination: DEST, adtUri: hit.uri })).uri;
  };
  const lockCheck = async (uri) =>
    client.call('adtLs/cts/transport/checkTransportForObjectLock', { operationType: 'MODIFY', objectInfo: { objectUri: uri }, transportLayer: '', isRecordChanges: true });
  const assign = (uri, transport) => client.call('adtLs/cts/transport/assignTransportToObject', { objectUri: uri, transport });
  const lockOf = async (uri) => {
    const c = await lockCheck(uri);
    return { ok: c.isTransportCheckSuccessful, locked: c.isLockedInRequests, numbers: c.locks.map((l) => l.number), reasons: c.checkMessages.errorMessages };
  };

  describe('the CTS lock', () => {
    after(() => backend.control.reset());

    test('a lock names its request; an unlocked object has none', async () => {
      assert.deepEqual(await lockOf(await uriOf('ZCL_SIM_FLIGHT_QUERY', 'CLAS/OC')), { ok: true, locked: true, numbers: ['A4HK900101'], reasons: [] });
      assert.deepEqual(await lockOf(await uriOf('ZSIM_REPORT', 'PROG/P')), { ok: true, locked: false, numbers: [], reasons: [] });
    });

    test('assigning a task (any case) locks the object in the task request', async () => {
      const uri = await uriOf('ZSIM_REPORT', 'PROG/P');
      assert.equal(await assign(uri, 'a4hk900104'), true);
      assert.deepEqual((await lockOf(uri)).numbers, ['A4HK900103']);
      assert.equal((await lockCheck(uri)).lockedTransport, 'A4HK900103');
    });

    test('an unknown number, a released request or another request than the lock answer true and change nothing', async () => {
      const fg = await uriOf('ZSIM_FG', 'FUGR/F');
      assert.equal(await assign(fg, 'A4HK999999'), true);
      assert.equal(await assign(fg, 'A4HK900090'), true, 'released');
      assert.deepEqual(await lockOf(fg), { ok: true, locked: false, numbers: [], reasons: [] });
      const flight = await uriOf('ZCL_SIM_FLIGHT_QUERY', 'CLAS/OC');
      assert.equal(await assign(flight, 'A4HK900103'), true);
      assert.deepEqual((await lockOf(flight)).numbers, ['A4HK900101']);
    });

    test('a lock held in a task of another client fails the check with SAP reason, and cannot be changed', async () => {
      const shared = await uriOf('ZCL_SIM_SHARED', 'CLAS/OC');
      const expected = {
        ok: false,
        locked: true,
        numbers: [],
        reasons: [{ message: 'Object R3TR CLAS ZCL_SIM_SHARED locked in task A4HK900202 (DEVELOPER) not specified for this client', severity: 'E' }],
      };
      assert.deepEqual(await lockOf(shared), expected);
      assert.equal(await assign(shared, 'A4HK900103'), true);
      assert.deepEqual(await lockOf(shared), expected);
      const list = await client.call('adtLs/cts/transport/searchTransports', { destinationId: DEST });
      assert.equal(list.some((t) => t.number === 'A4HK900201'), false, 'another client transports are not listed');
      assert.equal(await assign(await uriOf('ZSIM_FG', 'FUGR/F'), 'A4HK900201'), true);
      assert.equal((await lockOf(await uriOf('ZSIM_FG', 'FUGR/F'))).locked, false, 'a request of another client locks nothing');
    });

    test('failNext({after}) fails a later call, e.g. the readback of an assignment', async () => {
      const fg = await uriOf('ZSIM_FG', 'FUGR/F');
      backend.control.failNext('adtLs/cts/transport/checkTransportForObjectLock', { message: 'CTS is not available', after: 1 });
      assert.equal((await lockOf(fg)).ok, true);
      await assert.rejects(lockCheck(fg), /CTS is not available/);
      assert.equal((await lockOf(fg)).ok, true, 'once');
    });

    test('objects of the local package are never locked', async () => {
      const local = await uriOf('ZCL_TEST', 'CLAS/OC');
      assert.equal(await assign(local, 'A4HK900101'), true);
      assert.equal((await lockOf(local)).locked, false);
    });
  });

  describe('abap_transport-get', () => {
    after(() => backend.control.reset());
    const get = (objectName) =>
      client.call('tool:abap_transport-get', { destination: DEST, objectName, objectType: 'CLAS/OC', developmentPackage: 'ZSIM_DEMO', isCreation: false });

    test('an object locked in a task of another client: a plain-text refusal that is not flagged isError', async () => {
      const refusal = await get('ZCL_SIM_SHARED');
      assert.deepEqual(refusal, { text: 'Object ZCL_SIM_SHARED is locked in task A4HK900202, which is not specified for this client' });
      backend.control.setToolStyle('abap_transport-get', 'refusal-structured');
      const incomplete = await get('ZCL_SIM_SHARED');
      assert.deepEqual(incomplete.structuredContent, { isRecordingRequired: false });
      assert.equal(incomplete.isError, undefined);
    });

    test('the explained style: a plain text next to the full structuredContent', async () => {
      backend.control.setToolStyle('abap_transport-get', 'explained');
      const explained = await get('ZCL_SIM_FLIGHT_QUERY');
      assert.throws(() => JSON.parse(explained.text));
      assert.deepEqual(Object.keys(explained.structuredContent), ['transportRequests', 'informationMessages', 'isRecordingRequired']);
      assert.equal(explained.structuredContent.transportRequests[0].transportRequestNumber, 'A4HK900101');
      backend.control.setToolStyle('abap_transport-get', undefined);
      assert.equal(JSON.parse((await get('ZCL_SIM_FLIGHT_QUERY')).text).isRecordingRequired, true);
    });
  });

  describe('service bindings', () => {
    after(() => backend.control.reset());
    const publish = (lsUri, fields) =>
      client.call('adtLs/businessservice/srvb/publishandUnpublishAction', { lsUri, serviceName: 'ZUI_SIM_FLIGHT', serviceVersion: '', bindingType: 'ODATA', ...fields });
    const details = async (name) => {
      const uri = await uriOf(name, 'SRVB/SVB');
      await client.call('adtLs/fileSystem/readFile', { uri });
      return { uri, details: await client.call('adtLs/businessservice/srvb/getServiceBindingDetails', { lsUri: uri }) };
    };

    test('the details carry the live field names', async () => {
      const { details: v2 } = await details('ZUI_SIM_FLIGHT_O2');
      assert.deepEqual(v2, { serviceBindingName: 'ZUI_SIM_FLIGHT_O2', serviceType: 'ODATA', odataversion: 'V2', services: ['ZUI_SIM_FLIGHT'], objectData: { published: true } });
      const { details: v4 } = await details('ZUI_SIM_FLIGHT_O4');
      assert.deepEqual([v4.odataversion, v4.objectData], ['V4', { published: false }]);
    });

    test('a publish without odataVersion is an internal error naming the NullPointerException', async () => {
      const { uri } = await details('ZUI_SIM_FLIGHT_O4');
      const npe = await client.call('adtLs/businessservice/srvb/publishandUnpublishAction', { lsUri: uri }).catch((e) => e);
      assert.ok(npe instanceof Error);
      assert.deepEqual([npe.message, npe.code], ['Internal error', -32603]);
      assert.match(String(npe.data), /^java\.lang\.NullPointerException/);
      assert.deepEqual((await details('ZUI_SIM_FLIGHT_O4')).details.objectData, { published: false }, 'nothing changed');
    });

    test('V2 toggles the service definition named by serviceName, and refuses any other; V4 toggles the binding', async () => {
      const { uri: v2 } = await details('ZUI_SIM_FLIGHT_O2');
      const wrong = await publish(v2, { odataVersion: 'V2', serviceName: 'ZUI_OTHER', serviceBindingName: 'ZUI_SIM_FLIGHT_O2' });
      assert.deepEqual(wrong, { isExecuted: false, isPublishSuccess: false, statusMessage: 'Missing or invalid inputs for publish action' });
      assert.deepEqual((await details('ZUI_SIM_FLIGHT_O2')).details.objectData, { published: true });
      const off = await publish(v2, { odataVersion: 'V2', serviceBindingName: 'ZUI_SIM_FLIGHT_O2' });
      assert.deepEqual(off, { isExecuted: true, isPublishSuccess: true, statusMessage: 'Service binding ZUI_SIM_FLIGHT_O2 unpublished successfully' });
      assert.deepEqual((await details('ZUI_SIM_FLIGHT_O2')).details.objectData, { published: false });
      const { uri: v4 } = await details('ZUI_SIM_FLIGHT_O4');
      assert.equal((await publish(v4, { odataVersion: 'V4', serviceName: 'ANY', serviceBindingName: 'ZUI_SIM_FLIGHT_O4' })).isPublishSuccess, true);
      assert.deepEqual((await details('ZUI_SIM_FLIGHT_O4')).details.objectData, { published: true });
    });

    test('fetch_services: isPublished at the top level for V4 only; an unpublished V2 binding answers a successful {error}', async () => {
      const services = async (name) => JSON.parse((await client.call('tool:abap_business_services-fetch_services', { destination: DEST, serviceBindingName: name })).text);
      const v2 = await services('ZUI_SIM_FLIGHT_O2');
      assert.equal('isPublished' in v2, false);
      assert.equal('isPublished' in v2.services[0], false);
      const v4 = await services('ZUI_SIM_FLIGHT_O4');
      assert.equal(typeof v4.isPublished, 'boolean');
      assert.equal('isPublished' in v4.services[0], false);
      // The V2 binding was unpublished by the test above.
      const info = await client.call('tool:abap_business_services-fetch_service_information', {
        destination: DEST, serviceBindingName: 'ZUI_SIM_FLIGHT_O2', serviceName: 'ZUI_SIM_FLIGHT_O2', serviceDefinition: 'ZUI_SIM_FLIGHT',
        serviceVersion: '0001', odataInfoUri: 'x', odataVersion: 'V2',
      });
      assert.equal(info.isError, undefined);
      assert.match(JSON.parse(info.text).error, /^Please publish the service binding ZUI_SIM_FLIGHT_O2 /);
    });
  });

  describe('creation forms', () => {
    after(() => backend.control.reset());
    const controlsOf = async (objectType) => {
      const form = await client.call('adtLs/objectCreation/getCreationUiModelAndContent', { name: 'Z_PLACEHOLDER', description: '', objectType, destination: DEST });
      return form.fieldGroupSections.flatMap((s) => JSON.parse(s.uiModel).sections.flatMap((x) => x.controls));
    };

    test('SRVB bindingType and SRVD sourceType are combos with their values; the SRVB value help is SRVD', async () => {
      const srvb = await controlsOf('SRVB/SVB');
      const bindingType = srvb.find((c) => c.bindingPath === '$.bindingType');
      assert.equal(bindingType.$type, 'combo');
      assert.equal(bindingType.required, false);
      assert.ok(bindingType.values.some((v) => v.value === 'OData V2 - UI' && v.title === 'OData V2 - UI'));
      assert.deepEqual(srvb.find((c) => c.bindingPath === '$.serviceDefinition').onValueHelp, { kind: 'adtTypes', adtTypes: [{ value: 'SRVD' }] });
      const sourceType = (await controlsOf('SRVD/SRV')).find((c) => c.bindingPath === '$.sourceType');
      assert.deepEqual(sourceType.values, [{ value: 'S', title: 'Definition' }, { value: 'X', title: 'Extension' }]);
      assert.equal(sourceType.required, false);
    });

    test('the creation tool requires sourceType for a service definition although the form leaves it optional', async () => {
      const create = (content) =>
        client.call('tool:abap_creation-create_object', {
          destination: DEST, objectType: 'SRVD/SRV', transportRequestNumber: '',
          objectContent: JSON.stringify({ name: 'ZUI_SIM_NEW', packageName: '$TMP', description: 'new service', ...content }),
        });
      const missing = await create({});
      assert.equal(missing.isError, true);
      assert.match(missing.text, /sourceType must be S \(Definition\) or X \(Extension\)/);
      const created = await create({ sourceType: 'S' });
      assert.equal(created.isError, undefined, created.text);
      assert.match(JSON.parse(created.text).filePath, /zui_sim_new\.srvd\.acds$/);
    });
  });
});

describe('a user who exists only in a non-default client', () => {
  let backend;
  before(async () => {
    backend = await startSapBackend({ tls: 'private-ca', users: { CLIENT100: PASSWORD }, clients: ['001', '100'], userClients: { client100: ['100'] } });
  });
  after(() => backend.close());

  test('a ticket request without sap-client asks the default client and gets 401; with sap-client=100 it works', async () => {
    const without = await ticketRequest(backend, { user: 'CLIENT100' });
    assert.equal(without.status, 401);
    assert.equal(without.location, undefined);
    assert.match(without.text, /user CLIENT100 does not exist in client 001/);
    assert.deepEqual([backend.control.lastTicketRequest.status, backend.control.lastTicketRequest.user], [401, null]);
    const wrongClient = await ticketRequest(backend, { user: 'CLIENT100', query: '&sap-client=001' });
    assert.equal(wrongClient.status, 401);
    const right = await ticketRequest(backend, { user: 'CLIENT100', query: '&sap-client=100' });
    assert.equal(right.status, 307, right.text);
    assert.equal(backend.control.lastTicketRequest.sapClient, '100');
  });
});

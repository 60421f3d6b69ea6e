// Tests of the simulated SAP backend (lib/sap), the backend client and the JVM trust.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import forge from 'node-forge';
import { createBackendClient } from '../lib/backend-client.mjs';
import { createPkcs12Truststore, loadJvmTrust, parseJavaToolOptions } from '../lib/jvm-trust.mjs';
import { PATHS, startSapBackend } from '../lib/sap/index.mjs';

const PASSWORD = 'Sim-Passw0rd';
const USERS = { DEVELOPER: PASSWORD, ALICE: 'alice-pw' };
const UA = [{ name: 'sap-test', version: '1.0.0' }];
const basic = (user, pw) => 'Basic ' + Buffer.from(`${user}:${pw}`).toString('base64');
const REDIRECT = 'http://localhost:4711/adt/redirect';

/** A raw HTTPS request; resolves `{status, headers, text}`. */
function rawRequest(url, { method = 'GET', ca, headers = {}, body, cert, key, insecure = false } = {}) {
  return new Promise((resolve, reject) => {
    const tls = insecure ? { rejectUnauthorized: false } : { ca };
    const req = https.request(url, { method, cert, key, headers, agent: false, timeout: 5000, ...tls }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString() }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

const ticketUrl = (backend, redirect = REDIRECT, extra = '') =>
  `${backend.url}${PATHS.ticket}?redirect-url=${encodeURIComponent(redirect)}${extra}`;

async function fetchTicket(backend, headers = { authorization: basic('DEVELOPER', PASSWORD) }, opts = {}) {
  const res = await rawRequest(ticketUrl(backend), { ca: backend.caCertPem, headers, ...opts });
  assert.equal(res.status, 307, res.text);
  return new URL(res.headers.location).searchParams.get('reentrance-ticket');
}

async function loggedOnClient(backend, trust = { ca: [backend.caCertPem] }) {
  const client = createBackendClient({ systemUrl: backend.url, trust, userAgentInfos: UA, timeoutMs: 10_000 });
  await client.logon(await fetchTicket(backend), { client: '001' });
  return client;
}

describe('simulated SAP backend', () => {
  let backend;
  let client;
  const dest = 'ADTLS';
  before(async () => {
    backend = await startSapBackend({ tls: 'private-ca', users: USERS, tokens: { valid: ['tok-valid'], expired: ['tok-old'] } });
    client = await loggedOnClient(backend);
  });
  after(() => backend.close());

  const affOf = async (adtUri) => (await client.call('adtLs/repository/getLsUri', { destination: dest, adtUri })).uri;
  const uriOf = async (name, type = 'CLAS/OC') => {
    const res = await client.call('adtLs/repository/quickSearch', { destination: dest, pattern: name, maxResults: 20, types: [type] });
    const hit = res.references.find((r) => r.name === name);
    assert.ok(hit, `${name} found`);
    return affOf(hit.uri);
  };

  describe('reentrance tickets', () => {
    test('Basic credentials get a 307 to the redirect url with the ticket; sap-client is recorded', async () => {
      const res = await rawRequest(ticketUrl(backend, REDIRECT, '&sap-client=001'), { ca: backend.caCertPem, headers: { authorization: basic('developer', PASSWORD) } });
      assert.equal(res.status, 307);
      assert.match(res.headers.location, /^http:\/\/localhost:4711\/adt\/redirect\?reentrance-ticket=[\w-]+$/);
      assert.equal(backend.control.lastTicketRequest.sapClient, '001');
      assert.equal(backend.control.lastTicketRequest.user, 'DEVELOPER');
      const withQuery = await rawRequest(ticketUrl(backend, `${REDIRECT}?a=1`), { ca: backend.caCertPem, headers: { authorization: basic('DEVELOPER', PASSWORD) } });
      assert.match(withQuery.headers.location, /\/adt\/redirect\?a=1&reentrance-ticket=/);
      const noClient = await rawRequest(ticketUrl(backend), { ca: backend.caCertPem, headers: { authorization: basic('DEVELOPER', PASSWORD) } });
      assert.equal(noClient.status, 307);
      assert.equal(backend.control.lastTicketRequest.sapClient, null);
    });

    test('bad or missing credentials get 401 without Location', async () => {
      for (const headers of [{ authorization: basic('DEVELOPER', 'wrong') }, {}, { authorization: 'Negotiate abc' }]) {
        const res = await rawRequest(ticketUrl(backend), { ca: backend.caCertPem, headers });
        assert.equal(res.status, 401);
        assert.equal(res.headers.location, undefined);
      }
    });

    test('Bearer: a valid token works, an expired one says token expired', async () => {
      assert.ok(await fetchTicket(backend, { authorization: 'Bearer tok-valid' }));
      const expired = await rawRequest(ticketUrl(backend), { ca: backend.caCertPem, headers: { authorization: 'Bearer tok-old' } });
      assert.equal(expired.status, 401);
      assert.match(expired.text, /token expired/);
      const unknown = await rawRequest(ticketUrl(backend), { ca: backend.caCertPem, headers: { authorization: 'Bearer nope' } });
      assert.equal(unknown.status, 401);
    });

    test('client certificates from the client CA map to the CN; foreign certs are refused', async () => {
      const { certPem, keyPem } = backend.clientCa.issueClientCert('alice');
      await fetchTicket(backend, {}, { cert: certPem, key: keyPem });
      assert.equal(backend.control.lastTicketRequest.user, 'ALICE');
      assert.equal(backend.control.lastTicketRequest.method, 'clientCert');
      const other = await startSapBackend({ tls: 'none' });
      try {
        const foreign = other.clientCa.issueClientCert('mallory');
        const res = await rawRequest(ticketUrl(backend), { ca: backend.caCertPem, cert: foreign.certPem, key: foreign.keyPem });
        assert.equal(res.status, 401);
      } finally {
        await other.close();
      }
    });

    test('tickets are single-use and short-lived', async () => {
      const ticket = await fetchTicket(backend);
      const body = JSON.stringify({ ticket });
      const first = await rawRequest(`${backend.url}${PATHS.logon}`, { method: 'POST', ca: backend.caCertPem, body, headers: { 'content-type': 'application/json' } });
      assert.equal(first.status, 200);
      const second = await rawRequest(`${backend.url}${PATHS.logon}`, { method: 'POST', ca: backend.caCertPem, body, headers: { 'content-type': 'application/json' } });
      assert.equal(second.status, 401);
      const shortLived = await startSapBackend({ tls: 'private-ca', users: USERS, ticketTtlMs: 20 });
      try {
        const t = await fetchTicket(shortLived);
        await new Promise((r) => setTimeout(r, 60));
        const res = await rawRequest(`${shortLived.url}${PATHS.logon}`, { method: 'POST', ca: shortLived.caCertPem, body: JSON.stringify({ ticket: t }) });
        assert.equal(res.status, 401);
        assert.match(res.text, /expired/);
      } finally {
        await shortLived.close();
      }
    });
  });

  describe('sessions and discovery', () => {
    test('logon sets two cookies and later calls need both; discovery builds the base from Host', async () => {
      const ticket = await fetchTicket(backend);
      const res = await rawRequest(`${backend.url}${PATHS.logon}`, { method: 'POST', ca: backend.caCertPem, body: JSON.stringify({ ticket }) });
      const cookies = res.headers['set-cookie'];
      assert.equal(cookies.length, 2);
      assert.match(cookies[0], /^SAP_SESSIONID_A4H_001=[^;]+; path=\/; HttpOnly$/);
      assert.equal(cookies[1], 'sap-usercontext=sap-client=001; path=/');
      const pairs = cookies.map((c) => c.split(';')[0]);
      const discover = (cookie, host) =>
        rawRequest(`${backend.url}${PATHS.discovery}`, { ca: backend.caCertPem, headers: { cookie, ...(host ? { host } : {}) } });
      const both = await discover(pairs.join('; '), 'localhost:9443');
      assert.equal(both.status, 200);
      assert.deepEqual(JSON.parse(both.text), { base: 'https://localhost:9443/sap/bc/adt/sim' });
      assert.equal((await discover(pairs[0])).status, 401);
      assert.equal((await discover(pairs[1])).status, 401);
    });

    test('the request log redacts credentials, cookies and tickets', async () => {
      const log = JSON.stringify(backend.control.requests());
      assert.ok(!log.includes(PASSWORD));
      assert.ok(!log.includes(Buffer.from(`DEVELOPER:${PASSWORD}`).toString('base64')));
      assert.ok(!/SAP_SESSIONID_A4H_001=(?!<redacted>)/.test(log));
      const ops = backend.control.requests().filter((r) => r.op);
      assert.ok(ops.every((r) => r.headers.cookie.includes('<redacted>')));
    });
  });

  describe('repository operations', () => {
    test('quickSearch returns near misses, the probe and type filters', async () => {
      const res = await client.call('adtLs/repository/quickSearch', { destination: dest, pattern: 'ZCL_TEST', maxResults: 50, types: [] });
      assert.deepEqual(res.references.map((r) => r.name), ['ZCL_TEST', 'ZCL_TEST_EXTRA']);
      assert.deepEqual(res.references[0], { name: 'ZCL_TEST', description: 'Simulator test class', type: 'CLAS/OC', uri: '/sap/bc/adt/oo/classes/zcl_test' });
      const probe = await client.call('adtLs/repository/quickSearch', { destination: dest, pattern: 'CL_ABAP_TYPEDESCR', maxResults: 1, types: ['CLAS/OC'] });
      assert.equal(probe.references.length, 1);
      const none = await client.call('adtLs/repository/quickSearch', { destination: dest, pattern: 'ZCL_TEST', maxResults: 5, types: ['INTF/OI'] });
      assert.deepEqual(none.references, []);
    });

    test('getLsUri gives repotree URIs with exact encoding; unknown -> no uri', async () => {
      assert.equal(
        await affOf('/sap/bc/adt/oo/classes/zcl_test'),
        'abap:/repotree-v1/ADTLS/Local%20Objects%20%28%24TMP%29/DEVELOPER/Source%20Code%20Library/Classes/ZCL_TEST/zcl_test.clas.abap',
      );
      assert.equal(
        await affOf('/sap/bc/adt/ddic/tables/sflight'),
        'abap:/repotree-v1/ADTLS/System%20Library/SAPBC_DATAMODEL/Dictionary/Database%20Tables/SFLIGHT/sflight.tabl.acds',
      );
      assert.equal(await affOf('/sap/bc/adt/oo/classes/zcl_nope'), undefined);
    });

    test('readFile serves sources, class includes and the unsupported placeholder', async () => {
      const uri = await uriOf('ZCL_TEST');
      const main = await client.call('adtLs/fileSystem/readFile', { uri });
      assert.match(main.content, /^CLASS zcl_test DEFINITION/);
      const tests = await client.call('adtLs/fileSystem/readFile', { uri: uri.replace(/\.clas\.abap$/, '.clas.testclasses.abap') });
      assert.match(tests.content, /FOR TESTING/);
      const table = await client.call('adtLs/fileSystem/readFile', { uri: await uriOf('SFLIGHT', 'TABL/DT') });
      assert.match(table.content, /define table sflight/);
      const prog = await client.call('adtLs/fileSystem/readFile', { uri: await uriOf('ZSIM_REPORT', 'PROG/P') });
      assert.match(prog.content, /not supported in ADT in VS Code/);
      assert.deepEqual(await client.call('adtLs/fileSystem/readFile', { uri: uri.replace('%28', '(') }), {});
      assert.deepEqual(await client.call('adtLs/fileSystem/readFile', { uri: 'abap://ADTLS/sap/bc/adt/oo/classes/zcl_test' }), {});
    });

    test('getUsers and getCreationUiModelAndContent', async () => {
      const { users } = await client.call('adtLs/repository/getUsers', { destination: dest });
      assert.ok(users.some((u) => u.id === 'DEVELOPER'));
      const form = await client.call('adtLs/objectCreation/getCreationUiModelAndContent', { name: 'Z_PLACEHOLDER', description: '', objectType: 'CLAS/OC', destination: dest });
      const controls = form.fieldGroupSections.flatMap((s) => JSON.parse(s.uiModel).sections.flatMap((x) => x.controls));
      const name = controls.find((c) => c.bindingPath === '$.name');
      assert.equal(name.required, true);
      assert.equal(typeof name.pattern, 'string');
      const superclass = controls.find((c) => c.bindingPath === '$.superclass');
      assert.deepEqual(superclass.onValueHelp.adtTypes, [{ value: 'CLAS/OC' }]);
    });
  });

  describe('write, activate, delete', () => {
    test('broken source fails activation with severity-1 diagnostics; fixed source activates', async () => {
      const created = await client.call('tool:abap_creation-create_object', {
        destination: dest,
        objectType: 'CLAS/OC',
        objectContent: JSON.stringify({ name: 'ZCL_SIM_ACT', packageName: '$TMP', description: 'activation test' }),
        transportRequestNumber: '',
      });
      const { filePath } = JSON.parse(created.text);
      assert.match(filePath, /\/ZCL_SIM_ACT\/zcl_sim_act\.clas\.abap$/);
      const inactive = await client.call('adtLs/activation/getInactiveObjects', { destination: dest });
      assert.ok(inactive.some((o) => o.name === 'ZCL_SIM_ACT'));
      const broken = 'CLASS zcl_sim_act DEFINITION PUBLIC FINAL CREATE PUBLIC.\n  PUBLIC SECTION.\n    METHODS run.\nENDCLASS.\n\nCLASS zcl_sim_act IMPLEMENTATION.\n  METHOD run.\n    DATA lv TYPE i\n    lv = 1.\n  ENDMETHOD.\nENDCLASS.\n';
      assert.equal(await client.call('adtLs/fileSystem/writeFile', { uri: filePath, content: broken }), null);
      const failed = await client.call('adtLs/activation/activate', { destination: dest, fileUris: [filePath], references: [], forceActivation: false });
      assert.equal(failed.isActivationExecuted, false);
      assert.equal(failed.objectDiagnostics[0].fileUri, filePath);
      assert.equal(failed.objectDiagnostics[0].diagnostic[0].severity, 1);
      assert.equal(failed.objectDiagnostics[0].diagnostic[0].source, 'abapActivation');
      await client.call('adtLs/fileSystem/writeFile', { uri: filePath, content: broken.replace('TYPE i\n', 'TYPE i.\n') });
      const ok = await client.call('adtLs/activation/activate', { destination: dest, fileUris: [filePath], references: [], forceActivation: false });
      assert.equal(ok.isActivationExecuted, true);
      assert.deepEqual(ok.objectDiagnostics, []);
      assert.ok(ok.refreshFileUris.includes(filePath));
      await assert.rejects(client.call('adtLs/activation/activate', { destination: dest, lsUris: [filePath], references: [] }), /lsUris/);
    });

    test('delete: no options -> internal error, force:false -> 1003, force:true on the .json deletes', async () => {
      const uri = await uriOf('ZCL_TEST');
      const meta = uri.replace(/\.abap$/, '.json');
      await assert.rejects(client.call('adtLs/fileSystem/delete', { uri: meta }), /Internal error/);
      await assert.rejects(client.call('adtLs/fileSystem/delete', { uri: meta, options: { recursive: false, force: false } }), (err) => err.code === 1003);
      await assert.rejects(client.call('adtLs/fileSystem/delete', { uri, options: { recursive: false, force: true } }), /\.json/);
      assert.equal(await client.call('adtLs/fileSystem/delete', { uri: meta, options: { recursive: false, force: true } }), null);
      await assert.rejects(client.call('adtLs/fileSystem/readFile', { uri }), /not found/);
      const res = await client.call('adtLs/repository/quickSearch', { destination: dest, pattern: 'ZCL_TEST', maxResults: 20, types: ['CLAS/OC'] });
      assert.deepEqual(res.references.map((r) => r.name), ['ZCL_TEST_EXTRA']);
      backend.control.reset();
    });
  });

  describe('CTS, ATC, unit tests, services', () => {
    test('transports: list, lock check, bare-boolean assign, lock status', async () => {
      const list = await client.call('adtLs/cts/transport/searchTransports', { destinationId: dest });
      assert.ok(Array.isArray(list) && list.some((t) => t.number === 'A4HK900101'));
      const uri = await uriOf('ZCL_TEST');
      const check = await client.call('adtLs/cts/transport/checkTransportForObjectLock', { operationType: 'MODIFY', objectInfo: { objectUri: uri }, transportLayer: '', isRecordChanges: true });
      assert.equal(check.isTransportCheckSuccessful, true);
      assert.equal(check.isRecordingRequired, false);
      const flight = await uriOf('ZCL_SIM_FLIGHT_QUERY');
      const checked = await client.call('adtLs/cts/transport/checkTransportForObjectLock', { operationType: 'MODIFY', objectInfo: { objectUri: flight }, transportLayer: '', isRecordChanges: true });
      assert.equal(checked.isRecordingRequired, true);
      assert.equal(await client.call('adtLs/cts/transport/assignTransportToObject', { objectUri: flight, transport: 'A4HK900101' }), true);
      assert.deepEqual(await client.call('adtLs/fileSystem/getFileLockStatus', { uri }), { lockingSupported: true, lockId: null });
    });

    test('ATC variants reject an empty query; runCheck finds the unused variable', async () => {
      const uri = await uriOf('ZCL_TEST_EXTRA');
      await assert.rejects(client.call('adtLs/atc/getCheckVariants', { objectUri: uri, quickPickUserInput: '' }), /Parameter value must not be empty/);
      const variants = await client.call('adtLs/atc/getCheckVariants', { objectUri: uri, quickPickUserInput: '*' });
      assert.ok(variants.some((v) => v.name === 'DEFAULT'));
      const findings = await client.call('adtLs/atc/runCheck', { objectUri: uri, checkVariant: '' });
      assert.equal(findings.atcRunCheckResults.length, 1);
      const clean = await client.call('adtLs/atc/runCheck', { objectUri: await uriOf('ZCL_TEST'), checkVariant: '' });
      assert.deepEqual(clean, { atcRunCheckResults: [] });
    });

    test('abapUnit runTests with coverage, then getCoverage; runApplication', async () => {
      const uri = await uriOf('ZCL_TEST');
      const run = await client.call('adtLs/abapUnit/runTests', { uris: [uri], measurement: 'COVERAGE' });
      assert.equal(run.status, 'PASSED');
      const cov = await client.call('adtLs/coverage/getCoverage', run.coverageParams);
      assert.deepEqual(cov.coverage.testClasses, ['LTCL_TEST']);
      assert.ok(cov.coverage.objects[0].statementCoverage > 0);
      await assert.rejects(client.call('adtLs/abapUnit/runTests', { lsUris: [uri], measurement: 'COVERAGE' }), /lsUris/);
      assert.equal(await client.call('adtLs/run/runApplication', [uri]), '2 + 3 = 5\n');
    });

    test('failing unit tests, ATC priorities and line coverage carry ADT positions', async () => {
      const created = await client.call('tool:abap_creation-create_object', {
        destination: dest,
        objectType: 'CLAS/OC',
        objectContent: JSON.stringify({ name: 'ZCL_SIM_REPORTS', packageName: '$TMP', description: 'report data' }),
        transportRequestNumber: '',
      });
      const { filePath } = JSON.parse(created.text);
      const main = [
        'CLASS zcl_sim_reports DEFINITION PUBLIC FINAL CREATE PUBLIC.',
        '  PUBLIC SECTION.',
        '    METHODS sign IMPORTING iv TYPE i RETURNING VALUE(rv) TYPE i.',
        '    METHODS idle.',
        'ENDCLASS.',
        'CLASS zcl_sim_reports IMPLEMENTATION.',
        '  METHOD sign.',
        '    IF iv < 0.',
        '      rv = -1.',
        '    ENDIF.',
        '  ENDMETHOD.',
        '  METHOD idle.',
        '    BREAK-POINT.',
        '    WAIT UP TO 1 SECONDS.',
        '    DATA lv_unused TYPE i.',
        '  ENDMETHOD.',
        'ENDCLASS.',
        '',
      ].join('\n');
      const tests = [
        'CLASS ltcl_sign DEFINITION FINAL FOR TESTING DURATION SHORT RISK LEVEL HARMLESS.',
        '  PRIVATE SECTION.',
        '    METHODS positive FOR TESTING.',
        '    METHODS broken FOR TESTING.',
        'ENDCLASS.',
        'CLASS ltcl_sign IMPLEMENTATION.',
        '  METHOD positive.',
        '    cl_abap_unit_assert=>assert_equals( act = NEW zcl_sim_reports( )->sign( 1 ) exp = 0 ).',
        '  ENDMETHOD.',
        '  METHOD broken.',
        "    cl_abap_unit_assert=>fail( msg = 'sign is broken' ).",
        '  ENDMETHOD.',
        'ENDCLASS.',
        '',
      ].join('\n');
      await client.call('adtLs/fileSystem/writeFile', { uri: filePath, content: main });
      await client.call('adtLs/fileSystem/writeFile', { uri: filePath.replace(/\.abap$/, '.testclasses.abap'), content: tests });
      const activated = await client.call('adtLs/activation/activate', { destination: dest, fileUris: [filePath], references: [], forceActivation: false });
      assert.equal(activated.isActivationExecuted, true, JSON.stringify(activated));

      const base = '/sap/bc/adt/oo/classes/zcl_sim_reports';
      const atc = await client.call('adtLs/atc/runCheck', { objectUri: filePath, checkVariant: '' });
      assert.deepEqual(
        atc.atcRunCheckResults.map((f) => [f.priority, f.messageId, f.location.line, f.location.column, f.location.uri]),
        [
          [1, 'BREAK_POINT', 13, 4, `${base}/source/main#start=13,4`],
          [3, 'WAIT_UP_TO', 14, 4, `${base}/source/main#start=14,4`],
          [2, 'UNUSED_VARIABLE', 15, 4, `${base}/source/main#start=15,4`],
        ],
      );
      assert.ok(atc.atcRunCheckResults.every((f) => f.uri === base && typeof f.checkId === 'string'));

      const run = await client.call('adtLs/abapUnit/runTests', { uris: [filePath], measurement: 'COVERAGE' });
      assert.equal(run.status, 'FAILED');
      assert.deepEqual([run.result.total, run.result.passed, run.result.failed], [2, 1, 1]);
      const [cls] = run.result.testClasses;
      assert.equal(cls.uri, `${base}/includes/testclasses#start=1,0`);
      const [positive, broken] = cls.methods;
      assert.equal(positive.status, 'PASSED');
      assert.equal(positive.uri, `${base}/includes/testclasses#start=7,0`);
      assert.ok(positive.executionTime > 0);
      assert.equal(broken.status, 'FAILED');
      assert.equal(broken.message, 'sign is broken');
      assert.equal(broken.alerts[0].stack[0].uri, `${base}/includes/testclasses#start=11,4`);

      const cov = (await client.call('adtLs/coverage/getCoverage', run.coverageParams)).coverage.objects[0];
      assert.deepEqual([cov.statements, cov.branches, cov.procedures], [
        { executed: 2, total: 5 },
        { executed: 1, total: 2 },
        { executed: 1, total: 2 },
      ]);
      assert.equal(cov.statementCoverage, 40);
      assert.equal(cov.branchCoverage, 50);
      assert.deepEqual(cov.lines.map((l) => [l.uri, l.hits]), [
        [`${base}/source/main#start=8,4`, 1],
        [`${base}/source/main#start=9,6`, 1],
        [`${base}/source/main#start=13,4`, 0],
        [`${base}/source/main#start=14,4`, 0],
        [`${base}/source/main#start=15,4`, 0],
      ]);
      assert.deepEqual(cov.lines[0].branches, { total: 2, covered: 1 });
    });

    test('service binding actions need a readFile first in the session', async () => {
      const uri = await uriOf('ZUI_SIM_FLIGHT_O4', 'SRVB/SVB');
      await assert.rejects(client.call('adtLs/businessservice/srvb/getServiceBindingDetails', { lsUri: uri }), /Unsupported Object Type/);
      await client.call('adtLs/fileSystem/readFile', { uri });
      const details = await client.call('adtLs/businessservice/srvb/getServiceBindingDetails', { lsUri: uri });
      assert.deepEqual(details.objectData, { published: false });
      const request = { lsUri: uri, serviceName: 'ZUI_SIM_FLIGHT', serviceVersion: '', bindingType: 'ODATA', odataVersion: 'V4', serviceBindingName: 'ZUI_SIM_FLIGHT_O4' };
      const published = await client.call('adtLs/businessservice/srvb/publishandUnpublishAction', request);
      assert.deepEqual({ ...published, statusMessage: typeof published.statusMessage }, { isExecuted: true, isPublishSuccess: true, statusMessage: 'string' });
      backend.control.reset();
    });
  });

  describe('MCP tool semantics', () => {
    test('run_unit_tests: PASSED, No tests found, closed schema', async () => {
      const uri = await uriOf('ZCL_TEST');
      assert.deepEqual(await client.call('tool:abap_run_unit_tests', { uris: [uri] }), { text: 'Overall Test Run Status: [PASSED]' });
      assert.deepEqual(await client.call('tool:abap_run_unit_tests', { uris: [await uriOf('ZCL_TEST_EXTRA')] }), { text: 'No tests found' });
      const extra = await client.call('tool:abap_run_unit_tests', { uris: [uri], destination: dest });
      assert.equal(extra.isError, true);
    });

    test('transport unifiedDifference pages: processing, processing, completed with an opaque cursor', async () => {
      const pages = [];
      let cursor;
      do {
        const args = { destination: dest, transportNumber: 'A4HK900101', pageSize: 40 };
        if (cursor !== undefined) args.cursor = cursor;
        const res = await client.call('tool:abap_transport-unifiedDifference', args);
        assert.equal(res.isError, undefined, res.text);
        const page = JSON.parse(res.text);
        pages.push(page);
        cursor = page.nextCursor;
      } while (pages.at(-1).batchInfo.status !== 'completed' && pages.length < 10);
      assert.deepEqual(pages.map((p) => p.batchInfo.status), ['processing', 'processing', 'completed']);
      assert.equal(pages[0].diffResult, '');
      assert.match(pages[2].diffResult, /^--- a\/zcl_sim_flight_query\.clas\.abap/m);
      assert.match(pages[2].diffResult, /^\+.*WHERE carrid/m);
      const small = [];
      cursor = undefined;
      do {
        const res = await client.call('tool:abap_transport-unifiedDifference', { destination: dest, transportNumber: 'A4HK900101', pageSize: 1, ...(cursor ? { cursor } : {}) });
        small.push(JSON.parse(res.text));
        cursor = small.at(-1).nextCursor;
      } while (small.at(-1).batchInfo.status !== 'completed' && small.length < 20);
      assert.equal(small.length, 6);
      const bad = await client.call('tool:abap_transport-unifiedDifference', { destination: dest, transportNumber: 'A4HK900101', pageSize: 40, cursor: 'bm90IGEgY3Vyc29y' });
      assert.equal(bad.isError, true);
      const size = await client.call('tool:abap_transport-unifiedDifference', { destination: dest, transportNumber: 'A4HK900101', pageSize: 41 });
      assert.equal(size.isError, true);
    });

    test('business services: lossy structuredContent, unpublished V4 is an error', async () => {
      const v2 = await client.call('tool:abap_business_services-fetch_services', { destination: dest, serviceBindingName: 'ZUI_SIM_FLIGHT_O2' });
      assert.equal(JSON.parse(v2.text).odataVersion, 'V2');
      assert.equal(v2.structuredContent.odataVersion, undefined);
      const svc = JSON.parse(v2.text).services[0];
      const info = await client.call('tool:abap_business_services-fetch_service_information', {
        destination: dest, serviceBindingName: 'ZUI_SIM_FLIGHT_O2', serviceName: svc.name,
        serviceDefinition: svc.content[0].serviceDefinition, serviceVersion: svc.content[0].serviceVersion,
        odataInfoUri: JSON.parse(v2.text).odataInfoUri[0].href, odataVersion: 'V2',
      });
      assert.match(JSON.parse(info.text).serviceUrl, /^https:\/\/.*\/sap\/opu\/odata\/sap\/ZUI_SIM_FLIGHT_O2\//);
      const v4 = JSON.parse((await client.call('tool:abap_business_services-fetch_services', { destination: dest, serviceBindingName: 'ZUI_SIM_FLIGHT_O4' })).text);
      assert.equal(v4.isPublished, false);
      assert.equal(v4.services[0].isPublished, undefined, 'V4 sends isPublished at the top level only');
      const unpublished = await client.call('tool:abap_business_services-fetch_service_information', {
        destination: dest, serviceBindingName: 'ZUI_SIM_FLIGHT_O4', serviceName: 'ZUI_SIM_FLIGHT_O4', serviceDefinition: 'ZUI_SIM_FLIGHT', serviceVersion: '0001', odataInfoUri: 'x', odataVersion: 'V4',
      });
      assert.equal(unpublished.isError, true);
    });

    test('creation, generator, transport and ATC tools answer realistic JSON', async () => {
      const catalogue = JSON.parse((await client.call('tool:abap_creation-get_all_creatable_objects', { destination: dest })).text);
      for (const t of ['PROG/P', 'FUGR/FF', 'TABL/DT']) assert.ok(catalogue.creatableObjects.some((o) => o.objectType === t));
      const details = JSON.parse((await client.call('tool:abap_creation-get_object_type_details', { destination: dest, objectType: 'CLAS/OC', name: 'Z_PLACEHOLDER' })).text);
      assert.ok(details.fields.some((f) => f.tag === 'name' && f.required));
      const invalid = await client.call('tool:abap_creation-run_validation', { destination: dest, objectType: 'CLAS/OC', objectContent: JSON.stringify({ name: 'CL_BAD', packageName: '$TMP', description: 'x' }) });
      assert.equal(invalid.isError, true);
      const valid = await client.call('tool:abap_creation-run_validation', { destination: dest, objectType: 'CLAS/OC', objectContent: JSON.stringify({ name: 'zcl_new', packageName: '$TMP', description: 'x' }) });
      assert.equal(JSON.parse(valid.text).message, 'Validation successful');
      const gens = JSON.parse((await client.call('tool:abap_generators-list_generators', { destination: dest })).text);
      assert.ok(gens.generators.some((g) => g.id === 'x-ui-service'));
      const local = JSON.parse((await client.call('tool:abap_transport-get', { destination: dest, objectName: 'ZCL_TEST', objectType: 'CLAS/OC', developmentPackage: '$TMP', isCreation: false })).text);
      assert.equal(local.isRecordingRequired, false);
      const created = await client.call('tool:abap_transport-create', { destination: dest, objectName: 'ZCL_NEW', objectType: 'CLAS/OC', developmentPackage: 'ZSIM_DEMO', transportDescription: 'new', isCreation: true });
      assert.match(JSON.parse(created.text).transportRequestNumber, /^A4HK9\d{5}$/);
      const run = JSON.parse((await client.call('tool:abap_atc_run', { destination: dest, objects: [{ name: 'ZCL_TEST_EXTRA', type: 'CLAS/OC' }] })).text);
      const result = JSON.parse((await client.call('tool:abap_atc_get_result', { destination: dest, worklistId: run.worklistId })).text);
      assert.equal(result.objects[0].findings.length, 1);
      const dests = JSON.parse((await client.call('tool:abap_list_destinations', { destination: dest })).text);
      assert.equal(dests[0].destination, dest);
      backend.control.reset();
    });
  });

  describe('control modes', () => {
    const search = (c, pattern = 'CL_ABAP_TYPEDESCR') => c.call('adtLs/repository/quickSearch', { destination: dest, pattern, maxResults: 1, types: ['CLAS/OC'] });

    test('setCold: the first n searches are empty (or Internal error)', async () => {
      backend.control.setCold(2);
      assert.equal((await search(client)).references.length, 0);
      assert.equal((await search(client)).references.length, 0);
      assert.equal((await search(client)).references.length, 1);
      backend.control.setCold(1, { mode: 'error' });
      await assert.rejects(search(client), /Internal error/);
      backend.control.setCold(1);
      await assert.rejects(client.call('adtLs/cts/transport/searchTransports', { destinationId: dest }), /Internal error/);
    });

    test('failNext and writeRace', async () => {
      backend.control.failNext('adtLs/repository/getUsers', { message: 'please try again later', code: 42 });
      await assert.rejects(client.call('adtLs/repository/getUsers', { destination: dest }), (e) => e.message === 'please try again later' && e.code === 42);
      backend.control.failNext('tool:abap_transport-get', { message: 'user was logged off' });
      assert.deepEqual(await client.call('tool:abap_transport-get', {}), { text: 'user was logged off', isError: true });
      backend.control.writeRace(3);
      const uri = await uriOf('ZCL_TEST');
      const messages = [];
      for (let i = 0; i < 3; i += 1) {
        await client.call('adtLs/fileSystem/writeFile', { uri, content: 'x' }).catch((e) => messages.push(e.message));
      }
      assert.equal(messages.length, 3);
      assert.match(messages[0], /\b500\b/);
      assert.match(messages[1], /\b423\b/);
      assert.match(messages[2], /invalid lock/);
    });

    test('expireSessions silent-empty: empty searches until the next logon', async () => {
      const c = await loggedOnClient(backend);
      backend.control.expireSessions({ mode: 'silent-empty' });
      assert.equal((await search(c)).references.length, 0);
      assert.equal(await c.checkSession(), false);
      const fresh = await loggedOnClient(backend);
      assert.equal((await search(fresh)).references.length, 1);
      assert.equal(await fresh.checkSession(), true);
    });

    test('expireSessions logged-off: calls reject as logged off (401)', async () => {
      const c = await loggedOnClient(backend);
      backend.control.expireSessions();
      await assert.rejects(search(c), (e) => /Your user was logged off/.test(e.message) && e.loggedOff === true);
      client = await loggedOnClient(backend);
    });

    test('the HTTP control endpoint needs the control token', async () => {
      const url = `${backend.url}/__control/setCold`;
      const denied = await rawRequest(url, { method: 'POST', ca: backend.caCertPem, body: '[1]' });
      assert.equal(denied.status, 403);
      const ok = await rawRequest(url, { method: 'POST', ca: backend.caCertPem, body: '[1]', headers: { 'x-control-token': backend.controlToken } });
      assert.deepEqual(JSON.parse(ok.text), { result: { remaining: 1, mode: 'empty' } });
      backend.control.setCold(0);
      const last = await rawRequest(`${backend.url}/__control/lastTicketRequest`, { method: 'POST', ca: backend.caCertPem, headers: { 'x-control-token': backend.controlToken } });
      assert.equal(JSON.parse(last.text).result.user, 'DEVELOPER');
    });
  });
});

describe('backend client trust and TLS failures', () => {
  let privateCa;
  let selfSigned;
  let dir;
  before(async () => {
    [privateCa, selfSigned] = await Promise.all([
      startSapBackend({ tls: 'private-ca', users: USERS }),
      startSapBackend({ tls: 'self-signed', users: USERS }),
    ]);
    dir = mkdtempSync(join(tmpdir(), 'sap trust '));
  });
  after(async () => {
    await Promise.all([privateCa.close(), selfSigned.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const storeWith = (name, pems, password = 'changeit') => {
    const path = join(dir, name);
    writeFileSync(path, createPkcs12Truststore(pems, password));
    return path;
  };
  const optionsFor = (path, password = 'changeit') =>
    `-Djavax.net.ssl.trustStore="${path}" -Djavax.net.ssl.trustStorePassword=${password} -Djavax.net.ssl.trustStoreType=PKCS12`;
  const logonWith = async (backend, systemUrl, trust) => {
    const client = createBackendClient({ systemUrl, trust, userAgentInfos: UA, timeoutMs: 5000 });
    // The SDK's own ticket GET does not verify the certificate (insecure, as with selfSigned).
    const ticket = await fetchTicket(backend, { authorization: basic('DEVELOPER', PASSWORD) }, { insecure: true });
    return client.logon(ticket, { client: '001' });
  };

  test('JAVA_TOOL_OPTIONS is split like HotSpot (quotes group and are removed)', () => {
    assert.deepEqual(parseJavaToolOptions(` -Da="x y"z  -Db='q' -Dc `).args, ['-Da=x yz', '-Db=q', '-Dc']);
    assert.match(parseJavaToolOptions('-Da="x').error, /Unmatched quote/);
  });

  test('a truststore (path with spaces) holding the backend CA works', async () => {
    const trust = loadJvmTrust({ javaToolOptions: optionsFor(storeWith('with ca.p12', [privateCa.caCertPem])) });
    assert.equal(trust.source, 'truststore');
    assert.deepEqual(await logonWith(privateCa, privateCa.url, trust), { user: 'DEVELOPER', client: '001' });
  });

  test('the default trust (public roots) fails with the PKIX message', async () => {
    const trust = loadJvmTrust({ javaToolOptions: '' });
    assert.equal(trust.source, 'default');
    await assert.rejects(logonWith(privateCa, privateCa.url, trust), /PKIX path building failed: sun\.security\.provider\.certpath\.SunCertPathBuilderException: unable to find valid certification path to requested target/);
  });

  test('a store without the backend CA fails with PKIX; an empty store has no trust anchors', async () => {
    const other = loadJvmTrust({ javaToolOptions: optionsFor(storeWith('other.p12', [selfSigned.caCertPem])) });
    await assert.rejects(logonWith(privateCa, privateCa.url, other), /PKIX path building failed/);
    const empty = loadJvmTrust({ javaToolOptions: optionsFor(storeWith('empty.p12', [])) });
    await assert.rejects(logonWith(privateCa, privateCa.url, empty), /the trustAnchors parameter must be non-empty/);
  });

  test('a host name mismatch fails like Apache HttpClient; the right name works', async () => {
    const trust = loadJvmTrust({ javaToolOptions: optionsFor(storeWith('self.p12', [selfSigned.caCertPem])) });
    await assert.rejects(logonWith(selfSigned, selfSigned.url, trust), /Certificate for <127\.0\.0\.1> doesn't match any of the subject alternative names: \[sap-a4h\.sim\.internal\]/);
    const byName = `https://${selfSigned.hostname}:${selfSigned.port}`;
    assert.equal((await logonWith(selfSigned, byName, trust)).user, 'DEVELOPER');
  });

  test('a wrong password or a missing store fails with the JVM messages', () => {
    const path = storeWith('pw.p12', [privateCa.caCertPem], 'right');
    assert.equal(loadJvmTrust({ javaToolOptions: optionsFor(path, 'wrong') }).error, 'java.io.IOException: keystore password was incorrect');
    assert.match(loadJvmTrust({ javaToolOptions: optionsFor(join(dir, 'missing.p12')) }).error, /trustAnchors parameter must be non-empty/);
  });

  test('a keytool-made PKCS#12 store is read (skipped without keytool)', async (t) => {
    let keytool = true;
    try {
      execFileSync('keytool', ['-help'], { stdio: 'ignore' });
    } catch {
      keytool = false;
    }
    if (!keytool) return t.skip('keytool not on PATH');
    const pem = join(dir, 'ca.pem');
    writeFileSync(pem, privateCa.caCertPem);
    const store = join(dir, 'keytool.p12');
    execFileSync('keytool', ['-importcert', '-noprompt', '-keystore', store, '-storetype', 'PKCS12', '-storepass', 'changeit', '-alias', 'sim-ca', '-file', pem], { stdio: 'ignore' });
    const trust = loadJvmTrust({ javaToolOptions: optionsFor(store) });
    assert.equal(trust.ca.length, 1);
    assert.equal((await logonWith(privateCa, privateCa.url, trust)).user, 'DEVELOPER');
  });

  test('a keystore in JAVA_TOOL_OPTIONS is the client identity the JVM presents; a bad one fails every call', async () => {
    const { certPem, keyPem } = privateCa.clientCa.issueClientCert('alice');
    const p12 = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(keyPem), [forge.pki.certificateFromPem(certPem)], 'ks-pw', { algorithm: 'aes256' });
    const keystore = join(dir, 'client id.p12');
    writeFileSync(keystore, Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'));
    const trustOptions = optionsFor(storeWith('ks-trust.p12', [privateCa.caCertPem]));
    const withKeyStore = (password) =>
      `${trustOptions} "-Djavax.net.ssl.keyStore=${keystore}" -Djavax.net.ssl.keyStorePassword=${password} -Djavax.net.ssl.keyStoreType=PKCS12`;
    const trust = loadJvmTrust({ javaToolOptions: withKeyStore('ks-pw') });
    assert.equal(trust.error, undefined, trust.error);
    assert.equal(trust.source, 'truststore');
    assert.match(trust.identity.key, /^-----BEGIN PRIVATE KEY-----\n/);
    const res = await rawRequest(ticketUrl(privateCa), { ca: privateCa.caCertPem, cert: trust.identity.cert, key: trust.identity.key });
    assert.equal(res.status, 307);
    assert.equal(privateCa.control.lastTicketRequest.user, 'ALICE');
    const wrong = loadJvmTrust({ javaToolOptions: withKeyStore('wrong') });
    assert.equal(wrong.error, 'java.io.IOException: keystore password was incorrect');
    await assert.rejects(logonWith(privateCa, privateCa.url, wrong), /keystore password was incorrect/);
    assert.equal(loadJvmTrust({ javaToolOptions: withKeyStore('wrong'), keyStore: false }).error, undefined);
  });

  test('missing userAgentInfos breaks every backend call, as in adt-ls', async () => {
    const client = createBackendClient({ systemUrl: privateCa.url, trust: { ca: [privateCa.caCertPem] }, userAgentInfos: undefined });
    await assert.rejects(client.logon('x', { client: '001' }), /NoClassDefFoundError.*HttpRequestHeaderUtil/);
  });
});

const SAP_MAIN = fileURLToPath(new URL('../lib/sap/main.mjs', import.meta.url));
const SIM_CLI = fileURLToPath(new URL('../bin/adt-ls-simulator.mjs', import.meta.url));
for (const [label, entry] of [
  ['the standalone entry', [SAP_MAIN]],
  ['`adt-ls-simulator sap`', [SIM_CLI, 'sap']],
]) test(`${label} prints one JSON line and serves until killed`, async () => {
  assert.ok(existsSync(entry[0]));
  const child = spawn(process.execPath, [...entry, '--tls', 'private-ca', '--user', 'DEVELOPER:pw'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const line = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('no JSON line within 20 s')), 20_000);
      child.stdout.on('data', (c) => {
        out += c;
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve(out.split('\n')[0]);
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const info = JSON.parse(line);
    assert.match(info.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(info.controlToken, /^[0-9a-f]{48}$/);
    const res = await rawRequest(`${info.url}${PATHS.ticket}?redirect-url=${encodeURIComponent(REDIRECT)}`, { ca: info.caCertPem, headers: { authorization: basic('DEVELOPER', 'pw') } });
    assert.equal(res.status, 307);
  } finally {
    child.kill('SIGKILL');
  }
});

describe('fault knobs for logon diagnoses', () => {
  test('forbiddenUsers: valid credentials of a listed user get 403 and no ticket; others still 307', async () => {
    const backend = await startSapBackend({ tls: 'private-ca', users: USERS, forbiddenUsers: ['alice'] });
    try {
      const denied = await rawRequest(ticketUrl(backend), { ca: backend.caCertPem, headers: { authorization: basic('ALICE', 'alice-pw') } });
      assert.equal(denied.status, 403, denied.text);
      assert.equal(denied.headers.location, undefined);
      assert.match(denied.text, /No authorization for ADT/);
      assert.equal(backend.control.lastTicketRequest.status, 403);
      assert.ok(await fetchTicket(backend), 'DEVELOPER still gets a ticket');
    } finally {
      await backend.close();
    }
  });

  test('private-ca-expired and private-ca-wrong-host: the CA is right, the leaf is not', async () => {
    for (const [tls, reason] of [
      ['private-ca-expired', /expired/i],
      ['private-ca-wrong-host', /altnames|Host: 127\.0\.0\.1|not in the cert/i],
    ]) {
      const backend = await startSapBackend({ tls, users: USERS });
      try {
        const leaf = new (await import('node:crypto')).X509Certificate(backend.certPem);
        if (tls === 'private-ca-expired') assert.ok(new Date(leaf.validTo) < new Date(), `${tls}: validTo ${leaf.validTo}`);
        else assert.equal(leaf.subjectAltName, 'DNS:other.sim.internal');
        await assert.rejects(rawRequest(ticketUrl(backend), { ca: backend.caCertPem }), reason, tls);
        const ok = await rawRequest(ticketUrl(backend), { insecure: true, headers: { authorization: basic('DEVELOPER', PASSWORD) } });
        assert.equal(ok.status, 307, `${tls}: the backend itself works`);
      } finally {
        await backend.close();
      }
    }
  });
});

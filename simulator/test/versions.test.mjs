// Tests of what the simulator learned from live adt-ls 1.1.2 for the 0.7 contracts: per-file,
// per-user drafts with a per-session "pinned active" flag (abapStat, toggleVersion), CRLF after a
// reload, readDirectory over the repotree, the DDLX/NROB types, the quickSearch filter bug
// for SRVD/SRV, BDEF/BDO, DDLX/EX and NROB/NRO, and the pausable backend call tests use.

import assert from 'node:assert/strict';
import https from 'node:https';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';
import { createBackendClient } from '../lib/backend-client.mjs';
import { defaultConfig } from '../lib/config.mjs';
import { PATHS, startSapBackend } from '../lib/sap/index.mjs';
import { startSession } from '../lib/server.mjs';

const USERS = { DEVELOPER: 'Dev-Passw0rd', ALICE: 'alice-pw' };
const UA = [{ name: 'sap-test', version: '1.0.0' }];
const DEST = 'ADTLS';
const ORDER_DIR = 'abap:/repotree-v1/ADTLS/System%20Library/ZSIM_DEMO/Source%20Code%20Library/Classes/ZCL_SIM_ORDER/';
const ORDER = `${ORDER_DIR}zcl_sim_order.clas.abap`;
const ORDER_TESTS = `${ORDER_DIR}zcl_sim_order.clas.testclasses.abap`;
const SUITE = { timeout: 120_000 };

/** A reentrance ticket of `user` (the redirect is never followed). */
function ticketOf(backend, user) {
  const url = `${backend.url}${PATHS.ticket}?redirect-url=${encodeURIComponent('http://localhost:4711/r')}`;
  const authorization = 'Basic ' + Buffer.from(`${user}:${USERS[user]}`).toString('base64');
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca: backend.caCertPem, headers: { authorization }, agent: false, timeout: 5000 }, (res) => {
      res.resume();
      const location = res.headers.location;
      if (res.statusCode !== 307 || !location) return reject(new Error(`ticket: HTTP ${res.statusCode}`));
      resolve(new URL(location).searchParams.get('reentrance-ticket'));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/** A logged-on backend session of `user` (one adt-ls session). */
async function sessionOf(backend, user) {
  const client = createBackendClient({ systemUrl: backend.url, trust: { ca: [backend.caCertPem] }, userAgentInfos: UA, timeoutMs: 10_000 });
  await client.logon(await ticketOf(backend, user), { client: '001' });
  return client;
}

const read = async (s, uri) => (await s.call('adtLs/fileSystem/readFile', { uri })).content;
const stat = async (s, uri) => (await s.call('adtLs/fileSystem/abapStat', { uri })).version;
const toggle = (s, uri) => s.call('adtLs/fileSystem/toggleVersion', { uri });
const listing = async (s, uri) => (await s.call('adtLs/fileSystem/readDirectory', { uri })).children;

describe('source versions per file, user and session', SUITE, () => {
  let backend;
  before(async () => {
    backend = await startSapBackend({ tls: 'private-ca', users: USERS });
  });
  after(() => backend.close());

  test("a seeded draft: the owner's file is served as the draft, the other files and other users get the active version", async () => {
    const dev = await sessionOf(backend, 'DEVELOPER');
    const alice = await sessionOf(backend, 'ALICE');
    assert.match(await read(dev, ORDER), /rv_total = 90\./);
    assert.equal(await stat(dev, ORDER), 1);
    assert.equal(await stat(dev, ORDER_TESTS), 0, 'versions are per file');
    assert.match(await read(alice, ORDER), /rv_total = 100\./, "another user's draft is never served");
    assert.equal(await stat(alice, ORDER), 0);
    await assert.rejects(alice.call('adtLs/fileSystem/writeFile', { uri: ORDER, content: 'x' }), (e) => {
      assert.equal(e.message, 'Object ZCL_SIM_ORDER has an inactive version of user DEVELOPER; only DEVELOPER can change it before it is activated');
      return true;
    });
  });

  test('toggleVersion pins the whole object to active for this session only; a write of the session unpins it', async () => {
    const dev = await sessionOf(backend, 'DEVELOPER');
    const other = await sessionOf(backend, 'DEVELOPER');
    assert.equal(await toggle(dev, ORDER), null);
    assert.equal(await stat(dev, ORDER), 0);
    assert.equal(await read(dev, ORDER), backend.control.repository.get('ZCL_SIM_ORDER', 'CLAS/OC').sources.main.replace(/\n/g, '\r\n'), 'reloaded from SAP: CRLF');
    assert.equal(await stat(other, ORDER), 1, 'another session still serves the draft');
    assert.match(await read(other, ORDER), /rv_total = 90\.\n/);
    await toggle(dev, ORDER);
    assert.equal(await stat(dev, ORDER), 1);
    assert.match(await read(dev, ORDER), /rv_total = 90\.\r\n/, 'the draft reloaded: CRLF as well');
    // A write clears the pin and is served with the line ends it was sent with.
    await toggle(dev, ORDER);
    const draft = (await read(other, ORDER)).replace('rv_total = 90.', 'rv_total = 80.');
    assert.equal(await dev.call('adtLs/fileSystem/writeFile', { uri: ORDER, content: draft }), null);
    assert.equal(await stat(dev, ORDER), 1);
    assert.equal(await read(dev, ORDER), draft);
    // Toggling an object without a draft pins it too: nothing visible until a draft appears.
    const tests = (await read(dev, ORDER_TESTS)).replace(/\r\n/g, '\n');
    await toggle(dev, ORDER_TESTS);
    assert.equal(await stat(dev, ORDER_TESTS), 0);
    assert.equal((await read(dev, ORDER_TESTS)).replace(/\r\n/g, '\n'), tests);
    await toggle(dev, ORDER_TESTS);
  });

  test('activation makes the draft the active version and clears it', async () => {
    const dev = await sessionOf(backend, 'DEVELOPER');
    const alice = await sessionOf(backend, 'ALICE');
    const draft = await read(dev, ORDER);
    const result = await dev.call('adtLs/activation/activate', { destination: DEST, fileUris: [ORDER], references: [], forceActivation: false });
    assert.equal(result.isActivationExecuted, true);
    assert.equal(await stat(dev, ORDER), 0);
    assert.equal(await read(dev, ORDER), draft);
    assert.equal(await read(alice, ORDER), draft);
    const inactive = await dev.call('adtLs/activation/getInactiveObjects', { destination: DEST });
    assert.ok(!inactive.some((o) => o.name === 'ZCL_SIM_ORDER'));
    // Now ALICE may change it: her draft, DEVELOPER sees the active version.
    await alice.call('adtLs/fileSystem/writeFile', { uri: ORDER, content: draft.replace('ENDCLASS.\n', 'ENDCLASS. "alice\n') });
    assert.equal(await read(dev, ORDER), draft);
    assert.equal(await stat(alice, ORDER), 1);
    const listed = await alice.call('adtLs/activation/getInactiveObjects', { destination: DEST });
    assert.equal(listed.find((o) => o.name === 'ZCL_SIM_ORDER')?.user, 'ALICE');
  });

  test('a created object has only its draft: toggling cannot switch it to active', async () => {
    const dev = await sessionOf(backend, 'DEVELOPER');
    const created = await dev.call('tool:abap_creation-create_object', {
      destination: DEST,
      objectType: 'CLAS/OC',
      objectContent: JSON.stringify({ name: 'ZCL_SIM_NEW_DRAFT', packageName: '$TMP', description: 'versions' }),
      transportRequestNumber: '',
    });
    const { filePath } = JSON.parse(created.text);
    assert.equal(await stat(dev, filePath), 1);
    await toggle(dev, filePath);
    assert.equal(await stat(dev, filePath), 1, 'there is no active version to serve');
    const alice = await sessionOf(backend, 'ALICE');
    assert.equal(await read(alice, filePath), '');
  });

  test('crlfOnReload: false serves toggled files as stored', async () => {
    const plain = await startSapBackend({ tls: 'private-ca', users: USERS, crlfOnReload: false });
    try {
      const dev = await sessionOf(plain, 'DEVELOPER');
      await toggle(dev, ORDER);
      assert.doesNotMatch(await read(dev, ORDER), /\r/);
    } finally {
      await plain.close();
    }
  });
});

describe('readDirectory over the repotree, DDLX/EX and NROB/NRO objects', SUITE, () => {
  let backend;
  let dev;
  before(async () => {
    backend = await startSapBackend({ tls: 'private-ca', users: USERS });
    dev = await sessionOf(backend, 'DEVELOPER');
  });
  after(() => backend.close());

  test('folders and files from the URIs, directories first; a file or an unknown directory lists nothing', async () => {
    assert.deepEqual(await listing(dev, 'abap:/repotree-v1/ADTLS/'), [
      { name: 'Local Objects ($TMP)', type: 2 },
      { name: 'System Library', type: 2 },
    ]);
    const pkg = await listing(dev, 'abap:/repotree-v1/ADTLS/System%20Library/ZSIM_DEMO');
    assert.deepEqual(pkg.map((c) => c.name), ['Business Services', 'Core Data Services', 'Dictionary', 'Source Code Library']);
    assert.ok(pkg.every((c) => c.type === 2));
    const cds = await listing(dev, 'abap:/repotree-v1/ADTLS/System%20Library/ZSIM_DEMO/Core%20Data%20Services/');
    assert.deepEqual(cds.map((c) => c.name), ['Behavior Definitions', 'Data Definitions', 'Metadata Extensions']);
    assert.deepEqual(await listing(dev, ORDER_DIR), [
      { name: 'zcl_sim_order.clas.abap', type: 1 },
      { name: 'zcl_sim_order.clas.definitions.abap', type: 1 },
      { name: 'zcl_sim_order.clas.implementations.abap', type: 1 },
      { name: 'zcl_sim_order.clas.json', type: 1 },
      { name: 'zcl_sim_order.clas.macros.abap', type: 1 },
      { name: 'zcl_sim_order.clas.testclasses.abap', type: 1 },
    ]);
    for (const child of await listing(dev, ORDER_DIR)) assert.equal(typeof (await read(dev, ORDER_DIR + encodeURIComponent(child.name))), 'string');
    assert.deepEqual(await listing(dev, ORDER), []);
    assert.deepEqual(await listing(dev, 'abap:/repotree-v1/ADTLS/Nowhere/'), []);
    await assert.rejects(dev.call('adtLs/fileSystem/readDirectory', { uri: '/sap/bc/adt/oo/classes' }), /is not a repository URI/);
  });

  test('metadata extensions and number range objects are searchable by their types and readable', async () => {
    for (const [name, type, adt] of [
      ['ZC_SIM_FLIGHT', 'DDLX/EX', '/sap/bc/adt/ddic/ddlx/sources/zc_sim_flight'],
      ['ZSIM_FLNR', 'NROB/NRO', '/sap/bc/adt/numberranges/objects/zsim_flnr'],
      ['ZR_SIM_FLIGHT', 'BDEF/BDO', '/sap/bc/adt/bo/behaviordefinitions/zr_sim_flight'],
    ]) {
      const { references } = await dev.call('adtLs/repository/quickSearch', { destination: DEST, pattern: name, maxResults: 5, types: [type] });
      assert.deepEqual(references.map((r) => [r.name, r.type, r.uri]), [[name, type, adt]], type);
      const { uri } = await dev.call('adtLs/repository/getLsUri', { destination: DEST, adtUri: adt });
      assert.ok((await read(dev, uri)).length > 0, uri);
    }
    const { uri } = await dev.call('adtLs/repository/getLsUri', { destination: DEST, adtUri: '/sap/bc/adt/numberranges/objects/zsim_flnr' });
    assert.match(uri, /\/Dictionary\/Number%20Range%20Objects\/ZSIM_FLNR\/zsim_flnr\.nrob\.json$/);
    assert.equal(JSON.parse(await read(dev, uri)).numberRange.domain, 'S_CONN_ID');
    await assert.rejects(dev.call('adtLs/fileSystem/writeFile', { uri, content: '{}' }), /cannot be changed/);
  });

  test('pauseNext holds one call at the backend until it is released', async () => {
    const gate = backend.control.pauseNext('adtLs/fileSystem/abapStat');
    let settled = false;
    const held = stat(dev, ORDER).then((v) => {
      settled = true;
      return v;
    });
    await gate.reached;
    assert.equal(settled, false);
    assert.equal(await read(dev, ORDER_TESTS).then((t) => typeof t), 'string', 'other operations pass');
    gate.release();
    assert.equal(await held, 1);
    assert.equal(await stat(dev, ORDER), 1, 'only the next call was paused');
  });
});

/** The simulated adt-ls in-process, on a logged-on backend session (`ADTLS`). */
async function adtLs(backend, configPatch = {}) {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const config = { ...defaultConfig(), startupRequests: false, noise: false, ...configPatch };
  const session = await startSession({ input: toServer, output: toClient, config, log: () => {}, registrars: [], exit: () => {} });
  const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  client.listen();
  await client.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    initializationOptions: { userAgentInfos: UA },
  });
  await client.sendNotification('initialized', {});
  session.ctx.setBackend(DEST, await sessionOf(backend, 'DEVELOPER'));
  return {
    client,
    close() {
      client.dispose();
      session.dispose();
    },
  };
}

describe('adt-ls: the quickSearch filter bug and readDirectory outside a destination', SUITE, () => {
  let backend;
  before(async () => {
    backend = await startSapBackend({ tls: 'private-ca', users: USERS });
  });
  after(() => backend.close());

  const names = async (client, pattern, types) =>
    (await client.sendRequest('adtLs/repository/quickSearch', { destination: DEST, pattern, maxResults: 20, types })).references.map((r) => r.name);

  test('SRVD/SRV, BDEF/BDO, DDLX/EX and NROB/NRO filters find nothing; the bare main type finds the objects', async () => {
    const s = await adtLs(backend);
    try {
      for (const [name, subtype, main] of [
        ['ZUI_SIM_FLIGHT', 'SRVD/SRV', 'SRVD'],
        ['ZR_SIM_FLIGHT', 'BDEF/BDO', 'BDEF'],
        ['ZC_SIM_FLIGHT', 'DDLX/EX', 'DDLX'],
        ['ZSIM_FLNR', 'NROB/NRO', 'NROB'],
      ]) {
        assert.deepEqual(await names(s.client, name, [subtype]), [], subtype);
        assert.deepEqual(await names(s.client, name, [subtype.toLowerCase()]), [], subtype.toLowerCase());
        assert.deepEqual(await names(s.client, name, [main]), [name], main);
      }
      // Other filters in the same search still work; other subtypes filter normally.
      assert.deepEqual(await names(s.client, 'Z*', ['SRVD/SRV', 'INTF/OI']), ['ZIF_SIM_FLIGHT']);
      assert.deepEqual(await names(s.client, 'ZUI_SIM_FLIGHT_O*', ['SRVB/SVB']), ['ZUI_SIM_FLIGHT_O2', 'ZUI_SIM_FLIGHT_O4']);
      assert.ok((await names(s.client, 'ZUI_SIM_FLIGHT', [])).includes('ZUI_SIM_FLIGHT'));
    } finally {
      s.close();
    }
  });

  test('ADTLS_SIM_UNFILTERABLE_TYPES adds subtypes that behave the same', async () => {
    const s = await adtLs(backend, { unfilterableTypes: ['INTF/OI'] });
    try {
      assert.deepEqual(await names(s.client, 'ZIF_SIM_FLIGHT', ['INTF/OI']), []);
      assert.deepEqual(await names(s.client, 'ZIF_SIM_FLIGHT', ['INTF']), ['ZIF_SIM_FLIGHT']);
    } finally {
      s.close();
    }
  });

  test('readDirectory: null for a URI outside every destination; abapStat and toggleVersion are forwarded', async () => {
    const s = await adtLs(backend);
    try {
      assert.equal(await s.client.sendRequest('adtLs/fileSystem/readDirectory', { uri: '/sap/bc/adt/packages/zsim_demo' }), null);
      assert.equal(await s.client.sendRequest('adtLs/fileSystem/readDirectory', { uri: 'abap:/repotree-v1/' }), null);
      const children = (await s.client.sendRequest('adtLs/fileSystem/readDirectory', { uri: 'abap:/repotree-v1/ADTLS/' })).children;
      assert.deepEqual(children.map((c) => c.name), ['Local Objects ($TMP)', 'System Library']);
      assert.deepEqual(await s.client.sendRequest('adtLs/fileSystem/abapStat', { uri: ORDER }), { version: 1 });
      assert.equal(await s.client.sendRequest('adtLs/fileSystem/toggleVersion', { uri: ORDER }), null);
      assert.deepEqual(await s.client.sendRequest('adtLs/fileSystem/abapStat', { uri: ORDER }), { version: 0 });
    } finally {
      s.close();
    }
  });
});

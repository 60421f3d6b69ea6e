// The namespace methods (source, lifecycle, navigation, quality, services, transport) on a
// foundation-mode client: none throws synchronously (docs/decisions.md#d5-4), each rejects with the
// reference's "No ABAP destination is connected." -- except the checks the reference runs
// first (getDiff's argument validation, transport.create's local-package guard) -- and after
// dispose every one rejects as disposed.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createAdtLs } from '../index.js';
import { nodeAdtLs } from './fixtures/client/support.mjs';
import { ZCL_TEST, NO_DESTINATION } from './fixtures/namespaces/support.mjs';
import { declaredClientMethods } from './support/declared-api.mjs';

const loc = { symbol: 'add' };
const CALLS = {
  'source.read': (c) => c.source.read(ZCL_TEST),
  'lifecycle.resolveAffUri': (c) => c.lifecycle.resolveAffUri(ZCL_TEST),
  'lifecycle.create': (c) => c.lifecycle.create({ ...ZCL_TEST, packageName: '$TMP', description: 'd' }),
  'lifecycle.update': (c) => c.lifecycle.update({ ...ZCL_TEST, source: 'x' }),
  'lifecycle.activate': (c) => c.lifecycle.activate(ZCL_TEST),
  'lifecycle.runUnitTests': (c) => c.lifecycle.runUnitTests(ZCL_TEST),
  'lifecycle.delete': (c) => c.lifecycle.delete(ZCL_TEST),
  'lifecycle.generate': (c) => c.lifecycle.generate({ generatorId: 'x-ui-service', content: '{}', packageName: '$TMP' }),
  'lifecycle.validate': (c) => c.lifecycle.validate({ ...ZCL_TEST, packageName: '$TMP', description: 'd' }),
  'lifecycle.listCreatableObjects': (c) => c.lifecycle.listCreatableObjects(),
  'lifecycle.getObjectTypeDetails': (c) => c.lifecycle.getObjectTypeDetails('CLAS/OC'),
  'lifecycle.getCreationForm': (c) => c.lifecycle.getCreationForm('CLAS/OC'),
  'lifecycle.listGenerators': (c) => c.lifecycle.listGenerators(),
  'lifecycle.getGeneratorSchema': (c) => c.lifecycle.getGeneratorSchema('x-ui-service'),
  'navigation.documentSymbols': (c) => c.navigation.documentSymbols(ZCL_TEST),
  'navigation.checkSyntax': (c) => c.navigation.checkSyntax(ZCL_TEST),
  'navigation.goToDefinition': (c) => c.navigation.goToDefinition(ZCL_TEST, loc),
  'navigation.goToDeclaration': (c) => c.navigation.goToDeclaration(ZCL_TEST, loc),
  'navigation.hover': (c) => c.navigation.hover(ZCL_TEST, loc),
  'navigation.documentHighlight': (c) => c.navigation.documentHighlight(ZCL_TEST, loc),
  'navigation.findReferences': (c) => c.navigation.findReferences(ZCL_TEST, loc),
  'navigation.typeHierarchy': (c) => c.navigation.typeHierarchy(ZCL_TEST, loc),
  'navigation.completion': (c) => c.navigation.completion(ZCL_TEST, loc),
  'navigation.format': (c) => c.navigation.format(ZCL_TEST),
  'navigation.semanticTokens': (c) => c.navigation.semanticTokens(ZCL_TEST),
  'quality.listAtcVariants': (c) => c.quality.listAtcVariants(ZCL_TEST),
  'quality.runAtc': (c) => c.quality.runAtc(ZCL_TEST),
  'quality.runUnitTestsWithCoverage': (c) => c.quality.runUnitTestsWithCoverage(ZCL_TEST),
  'services.runApplication': (c) => c.services.runApplication(ZCL_TEST),
  'services.serviceBindingDetails': (c) => c.services.serviceBindingDetails(ZCL_TEST),
  'services.publishServiceBinding': (c) => c.services.publishServiceBinding(ZCL_TEST),
  'services.listServices': (c) => c.services.listServices(ZCL_TEST),
  'services.getServiceInfo': (c) => c.services.getServiceInfo(ZCL_TEST),
  'transport.find': (c) => c.transport.find({ objectName: 'ZX', objectType: 'CLAS/OC', developmentPackage: 'ZP', isCreation: true }),
  'transport.create': (c) =>
    c.transport.create({ developmentPackage: 'ZP', transportDescription: 'd', isCreation: true, objectName: 'ZX', objectType: 'CLAS/OC' }),
  'transport.assign': (c) => c.transport.assign({ ...ZCL_TEST, transport: 'A4HK900101' }),
  'transport.list': (c) => c.transport.list(),
  'transport.check': (c) => c.transport.check(ZCL_TEST),
  'transport.getLockStatus': (c) => c.transport.getLockStatus(ZCL_TEST),
  'transport.getDiff': (c) => c.transport.getDiff('A4HK900101'),
  // An async iterator: its first page is the call that rejects.
  'transport.diffPages': (c) => c.transport.diffPages('A4HK900101').next(),
};

let client;

before(async () => {
  client = await createAdtLs({ adtLs: nodeAdtLs() });
});
after(async () => {
  await client?.dispose();
});

/** Call without letting a synchronous throw escape; returns the settled outcome. */
async function outcome(name, call) {
  let promise;
  assert.doesNotThrow(() => {
    promise = call(client);
  }, `${name} threw synchronously`);
  assert.ok(promise instanceof Promise, `${name} returns a promise`);
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

test('every namespace method of the client object is covered here', () => {
  const namespaces = ['source', 'lifecycle', 'navigation', 'quality', 'services', 'transport'];
  const declared = declaredClientMethods().filter((m) => namespaces.includes(m.split('.')[0]));
  const exposed = namespaces.flatMap((ns) => Object.keys(client[ns]).map((m) => `${ns}.${m}`));
  assert.deepEqual(exposed.sort(), [...declared].sort(), 'the client object has the registry methods');
  assert.deepEqual(Object.keys(CALLS).sort(), [...declared].sort(), 'CALLS covers every registry method');
  for (const name of exposed) assert.equal(typeof name.split('.').reduce((o, k) => o[k], client), 'function');
});

test('without a destination every method rejects (never throws) with the reference text', async () => {
  for (const [name, call] of Object.entries(CALLS)) {
    const { error } = await outcome(name, call);
    assert.ok(error, `${name} resolved`);
    assert.match(error.message, NO_DESTINATION, name);
  }
});

test('checks that come before the destination: getDiff arguments, the local-package guard', async () => {
  const blank = await outcome('getDiff', (c) => c.transport.getDiff(''));
  assert.equal(blank.error.message, 'transportNumber must not be empty');
  const size = await outcome('getDiff', (c) => c.transport.getDiff('A4HK900101', { pageSize: 41 }));
  assert.equal(size.error.message, 'pageSize must be an integer between 1 and 40');
  const local = await outcome('create', (c) =>
    c.transport.create({ developmentPackage: '$TMP', transportDescription: 'd', isCreation: true, objectName: 'ZX', objectType: 'CLAS/OC' }),
  );
  assert.match(local.error.message, /^Package "\$TMP" is local \(non-transportable\)/);
});

test('after dispose every method rejects as disposed', async () => {
  await client.dispose();
  for (const [name, call] of Object.entries(CALLS)) {
    const { error } = await outcome(name, call);
    assert.ok(error, `${name} resolved after dispose`);
    assert.equal(error.message, 'AdtLsClient is disposed.', name);
  }
});

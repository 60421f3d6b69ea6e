// `Symbol.asyncDispose` on the createAdtLs client, AdtLsDriver and AdtLsMcpClient: it
// disposes (closes) exactly like dispose()/close(), is idempotent, and `await using` runs it
// at scope exit where the runtime parses `await using` (Bun; Node 24+), skipped visibly
// elsewhere (Node 20/22 need a flag).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createAdtLs, AdtLsDriver, AdtLsMcpClient } from '../index.js';
import { startMcpHttpServer } from 'adt-ls-simulator/mcp';
import { simDriverOptions } from './helpers.mjs';
import { nodeAdtLs } from './fixtures/client/support.mjs';

const DISPOSED = /^AdtLsClient is disposed\.$/;
const NOT_STARTED = /AdtLsDriver not started/;
const HAS_SYMBOL = typeof Symbol.asyncDispose === 'symbol';
const NO_SYMBOL = HAS_SYMBOL ? false : 'this runtime has no Symbol.asyncDispose';

/** An async function compiled from `body`, or undefined when the runtime cannot parse it. */
function compileAsync(params, body) {
  const AsyncFunction = (async () => {}).constructor;
  try {
    return new AsyncFunction(...params, body);
  } catch {
    return undefined;
  }
}
const AWAIT_USING = compileAsync([], 'await using x = null; return x;')
  ? false
  : `this runtime does not parse \`await using\` (${process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.version}`})`;

const servers = [];
after(() => Promise.all(servers.map((s) => s.close())));

test('client: [Symbol.asyncDispose] is dispose() itself; it disposes, idempotently', { skip: NO_SYMBOL }, async () => {
  const client = await createAdtLs({ adtLs: nodeAdtLs() });
  assert.equal(typeof client[Symbol.asyncDispose], 'function');
  assert.equal(client[Symbol.asyncDispose], client.dispose, 'the same function, the same promise semantics');
  assert.equal(Object.getOwnPropertyDescriptor(client, Symbol.asyncDispose).enumerable, false);
  const first = client[Symbol.asyncDispose]();
  assert.ok(first instanceof Promise);
  assert.equal(await first, undefined);
  await assert.rejects(client.listDestinations(), (e) => DISPOSED.test(e.message));
  assert.equal(client.health().connected, false);
  await Promise.all([client[Symbol.asyncDispose](), client.dispose()]);
});

test('driver: [Symbol.asyncDispose]() stops adt-ls like dispose(), idempotently', { skip: NO_SYMBOL }, async () => {
  const driver = new AdtLsDriver(process.execPath, simDriverOptions());
  const method = AdtLsDriver.prototype[Symbol.asyncDispose];
  assert.equal(typeof method, 'function');
  assert.equal(Object.getOwnPropertyDescriptor(AdtLsDriver.prototype, Symbol.asyncDispose).enumerable, false);
  await driver.start(20000);
  assert.ok(driver.initializeResult);
  const p = driver[Symbol.asyncDispose]();
  assert.ok(p instanceof Promise);
  assert.equal(await p, undefined);
  assert.equal(driver.initializeResult, undefined);
  await assert.rejects(driver.sendRequest('x'), NOT_STARTED);
  await driver[Symbol.asyncDispose]();
  // Never started: resolves too.
  await new AdtLsDriver(process.execPath, simDriverOptions())[Symbol.asyncDispose]();
  assert.throws(() => method.call({}), /needs a receiver with dispose\(\)/);
});

test('MCP client: [Symbol.asyncDispose]() closes the session (DELETE), idempotently', { skip: NO_SYMBOL }, async () => {
  const srv = await startMcpHttpServer({ fileSystemMode: 'VFS', token: 'secret', modes: { session: true } });
  servers.push(srv);
  const client = new AdtLsMcpClient(srv.url, 'secret', undefined, 5000);
  assert.equal(Object.getOwnPropertyDescriptor(AdtLsMcpClient.prototype, Symbol.asyncDispose).enumerable, false);
  await client.connect();
  const [session] = srv.stats.sessions;
  assert.equal(client.sessionId, session);
  await client[Symbol.asyncDispose]();
  assert.equal(client.sessionId, undefined);
  assert.deepEqual(srv.stats.deletes, [{ sessionId: session, status: 204 }]);
  await client[Symbol.asyncDispose]();
  assert.equal(srv.stats.deletes.length, 1, 'nothing more to close');
});

test('await using disposes the client, the driver and the MCP client at scope exit', { skip: NO_SYMBOL || AWAIT_USING }, async () => {
  const srv = await startMcpHttpServer({ fileSystemMode: 'VFS', token: 'secret', modes: { session: true } });
  servers.push(srv);
  const scope = compileAsync(
    ['createAdtLs', 'AdtLsDriver', 'AdtLsMcpClient', 'adtLs', 'driverOpts', 'url'],
    `
    let client, driver, mcp;
    {
      await using c = await createAdtLs({ adtLs });
      await using d = new AdtLsDriver(process.execPath, driverOpts);
      await using m = new AdtLsMcpClient(url, 'secret', undefined, 5000);
      await d.start(20000);
      await m.connect();
      [client, driver, mcp] = [c, d, m];
      if (!driver.initializeResult || !mcp.sessionId || !client.health) throw new Error('not live');
    }
    return { client, driver, mcp };
    `,
  );
  const { client, driver, mcp } = await scope(createAdtLs, AdtLsDriver, AdtLsMcpClient, nodeAdtLs(), simDriverOptions(), srv.url);
  await assert.rejects(client.listDestinations(), (e) => DISPOSED.test(e.message));
  assert.equal(driver.initializeResult, undefined);
  await assert.rejects(driver.sendRequest('x'), NOT_STARTED);
  assert.equal(mcp.sessionId, undefined);
  assert.equal(srv.stats.deletes.length, 1);
});

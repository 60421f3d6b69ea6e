// Tests of the hostile-peer hooks (lib/shell/hostile.mjs) in-process: the flood writes every
// frame and waits for the client to read (its status file shows the blocked writes), the deep
// messages nest as asked, server-request floods and deep asks get the client's replies, and
// stopReading really stops reading until its file appears.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, test } from 'node:test';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';
import { defaultConfig } from '../lib/config.mjs';
import { startSession } from '../lib/server.mjs';

const SUITE = { timeout: 120_000 };
const dir = mkdtempSync(join(tmpdir(), 'sim-hostile-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A session on two PassThrough streams (16 KiB high-water marks) and a client on them. */
async function inProcess() {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const config = { ...defaultConfig(), startupRequests: false, noise: false };
  const session = await startSession({ input: toServer, output: toClient, config, log: () => {}, registrars: [], exit: () => {} });
  const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  client.listen();
  await client.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    initializationOptions: { userAgentInfos: [{ name: 'test', version: '0' }] },
  });
  return {
    client,
    toClient,
    toServer,
    close() {
      client.dispose();
      session.dispose();
    },
  };
}

function depthOf(value) {
  let depth = 0;
  while (Array.isArray(value)) {
    depth++;
    value = value[0];
  }
  return depth;
}

describe('hostile hooks', SUITE, () => {
  test('sim/flood writes every notification, then answers; its status file records the count', async () => {
    const s = await inProcess();
    try {
      const seen = [];
      s.client.onNotification('x/flood', (p) => seen.push(p.n));
      const statusFile = join(dir, 'flood.json');
      const answer = await s.client.sendRequest('sim/flood', { method: 'x/flood', params: { n: 1 }, count: 5000, statusFile });
      assert.deepEqual(answer, { written: 5000 });
      await new Promise((r) => setImmediate(r));
      assert.equal(seen.length, 5000);
      assert.deepEqual(JSON.parse(readFileSync(statusFile, 'utf8')), { written: 5000, done: true });
    } finally {
      s.close();
    }
  });

  test('sim/flood blocks while nobody reads: the status file stops short of the count', async () => {
    const s = await inProcess();
    try {
      const statusFile = join(dir, 'blocked.json');
      s.client.sendRequest('sim/flood', { count: 100_000, statusFile }).catch(() => {});
      // The client reads nothing from now on (its reader stops taking data).
      s.toClient.pause();
      s.toClient.removeAllListeners('data');
      const deadline = Date.now() + 30_000;
      while (!existsSync(statusFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 200));
      const status = JSON.parse(readFileSync(statusFile, 'utf8'));
      assert.equal(status.done, false);
      assert.ok(status.written < 100_000, JSON.stringify(status));
    } finally {
      s.close();
    }
  });

  test('a request flood is answered by the client; the replies are swallowed', async () => {
    const s = await inProcess();
    try {
      let asked = 0;
      s.client.onRequest('x/ask', () => {
        asked++;
        return null;
      });
      assert.deepEqual(await s.client.sendRequest('sim/flood', { method: 'x/ask', count: 300, kind: 'request' }), { written: 300 });
      assert.deepEqual(await s.client.sendRequest('sim/echo', { after: true }), { after: true });
      assert.equal(asked, 300);
    } finally {
      s.close();
    }
  });

  test('deep results, notifications and server requests nest as asked', async () => {
    const s = await inProcess();
    try {
      assert.equal(depthOf(await s.client.sendRequest('sim/deepResult', { depth: 60 })), 60);
      const notes = [];
      // vscode-jsonrpc spreads array params over an untyped handler's arguments: the first
      // argument is one level less deep than the params.
      s.client.onNotification('x/deep', (first) => notes.push(depthOf(first) + 1));
      assert.equal(await s.client.sendRequest('sim/deepNotify', { method: 'x/deep', depth: 40 }), null);
      assert.deepEqual(notes, [40]);
      s.client.onRequest('x/deepAsk', (first) => ({ depth: depthOf(first) + 1 }));
      const asked = await s.client.sendRequest('sim/deepAsk', { method: 'x/deepAsk', depth: 30 });
      assert.deepEqual(asked, { reply: { result: { depth: 30 } } });
    } finally {
      s.close();
    }
  });

  test('sim/stopReading reads nothing until its file exists', async () => {
    const s = await inProcess();
    try {
      const untilFile = join(dir, 'resume');
      assert.equal(await s.client.sendRequest('sim/stopReading', { untilFile }), null);
      let answered = false;
      const echo = s.client.sendRequest('sim/echo', { late: 1 }).then((v) => {
        answered = true;
        return v;
      });
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(answered, false, 'not read while stopped');
      writeFileSync(untilFile, '');
      assert.deepEqual(await echo, { late: 1 });
    } finally {
      s.close();
    }
  });
});

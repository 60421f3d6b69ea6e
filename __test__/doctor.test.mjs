// `npx adt-ls-native doctor` through the package's bin, run by this runtime the way a user
// runs it: fake editor installs laid out by the simulator's installer (several versions and
// editors, an incomplete one, another platform's, a too-old one) and the simulated SAP
// system (private CA with and without extraCaCerts, self-signed without and with
// --self-signed, a wrong host name, a refused port, an unresolvable host, a silent port, a
// forward proxy in the engine's absolute-form style), asserting the JSON findings and the
// exit statuses.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { installFakeExtension } from '../simulator/lib/install.mjs';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { ROOT, tempDir } from './helpers.mjs';

const BIN = join(ROOT, 'bin', 'adt-ls-native.js');
const RUNTIME = process.versions.bun ? 'bun' : 'node';
let t;
let home;
let winner;
let privateCa;
let selfSigned;

/** Run the bin with `args`; resolves `{ code, stdout, stderr }` (async: the backend is in this process). */
function doctor(args, { env = {}, cwd = home, homeDir = home } = {}) {
  const childEnv = { ...process.env, HOME: homeDir, USERPROFILE: homeDir, ...env };
  if (!('ADT_LS_PATH' in env)) delete childEnv.ADT_LS_PATH;
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: childEnv, cwd, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? error.code : 0, stdout, stderr });
    });
  });
}

async function doctorJson(args, opts) {
  const run = await doctor(['doctor', '--json', ...args], opts);
  assert.equal(run.stderr, '', run.stderr);
  return { code: run.code, report: JSON.parse(run.stdout) };
}

const check = (report, id) => {
  const found = report.checks.find((c) => c.id === id);
  assert.ok(found, `no check ${id} in ${JSON.stringify(report.checks)}`);
  return found;
};

before(async () => {
  t = tempDir('adt-ls-native-doctor-');
  home = join(t.dir, 'home');
  mkdirSync(home, { recursive: true });
  installFakeExtension({ home, editor: 'vscode', version: '1.0.1' });
  winner = installFakeExtension({ home, editor: 'cursor', version: '1.1.2' });
  installFakeExtension({ home, editor: 'insiders', version: '1.10.0', incomplete: true });
  installFakeExtension({ home, editor: 'vscode', version: '1.2.0', platform: 'darwin', arch: 'arm64' });
  privateCa = await startSapBackend({ tls: 'private-ca' });
  selfSigned = await startSapBackend({ tls: 'self-signed' });
  writeFileSync(join(t.dir, 'private-ca.pem'), privateCa.caCertPem);
  writeFileSync(join(t.dir, 'self-signed.pem'), selfSigned.certPem);
});

after(async () => {
  await privateCa?.close();
  await selfSigned?.close();
  t?.cleanup();
});

test('every candidate across VS Code, Cursor and Insiders, the winner and why, the rejected ones with reasons', async () => {
  const { code, report } = await doctorJson([]);
  assert.equal(code, 0, JSON.stringify(report.checks));
  assert.equal(report.schemaVersion, 1);
  assert.equal(report.ok, true);
  assert.equal(report.runtime.name, RUNTIME);
  assert.equal(report.runtime.version, process.versions[RUNTIME]);
  assert.equal(report.runtime.platform, process.platform);
  assert.equal(report.runtime.arch, process.arch);
  if (process.platform === 'win32') assert.equal(report.runtime.nativeBinary, null); // not determined there (docs/doctor.md)
  else assert.match(report.runtime.nativeBinary, /adt-ls-native\..*\.node$/);
  assert.equal(report.runtime.nativePackage, null, 'the local build next to the loader, not a platform package');
  assert.equal(report.discovery.selected, winner.binPath);
  assert.match(report.discovery.why, /newest complete sapse\.adt-vscode install/);
  const rows = report.discovery.candidates.map((c) => [c.source, c.version, c.status, c.reasons.map((r) => r.code)]);
  assert.deepEqual(rows, [
    ['vendor', null, 'rejected', ['not-a-file']],
    ['insiders', '1.10.0', 'rejected', ['not-a-file']],
    ['vscode', '1.2.0', 'rejected', ['wrong-platform']],
    ['cursor', '1.1.2', 'selected', []],
    ['vscode', '1.0.1', 'not-chosen', ['too-old']],
  ]);
  assert.equal(report.discovery.candidates[0].path, join(home, 'vendor', 'adt-ls', ...report.discovery.platformSubPath.split('/')));
  assert.match(report.discovery.candidates[2].reasons[0].message, /built for darwin-arm64/);
  assert.deepEqual(report.jre.keytool, { path: winner.keytoolPath, exists: true });
  assert.deepEqual(report.jre.cacerts, { path: winner.cacertsPath, exists: true, format: 'PKCS12', certificates: 2 });
  assert.deepEqual(report.jre.java, {
    path: winner.javaPath,
    exists: true,
    started: true,
    exitCode: 0,
    version: 'openjdk version "21.0.9" 2025-10-21 LTS',
    output: ['openjdk version "21.0.9" 2025-10-21 LTS', 'OpenJDK Runtime Environment SapMachine (build 21.0.9+10-LTS)', 'OpenJDK 64-Bit Server VM SapMachine (build 21.0.9+10-LTS, mixed mode, sharing)'],
  });
  // The simulator's adt-ls is a script: no ELF to follow (a real install's is).
  if (process.platform === 'linux') assert.deepEqual(report.libraries, { binary: winner.binPath, elf: false });
  else assert.equal(report.libraries, null);
  assert.deepEqual(report.directories.map((d) => [d.id, d.exists, d.writable]), [['temp', true, true], ['data', true, true]]);
  assert.equal(report.directories[1].path, home);
  for (const d of report.directories) assert.ok(d.freeBytes > 0 && d.freeBytes <= d.totalBytes, JSON.stringify(d));
  assert.equal(report.connection, null);
  assert.deepEqual(
    report.checks.map((c) => [c.id, c.status]),
    [
      ['runtime', 'ok'],
      ['adt-ls.discovery', 'ok'],
      ['adt-ls.version', 'ok'],
      ['adt-ls.executable', 'ok'],
      ['adt-ls.libraries', 'skip'],
      ['jre.keytool', 'ok'],
      ['jre.cacerts', 'ok'],
      ['jre.java', 'ok'],
      ['dir.temp', 'ok'],
      ['dir.data', 'ok'],
    ],
  );
});

test('the text report names the winner and ends with the verdict', async () => {
  const run = await doctor(['doctor']);
  assert.equal(run.code, 0, run.stdout);
  assert.match(run.stdout, /^adt-ls-native doctor\n/);
  assert.ok(run.stdout.includes(`[ok]   adt-ls.discovery   ${winner.binPath} (cursor)`), run.stdout);
  assert.match(run.stdout, /rejected +vscode +1\.2\.0 .*built for darwin-arm64/);
  assert.match(run.stdout, /Everything checked would work\.\n$/);
});

test('only a too-old install: it is the winner, and the version check fails with the fix', async () => {
  const oldHome = join(t.dir, 'old-home');
  mkdirSync(oldHome, { recursive: true });
  const old = installFakeExtension({ home: oldHome, editor: 'insiders', version: '1.0.9' });
  const { code, report } = await doctorJson([], { homeDir: oldHome, cwd: oldHome });
  assert.equal(code, 1);
  assert.equal(report.ok, false);
  assert.equal(report.discovery.selected, old.binPath);
  const version = check(report, 'adt-ls.version');
  assert.equal(version.status, 'fail');
  assert.match(version.message, /1\.0\.9 is older than the minimum 1\.1\.2/);
  assert.match(version.fix, /update SAP's ABAP extension/);
});

test('ADT_LS_PATH naming a directory fails alone; the other candidates are still listed', async () => {
  const { code, report } = await doctorJson([], { env: { ADT_LS_PATH: home } });
  assert.equal(code, 1);
  assert.equal(report.discovery.selected, null);
  assert.match(report.discovery.error, /^Explicit adt-ls binary is not a file: /);
  const first = report.discovery.candidates[0];
  assert.deepEqual([first.source, first.status, first.reasons[0].code], ['ADT_LS_PATH', 'rejected', 'not-a-file']);
  assert.equal(report.discovery.candidates.length, 6);
  const discovery = check(report, 'adt-ls.discovery');
  assert.equal(discovery.status, 'fail');
  assert.match(discovery.fix, /binary file itself/);
  assert.equal(check(report, 'jre').status, 'skip');
});

test('--adt-ls-path to a file that is not executable: selected, and the executable check says chmod', async () => {
  const plain = join(t.dir, 'plain-adt-ls');
  writeFileSync(plain, '#!/bin/sh\n');
  chmodSync(plain, 0o644);
  const { code, report } = await doctorJson(['--adt-ls-path', plain], { env: { ADT_LS_PATH: winner.binPath } });
  assert.equal(report.discovery.selected, plain);
  assert.equal(report.discovery.candidates[0].source, 'adtLs.path');
  assert.match(report.discovery.why, /adtLs\.path is set/);
  const executable = check(report, 'adt-ls.executable');
  if (process.platform === 'win32') {
    assert.equal(executable.status, 'ok');
  } else {
    assert.equal(executable.status, 'fail');
    assert.equal(executable.fix, `chmod +x '${plain}'`);
    assert.equal(code, 1);
  }
});

test('usage: --help prints it and exits 0; an unknown command or a bad option exits 2', async () => {
  const help = await doctor(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: adt-ls-native doctor \[options\]/);
  for (const args of [[], ['fix'], ['doctor', '--client', '1'], ['doctor', '--url'], ['doctor', '--nope']]) {
    const run = await doctor(args);
    assert.equal(run.code, 2, `${args}: ${run.stdout}${run.stderr}`);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^adt-ls-native: .+\n\nUsage: adt-ls-native doctor/);
  }
});

test('private CA: not trusted by the JRE cacerts alone, trusted with --extra-ca; the reentrance answers 401 without credentials', async () => {
  const bare = await doctorJson(['--url', privateCa.url]);
  assert.equal(bare.code, 1);
  const trust = check(bare.report, 'trust');
  assert.equal(trust.status, 'fail');
  assert.match(trust.message, /does not trust the chain: .*UnknownIssuer/);
  assert.match(trust.fix, /connection\.extraCaCerts/);
  assert.equal(check(bare.report, 'hostname').status, 'ok');

  const { code, report } = await doctorJson(['--url', privateCa.url, '--extra-ca', join(t.dir, 'private-ca.pem'), '--timeout-ms', '5000']);
  assert.equal(code, 0, JSON.stringify(report.checks));
  assert.deepEqual(
    report.checks.slice(report.checks.findIndex((c) => c.id === 'extra-ca')).map((c) => [c.id, c.status]),
    [['extra-ca', 'ok'], ['dns', 'ok'], ['tcp', 'ok'], ['tls', 'ok'], ['trust', 'ok'], ['hostname', 'ok'], ['reentrance', 'ok']],
  );
  const c = report.connection;
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.port, privateCa.port);
  assert.equal(c.timeoutMs, 5000);
  assert.deepEqual(c.extraCaCerts, [join(t.dir, 'private-ca.pem')]);
  assert.deepEqual(c.trust, { trusted: true, anchors: 3, extraCaCerts: 1, error: null });
  const [leaf] = c.tls.chain;
  assert.match(leaf.subject, /CN=localhost/);
  assert.match(leaf.issuer, /Root CA/);
  assert.deepEqual(leaf.subjectAltNames, ['DNS:localhost', 'IP:127.0.0.1']);
  assert.ok(Date.parse(leaf.notBefore) < Date.now() && Date.now() < Date.parse(leaf.notAfter));
  assert.equal(c.reentrance.status, 401);
  assert.match(check(report, 'reentrance').message, /401 without credentials/);
  const ticket = privateCa.control.lastTicketRequest;
  assert.equal(ticket.status, 401);
  assert.equal(ticket.user ?? null, null, 'no credentials were sent');
  assert.equal(ticket.sapClient, '001');
});

test('self-signed: untrusted and the wrong name without --self-signed; fine with it', async () => {
  const without = await doctorJson(['--url', selfSigned.url]);
  assert.equal(without.code, 1);
  const trust = check(without.report, 'trust');
  assert.equal(trust.status, 'fail');
  assert.match(trust.fix, /^set connection\.selfSigned: true/);
  const hostname = check(without.report, 'hostname');
  assert.equal(hostname.status, 'fail');
  assert.match(hostname.message, /not valid for 127\.0\.0\.1/);
  assert.ok(hostname.message.includes(`DNS:${selfSigned.hostname}`), hostname.message);
  assert.equal(without.report.connection.tls.chain[0].selfSigned, true);

  const { code, report } = await doctorJson(['--url', selfSigned.url, '--self-signed']);
  assert.equal(code, 0, JSON.stringify(report.checks));
  assert.match(check(report, 'trust').message, /^selfSigned: /);
  assert.match(check(report, 'hostname').message, /^selfSigned: the host name is not checked/);
  assert.equal(check(report, 'reentrance').status, 'ok');
});

test('a wrong host name: the certificate is trusted but names another host', async () => {
  const url = `https://localhost:${selfSigned.port}`;
  const { code, report } = await doctorJson(['--url', url, '--extra-ca', join(t.dir, 'self-signed.pem')]);
  assert.equal(code, 1);
  assert.equal(check(report, 'trust').status, 'ok');
  const hostname = check(report, 'hostname');
  assert.equal(hostname.status, 'fail');
  assert.match(hostname.message, /not valid for localhost/);
  assert.match(hostname.fix, /host name the certificate names in connection\.systemUrl, or set connection\.selfSigned: true/);
  assert.equal(report.connection.hostName.matches, false);
});

test('a refused port fails at TCP and skips the rest', async () => {
  const port = await new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port: free } = server.address();
      server.close(() => resolve(free));
    });
  });
  const { code, report } = await doctorJson(['--url', `https://127.0.0.1:${port}`, '--timeout-ms', '3000']);
  assert.equal(code, 1);
  const tcp = check(report, 'tcp');
  assert.equal(tcp.status, 'fail');
  assert.match(tcp.message, /cannot connect to the system at 127\.0\.0\.1/);
  assert.match(tcp.fix, /check the port in connection\.systemUrl/);
  for (const id of ['tls', 'trust', 'hostname', 'reentrance']) assert.equal(check(report, id).status, 'skip');
});

test('an unresolvable host fails at DNS and skips the rest', async () => {
  const { code, report } = await doctorJson(['--url', 'https://adt-ls-native-doctor.invalid:44300', '--timeout-ms', '3000']);
  assert.equal(code, 1);
  const dns = check(report, 'dns');
  assert.equal(dns.status, 'fail');
  assert.match(dns.message, /adt-ls-native-doctor\.invalid/);
  assert.match(dns.fix, /host name in connection\.systemUrl/);
  for (const id of ['tcp', 'tls', 'trust', 'hostname', 'reentrance']) assert.equal(check(report, id).status, 'skip');
});

/** A TCP server for the test: `onSocket` gets every connection; resolves `{port, close}`. */
function tcpServer(onSocket) {
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onSocket(socket);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: server.address().port,
        close: () => new Promise((done) => {
          for (const s of sockets) s.destroy();
          server.close(() => done());
        }),
      }),
    );
  });
}

/** A forward proxy in the engine's style (plain HTTP, absolute-form targets) that answers
 * every request itself with `status` and records the request heads. */
async function forwardProxy(status) {
  const requests = [];
  const proxy = await tcpServer((socket) => {
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      requests.push(head.slice(0, end));
      socket.end(`HTTP/1.1 ${status} Status\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    });
  });
  return { ...proxy, requests };
}

test('--proxy with --self-signed goes the forward-proxy way: absolute-form GET, no TLS of ours, no credentials', async () => {
  const healthy = await forwardProxy(401);
  const broken = await forwardProxy(502);
  try {
    const url = 'https://sap-a4h.sim.internal:44300';
    const { code, report } = await doctorJson(['--url', url, '--self-signed', '--proxy', `127.0.0.1:${healthy.port}`, '--client', '100']);
    assert.equal(code, 0, JSON.stringify(report.checks));
    assert.equal(report.connection.proxy, `127.0.0.1:${healthy.port}`);
    assert.equal(report.connection.connectedTo, `127.0.0.1:${healthy.port}`);
    assert.match(check(report, 'dns').message, /\(the forward proxy\)/);
    assert.match(check(report, 'proxy').message, /in absolute form/);
    for (const id of ['tls', 'trust', 'hostname']) assert.equal(check(report, id).status, 'skip');
    assert.equal(check(report, 'reentrance').status, 'ok');
    assert.equal(healthy.requests.length, 1);
    const [line, ...headers] = healthy.requests[0].split('\r\n');
    assert.match(line, /^GET https:\/\/sap-a4h\.sim\.internal:44300\/sap\/bc\/adt\/core\/http\/reentranceticket\?redirect-url=[^ ]+&sap-client=100 HTTP\/1\.1$/);
    assert.ok(headers.includes('Host: sap-a4h.sim.internal:44300'), headers.join('|'));
    assert.ok(!headers.some((h) => /^(authorization|cookie):/i.test(h)), headers.join('|'));

    const bad = await doctorJson(['--url', url, '--self-signed', '--proxy', `127.0.0.1:${broken.port}`]);
    assert.equal(bad.code, 1);
    const reentrance = check(bad.report, 'reentrance');
    assert.equal(reentrance.status, 'fail');
    assert.match(reentrance.message, /answers 502/);
  } finally {
    await healthy.close();
    await broken.close();
  }
});

test('--proxy without --self-signed: a warning (the engine would not use it) and a direct probe', async () => {
  const unused = await forwardProxy(401);
  try {
    const args = ['--url', privateCa.url, '--extra-ca', join(t.dir, 'private-ca.pem'), '--proxy', `127.0.0.1:${unused.port}`];
    const { code, report } = await doctorJson(args);
    assert.equal(code, 0, JSON.stringify(report.checks));
    const proxy = check(report, 'proxy');
    assert.equal(proxy.status, 'warn');
    assert.match(proxy.message, /only with connection\.selfSigned: true/);
    assert.equal(report.connection.connectedTo, `127.0.0.1:${privateCa.port}`);
    assert.equal(check(report, 'trust').status, 'ok');
    assert.deepEqual(unused.requests, []);
  } finally {
    await unused.close();
  }
});

test('a forward proxy that is down fails at TCP with the proxy fix', async () => {
  const down = await tcpServer(() => {});
  const port = down.port;
  await down.close();
  const { code, report } = await doctorJson(['--url', 'https://sap.example:443', '--self-signed', '--proxy', `127.0.0.1:${port}`]);
  assert.equal(code, 1);
  const tcp = check(report, 'tcp');
  assert.equal(tcp.status, 'fail');
  assert.match(tcp.message, /the forward proxy/);
  assert.match(tcp.fix, /proxy's host and port/);
  assert.equal(check(report, 'reentrance').status, 'skip');
});

test('a port that accepts but never speaks TLS: the handshake is bounded by --timeout-ms', async () => {  const silent = await tcpServer(() => {});
  try {
    const started = Date.now();
    const { code, report } = await doctorJson(['--url', `https://127.0.0.1:${silent.port}`, '--timeout-ms', '400']);
    assert.equal(code, 1);
    const tls = check(report, 'tls');
    assert.equal(tls.status, 'fail');
    assert.match(tls.message, /no handshake within 400 ms/);
    assert.ok(Date.now() - started < 30_000);
    for (const id of ['trust', 'hostname', 'reentrance']) assert.equal(check(report, id).status, 'skip');
  } finally {
    await silent.close();
  }
});

test('the text report of a failure: the [FAIL] line, its fix, the presented chain, the verdict', async () => {
  const run = await doctor(['doctor', '--url', privateCa.url]);
  assert.equal(run.code, 1);
  assert.match(run.stdout, /\n\[FAIL\] trust +adt-ls's truststore \(JRE cacerts \+ 0 extra CA\(s\)\) does not trust the chain: /);
  assert.match(run.stdout, /\n +fix: pass the CA that issued the system's certificate in connection\.extraCaCerts/);
  assert.match(run.stdout, /#0 subject CN=localhost, O=SAP Simulator \| issuer CN=A4H Simulator Root CA/);
  assert.match(run.stdout, /\[ok\]   reentrance +the reentrance endpoint answers 401/);
  assert.match(run.stdout, /Something would fail: see the \[FAIL\] lines and their fixes\.\n$/);
});

test('a binary outside an install has no bundled JRE: a warning, a failure once selfSigned needs it', async () => {
  const lone = join(t.dir, 'lone', 'adt-ls');
  mkdirSync(join(t.dir, 'lone'), { recursive: true });
  writeFileSync(lone, '#!/bin/sh\n');
  chmodSync(lone, 0o755);
  const plain = await doctorJson([], { env: { ADT_LS_PATH: lone } });
  assert.equal(plain.code, 0, JSON.stringify(plain.report.checks));
  const keytool = check(plain.report, 'jre.keytool');
  assert.equal(keytool.status, 'warn');
  assert.match(keytool.message, /^Could not locate the adt-ls JRE keytool relative to .*only needed with selfSigned or extraCaCerts/);
  assert.equal(plain.report.jre.keytool, null);
  assert.equal(check(plain.report, 'adt-ls.version').status, 'skip');

  const needed = await doctorJson(['--url', selfSigned.url, '--self-signed'], { env: { ADT_LS_PATH: lone } });
  assert.equal(needed.code, 1);
  assert.equal(check(needed.report, 'jre.keytool').status, 'fail');
  assert.match(check(needed.report, 'jre.keytool').fix, /reinstall SAP's ABAP extension/);
  assert.equal(check(needed.report, 'reentrance').status, 'ok');
});

test('a plain http:// system URL: a warning about cleartext, the reentrance still answers', async () => {
  const plain = await startSapBackend({ tls: 'none' });
  try {
    const { code, report } = await doctorJson(['--url', plain.url]);
    assert.equal(code, 0, JSON.stringify(report.checks));
    const tls = check(report, 'tls');
    assert.equal(tls.status, 'warn');
    assert.match(tls.message, /plain HTTP/);
    assert.equal(report.connection.reentrance.status, 401);
    assert.equal(report.checks.some((c) => c.id === 'trust' || c.id === 'hostname'), false);
  } finally {
    await plain.close();
  }
});

test('--url with a user and password: neither appears in the JSON report nor in the text report', async () => {
  const plain = await startSapBackend({ tls: 'none' });
  try {
    const withUser = plain.url.replace('http://', 'http://DEVELOPER:Doctor-Secret-77@');
    for (const url of [withUser, withUser.replace('http://', 'https://')]) {
      const json = await doctor(['doctor', '--json', '--url', url, '--timeout-ms', '5000']);
      assert.equal(json.stderr, '', json.stderr);
      const report = JSON.parse(json.stdout);
      assert.doesNotMatch(json.stdout, /Doctor-Secret-77|DEVELOPER/);
      assert.match(report.connection.url, /^https?:\/\/\*\*\*@127\.0\.0\.1:\d+/);
      const text = await doctor(['doctor', '--url', url, '--timeout-ms', '5000']);
      assert.doesNotMatch(text.stdout + text.stderr, /Doctor-Secret-77|DEVELOPER/);
    }
  } finally {
    await plain.close();
  }
});

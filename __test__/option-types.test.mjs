// The declared option types (generated from `src/js/binding/types/options.rs`) and the option keys the
// runtime reads agree: for every option object, the members index.d.ts
// declares are exactly the keys the runtime knows. The runtime's list is read back from its
// own warning: a key far from every known key is reported as
// `unknown option <path>zzzzzz (ignored; known: a, b, ...)`. Each call also carries one
// invalid value so it fails at the boundary and never starts adt-ls. Declared members are
// read with the compiler API, so nothing here lists option keys by hand.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AdtLsDriver, AdtLsMcpClient, basic, createAdtLs, resolveAdtLsPath } from '../index.js';
import { ROOT, until } from './helpers.mjs';
import { declarationProgram } from './support/declarations.mjs';
import { captureLogs } from './fixtures/client/support.mjs';

const DTS = join(ROOT, 'index.d.ts');
const UNKNOWN = 'zzzzzz';
const SYSTEM_URL = 'https://sap.example.test:44300';

/**
 * One entry per declared option type: the option path the runtime names in its warning
 * (`''` for the top level) and a call that passes `UNKNOWN` in that object, then fails.
 */
const CASES = {
  CreateAdtLsOptions: ['', () => createAdtLs({ [UNKNOWN]: 1, mcpTimeoutMs: 0 })],
  AdtLsLaunchOptions: ['adtLs', () => createAdtLs({ adtLs: { [UNKNOWN]: 1, path: 5 } })],
  ConnectionOptions: ['connection', () => createAdtLs({ connection: { [UNKNOWN]: 1, systemUrl: 5 }, auth: basic('DEVELOPER', 'pw') })],
  ForwardProxyOptions: [
    'connection.forwardProxy',
    () => createAdtLs({ connection: { systemUrl: SYSTEM_URL, forwardProxy: { [UNKNOWN]: 1, host: 5 } }, auth: basic('DEVELOPER', 'pw') }),
  ],
  LivenessProbeOptions: [
    'connection.probe',
    () => createAdtLs({ connection: { systemUrl: SYSTEM_URL, probe: { [UNKNOWN]: 1, pattern: 5 } }, auth: basic('DEVELOPER', 'pw') }),
  ],
  KeepAliveOptions: ['keepAlive', () => createAdtLs({ keepAlive: { [UNKNOWN]: 1, intervalMs: 0 } })],
  TraceOptions: ['trace', () => createAdtLs({ trace: { [UNKNOWN]: 1, file: 5 } })],
  AdtLsDriverOptions: ['opts', () => new AdtLsDriver('/adt-ls', { [UNKNOWN]: 1, dataDir: 5 })],
  ClientInfo: ['opts.clientInfo', () => new AdtLsDriver('/adt-ls', { clientInfo: { [UNKNOWN]: 1, name: 5 } })],
  DiscoverOptions: ['opts', () => resolveAdtLsPath({ [UNKNOWN]: 1, explicitPath: 5 })],
  CallOptions: ['opts', () => new AdtLsMcpClient('http://127.0.0.1:9/mcp', 'tok-12345678').listTools({ [UNKNOWN]: 1, timeoutMs: 0 })],
};

/**
 * Option types that are intersected into the options of client methods rather than passed as
 * an object of their own; the N-API layer reads them before the call. Their members are
 * checked against the runtime in validation.test.mjs (a wrong value of each member is refused
 * by every method that takes it, naming the member's path).
 */
const MIXINS = ['ProgressOptions'];

let logs;
let declared;
before(() => {
  logs = captureLogs();
  const reader = declarationProgram([DTS]);
  const exported = new Map(reader.exportsOf(DTS).map((e) => [e.name, e.symbol]));
  declared = (name) => {
    const symbol = exported.get(name);
    assert.ok(symbol, `index.d.ts exports no ${name}`);
    return reader.checker
      .getPropertiesOfType(reader.checker.getDeclaredTypeOfSymbol(symbol))
      .map((member) => member.getName())
      .sort();
  };
});
after(() => logs.restore());

/** The failure of `call`, whether it throws or returns a rejecting promise. */
async function failureOf(call) {
  try {
    await call();
  } catch (e) {
    return e;
  }
  return undefined;
}

/**
 * The known keys the runtime lists for `path` once it warns about `UNKNOWN` there, in the
 * warnings logged after the first `since` (two option objects share the path `opts`).
 */
async function runtimeKeys(path, since) {
  const prefix = `unknown option ${path ? `${path}.` : ''}${UNKNOWN} (ignored; known: `;
  const find = () => logs.of('warn').slice(since).find((w) => w.startsWith(prefix));
  let line;
  await until(() => (line = find()) !== undefined);
  assert.ok(line, `no warning starting "${prefix}" in:\n${logs.of('warn').join('\n')}`);
  return line.slice(prefix.length, -1).split(', ').sort();
}

test('every option type of the public API is covered here', () => {
  const reader = declarationProgram([DTS]);
  const optionTypes = reader
    .exportsOf(DTS)
    .filter((e) => e.kind === 'type' && /Options$/.test(e.name))
    .map((e) => e.name);
  const covered = [...Object.keys(CASES), ...MIXINS];
  assert.deepEqual(
    optionTypes.filter((name) => !covered.includes(name)),
    [],
    'a declared *Options type without a case here',
  );
});

for (const [type, [path, call]] of Object.entries(CASES)) {
  test(`${type}: the declared members are the keys the runtime reads at ${path || 'the top level'}`, async () => {
    const since = logs.of('warn').length;
    const failure = await failureOf(call);
    assert.ok(failure instanceof Error, `${type}: the call fails at the boundary (it never starts adt-ls)`);
    assert.deepEqual(declared(type), await runtimeKeys(path, since));
  });
}

// The `navigation` namespace through the public API against the simulator in connected mode:
// every method once with its exact wire params and the didOpen / query / didClose frame,
// the locator rules (explicit position, outline, source fallback, names with `~` and `/`),
// token priming for hover and highlight, completion capping and resolve, formatting with the
// sentinel end, type hierarchy, the where-used timeout and "Internal error" hint, per-URI
// queueing, and a pending call that never blocks dispose.

import { test, before, beforeEach, after } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURE } from './fixtures/client/support.mjs';
import { until, timed } from './helpers.mjs';
import * as SEED from '../simulator/lib/sap/model/seed-sources.mjs';
import {
  ZCL_TEST,
  ZCL_TEST_EXTRA,
  ZCL_FLIGHT_QUERY,
  connectedClient,
  rejection,
  freshClassName,
} from './fixtures/namespaces/support.mjs';

const TYPEDESCR = { name: 'CL_ABAP_TYPEDESCR', objectType: 'CLAS/OC' };
const HINT = 'the symbol is likely too heavily used (e.g. a global class/method); narrow to a local or less-referenced symbol.';
let env;
let client;
let uri;

before(async () => {
  env = await connectedClient({
    ADTLS_SIM_REFERENCES_HANG: 'get_relative_name',
    ADTLS_SIM_REFERENCES_ERROR: 'describe_by_name',
  });
  client = env.client;
  uri = await client.lifecycle.resolveAffUri(ZCL_TEST);
});
after(async () => {
  await env?.close();
});

// Every call resolves once its didClose is written; wait until adt-ls has seen all of them,
// so one test's trailing didClose never lands in the next test's window.
beforeEach(async () => {
  const balanced = () => {
    const methods = env.wire.messages().map((m) => m.method);
    const count = (name) => methods.filter((m) => m === name).length;
    return count('textDocument/didOpen') === count('textDocument/didClose');
  };
  assert.ok(await until(balanced, 3000, 10), 'every opened document was closed');
});

/** The methods that reached adt-ls since `mark` (LSP requests and notifications). */
function methodsSince(mark) {
  return env.wire.since(mark).map((m) => m.method);
}

/**
 * Wait (bounded) until the didClose of the last call arrived: a call resolves once its
 * didClose is written, which can be a moment before the simulator records it.
 */
async function closed(mark, count = 1) {
  const ok = await until(() => env.wire.since(mark, 'textDocument/didClose').length >= count, 3000, 10);
  assert.ok(ok, 'didClose reached adt-ls');
}

const doc = (u = uri) => ({ textDocument: { uri: u } });

test('documentSymbols and checkSyntax: resolve, read, didOpen, the query, didClose', async () => {
  let mark = env.wire.mark();
  const outline = await client.navigation.documentSymbols(ZCL_TEST);
  await closed(mark);
  assert.equal(outline[0].name, 'zcl_test');
  assert.ok(outline[0].children.some((c) => c.name === 'add'));
  assert.deepEqual(methodsSince(mark), [
    'adtLs/repository/quickSearch',
    'adtLs/repository/getLsUri',
    'adtLs/fileSystem/readFile',
    'textDocument/didOpen',
    'textDocument/documentSymbol',
    'textDocument/didClose',
  ]);
  const [, , read, open, query, close] = env.wire.since(mark);
  assert.deepEqual(read.params, { uri });
  // The simulated backend's seed source of ZCL_TEST, not a read through the client.
  assert.deepEqual(open.params, { textDocument: { uri, languageId: 'abap', version: 1, text: SEED.ZCL_TEST.main } });
  assert.deepEqual(query.params, doc());
  assert.deepEqual(close.params, doc());

  mark = env.wire.mark();
  assert.deepEqual(await client.navigation.checkSyntax(ZCL_TEST), { kind: 'full', items: [] });
  assert.deepEqual(env.wire.since(mark, 'textDocument/diagnostic').map((m) => m.params), [doc()]);
});

test('definition and declaration: outline hits, explicit 1-based positions, a class name at column 0', async () => {
  let mark = env.wire.mark();
  const definition = await client.navigation.goToDefinition(ZCL_TEST, { symbol: 'ADD' });
  assert.deepEqual(definition[0].range.start, { line: 19, character: 9 });
  assert.deepEqual(env.wire.since(mark, 'textDocument/definition')[0].params, { ...doc(), position: { line: 7, character: 12 } });

  mark = env.wire.mark();
  const declaration = await client.navigation.goToDeclaration(ZCL_TEST, { line: 20, character: 12, symbol: 'ignored' });
  assert.deepEqual(declaration[0].range.start, { line: 7, character: 12 });
  assert.deepEqual(env.wire.since(mark, 'textDocument/declaration')[0].params, { ...doc(), position: { line: 19, character: 11 } });
  assert.equal(env.wire.since(mark, 'textDocument/documentSymbol').length, 0, 'explicit positions need no outline');

  mark = env.wire.mark();
  await client.navigation.goToDeclaration(ZCL_TEST, { line: 0, character: -3 });
  assert.deepEqual(env.wire.since(mark, 'textDocument/declaration')[0].params.position, { line: 0, character: 0 });

  mark = env.wire.mark();
  await client.navigation.goToDefinition(ZCL_TEST, { symbol: 'zcl_test' });
  assert.deepEqual(env.wire.since(mark, 'textDocument/definition')[0].params.position, { line: 0, character: 6 }, 'the name, not the keyword');
});

test('locator errors: nothing to point at, an unknown symbol lists the declared ones', async () => {
  const none = await rejection(assert, client.navigation.goToDefinition(ZCL_TEST, {}));
  assert.equal(none.message, 'Provide a `symbol` name or explicit `line` + `character` (1-based).');
  const lineOnly = await rejection(assert, client.navigation.hover(ZCL_TEST, { line: 3 }));
  assert.equal(lineOnly.message, none.message);
  const mark = env.wire.mark();
  const unknown = await rejection(assert, client.navigation.hover(ZCL_TEST, { symbol: 'nope' }));
  assert.equal(
    unknown.message,
    'Symbol "nope" not found in the outline or source. Declared symbols: zcl_test, add. For CDS, pass explicit 1-based line + character instead.',
  );
  assert.equal(env.wire.since(mark, 'textDocument/hover').length, 0);
  await closed(mark);
});

test('hover and documentHighlight prime the token cache first', async () => {
  let mark = env.wire.mark();
  const hover = await client.navigation.hover(ZCL_TEST, { symbol: 'add' });
  await closed(mark);
  assert.match(hover.contents.value, /METHODS add/);
  assert.deepEqual(methodsSince(mark).slice(3), [
    'textDocument/didOpen',
    'textDocument/semanticTokens/full',
    'textDocument/documentSymbol',
    'textDocument/hover',
    'textDocument/didClose',
  ]);
  assert.deepEqual(env.wire.since(mark, 'textDocument/semanticTokens/full')[0].params, doc());
  assert.deepEqual(env.wire.since(mark, 'textDocument/hover')[0].params, { ...doc(), position: { line: 7, character: 12 } });

  mark = env.wire.mark();
  const highlights = await client.navigation.documentHighlight(ZCL_TEST, { symbol: 'add' });
  assert.equal(highlights.length, 2);
  assert.deepEqual(methodsSince(mark).slice(4, 6), ['textDocument/semanticTokens/full', 'textDocument/documentSymbol']);
  assert.deepEqual(env.wire.since(mark, 'textDocument/documentHighlight')[0].params, { ...doc(), position: { line: 7, character: 12 } });
});

test('findReferences: includeDeclaration defaults to true and is forwarded', async () => {
  let mark = env.wire.mark();
  const all = await client.navigation.findReferences(ZCL_TEST, { symbol: 'add' });
  assert.deepEqual(env.wire.since(mark, 'textDocument/references')[0].params, {
    ...doc(),
    position: { line: 7, character: 12 },
    context: { includeDeclaration: true },
  });
  mark = env.wire.mark();
  const uses = await client.navigation.findReferences(ZCL_TEST, { symbol: 'add' }, { includeDeclaration: false });
  assert.equal(env.wire.since(mark, 'textDocument/references')[0].params.context.includeDeclaration, false);
  assert.equal(uses.length, all.length - 1);
});

test('findReferences: a hang times out with the hint, "Internal error" gets the hint; the queue moves on', async () => {
  const typedescr = await client.lifecycle.resolveAffUri(TYPEDESCR);
  const mark = env.wire.mark();
  const hung = await timed(client.navigation.findReferences(TYPEDESCR, { symbol: 'get_relative_name' }, { timeoutMs: 300 }));
  assert.equal(hung.ok, false);
  assert.equal(hung.error.message, `findReferences timed out after 300ms — ${HINT}`);
  assert.ok(hung.ms < 5000, `${hung.ms} ms`);
  await closed(mark);
  assert.deepEqual(env.wire.since(mark, 'textDocument/didClose').map((m) => m.params), [doc(typedescr)]);

  const failed = await rejection(assert, client.navigation.findReferences(TYPEDESCR, { symbol: 'describe_by_name' }));
  assert.equal(failed.message, `findReferences failed (Internal error) — ${HINT}`);

  const after = await timed(client.navigation.documentSymbols(TYPEDESCR));
  assert.equal(after.ok, true, String(after.error));
});

test('typeHierarchy: the first item and the asked-for directions, all without data', async () => {
  let mark = env.wire.mark();
  const both = await client.navigation.typeHierarchy(ZCL_FLIGHT_QUERY, { symbol: 'zcl_sim_flight_query' });
  assert.equal(both.item.name, 'zcl_sim_flight_query');
  assert.equal('data' in both.item, false);
  assert.ok(Array.isArray(both.supertypes) && Array.isArray(both.subtypes));
  assert.ok(both.supertypes.some((t) => /zif_sim_flight/i.test(t.name)), JSON.stringify(both.supertypes));
  assert.ok([...both.supertypes, ...both.subtypes].every((t) => !('data' in t)));
  const sent = env.wire.since(mark, 'typeHierarchy/supertypes')[0].params;
  assert.ok('data' in sent.item, 'the server gets the item with its data');
  assert.equal(env.wire.since(mark, 'typeHierarchy/subtypes').length, 1);

  mark = env.wire.mark();
  const up = await client.navigation.typeHierarchy(ZCL_FLIGHT_QUERY, { symbol: 'zcl_sim_flight_query' }, { direction: 'supertypes' });
  assert.deepEqual(Object.keys(up), ['item', 'supertypes']);
  assert.equal(env.wire.since(mark, 'typeHierarchy/subtypes').length, 0);

  const nothing = await client.navigation.typeHierarchy(ZCL_FLIGHT_QUERY, { line: 3, character: 1 });
  assert.deepEqual(nothing, { item: null, supertypes: [], subtypes: [] });
});

test('completion: capped, data stripped; resolve enriches only items with data, up to resolveLimit', async () => {
  const at = { line: 21, character: 5 };
  let mark = env.wire.mark();
  const plain = await client.navigation.completion(ZCL_TEST, at, { maxItems: 3 });
  assert.deepEqual(env.wire.since(mark, 'textDocument/completion')[0].params, { ...doc(), position: { line: 20, character: 4 } });
  assert.ok(plain.total > 3, `total ${plain.total}`);
  assert.equal(plain.items.length, 3);
  assert.equal(typeof plain.isIncomplete, 'boolean');
  assert.ok(plain.items.every((i) => !('data' in i)));
  assert.equal(env.wire.since(mark, 'completionItem/resolve').length, 0, 'no resolve by default');

  mark = env.wire.mark();
  const all = await client.navigation.completion(ZCL_TEST, at, { maxItems: 1000 });
  const resolved = await client.navigation.completion(ZCL_TEST, at, { maxItems: 1000, resolve: true, resolveLimit: 2 });
  const sent = env.wire.since(mark, 'completionItem/resolve');
  assert.equal(resolved.resolved, sent.length);
  assert.ok(resolved.resolved >= 1 && resolved.resolved <= 2, `resolved ${resolved.resolved}`);
  assert.ok(sent.every((m) => 'data' in m.params), 'the full item goes to resolve');
  assert.equal(resolved.items.length, all.items.length);
  assert.ok(resolved.items.every((i) => !('data' in i)));
  assert.equal(resolved.items.filter((i) => i.documentation).length, resolved.resolved);
});

test('format: the pretty printer edits applied (sentinel end line), options defaulted and forwarded', async () => {
  let mark = env.wire.mark();
  const { formatted, edits } = await client.navigation.format(ZCL_TEST);
  assert.deepEqual(env.wire.since(mark, 'textDocument/formatting')[0].params, { ...doc(), options: { tabSize: 2, insertSpaces: true } });
  assert.equal(edits.length, 1);
  assert.ok(edits[0].range.end.line > 1000, 'a sentinel end line');
  assert.equal(formatted, edits[0].newText);
  assert.notEqual(formatted, await client.source.read(ZCL_TEST));

  mark = env.wire.mark();
  await client.navigation.format(ZCL_TEST, { tabSize: 4, insertSpaces: false });
  assert.deepEqual(env.wire.since(mark, 'textDocument/formatting')[0].params.options, { tabSize: 4, insertSpaces: false });
});

test('semanticTokens: decoded with the legend from initialize', async () => {
  const mark = env.wire.mark();
  const { legend, tokens } = await client.navigation.semanticTokens(ZCL_TEST);
  assert.deepEqual(legend, FIXTURE.lsp.semanticTokensProvider.legend);
  assert.deepEqual(env.wire.since(mark, 'textDocument/semanticTokens/full')[0].params, doc());
  assert.ok(tokens.length > 10);
  assert.deepEqual(tokens[0], { line: 0, character: 0, length: 5, tokenType: 'keyword', tokenModifiers: [] });
  assert.ok(tokens.every((t) => legend.tokenTypes.includes(t.tokenType)));
});

test('names with ~ and / are found in the source (D5.14); an interface method points at the method', async () => {
  const name = freshClassName('NL');
  const ref = { name, objectType: 'CLAS/OC' };
  const lower = name.toLowerCase();
  const source = [
    'INTERFACE lif_order.',
    '  METHODS submit.',
    'ENDINTERFACE.',
    '',
    `CLASS ${lower} DEFINITION PUBLIC FINAL CREATE PUBLIC.`,
    '  PUBLIC SECTION.',
    '    INTERFACES lif_order.',
    '    DATA mo_flight TYPE REF TO /dmo/cl_flight.',
    'ENDCLASS.',
    '',
    `CLASS ${lower} IMPLEMENTATION.`,
    '  METHOD lif_order~submit.',
    '    mo_flight = NEW /dmo/cl_flight( ).',
    '  ENDMETHOD.',
    'ENDCLASS.',
    '',
  ].join('\n');
  await client.lifecycle.create({ ...ref, packageName: '$TMP', description: 'locator' });
  try {
    await client.lifecycle.update({ ...ref, source });
    let mark = env.wire.mark();
    const definition = await client.navigation.goToDefinition(ref, { symbol: 'LIF_ORDER~SUBMIT' });
    assert.deepEqual(env.wire.since(mark, 'textDocument/definition')[0].params.position, { line: 11, character: 19 });
    assert.ok(definition.length > 0, 'the simulator resolves the method');

    mark = env.wire.mark();
    await client.navigation.goToDeclaration(ref, { symbol: '/dmo/cl_flight' });
    assert.deepEqual(env.wire.since(mark, 'textDocument/declaration')[0].params.position, { line: 7, character: 31 });
  } finally {
    await client.lifecycle.delete(ref);
  }
});

test('calls on one URI queue (open, query, close never interleave); other URIs run alongside', async () => {
  const extra = await client.lifecycle.resolveAffUri(ZCL_TEST_EXTRA);
  const mark = env.wire.mark();
  const results = await Promise.all([
    client.navigation.documentSymbols(ZCL_TEST),
    client.navigation.hover(ZCL_TEST, { symbol: 'add' }),
    client.navigation.semanticTokens(ZCL_TEST),
    client.navigation.findReferences(ZCL_TEST, { symbol: 'add' }),
    client.navigation.documentSymbols(ZCL_TEST_EXTRA),
  ]);
  assert.equal(results.length, 5);
  await closed(mark, 5);
  const frames = env.wire
    .since(mark)
    .filter((m) => m.params?.textDocument?.uri === uri)
    .map((m) => m.method);
  assert.equal(frames.filter((m) => m === 'textDocument/didOpen').length, 4);
  let open = false;
  for (const method of frames) {
    if (method === 'textDocument/didOpen') {
      assert.equal(open, false, `a second didOpen before didClose: ${frames.join(' ')}`);
      open = true;
    } else if (method === 'textDocument/didClose') {
      assert.equal(open, true);
      open = false;
    } else {
      assert.equal(open, true, `${method} outside an open document`);
    }
  }
  assert.ok(env.wire.since(mark, 'textDocument/didOpen').some((m) => m.params.textDocument.uri === extra));
});

test('a pending findReferences never blocks dispose; it rejects as disposed', async () => {
  const mark = env.wire.mark();
  const pending = timed(client.navigation.findReferences(TYPEDESCR, { symbol: 'get_relative_name' }, { timeoutMs: 60_000 }));
  const sent = await until(() => env.wire.since(mark, 'textDocument/references').length > 0, 10_000);
  assert.ok(sent, 'the references request reached adt-ls');
  const disposed = await timed(client.dispose());
  assert.equal(disposed.ok, true);
  assert.ok(disposed.ms < 6000, `dispose took ${disposed.ms} ms`);
  const outcome = await pending;
  assert.equal(outcome.ok, false);
  assert.match(outcome.error.message, /disposed/);
  await rejection(assert, client.navigation.documentSymbols(ZCL_TEST));
});

// The open-document store of the simulated adt-ls: didOpen/didChange/didClose keep the text
// per URI, and per open session whether semantic tokens were computed (hover and highlight
// only answer for tokens in that cache, as real adt-ls does).

import { ResponseError } from 'vscode-jsonrpc/node.js';
import { INTERNAL_ERROR_CODE } from '../shell/gates.mjs';
import { analyse } from './abap/outline.mjs';

export function createDocumentStore() {
  const documents = new Map();

  function open({ uri, languageId, version, text }) {
    documents.set(uri, { uri, languageId, version, text: text ?? '', tokensPrimed: false, analysis: undefined });
  }

  function change({ uri, version }, contentChanges = []) {
    const doc = documents.get(uri);
    if (!doc) return;
    // The server advertises full sync (change: 1): the last change carries the whole text.
    const last = contentChanges[contentChanges.length - 1];
    if (last && typeof last.text === 'string') doc.text = last.text;
    doc.version = version ?? doc.version;
    doc.tokensPrimed = false;
    doc.analysis = undefined;
  }

  function close(uri) {
    documents.delete(uri);
  }

  /** The open document, or a `Document <uri> not open` error. */
  function requireOpen(uri) {
    const doc = documents.get(uri);
    if (!doc) throw new ResponseError(INTERNAL_ERROR_CODE, `Document ${uri} not open`);
    return doc;
  }

  /** Lazily parsed outline and statements of an open document. */
  function analysisOf(doc) {
    doc.analysis ??= analyse(doc.text);
    return doc.analysis;
  }

  return { open, change, close, requireOpen, analysisOf, all: () => [...documents.values()] };
}

export function registerDocumentSync(ctx, store) {
  const { connection } = ctx;
  connection.onNotification('textDocument/didOpen', (params) => {
    if (params?.textDocument?.uri) store.open(params.textDocument);
  });
  connection.onNotification('textDocument/didChange', (params) => {
    if (params?.textDocument?.uri) store.change(params.textDocument, params.contentChanges);
  });
  connection.onNotification('textDocument/didClose', (params) => {
    if (params?.textDocument?.uri) store.close(params.textDocument.uri);
  });
  // Saves are accepted and ignored: writes go through adtLs/fileSystem/writeFile.
  connection.onNotification('textDocument/didSave', () => {});
  connection.onNotification('textDocument/willSave', () => {});
}

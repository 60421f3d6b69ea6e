// The standard LSP document features served by the simulated adt-ls itself, on the text the
// client opened with didOpen (docs/wire.md#navigation). Requests for a document that is not
// open fail with `Document <uri> not open`.

import { documentSymbolsOf } from './features/symbols.mjs';
import { completion, resolveCompletionItem } from './features/completion.mjs';
import { diagnosticReport } from './features/diagnostics.mjs';
import { formattingEdits } from './features/formatting.mjs';
import { declaration, definition, documentHighlight, hover, references } from './features/navigation.mjs';
import { semanticTokensFull } from './features/semantic-tokens.mjs';
import { prepareTypeHierarchy, subtypes, supertypes } from './features/type-hierarchy.mjs';

export function registerTextDocumentFeatures(ctx, store) {
  // Registers a handler that needs the open document named by params.textDocument.uri.
  const onDocument = (method, serve) =>
    ctx.onRequest(method, (params) => {
      const doc = store.requireOpen(params?.textDocument?.uri);
      return serve(doc, store.analysisOf(doc), params);
    });

  onDocument('textDocument/documentSymbol', (doc, analysis) => documentSymbolsOf(analysis));
  onDocument('textDocument/diagnostic', (doc, analysis) => diagnosticReport(analysis));
  onDocument('textDocument/definition', (doc, analysis, p) => definition(doc, analysis, p.position));
  onDocument('textDocument/declaration', (doc, analysis, p) => declaration(doc, analysis, p.position));
  onDocument('textDocument/hover', (doc, analysis, p) => hover(doc, analysis, p.position));
  onDocument('textDocument/documentHighlight', (doc, analysis, p) => documentHighlight(doc, analysis, p.position));
  onDocument('textDocument/references', (doc, analysis, p) => references(ctx, doc, analysis, p));
  onDocument('textDocument/prepareTypeHierarchy', (doc, analysis, p) => prepareTypeHierarchy(store, doc, analysis, p.position));
  onDocument('textDocument/completion', (doc, analysis, p) => completion(doc, analysis, p.position));
  onDocument('textDocument/formatting', (doc, analysis, p) => formattingEdits(doc.text, p.options));
  onDocument('textDocument/semanticTokens/full', (doc, analysis) => {
    doc.tokensPrimed = true;
    return semanticTokensFull(analysis);
  });
  ctx.onRequest('typeHierarchy/supertypes', (params) => supertypes(store, params?.item));
  ctx.onRequest('typeHierarchy/subtypes', (params) => subtypes(store, params?.item));
  ctx.onRequest('completionItem/resolve', (item) => resolveCompletionItem(item));
}

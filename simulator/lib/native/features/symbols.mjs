// `textDocument/documentSymbol`: the outline of the document as hierarchical DocumentSymbols.

import { toDocumentSymbols } from '../abap/outline.mjs';

export function documentSymbolsOf(analysis) {
  return toDocumentSymbols(analysis.symbols);
}

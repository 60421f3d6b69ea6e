// Cursor-based navigation on an open document: definition (a method's implementation when
// there is one, else its declaration), declaration, hover and documentHighlight (only after
// semantic tokens were computed for this open document, as real adt-ls), and references
// (with configurable hang / `Internal error` for heavily used symbols).

import { ResponseError } from 'vscode-jsonrpc/node.js';
import { INTERNAL_ERROR_CODE } from '../../shell/gates.mjs';
import { isKeyword } from '../abap/keywords.mjs';
import { declarationsAt, occurrencesOf, samePosition, wordAt } from './lookup.mjs';

const location = (uri, range) => ({ uri, range });

export function declaration(doc, analysis, position) {
  return declarationsAt(analysis, position).hits.map((hit) => location(doc.uri, hit.nameRange));
}

export function definition(doc, analysis, position) {
  const { hits, name } = declarationsAt(analysis, position);
  if (!name) return [];
  const implementations = analysis.implementations.filter((impl) => impl.name.toUpperCase() === name.toUpperCase());
  if (implementations.length > 0) return implementations.map((impl) => location(doc.uri, impl.selectionRange));
  return hits.map((hit) => location(doc.uri, hit.nameRange));
}

export function hover(doc, analysis, position) {
  if (!doc.tokensPrimed) return null;
  const { word, hits } = declarationsAt(analysis, position);
  if (!word) return null;
  const range = {
    start: { line: word.token.line, character: word.segment.char },
    end: { line: word.token.line, character: word.segment.char + word.segment.text.length },
  };
  if (hits.length > 0) {
    const [hit] = hits;
    const where = hit.container ? ` in ${hit.container}` : '';
    return {
      contents: { kind: 'markdown', value: `\`\`\`abap\n${hit.declaration}\n\`\`\`\n${hit.symbol.detail ?? ''}${where}`.trim() },
      range,
    };
  }
  if (isKeyword(word.segment.text)) {
    return { contents: { kind: 'markdown', value: `**${word.segment.text.toUpperCase()}** (ABAP keyword)` }, range };
  }
  return null;
}

export function documentHighlight(doc, analysis, position) {
  if (!doc.tokensPrimed) return [];
  const word = wordAt(analysis, position);
  if (!word) return [];
  const declared = declarationsAt(analysis, position).hits.map((hit) => hit.nameRange.start);
  return occurrencesOf(analysis, word.segment.text).map((range) => ({
    range,
    kind: declared.some((p) => samePosition(p, range.start)) ? 3 : 2,
  }));
}

/**
 * references: a never-settling promise for names in config.referencesHang, `Internal error`
 * for names in config.referencesError, else every occurrence (minus the declaration when
 * includeDeclaration is false).
 */
export function references(ctx, doc, analysis, params) {
  const word = wordAt(analysis, params.position);
  if (!word) return [];
  const names = word.names.map((n) => n.toUpperCase());
  const listed = (list) => (list ?? []).some((n) => names.includes(String(n).toUpperCase()));
  if (listed(ctx.config.referencesHang)) return new Promise(() => {});
  if (listed(ctx.config.referencesError)) throw new ResponseError(INTERNAL_ERROR_CODE, 'Internal error');
  const include = params.context?.includeDeclaration !== false;
  const declared = declarationsAt(analysis, params.position).hits.map((hit) => hit.nameRange.start);
  return occurrencesOf(analysis, word.segment.text)
    .filter((range) => include || !declared.some((p) => samePosition(p, range.start)))
    .map((range) => location(doc.uri, range));
}

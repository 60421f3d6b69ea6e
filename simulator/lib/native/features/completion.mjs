// Completion at a cursor: declared names of the document and ABAP keywords that start with
// the word before the cursor. Items carry an opaque `data`; completionItem/resolve adds
// `detail` and `documentation` from it.

import { KEYWORDS } from '../abap/keywords.mjs';
import { SYMBOL_KIND } from '../abap/outline.mjs';

const COMPLETION_KIND = { keyword: 14, method: 2, field: 5, variable: 6, class: 7, interface: 8, constant: 21, struct: 22, event: 23, function: 3, type: 25 };

function completionKind(symbolKind) {
  switch (symbolKind) {
    case SYMBOL_KIND.Method:
      return COMPLETION_KIND.method;
    case SYMBOL_KIND.Field:
      return COMPLETION_KIND.field;
    case SYMBOL_KIND.Class:
      return COMPLETION_KIND.class;
    case SYMBOL_KIND.Interface:
      return COMPLETION_KIND.interface;
    case SYMBOL_KIND.Constant:
      return COMPLETION_KIND.constant;
    case SYMBOL_KIND.Struct:
      return COMPLETION_KIND.struct;
    case SYMBOL_KIND.Event:
      return COMPLETION_KIND.event;
    case SYMBOL_KIND.Function:
      return COMPLETION_KIND.function;
    case SYMBOL_KIND.TypeParameter:
      return COMPLETION_KIND.type;
    default:
      return COMPLETION_KIND.variable;
  }
}

function prefixAt(analysis, position) {
  const line = analysis.lines[position?.line ?? 0] ?? '';
  const before = line.slice(0, position?.character ?? 0);
  return /[A-Za-z0-9_/<>-]*$/.exec(before)[0].replace(/^.*(->|=>|~)/, '');
}

export function completion(doc, analysis, position) {
  const prefix = prefixAt(analysis, position).toUpperCase();
  const items = [];
  const seen = new Set();
  for (const entry of analysis.flat) {
    const upper = entry.symbol.name.toUpperCase();
    if (!upper.startsWith(prefix) || seen.has(upper)) continue;
    seen.add(upper);
    items.push({
      label: entry.symbol.name,
      kind: completionKind(entry.symbol.kind),
      sortText: `0_${upper}`,
      data: { simCompletion: 1, source: 'symbol', uri: doc.uri, name: entry.symbol.name, declaration: entry.declaration, container: entry.container ?? null },
    });
  }
  for (const keyword of [...KEYWORDS].sort()) {
    if (!keyword.startsWith(prefix) || seen.has(keyword)) continue;
    items.push({ label: keyword, kind: COMPLETION_KIND.keyword, sortText: `1_${keyword}`, data: { simCompletion: 1, source: 'keyword', name: keyword } });
  }
  return { isIncomplete: false, items };
}

export function resolveCompletionItem(item) {
  const data = item?.data;
  if (!data || data.simCompletion !== 1) return item;
  if (data.source === 'keyword') {
    return { ...item, detail: 'ABAP keyword', documentation: { kind: 'markdown', value: `ABAP keyword \`${data.name}\`.` } };
  }
  const where = data.container ? ` (${data.container})` : '';
  return {
    ...item,
    detail: `${data.name}${where}`,
    documentation: { kind: 'markdown', value: `\`\`\`abap\n${data.declaration ?? data.name}\n\`\`\`` },
  };
}

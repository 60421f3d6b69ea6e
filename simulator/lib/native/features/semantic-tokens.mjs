// `textDocument/semanticTokens/full`: LSP 5-tuples (deltaLine, deltaStart, length, type,
// modifiers) over the fixture's legend. Keywords, comments, strings, numbers and operators
// by lexeme; names by their declaration in the outline (unknown names are variables).

import { isKeyword } from '../abap/keywords.mjs';
import { SYMBOL_KIND } from '../abap/outline.mjs';

// Indices into the 1.1.2 legend (tokenTypes / tokenModifiers of the captured fixture).
const TYPE = { class: 1, struct: 4, type: 6, variable: 8, property: 9, event: 12, function: 13, method: 14, comment: 17, string: 18, keyword: 19, number: 20, operator: 22, interface: 3, namespace: 0 };
const MOD = { declaration: 1 << 0, readonly: 1 << 2 };

function typeOfSymbol(kind) {
  switch (kind) {
    case SYMBOL_KIND.Class:
      return [TYPE.class, 0];
    case SYMBOL_KIND.Interface:
      return [TYPE.interface, 0];
    case SYMBOL_KIND.Method:
      return [TYPE.method, 0];
    case SYMBOL_KIND.Field:
      return [TYPE.property, 0];
    case SYMBOL_KIND.Constant:
      return [TYPE.variable, MOD.readonly];
    case SYMBOL_KIND.Struct:
      return [TYPE.struct, 0];
    case SYMBOL_KIND.Event:
      return [TYPE.event, 0];
    case SYMBOL_KIND.Function:
      return [TYPE.function, 0];
    case SYMBOL_KIND.TypeParameter:
      return [TYPE.type, 0];
    case SYMBOL_KIND.Module:
      return [TYPE.namespace, 0];
    default:
      return [TYPE.variable, 0];
  }
}

/** Absolute tokens: [{line, char, length, type, modifiers}]. */
export function classify(analysis) {
  const declared = new Map();
  const declarationSites = new Set();
  for (const entry of analysis.flat) {
    declared.set(entry.symbol.name.toUpperCase(), entry.symbol.kind);
    declarationSites.add(`${entry.nameRange.start.line}:${entry.nameRange.start.character}`);
  }
  const out = [];
  const push = (line, char, length, type, modifiers = 0) => length > 0 && out.push({ line, char, length, type, modifiers });
  for (const token of analysis.tokens) {
    const length = token.end - token.char;
    if (token.kind === 'comment') push(token.line, token.char, length, TYPE.comment);
    else if (token.kind === 'string') push(token.line, token.char, length, TYPE.string);
    else if (token.kind === 'number') push(token.line, token.char, length, TYPE.number);
    else if (token.kind === 'operator') push(token.line, token.char, length, TYPE.operator);
    else if (token.kind === 'word' && isKeyword(token.text)) push(token.line, token.char, length, TYPE.keyword);
    else if (token.kind === 'word') {
      for (const segment of token.segments) {
        const upper = segment.text.toUpperCase();
        let [type, modifiers] = declared.has(upper) ? typeOfSymbol(declared.get(upper)) : [isKeyword(upper) ? TYPE.keyword : TYPE.variable, 0];
        if (declarationSites.has(`${token.line}:${segment.char}`)) modifiers |= MOD.declaration;
        push(token.line, segment.char, segment.text.length, type, modifiers);
      }
    }
  }
  return out;
}

/** The LSP relative encoding of sorted absolute tokens. */
export function encodeTokens(tokens) {
  const data = [];
  let line = 0;
  let char = 0;
  for (const t of tokens) {
    const deltaLine = t.line - line;
    data.push(deltaLine, deltaLine === 0 ? t.char - char : t.char, t.length, t.type, t.modifiers);
    line = t.line;
    char = t.char;
  }
  return data;
}

export function semanticTokensFull(analysis) {
  return { data: encodeTokens(classify(analysis)) };
}

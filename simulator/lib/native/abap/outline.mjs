// The outline of an ABAP source: DocumentSymbols for classes, interfaces, forms, function
// modules and their declarations (METHODS, DATA, CONSTANTS, TYPES, EVENTS), method
// implementations, class/interface relations (INHERITING FROM, INTERFACES) and unclosed or
// stray blocks. Locals inside METHOD/FORM/FUNCTION bodies are not part of the outline.

import { blockCloser, CLOSING_KEYWORDS, isSection } from './blocks.mjs';
import { expandChain, splitLines, splitStatements, tokenize, wordsOf } from './lexer.mjs';

export const SYMBOL_KIND = Object.freeze({
  Module: 2,
  Class: 5,
  Method: 6,
  Field: 8,
  Interface: 11,
  Function: 12,
  Variable: 13,
  Constant: 14,
  Struct: 23,
  Event: 24,
  TypeParameter: 26,
});

const pos = (line, character) => ({ line, character });
const tokenRange = (t) => ({ start: pos(t.line, t.char), end: pos(t.line, t.end) });
const statementEnd = (st) => {
  const last = st.period ?? st.tokens[st.tokens.length - 1];
  return pos(last.line, last.end);
};

const MEMBER_KINDS = {
  METHODS: 'method',
  'CLASS-METHODS': 'method',
  DATA: 'data',
  'CLASS-DATA': 'data',
  STATICS: 'data',
  CONSTANTS: 'constant',
  TYPES: 'type',
  EVENTS: 'event',
  'CLASS-EVENTS': 'event',
};

/** Full analysis of one source text (see the module comment). */
export function analyse(text) {
  const lines = splitLines(text);
  const tokens = tokenize(text);
  const statements = splitStatements(tokens);
  const state = {
    lines,
    symbols: [],
    flat: [],
    implementations: [],
    types: new Map(),
    blockErrors: [],
    stack: [],
    structDepth: 0,
  };
  for (const statement of statements) {
    if (statement.tokens.length > 0) visitStatement(state, statement);
  }
  for (const frame of state.stack) {
    state.blockErrors.push({ kind: 'unclosed', closer: frame.close, statement: frame.statement });
    if (frame.symbol) frame.symbol.range.end = lastPosition(tokens);
  }
  return {
    lines,
    tokens,
    statements,
    symbols: state.symbols,
    flat: state.flat,
    implementations: state.implementations,
    types: state.types,
    blockErrors: state.blockErrors,
  };
}

function lastPosition(tokens) {
  const last = tokens[tokens.length - 1];
  return last ? pos(last.line, last.end) : pos(0, 0);
}

function visitStatement(state, statement) {
  const words = wordsOf(statement.tokens);
  const [first] = words;
  if (CLOSING_KEYWORDS.has(first)) return closeBlock(state, statement, first);
  const closer = blockCloser(words);
  if (closer) return openBlock(state, statement, words, closer);
  if (isSection(words)) {
    const owner = nearest(state, 'class-def');
    if (owner) owner.visibility = words[0].toLowerCase();
    return undefined;
  }
  if (state.stack.some((f) => f.kind === 'body')) return undefined;
  if (first === 'INTERFACES') return recordInterfaces(state, statement);
  if (MEMBER_KINDS[first]) return declareMembers(state, statement, MEMBER_KINDS[first]);
  return undefined;
}

function nearest(state, kind) {
  for (let i = state.stack.length - 1; i >= 0; i -= 1) if (state.stack[i].kind === kind) return state.stack[i];
  return undefined;
}

function owningSymbolFrame(state) {
  for (let i = state.stack.length - 1; i >= 0; i -= 1) if (state.stack[i].symbol) return state.stack[i];
  return undefined;
}

function nameToken(statement) {
  return statement.tokens.find((t, i) => i > 0 && t.kind === 'word');
}

function addSymbol(state, symbol, extra) {
  const owner = owningSymbolFrame(state);
  if (owner) owner.symbol.children.push(symbol);
  else state.symbols.push(symbol);
  state.flat.push({ symbol, container: owner?.symbol.name, ...extra });
}

function declarationText(state, range) {
  return state.lines
    .slice(range.start.line, Math.min(range.end.line, range.start.line + 2) + 1)
    .map((l) => l.trim())
    .join(' ');
}

function openBlock(state, statement, words, closer) {
  const name = nameToken(statement);
  const start = pos(statement.tokens[0].line, statement.tokens[0].char);
  const frame = { close: closer, statement, kind: 'control' };
  if (closer === 'ENDCLASS' && name) {
    const upper = name.text.toUpperCase();
    if (words.includes('DEFINITION')) {
      frame.kind = 'class-def';
      const symbol = {
        name: name.text,
        detail: words.includes('PUBLIC') ? 'global class' : 'local class',
        kind: SYMBOL_KIND.Class,
        // Real adt-ls reports a class's selectionRange from column 0 of its statement line.
        range: { start, end: statementEnd(statement) },
        selectionRange: { start: pos(name.line, 0), end: pos(name.line, name.end) },
        children: [],
      };
      addSymbol(state, symbol, { declaration: declarationText(state, symbol.range), nameRange: tokenRange(name) });
      frame.symbol = symbol;
      const inheritIndex = words.indexOf('INHERITING');
      const superclass = inheritIndex >= 0 && words[inheritIndex + 1] === 'FROM' ? words[inheritIndex + 2] : undefined;
      state.types.set(upper, { name: name.text, kind: 'class', superclass, interfaces: [], symbol });
    } else {
      frame.kind = 'class-impl';
      frame.className = name.text;
    }
  } else if (closer === 'ENDINTERFACE' && name) {
    frame.kind = 'class-def';
    const symbol = {
      name: name.text,
      detail: words.includes('PUBLIC') ? 'global interface' : 'local interface',
      kind: SYMBOL_KIND.Interface,
      range: { start, end: statementEnd(statement) },
      selectionRange: tokenRange(name),
      children: [],
    };
    addSymbol(state, symbol, { declaration: declarationText(state, symbol.range), nameRange: tokenRange(name) });
    frame.symbol = symbol;
    state.types.set(name.text.toUpperCase(), { name: name.text, kind: 'interface', superclass: undefined, interfaces: [], symbol });
  } else if (closer === 'ENDMETHOD' && name) {
    frame.kind = 'body';
    state.implementations.push({
      name: name.text,
      className: nearest(state, 'class-impl')?.className,
      range: { start, end: statementEnd(statement) },
      selectionRange: tokenRange(name),
    });
  } else if ((closer === 'ENDFORM' || closer === 'ENDFUNCTION' || closer === 'ENDMODULE') && name) {
    frame.kind = 'body';
    const symbol = {
      name: name.text,
      detail: words[0].toLowerCase(),
      kind: closer === 'ENDMODULE' ? SYMBOL_KIND.Module : SYMBOL_KIND.Function,
      range: { start, end: statementEnd(statement) },
      selectionRange: tokenRange(name),
      children: [],
    };
    addSymbol(state, symbol, { declaration: declarationText(state, symbol.range), nameRange: tokenRange(name) });
    frame.symbol = symbol;
  }
  state.stack.push(frame);
}

function closeBlock(state, statement, closer) {
  const index = state.stack.map((f) => f.close).lastIndexOf(closer);
  if (index < 0) {
    state.blockErrors.push({ kind: 'stray', closer, statement });
    return;
  }
  for (const frame of state.stack.splice(index)) {
    if (frame.close !== closer) state.blockErrors.push({ kind: 'unclosed', closer: frame.close, statement: frame.statement });
    if (frame.symbol) frame.symbol.range.end = statementEnd(statement);
  }
}

function recordInterfaces(state, statement) {
  const owner = nearest(state, 'class-def');
  const type = owner?.symbol && state.types.get(owner.symbol.name.toUpperCase());
  if (!type) return;
  for (const { part, prefix } of expandChain(statement)) {
    const name = (prefix.length > 0 ? part : part.slice(1)).find((t) => t.kind === 'word');
    if (name) type.interfaces.push(name.text.toUpperCase());
  }
}

function declareMembers(state, statement, memberKind) {
  const inType = Boolean(nearest(state, 'class-def'));
  const visibility = nearest(state, 'class-def')?.visibility;
  for (const chained of expandChain(statement)) {
    const partTokens = chained.prefix.length > 0 ? chained.part : chained.part.slice(1);
    const words = wordsOf(partTokens);
    if (words[0] === 'END' && words[1] === 'OF') {
      state.structDepth = Math.max(0, state.structDepth - 1);
      continue;
    }
    const isBegin = words[0] === 'BEGIN' && words[1] === 'OF';
    const nested = state.structDepth > 0;
    if (isBegin) state.structDepth += 1;
    if (nested) continue;
    const name = isBegin ? partTokens.filter((t) => t.kind === 'word')[2] : partTokens[0];
    if (!name || name.kind !== 'word') continue;
    const first = chained.prefix.length > 0 ? chained.part[0] : statement.tokens[0];
    const lastToken = chained.part[chained.part.length - 1];
    const end = chained.last && statement.period ? statement.period : lastToken;
    const range = { start: pos(first.line, first.char), end: pos(end.line, end.end) };
    const symbol = {
      name: name.text,
      detail: [visibility, statement.tokens[0].text.toUpperCase()].filter(Boolean).join(' '),
      kind: symbolKind(memberKind, inType, isBegin),
      range,
      selectionRange: tokenRange(name),
      children: [],
    };
    addSymbol(state, symbol, { declaration: declarationText(state, range), nameRange: tokenRange(name) });
  }
}

function symbolKind(memberKind, inType, isStruct) {
  if (isStruct) return SYMBOL_KIND.Struct;
  switch (memberKind) {
    case 'method':
      return SYMBOL_KIND.Method;
    case 'constant':
      return SYMBOL_KIND.Constant;
    case 'type':
      return SYMBOL_KIND.TypeParameter;
    case 'event':
      return SYMBOL_KIND.Event;
    default:
      return inType ? SYMBOL_KIND.Field : SYMBOL_KIND.Variable;
  }
}

/** Strips the internal bookkeeping: DocumentSymbols as sent on the wire. */
export function toDocumentSymbols(symbols) {
  return symbols.map(({ name, detail, kind, range, selectionRange, children }) => ({
    name,
    detail,
    kind,
    range,
    selectionRange,
    children: toDocumentSymbols(children),
  }));
}

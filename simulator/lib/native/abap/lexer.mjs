// A small ABAP lexer: splits source into positioned tokens (words, strings, comments,
// numbers, punctuation, operators), statements (ended by '.') and chained statements
// (`DATA: a TYPE i, b TYPE string.`). Positions are 0-based lines and UTF-16 characters.

const WORD = /^(?:\/[A-Za-z0-9_]+\/)?[A-Za-z_%$][A-Za-z0-9_%$]*(?:(?:->|=>|-|~)(?:\/[A-Za-z0-9_]+\/)?[A-Za-z_%$][A-Za-z0-9_%$]*)*/;
const FIELD_SYMBOL = /^<[A-Za-z_][A-Za-z0-9_]*>/;
const NUMBER = /^\d+/;
const OPERATOR = /^[=<>+\-*/&?!]+/;
const SEPARATOR = /->|=>|-|~/g;

export function splitLines(text) {
  return text.split(/\r\n|\n|\r/);
}

/** Splits a compound word (`lo_x->run`, `lif~m`) into its named parts with offsets. */
function segmentsOf(text, char) {
  const segments = [];
  let last = 0;
  for (const match of text.matchAll(SEPARATOR)) {
    segments.push({ text: text.slice(last, match.index), char: char + last });
    last = match.index + match[0].length;
  }
  segments.push({ text: text.slice(last), char: char + last });
  return segments;
}

function quoted(line, start, quote) {
  let i = start + 1;
  while (i < line.length) {
    if (line[i] === quote) {
      if (line[i + 1] === quote) i += 2;
      else return i + 1;
    } else i += 1;
  }
  return line.length;
}

function template(line, start) {
  let i = start + 1;
  while (i < line.length) {
    if (line[i] === '\\') i += 2;
    else if (line[i] === '|') return i + 1;
    else i += 1;
  }
  return line.length;
}

const PUNCTUATION = { '.': 'period', ',': 'comma', ':': 'colon', '(': 'lparen', ')': 'rparen' };

/** Tokens of one source text. */
export function tokenize(text) {
  const tokens = [];
  splitLines(text).forEach((line, ln) => {
    const push = (kind, char, end) => tokens.push({ kind, text: line.slice(char, end), line: ln, char, end });
    if (line.startsWith('*')) {
      push('comment', 0, line.length);
      return;
    }
    let i = 0;
    while (i < line.length) {
      const c = line[i];
      const rest = line.slice(i);
      let m;
      if (c === ' ' || c === '\t') i += 1;
      else if (c === '"') {
        push('comment', i, line.length);
        i = line.length;
      } else if (c === "'" || c === '`') {
        const end = quoted(line, i, c);
        push('string', i, end);
        i = end;
      } else if (c === '|') {
        const end = template(line, i);
        push('string', i, end);
        i = end;
      } else if (PUNCTUATION[c]) {
        push(PUNCTUATION[c], i, i + 1);
        i += 1;
      } else if ((m = FIELD_SYMBOL.exec(rest)) || (m = WORD.exec(rest))) {
        push('word', i, i + m[0].length);
        tokens[tokens.length - 1].segments = segmentsOf(m[0], i);
        i += m[0].length;
      } else if ((m = NUMBER.exec(rest))) {
        push('number', i, i + m[0].length);
        i += m[0].length;
      } else if ((m = OPERATOR.exec(rest))) {
        push('operator', i, i + m[0].length);
        i += m[0].length;
      } else {
        push('other', i, i + 1);
        i += 1;
      }
    }
  });
  return tokens;
}

/** Statements: {tokens (no comments), period (token|undefined), terminated}. */
export function splitStatements(tokens) {
  const statements = [];
  let current = [];
  for (const token of tokens) {
    if (token.kind === 'comment') continue;
    if (token.kind === 'period') {
      statements.push({ tokens: current, period: token, terminated: true });
      current = [];
    } else current.push(token);
  }
  if (current.length > 0) statements.push({ tokens: current, period: undefined, terminated: false });
  return statements;
}

/**
 * Expands a chained statement into its parts: [{tokens: prefix + part, part, prefix, last}].
 * A statement without a colon is one part whose prefix is empty.
 */
export function expandChain(statement) {
  const { tokens } = statement;
  const colon = tokens.findIndex((t) => t.kind === 'colon');
  if (colon < 0) return [{ tokens, part: tokens, prefix: [], last: true }];
  const prefix = tokens.slice(0, colon);
  const parts = [];
  let depth = 0;
  let current = [];
  for (const token of tokens.slice(colon + 1)) {
    if (token.kind === 'lparen') depth += 1;
    if (token.kind === 'rparen') depth -= 1;
    if (token.kind === 'comma' && depth === 0) {
      parts.push(current);
      current = [];
    } else current.push(token);
  }
  parts.push(current);
  return parts
    .filter((part) => part.length > 0)
    .map((part, i, all) => ({ tokens: [...prefix, ...part], part, prefix, last: i === all.length - 1 }));
}

/** Upper-cased texts of the word tokens of a token list. */
export function wordsOf(tokens) {
  return tokens.filter((t) => t.kind === 'word').map((t) => t.text.toUpperCase());
}

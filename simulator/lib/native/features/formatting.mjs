// Formatting (`textDocument/formatting`): upper-case keywords and indent by block nesting,
// returned the way adt-ls does it, as ONE whole-document edit whose end line is a sentinel
// far beyond the line count (clients must clamp it). Comment lines starting with '*' and the
// content of strings and comments are left alone.

import { blockCloser, CLOSING_KEYWORDS, isSection, MIDDLE_KEYWORDS } from '../abap/blocks.mjs';
import { isKeyword } from '../abap/keywords.mjs';
import { splitLines, wordsOf } from '../abap/lexer.mjs';
import { analyse } from '../abap/outline.mjs';

export const END_LINE_SENTINEL = 999999;

// Blocks whose inner statements sit two levels deeper (WHEN/CATCH sit one level deeper).
const WIDTH = { ENDCASE: 2, ENDTRY: 2 };

function statementStarts(tokens) {
  // Maps line -> upper-cased words of the statement that starts on that line.
  const starts = new Map();
  let current;
  for (const token of tokens) {
    if (token.kind === 'comment') continue;
    if (!current) {
      current = { line: token.line, tokens: [] };
      starts.set(token.line, current);
    }
    if (token.kind === 'period') current = undefined;
    else current.tokens.push(token);
  }
  for (const [line, st] of starts) starts.set(line, wordsOf(st.tokens));
  return starts;
}

/** "line:char" of every declared name: a keyword used as a name (METHOD create) keeps its case. */
function nameSites(analysis) {
  const sites = new Set();
  for (const entry of analysis.flat) sites.add(`${entry.nameRange.start.line}:${entry.nameRange.start.character}`);
  for (const impl of analysis.implementations) sites.add(`${impl.selectionRange.start.line}:${impl.selectionRange.start.character}`);
  return sites;
}

function upperKeywords(line, tokens, names) {
  let out = line;
  for (const token of tokens) {
    if (token.kind === 'word' && isKeyword(token.text) && !names.has(`${token.line}:${token.char}`)) {
      out = out.slice(0, token.char) + token.text.toUpperCase() + out.slice(token.end);
    }
  }
  return out;
}

/** The formatted text. */
export function formatText(text, { tabSize = 2, insertSpaces = true } = {}) {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = splitLines(text);
  const analysis = analyse(text);
  const { tokens } = analysis;
  const names = nameSites(analysis);
  const starts = statementStarts(tokens);
  const unit = insertSpaces ? ' '.repeat(Math.max(0, tabSize)) : '\t';
  const stack = [];
  const depth = () => stack.reduce((sum, f) => sum + f.width, 0);
  let continuation = 0;

  return lines
    .map((line, ln) => {
      if (line.trim() === '') return '';
      if (line.startsWith('*')) return line.trimEnd();
      const lineTokens = tokens.filter((t) => t.line === ln);
      const body = upperKeywords(line, lineTokens, names).trim();
      const words = starts.get(ln);
      let level = depth();
      if (words) {
        const [first] = words;
        if (CLOSING_KEYWORDS.has(first)) {
          if (stack.length && stack[stack.length - 1].close === 'SECTION' && first === 'ENDCLASS') stack.pop();
          const index = stack.map((f) => f.close).lastIndexOf(first);
          if (index >= 0) stack.splice(index);
          level = depth();
        } else if (MIDDLE_KEYWORDS.has(first)) {
          level = Math.max(0, depth() - 1);
        } else if (isSection(words)) {
          if (stack.length && stack[stack.length - 1].close === 'SECTION') stack.pop();
          level = depth();
          stack.push({ close: 'SECTION', width: 1 });
        } else {
          const closer = blockCloser(words);
          if (closer) stack.push({ close: closer, width: WIDTH[closer] ?? 1 });
        }
        continuation = 0;
      } else if (lineTokens.some((t) => t.kind !== 'comment')) {
        continuation = 1;
      }
      const extra = words ? 0 : continuation;
      return unit.repeat(level + extra) + body;
    })
    .join(eol);
}

/** The formatting edits for a document: [] when nothing changes, else one whole-document edit. */
export function formattingEdits(text, options) {
  const formatted = formatText(text, options ?? {});
  if (formatted === text) return [];
  return [
    {
      range: { start: { line: 0, character: 0 }, end: { line: END_LINE_SENTINEL, character: 0 } },
      newText: formatted,
    },
  ];
}

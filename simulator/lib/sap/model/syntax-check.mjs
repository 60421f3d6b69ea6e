// A deliberately small ABAP syntax check for the simulator: it finds statements that are
// not closed with a period and unbalanced blocks (CLASS/ENDCLASS, METHOD/ENDMETHOD, ...).
// Enough to make broken source fail activation with severity-1 diagnostics.

const STATEMENT_STARTERS = new Set(
  (
    'DATA TYPES CONSTANTS STATICS FIELD-SYMBOLS METHOD METHODS CLASS-METHODS CLASS-DATA ' +
    'ENDMETHOD CLASS ENDCLASS INTERFACE ENDINTERFACE INTERFACES IF ELSE ELSEIF ENDIF LOOP ' +
    'ENDLOOP DO ENDDO WHILE ENDWHILE CASE WHEN ENDCASE TRY CATCH CLEANUP ENDTRY RETURN EXIT ' +
    'CONTINUE CHECK WRITE REPORT SELECT ENDSELECT APPEND CLEAR FREE CALL RAISE SORT ' +
    'CONCATENATE SPLIT ASSIGN FORM ENDFORM PERFORM START-OF-SELECTION PARAMETERS MESSAGE ' +
    'EVENTS ALIASES INCLUDE FUNCTION ENDFUNCTION FUNCTION-POOL'
  ).split(' '),
);
const SECTION_WORDS = new Set(['PUBLIC', 'PROTECTED', 'PRIVATE']);
const OPENERS = { CLASS: 'ENDCLASS', METHOD: 'ENDMETHOD', INTERFACE: 'ENDINTERFACE', IF: 'ENDIF',
  LOOP: 'ENDLOOP', DO: 'ENDDO', WHILE: 'ENDWHILE', CASE: 'ENDCASE', TRY: 'ENDTRY', FORM: 'ENDFORM' };
const CLOSERS = new Map(Object.entries(OPENERS).map(([open, close]) => [close, open]));
const CONTINUATION_END = /(\b(WHERE|AND|OR|NOT|ON|SET|FROM|INTO)|[,(=:+\-*/])$/i;

/** Removes comments and string contents from one line, tracking the paren depth change. */
function scanLine(line) {
  if (line.startsWith('*')) return { code: '', depthChange: 0, periods: [] };
  let code = '';
  let quote = null;
  let depth = 0;
  const periods = [];
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
      code += ' ';
      continue;
    }
    if (c === '"') break;
    if (c === "'" || c === '`' || c === '|') {
      quote = c;
      code += ' ';
      continue;
    }
    if (c === '(') depth += 1;
    if (c === ')') depth -= 1;
    if (c === '.') periods.push(i);
    code += c;
  }
  return { code, depthChange: depth, periods };
}

function firstWords(text) {
  return text.trim().split(/\s+/).filter(Boolean).map((w) => w.toUpperCase());
}

function startsStatement(code) {
  const words = firstWords(code);
  if (words.length === 0) return false;
  const first = words[0].replace(/\(.*$/, '');
  if (SECTION_WORDS.has(first)) return words[1]?.startsWith('SECTION') ?? false;
  if (STATEMENT_STARTERS.has(first)) return true;
  if (/^[\w~<>-]+(->|=>)/.test(words[0]) || /^[\w~]+\($/.test(words[0])) return true;
  return ['=', '+=', '-=', '?='].includes(words[1]);
}

const diagnostic = (line, text, message) => ({
  line,
  character: 0,
  endCharacter: Math.max(1, text.length),
  message,
});

function blockCheck(words, line, text, stack, out) {
  const first = words[0];
  if (first === 'CLASS' && (words.includes('DEFERRED') || words.includes('LOAD'))) return;
  if (first === 'INTERFACE' && (words.includes('DEFERRED') || words.includes('LOAD'))) return;
  if (OPENERS[first]) stack.push({ open: first, line, text });
  else if (CLOSERS.has(first)) {
    const expected = CLOSERS.get(first);
    const top = stack.pop();
    if (!top || top.open !== expected) {
      out.push(diagnostic(line, text, `"${first}" is not expected here: no open ${expected} block.`));
      if (top) stack.push(top);
    }
  }
}

/** Checks ABAP source; returns `[{line, character, endCharacter, message}]` (0-based lines). */
export function checkAbapSource(source) {
  const out = [];
  const stack = [];
  const lines = String(source ?? '').split('\n');
  let statement = null;
  let depth = 0;
  const closeStatement = () => {
    if (statement) blockCheck(firstWords(statement.code), statement.line, statement.text, stack, out);
    statement = null;
    depth = 0;
  };
  lines.forEach((text, index) => {
    const { code, depthChange, periods } = scanLine(text);
    if (code.trim() === '') return;
    if (statement && depth <= 0 && startsStatement(code) && !CONTINUATION_END.test(statement.lastCode.trim())) {
      out.push(diagnostic(statement.lastLine, statement.lastText, 'A period (".") is missing at the end of the statement.'));
      closeStatement();
    }
    if (!statement) statement = { line: index, text, code: '', lastLine: index, lastText: text, lastCode: '' };
    const segments = code.split('.');
    segments.forEach((segment, i) => {
      if (!statement) statement = { line: index, text, code: '', lastLine: index, lastText: text, lastCode: '' };
      statement.code += ' ' + segment;
      statement.lastLine = index;
      statement.lastText = text;
      statement.lastCode = segment.trim() === '' ? statement.lastCode : segment;
      if (i < segments.length - 1) closeStatement();
    });
    if (periods.length === 0 && statement) depth += depthChange;
    if (statement && statement.code.trim() === '') statement = null;
  });
  if (statement) {
    out.push(diagnostic(statement.lastLine, statement.lastText, 'A period (".") is missing at the end of the statement.'));
    closeStatement();
  }
  for (const open of stack) {
    out.push(diagnostic(open.line, open.text, `${open.open} block is not closed: ${OPENERS[open.open]} is missing.`));
  }
  return out;
}

/** Checks DDL-style source (CDS, tables): balanced braces only. */
export function checkDdlSource(source) {
  const text = String(source ?? '');
  let depth = 0;
  let lastLine = 0;
  text.split('\n').forEach((line, index) => {
    for (const c of line.replace(/\/\/.*$/, '')) {
      if (c === '{') depth += 1;
      if (c === '}') depth -= 1;
    }
    if (line.trim() !== '') lastLine = index;
  });
  if (depth === 0) return [];
  return [{ line: lastLine, character: 0, endCharacter: 1, message: 'Unbalanced braces: "}" expected.' }];
}

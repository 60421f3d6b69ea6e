// Pull diagnostics (`textDocument/diagnostic`) for an open document: a missing period at the
// end, unclosed blocks and stray END* statements. Severity 1 (error), source "abap".

const MESSAGES = {
  period: 'The last statement is not complete (period missing).',
  unclosed: (closer, opener) => `"${closer}" is missing for "${opener}".`,
  stray: (closer) => `"${closer}" has no matching opening statement.`,
};

function statementRange(statement) {
  const first = statement.tokens[0];
  const last = statement.period ?? statement.tokens[statement.tokens.length - 1];
  return { start: { line: first.line, character: first.char }, end: { line: last.line, character: last.end } };
}

function diagnostic(range, message) {
  return { range, severity: 1, source: 'abap', message };
}

/** Diagnostics of an analysed document. */
export function diagnosticsOf(analysis) {
  const items = [];
  for (const statement of analysis.statements) {
    if (!statement.terminated && statement.tokens.length > 0) items.push(diagnostic(statementRange(statement), MESSAGES.period));
  }
  for (const error of analysis.blockErrors) {
    const range = statementRange(error.statement);
    if (error.kind === 'stray') items.push(diagnostic(range, MESSAGES.stray(error.closer)));
    else {
      const opener = error.statement.tokens.slice(0, 3).map((t) => t.text).join(' ');
      items.push(diagnostic(range, MESSAGES.unclosed(error.closer, opener)));
    }
  }
  return items.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/** The full document diagnostic report. */
export function diagnosticReport(analysis) {
  return { kind: 'full', items: diagnosticsOf(analysis) };
}

// Code coverage of an ABAP Unit run, as the simulator measures it: a method of the object's
// main source counts as executed when a test method of the run calls it by name; its
// statements are then executed once per calling test method, and of each branching
// statement (IF, ELSEIF, CASE, WHEN, LOOP, WHILE, DO) one of its two branches is taken.
// Results per object: the three rates in percent (as before), their counts, and
// statement-level lines (`{uri: '<source URI>#start=<line>,<column>', hits, branches?}`).

const BRANCHING = /^\s*(IF|ELSEIF|CASE|WHEN|LOOP|WHILE|DO)\b/i;
const SKIP = /^\s*(\*|"|$|ENDIF|ENDCASE|ENDLOOP|ENDWHILE|ENDDO|ELSE\s*\.)/i;

/** Method implementations of a source: `[{name, startLine, lines: [{line, column, text}]}]` (1-based lines). */
function methodsOf(source) {
  const lines = String(source ?? '').split('\n');
  const methods = [];
  let current = null;
  lines.forEach((text, i) => {
    const start = /^\s*METHOD\s+([\w~]+)\s*\./i.exec(text);
    if (start) {
      current = { name: start[1].toLowerCase(), startLine: i + 1, lines: [] };
      methods.push(current);
    } else if (/^\s*ENDMETHOD\b/i.test(text)) {
      current = null;
    } else if (current && !SKIP.test(text)) {
      current.lines.push({ line: i + 1, column: text.length - text.trimStart().length, text });
    }
  });
  return methods;
}

/** How many test methods of `testSource` call `method` (`->name(` or `=>name(`). */
function callers(testSource, method) {
  const bare = method.includes('~') ? method.split('~')[1] : method;
  const re = new RegExp(`(->|=>)\\s*${bare}\\s*\\(`, 'i');
  const bodies = String(testSource ?? '').split(/^\s*METHOD\s+/im).slice(1);
  return bodies.filter((b) => re.test(b.replace(/ENDMETHOD[\s\S]*$/i, ''))).length;
}

const rate = (executed, total) => (total === 0 ? 100 : Math.round((executed / total) * 1000) / 10);

/** Coverage of one object's active sources; `sourceUri` is the ADT URI of its main source. */
export function objectCoverage(obj, sourceUri) {
  const main = obj.sources?.main ?? '';
  const tests = obj.sources?.testclasses ?? '';
  const counts = { statements: [0, 0], branches: [0, 0], procedures: [0, 0] };
  const lines = [];
  for (const method of methodsOf(main)) {
    const hits = callers(tests, method.name);
    counts.procedures[0] += hits > 0 ? 1 : 0;
    counts.procedures[1] += 1;
    for (const l of method.lines) {
      const entry = { uri: `${sourceUri}#start=${l.line},${l.column}`, hits };
      counts.statements[0] += hits > 0 ? 1 : 0;
      counts.statements[1] += 1;
      if (BRANCHING.test(l.text)) {
        entry.branches = { total: 2, covered: hits > 0 ? 1 : 0 };
        counts.branches[0] += entry.branches.covered;
        counts.branches[1] += 2;
      }
      lines.push(entry);
    }
  }
  const pair = ([executed, total]) => ({ executed, total });
  return {
    statementCoverage: rate(...counts.statements),
    branchCoverage: rate(...counts.branches),
    procedureCoverage: rate(...counts.procedures),
    statements: pair(counts.statements),
    branches: pair(counts.branches),
    procedures: pair(counts.procedures),
    lines,
  };
}

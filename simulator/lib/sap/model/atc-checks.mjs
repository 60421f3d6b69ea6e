// The simulator's ATC: three deterministic checks with ADT's three priorities (1 error,
// 2 warning, 3 information): a BREAK-POINT statement, an unused local variable, and a
// WAIT UP TO statement. Each finding carries its source part, 0-based line and column;
// the unused-variable finding also has a deterministic quickfix (it removes the line).

const CHECKS = [
  {
    re: /^(\s*)BREAK-POINT\b/i,
    finding: () => ({
      priority: 1,
      checkClass: 'CL_CI_TEST_EXTENDED_CHECK',
      checkTitle: 'Extended Program Check',
      messageId: 'BREAK_POINT',
      messageTitle: 'BREAK-POINT statement found',
    }),
  },
  {
    re: /^(\s*)DATA\s+(\w+)\s+TYPE\b/i,
    unused: true,
    finding: (m) => ({
      variable: m[2],
      priority: 2,
      checkClass: 'CL_CI_TEST_EXTENDED_CHECK',
      checkTitle: 'Extended Program Check',
      messageId: 'UNUSED_VARIABLE',
      messageTitle: `Variable ${m[2].toUpperCase()} is not used`,
    }),
  },
  {
    re: /^(\s*)WAIT\s+UP\s+TO\b/i,
    finding: () => ({
      priority: 3,
      checkClass: 'CL_CI_TEST_PERFORMANCE',
      checkTitle: 'Performance Check',
      messageId: 'WAIT_UP_TO',
      messageTitle: 'WAIT UP TO blocks a work process',
    }),
  },
];

function isUnused(text, name) {
  const uses = String(text).match(new RegExp(`\\b${name}\\b`, 'gi')) ?? [];
  return uses.length <= 1;
}

/** Findings of one object's active-or-inactive sources. */
export function atcFindings(obj) {
  const sources = obj.inactiveSources ?? obj.sources ?? {};
  const findings = [];
  for (const [part, text] of Object.entries(sources)) {
    const lines = String(text ?? '').split('\n');
    lines.forEach((line, index) => {
      for (const check of CHECKS) {
        const m = check.re.exec(line);
        if (!m || (check.unused && !isUnused(text, m[2]))) continue;
        findings.push({ part, line: index, column: m[1].length, ...check.finding(m) });
      }
    });
  }
  return findings;
}

/** Removes the declarations behind the given unused-variable findings (the deterministic quickfix). */
export function applyUnusedVariableFix(obj, findings) {
  const base = { ...(obj.inactiveSources ?? obj.sources ?? {}) };
  const fixable = findings.filter((f) => f.messageId === 'UNUSED_VARIABLE');
  for (const part of new Set(fixable.map((f) => f.part))) {
    const drop = new Set(fixable.filter((f) => f.part === part).map((f) => f.line));
    base[part] = base[part].split('\n').filter((_, i) => !drop.has(i)).join('\n');
  }
  obj.inactiveSources = base;
}

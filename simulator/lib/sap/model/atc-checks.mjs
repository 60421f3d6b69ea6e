// The simulator's ATC: one deterministic check (unused local variables), enough to give
// findings, worklists and a deterministic quickfix.

/** Findings of one object's active-or-inactive sources. */
export function atcFindings(obj) {
  const sources = obj.inactiveSources ?? obj.sources ?? {};
  const findings = [];
  for (const [part, text] of Object.entries(sources)) {
    const lines = String(text ?? '').split('\n');
    lines.forEach((line, index) => {
      const m = /^\s*DATA\s+(\w+)\s+TYPE\b/i.exec(line);
      if (!m) return;
      const uses = String(text).match(new RegExp(`\\b${m[1]}\\b`, 'gi')) ?? [];
      if (uses.length > 1) return;
      findings.push({
        part,
        line: index,
        variable: m[1],
        priority: 2,
        checkClass: 'CL_CI_TEST_EXTENDED_CHECK',
        checkTitle: 'Extended Program Check',
        messageId: 'UNUSED_VARIABLE',
        messageTitle: `Variable ${m[1].toUpperCase()} is not used`,
      });
    });
  }
  return findings;
}

/** Removes the declarations behind the given findings (the deterministic quickfix). */
export function applyUnusedVariableFix(obj, findings) {
  const base = { ...(obj.inactiveSources ?? obj.sources ?? {}) };
  for (const part of new Set(findings.map((f) => f.part))) {
    const drop = new Set(findings.filter((f) => f.part === part).map((f) => f.line));
    base[part] = base[part].split('\n').filter((_, i) => !drop.has(i)).join('\n');
  }
  obj.inactiveSources = base;
}

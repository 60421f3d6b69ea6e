// A small line-based unified diff (LCS), used for the transport comparison tool.

function lcsTable(a, b) {
  const table = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  return table;
}

function editScript(a, b) {
  const table = lcsTable(a, b);
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i], oldLine: i, newLine: j });
      i += 1;
      j += 1;
    } else if (i < a.length && (j >= b.length || table[i + 1][j] >= table[i][j + 1])) {
      ops.push({ kind: '-', text: a[i], oldLine: i, newLine: j });
      i += 1;
    } else {
      ops.push({ kind: '+', text: b[j], oldLine: i, newLine: j });
      j += 1;
    }
  }
  return ops;
}

function groupHunks(ops, context) {
  const hunks = [];
  let current = null;
  ops.forEach((op, index) => {
    if (op.kind === ' ') return;
    const start = Math.max(0, index - context);
    if (current && start <= current.end + 1) current.end = Math.min(ops.length - 1, index + context);
    else {
      current = { start, end: Math.min(ops.length - 1, index + context) };
      hunks.push(current);
    }
  });
  return hunks;
}

/** Unified diff of two texts; '' when they are equal. */
export function unifiedDiff(oldText, newText, { oldName, newName, context = 3 }) {
  const a = String(oldText ?? '').split('\n');
  const b = String(newText ?? '').split('\n');
  const ops = editScript(a, b);
  const hunks = groupHunks(ops, context);
  if (hunks.length === 0) return '';
  const lines = [`--- ${oldName}`, `+++ ${newName}`];
  for (const { start, end } of hunks) {
    const slice = ops.slice(start, end + 1);
    const oldCount = slice.filter((o) => o.kind !== '+').length;
    const newCount = slice.filter((o) => o.kind !== '-').length;
    lines.push(`@@ -${slice[0].oldLine + 1},${oldCount} +${slice[0].newLine + 1},${newCount} @@`);
    for (const op of slice) lines.push(op.kind + op.text);
  }
  return lines.join('\n') + '\n';
}

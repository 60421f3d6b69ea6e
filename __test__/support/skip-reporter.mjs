// node --test reporter that writes one JSON line per skipped (or todo) test: {file, name,
// reason}. package.json runs it next to the spec reporter; skips.mjs reads the lines.

export default async function* skipReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { skip, todo, file, name } = event.data;
    if (skip === undefined && todo === undefined) continue;
    const reason = skip !== undefined ? skip : `todo ${todo}`;
    yield `${JSON.stringify({ file, name, reason: typeof reason === 'string' ? reason : '(no reason given)' })}\n`;
  }
}

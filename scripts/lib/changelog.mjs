// Release tooling (not shipped): opens a release in CHANGELOG.md (Keep a Changelog 1.1.0).
// The entries under `## [Unreleased]` move under `## [<version>] - <date>`, an empty
// `## [Unreleased]` stays on top, and the link definitions at the bottom are updated
// (`[Unreleased]` compares the new tag with HEAD, the new version compares with the previous
// one, or links its tag when it is the first).

const UNRELEASED = '## [Unreleased]';

/** The changelog text with `version` opened on `date` (YYYY-MM-DD); throws what is wrong. */
export function openRelease(text, version, date, repoWeb) {
  const lines = text.split('\n');
  const top = lines.indexOf(UNRELEASED);
  if (top === -1) throw new Error(`CHANGELOG.md has no "${UNRELEASED}" heading`);
  if (lines.some((l) => l.startsWith(`## [${version}]`))) throw new Error(`CHANGELOG.md already has a "## [${version}]" section`);
  const isEnd = (l) => l.startsWith('## [') || /^\[[^\]]+\]: /.test(l);
  let end = top + 1;
  while (end < lines.length && !isEnd(lines[end])) end++;
  const body = lines.slice(top + 1, end);
  if (!body.some((l) => /^\s*- \S/.test(l))) {
    throw new Error(`CHANGELOG.md: nothing under "${UNRELEASED}" to release as ${version}; add the entries first`);
  }
  const previous = lines.slice(end).find((l) => /^## \[\d/.test(l))?.match(/^## \[([^\]]+)\]/)?.[1];
  const opened = [...lines.slice(0, top), UNRELEASED, '', `## [${version}] - ${date}`, ...trimmedBlock(body), ...lines.slice(end)];
  return withLinks(opened, version, previous, repoWeb).join('\n');
}

/** `body` with one blank line before it and one after (the heading spacing the file uses). */
function trimmedBlock(body) {
  let [a, b] = [0, body.length];
  while (a < b && body[a].trim() === '') a++;
  while (b > a && body[b - 1].trim() === '') b--;
  return ['', ...body.slice(a, b), ''];
}

function withLinks(lines, version, previous, repoWeb) {
  const defs = lines.filter((l) => /^\[[^\]]+\]: /.test(l) && !l.startsWith('[Unreleased]: '));
  const rest = lines.filter((l) => !/^\[[^\]]+\]: /.test(l));
  while (rest.length > 0 && rest[rest.length - 1].trim() === '') rest.pop();
  const own = previous ? `${repoWeb}/compare/v${previous}...v${version}` : `${repoWeb}/releases/tag/v${version}`;
  return [...rest, '', `[Unreleased]: ${repoWeb}/compare/v${version}...HEAD`, `[${version}]: ${own}`, ...defs, ''];
}

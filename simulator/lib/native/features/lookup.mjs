// Name lookups on an analysed document: the word under a position, the declarations of a
// name, and every occurrence of a name (compound words such as `lo_x->run` or `lif~m` are
// matched per part).

const upper = (s) => s.toUpperCase();

/** The word token and the part of it under `position`, or undefined. */
export function wordAt(analysis, position) {
  if (!position) return undefined;
  const { line, character } = position;
  const onLine = analysis.tokens.filter((t) => t.kind === 'word' && t.line === line);
  const token =
    onLine.find((t) => t.char <= character && character < t.end) ?? onLine.find((t) => t.end === character);
  if (!token) return undefined;
  const segment =
    [...token.segments].reverse().find((s) => s.char <= character) ?? token.segments[0];
  return { token, segment, names: [...new Set([segment.text, token.text])] };
}

/** Outline entries declaring `name`, optionally preferring one container (class/interface). */
export function declarationsOf(analysis, name, container) {
  const hits = analysis.flat.filter((entry) => upper(entry.symbol.name) === upper(name));
  if (!container) return hits;
  const preferred = hits.filter((entry) => entry.container && upper(entry.container) === upper(container));
  return preferred.length > 0 ? preferred : hits;
}

/** The declarations for the word under the cursor (segment first, then the whole word). */
export function declarationsAt(analysis, position) {
  const word = wordAt(analysis, position);
  if (!word) return { word, hits: [] };
  const index = word.token.segments.indexOf(word.segment);
  const container = index > 0 ? word.token.segments[index - 1].text : undefined;
  for (const name of word.names) {
    const hits = declarationsOf(analysis, name, container);
    if (hits.length > 0) return { word, hits, name };
  }
  return { word, hits: [], name: word.segment.text };
}

/** Ranges of every occurrence of `name` (case-insensitive, whole part). */
export function occurrencesOf(analysis, name) {
  const wanted = upper(name);
  const ranges = [];
  for (const token of analysis.tokens) {
    if (token.kind !== 'word') continue;
    for (const segment of token.segments) {
      if (upper(segment.text) !== wanted) continue;
      ranges.push({
        start: { line: token.line, character: segment.char },
        end: { line: token.line, character: segment.char + segment.text.length },
      });
    }
  }
  return ranges;
}

export function samePosition(a, b) {
  return a.line === b.line && a.character === b.character;
}

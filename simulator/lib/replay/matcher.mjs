// Picks the recorded answer for a live request: among the unused recorded exchanges of the
// same method (tools/call: the same tool), the first whose params equal the live ones (a
// recorded `***` matches any value), else the first of that method in recorded order
// (`approximate`: ids, process ids and temp paths differ from run to run). Each recorded
// exchange answers once.

const MASK = '***';

/** Deep equality where a recorded `***` (a redacted value) matches anything. */
export function paramsMatch(recorded, live) {
  if (recorded === MASK) return true;
  if (recorded === live) return true;
  if (typeof recorded !== 'object' || typeof live !== 'object' || recorded === null || live === null) return false;
  if (Array.isArray(recorded) !== Array.isArray(live)) return false;
  const keys = new Set([...Object.keys(recorded), ...Object.keys(live)]);
  for (const key of keys) {
    if (!paramsMatch(recorded[key], live[key])) return false;
  }
  return true;
}

const toolOf = (method, params) => (method === 'tools/call' ? params?.name : undefined);

/** A matcher over one channel's recorded exchanges. */
export function createMatcher(exchanges) {
  const unused = [...exchanges];
  return {
    /** `{exchange, exact}` for a live request, or undefined when nothing recorded fits. */
    take(method, params) {
      const tool = toolOf(method, params);
      const candidates = unused.filter((e) => e.method === method && toolOf(e.method, e.params) === tool);
      if (candidates.length === 0) return undefined;
      const exact = candidates.find((e) => paramsMatch(e.params, params));
      const exchange = exact ?? candidates[0];
      unused.splice(unused.indexOf(exchange), 1);
      return { exchange, exact: exact !== undefined };
    },
    /** The recorded exchanges no live request used. */
    unused() {
      return [...unused];
    },
  };
}

/** A short description of params for reports (at most `max` characters). */
export function summarize(params, max = 200) {
  if (params === undefined) return '';
  const text = JSON.stringify(params) ?? String(params);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

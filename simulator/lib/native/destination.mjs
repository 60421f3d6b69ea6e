// Works out which destination a native request is for, as strictly as the 1.1.2 wire contract:
// the method's own key (`destinationId` for searchTransports, `destination` for the others;
// never the other one), else the <DEST> segment of the first `abap:/repotree-v1/<DEST>/...`
// URI in the params. There is no fallback to the logged-on destination: a request naming no
// destination fails, so a client that leaves it out (or spells the key wrongly) fails a test.

const REPOTREE = /^abap:\/repotree-v1\/([^/]+)\//;

/** Methods whose destination key is `destinationId` (all other native ones: `destination`). */
const DESTINATION_ID_METHODS = new Set(['adtLs/cts/transport/searchTransports']);

/** The destination id named in the params of `method`, or undefined. */
export function destinationInParams(params, method) {
  const key = DESTINATION_ID_METHODS.has(method) ? 'destinationId' : 'destination';
  if (params && typeof params === 'object' && !Array.isArray(params)) {
    if (typeof params[key] === 'string' && params[key]) return params[key];
  }
  return firstRepotreeDestination(params, 0);
}

function firstRepotreeDestination(value, depth) {
  if (depth > 6) return undefined;
  if (typeof value === 'string') return REPOTREE.exec(value)?.[1];
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = firstRepotreeDestination(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const item of Object.values(value)) {
      const found = firstRepotreeDestination(item, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** The destination to serve `params` of `method` with (no fallback), or undefined. */
export function resolveDestination(params, method) {
  return destinationInParams(params, method);
}

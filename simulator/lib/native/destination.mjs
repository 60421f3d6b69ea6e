// Works out which destination a native request is for: `destination`, `destinationId`, the
// <DEST> segment of the first `abap:/repotree-v1/<DEST>/...` URI anywhere in the params, or
// the single logged-on destination.

const REPOTREE = /^abap:\/repotree-v1\/([^/]+)\//;

/** The destination id named in the params, or undefined. */
export function destinationInParams(params) {
  if (params && typeof params === 'object' && !Array.isArray(params)) {
    if (typeof params.destination === 'string' && params.destination) return params.destination;
    if (typeof params.destinationId === 'string' && params.destinationId) return params.destinationId;
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

/** The destination to serve `params` with, falling back to the logged-on one. */
export function resolveDestination(ctx, params) {
  return destinationInParams(params) ?? ctx.defaultDestination();
}

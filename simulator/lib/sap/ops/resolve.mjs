// Shared lookups for operations: repotree URI -> object part, with the error texts the
// simulated backend answers for unknown or unsupported files.
import { badRequest, notFound } from '../errors.mjs';

/** Resolves a file URI to `{obj, part, dest}` or throws the backend's error. */
export function requireFile(ctx, uri) {
  if (typeof uri !== 'string' || uri === '') throw badRequest('Parameter uri must not be empty');
  const hit = ctx.repo.resolveFileUri(uri);
  if (!hit) throw badRequest(`The URI ${uri} is not a repository file URI (expected abap:/repotree-v1/...)`);
  if (hit.missing) throw notFound(`Object ${hit.missing.toUpperCase()} not found (${hit.file})`);
  if (!hit.canonical) throw notFound(`File ${uri} not found: the URI is not encoded as adt-ls returns it`);
  return hit;
}

/** Resolves a repotree URI or an ADT path to the object, or throws not found. */
export function requireObject(ctx, uri, what = 'Object') {
  const obj = ctx.repo.findByAnyUri(uri);
  if (!obj) throw notFound(`${what} ${uri} not found`);
  return obj;
}

export const objectKey = (obj) => `${obj.type}:${obj.name}`;

// Validation of the `objectContent` JSON the creation tools receive, shared by
// run_validation and create_object. A service definition needs its `sourceType` (`S` or
// `X`) although the creation form marks the field optional, as the live backend does.
import { normaliseType } from '../model/object-types.mjs';
import { LOCAL_PACKAGE } from '../model/uris.mjs';
import { SOURCE_TYPES } from '../ops/creation-ops.mjs';

export const CREATABLE_BY_TOOL = new Set(['CLAS/OC', 'INTF/OI', 'PROG/P', 'SRVD/SRV']);

/** What the backend requires beyond the form for `type`, as an error text (or undefined). */
function typeSpecificProblem(type, raw) {
  if (type !== 'SRVD/SRV') return undefined;
  if (SOURCE_TYPES.some((t) => t.value === raw.sourceType)) return undefined;
  const legal = SOURCE_TYPES.map((t) => `${t.value} (${t.title})`).join(' or ');
  return `Source type is required for a service definition: sourceType must be ${legal}`;
}
const NAME_RE = /^[ZY][A-Z0-9_]{0,29}$/;

/** Parses and validates; returns `{content}` (normalised) or `{error}`. */
export function validateObjectContent(args, repo) {
  const type = normaliseType(args.objectType);
  if (!type) return { error: `Object type ${args.objectType} is not supported` };
  let raw;
  try {
    raw = JSON.parse(String(args.objectContent ?? ''));
  } catch {
    return { error: 'objectContent is not valid JSON' };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { error: 'objectContent must be a JSON object' };
  const name = String(raw.name ?? '').trim().toUpperCase();
  const packageName = String(raw.packageName ?? '').trim().toUpperCase();
  const description = String(raw.description ?? '').trim();
  if (!NAME_RE.test(name)) {
    return { error: `Name "${raw.name ?? ''}" is invalid: it must start with Z or Y, use A-Z, 0-9 or _ and have at most 30 characters` };
  }
  if (repo.get(name, type)) return { error: `${type} ${name} already exists` };
  if (!repo.packages.has(packageName)) return { error: `Package ${raw.packageName ?? ''} does not exist` };
  if (description === '' || description.length > 60) return { error: 'Description is required and must have at most 60 characters' };
  const problem = typeSpecificProblem(type, raw);
  if (problem) return { error: problem };
  return { content: { ...raw, name, packageName, description }, type, local: packageName === LOCAL_PACKAGE };
}

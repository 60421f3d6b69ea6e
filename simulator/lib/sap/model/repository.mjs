// The in-memory ABAP repository of the simulated system: objects with active and inactive
// sources, packages and transports, and the lookups by name, ADT path and repotree URI. The
// inactive version is one user's draft (`draft: {owner, parts}` names the files they changed):
// it is served to that user only, file by file, and activation makes it the active version.
import { isJsonOnly, normaliseType, typeInfo } from './object-types.mjs';
import { seedObjects, seedPackages, seedTransports } from './seed.mjs';
import { initialSources, unsupportedPlaceholder } from './templates.mjs';
import { adtUri, affUri, fileName, LOCAL_PACKAGE, parseAffUri } from './uris.mjs';

const key = (name, type) => `${type}:${name.toUpperCase()}`;

/** `ZCL_*` style pattern (with `*` wildcards; prefix match when none) as a RegExp. */
function patternRegExp(pattern) {
  const text = String(pattern ?? '').trim().toUpperCase();
  const escaped = text.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}${text.includes('*') ? '' : '.*'}$`);
}

export class Repository {
  constructor() {
    this.objects = new Map(seedObjects().map((o) => [key(o.name, o.type), o]));
    this.packages = new Map(seedPackages().map((p) => [p.name, p]));
    this.transports = new Map(seedTransports().map((t) => [t.number, t]));
    this.nextTransport = 900105;
  }

  all() {
    return [...this.objects.values()];
  }

  get(name, type) {
    const full = normaliseType(type);
    if (full) return this.objects.get(key(String(name), full));
    return this.all().find((o) => o.name === String(name).toUpperCase());
  }

  /** Objects whose name matches `pattern`, filtered by type codes, sorted by name. */
  search(pattern, types = [], maxResults = 50) {
    const re = patternRegExp(pattern);
    const wanted = new Set((types ?? []).map((t) => normaliseType(t)).filter(Boolean));
    const typeFilterInvalid = (types ?? []).length > 0 && wanted.size === 0;
    if (typeFilterInvalid) return [];
    return this.all()
      .filter((o) => re.test(o.name) && (wanted.size === 0 || wanted.has(o.type)))
      .sort((a, b) => a.name.localeCompare(b.name))
      .slice(0, Math.max(1, Number(maxResults) || 50));
  }

  findByAdtUri(uri) {
    if (typeof uri !== 'string') return undefined;
    const path = uri.split('?')[0].replace(/\/source\/main$/, '').toLowerCase();
    return this.all().find((o) => adtUri(o).toLowerCase() === path);
  }

  /**
   * Resolves a repotree URI to `{obj, part, canonical}`; `part` is 'main', 'metadata' or a
   * class include. Returns `{missing: name}` for a well-formed URI of an unknown object
   * and undefined for a URI that is not a repotree URI at all.
   */
  resolveFileUri(uri) {
    const parsed = parseAffUri(uri);
    if (!parsed) return undefined;
    const candidates = this.all().filter((o) => o.name === parsed.objectName.toUpperCase());
    for (const obj of candidates) {
      const parts = ['main', 'metadata', ...(typeInfo(obj.type).includes ?? [])];
      const part = parts.find((p) => fileName(obj, p) === parsed.file);
      if (part) return { obj, part, canonical: affUri(parsed.dest, obj, part) === uri, dest: parsed.dest };
    }
    return { missing: parsed.objectName, file: parsed.file, dest: parsed.dest };
  }

  /** Finds an object from a repotree URI or an ADT path (used by CTS, ATC, unit tests). */
  findByAnyUri(uri) {
    const byFile = this.resolveFileUri(uri);
    if (byFile?.obj) return byFile.obj;
    return this.findByAdtUri(uri);
  }

  /**
   * The content of one part in the version `user` sees when `pinned` (toggled to active) is
   * not set: the user's own draft of that file, else the active version; `version` says
   * which. Another user's draft is never served. An object that was never activated has only
   * its draft, which is served to its owner even when pinned.
   */
  readPart(obj, part, { user, pinned = false } = {}) {
    const info = typeInfo(obj.type);
    if (!info.supported) return { content: unsupportedPlaceholder(obj), version: 'active' };
    if (part === 'metadata' || isJsonOnly(obj.type)) {
      return { content: JSON.stringify(this.metadata(obj), null, 2), version: 'active' };
    }
    const draft = () => ({ content: obj.inactiveSources?.[part] ?? '', version: 'inactive' });
    if (this.hasDraft(obj, part, user) && !pinned) return draft();
    if (obj.sources) return { content: obj.sources[part] ?? '', version: 'active' };
    if (this.isInactive(obj) && obj.draft?.owner === user) return draft();
    return { content: '', version: 'active' };
  }

  /** True when `user` has a draft of this part of the object. */
  hasDraft(obj, part, user) {
    return this.isInactive(obj) && obj.draft?.owner === user && obj.draft.parts.includes(part);
  }

  /** The user whose draft the object has, when it is another one than `user`. */
  draftOwnerOtherThan(obj, user) {
    const owner = this.isInactive(obj) ? obj.draft?.owner : undefined;
    return owner && owner !== user ? owner : undefined;
  }

  /** Writes one part as `user`'s draft; the object gets an inactive version. */
  writePart(obj, part, content, user) {
    const base = obj.inactiveSources ?? obj.sources ?? {};
    obj.inactiveSources = { ...base, [part]: String(content) };
    this.markDraft(obj, [part], user);
    obj.changedAt = new Date().toISOString();
  }

  /** Records that `user` has a draft of these parts (the inactive sources hold them). */
  markDraft(obj, parts, user) {
    const mine = obj.draft?.owner === user ? obj.draft.parts : [];
    obj.draft = { owner: user, parts: [...new Set([...mine, ...parts])] };
  }

  /** Makes the inactive version active; the drafts are gone. */
  activateObject(obj) {
    if (!this.isInactive(obj)) return false;
    obj.sources = obj.inactiveSources;
    obj.inactiveSources = null;
    obj.draft = null;
    return true;
  }

  metadata(obj) {
    const meta = {
      formatVersion: '1',
      header: { description: obj.description, originalLanguage: 'en', abapLanguageVersion: 'standard' },
      name: obj.name,
      type: obj.type,
      packageName: obj.packageName,
    };
    if (obj.binding) meta.binding = obj.binding;
    if (obj.numberRange) meta.numberRange = obj.numberRange;
    return meta;
  }

  isInactive(obj) {
    return obj.inactiveSources !== null && obj.inactiveSources !== undefined;
  }

  create({ name, type, description, packageName, owner, transport }) {
    const obj = {
      name: name.toUpperCase(),
      type,
      packageName: packageName.toUpperCase() === LOCAL_PACKAGE ? LOCAL_PACKAGE : packageName.toUpperCase(),
      description,
      owner,
      changedAt: new Date().toISOString(),
      sources: null,
      inactiveSources: initialSources(type, name),
    };
    obj.draft = { owner, parts: Object.keys(obj.inactiveSources) };
    this.objects.set(key(obj.name, type), obj);
    if (transport) this.addToTransport(transport, obj);
    return obj;
  }

  delete(obj) {
    this.objects.delete(key(obj.name, obj.type));
  }

  addToTransport(number, obj) {
    const tr = this.transports.get(number);
    if (tr && !tr.objects.some((o) => o.name === obj.name && o.type === obj.type)) {
      tr.objects.push({ name: obj.name, type: obj.type });
    }
  }

  transportsOf(obj) {
    return [...this.transports.values()].filter((t) =>
      t.objects.some((o) => o.name === obj.name && o.type === obj.type),
    );
  }

  createTransport({ description, owner, objects = [] }) {
    const number = `A4HK${this.nextTransport}`;
    this.nextTransport += 2;
    const tr = {
      number,
      description,
      owner,
      status: 'modifiable',
      type: 'K',
      target: 'QA4',
      tasks: [{ number: `A4HK${this.nextTransport - 1}`, owner, status: 'modifiable' }],
      objects: [...objects],
    };
    this.transports.set(number, tr);
    return tr;
  }
}

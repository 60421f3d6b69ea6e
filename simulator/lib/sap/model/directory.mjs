// The repotree as adt-ls's file system lists it (`adtLs/fileSystem/readDirectory`): below a
// destination come the package roots (`System Library/<package>`, `Local Objects ($TMP)/<user>`),
// then category and type folders, then one folder per object holding its files (main file,
// class includes, the `.json` metadata file). Listings are built from the objects' URIs, so a
// folder exists only while something is in it. Package files (`<pkg>.devck.jsonc`) are not
// modelled (docs/decisions.md#d9-19).
import { isJsonOnly, typeInfo } from './object-types.mjs';
import { fileSegments } from './uris.mjs';

/** FileType of VS Code's file system API. */
const FILE = 1;
const DIRECTORY = 2;

/** The parts of an object that exist as files. */
function partsOf(obj) {
  if (isJsonOnly(obj.type)) return ['main'];
  const sources = { ...(obj.sources ?? {}), ...(obj.inactiveSources ?? {}) };
  const includes = (typeInfo(obj.type).includes ?? []).filter((p) => p in sources);
  return ['main', ...includes, 'metadata'];
}

/** `[{name, type}]` directly below `path` (decoded segments below the destination). */
export function listDirectory(repo, path) {
  const children = new Map();
  for (const obj of repo.all()) {
    for (const part of partsOf(obj)) {
      const segments = fileSegments(obj, part);
      if (segments.length <= path.length || path.some((s, i) => segments[i] !== s)) continue;
      const name = segments[path.length];
      const type = segments.length === path.length + 1 ? FILE : DIRECTORY;
      if (children.get(name) !== DIRECTORY) children.set(name, type);
    }
  }
  return [...children]
    .map(([name, type]) => ({ name, type }))
    .sort((a, b) => b.type - a.type || a.name.localeCompare(b.name));
}

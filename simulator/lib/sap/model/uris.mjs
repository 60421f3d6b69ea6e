// URIs of repository objects: the AFF/repotree URIs adt-ls uses
// (`abap:/repotree-v1/<DEST>/<folders>/<NAME>/<file>`, exact percent-encoding of
// `$ ( ) space`), and the ADT paths the backend reports in search results.
import { typeInfo } from './object-types.mjs';

const REPOTREE_PREFIX = 'abap:/repotree-v1/';
export const LOCAL_PACKAGE = '$TMP';

/** Percent-encodes one path segment, including `(`, `)`, `!`, `'` and `*`. */
export function encodeSegment(text) {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  );
}

/** The file name of an object part: main file, a class include, or the `.json` metadata. */
export function fileName(obj, part = 'main') {
  const info = typeInfo(obj.type);
  const base = `${obj.name.toLowerCase()}.${info.ext}`;
  if (part === 'metadata') return `${base}.json`;
  if (part === 'main') return `${base}.${info.fileSuffix}`;
  return `${base}.${part}.abap`;
}

function folderSegments(obj) {
  const info = typeInfo(obj.type);
  const root =
    obj.packageName === LOCAL_PACKAGE
      ? ['Local Objects ($TMP)', obj.owner]
      : ['System Library', obj.packageName];
  return [...root, ...info.folder, obj.name];
}

/** The path of an object part below its destination, as decoded segments. */
export function fileSegments(obj, part = 'main') {
  return [...folderSegments(obj), fileName(obj, part)];
}

/** The repotree URI of an object part for destination `dest`. */
export function affUri(dest, obj, part = 'main') {
  const segments = [dest, ...fileSegments(obj, part)];
  return REPOTREE_PREFIX + segments.map(encodeSegment).join('/');
}

/**
 * Splits a repotree directory URI (`abap:/repotree-v1/<DEST>/<segments...>`, a trailing `/`
 * allowed) into `{dest, path}` with decoded segments; undefined when it is not one.
 */
export function parseDirectoryUri(uri) {
  if (typeof uri !== 'string' || !uri.startsWith(REPOTREE_PREFIX)) return undefined;
  const raw = uri.slice(REPOTREE_PREFIX.length).replace(/\/$/, '').split('/');
  if (raw[0] === '') return undefined;
  try {
    const [dest, ...path] = raw.map((s) => decodeURIComponent(s));
    return { dest, path };
  } catch {
    return undefined;
  }
}

/**
 * Splits a repotree URI into `{dest, objectName, file}` (decoded) or undefined when it is
 * not one. The object is identified by its folder (the segment before the file).
 */
export function parseAffUri(uri) {
  if (typeof uri !== 'string' || !uri.startsWith(REPOTREE_PREFIX)) return undefined;
  const raw = uri.slice(REPOTREE_PREFIX.length).split('/');
  if (raw.length < 4) return undefined;
  try {
    const segments = raw.map((s) => decodeURIComponent(s));
    return {
      dest: segments[0],
      objectName: segments[segments.length - 2],
      file: segments[segments.length - 1],
    };
  } catch {
    return undefined;
  }
}

/** The ADT path of an object (`/sap/bc/adt/oo/classes/zcl_x`). */
export function adtUri(obj) {
  return typeInfo(obj.type).adtPath + encodeSegment(obj.name.toLowerCase());
}

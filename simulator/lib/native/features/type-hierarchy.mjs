// Type hierarchy over the open documents: prepare at a class/interface name, supertypes from
// INHERITING FROM / INTERFACES, subtypes from every open class that names the type. Items carry
// an opaque `data` the client must send back unchanged (the SDK strips it from its result).

import { SYMBOL_KIND } from '../abap/outline.mjs';
import { wordAt } from './lookup.mjs';

const ZERO_RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** A URI for a type not declared in an open document, next to `nearUri`. */
function guessedUri(nearUri, name, kind) {
  const base = nearUri.slice(0, nearUri.lastIndexOf('/') + 1);
  return `${base}${name.toLowerCase()}.${kind === 'interface' ? 'intf' : 'clas'}.abap`;
}

function kindOfName(name) {
  return /^(Z|Y|\/\w+\/)?L?IF_/i.test(name) ? 'interface' : 'class';
}

/** Finds a declared type in the open documents: {doc, type} or undefined. */
function findType(store, name) {
  for (const doc of store.all()) {
    const type = store.analysisOf(doc).types.get(name.toUpperCase());
    if (type) return { doc, type };
  }
  return undefined;
}

function itemFor(store, name, nearUri) {
  const found = findType(store, name);
  if (found) {
    const { doc, type } = found;
    return {
      name: type.name,
      kind: type.kind === 'interface' ? SYMBOL_KIND.Interface : SYMBOL_KIND.Class,
      detail: type.symbol.detail,
      uri: doc.uri,
      range: type.symbol.range,
      selectionRange: type.symbol.selectionRange,
      data: { simTypeHierarchy: 1, name: type.name.toUpperCase(), uri: doc.uri },
    };
  }
  const kind = kindOfName(name);
  const uri = guessedUri(nearUri, name, kind);
  return {
    name,
    kind: kind === 'interface' ? SYMBOL_KIND.Interface : SYMBOL_KIND.Class,
    uri,
    range: ZERO_RANGE,
    selectionRange: ZERO_RANGE,
    data: { simTypeHierarchy: 1, name: name.toUpperCase(), uri },
  };
}

function knownTypeNames(store) {
  const names = new Set();
  for (const doc of store.all()) {
    for (const [name, type] of store.analysisOf(doc).types) {
      names.add(name);
      if (type.superclass) names.add(type.superclass);
      for (const i of type.interfaces) names.add(i);
    }
  }
  return names;
}

export function prepareTypeHierarchy(store, doc, analysis, position) {
  const word = wordAt(analysis, position);
  if (!word) return null;
  const known = knownTypeNames(store);
  const name = word.names.find((n) => known.has(n.toUpperCase()));
  return name ? [itemFor(store, name, doc.uri)] : null;
}

const itemName = (item) => String(item?.data?.name ?? item?.name ?? '').toUpperCase();

export function supertypes(store, item) {
  const found = findType(store, itemName(item));
  if (!found) return [];
  const { type } = found;
  const names = [type.superclass, ...type.interfaces].filter(Boolean);
  return names.map((name) => itemFor(store, name, found.doc.uri));
}

export function subtypes(store, item) {
  const wanted = itemName(item);
  const result = [];
  for (const doc of store.all()) {
    for (const type of store.analysisOf(doc).types.values()) {
      if (type.superclass === wanted || type.interfaces.includes(wanted)) result.push(itemFor(store, type.name, doc.uri));
    }
  }
  return result;
}

// Source templates: what a newly created object looks like, as ADT generates it.

export const CLASS_INCLUDE_TEMPLATES = {
  definitions:
    '*"* use this source file for any type of declarations (class\n' +
    '*"* definitions, interfaces or type declarations) you need for\n' +
    '*"* components in the private section\n',
  implementations:
    '*"* use this source file for the definition and implementation of\n' +
    '*"* local helper classes, interface definitions and type\n' +
    '*"* declarations\n',
  macros:
    '*"* use this source file for any macro definitions you need\n' +
    '*"* in the implementation part of the class\n',
  testclasses: '*"* use this source file for your ABAP unit test classes\n',
};

export function classTemplate(name) {
  const lower = name.toLowerCase();
  return (
    `CLASS ${lower} DEFINITION\n  PUBLIC\n  FINAL\n  CREATE PUBLIC .\n\n` +
    `  PUBLIC SECTION.\n  PROTECTED SECTION.\n  PRIVATE SECTION.\nENDCLASS.\n\n\n\n` +
    `CLASS ${lower} IMPLEMENTATION.\nENDCLASS.\n`
  );
}

export function interfaceTemplate(name) {
  return `INTERFACE ${name.toLowerCase()}\n  PUBLIC .\nENDINTERFACE.\n`;
}

export function programTemplate(name) {
  const rule = `*&${'-'.repeat(69)}*\n`;
  return `${rule}*& Report ${name.toUpperCase()}\n${rule}REPORT ${name.toLowerCase()}.\n`;
}

/** The placeholder adt-ls serves for types that ADT in VS Code does not support. */
export function unsupportedPlaceholder(obj) {
  return (
    `// The object ${obj.name} (${obj.type}) is not supported in ADT in VS Code.\n` +
    `// Please use ADT in Eclipse to work with this object.\n{}\n`
  );
}

export function serviceDefinitionTemplate(name, description = '') {
  return `@EndUserText.label: '${description}'\ndefine service ${name.toUpperCase()} {\n}\n`;
}

/** A fresh source set for a created object of `type`. */
export function initialSources(type, name) {
  if (type === 'CLAS/OC') return { main: classTemplate(name), ...CLASS_INCLUDE_TEMPLATES };
  if (type === 'INTF/OI') return { main: interfaceTemplate(name) };
  if (type === 'PROG/P') return { main: programTemplate(name) };
  if (type === 'SRVD/SRV') return { main: serviceDefinitionTemplate(name) };
  return { main: '' };
}

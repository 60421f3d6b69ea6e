// What index.d.ts declares, read with the TypeScript compiler API: the dotted methods of
// `AdtLsClient` (generated from the Rust method registry, so tests use the registry's list
// without a copy of it) and the runtime (value) exports.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../helpers.mjs';

const source = ts.createSourceFile('index.d.ts', readFileSync(join(ROOT, 'index.d.ts'), 'utf8'), ts.ScriptTarget.Latest, true);

const interfaces = new Map(
  source.statements.filter(ts.isInterfaceDeclaration).map((decl) => [decl.name.text, decl]),
);

const isExported = (node) => (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The members of `AdtLsClient` that are not dispatched methods (lifecycle and events). */
export const CLIENT_LIFECYCLE_MEMBERS = ['health', 'dispose', 'on', 'once', 'off'];

/** Every dotted method of `AdtLsClient` (`repository.search`, `capabilities`, ...). */
export function declaredClientMethods() {
  const client = interfaces.get('AdtLsClient');
  if (!client) throw new Error('index.d.ts declares no AdtLsClient');
  const out = [];
  for (const member of client.members) {
    if (!member.name || !ts.isIdentifier(member.name)) continue; // [Symbol.asyncDispose]
    const name = member.name.text;
    if (ts.isMethodSignature(member)) {
      if (!CLIENT_LIFECYCLE_MEMBERS.includes(name)) out.push(name);
    } else if (ts.isPropertySignature(member) && member.type && ts.isTypeReferenceNode(member.type)) {
      const space = interfaces.get(member.type.typeName.getText(source));
      if (!space) throw new Error(`AdtLsClient.${name}: no interface ${member.type.typeName.getText(source)}`);
      for (const m of space.members) if (ts.isMethodSignature(m)) out.push(`${name}.${m.name.getText(source)}`);
    }
  }
  return out;
}

/** The names index.d.ts exports as values (functions, constants, classes, namespaces). */
export function declaredValueExports() {
  const out = [];
  for (const stmt of source.statements) {
    if (!isExported(stmt)) continue;
    if (ts.isVariableStatement(stmt)) out.push(...stmt.declarationList.declarations.map((d) => d.name.getText(source)));
    else if (ts.isFunctionDeclaration(stmt) || ts.isClassDeclaration(stmt) || ts.isModuleDeclaration(stmt)) out.push(stmt.name.text);
    else if (ts.isEnumDeclaration(stmt)) out.push(stmt.name.text);
    else if (ts.isExportAssignment(stmt)) out.push('default');
  }
  return [...new Set(out)];
}

/** The declared parameters of the client method `dotted`: `[{name, type, optional}]`. */
export function declaredParameters(dotted) {
  const [head, tail] = dotted.includes('.') ? dotted.split('.') : [undefined, dotted];
  const client = interfaces.get('AdtLsClient');
  let owner = client;
  if (head) {
    const prop = client.members.find((m) => m.name?.getText(source) === head);
    owner = interfaces.get(prop.type.typeName.getText(source));
  }
  const method = owner.members.find((m) => ts.isMethodSignature(m) && m.name.getText(source) === tail);
  if (!method) throw new Error(`index.d.ts declares no ${dotted}`);
  return method.parameters.map((p) => ({ name: p.name.getText(source), type: p.type?.getText(source) ?? '', optional: Boolean(p.questionToken) }));
}

// Reads declaration files with the TypeScript compiler API: a module's exports (with what
// each one is: function, class, constant or type only) and the methods of an interface,
// walked through its namespaces (`repository.search`, `navigation.hover`, ...). The type
// tests derive every assertion from these listings, never from a hand-kept list, so a new
// export or client method is covered the moment it is declared.

import ts from 'typescript';

/**
 * Compile `files` (declaration files) into one program and return a reader for them.
 * `options` are merged over strict defaults.
 */
export function declarationProgram(files, options = {}) {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    ...options,
  });
  const checker = program.getTypeChecker();

  /** The resolved symbol an export stands for (follows `export { type X }` aliases). */
  const resolve = (symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);

  /** `[{ name, kind, symbol }]` for every export of the module in `file`, sorted by name. */
  function exportsOf(file) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`${file} is not part of the program`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`${file} is not a module`);
    return checker
      .getExportsOfModule(moduleSymbol)
      .map((exported) => {
        const symbol = resolve(exported);
        return { name: exported.getName(), kind: kindOf(symbol), symbol };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  function kindOf(symbol) {
    const flags = symbol.flags;
    if (flags & ts.SymbolFlags.Class) return 'class';
    if (flags & ts.SymbolFlags.Function) return 'function';
    if (flags & ts.SymbolFlags.Variable) return 'const';
    if (flags & ts.SymbolFlags.ValueModule) return 'const'; // `declare namespace silentLogger`
    return 'type';
  }

  /** True when a value of the symbol's declared type has call signatures. */
  const callable = (type) => type.getCallSignatures().length > 0;

  /**
   * Every method path of an interface (`['repository', 'search']`, ...): members whose type
   * is callable are methods; object-typed members are namespaces, walked recursively.
   * Symbol-keyed members (`[Symbol.asyncDispose]`) are left out: they have no name a path
   * can carry and are checked by the dispose type tests.
   */
  function methodPaths(symbol) {
    const paths = [];
    const walk = (type, prefix) => {
      for (const member of checker.getPropertiesOfType(type)) {
        const name = member.getName();
        if (name.startsWith('__@')) continue;
        const declaration = member.valueDeclaration ?? member.declarations?.[0];
        if (!declaration) continue;
        if (ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
        const memberType = checker.getTypeOfSymbolAtLocation(member, declaration);
        const path = [...prefix, name];
        if (callable(memberType)) paths.push(path);
        else if (memberType.getProperties().length > 0 && prefix.length < 3) walk(memberType, path);
      }
    };
    walk(checker.getDeclaredTypeOfSymbol(symbol), []);
    return paths;
  }

  /** Public member names of a class's instances that are (or are not) methods; private and `#` members left out. */
  function classMembers(symbol, methods) {
    const instance = checker.getDeclaredTypeOfSymbol(symbol);
    return checker
      .getPropertiesOfType(instance)
      .filter((member) => {
        const name = member.getName();
        if (name.startsWith('__@') || name.startsWith('#')) return false;
        const declaration = member.valueDeclaration ?? member.declarations?.[0];
        if (!declaration) return false;
        if (ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return false;
        return callable(checker.getTypeOfSymbolAtLocation(member, declaration)) === methods;
      })
      .map((member) => member.getName())
      .sort();
  }
  const classMethods = (symbol) => classMembers(symbol, true);
  const classProperties = (symbol) => classMembers(symbol, false);

  /**
   * The awaited result type of the method at `path` of interface `symbol`, as type text
   * (names of exported types kept; a generic result such as `raw.lsp<T>`'s is its default).
   */
  function awaitedResult(symbol, path) {
    let type = checker.getDeclaredTypeOfSymbol(symbol);
    for (const name of path) {
      const member = checker.getPropertyOfType(type, name);
      if (!member) throw new Error(`no member ${path.join('.')}`);
      type = checker.getTypeOfSymbolAtLocation(member, member.valueDeclaration ?? member.declarations[0]);
    }
    const [signature] = type.getCallSignatures();
    const returned = checker.getReturnTypeOfSignature(signature);
    let promised = checker.getPromisedTypeOfPromise(returned) ?? returned;
    if (promised.flags & ts.TypeFlags.TypeParameter) {
      promised = checker.getDefaultFromTypeParameter(promised) ?? checker.getBaseConstraintOfType(promised) ?? checker.getUnknownType();
    }
    const result = checker.getAwaitedType(promised) ?? checker.getUnknownType();
    return checker.typeToString(result, undefined, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseStructuralFallback);
  }

  return { program, checker, exportsOf, methodPaths, classMethods, classProperties, awaitedResult };
}

/** `a.b['c-d']` for a path: TypeScript indexed access on `root`. */
export function indexed(root, path) {
  return root + path.map((p) => `[${JSON.stringify(p)}]`).join('');
}

//! The registry, dispatch and the committed `index.d.ts` agree.

use super::render::{interfaces, MethodSpec};
use super::*;
use std::collections::HashSet;

/// The trimmed, non-empty lines of a text (napi re-indents what it writes).
fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn names_are_unique_dotted_and_in_a_declared_namespace() {
    let mut seen = HashSet::new();
    let namespaces: HashSet<&str> = NAMESPACES.iter().map(|n| n.name).collect();
    for spec in specs() {
        assert!(seen.insert(spec.name), "{} listed twice", spec.name);
        let (ns, member) = spec.split();
        assert!(
            ns.is_empty() || namespaces.contains(ns),
            "{}: no namespace {ns}",
            spec.name
        );
        assert!(!member.is_empty() && !member.contains('.'), "{}", spec.name);
        assert!(!spec.doc.trim().is_empty(), "{} has no JSDoc", spec.name);
    }
    assert_eq!(seen.len(), 52, "the client has 52 methods");
    for ns in NAMESPACES {
        assert!(
            specs().any(|s| s.split().0 == ns.name),
            "{} is empty",
            ns.name
        );
    }
}

#[test]
fn every_entry_dispatches_and_unknown_names_do_not() {
    for spec in specs() {
        let found = find(spec.name).map(|m| m.spec.name);
        assert_eq!(found, Some(spec.name));
    }
    for name in [
        "",
        "dispose",
        "health",
        "repository",
        "repository.",
        "raw.lspx",
        "x.search",
        "navigation.call",
    ] {
        assert!(find(name).is_none(), "{name:?} dispatches");
    }
    let void: Vec<&str> = specs().filter(|s| s.is_void()).map(|s| s.name).collect();
    assert_eq!(void, ["lifecycle.update", "lifecycle.delete"]);
}

#[test]
fn signatures_render_with_generics_and_promises() {
    let raw_lsp = find("raw.lsp").map(|m| m.spec.signature());
    assert_eq!(
        raw_lsp.as_deref(),
        Some("lsp<T = unknown>(method: string, params?: unknown): Promise<T>")
    );
    let spec = MethodSpec {
        name: "x.y",
        generics: "",
        params: "a: string",
        result: "void",
        doc: " Doc.\n",
    };
    assert_eq!(spec.signature(), "y(a: string): Promise<void>");
    assert!(spec.is_void());
    assert_eq!(render::js_doc(" One.\n"), "/** One. */\n");
    assert_eq!(render::js_doc(" A\n B\n"), "/**\n * A\n * B\n */\n");
}

#[test]
fn the_committed_declaration_is_the_rendered_registry() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/index.d.ts");
    let dts = std::fs::read_to_string(path).expect("index.d.ts is committed");
    let committed = lines(&dts).join("\n");
    let specs: Vec<&MethodSpec> = specs().collect();
    for i in interfaces(NAMESPACES, &specs) {
        let rendered = format!("{}export interface {} {{\n{}\n}}", i.js_doc, i.name, i.body);
        let want = lines(&rendered).join("\n");
        assert!(
            committed.contains(&want),
            "index.d.ts does not hold the rendered {} (run `npm run build:debug`):\n{want}",
            i.name
        );
    }
    for spec in specs.iter() {
        let member = lines(&spec.signature()).join("\n");
        assert!(committed.contains(&member), "index.d.ts lacks {member}");
    }
}

//! The registry, dispatch and the committed `index.d.ts` agree.

use super::render::{interfaces, MethodSpec};
use super::specs::option_keys;
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
    assert_eq!(seen.len(), 54, "the client has 54 methods");
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
        Some(
            "lsp<T = unknown>(method: string, params?: unknown, options?: CallOptions): Promise<T>"
        )
    );
    let spec = MethodSpec {
        name: "x.y",
        generics: "",
        params: "a: string",
        result: "void",
        doc: " Doc.\n",
    };
    assert_eq!(
        spec.signature(),
        "y(a: string, options?: CallOptions): Promise<void>"
    );
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

#[test]
fn call_options_go_into_a_trailing_opts_or_after_the_parameters() {
    use render::CallOptionsAt;
    let at = |name: &str| find(name).map(|m| m.spec.call_options_at());
    assert_eq!(
        at("repository.search"),
        Some(CallOptionsAt::Opts {
            index: 1,
            own_timeout: false
        })
    );
    assert_eq!(
        at("navigation.findReferences"),
        Some(CallOptionsAt::Opts {
            index: 2,
            own_timeout: true
        })
    );
    assert_eq!(
        at("capabilities"),
        Some(CallOptionsAt::Trailing { index: 0 })
    );
    assert_eq!(
        at("source.read"),
        Some(CallOptionsAt::Trailing { index: 1 })
    );
    assert_eq!(at("raw.tool"), Some(CallOptionsAt::Trailing { index: 2 }));
    assert_eq!(
        find("transport.getDiff").map(|m| m.spec.params_with_call_options()),
        Some(
            "transportNumber: string, opts?: { cursor?: string; pageSize?: number } & CallOptions"
                .into()
        )
    );
    assert_eq!(
        find("reconnect").map(|m| m.spec.params_with_call_options()),
        Some("options?: CallOptions".into())
    );
    assert_eq!(
        render::split_params("a: { x: 1, y: Record<string, [1, 2]> }, b?: (p: 1, q: 2) => void"),
        [
            "a: { x: 1, y: Record<string, [1, 2]> }",
            "b?: (p: 1, q: 2) => void"
        ]
    );
    assert!(render::split_params("").is_empty());
    // Every method takes them somewhere: no declared parameter is named like ours.
    for spec in specs() {
        assert!(!spec.params.contains("options?:"), "{}", spec.name);
    }
}

#[test]
fn option_keys_come_from_the_declared_opts_type() {
    let expected: &[(&str, &[&str])] = &[
        ("repository.search", &["maxResults", "types", "cold"]),
        (
            "navigation.findReferences",
            &["includeDeclaration", "timeoutMs"],
        ),
        ("navigation.typeHierarchy", &["direction"]),
        (
            "navigation.completion",
            &["maxItems", "resolve", "resolveLimit"],
        ),
        ("navigation.format", &["tabSize", "insertSpaces"]),
        ("quality.listAtcVariants", &["query"]),
        (
            "quality.runAtc",
            &["checkVariant", "timeoutMs", "onProgress"],
        ),
        (
            "quality.runUnitTestsWithCoverage",
            &["timeoutMs", "onProgress"],
        ),
        ("services.getServiceInfo", &["service"]),
        ("services.publishServiceBinding", &["service"]),
        ("lifecycle.getObjectTypeDetails", &["name"]),
        ("lifecycle.getCreationForm", &["name"]),
        (
            "lifecycle.getGeneratorSchema",
            &[
                "packageName",
                "referencedObjectType",
                "referencedObjectName",
            ],
        ),
        ("transport.list", &["limit", "query"]),
        ("transport.getDiff", &["cursor", "pageSize"]),
    ];
    for (method, keys) in expected {
        assert!(find(method).is_some(), "{method} is not a method");
        assert_eq!(option_keys(method), *keys, "{method}");
    }
    // Every other method has no `opts` object of its own.
    for spec in specs() {
        if !expected.iter().any(|(m, _)| *m == spec.name) {
            assert!(option_keys(spec.name).is_empty(), "{}", spec.name);
        }
    }
    assert!(option_keys("no.suchMethod").is_empty());
}

#[test]
fn option_keys_skip_nested_types_and_arrows() {
    let spec = MethodSpec {
        name: "x.y",
        generics: "",
        params: "a: string, opts?: { f?: (p: { q: number }) => void; g: Array<{ h: string }> } & ProgressOptions",
        result: "void",
        doc: "",
    };
    assert_eq!(spec.option_keys(), ["f", "g", "onProgress"]);
}

/// The method names the client's bodies pass to `args::method_options` (and
/// `resolve_with_opts`, `lookup_args`, where the name is the call's last string) name methods
/// with an `opts` type: a misspelt name would warn about every key.
#[test]
fn every_method_options_call_names_a_method_with_opts() {
    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    rust_files(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/client"),
        &mut files,
    );
    let mut calls = 0;
    for file in files.iter().filter(|f| !f.ends_with("registry/tests.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        for call in ["method_options(", "resolve_with_opts(", "lookup_args("] {
            for (at, _) in text.match_indices(call) {
                let rest = &text[at + call.len()..];
                let Some(close) = rest.find(')') else {
                    continue;
                };
                let Some(name) = rest[..close].rsplit('"').nth(1) else {
                    continue; // the definition, or a caller passing its parameter on
                };
                calls += 1;
                assert!(
                    !option_keys(name).is_empty(),
                    "{}: {name} has no opts type",
                    file.display()
                );
            }
        }
    }
    assert_eq!(calls, 15, "one call per method with options");
}

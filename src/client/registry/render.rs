//! The TypeScript declaration of the client, rendered from the method table: one interface
//! per namespace and `AdtLsClient`, each member with its JSDoc, as the intermediate type
//! definitions napi-rs turns into `index.d.ts`. Pure `std`: `build.rs` includes this file to
//! write the declaration during `napi build`, the crate's tests to check it.

/// One client method as declared: dotted name, TypeScript type parameters, parameter list,
/// result type (inside `Promise<…>`) and JSDoc text (one `///` line per line).
pub(crate) struct MethodSpec {
    pub name: &'static str,
    pub generics: &'static str,
    pub params: &'static str,
    pub result: &'static str,
    pub doc: &'static str,
}

/// One namespace of the client: its property name, its interface and its JSDoc.
pub(crate) struct NamespaceSpec {
    pub name: &'static str,
    pub interface: &'static str,
    pub doc: &'static str,
}

/// One rendered interface.
pub(crate) struct Interface {
    pub name: String,
    pub js_doc: String,
    pub body: String,
}

impl MethodSpec {
    /// The namespace (`""` for a method on the client itself) and the member name.
    pub(crate) fn split(&self) -> (&'static str, &'static str) {
        self.name.split_once('.').unwrap_or(("", self.name))
    }

    /// Methods declared `Promise<void>` resolve `undefined`.
    pub(crate) fn is_void(&self) -> bool {
        self.result == "void"
    }

    /// Where the method takes its [`CallOptions`](CallOptionsAt) (`signal`, `timeoutMs`).
    pub(crate) fn call_options_at(&self) -> CallOptionsAt {
        let params = split_params(self.params);
        let index = params.len().saturating_sub(1);
        match params.last() {
            Some(last) if last.starts_with("opts?:") => CallOptionsAt::Opts {
                index,
                own_timeout: last.contains("timeoutMs?:"),
            },
            _ => CallOptionsAt::Trailing {
                index: params.len(),
            },
        }
    }

    /// The known keys of the method's trailing `opts` object, in declared order: the members
    /// of its `{ … }` type literals and of the named option types it joins with `&`
    /// ([`NAMED_OPTION_KEYS`]); empty for a method without `opts`.
    pub(crate) fn option_keys(&self) -> Vec<&'static str> {
        let params = split_params(self.params);
        let Some(ty) = params.last().and_then(|p| p.strip_prefix("opts?:")) else {
            return Vec::new();
        };
        let mut keys = Vec::new();
        for part in split_top(ty, '&') {
            match part.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
                Some(members) => {
                    keys.extend(split_top(members, ';').into_iter().filter_map(member_name))
                }
                None => keys.extend(
                    NAMED_OPTION_KEYS
                        .iter()
                        .filter(|(name, _)| *name == part)
                        .flat_map(|(_, k)| k.iter().copied()),
                ),
            }
        }
        keys
    }

    /// The declared parameters with the call options added: `& CallOptions` on a trailing
    /// `opts`, else a trailing `options?: CallOptions`.
    pub(crate) fn params_with_call_options(&self) -> String {
        match self.call_options_at() {
            CallOptionsAt::Opts { .. } => format!("{} & CallOptions", self.params),
            CallOptionsAt::Trailing { index: 0 } => "options?: CallOptions".to_string(),
            CallOptionsAt::Trailing { .. } => format!("{}, options?: CallOptions", self.params),
        }
    }

    /// `name<T>(params): Promise<Result>`.
    pub(crate) fn signature(&self) -> String {
        let generics = if self.generics.is_empty() {
            String::new()
        } else {
            format!("<{}>", self.generics)
        };
        let (_, member) = self.split();
        format!(
            "{member}{generics}({}): Promise<{}>",
            self.params_with_call_options(),
            self.result
        )
    }
}

/// Where a client method takes `signal` and `timeoutMs` (docs/cancellation.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CallOptionsAt {
    /// Inside its own trailing `opts` object, argument `index`; `own_timeout` when `opts`
    /// already declares `timeoutMs` (the method's own limit, which then stays in charge).
    Opts { index: usize, own_timeout: bool },
    /// As an extra trailing argument `options` at `index`.
    Trailing { index: usize },
}

impl CallOptionsAt {
    /// The argument that holds the call options.
    pub(crate) fn index(self) -> usize {
        match self {
            CallOptionsAt::Opts { index, .. } | CallOptionsAt::Trailing { index } => index,
        }
    }
}

/// The keys of the named option types a method's `opts` joins with `&` (declared in
/// `types/header.d.ts`).
pub(crate) const NAMED_OPTION_KEYS: &[(&str, &[&str])] = &[("ProgressOptions", &["onProgress"])];

/// The name of a type-literal member (`maxResults?: number` -> `maxResults`).
fn member_name(member: &'static str) -> Option<&'static str> {
    let (name, _) = member.split_once(':')?;
    let name = name.trim().trim_end_matches('?');
    (!name.is_empty()).then_some(name)
}

/// `text` split at `sep` outside brackets, each part trimmed, empty parts dropped.
fn split_top(text: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut previous = ' ';
    for (i, c) in text.char_indices() {
        let arrow = c == '>' && previous == '=';
        previous = c;
        match c {
            '{' | '[' | '(' | '<' => depth += 1,
            '}' | ']' | ')' | '>' if !arrow => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(text[start..i].trim());
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out.retain(|p| !p.is_empty());
    out
}

/// The top-level parameters of a parameter list (commas inside `{}`, `[]`, `()`, `<>` kept).
pub(crate) fn split_params(params: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in params.char_indices() {
        match c {
            '{' | '[' | '(' | '<' => depth += 1,
            '}' | ']' | ')' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(params[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = params[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

const CLIENT_DOC: &str = " The unified client returned by `createAdtLs`: one surface over adt-ls's LSP and its own\n MCP server. Call `dispose()` when done, or hold the client with\n `await using adt = await createAdtLs(...)`.\n\n Every method returns a promise and never throws synchronously. Failures reject with an\n `AdtLsError` (docs/errors.md): `ERR_NOT_CONNECTED` (\"No ABAP destination is connected.\")\n for methods that need a logged-on destination in foundation mode, `ERR_DISPOSED` after\n `dispose()`, `ERR_INVALID_ARG…` / `ERR_OUT_OF_RANGE` for bad arguments, `ETIMEDOUT` when a\n bound passes, adt-ls's JSON-RPC code for a failed LSP request and\n `ADT_TOOL_ERROR` for a failed MCP tool.\n\n Every method also takes {@link CallOptions} (`signal`, `timeoutMs`): inside its `opts`\n object where it has one, else as an extra last argument (docs/cancellation.md).\n";

/// Members of `AdtLsClient` that are not dispatched methods.
const CLIENT_TAIL: &[(&str, &str)] = &[
    (" Connection and liveness snapshot (synchronous).\n", "health(): HealthInfo"),
    (
        " Shut down: stop the keep-alive, end adt-ls and its MCP server, close the TLS proxy and\n remove the temporary directories. Idempotent.\n",
        "dispose(): Promise<void>",
    ),
    (
        " `dispose()`, for `await using`.\n",
        "[Symbol.asyncDispose](): Promise<void>",
    ),
    (
        " Call `listener` on every `type` event (docs/events.md): `logonState`, `health`, `relogon`,\n `exit`. Listeners run on the JS thread, never keep the script alive, and may throw or\n reject (logged as a warning). After `dispose()` only the final `exit` event comes.\n Returns a function that removes the listener.\n @throws `ERR_INVALID_ARG_VALUE` for an unknown event name, `ERR_INVALID_ARG_TYPE` for a\n listener that is not a function\n",
        "on<K extends AdtLsEventName>(type: K, listener: AdtLsEventListener<K>): () => void",
    ),
    (
        " As `on`, for the next `type` event only.\n",
        "once<K extends AdtLsEventName>(type: K, listener: AdtLsEventListener<K>): () => void",
    ),
    (
        " Remove the most recently added `listener` of `type` (no-op when it is not registered).\n",
        "off<K extends AdtLsEventName>(type: K, listener: AdtLsEventListener<K>): void",
    ),
];

/// Members of namespace interfaces that are not dispatched methods: (namespace, JSDoc,
/// member). Their JS functions are made by the N-API layer.
pub(crate) const NAMESPACE_EXTRAS: &[(&str, &str, &str)] = &[(
    "transport",
    " Every page of a transport's unified diff, as an async iterator (`for await`): calls
 `getDiff` with each page's `nextCursor` until `batchInfo.status` is `completed`. `signal`
 aborts the page in flight (the iteration rejects with an `AbortError`), `timeoutMs`
 bounds each page; `break` stops cleanly (no further page is asked for).
",
    "diffPages(transportNumber: string, opts?: { cursor?: string; pageSize?: number } & CallOptions): AsyncIterableIterator<TransportDiffPage>",
)];

/// `/** … */` for `///` text (each line starts with the space after `///`).
pub(crate) fn js_doc(doc: &str) -> String {
    let lines: Vec<&str> = doc
        .lines()
        .map(|l| l.strip_prefix(' ').unwrap_or(l).trim_end())
        .collect();
    match lines.as_slice() {
        [] => String::new(),
        [one] => format!("/** {one} */\n"),
        many => {
            let mut out = String::from("/**\n");
            for line in many {
                if line.is_empty() {
                    out.push_str(" *\n");
                } else {
                    out.push_str(&format!(" * {line}\n"));
                }
            }
            out.push_str(" */\n");
            out
        }
    }
}

/// Every namespace interface, then `AdtLsClient`.
pub(crate) fn interfaces(namespaces: &[NamespaceSpec], methods: &[&MethodSpec]) -> Vec<Interface> {
    let mut out = Vec::new();
    let mut client = Vec::new();
    for ns in namespaces {
        let members: Vec<String> = methods
            .iter()
            .filter(|m| m.split().0 == ns.name)
            .map(|m| format!("{}{}", js_doc(m.doc), m.signature()))
            .chain(
                NAMESPACE_EXTRAS
                    .iter()
                    .filter(|(name, _, _)| *name == ns.name)
                    .map(|(_, doc, member)| format!("{}{member}", js_doc(doc))),
            )
            .collect();
        out.push(Interface {
            name: ns.interface.to_string(),
            js_doc: js_doc(ns.doc),
            body: members.join("\n"),
        });
        client.push(format!("{}{}: {}", js_doc(ns.doc), ns.name, ns.interface));
    }
    for m in methods.iter().filter(|m| m.split().0.is_empty()) {
        client.push(format!("{}{}", js_doc(m.doc), m.signature()));
    }
    for (doc, member) in CLIENT_TAIL {
        client.push(format!("{}{member}", js_doc(doc)));
    }
    out.push(Interface {
        name: "AdtLsClient".to_string(),
        js_doc: js_doc(CLIENT_DOC),
        body: client.join("\n"),
    });
    out
}

/// The interfaces as napi-rs intermediate type definitions (one JSON object a line).
pub(crate) fn typedef_lines(namespaces: &[NamespaceSpec], methods: &[&MethodSpec]) -> String {
    interfaces(namespaces, methods)
        .iter()
        .map(|i| {
            format!(
                "{{\"kind\":\"interface\",\"name\":{},\"js_doc\":{},\"def\":{}}}\n",
                json_string(&i.name),
                json_string(&i.js_doc),
                json_string(&i.body)
            )
        })
        .collect()
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

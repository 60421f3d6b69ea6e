//! `Locator` -> LSP position (docs/wire.md#locators): explicit 1-based `line` + `character` win;
//! otherwise a `symbol` is looked up in the outline (`textDocument/documentSymbol`, depth
//! first, case-insensitive) and pointed at its name token, falling back to the first
//! whole-word occurrence in the source (docs/decisions.md#d5-14 for names with `~` and `/`; see
//! `word`).

use super::word::{find_in_source, locate};
use crate::client::args::{invalid, Args};
use crate::client::ns_args::{js_number, listed};
use crate::client::Client;
use crate::kernel::error::{Error, Result};
use serde_json::{json, Value};

const MAX_LISTED_SYMBOLS: usize = 40;

/// Where a position-based query points.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Locator {
    pub symbol: Option<String>,
    /// Both `line` and `character`, when the caller gave both (1-based).
    pub at: Option<(f64, f64)>,
}

impl Locator {
    /// Argument `i` (absent or not an object: an empty locator).
    pub(super) fn arg(a: &Args, i: usize) -> Result<Locator> {
        let map = match a.get(i).and_then(Option::as_ref) {
            Some(Value::Object(map)) => map,
            None | Some(Value::Null) => return Ok(Locator::default()),
            Some(other) => {
                return Err(crate::kernel::arg_error::type_error(
                    "locator",
                    "an object ({ symbol } or { line, character })",
                    &crate::kernel::arg_error::Received::of_json(Some(other)),
                ))
            }
        };
        let coordinate = |key: &str| -> Result<Option<f64>> {
            match map.get(key) {
                None => Ok(None),
                Some(Value::Null) => Ok(Some(0.0)),
                Some(Value::Number(n)) => Ok(n.as_f64()),
                other => Err(crate::kernel::arg_error::type_error(
                    &format!("locator.{key}"),
                    "a number",
                    &crate::kernel::arg_error::Received::of_json(other),
                )),
            }
        };
        let at = match (coordinate("line")?, coordinate("character")?) {
            (Some(line), Some(character)) => Some((line, character)),
            _ => None,
        };
        let symbol = map
            .get("symbol")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string);
        Ok(Locator { symbol, at })
    }
}

/// The 0-based position for `locator` in the open document `uri` with source `text`.
pub(super) async fn position(
    client: &Client,
    uri: &str,
    text: &str,
    locator: &Locator,
) -> Result<Value> {
    if let Some((line, character)) = locator.at {
        return Ok(json!({
            "line": js_number((line - 1.0).max(0.0)),
            "character": js_number((character - 1.0).max(0.0)),
        }));
    }
    let Some(symbol) = &locator.symbol else {
        return Err(invalid(
            "Provide a `symbol` name or explicit `line` + `character` (1-based).".into(),
        ));
    };
    let outline = client
        .active_request(
            "textDocument/documentSymbol",
            Some(json!({"textDocument": {"uri": uri}})),
        )
        .await?;
    let symbols = outline.as_array().map(Vec::as_slice).unwrap_or_default();
    if let Some(pos) = find_symbol(symbols, &symbol.to_lowercase()).and_then(|s| at_name(text, s)) {
        return Ok(pos);
    }
    if let Some((line, character)) = find_in_source(text, symbol) {
        return Ok(json!({"line": line, "character": character}));
    }
    Err(not_found(symbol, symbols))
}

/// Depth-first search of the outline for a name (already lower-cased).
fn find_symbol<'a>(symbols: &'a [Value], lower: &str) -> Option<&'a Value> {
    symbols.iter().find_map(|s| {
        let name = s.get("name").and_then(Value::as_str).map(str::to_lowercase);
        if name.as_deref() == Some(lower) {
            return Some(s);
        }
        let children = s.get("children")?.as_array()?;
        find_symbol(children, lower)
    })
}

/// Point at the symbol's name: `selectionRange.start` when it is past column 0, else the
/// name's whole-word occurrence on that line (adt-ls starts class ranges at the keyword),
/// else the start itself.
fn at_name(text: &str, symbol: &Value) -> Option<Value> {
    let start = symbol.pointer("/selectionRange/start")?;
    let character = start
        .get("character")
        .and_then(Value::as_f64)
        .unwrap_or(0.0);
    if character > 0.0 {
        return Some(start.clone());
    }
    let line = start.get("line").and_then(Value::as_u64);
    let name = symbol
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let found = line
        .and_then(|l| text.split('\n').nth(usize::try_from(l).ok()?))
        .and_then(|line_text| locate(line_text, name));
    Some(match (line, found) {
        (Some(l), Some(c)) => json!({"line": l, "character": c}),
        _ => start.clone(),
    })
}

fn names(symbols: &[Value], out: &mut Vec<String>) {
    for s in symbols {
        out.push(
            s.get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
        );
        if let Some(children) = s.get("children").and_then(Value::as_array) {
            names(children, out);
        }
    }
}

fn not_found(symbol: &str, symbols: &[Value]) -> Error {
    let mut all = Vec::new();
    names(symbols, &mut all);
    all.truncate(MAX_LISTED_SYMBOLS);
    let listed = listed(&all);
    Error::new(format!(
        "Symbol \"{symbol}\" not found in the outline or source. Declared symbols: {listed}. For CDS, pass explicit 1-based line + character instead."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outline() -> Vec<Value> {
        vec![
            json!({"name": "ZCL_X", "selectionRange": {"start": {"line": 0, "character": 0}},
            "children": [{"name": "run", "selectionRange": {"start": {"line": 2, "character": 12}}}]}),
        ]
    }

    #[test]
    fn locator_arguments() {
        let a: Args = vec![
            None,
            Some(json!({"line": 3, "character": 1, "symbol": "x"})),
        ];
        assert_eq!(
            Locator::arg(&a, 1).unwrap(),
            Locator {
                symbol: Some("x".into()),
                at: Some((3.0, 1.0))
            }
        );
        let only_line: Args = vec![None, Some(json!({"line": 3}))];
        assert_eq!(Locator::arg(&only_line, 1).unwrap().at, None);
        assert_eq!(Locator::arg(&vec![], 1).unwrap(), Locator::default());
        let bad: Args = vec![None, Some(json!({"line": "3", "character": 1}))];
        assert!(Locator::arg(&bad, 1).is_err());
    }

    #[test]
    fn outline_hits_point_at_the_name() {
        let text = "CLASS zcl_x DEFINITION.\n  PUBLIC SECTION.\n    METHODS run.";
        let symbols = outline();
        let class = find_symbol(&symbols, "zcl_x").unwrap();
        assert_eq!(
            at_name(text, class),
            Some(json!({"line": 0, "character": 6}))
        );
        let run = find_symbol(&symbols, "run").unwrap();
        assert_eq!(
            at_name(text, run),
            Some(json!({"line": 2, "character": 12}))
        );
        assert!(find_symbol(&symbols, "nope").is_none());
    }

    #[test]
    fn the_not_found_message_lists_declared_symbols() {
        assert_eq!(
            not_found("x", &outline()).message,
            "Symbol \"x\" not found in the outline or source. Declared symbols: ZCL_X, run. For CDS, pass explicit 1-based line + character instead."
        );
        assert!(not_found("x", &[])
            .message
            .contains("Declared symbols: (none)."));
    }
}

//! Semantic tokens (docs/wire.md#navigation): `semanticTokens(ref)` requests
//! `textDocument/semanticTokens/full` and checks that its data decodes, within the cap of
//! [`crate::lsp::text::decode_semantic_tokens`], with the legend adt-ls advertised in
//! `initialize`; `prime_tokens` runs the same request before hover / highlight, whose answers
//! depend on adt-ls's token cache.
//!
//! The method resolves with `{legend, data}` ([`TokensReply`]), not with the decoded tokens:
//! the N-API layer decodes `data` again and builds each token from legend names it makes
//! once, so a legend name is never copied per token (a JSON value would copy it: 32
//! modifiers of 10 KB on 1,000 tokens made 1.6 GB). JS sees `{legend, tokens}`.

use super::documents::with_open_document;
use super::text_document;
use crate::client::args::Args;
use crate::client::locate::Locating;
use crate::client::Client;
use crate::kernel::error::Result;
use crate::lsp::text::{decode_semantic_tokens, Legend};
use serde::Deserialize;
use serde_json::{json, Value};

const METHOD: &str = "textDocument/semanticTokens/full";

/// The client method whose engine result is a [`TokensReply`].
pub(crate) const SEMANTIC_TOKENS_METHOD: &str = "navigation.semanticTokens";

/// Fill adt-ls's token cache for `uri`; errors are ignored.
pub(super) async fn prime_tokens(client: &Client, uri: &str) {
    let _ = client
        .active_request(METHOD, Some(Value::Object(text_document(uri))))
        .await;
}

/// The engine result of `semanticTokens`: the legend as advertised (or empty lists), its
/// parsed form, and the token data as integers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TokensReply {
    pub legend: Value,
    pub names: Legend,
    pub data: Option<Vec<i64>>,
}

impl TokensReply {
    /// The value the method resolves with in the engine.
    pub(crate) fn into_value(self) -> Value {
        json!({"legend": self.legend, "data": self.data})
    }

    /// Reads back [`TokensReply::into_value`]'s value.
    pub(crate) fn from_value(value: &Value) -> TokensReply {
        let legend = value.get("legend").cloned().unwrap_or(Value::Null);
        TokensReply {
            names: parse_legend(&legend),
            data: token_data(value),
            legend,
        }
    }
}

/// The advertised legend as sent (or empty lists).
fn advertised_legend(client: &Client) -> Value {
    client
        .inner()
        .init
        .pointer("/capabilities/semanticTokensProvider/legend")
        .filter(|l| !l.is_null())
        .cloned()
        .unwrap_or_else(|| json!({"tokenTypes": [], "tokenModifiers": []}))
}

/// The legend's names; a legend that does not have the LSP shape resolves no names.
fn parse_legend(raw: &Value) -> Legend {
    Legend::deserialize(raw).unwrap_or_default()
}

/// `res.data` as integers (JS arithmetic on numbers; anything else counts as 0).
fn token_data(res: &Value) -> Option<Vec<i64>> {
    let data = res.get("data")?.as_array()?;
    Some(
        data.iter()
            .map(|n| {
                n.as_i64()
                    .or_else(|| n.as_f64().map(|f| f as i64))
                    .unwrap_or(0)
            })
            .collect(),
    )
}

/// `semanticTokens(ref)` -> `{legend, data}` (see the module comment).
pub(crate) async fn semantic_tokens(me: Client, _: Args, document: Locating) -> Result<Value> {
    let legend = advertised_legend(&me);
    let names = parse_legend(&legend);
    with_open_document(&me, document, |me, uri, _| async move {
        let res = me
            .active_request(METHOD, Some(Value::Object(text_document(&uri))))
            .await?;
        let data = token_data(&res);
        decode_semantic_tokens(data.as_deref(), &names)
            .map_err(|e| e.prefixed("textDocument/semanticTokens/full: "))?;
        Ok(TokensReply {
            legend,
            names,
            data,
        }
        .into_value())
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_data_reads_numbers() {
        assert_eq!(
            token_data(&json!({"data": [0, 1.9, "x"]})),
            Some(vec![0, 1, 0])
        );
        assert_eq!(token_data(&json!({})), None);
        assert_eq!(token_data(&Value::Null), None);
    }

    #[test]
    fn the_reply_round_trips_through_its_value() {
        let reply = TokensReply {
            legend: json!({"tokenTypes": ["a"], "tokenModifiers": ["m"], "extra": 1}),
            names: Legend {
                token_types: vec!["a".into()],
                token_modifiers: vec!["m".into()],
            },
            data: Some(vec![0, 1, 2, 0, 1]),
        };
        assert_eq!(TokensReply::from_value(&reply.clone().into_value()), reply);
        let none = TokensReply {
            legend: json!({"tokenTypes": [1]}),
            names: Legend::default(),
            data: None,
        };
        assert_eq!(TokensReply::from_value(&none.clone().into_value()), none);
    }
}

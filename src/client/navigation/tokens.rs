//! Semantic tokens (docs/wire.md#navigation): `semanticTokens(ref)` decodes `textDocument/semanticTokens/full`
//! with the legend adt-ls advertised in `initialize`, and `prime_tokens` runs the same request
//! before hover / highlight, whose answers depend on adt-ls's token cache.

use super::documents::{document_of, with_open_document};
use super::text_document;
use crate::client::args::Args;
use crate::client::Client;
use crate::error::Result;
use crate::text::{decode_semantic_tokens, Legend};
use serde_json::{json, Value};
use std::future::Future;

const METHOD: &str = "textDocument/semanticTokens/full";

/// Fill adt-ls's token cache for `uri`; errors are ignored.
pub async fn prime_tokens(client: &Client, uri: &str) {
    let _ = client
        .active_request(METHOD, Some(Value::Object(text_document(uri))))
        .await;
}

/// The advertised legend as sent (or empty lists) and its parsed form.
fn legend(client: &Client) -> (Value, Legend) {
    let raw = client
        .inner()
        .init
        .pointer("/capabilities/semanticTokensProvider/legend")
        .filter(|l| !l.is_null())
        .cloned()
        .unwrap_or_else(|| json!({"tokenTypes": [], "tokenModifiers": []}));
    let parsed = serde_json::from_value(raw.clone()).unwrap_or_default();
    (raw, parsed)
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

/// `semanticTokens(ref)` -> `{legend, tokens}`.
pub fn semantic_tokens(
    client: &Client,
    a: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let me = client.clone();
    let document = document_of(client, &a);
    async move {
        let document = document?;
        let (raw_legend, parsed) = legend(&me);
        with_open_document(&me, document, |uri, _| {
            let me = me.clone();
            async move {
                let res = me
                    .active_request(METHOD, Some(Value::Object(text_document(&uri))))
                    .await?;
                let tokens = decode_semantic_tokens(token_data(&res).as_deref(), &parsed);
                Ok(json!({"legend": raw_legend, "tokens": tokens}))
            }
        })
        .await
    }
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
}

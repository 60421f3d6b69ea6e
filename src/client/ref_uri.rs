//! `ObjectRef.uri` (docs/wire.md#object-resolution): a repotree URI the caller already knows
//! (e.g. `lifecycle.create`'s `filePath`) is used as it is, without a search, once it is shown
//! to belong to the connected destination: its first segment after `abap:/repotree-v1/`,
//! percent-decoded, must equal the destination id exactly (case-sensitive). Decoding accepts
//! both `encodeURIComponent`'s form and adt-ls's own (which also escapes `!'()*`;
//! docs/decisions.md#d9-15).

use crate::kernel::arg_error::{type_error, Received};
use crate::kernel::error::{codes, Error, Result};
use serde_json::{Map, Value};

const REPOTREE: &str = "abap:/repotree-v1/";

/// `ref.uri`: `None` when absent, `null` or empty (the name is searched then).
pub(crate) fn given_uri(map: &Map<String, Value>, path: &str) -> Result<Option<String>> {
    match map.get("uri") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        other => Err(type_error(
            &format!("{path}.uri"),
            "a string",
            &Received::of_json(other),
        )),
    }
}

/// `uri` when it is a repotree URI of destination `dest` (with a path below it), else the
/// reference's error naming the object.
pub(crate) fn check_destination(dest: &str, name: &str, uri: &str) -> Result<()> {
    if destination_of(uri).as_deref() == Some(dest) {
        return Ok(());
    }
    Err(Error::coded(
        codes::INVALID_ARG_VALUE,
        format!("uri of {name} is not a repotree URI of destination {dest}: {uri}"),
    ))
}

/// The decoded destination segment of a repotree URI that has something below it.
fn destination_of(uri: &str) -> Option<String> {
    let (segment, below) = uri.strip_prefix(REPOTREE)?.split_once('/')?;
    if below.is_empty() {
        return None;
    }
    percent_encoding::percent_decode_str(segment)
        .decode_utf8()
        .ok()
        .map(|s| s.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const URI: &str =
        "abap:/repotree-v1/ADTLS/Source%20Code%20Library/Classes/ZCL_X/zcl_x.clas.abap";

    #[test]
    fn a_uri_of_the_destination_is_accepted() {
        assert!(check_destination("ADTLS", "ZCL_X", URI).is_ok());
        let encoded = "abap:/repotree-v1/A4H%28100%29/x/zcl_x.clas.abap";
        assert!(check_destination("A4H(100)", "ZCL_X", encoded).is_ok());
        let plain = "abap:/repotree-v1/A4H(100)/x/zcl_x.clas.abap";
        assert!(check_destination("A4H(100)", "ZCL_X", plain).is_ok());
    }

    #[test]
    fn other_destinations_and_other_uris_are_refused() {
        for bad in [
            URI.replace("/ADTLS/", "/OTHER/"),
            URI.replace("/ADTLS/", "/adtls/"),
            "/sap/bc/adt/oo/classes/zcl_x".to_string(),
            "abap:/repotree-v1/%E0%A4%A/x.clas.abap".to_string(),
            "abap:/repotree-v1/ADTLS/".to_string(),
            "abap:/repotree-v1/ADTLS".to_string(),
        ] {
            let e = check_destination("ADTLS", "ZCL_X", &bad).unwrap_err();
            assert!(e.has_code(codes::INVALID_ARG_VALUE));
            assert_eq!(
                e.message,
                format!("uri of ZCL_X is not a repotree URI of destination ADTLS: {bad}")
            );
        }
    }

    #[test]
    fn an_empty_or_missing_uri_means_search() {
        let m = |v: Value| v.as_object().cloned().unwrap_or_default();
        assert_eq!(given_uri(&m(json!({})), "ref").unwrap(), None);
        assert_eq!(given_uri(&m(json!({"uri": ""})), "ref").unwrap(), None);
        assert_eq!(given_uri(&m(json!({"uri": null})), "ref").unwrap(), None);
        assert_eq!(
            given_uri(&m(json!({"uri": URI})), "ref")
                .unwrap()
                .as_deref(),
            Some(URI)
        );
        let e = given_uri(&m(json!({"uri": 5})), "ref").unwrap_err();
        assert_eq!(
            e.message,
            "ref.uri must be a string, received type number (5)"
        );
    }
}

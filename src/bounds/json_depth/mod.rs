//! How deeply a JSON text nests arrays and objects, found without parsing it: one pass over
//! the bytes that jumps over string contents (`memchr`) and counts `[`/`{` against `]`/`}`.
//! Every message from a peer (an LSP frame body, an MCP JSON body or server-sent event) is
//! checked against [`MAX_DEPTH`] before it is parsed or its result handed to `JSON.parse`
//! (docs/security.md, "Hostile peers: nesting"). Written by hand: serde_json has no depth
//! query, and its recursion limit guards only parsing into values (a `RawValue` result, which
//! we pass through to `JSON.parse`, is skipped over at any depth), while a second parser crate
//! would parse every message twice.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

/// The deepest nesting a peer message may have: the message itself (its envelope object) is
/// level 1. Below serde_json's own limit (127 levels for a whole text), so whatever passes
/// also parses into values, wherever it is parsed.
pub const MAX_DEPTH: usize = 100;

/// The text nests deeper than the limit it was checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooDeep {
    pub limit: usize,
}

impl std::fmt::Display for TooDeep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "nested deeper than {} levels", self.limit)
    }
}

/// The deepest nesting of `text`, or [`TooDeep`] as soon as it passes `limit` (the rest is
/// not read). Valid JSON gets exactly the depth of its value (a scalar 0, `[]` 1, `[{}]` 2).
/// Text that is not JSON gets a number too: brackets outside strings counted (an unmatched
/// closing one counts below zero), a backslash escaping the byte after it wherever it stands,
/// an unterminated string ending the scan. This is the reference the fast scan of
/// [`exceeds`] is tested against.
pub fn depth_within(text: &[u8], limit: usize) -> Result<usize, TooDeep> {
    let limit_signed = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut depth = 0i64;
    let mut deepest = 0i64;
    let mut at = 0usize;
    while let Some(&byte) = text.get(at) {
        at += 1;
        match byte {
            b'"' => match end_of_string(text, at) {
                Some(end) => at = end,
                None => break,
            },
            b'\\' => at += 1,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit_signed {
                    return Err(TooDeep { limit });
                }
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    Ok(usize::try_from(deepest).unwrap_or(0))
}

/// True when `text` nests deeper than `limit` (as [`depth_within`] counts). A text of at
/// most `limit` bytes cannot, so short messages (most replies) are not scanned at all; on
/// x86-64 longer ones are scanned 64 bytes at a time ([`blocks`]).
pub fn exceeds(text: &[u8], limit: usize) -> bool {
    if text.len() <= limit {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        blocks::exceeds(text, limit)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        depth_within(text, limit).is_err()
    }
}

/// Where the string whose contents start at `from` ends (just past its closing quote);
/// `None` when it is not terminated.
fn end_of_string(text: &[u8], mut from: usize) -> Option<usize> {
    loop {
        let rest = text.get(from..)?;
        let found = memchr::memchr2(b'"', b'\\', rest)?;
        let at = from + found;
        if text[at] == b'"' {
            return Some(at + 1);
        }
        // A backslash escapes the next byte, whatever it is.
        from = at + 2;
    }
}

/// What a message too deep to parse still says about itself: its `id` (when that member is
/// itself shallow) and its `method`, read without building the rest (serde skips the other
/// members iteratively, at any depth).
#[derive(Debug, Default, PartialEq)]
pub struct Shallow {
    pub id: Option<Value>,
    pub method: Option<String>,
}

#[derive(Deserialize)]
struct Members<'a> {
    #[serde(default, borrow)]
    id: Option<&'a RawValue>,
    #[serde(default)]
    method: Option<String>,
}

/// The `id` and `method` of the JSON-RPC message `text`, when it is a JSON object.
pub fn shallow_members(text: &[u8]) -> Shallow {
    // serde would also read a struct from an array (`[id, method]`): objects only.
    if text.trim_ascii_start().first() != Some(&b'{') {
        return Shallow::default();
    }
    let Ok(members) = serde_json::from_slice::<Members>(text) else {
        return Shallow::default();
    };
    let id = members
        .id
        .filter(|raw| !exceeds(raw.get().as_bytes(), MAX_DEPTH))
        .and_then(|raw| serde_json::from_str::<Value>(raw.get()).ok())
        .filter(|id| !id.is_null());
    Shallow {
        id,
        method: members.method,
    }
}

#[cfg(target_arch = "x86_64")]
mod blocks;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// The depth of a parsed value, the way [`depth_within`] counts it.
    fn value_depth(v: &Value) -> usize {
        match v {
            Value::Array(items) => 1 + items.iter().map(value_depth).max().unwrap_or(0),
            Value::Object(map) => 1 + map.values().map(value_depth).max().unwrap_or(0),
            _ => 0,
        }
    }

    fn nested(depth: usize) -> String {
        format!("{}{}", "[".repeat(depth), "]".repeat(depth))
    }

    #[test]
    fn counts_levels_and_ignores_brackets_inside_strings() {
        let cases: [(&str, usize); 9] = [
            ("1", 0),
            ("\"[[[\"", 0),
            ("[]", 1),
            ("{}", 1),
            ("[{}]", 2),
            (r#"{"a":[1,{"b":"]]]}"}],"c":{}}"#, 3),
            (r#"["\"[[", "\\", [["\\\"]"]]]"#, 3),
            ("[[], [[]], []]", 3),
            (r#"{"k\"{{{":"v"}"#, 1),
        ];
        for (text, depth) in cases {
            assert_eq!(depth_within(text.as_bytes(), 10), Ok(depth), "{text}");
        }
    }

    #[test]
    fn stops_as_soon_as_the_limit_is_passed() {
        let mut text = "[".repeat(101).into_bytes();
        text.extend(b"garbage that is never read \"");
        assert_eq!(depth_within(&text, 100), Err(TooDeep { limit: 100 }));
        assert_eq!(depth_within(nested(100).as_bytes(), 100), Ok(100));
        assert!(exceeds(nested(101).as_bytes(), 100));
        assert!(!exceeds(nested(100).as_bytes(), 100));
        assert!(!exceeds(b"[[[", 100), "short texts are not scanned");
    }

    #[test]
    fn ten_million_levels_are_refused_without_recursion() {
        let text = nested(10_000_000);
        assert!(exceeds(text.as_bytes(), MAX_DEPTH));
    }

    #[test]
    fn broken_text_gets_a_number_never_a_panic() {
        for text in [
            &b"]]]]"[..],
            b"\"unterminated [[[",
            b"[\"\\",
            b"[\\\"]",
            b"\xff[\xfe]",
        ] {
            let _ = depth_within(text, 3);
        }
        assert_eq!(
            depth_within(b"]][[", 10),
            Ok(0),
            "closing brackets count below zero"
        );
        assert_eq!(depth_within(b"[[]]][[[[", 10), Ok(3));
        assert_eq!(
            depth_within(b"[\\[[", 10),
            Ok(2),
            "an escaped bracket does not count"
        );
        assert_eq!(depth_within(b"[\"abc", 10), Ok(1));
    }

    #[test]
    fn whatever_passes_the_limit_parses_into_values() {
        let at_limit = nested(MAX_DEPTH);
        assert!(serde_json::from_str::<Value>(&at_limit).is_ok());
        let envelope = format!(
            r#"{{"jsonrpc":"2.0","method":"m","params":{}}}"#,
            nested(99)
        );
        assert_eq!(depth_within(envelope.as_bytes(), MAX_DEPTH), Ok(MAX_DEPTH));
        assert!(serde_json::from_str::<Value>(&envelope).is_ok());
    }

    #[test]
    fn the_members_of_a_deep_message_are_read_without_its_body() {
        let deep = nested(1_000_000);
        let request = format!(r#"{{"jsonrpc":"2.0","id":"s7","method":"x/y","params":{deep}}}"#);
        assert_eq!(
            shallow_members(request.as_bytes()),
            Shallow {
                id: Some(json!("s7")),
                method: Some("x/y".into()),
            }
        );
        let response = format!(r#"{{"jsonrpc":"2.0","result":{deep},"id":3}}"#);
        assert_eq!(shallow_members(response.as_bytes()).id, Some(json!(3)));
        let deep_id = format!(r#"{{"id":{deep},"method":"m"}}"#);
        assert_eq!(shallow_members(deep_id.as_bytes()).id, None);
        assert_eq!(shallow_members(b"[1]"), Shallow::default());
        assert_eq!(shallow_members(br#"{"id":null}"#).id, None);
    }

    /// Any JSON value: scalars (strings full of brackets, quotes and escapes), arrays and
    /// objects, nested up to ~24 levels.
    fn json_value() -> impl Strategy<Value = Value> {
        let text = "[\\[\\]{}\"\\\\a-z ,:\u{e9}\u{1F600}]{0,12}";
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            text.prop_map(Value::from),
        ];
        leaf.prop_recursive(24, 256, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::vec((text, inner), 0..6)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// On valid JSON (compact or pretty) the scan agrees with the parsed value's depth.
        #[test]
        fn agrees_with_serde_on_valid_json(value in json_value()) {
            let depth = value_depth(&value);
            for text in [serde_json::to_string(&value).unwrap(), serde_json::to_string_pretty(&value).unwrap()] {
                prop_assert_eq!(depth_within(text.as_bytes(), usize::MAX), Ok(depth));
                prop_assert_eq!(depth_within(text.as_bytes(), depth), Ok(depth));
                if depth > 0 {
                    prop_assert_eq!(depth_within(text.as_bytes(), depth - 1), Err(TooDeep { limit: depth - 1 }));
                }
            }
        }

        /// A value wrapped in `levels` arrays: serde parses it exactly when it is at most 127
        /// levels deep (its recursion limit), and the scan counts the wrapping.
        #[test]
        fn serde_parses_what_the_scan_allows(value in json_value(), levels in 0usize..160) {
            let inner = serde_json::to_string(&value).unwrap();
            let text = format!("{}{inner}{}", "[".repeat(levels), "]".repeat(levels));
            let depth = depth_within(text.as_bytes(), usize::MAX).unwrap();
            prop_assert_eq!(depth, levels + value_depth(&value));
            prop_assert_eq!(serde_json::from_str::<Value>(&text).is_ok(), depth <= 127);
            prop_assert_eq!(exceeds(text.as_bytes(), MAX_DEPTH), depth > MAX_DEPTH);
        }

        /// Arbitrary bytes never panic, and the answer does not depend on the limit.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400), limit in 0usize..20) {
            let full = depth_within(&bytes, usize::MAX).unwrap();
            match depth_within(&bytes, limit) {
                Ok(d) => prop_assert!(d == full && d <= limit),
                Err(_) => prop_assert!(full > limit),
            }
        }
    }
}

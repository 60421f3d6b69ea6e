//! The nesting bound (`src/json_depth.rs`, `src/json_depth/blocks.rs`, and its use in
//! `src/lsp/message.rs`). Invariants, for the input and for the input wrapped in as many
//! arrays as its first byte says: no panic; the fast block scan agrees with the scalar
//! reference at every limit tried; on JSON that serde_json parses, the scan finds the value's
//! own depth; an LSP frame is either refused as too deep (then its scan passes the bound) or
//! nests within the bound, never anything in between; a message's shallow members never
//! panic and never carry an id deeper than the bound.
#![no_main]

use adt_ls_native::fuzzing::json_depth::{depth_within, exceeds, shallow_members, MAX_DEPTH};
use adt_ls_native::fuzzing::message::parse_incoming;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn value_depth(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(value_depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(value_depth).max().unwrap_or(0),
        _ => 0,
    }
}

fn check(text: &[u8]) {
    let full = depth_within(text, usize::MAX).expect("no limit");
    for limit in [0, 1, 2, 7, 64, MAX_DEPTH, 200] {
        let reference = depth_within(text, limit).is_err();
        assert_eq!(reference, full > limit, "the reference at {limit}");
        // `exceeds` skips texts no longer than the limit: they cannot pass it.
        assert_eq!(exceeds(text, limit), reference, "fast scan vs reference at {limit}");
    }
    if let Ok(value) = serde_json::from_slice::<Value>(text) {
        assert_eq!(full, value_depth(&value), "the scan vs the parsed value");
    }
    match parse_incoming(text) {
        Ok(_) => assert!(full <= MAX_DEPTH, "a frame {full} levels deep was accepted"),
        Err(e) => {
            // Refused as too deep exactly when it is an object (so far) that nests too deeply.
            let object = std::str::from_utf8(text).is_ok_and(|t| t.trim_start().starts_with('{'));
            assert_eq!(e.too_deep, object && full > MAX_DEPTH);
        }
    }
    if let Some(id) = shallow_members(text).id {
        assert!(value_depth(&id) <= MAX_DEPTH);
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
    let levels = usize::from(data.first().copied().unwrap_or(0));
    let mut wrapped = Vec::with_capacity(data.len() + 2 * levels);
    wrapped.extend(std::iter::repeat_n(b'[', levels));
    wrapped.extend_from_slice(data);
    wrapped.extend(std::iter::repeat_n(b']', levels));
    check(&wrapped);
});

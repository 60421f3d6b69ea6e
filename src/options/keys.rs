//! The known keys of the call options, the check of a caller's keys against a list of known
//! keys, and the camelCase of a field name. The option objects of the exports take their keys
//! from their declarations (`#[js_options]`, `src/js/binding/types/options.rs`), the client
//! methods' options from their declared `opts` type in the registry
//! (`crate::client::registry::specs::option_keys`). An unknown key is logged as a warning
//! naming the closest known key (`unknown option adtLs.pth — did you mean adtLs.path?`). 0.5.0
//! ignored unknown keys silently, so a drop-in warns and never fails on them (docs/errors.md).

/// `{ timeoutMs, signal }` of `sendRequest`, `callTool`, `request`.
pub(crate) const REQUEST: &[&str] = &["timeoutMs", "signal"];
/// `CallOptions`: the trailing `{ signal, timeoutMs }` of a client method without options of
/// its own (docs/cancellation.md); also accepted inside every method's `opts`.
pub(crate) const CALL: &[&str] = &["signal", "timeoutMs"];

/// The length of [`camel`]'s result: `snake` without its underscores.
pub(crate) const fn camel_len(snake: &str) -> usize {
    let bytes = snake.as_bytes();
    let mut len = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'_' {
            len += 1;
        }
        i += 1;
    }
    len
}

/// A snake_case field name in camelCase, as napi-rs names `#[napi(object)]` fields in JS
/// (`system_url` -> `systemUrl`); `N` is [`camel_len`] of `snake`.
pub(crate) const fn camel<const N: usize>(snake: &str) -> [u8; N] {
    let bytes = snake.as_bytes();
    let mut out = [0u8; N];
    let mut i = 0;
    let mut j = 0;
    let mut upper = false;
    while i < bytes.len() && j < N {
        let b = bytes[i];
        if b == b'_' {
            upper = j > 0;
        } else {
            out[j] = if upper { b.to_ascii_uppercase() } else { b };
            upper = false;
            j += 1;
        }
        i += 1;
    }
    out
}

/// The warning for each key of `given` that `known` lacks; `path` is the object's option path
/// (`adtLs`, or empty for the top level).
pub(crate) fn unknown_key_warnings<'a>(
    path: &str,
    given: impl IntoIterator<Item = &'a str>,
    known: &[&str],
) -> Vec<String> {
    let full = |key: &str| match path {
        "" => key.to_string(),
        p => format!("{p}.{key}"),
    };
    given
        .into_iter()
        .filter(|key| !known.contains(key))
        .map(|key| match closest(key, known) {
            Some(near) => format!(
                "unknown option {} — did you mean {}? (ignored)",
                full(key),
                full(near)
            ),
            None => format!(
                "unknown option {} (ignored; known: {})",
                full(key),
                known.join(", ")
            ),
        })
        .collect()
}

/// Log [`unknown_key_warnings`] as warnings.
pub(crate) fn warn_unknown_keys<'a>(
    path: &str,
    given: impl IntoIterator<Item = &'a str>,
    known: &[&str],
) {
    for line in unknown_key_warnings(path, given, known) {
        crate::kernel::log::warn(line);
    }
}

/// The known key nearest to `key` by edit distance (case-insensitive), if it is near enough
/// to be a typo: at most a third of the key's length, and at least one edit allowed.
pub(crate) fn closest<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    let lower = key.to_lowercase();
    let limit = (key.chars().count() / 3).max(1);
    known
        .iter()
        .map(|k| (edit_distance(&lower, &k.to_lowercase()), *k))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Levenshtein distance over chars.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADT_LS: &[&str] = &[
        "path",
        "extraArgs",
        "extraEnv",
        "startTimeoutMs",
        "requestTimeoutMs",
    ];
    const CONNECTION: &[&str] = &["systemUrl", "client", "language", "selfSigned"];
    const FORWARD_PROXY: &[&str] = &["host", "port"];

    #[test]
    fn field_names_become_camel_case() {
        const KEY: [u8; camel_len("extra_ca_certs")] = camel("extra_ca_certs");
        assert_eq!(&KEY, b"extraCaCerts");
        assert_eq!(&camel::<4>("path"), b"path");
        assert_eq!(&camel::<16>("request_timeout_ms"), b"requestTimeoutMs");
        assert_eq!(camel_len("mcp_port"), 7);
    }

    #[test]
    fn typos_suggest_the_nearest_key() {
        assert_eq!(closest("pth", ADT_LS), Some("path"));
        assert_eq!(closest("extraArg", ADT_LS), Some("extraArgs"));
        assert_eq!(closest("systemURL", CONNECTION), Some("systemUrl"));
        assert_eq!(closest("selfsigned", CONNECTION), Some("selfSigned"));
        assert_eq!(closest("zzzzzz", ADT_LS), None);
    }

    #[test]
    fn warnings_name_the_full_path_and_skip_known_keys() {
        let w = unknown_key_warnings("adtLs", ["path", "pth"], ADT_LS);
        assert_eq!(
            w,
            vec!["unknown option adtLs.pth — did you mean adtLs.path? (ignored)"]
        );
        let w = unknown_key_warnings("", ["bogus"], FORWARD_PROXY);
        assert_eq!(w, vec!["unknown option bogus (ignored; known: host, port)"]);
        assert!(unknown_key_warnings("x", ["host", "port"], FORWARD_PROXY).is_empty());
    }

    #[test]
    fn edit_distance_counts_inserts_deletes_and_substitutions() {
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("path", "path"), 0);
    }
}

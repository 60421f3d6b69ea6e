//! The known keys of every options object the API takes, one list per option type, and the
//! check of a caller's keys against them: an unknown key is logged as a warning naming the
//! closest known key (`unknown option adtLs.pth — did you mean adtLs.path?`). 0.5.0 ignored
//! unknown keys silently, so a drop-in warns and never fails on them (docs/errors.md).

/// `createAdtLs(opts)`.
pub(crate) const CREATE_ADT_LS: &[&str] = &[
    "adtLs",
    "connection",
    "auth",
    "destinationId",
    "mcpPort",
    "keepAlive",
    "mcpTimeoutMs",
    "logonTimeoutMs",
    "trace",
];
/// `createAdtLs({ adtLs })`.
pub(crate) const ADT_LS: &[&str] = &[
    "path",
    "extraArgs",
    "extraEnv",
    "startTimeoutMs",
    "requestTimeoutMs",
];
/// `createAdtLs({ connection })`.
pub(crate) const CONNECTION: &[&str] = &[
    "systemUrl",
    "client",
    "language",
    "selfSigned",
    "extraCaCerts",
    "forwardProxy",
    "probe",
];
/// `connection.forwardProxy`.
pub(crate) const FORWARD_PROXY: &[&str] = &["host", "port"];
/// `connection.probe`.
pub(crate) const PROBE: &[&str] = &["pattern", "types"];
/// `keepAlive` as an object.
pub(crate) const KEEP_ALIVE: &[&str] = &["intervalMs"];
/// `new AdtLsDriver(binPath, opts)`.
pub(crate) const DRIVER: &[&str] = &[
    "dataDir",
    "extraEnv",
    "extraArgs",
    "requestHandlers",
    "clientInfo",
    "requestTimeoutMs",
    "trace",
];
/// `trace` of `createAdtLs` and of a driver.
pub(crate) const TRACE: &[&str] = &["file"];
/// `clientInfo` of a driver or MCP client.
pub(crate) const CLIENT_INFO: &[&str] = &["name", "version"];
/// `{ timeoutMs, signal }` of `sendRequest`, `callTool`, `request`.
pub(crate) const REQUEST: &[&str] = &["timeoutMs", "signal"];
/// `CallOptions`: the trailing `{ signal, timeoutMs }` of a client method without options of
/// its own (docs/cancellation.md); also accepted inside every method's `opts`.
pub(crate) const CALL: &[&str] = &["signal", "timeoutMs"];
/// `resolveAdtLsPath(opts)`.
pub(crate) const DISCOVER: &[&str] = &[
    "explicitPath",
    "repoRoot",
    "extensionsDir",
    "extensionsDirs",
    "platform",
    "arch",
];
/// `composeSpawnArgs(opts)`.
pub(crate) const SPAWN_ARGS: &[&str] = &["dataDir", "pipeName", "extraArgs"];
/// `startMcpServer(driver, opts)`.
pub(crate) const START_MCP: &[&str] = &["port", "token"];
/// `bearer(token, opts)` and `custom(register, opts)`.
pub(crate) const STRATEGY_USER: &[&str] = &["user"];
/// `clientCert(opts)`.
pub(crate) const CLIENT_CERT: &[&str] = &["cert", "key", "user"];
/// `interactive(cb)`.
pub(crate) const INTERACTIVE: &[&str] = &["openUrl", "promptField", "user"];
/// `repository.search(pattern, opts)`.
pub(crate) const SEARCH: &[&str] = &["maxResults", "types", "cold"];
/// `navigation.findReferences(ref, locator, opts)`.
pub(crate) const FIND_REFERENCES: &[&str] = &["includeDeclaration", "timeoutMs"];
/// `navigation.typeHierarchy(ref, locator, opts)`.
pub(crate) const TYPE_HIERARCHY: &[&str] = &["direction"];
/// `navigation.completion(ref, locator, opts)`.
pub(crate) const COMPLETION: &[&str] = &["maxItems", "resolve", "resolveLimit"];
/// `navigation.format(ref, opts)`.
pub(crate) const FORMAT: &[&str] = &["tabSize", "insertSpaces"];
/// `quality.listAtcVariants(ref, opts)`.
pub(crate) const ATC_VARIANTS: &[&str] = &["query"];
/// `quality.runAtc(ref, opts)`.
pub(crate) const RUN_ATC: &[&str] = &["checkVariant", "timeoutMs", "onProgress"];
/// `quality.runUnitTestsWithCoverage(ref, opts)`.
pub(crate) const COVERAGE: &[&str] = &["timeoutMs", "onProgress"];
/// `services.getServiceInfo(ref, opts)`.
pub(crate) const SERVICE_INFO: &[&str] = &["service"];
/// `services.publishServiceBinding(ref, opts)`.
pub(crate) const PUBLISH_BINDING: &[&str] = &["service"];
/// `lifecycle.getObjectTypeDetails(objectType, opts)` and `getCreationForm`.
pub(crate) const OBJECT_TYPE: &[&str] = &["name"];
/// `lifecycle.getGeneratorSchema(generatorId, opts)`.
pub(crate) const GENERATOR_SCHEMA: &[&str] = &[
    "packageName",
    "referencedObjectType",
    "referencedObjectName",
];
/// `transport.list(opts)`.
pub(crate) const TRANSPORT_LIST: &[&str] = &["limit", "query"];
/// `transport.getDiff(transportNumber, opts)`.
pub(crate) const TRANSPORT_DIFF: &[&str] = &["cursor", "pageSize"];

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

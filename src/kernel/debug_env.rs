//! `DEBUG=adt-ls-native` logging without code changes: parses the `DEBUG` value with the
//! `debug` package's rules (names separated by commas and/or whitespace, `*` matches any run
//! of characters, a leading `-` excludes, exclusions win, a name must match whole) and says
//! which engine areas (`adt-ls-native:lsp`, `:mcp`, ...) are on. The bare root namespace
//! `adt-ls-native` turns on every area not excluded. Wildcards become anchored regexes via
//! the `regex` crate (already a dependency), so no glob matcher is written by hand.

use regex::Regex;

/// The root namespace; every area logs as `adt-ls-native:<area>`.
pub(crate) const ROOT: &str = "adt-ls-native";

/// Where a log line comes from (derived from the emitting module, see [`Area::of_file`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Area {
    Lsp,
    Mcp,
    Auth,
    Tls,
    Process,
    Client,
}

impl Area {
    pub(crate) const ALL: [Area; 6] = [
        Area::Lsp,
        Area::Mcp,
        Area::Auth,
        Area::Tls,
        Area::Process,
        Area::Client,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Area::Lsp => "lsp",
            Area::Mcp => "mcp",
            Area::Auth => "auth",
            Area::Tls => "tls",
            Area::Process => "process",
            Area::Client => "client",
        }
    }

    /// `adt-ls-native:<area>`.
    pub(crate) fn namespace(self) -> String {
        format!("{ROOT}:{}", self.name())
    }

    /// The area of the source file that emitted a line (`std::panic::Location::file`):
    /// `lsp/` and `driver/` are LSP, `mcp/` and `js/binding/mcp.rs` MCP, `auth/` auth,
    /// `tls/` TLS, `process/` and `discovery/` the adt-ls process, the rest the client.
    pub(crate) fn of_file(file: &str) -> Area {
        let file = file.replace('\\', "/");
        let rel = file.rsplit_once("src/").map_or(file.as_str(), |(_, r)| r);
        let dir = rel.split('/').next().unwrap_or("");
        match dir {
            "lsp" | "driver" => Area::Lsp,
            "mcp" => Area::Mcp,
            "auth" => Area::Auth,
            "tls" => Area::Tls,
            "process" | "discovery" => Area::Process,
            "js" if rel == "js/binding/mcp.rs" => Area::Mcp,
            _ => Area::Client,
        }
    }
}

/// A parsed `DEBUG` value.
#[derive(Debug, Clone)]
pub(crate) struct DebugPatterns {
    names: Vec<Regex>,
    skips: Vec<Regex>,
}

impl DebugPatterns {
    /// Parse a `DEBUG` value; `None` when it names nothing.
    pub(crate) fn parse(value: &str) -> Option<DebugPatterns> {
        let mut names = Vec::new();
        let mut skips = Vec::new();
        for part in value
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty())
        {
            let (list, pattern) = match part.strip_prefix('-') {
                Some(rest) => (&mut skips, rest),
                None => (&mut names, part),
            };
            let source = format!("^{}$", regex::escape(pattern).replace(r"\*", ".*"));
            if let Ok(re) = Regex::new(&source) {
                list.push(re);
            }
        }
        if names.is_empty() {
            return None;
        }
        Some(DebugPatterns { names, skips })
    }

    /// The `debug` package's `enabled(namespace)`: excluded wins, then any name matches.
    pub(crate) fn enabled(&self, namespace: &str) -> bool {
        if self.skips.iter().any(|re| re.is_match(namespace)) {
            return false;
        }
        self.names.iter().any(|re| re.is_match(namespace))
    }

    /// Whether `area` logs: its own namespace is enabled, or the root `adt-ls-native` is and
    /// the area's namespace is not excluded.
    pub(crate) fn area_enabled(&self, area: Area) -> bool {
        let ns = area.namespace();
        if self.skips.iter().any(|re| re.is_match(&ns)) {
            return false;
        }
        self.enabled(&ns) || self.enabled(ROOT)
    }

    /// True when no area would ever log (the value names only other libraries).
    pub(crate) fn is_silent(&self) -> bool {
        !Area::ALL.iter().any(|a| self.area_enabled(*a))
    }
}

/// One stderr line per message line, like `debug` writes when stderr is not a TTY:
/// `<ISO time> adt-ls-native:<area> <level> <text>`.
pub(crate) fn format_lines(timestamp: &str, area: Area, level: &str, message: &str) -> String {
    let ns = area.namespace();
    let mut out = String::new();
    for line in message.lines() {
        out.push_str(&format!("{timestamp} {ns} {level} {line}\n"));
    }
    if out.is_empty() {
        out.push_str(&format!("{timestamp} {ns} {level} \n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(value: &str) -> Vec<&'static str> {
        match DebugPatterns::parse(value) {
            Some(p) => Area::ALL
                .iter()
                .filter(|a| p.area_enabled(**a))
                .map(|a| a.name())
                .collect(),
            None => vec![],
        }
    }

    const EVERY: [&str; 6] = ["lsp", "mcp", "auth", "tls", "process", "client"];

    #[test]
    fn root_name_and_wildcards_turn_on_every_area() {
        assert_eq!(on("adt-ls-native"), EVERY);
        assert_eq!(on("adt-ls-native:*"), EVERY);
        assert_eq!(on("*"), EVERY);
        assert_eq!(on("adt-ls-*"), EVERY);
        assert_eq!(on("adt-ls-native*"), EVERY);
    }

    #[test]
    fn one_area_only() {
        assert_eq!(on("adt-ls-native:mcp"), ["mcp"]);
        assert_eq!(on("adt-ls-native:tls,adt-ls-native:auth"), ["auth", "tls"]);
        assert_eq!(
            on("  adt-ls-native:lsp   adt-ls-native:process "),
            ["lsp", "process"]
        );
        assert_eq!(on("express:*, adt-ls-native:client"), ["client"]);
    }

    #[test]
    fn exclusions_win_in_any_order() {
        assert_eq!(
            on("adt-ls-native:*,-adt-ls-native:tls"),
            ["lsp", "mcp", "auth", "process", "client"]
        );
        assert_eq!(
            on("-adt-ls-native:tls adt-ls-native"),
            ["lsp", "mcp", "auth", "process", "client"]
        );
        assert_eq!(on("*,-adt-ls-native:*"), Vec::<&str>::new());
        assert_eq!(on("adt-ls-native,-adt-ls-native"), Vec::<&str>::new());
    }

    #[test]
    fn other_names_and_empty_values_stay_off() {
        assert!(DebugPatterns::parse("").is_none());
        assert!(DebugPatterns::parse(" , ").is_none());
        assert!(DebugPatterns::parse("-adt-ls-native").is_none());
        assert!(DebugPatterns::parse("express:*").is_some_and(|p| p.is_silent()));
        assert!(DebugPatterns::parse("adt-ls-native:mcp").is_some_and(|p| !p.is_silent()));
        assert_eq!(on("adt-ls"), Vec::<&str>::new(), "a name matches whole");
        assert_eq!(on("adt-ls-native:mc"), Vec::<&str>::new());
        assert_eq!(
            on("ADT-LS-NATIVE"),
            Vec::<&str>::new(),
            "case-sensitive like debug"
        );
    }

    #[test]
    fn regex_characters_in_names_are_literal() {
        let p = DebugPatterns::parse("a.b,x+").unwrap();
        assert!(p.enabled("a.b") && !p.enabled("axb") && p.enabled("x+") && !p.enabled("xx"));
        let p = DebugPatterns::parse("a*c").unwrap();
        assert!(p.enabled("ac") && p.enabled("a:b:c") && !p.enabled("a:b"));
    }

    #[test]
    fn areas_follow_the_emitting_module() {
        let cases = [
            ("src/lsp/connection.rs", Area::Lsp),
            ("src/driver/mod.rs", Area::Lsp),
            ("src/mcp/http.rs", Area::Mcp),
            ("src/mcp/federated.rs", Area::Mcp),
            ("src/js/binding/mcp.rs", Area::Mcp),
            ("src/auth/interactive.rs", Area::Auth),
            ("src/tls/proxy.rs", Area::Tls),
            ("src/process/child.rs", Area::Process),
            ("src/discovery/version.rs", Area::Process),
            ("src/kernel/log.rs", Area::Client),
            ("src/discovery/mod.rs", Area::Process),
            ("src/client/startup.rs", Area::Client),
            ("src/js/binding/client.rs", Area::Client),
            (r"C:\b\src\tls\proxy_conn.rs", Area::Tls),
            ("lib.rs", Area::Client),
        ];
        for (file, area) in cases {
            assert_eq!(Area::of_file(file), area, "{file}");
        }
    }

    #[test]
    fn every_message_line_carries_the_namespace() {
        assert_eq!(
            format_lines("T", Area::Mcp, "debug", "one\ntwo"),
            "T adt-ls-native:mcp debug one\nT adt-ls-native:mcp debug two\n"
        );
        assert_eq!(
            format_lines("T", Area::Tls, "warn", ""),
            "T adt-ls-native:tls warn \n"
        );
    }
}

//! The `adt-ls.libraries` check and its JSON from a finished walk, as pure functions: a
//! library the binary (or what it loads) needs and no search finds fails, with the
//! Debian/Ubuntu and RHEL packages that provide it; one only the install's own libraries or
//! the run-time loads need is a warning.

use super::packages::packages_for;
use super::walk::{Missing, Walk};
use crate::doctor::report::Check;
use serde_json::{json, Value};

pub(crate) const ID: &str = "adt-ls.libraries";

/// A library adt-ls's stack opens at run time (`dlopen`), which no ELF header names.
#[derive(Debug, Clone)]
pub(crate) struct RuntimeLoaded {
    pub name: &'static str,
    pub by: &'static str,
}

/// The run-time loads the check looks for.
pub(crate) const RUNTIME_LOADED: &[RuntimeLoaded] = &[
    RuntimeLoaded {
        name: "libgtk-3.so.0",
        by: "SWT (Eclipse's GTK 3 toolkit) and the JRE's GTK look and feel",
    },
    RuntimeLoaded {
        name: "libfontconfig.so.1",
        by: "the JRE's font configuration",
    },
];

fn describe(m: &Missing) -> String {
    let by: Vec<&str> = m.needed_by.iter().take(3).map(String::as_str).collect();
    let more = m.needed_by.len().saturating_sub(3);
    let by = if more > 0 {
        format!("{} and {more} more", by.join(", "))
    } else {
        by.join(", ")
    };
    match packages_for(&m.name) {
        Some((deb, rpm)) => format!(
            "{} (needed by {by}; Debian/Ubuntu: {deb}, RHEL: {rpm})",
            m.name
        ),
        None => format!("{} (needed by {by}; no package known)", m.name),
    }
}

/// The install commands for `missing`, and how to find the unknown ones.
fn fix(missing: &[&Missing]) -> String {
    let mut deb: Vec<&str> = Vec::new();
    let mut rpm: Vec<&str> = Vec::new();
    let mut unknown: Vec<&str> = Vec::new();
    for m in missing {
        match packages_for(&m.name) {
            Some((d, r)) => {
                if !deb.contains(&d) {
                    deb.push(d);
                }
                if !rpm.contains(&r) {
                    rpm.push(r);
                }
            }
            None => unknown.push(&m.name),
        }
    }
    let mut parts = Vec::new();
    if !deb.is_empty() {
        parts.push(format!(
            "apt-get install --no-install-recommends {} (Debian/Ubuntu), or dnf install {} (RHEL)",
            deb.join(" "),
            rpm.join(" ")
        ));
    }
    if !unknown.is_empty() {
        let list = unknown.join(", ");
        parts.push(format!("install the packages that provide {list} (apt-file search <name> / dnf provides '*/<name>'), or add their directory to LD_LIBRARY_PATH"));
    }
    parts.join("; ")
}

/// The check for a walk, with the run-time loads that were not found.
pub(crate) fn check(walk: &Walk, runtime_missing: &[Missing]) -> Check {
    let required: Vec<&Missing> = walk.missing.iter().filter(|m| !m.bundled_only).collect();
    let optional: Vec<&Missing> = walk
        .missing
        .iter()
        .filter(|m| m.bundled_only)
        .chain(runtime_missing)
        .collect();
    let partial = if walk.truncated {
        " (stopped at the bound: partial)"
    } else {
        ""
    };
    if !required.is_empty() {
        let mut lines: Vec<String> = required.iter().map(|m| describe(m)).collect();
        lines.extend(
            optional
                .iter()
                .map(|m| format!("also (loaded later): {}", describe(m))),
        );
        let all: Vec<&Missing> = required.iter().chain(optional.iter()).copied().collect();
        return Check::fail(
            ID,
            format!(
                "{} librar{} adt-ls needs cannot be found{partial}:\n{}",
                required.len(),
                if required.len() == 1 { "y" } else { "ies" },
                lines.join("\n")
            ),
            fix(&all),
        );
    }
    if !optional.is_empty() {
        let lines: Vec<String> = optional.iter().map(|m| describe(m)).collect();
        return Check::warn(
            ID,
            format!("adt-ls itself links, but {} librar{} its bundled JRE, plugins or toolkit load later cannot be found{partial}:\n{}", optional.len(), if optional.len() == 1 { "y" } else { "ies" }, lines.join("\n")),
            fix(&optional),
        );
    }
    Check::ok(ID, format!("every shared library resolves ({} ELF objects: adt-ls, {} bundled, the rest from the system){partial}", walk.objects, walk.bundled))
}

/// The `libraries` section of the report.
pub(crate) fn section(
    binary: &str,
    walk: &Walk,
    runtime_missing: &[Missing],
    search: Value,
) -> Value {
    let row = |m: &Missing, kind: &str| {
        let (deb, rpm) =
            packages_for(&m.name).map_or((Value::Null, Value::Null), |(d, r)| (json!(d), json!(r)));
        json!({
            "name": m.name,
            "neededBy": m.needed_by,
            "kind": kind,
            "debian": deb,
            "rhel": rpm,
        })
    };
    let mut missing: Vec<Value> = walk
        .missing
        .iter()
        .map(|m| row(m, if m.bundled_only { "bundled" } else { "linked" }))
        .collect();
    missing.extend(runtime_missing.iter().map(|m| row(m, "runtime")));
    json!({
        "binary": binary,
        "elf": true,
        "objects": walk.objects,
        "bundled": walk.bundled,
        "truncated": walk.truncated,
        "missing": missing,
        "search": search,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doctor::report::Status;

    fn missing(name: &str, bundled_only: bool) -> Missing {
        Missing {
            name: name.into(),
            needed_by: vec!["/x/adt-ls".into()],
            bundled_only,
        }
    }

    #[test]
    fn linked_missing_fails_with_packages_bundled_or_runtime_missing_warns() {
        let walk = Walk {
            objects: 9,
            bundled: 4,
            missing: vec![
                missing("libgtk-3.so.0", false),
                missing("libadtlsmissing.so.1", false),
                missing("libasound.so.2", true),
            ],
            truncated: false,
        };
        let c = check(&walk, &[]);
        assert_eq!(c.status, Status::Fail);
        assert!(c.message.starts_with("2 libraries adt-ls needs cannot be found:\nlibgtk-3.so.0 (needed by /x/adt-ls; Debian/Ubuntu: libgtk-3-0, RHEL: gtk3)\n"), "{}", c.message);
        assert!(c
            .message
            .contains("libadtlsmissing.so.1 (needed by /x/adt-ls; no package known)"));
        assert!(c.message.contains("also (loaded later): libasound.so.2"));
        assert_eq!(
            c.fix.as_deref(),
            Some("apt-get install --no-install-recommends libgtk-3-0 libasound2 (Debian/Ubuntu), or dnf install gtk3 alsa-lib (RHEL); install the packages that provide libadtlsmissing.so.1 (apt-file search <name> / dnf provides '*/<name>'), or add their directory to LD_LIBRARY_PATH")
        );

        let walk = Walk {
            objects: 9,
            bundled: 4,
            missing: vec![missing("libasound.so.2", true)],
            truncated: false,
        };
        let c = check(&walk, &[missing("libgtk-3.so.0", false)]);
        assert_eq!(c.status, Status::Warn);
        assert!(
            c.message
                .starts_with("adt-ls itself links, but 2 libraries"),
            "{}",
            c.message
        );
        let json = section(
            "/x/adt-ls",
            &walk,
            &[missing("libgtk-3.so.0", false)],
            json!(null),
        );
        assert_eq!(
            json["missing"][1],
            json!({"name": "libgtk-3.so.0", "neededBy": ["/x/adt-ls"], "kind": "runtime", "debian": "libgtk-3-0", "rhel": "gtk3"})
        );

        let ok = check(
            &Walk {
                objects: 9,
                bundled: 4,
                missing: vec![],
                truncated: true,
            },
            &[],
        );
        assert_eq!(ok.status, Status::Ok);
        assert_eq!(ok.message, "every shared library resolves (9 ELF objects: adt-ls, 4 bundled, the rest from the system) (stopped at the bound: partial)");
    }
}

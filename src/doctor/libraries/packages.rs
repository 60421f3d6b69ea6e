//! The distribution packages that provide the shared libraries adt-ls (an Eclipse/SWT
//! application with a bundled JRE) and its GTK 3, X11, font and sound stack need: library
//! name to Debian/Ubuntu package (Debian 12 "bookworm" names, each checked with
//! `apt-cache show` against Debian's archive; Ubuntu 24.04 and Debian 13 install them through
//! their `t64` successors under the same names) and RHEL/Fedora package (not checked against
//! a RHEL archive: none was reachable). README's Dockerfile installs the Debian column's
//! direct needs. The table itself is data, in `packages.tsv` next to this file.

/// `library<TAB>Debian/Ubuntu package<TAB>RHEL package` a line; `#` starts a comment line.
const TABLE: &str = include_str!("packages.tsv");

/// The table's rows, `(library, Debian/Ubuntu package, RHEL package)`.
fn rows() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    TABLE
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| {
            let mut columns = line.split('\t');
            Some((columns.next()?, columns.next()?, columns.next()?))
        })
}

/// The Debian/Ubuntu and RHEL packages providing `library`, if the table knows it.
pub(crate) fn packages_for(library: &str) -> Option<(&'static str, &'static str)> {
    rows()
        .find(|(l, _, _)| *l == library)
        .map(|(_, deb, rpm)| (deb, rpm))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stack_adt_ls_needs_is_known_and_names_are_unique() {
        for lib in [
            "libgtk-3.so.0",
            "libX11.so.6",
            "libXtst.so.6",
            "libfontconfig.so.1",
            "libfreetype.so.6",
            "libasound.so.2",
        ] {
            assert!(packages_for(lib).is_some(), "{lib}");
        }
        assert_eq!(packages_for("libgtk-3.so.0"), Some(("libgtk-3-0", "gtk3")));
        assert_eq!(packages_for("libnope.so.1"), None);
        let rows: Vec<_> = rows().collect();
        let lines = TABLE
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'));
        assert_eq!(rows.len(), lines.count(), "every line has three columns");
        assert!(rows
            .iter()
            .all(|(l, d, r)| [l, d, r].iter().all(|c| !c.is_empty())));
        let mut names: Vec<&str> = rows.iter().map(|p| p.0).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), rows.len());
    }
}

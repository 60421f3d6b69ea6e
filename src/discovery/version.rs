//! The adt-ls version gate: the pinned version constants, the version parser, the
//! "supported" check, the reference's rejection message and the "not the verified build"
//! warning text (docs/wire.md#version-gate, docs/decisions.md#d1, #d2).

use crate::kernel::error::{Error, Result};
use std::cmp::Ordering;

/// Oldest adt-ls whose request shapes this library speaks.
pub(crate) const MINIMUM_ADT_LS_VERSION: &str = "1.1.2";
/// The `SAPSE.adt-vscode` extension version that ships the minimum adt-ls.
pub(crate) const REQUIRED_SAPSE_ADT_VSCODE_VERSION: &str = "1.1.2";
/// The exact adt-ls build the behaviour was verified against.
pub(crate) const VERIFIED_ADT_LS_VERSION: &str = "1.1.2.202608131517";

/// The name this library gives itself in messages (docs/decisions.md#d1).
const PACKAGE_NAME: &str = "adt-ls-native";

/// `[major, minor, patch]`. The numbers are `f64` because that is what JavaScript's
/// `Number(digits)` yields: any run of digits parses (huge runs round like JS does and
/// overflow to infinity), so the values handed to JS are exactly the reference's.
pub(crate) type ParsedAdtLsVersion = [f64; 3];

/// Parses a version with the semantics of the regex `^(\d+)\.(\d+)\.(\d+)(?:\.|$)`
/// (ASCII digits; after the patch number comes `.` or the end of the string; a build
/// suffix is ignored). Anything else gives `None`.
pub(crate) fn parse_adt_ls_version(version: &str) -> Option<ParsedAdtLsVersion> {
    let (triple, rest) = parse_version_prefix(version)?;
    (rest.is_empty() || rest.starts_with('.')).then_some(triple)
}

/// Parses a leading `<digits>.<digits>.<digits>` and returns it with the unparsed rest
/// (shared with discovery, whose folder names continue with `-` instead of `.`).
pub(crate) fn parse_version_prefix(s: &str) -> Option<(ParsedAdtLsVersion, &str)> {
    let (major, rest) = leading_number(s)?;
    let rest = rest.strip_prefix('.')?;
    let (minor, rest) = leading_number(rest)?;
    let rest = rest.strip_prefix('.')?;
    let (patch, rest) = leading_number(rest)?;
    Some(([major, minor, patch], rest))
}

/// Splits off a non-empty run of ASCII digits and converts it like JS `Number()` would.
fn leading_number(s: &str) -> Option<(f64, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let value = s[..digits].parse::<f64>().ok()?;
    Some((value, &s[digits..]))
}

/// Numeric, lexicographic comparison of two triples.
pub(crate) fn compare_versions(a: &ParsedAdtLsVersion, b: &ParsedAdtLsVersion) -> Ordering {
    a.iter()
        .zip(b.iter())
        .map(|(x, y)| x.partial_cmp(y).unwrap_or(Ordering::Equal))
        .find(|o| *o != Ordering::Equal)
        .unwrap_or(Ordering::Equal)
}

/// True iff the version parses and is at least [`MINIMUM_ADT_LS_VERSION`].
pub(crate) fn is_supported_adt_ls_version(version: Option<&str>) -> bool {
    let (Some(actual), Some(minimum)) = (
        version.and_then(parse_adt_ls_version),
        parse_adt_ls_version(MINIMUM_ADT_LS_VERSION),
    ) else {
        return false;
    };
    compare_versions(&actual, &minimum) != Ordering::Less
}

/// Succeeds for a supported version; otherwise fails with the reference's message
/// (a missing version prints `<missing>`; an empty string prints as empty, like JS `??`).
pub(crate) fn assert_supported_adt_ls_version(version: Option<&str>) -> Result<()> {
    if is_supported_adt_ls_version(version) {
        return Ok(());
    }
    Err(Error::new(format!(
        "Unsupported adt-ls version {}. {PACKAGE_NAME} requires adt-ls >= {MINIMUM_ADT_LS_VERSION} \
         (verified {VERIFIED_ADT_LS_VERSION}). Update the SAPSE.adt-vscode extension or provide \
         a newer ADT_LS_PATH.",
        version.unwrap_or("<missing>")
    )))
}

/// The warning logged when a supported adt-ls is not exactly the verified build.
pub(crate) fn not_verified_warning(version: &str) -> Option<String> {
    (version != VERIFIED_ADT_LS_VERSION).then(|| {
        format!(
            "adt-ls {version} is supported but not the verified build {VERIFIED_ADT_LS_VERSION}."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn constants_equal_the_reference() {
        assert_eq!(MINIMUM_ADT_LS_VERSION, "1.1.2");
        assert_eq!(REQUIRED_SAPSE_ADT_VSCODE_VERSION, "1.1.2");
        assert_eq!(VERIFIED_ADT_LS_VERSION, "1.1.2.202608131517");
    }

    // version.test.ts: parsing.
    #[test]
    fn parses_triples_and_ignores_build_suffix() {
        assert_eq!(parse_adt_ls_version("1.1.2"), Some([1.0, 1.0, 2.0]));
        assert_eq!(
            parse_adt_ls_version("1.1.2.202608131517"),
            Some([1.0, 1.0, 2.0])
        );
        assert_eq!(parse_adt_ls_version("1.1.2."), Some([1.0, 1.0, 2.0]));
        assert_eq!(parse_adt_ls_version("01.002.3.x"), Some([1.0, 2.0, 3.0]));
        assert_eq!(parse_adt_ls_version("10.20.30"), Some([10.0, 20.0, 30.0]));
    }

    #[test]
    fn rejects_everything_else() {
        for bad in [
            "",
            "nope",
            "1",
            "1.1",
            "1.1.",
            "1.1.2-beta",
            "1.1.2a",
            " 1.1.2",
            "v1.1.2",
            "1..2",
            "1.1.2\n",
            "1.-1.2",
            "1.1.x",
            "١.١.٢",
        ] {
            assert_eq!(parse_adt_ls_version(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn huge_numbers_behave_like_js_numbers() {
        let big = "99999999999999999999";
        assert_eq!(
            parse_adt_ls_version(&format!("{big}.0.0")),
            Some([1e20, 0.0, 0.0])
        );
        let overflow = "9".repeat(400);
        let parsed = parse_adt_ls_version(&format!("1.{overflow}.0"));
        assert_eq!(parsed, Some([1.0, f64::INFINITY, 0.0]));
        assert!(is_supported_adt_ls_version(Some(&format!(
            "1.{overflow}.0"
        ))));
    }

    // version.test.ts: support boundaries.
    #[test]
    fn support_boundaries() {
        for ok in [
            "1.1.2",
            "1.1.2.202608131517",
            "1.1.3",
            "1.1.3.0",
            "1.2.0",
            "2.0.0",
            "1.10.0",
        ] {
            assert!(is_supported_adt_ls_version(Some(ok)), "{ok}");
        }
        for no in [
            "1.0.0",
            "1.0.1",
            "1.0.2",
            "1.0.2.0",
            "1.1.1.99999",
            "0.9.9",
            "garbage",
            "",
        ] {
            assert!(!is_supported_adt_ls_version(Some(no)), "{no}");
        }
        assert!(!is_supported_adt_ls_version(None));
    }

    // version.test.ts: error texts.
    #[test]
    fn error_texts() {
        assert!(assert_supported_adt_ls_version(Some("1.1.2.1")).is_ok());
        let e = assert_supported_adt_ls_version(Some("1.0.1.202606111342")).unwrap_err();
        assert_eq!(
            e.message,
            "Unsupported adt-ls version 1.0.1.202606111342. adt-ls-native requires adt-ls >= 1.1.2 \
             (verified 1.1.2.202608131517). Update the SAPSE.adt-vscode extension or provide a \
             newer ADT_LS_PATH."
        );
        assert!(e.message.contains("requires adt-ls >= 1.1.2"));
        assert!(e.message.starts_with("Unsupported adt-ls version"));
        let missing = assert_supported_adt_ls_version(None).unwrap_err();
        assert!(missing
            .message
            .starts_with("Unsupported adt-ls version <missing>. adt-ls-native"));
        let empty = assert_supported_adt_ls_version(Some("")).unwrap_err();
        assert!(empty.message.starts_with("Unsupported adt-ls version . "));
    }

    #[test]
    fn warning_only_for_other_builds() {
        assert_eq!(not_verified_warning(VERIFIED_ADT_LS_VERSION), None);
        assert_eq!(
            not_verified_warning("1.1.3.1").as_deref(),
            Some("adt-ls 1.1.3.1 is supported but not the verified build 1.1.2.202608131517.")
        );
    }

    #[test]
    fn ordering_is_numeric_not_textual() {
        let v = |s| parse_adt_ls_version(s).unwrap_or([0.0; 3]);
        assert_eq!(
            compare_versions(&v("1.10.0"), &v("1.9.0")),
            Ordering::Greater
        );
        assert_eq!(
            compare_versions(&v("1.9.0"), &v("1.1.2")),
            Ordering::Greater
        );
        assert_eq!(
            compare_versions(&v("1.1.2.5"), &v("1.1.2")),
            Ordering::Equal
        );
    }

    proptest! {
        #[test]
        fn parser_never_panics(s in "\\PC*") {
            let _ = parse_adt_ls_version(&s);
            let _ = is_supported_adt_ls_version(Some(&s));
        }

        #[test]
        fn parser_never_panics_on_versionish_input(s in "[0-9.]{0,40}[a-z.-]{0,3}") {
            let _ = parse_adt_ls_version(&s);
        }

        #[test]
        fn format_then_parse_round_trips(a in 0u64..(1u64 << 53), b in any::<u32>(), c in any::<u32>(), build in proptest::option::of("[0-9]{1,14}")) {
            let text = match &build {
                Some(build) => format!("{a}.{b}.{c}.{build}"),
                None => format!("{a}.{b}.{c}"),
            };
            prop_assert_eq!(parse_adt_ls_version(&text), Some([a as f64, b as f64, c as f64]));
        }
    }
}

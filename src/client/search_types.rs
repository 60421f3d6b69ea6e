//! The type filters of a quick search (docs/wire.md#object-resolution): adt-ls 1.1.2 finds
//! nothing when it filters by `SRVD/SRV`, `BDEF/BDO`, `DDLX/EX` or `NROB/NRO`, although each is
//! the only subtype of its main type, so those are searched by the main type. Other subtypes
//! (`TABL/DS`, `PROG/I`, `SRVB/SVB`) are kept: their main type would find other subtypes too.
//! The four are recognised in any letter case (docs/decisions.md#d9-16).

/// The subtypes adt-ls cannot filter by (each the only subtype of its main type).
const UNFILTERABLE: [&str; 4] = ["SRVD/SRV", "BDEF/BDO", "DDLX/EX", "NROB/NRO"];

/// The main type of an ADT type code: everything before the first `/` (`CLAS/OC` -> `CLAS`).
pub(crate) fn main_type(object_type: &str) -> &str {
    object_type.split('/').next().unwrap_or(object_type)
}

/// The main type (upper case) when `object_type` is one adt-ls cannot filter by, compared
/// case-insensitively.
fn searchable(object_type: &str) -> Option<String> {
    UNFILTERABLE
        .iter()
        .any(|t| t.eq_ignore_ascii_case(object_type))
        .then(|| main_type(object_type).to_ascii_uppercase())
}

/// The filter to send for `types`: unchanged (duplicates and all) when no entry is an
/// unfilterable subtype; otherwise each such entry becomes its main type and the list is
/// de-duplicated, the first occurrence kept (`['SRVD/SRV', 'SRVD', 'CLAS/OC']` ->
/// `['SRVD', 'CLAS/OC']`).
pub(crate) fn search_types(types: &[String]) -> Vec<String> {
    if !types.iter().any(|t| searchable(t).is_some()) {
        return types.to_vec();
    }
    let mut out: Vec<String> = Vec::with_capacity(types.len());
    for t in types {
        let wanted = searchable(t).unwrap_or_else(|| t.clone());
        if !out.contains(&wanted) {
            out.push(wanted);
        }
    }
    out
}

/// The one type a resolving search sends for `object_type`.
pub(crate) fn search_type(object_type: &str) -> String {
    searchable(object_type).unwrap_or_else(|| object_type.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn unfilterable_subtypes_become_their_main_type() {
        assert_eq!(
            search_types(&v(&["SRVD/SRV", "SRVD", "CLAS/OC"])),
            v(&["SRVD", "CLAS/OC"])
        );
        assert_eq!(
            search_types(&v(&["BDEF/BDO", "DDLX/EX", "NROB/NRO"])),
            v(&["BDEF", "DDLX", "NROB"])
        );
        assert_eq!(search_types(&v(&["srvd/srv"])), v(&["SRVD"]));
        assert_eq!(search_type("DDLX/EX"), "DDLX");
        assert_eq!(search_type("CLAS/OC"), "CLAS/OC");
    }

    #[test]
    fn other_lists_are_sent_as_given() {
        let given = v(&["TABL/DS", "PROG/I", "SRVB/SVB", "TABL/DS"]);
        assert_eq!(search_types(&given), given);
        assert!(search_types(&[]).is_empty());
    }

    #[test]
    fn main_types() {
        assert_eq!(main_type("CLAS/OC"), "CLAS");
        assert_eq!(main_type("CLAS"), "CLAS");
        assert_eq!(main_type(""), "");
        assert_eq!(main_type("/X"), "");
    }

    proptest! {
        #[test]
        fn the_filter_never_grows_and_keeps_every_other_entry(
            types in proptest::collection::vec("[A-Z]{2,4}(/[A-Z]{1,3})?|SRVD/SRV|BDEF/BDO|DDLX/EX|NROB/NRO", 0..8)
        ) {
            let out = search_types(&types);
            prop_assert!(out.len() <= types.len());
            prop_assert!(out.iter().all(|t| searchable(t).is_none()));
            for t in &types {
                prop_assert!(out.contains(&search_type(t)));
            }
        }
    }
}

//! The method declarations without their implementations: the registry's table read once
//! more, for what a method's body asks of its own declaration (the known keys of its options
//! object). The registry dispatches to every namespace; the namespaces ask this file, so the
//! imports run one way.

use super::render::MethodSpec;
use std::sync::LazyLock;

macro_rules! client_namespaces {
    ($($namespaces:tt)*) => {};
}

include!("spec_list.rs");

include!("table.rs");

/// The known keys of method `name`'s options object, from its declared `opts` type
/// ([`MethodSpec::option_keys`]); empty for an unknown name.
pub(crate) fn option_keys(name: &str) -> &'static [&'static str] {
    static KEYS: LazyLock<Vec<(&str, Vec<&str>)>> = LazyLock::new(|| {
        SPECS
            .iter()
            .map(|spec| (spec.name, spec.option_keys()))
            .collect()
    });
    KEYS.iter()
        .find(|(method, _)| *method == name)
        .map_or(&[], |(_, keys)| keys.as_slice())
}

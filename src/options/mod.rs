//! The API's options: the known keys of every options object with the unknown-key warning,
//! and the security-relevant checks of option values.

pub(crate) mod keys;
pub(crate) mod values;

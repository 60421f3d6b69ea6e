//! The declared options objects, read from the file that holds them
//! (`src/js/binding/types/options.rs` of the crate being compiled): an export's
//! `#[inline_ts(…)]` names a declaration that lives in another file, which a macro sees only
//! by reading it. The file is part of the crate, so a change to it recompiles the exports.

use crate::typescript;
use std::path::PathBuf;
use syn::{Item, ItemStruct};

/// Where the crate declares its options objects, from its manifest dir.
const DECLARATIONS: &str = "src/js/binding/types/options.rs";

/// The TypeScript of the `#[js_options]` struct named `name` (the struct's own name, not its
/// values struct's).
pub(crate) fn typescript_of(name: &str) -> Result<String, String> {
    let dir =
        std::env::var("CARGO_MANIFEST_DIR").map_err(|e| format!("CARGO_MANIFEST_DIR: {e}"))?;
    let path = PathBuf::from(dir).join(DECLARATIONS);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file = syn::parse_file(&text).map_err(|e| format!("cannot parse {DECLARATIONS}: {e}"))?;
    let declared = file.items.iter().find_map(|item| match item {
        Item::Struct(s) if s.ident == name && is_declaration(s) => Some(s),
        _ => None,
    });
    let declared =
        declared.ok_or_else(|| format!("no #[js_options] struct `{name}` in {DECLARATIONS}"))?;
    typescript::object(declared).map_err(|e| format!("`{name}` in {DECLARATIONS}: {e}"))
}

fn is_declaration(item: &ItemStruct) -> bool {
    item.attrs.iter().any(|a| a.path().is_ident("js_options"))
}

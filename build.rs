//! Build script: napi-rs's setup, then the `AdtLsClient` declaration rendered from the method
//! registry (`src/client/registry/table.rs`) into napi-rs's intermediate type definitions, so
//! `napi build` writes it into `index.d.ts` with the rest of the generated declarations.

#[path = "src/client/registry/render.rs"]
#[allow(dead_code)]
mod render;

use render::{MethodSpec, NamespaceSpec};

macro_rules! client_namespaces {
    ($( $(#[doc = $doc:literal])* $name:literal => $interface:literal; )*) => {
        static NAMESPACES: &[NamespaceSpec] = &[$(
            NamespaceSpec { name: $name, interface: $interface, doc: concat!($($doc, "\n",)*) },
        )*];
    };
}

// The same entries as in the crate; the implementations are not compiled here.
include!("src/client/registry/spec_list.rs");

include!("src/client/registry/table.rs");

/// The file napi-rs reads next to the one napi-derive writes for this crate.
const TYPEDEF_FILE: &str = "adt-ls-native-client-api";

fn main() {
    napi_build::setup();
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/client/registry/table.rs");
    println!("cargo:rerun-if-changed=src/client/registry/render.rs");
    println!("cargo:rerun-if-changed=src/client/registry/spec_list.rs");
    println!("cargo:rerun-if-env-changed=NAPI_TYPE_DEF_TMP_FOLDER");
    println!("cargo:rerun-if-env-changed=NAPI_FORCE_BUILD_ADT_LS_NATIVE");
    let Some(dir) = std::env::var_os("NAPI_TYPE_DEF_TMP_FOLDER") else {
        return;
    };
    let methods: Vec<&MethodSpec> = SPECS.iter().collect();
    let text = render::typedef_lines(NAMESPACES, &methods);
    let path = std::path::Path::new(&dir).join(TYPEDEF_FILE);
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, text)) {
        panic!("writing {}: {e}", path.display());
    }
}

//! One declaration per options object: the `#[js_options]` attribute (`macros/`) takes a
//! struct with doc comments and emits the `#[napi(object)]` struct napi-rs renders into
//! `index.d.ts` (JSDoc included) and, through [`js_values!`], a values struct with the
//! object's known keys (camelCase, as napi renders the fields) for the unknown-key warning
//! and a checked, path-aware reader ([`FromJs`], through [`checked`]). A field reads as its
//! declared type, or as the type of its `#[js_read(…)]` (a timeout as a `Duration`, a port
//! range-checked, a nested options object as its values struct).

use super::checked;
use super::timeouts::{timeout_arg, timeout_prop};
use crate::kernel::arg_error;
use crate::kernel::error::Result as EngineResult;
use napi::bindgen_prelude::*;
use std::time::Duration;

/// A value read from JS with its option path named in errors (`adtLs.path must be a string,
/// received type number (123)`); `undefined` and `null` are "not given" for `Option`s.
pub trait FromJs<'e>: Sized {
    /// Read `value`, named `path` in errors.
    fn from_js(env: &Env, value: Option<Unknown<'e>>, path: &str) -> EngineResult<Self>;

    /// Read `obj[key]`, named `path` in errors (a throwing getter counts as absent).
    fn from_property(env: &Env, obj: &Object<'e>, key: &str, path: &str) -> EngineResult<Self> {
        Self::from_js(env, checked::property(obj, key), path)
    }
}

/// `path.key`, or `key` at the top level (empty `path`).
pub fn join(path: &str, key: &str) -> String {
    match path {
        "" => key.to_string(),
        p => format!("{p}.{key}"),
    }
}

/// `impl FromJs` for each type, read by its `checked` reader (`(env, value, path)`).
macro_rules! read_by {
    ($($(#[$doc:meta])* $ty:ty => $read:path;)*) => {$(
        $(#[$doc])*
        impl<'e> FromJs<'e> for $ty {
            fn from_js(env: &Env, value: Option<Unknown<'e>>, path: &str) -> EngineResult<Self> {
                $read(env, value, path)
            }
        }
    )*};
}

read_by! {
    String => checked::string;
    Option<String> => checked::opt_string;
    Option<bool> => checked::opt_bool;
    f64 => checked::number;
    Option<f64> => checked::opt_number;
    Option<Vec<String>> => checked::opt_strings;
    /// A `Record<string, string>`, in the object's key order.
    Option<Vec<(String, String)>> => checked::opt_string_map;
    Function<'e, Unknown<'e>, Unknown<'e>> => checked::function;
    Option<Function<'e, Unknown<'e>, Unknown<'e>>> => checked::opt_function;
}

/// A timeout in milliseconds (a finite positive number).
impl<'e> FromJs<'e> for Option<Duration> {
    fn from_js(env: &Env, value: Option<Unknown<'e>>, path: &str) -> EngineResult<Self> {
        timeout_arg(env, value, path)
    }

    fn from_property(env: &Env, obj: &Object<'e>, key: &str, path: &str) -> EngineResult<Self> {
        timeout_prop(env, obj, key, path)
    }
}

/// A port for adt-ls's MCP server (1024 to 65535, what adt-ls accepts).
pub struct AdtLsPort(pub u16);

impl<'e> FromJs<'e> for Option<AdtLsPort> {
    fn from_js(env: &Env, value: Option<Unknown<'e>>, path: &str) -> EngineResult<Self> {
        Ok(checked::opt_adt_ls_port(env, value, path)?.map(AdtLsPort))
    }
}

/// A required port number from 1 to 65535.
pub struct Port(pub u16);

impl<'e> FromJs<'e> for Port {
    fn from_js(env: &Env, value: Option<Unknown<'e>>, path: &str) -> EngineResult<Self> {
        let n = checked::number(env, value, path)?;
        arg_error::port(path, n).map(Port)
    }
}

/// A required port number from 0 to 65535, for a peer that applies its own range (adt-ls's
/// `startMCPServer`).
pub struct PeerPort(pub u16);

impl<'e> FromJs<'e> for PeerPort {
    fn from_js(env: &Env, value: Option<Unknown<'e>>, path: &str) -> EngineResult<Self> {
        let n = checked::number(env, value, path)?;
        arg_error::port_from(path, n, 0).map(PeerPort)
    }
}

/// A required secret string (password, token): a wrong value's content is never shown.
pub struct Secret(pub String);

impl<'e> FromJs<'e> for Secret {
    fn from_js(env: &Env, value: Option<Unknown<'e>>, path: &str) -> EngineResult<Self> {
        checked::secret(env, value, path).map(Secret)
    }
}

/// The JS key of a field: its name in camelCase, as napi-rs renders `#[napi(object)]` fields.
macro_rules! js_key {
    ($field:ident) => {{
        const SNAKE: &str = stringify!($field);
        const BYTES: [u8; $crate::options::keys::camel_len(SNAKE)] =
            $crate::options::keys::camel(SNAKE);
        const KEY: &str = match ::core::str::from_utf8(&BYTES) {
            Ok(key) => key,
            Err(_) => SNAKE,
        };
        KEY
    }};
}
pub(crate) use js_key;

/// The values struct of an options object, with its known keys and checked reader; the
/// `#[js_options]` attribute (`macros/`) emits it for every `#[napi(object)]` option type:
///
/// ```ignore
/// js_values! {
///     /// `startMcpServer(driver, opts)`.
///     pub struct StartMcp<'e> {
///         pub port: PeerPort,
///         pub token: Secret,
///     }
/// }
/// ```
///
/// emits `pub struct StartMcp<'e>` with those fields, `StartMcp::KEYS` (camelCase, as napi
/// renders the fields) and `StartMcp::read(env, &obj, path)`, which warns about unknown keys
/// and reads every field as `path.key` through [`FromJs`]. Fields are read in declaration
/// order, or in the order of an optional `read(field, …)` list after the name (the order
/// their errors are reported in). `Option<StartMcp>` and `StartMcp` are [`FromJs`] (an object
/// at `path`, optional or required), so declared objects nest. Written out, it reads an object
/// whose TypeScript is declared by hand in `types/header.d.ts` (callback members napi cannot
/// render, as `interactive`'s).
macro_rules! js_values {
    (
        $(#[$meta:meta])*
        pub struct $values:ident<$lt:lifetime> $(read($($order:ident),+ $(,)?))? {
            $(
                $(#[$field_meta:meta])*
                pub $field:ident: $ty:ty
            ),+ $(,)?
        }
    ) => {
        $crate::js::runtime::option_types::js_values! {
            @values
            $(#[$meta])*
            $values<$lt> [$($($order)+)?] {
                $(
                    $(#[$field_meta])*
                    $field: $ty,
                )+
            }
        }
    };
    (
        @values
        $(#[$meta:meta])*
        $values:ident<$lt:lifetime> [$($order:ident)*] {
            $(
                $(#[$field_meta:meta])*
                $field:ident: $ty:ty,
            )+
        }
    ) => {
        $(#[$meta])*
        pub struct $values<$lt> {
            $(
                $(#[$field_meta])*
                pub $field: $ty,
            )+
            _js: ::core::marker::PhantomData<&$lt ()>,
        }

        impl<$lt> $values<$lt> {
            /// The known keys, in declaration order.
            pub const KEYS: &'static [&'static str] =
                &[$($crate::js::runtime::option_types::js_key!($field)),+];

            /// Read the options object `obj` at `path` (empty at the top level): unknown keys
            /// are logged as warnings, each field is read as `path.key`.
            pub fn read(
                env: &::napi::Env,
                obj: &::napi::bindgen_prelude::Object<$lt>,
                path: &str,
            ) -> $crate::kernel::error::Result<Self> {
                $crate::js::runtime::checked::warn_unknown_keys(obj, path, Self::KEYS);
                $crate::js::runtime::option_types::js_values!(
                    @read env obj path [$($order)*] [$($field)+]
                );
                Ok(Self {
                    $($field,)+
                    _js: ::core::marker::PhantomData,
                })
            }
        }

        impl<$lt> $crate::js::runtime::option_types::FromJs<$lt> for $values<$lt> {
            fn from_js(
                env: &::napi::Env,
                value: Option<::napi::bindgen_prelude::Unknown<$lt>>,
                path: &str,
            ) -> $crate::kernel::error::Result<Self> {
                let obj = $crate::js::runtime::checked::object(env, value, path)?;
                Self::read(env, &obj, path)
            }
        }

        impl<$lt> $crate::js::runtime::option_types::FromJs<$lt> for Option<$values<$lt>> {
            fn from_js(
                env: &::napi::Env,
                value: Option<::napi::bindgen_prelude::Unknown<$lt>>,
                path: &str,
            ) -> $crate::kernel::error::Result<Self> {
                match $crate::js::runtime::checked::opt_object(env, value, path)? {
                    Some(obj) => $values::read(env, &obj, path).map(Some),
                    None => Ok(None),
                }
            }
        }
    };
    (@read $env:ident $obj:ident $path:ident [] [$($field:ident)+]) => {
        $crate::js::runtime::option_types::js_values!(@read $env $obj $path [$($field)+] []);
    };
    (@read $env:ident $obj:ident $path:ident [$($field:ident)+] [$($declared:ident)*]) => {
        $(
            let $field = $crate::js::runtime::option_types::FromJs::from_property(
                $env,
                $obj,
                $crate::js::runtime::option_types::js_key!($field),
                &$crate::js::runtime::option_types::join(
                    $path,
                    $crate::js::runtime::option_types::js_key!($field),
                ),
            )?;
        )+
    };
}
pub(crate) use js_values;

//! The TypeScript of a declared options object, written inline: `{ key: type; key?: type }`,
//! as napi-rs renders an object type. Fields are named as napi-rs names them (camelCase, or
//! `#[napi(js_name = "…")]`) and typed from their TypeScript-facing Rust type, or
//! `#[napi(ts_type = "…")]`. `Option<T>` makes the key optional.

use syn::{Attribute, Expr, ExprLit, GenericArgument, ItemStruct, Lit, Meta, PathArguments, Type};

/// `{ dataDir: string; pipeName: string; extraArgs?: string[] }` for the struct's fields.
pub(crate) fn object(item: &ItemStruct) -> syn::Result<String> {
    let mut members = Vec::new();
    for field in &item.fields {
        let ident = field
            .ident
            .as_ref()
            .ok_or_else(|| syn::Error::new_spanned(&field.ty, "js_options needs named fields"))?;
        let key =
            napi_string(&field.attrs, "js_name")?.unwrap_or_else(|| camel_case(&ident.to_string()));
        let (optional, ty) = match option_inner(&field.ty) {
            Some(inner) => ("?", inner),
            None => ("", &field.ty),
        };
        let ts = match napi_string(&field.attrs, "ts_type")? {
            Some(ts) => ts,
            None => type_text(ty)?,
        };
        members.push(format!("{key}{optional}: {ts}"));
    }
    Ok(format!("{{ {} }}", members.join("; ")))
}

/// `data_dir` → `dataDir`.
pub(crate) fn camel_case(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The TypeScript of a TypeScript-facing Rust type.
fn type_text(ty: &Type) -> syn::Result<String> {
    let unsupported = || {
        syn::Error::new_spanned(
            ty,
            "no TypeScript rendering for this type: give the field #[napi(ts_type = \"…\")]",
        )
    };
    let Type::Path(path) = ty else {
        return Err(unsupported());
    };
    let last = path.path.segments.last().ok_or_else(unsupported)?;
    let args = generic_types(&last.arguments);
    let text = match (last.ident.to_string().as_str(), args.as_slice()) {
        ("String", []) => "string".to_owned(),
        ("bool", []) => "boolean".to_owned(),
        ("f64" | "f32" | "u8" | "u16" | "u32" | "i32" | "i64" | "u64", []) => "number".to_owned(),
        ("Buffer", []) => "Buffer".to_owned(),
        ("Vec", [element]) => {
            let element = type_text(element)?;
            if element.contains(' ') {
                format!("({element})[]")
            } else {
                format!("{element}[]")
            }
        }
        ("Either", [a, b]) => format!("{} | {}", type_text(a)?, type_text(b)?),
        _ => return Err(unsupported()),
    };
    Ok(text)
}

/// `T` of `Option<T>`.
fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    match (
        last.ident == "Option",
        generic_types(&last.arguments).as_slice(),
    ) {
        (true, [inner]) => Some(inner),
        _ => None,
    }
}

fn generic_types(arguments: &PathArguments) -> Vec<&Type> {
    match arguments {
        PathArguments::AngleBracketed(args) => args
            .args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The string value of `key` in the field's `#[napi(…)]`, e.g. `ts_type = "…"`.
fn napi_string(attrs: &[Attribute], key: &str) -> syn::Result<Option<String>> {
    for attr in attrs.iter().filter(|a| a.path().is_ident("napi")) {
        let metas = attr.parse_args_with(
            syn::punctuated::Punctuated::<Meta, syn::Token![,]>::parse_terminated,
        )?;
        for meta in metas {
            if let Meta::NameValue(nv) = meta {
                if nv.path.is_ident(key) {
                    if let Expr::Lit(ExprLit {
                        lit: Lit::Str(s), ..
                    }) = nv.value
                    {
                        return Ok(Some(s.value()));
                    }
                }
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::{camel_case, object};

    #[test]
    fn renders_an_object_as_napi_does() {
        let item: syn::ItemStruct = syn::parse_quote! {
            pub struct X {
                /// Docs are not part of the inline type.
                pub data_dir: String,
                #[js_read(PemBytes)]
                pub cert: Either<String, Buffer>,
                pub extra_args: Option<Vec<String>>,
                pub port: f64,
                pub cold: Option<bool>,
                #[napi(js_name = "type", ts_type = "'a' | 'b'")]
                pub kind: Option<String>,
            }
        };
        assert_eq!(
            object(&item).unwrap(),
            "{ dataDir: string; cert: string | Buffer; extraArgs?: string[]; port: number; \
             cold?: boolean; type?: 'a' | 'b' }"
        );
    }

    #[test]
    fn a_type_without_a_rendering_is_an_error_at_the_field() {
        let item: syn::ItemStruct = syn::parse_quote! {
            pub struct X { pub f: HashMap<String, String> }
        };
        let err = object(&item).unwrap_err().to_string();
        assert!(err.contains("ts_type"), "{err}");
    }

    #[test]
    fn camel_cases_like_napi() {
        assert_eq!(camel_case("pipe_name"), "pipeName");
        assert_eq!(camel_case("user"), "user");
        assert_eq!(camel_case("a_b_c"), "aBC");
    }
}

//! `#[inline_ts(Name, …)]`: each named declaration's TypeScript written into the
//! `ts_args_type` of the `#[napi]` export (or of every method of the `#[napi] impl`) it is on,
//! in place of the name, before napi-rs reads the string.

use crate::declarations;
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, ExprLit, Ident, ImplItem, Item, Lit, LitStr, Meta, Token};

pub(crate) fn inline_ts(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand(attr, item).unwrap_or_else(|e| e.to_compile_error())
}

fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let names = syn::parse::Parser::parse2(Punctuated::<Ident, Token![,]>::parse_terminated, attr)?;
    let mut replacements = Vec::new();
    for name in &names {
        let ts = declarations::typescript_of(&name.to_string())
            .map_err(|e| syn::Error::new(name.span(), e))?;
        replacements.push((name.clone(), ts, false));
    }
    let mut item: Item = syn::parse2(item)?;
    match &mut item {
        Item::Fn(f) => rewrite(&mut f.attrs, &mut replacements)?,
        Item::Impl(i) => {
            for member in &mut i.items {
                if let ImplItem::Fn(f) = member {
                    rewrite(&mut f.attrs, &mut replacements)?;
                }
            }
        }
        other => {
            return Err(syn::Error::new_spanned(
                other,
                "inline_ts goes on a #[napi] fn or impl",
            ))
        }
    }
    for (name, _, used) in &replacements {
        if !*used {
            let msg = format!("`{name}` stands in no ts_args_type here");
            return Err(syn::Error::new(name.span(), msg));
        }
    }
    Ok(item.into_token_stream())
}

/// Replace the names in the `ts_args_type` of each `#[napi(…)]` among `attrs`.
fn rewrite(attrs: &mut [Attribute], replacements: &mut [(Ident, String, bool)]) -> syn::Result<()> {
    for attr in attrs.iter_mut().filter(|a| a.path().is_ident("napi")) {
        let Meta::List(list) = &attr.meta else {
            continue;
        };
        let mut metas = list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)?;
        let mut changed = false;
        for meta in metas.iter_mut() {
            let Meta::NameValue(nv) = meta else { continue };
            if !nv.path.is_ident("ts_args_type") {
                continue;
            }
            let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
            else {
                continue;
            };
            let mut text = s.value();
            for (name, ts, used) in replacements.iter_mut() {
                if let Some(replaced) = replace_word(&text, &name.to_string(), ts) {
                    text = replaced;
                    *used = true;
                    changed = true;
                }
            }
            nv.value = Expr::Lit(ExprLit {
                attrs: Vec::new(),
                lit: Lit::Str(LitStr::new(&text, Span::call_site())),
            });
        }
        if changed {
            let path = &list.path;
            *attr = syn::parse_quote!(#[#path(#metas)]);
        }
    }
    Ok(())
}

/// `text` with every whole-word `word` replaced by `with`; `None` when it has none.
fn replace_word(text: &str, word: &str, with: &str) -> Option<String> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut found = false;
    while let Some(at) = rest.find(word) {
        let before = match at {
            0 => out.chars().last(),
            _ => rest[..at].chars().last(),
        };
        let after = rest[at + word.len()..].chars().next();
        out.push_str(&rest[..at]);
        if before.is_some_and(is_ident) || after.is_some_and(is_ident) {
            out.push_str(word);
        } else {
            out.push_str(with);
            found = true;
        }
        rest = &rest[at + word.len()..];
    }
    out.push_str(rest);
    found.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::replace_word;

    #[test]
    fn replaces_whole_words_only() {
        let got = replace_word(
            "opts: Spawn, x: Spawned, y?: Spawn",
            "Spawn",
            "{ a: string }",
        );
        assert_eq!(
            got.as_deref(),
            Some("opts: { a: string }, x: Spawned, y?: { a: string }")
        );
        assert_eq!(replace_word("opts: XSpawn", "Spawn", "{}"), None);
        assert_eq!(replace_word("opts: Spawn_", "Spawn", "{}"), None);
    }
}

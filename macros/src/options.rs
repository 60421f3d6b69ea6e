//! `#[js_options]`: the `#[napi(object)]` interface as written, and the values struct with
//! its known keys and checked reader through the crate's `js_values!`.

use crate::typescript;
use proc_macro2::TokenStream;
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, ItemStruct, Token, Type};

/// `Values`, then optionally `read(field, …)` and `inline`, comma-separated.
pub(crate) struct Args {
    pub(crate) values: Ident,
    order: Vec<Ident>,
    pub(crate) inline: bool,
}

impl Parse for Args {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let values: Ident = input.parse()?;
        let mut args = Args {
            values,
            order: Vec::new(),
            inline: false,
        };
        while input.parse::<Option<Token![,]>>()?.is_some() && !input.is_empty() {
            let word: Ident = input.parse()?;
            if word == "inline" {
                args.inline = true;
            } else if word == "read" {
                let content;
                syn::parenthesized!(content in input);
                args.order = Punctuated::<Ident, Token![,]>::parse_terminated(&content)?
                    .into_iter()
                    .collect();
            } else {
                return Err(syn::Error::new(
                    word.span(),
                    "expected `read(field, …)` or `inline`",
                ));
            }
        }
        Ok(args)
    }
}

pub(crate) fn js_options(attr: TokenStream, item: TokenStream) -> TokenStream {
    let parsed = syn::parse2::<Args>(attr).and_then(|args| {
        let item = syn::parse2::<ItemStruct>(item)?;
        expand(&args, item)
    });
    parsed.unwrap_or_else(|e| e.to_compile_error())
}

fn expand(args: &Args, mut item: ItemStruct) -> syn::Result<TokenStream> {
    if args.inline {
        // Fails here, at the declaration, for a field type without a TypeScript rendering.
        typescript::object(&item)?;
    }
    let name = &item.ident;
    let values = &args.values;
    let order = &args.order;
    let mut fields = Vec::new();
    for field in item.fields.iter_mut() {
        let ident = field
            .ident
            .clone()
            .ok_or_else(|| syn::Error::new_spanned(&field.ty, "js_options needs named fields"))?;
        let read = take_read_type(&mut field.attrs)?.unwrap_or_else(|| field.ty.clone());
        let doc = format!("`{ident}`.");
        fields.push(quote! { #[doc = #doc] #ident: #read, });
    }
    let values_doc = if args.inline {
        format!("The checked values of the inline object `{name}`, as JS gave them.")
    } else {
        format!("The checked values of [`{name}`], as JS gave them.")
    };
    let interface = if args.inline {
        quote! {}
    } else {
        quote! { #[napi(object)] #item }
    };
    Ok(quote! {
        #interface

        crate::js::runtime::option_types::js_values! {
            @values
            #[doc = #values_doc]
            #values<'e> [#(#order)*] {
                #(#fields)*
            }
        }
    })
}

/// Remove the field's `#[js_read(Type)]` and return its type.
fn take_read_type(attrs: &mut Vec<Attribute>) -> syn::Result<Option<Type>> {
    let mut read = None;
    let mut kept = Vec::with_capacity(attrs.len());
    for attr in attrs.drain(..) {
        if attr.path().is_ident("js_read") {
            read = Some(attr.parse_args::<Type>()?);
        } else {
            kept.push(attr);
        }
    }
    *attrs = kept;
    Ok(read)
}

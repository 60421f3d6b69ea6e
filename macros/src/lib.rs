//! `#[js_options]`: one declaration per options object of adt-ls-native's exports. The
//! attribute takes a struct with doc comments and emits it as the `#[napi(object)]` interface
//! napi-rs renders into `index.d.ts` (JSDoc included), plus, through the crate's
//! `js_options!` (`src/js/runtime/option_types.rs`), the values struct with the known keys
//! and the checked, path-aware reader. It is a proc macro because doc comments that pass
//! through `macro_rules!` reach napi-rs as raw strings, which it renders verbatim.

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{parse_macro_input, Attribute, Ident, ItemStruct, Token, Type};

/// `#[js_options(Values)]` or `#[js_options(Values, read(field, …))]`.
struct Args {
    values: Ident,
    order: Vec<Ident>,
}

impl Parse for Args {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let values: Ident = input.parse()?;
        let mut order = Vec::new();
        if input.parse::<Option<Token![,]>>()?.is_some() && !input.is_empty() {
            let word: Ident = input.parse()?;
            if word != "read" {
                return Err(syn::Error::new(word.span(), "expected `read(field, …)`"));
            }
            let content;
            syn::parenthesized!(content in input);
            order = Punctuated::<Ident, Token![,]>::parse_terminated(&content)?
                .into_iter()
                .collect();
            input.parse::<Option<Token![,]>>()?;
        }
        Ok(Args { values, order })
    }
}

/// Declare an options object once:
///
/// ```ignore
/// /// Docs of the interface (JSDoc in index.d.ts).
/// #[js_options(ForwardProxy)]
/// pub struct ForwardProxyOptions {
///     /// Docs of the field.
///     pub host: String,
///     #[js_read(Port)]
///     pub port: f64,
/// }
/// ```
///
/// emits `#[napi(object)] pub struct ForwardProxyOptions` as written, and
/// `pub struct ForwardProxy<'e>` with the same fields, each in its declared type or the type
/// of its `#[js_read(…)]`, with `ForwardProxy::KEYS` and `ForwardProxy::read(env, &obj, path)`.
/// Fields are read in declaration order, or in the order of `read(field, …)`.
#[proc_macro_attribute]
pub fn js_options(attr: TokenStream, item: TokenStream) -> TokenStream {
    let args = parse_macro_input!(attr as Args);
    let mut item = parse_macro_input!(item as ItemStruct);
    match expand(&args, &mut item) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

fn expand(args: &Args, item: &mut ItemStruct) -> syn::Result<TokenStream2> {
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
    let values_doc = format!("The checked values of [`{name}`], as JS gave them.");
    Ok(quote! {
        #[napi(object)]
        #item

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

// The registry's table read for its declarations alone, the implementations ignored:
// `client_methods!` makes `SPECS`. Included by build.rs (which renders the declaration) and by
// `registry/specs.rs` (the known keys of a method's options), so both read the table one way.

macro_rules! client_methods {
    ($( $(#[doc = $doc:literal])* $name:literal $(<$generics:literal>)? ($($params:literal)?) -> $result:literal = $run:expr; )*) => {
        /// Every method's declaration, in declaration order.
        static SPECS: &[MethodSpec] = &[$(
            MethodSpec {
                name: $name,
                generics: concat!("" $(, $generics)?),
                params: concat!("" $(, $params)?),
                result: $result,
                doc: concat!($($doc, "\n",)*),
            },
        )*];
    };
}

//! The N-API layer: converts JS values to engine types and back, and forwards. No behaviour.

#[napi]
pub fn probe_add(a: u32, b: u32) -> u32 {
    a + b
}

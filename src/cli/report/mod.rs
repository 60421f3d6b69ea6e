//! The report formats CI systems read, one module each: JUnit (`unit`), Cobertura and LCOV
//! (`coverage`), SARIF 2.1.0 and checkstyle (`atc`). Each maps a finding or test to a file path
//! and line ([`super::paths`]) and to a rule or test id. docs/cli.md#formats describes the
//! mappings.

pub(crate) mod checkstyle;
pub(crate) mod cobertura;
pub(crate) mod junit;
pub(crate) mod lcov;
pub(crate) mod sarif;
#[cfg(test)]
mod test_fixtures;

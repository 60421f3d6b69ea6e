//! The proxy's self-signed localhost certificate, generated in-process (docs/decisions.md#d4) instead
//! of the reference's `openssl req -x509 ... -days 825 -subj /CN=localhost`.
//!
//! Differences from the reference, both accepted by Java and by rustls: the key is ECDSA P-256
//! (ring cannot generate RSA keys) and the certificate carries SAN `DNS:localhost` and
//! `IP:127.0.0.1` next to `CN=localhost` (docs/wire.md#proxy-certificate). The key PEM is PKCS#8
//! (`BEGIN PRIVATE KEY`), like modern OpenSSL writes.

use crate::kernel::error::{Error, Result};
use crate::kernel::redact::Hidden;
use rcgen::{CertificateParams, DistinguishedName, DnType, KeyPair, SanType};
use std::net::{IpAddr, Ipv4Addr};
use std::time::{SystemTime, UNIX_EPOCH};

/// Validity of the proxy certificate, as in the reference.
pub(crate) const LOCALHOST_CERT_DAYS: u64 = 825;

/// A certificate and its private key, both PEM.
#[derive(Clone, Debug)]
pub(crate) struct LocalhostCert {
    pub cert_pem: String,
    /// PKCS#8 PEM. Never logged.
    pub key_pem: Hidden<String>,
}

/// Generate a fresh self-signed `CN=localhost` certificate valid for 825 days from today.
pub(crate) fn generate_localhost_cert() -> Result<LocalhostCert> {
    let key = KeyPair::generate().map_err(cert_error)?;
    let mut params = CertificateParams::new(vec!["localhost".to_string()]).map_err(cert_error)?;
    params
        .subject_alt_names
        .push(SanType::IpAddress(IpAddr::V4(Ipv4Addr::LOCALHOST)));
    let mut name = DistinguishedName::new();
    name.push(DnType::CommonName, "localhost");
    params.distinguished_name = name;
    let today = days_since_epoch(SystemTime::now());
    let (y, m, d) = civil_from_days(today);
    params.not_before = rcgen::date_time_ymd(y, m, d);
    let (y, m, d) = civil_from_days(today + LOCALHOST_CERT_DAYS);
    params.not_after = rcgen::date_time_ymd(y, m, d);
    let cert = params.self_signed(&key).map_err(cert_error)?;
    Ok(LocalhostCert {
        cert_pem: cert.pem(),
        key_pem: Hidden(key.serialize_pem()),
    })
}

fn cert_error(e: rcgen::Error) -> Error {
    Error::new(format!("Could not generate the localhost certificate: {e}"))
}

fn days_since_epoch(now: SystemTime) -> u64 {
    now.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0)
}

/// The (year, month, day) of a day number counted from 1970-01-01, via the civil-calendar
/// conversion (proleptic Gregorian, 400-year eras of 146 097 days). The validity starts at
/// midnight UTC today, which also tolerates small clock skew.
fn civil_from_days(days: u64) -> (i32, u8, u8) {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year as i32, month as u8, day as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_are_right() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_513 + 825), (2028, 6, 3));
    }
}

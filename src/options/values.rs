//! Security-relevant checks of option values from the API user (docs/security.md, "Option
//! values"): every timeout is a finite positive number of milliseconds that a timer can hold,
//! and `connection.systemUrl` is an `https://` or `http://` URL with a host, a valid port and
//! no embedded credentials. Messages name the option and the value received (a URL's
//! userinfo is never echoed); codes are Node's (`ERR_OUT_OF_RANGE`, `ERR_INVALID_ARG_VALUE`).
//! Plain functions, so the N-API layer and the fuzz targets can call them directly.

use crate::kernel::arg_error::show_number;
use crate::kernel::error::{codes, Error, Result};
use reqwest::Url;
use std::time::Duration;

/// The largest accepted timeout: 2^31-1 ms (about 24.8 days), the largest delay a Node timer
/// can hold; anything larger cannot be a real bound.
pub(crate) const MAX_TIMEOUT_MS: f64 = 2_147_483_647.0;

/// `ms` as a timeout for the option `name`, or `ERR_OUT_OF_RANGE` naming it and the value.
pub(crate) fn timeout_ms(name: &str, ms: f64) -> Result<Duration> {
    if ms.is_finite() && ms > 0.0 && ms <= MAX_TIMEOUT_MS {
        // At least 1 ms: 0.5 must not become "no time at all".
        return Ok(Duration::from_millis((ms.ceil() as u64).max(1)));
    }
    Err(Error::coded(
        codes::OUT_OF_RANGE,
        format!(
            "{name} must be a finite number of milliseconds > 0 and <= {}, received {}",
            MAX_TIMEOUT_MS as u64,
            show_number(ms)
        ),
    ))
}

/// `ERR_INVALID_ARG_TYPE` for an option `name` that must be a number and is a `received`.
pub(crate) fn timeout_type_error(name: &str, received: &str) -> Error {
    Error::coded(
        codes::INVALID_ARG_TYPE,
        format!("{name} must be a number of milliseconds, received {received}"),
    )
}

/// Check `connection.systemUrl`: `https://` or `http://`, a host, a port in 1..=65535 when
/// one is given, no `user:password@`. Returns the parsed URL.
pub(crate) fn system_url(input: &str) -> Result<Url> {
    let name = "connection.systemUrl";
    let shown = without_userinfo(input);
    let bad = |why: &str| {
        Error::coded(
            codes::INVALID_ARG_VALUE,
            format!("{name} must be {why}, received {shown:?}"),
        )
    };
    if input.trim() != input || input.is_empty() {
        return Err(bad("an https:// or http:// URL without surrounding spaces"));
    }
    if shown != input {
        return Err(bad(
            "a URL without embedded credentials (user:password@); pass them through auth",
        ));
    }
    let url = Url::parse(input).map_err(|e| match e {
        url_error if url_error.to_string().contains("port") => {
            bad("a URL whose port is from 1 to 65535")
        }
        _ => bad("a valid https:// or http:// URL"),
    })?;
    if !matches!(url.scheme(), "https" | "http") {
        return Err(bad("an https:// or http:// URL"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(bad("a URL with a host"));
    }
    if url.port() == Some(0) {
        return Err(bad("a URL whose port is from 1 to 65535"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad(
            "a URL without embedded credentials (user:password@); pass them through auth",
        ));
    }
    Ok(url)
}

/// `input` with a URL's userinfo (`user:pw@` in the authority) replaced by `***@`. Everything
/// up to the last `@` before the path counts, even across `?` or `#`: a password may hold them
/// (`user:pa#ss@host`), and masking too much is harmless.
pub(crate) fn without_userinfo(input: &str) -> String {
    let Some(start) = input.find("://").map(|i| i + 3) else {
        return input.to_string();
    };
    let rest = &input[start..];
    let end = rest.find('/').unwrap_or(rest.len());
    match rest[..end].rfind('@') {
        Some(at) => format!("{}***{}", &input[..start], &rest[at..]),
        None => input.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_must_be_finite_positive_and_timer_sized() {
        assert_eq!(
            timeout_ms("t", 1500.0).unwrap(),
            Duration::from_millis(1500)
        );
        assert_eq!(timeout_ms("t", 0.2).unwrap(), Duration::from_millis(1));
        assert!(timeout_ms("t", MAX_TIMEOUT_MS).is_ok());
        for (bad, shown) in [
            (-1.0, "-1"),
            (0.0, "0"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (1e308, "1e308"),
            (MAX_TIMEOUT_MS + 1.0, "2147483648"),
        ] {
            let e = timeout_ms("adtLs.requestTimeoutMs", bad).unwrap_err();
            assert!(e.has_code(codes::OUT_OF_RANGE), "{bad}");
            assert!(
                e.message
                    .starts_with("adtLs.requestTimeoutMs must be a finite number"),
                "{}",
                e.message
            );
            assert!(
                e.message.ends_with(&format!("received {shown}")),
                "{}",
                e.message
            );
        }
    }

    /// The error `system_url` refuses `url` with, checked to be `ERR_INVALID_ARG_VALUE`.
    fn refused(url: &str) -> Error {
        let e = system_url(url).unwrap_err();
        assert!(e.has_code(codes::INVALID_ARG_VALUE), "{url}");
        e
    }

    #[test]
    fn system_urls_accept_http_and_https_with_valid_ports() {
        for ok in [
            "https://sap.example.com",
            "https://sap.example.com:44300/sap/bc",
            "http://127.0.0.1:8000",
            "HTTPS://[::1]:8443/",
        ] {
            assert!(system_url(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn system_urls_reject_other_schemes_bad_ports_and_garbage() {
        for bad in [
            "ftp://sap.example.com",
            "gopher://sap.example.com:70",
            "file:///etc/passwd",
            "https://sap.example.com:99999",
            "https://sap.example.com:0",
            "https://sap.example.com:-1",
            "not a url",
            "",
            " https://sap.example.com",
            "https://",
        ] {
            let e = refused(bad);
            assert!(
                e.message.starts_with("connection.systemUrl must be"),
                "{}",
                e.message
            );
        }
        let e = system_url("https://sap.example.com:99999").unwrap_err();
        assert!(e.message.contains("port"), "{}", e.message);
    }

    #[test]
    fn system_urls_with_credentials_are_rejected_without_echoing_them() {
        for bad in [
            "https://DEVELOPER:S3cret-pw@sap.example.com",
            "https://S3cret-pw@sap.example.com/x",
            "https://DEVELOPER:S3cret-pw@sap.example.com:99999",
            "ftp://u:S3cret-pw@h",
            "https://DEVELOPER:S3cret-pw#1@127.0.0.1:1",
            "https://DEVELOPER:S3cret-pw?x@127.0.0.1/sap",
        ] {
            let e = refused(bad);
            assert!(!e.message.contains("S3cret-pw"), "{}", e.message);
        }
        let e = system_url("https://u:S3cret-pw@sap.example.com").unwrap_err();
        assert!(e.message.contains("embedded credentials"), "{}", e.message);
        assert!(
            e.message.contains("https://***@sap.example.com"),
            "{}",
            e.message
        );
    }
}

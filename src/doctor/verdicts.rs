//! The verdicts of the `--url` probe's last steps, as pure functions of what was observed:
//! trust, host name and the reentrance answer, each with its fix. Kept apart from the I/O
//! so every branch is unit-tested.

use super::report::Check;
use serde_json::Value;

const FIX_TRUST_CA: &str = "pass the CA that issued the system's certificate in connection.extraCaCerts (doctor: --extra-ca <file>), or set connection.selfSigned: true";
const FIX_TRUST_SELF: &str = "set connection.selfSigned: true (doctor: --self-signed), or pass this certificate in connection.extraCaCerts (doctor: --extra-ca <file>)";

/// The `trust` check. `trust` is whether adt-ls's truststore trusts the chain.
pub(crate) fn trust(
    trust: &Result<(), String>,
    self_signed: bool,
    leaf_self_signed: bool,
    extra_ca_count: usize,
) -> Check {
    let store = format!("adt-ls's truststore (JRE cacerts + {extra_ca_count} extra CA(s))");
    match (trust, self_signed) {
        (_, true) => Check::ok(
            "trust",
            format!(
                "selfSigned: adt-ls talks to adt-ls-native's localhost proxy, which accepts this certificate{}",
                if trust.is_ok() { " (adt-ls's truststore would also trust it)" } else { "" }
            ),
        ),
        (Ok(()), false) => Check::ok("trust", format!("{store} trusts the chain")),
        (Err(e), false) => Check::fail(
            "trust",
            format!("{store} does not trust the chain: {e}"),
            if leaf_self_signed { FIX_TRUST_SELF } else { FIX_TRUST_CA },
        ),
    }
}

/// The `hostname` check. `name` is the leaf's match against `host` (`None`: no leaf);
/// `sans` the leaf's subject alternative names.
pub(crate) fn hostname(
    name: Option<&Result<(), String>>,
    host: &str,
    sans: &Value,
    self_signed: bool,
) -> Check {
    match (name, self_signed) {
        (Some(Ok(())), _) => Check::ok("hostname", format!("the certificate is valid for {host}")),
        (_, true) => Check::ok(
            "hostname",
            format!("selfSigned: the host name is not checked (the certificate names {sans})"),
        ),
        (Some(Err(e)), false) => Check::fail(
            "hostname",
            format!("the certificate is not valid for {host} ({e}); it names {sans}"),
            "use a host name the certificate names in connection.systemUrl, or set connection.selfSigned: true",
        ),
        (None, false) => Check::fail(
            "hostname",
            "the server presented no certificate",
            "set connection.selfSigned: true",
        ),
    }
}

/// The `reentrance` check: the status code, the I/O error, or the timeout in ms.
pub(crate) fn reentrance(outcome: &Result<Result<u16, String>, u128>) -> Check {
    const ID: &str = "reentrance";
    match outcome {
        Ok(Ok(401)) => Check::ok(ID, "the reentrance endpoint answers 401 without credentials (expected: logon will send them)"),
        Ok(Ok(code @ 200..=399)) => Check::ok(ID, format!("the reentrance endpoint answers {code}")),
        Ok(Ok(403)) => Check::warn(
            ID,
            "the reentrance endpoint answers 403",
            "ask the SAP basis team to activate /sap/bc/adt/core/http/reentranceticket in SICF for your user",
        ),
        Ok(Ok(404)) => Check::fail(
            ID,
            "the reentrance endpoint answers 404: no ADT here",
            "point connection.systemUrl at the ABAP system's ICM (the URL ADT in Eclipse uses), and check SICF service /sap/bc/adt",
        ),
        Ok(Ok(code)) => Check::fail(
            ID,
            format!("the reentrance endpoint answers {code}"),
            "check the system's ICM and the SICF service /sap/bc/adt",
        ),
        Ok(Err(e)) => Check::fail(
            ID,
            format!("the reentrance GET failed: {e}"),
            "check that connection.systemUrl is the ABAP system's HTTP(S) endpoint",
        ),
        Err(ms) => Check::fail(
            ID,
            format!("no answer from the reentrance endpoint within {ms} ms"),
            "check the system is up (or raise --timeout-ms)",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doctor::report::Status;
    use serde_json::json;

    #[test]
    fn trust_verdicts_and_fixes() {
        let untrusted = Err("UnknownIssuer".to_string());
        let c = trust(&untrusted, false, false, 0);
        assert_eq!(c.status, Status::Fail);
        assert_eq!(c.fix.as_deref(), Some(FIX_TRUST_CA));
        assert_eq!(
            trust(&untrusted, false, true, 0).fix.as_deref(),
            Some(FIX_TRUST_SELF)
        );
        let c = trust(&untrusted, true, true, 0);
        assert_eq!(c.status, Status::Ok);
        assert!(c.message.starts_with("selfSigned: "));
        assert!(!c.message.contains("would also trust"));
        assert!(trust(&Ok(()), true, false, 0)
            .message
            .contains("would also trust"));
        assert_eq!(
            trust(&Ok(()), false, false, 2).message,
            "adt-ls's truststore (JRE cacerts + 2 extra CA(s)) trusts the chain"
        );
    }

    #[test]
    fn hostname_verdicts() {
        let sans = json!(["DNS:a.example"]);
        assert_eq!(
            hostname(Some(&Ok(())), "a.example", &sans, false).status,
            Status::Ok
        );
        let wrong = Err("not valid".to_string());
        let c = hostname(Some(&wrong), "b.example", &sans, false);
        assert_eq!(c.status, Status::Fail);
        assert!(
            c.message.contains(r#"it names ["DNS:a.example"]"#),
            "{}",
            c.message
        );
        assert_eq!(
            hostname(Some(&wrong), "b.example", &sans, true).status,
            Status::Ok
        );
        assert_eq!(
            hostname(None, "b.example", &sans, false).status,
            Status::Fail
        );
    }

    #[test]
    fn reentrance_answers() {
        let status = |o: Result<Result<u16, String>, u128>| reentrance(&o).status;
        assert_eq!(status(Ok(Ok(401))), Status::Ok);
        assert_eq!(status(Ok(Ok(307))), Status::Ok);
        assert_eq!(status(Ok(Ok(403))), Status::Warn);
        assert_eq!(status(Ok(Ok(404))), Status::Fail);
        assert_eq!(status(Ok(Ok(500))), Status::Fail);
        assert_eq!(status(Ok(Err("reset".into()))), Status::Fail);
        let c = reentrance(&Err(250));
        assert_eq!(
            c.message,
            "no answer from the reentrance endpoint within 250 ms"
        );
    }
}

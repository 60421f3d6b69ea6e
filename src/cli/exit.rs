//! Exit statuses and the failures behind them. Every failure names its case in the message
//! (`usage error:`, `connection failed:`, `logon failed:`, `adt-ls failed:`), and engine
//! errors are sorted into cases by their stable `code` (docs/errors.md).

use crate::kernel::error::{codes, Error, ErrorCode};

/// The process's exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Success = 0,
    /// Findings at or above `--fail-on`, failed tests, activation errors, a tool's error.
    Failed = 1,
    Usage = 2,
    /// A connection, logon or adt-ls failure.
    Unavailable = 3,
    /// Ctrl-C (128 + SIGINT).
    Interrupted = 130,
}

/// A run that ends with a message on stderr.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Failure {
    pub status: Status,
    pub message: String,
}

impl Failure {
    pub(crate) fn usage(message: impl Into<String>) -> Failure {
        Failure {
            status: Status::Usage,
            message: format!("usage error: {}", message.into()),
        }
    }

    pub(crate) fn unavailable(case: &str, message: impl Into<String>) -> Failure {
        Failure {
            status: Status::Unavailable,
            message: format!("{case}: {}", message.into()),
        }
    }

    pub(crate) fn interrupted() -> Failure {
        Failure {
            status: Status::Interrupted,
            message: "interrupted: the calls in flight were cancelled and adt-ls was stopped"
                .into(),
        }
    }

    /// A failed call to the engine, sorted into its case by the error's code.
    pub(crate) fn from_call(e: Error) -> Failure {
        let code = match &e.code {
            Some(ErrorCode::Str(s)) => s.as_str(),
            _ => "",
        };
        match code {
            codes::INVALID_ARG
            | codes::INVALID_ARG_TYPE
            | codes::INVALID_ARG_VALUE
            | codes::OUT_OF_RANGE
            | codes::NOT_FOUND => Failure::usage(e.message),
            codes::NOT_CONNECTED => Failure::usage(format!(
                "{} This command needs a system: give --url (or ADT_LS_URL) and credentials.",
                e.message
            )),
            codes::LOGON_FAILED | codes::CREDENTIALS_ORIGIN => {
                Failure::unavailable("logon failed", e.message)
            }
            codes::LOGON_ERROR | codes::TLS_CERT | codes::TLS => {
                Failure::unavailable("connection failed", e.message)
            }
            codes::ADT_LS_NOT_FOUND => Failure::unavailable("adt-ls not found", e.message),
            _ => Failure::unavailable("adt-ls failed", e.message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_codes_sort_into_cases() {
        let case = |code: &str| Failure::from_call(Error::coded(code, "m")).status;
        assert_eq!(case("ERR_NOT_FOUND"), Status::Usage);
        assert_eq!(case(codes::INVALID_ARG_VALUE), Status::Usage);
        assert_eq!(case(codes::NOT_CONNECTED), Status::Usage);
        assert_eq!(case("ERR_LOGON_FAILED"), Status::Unavailable);
        assert_eq!(case(codes::TIMEOUT), Status::Unavailable);
        assert_eq!(case(codes::CONNECTION_CLOSED), Status::Unavailable);
        let logon = Failure::from_call(Error::coded(codes::LOGON_FAILED, "401"));
        assert_eq!(logon.message, "logon failed: 401");
        assert!(Failure::usage("x").message.starts_with("usage error: "));
    }
}

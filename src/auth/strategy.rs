//! Logon strategies (docs/wire.md#logon-strategies, docs/decisions.md#d4): the built-in ones (`basic`, `bearer`,
//! `clientCert`) run natively; `interactive` runs natively around the user's two callbacks;
//! `custom` hands the user's own `register(driver, ctx)` the driver. A strategy keeps the
//! reference's shape: `kind`, `user`, `clientCert` and `register`.

use crate::driver::Driver;
use crate::kernel::error::Result;
use crate::kernel::future::BoxFuture;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Basic,
    Bearer,
    Interactive,
    Custom,
    ClientCert,
}

impl Kind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Kind::Basic => "basic",
            Kind::Bearer => "bearer",
            Kind::Interactive => "interactive",
            Kind::Custom => "custom",
            Kind::ClientCert => "clientCert",
        }
    }
}

/// PEM client certificate and key, as given (string or Buffer); the TLS proxy presents them.
pub(crate) use crate::tls::ClientCertPem;

/// A bearer token: a value, or a provider called at every logon.
#[derive(Clone)]
pub(crate) enum TokenSource {
    Value(String),
    Provider(Arc<dyn TokenProvider>),
}

pub(crate) trait TokenProvider: Send + Sync {
    fn token(&self) -> BoxFuture<Result<String>>;
}

/// One field adt-ls asks for in `requestLogonInput`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PromptField {
    pub key: String,
    pub label: String,
    pub sensitive: bool,
}

/// The user's side of `interactive`: open a logon URL, and (optionally) prompt for a field.
pub(crate) trait InteractiveUi: Send + Sync {
    fn open_url(&self, url: String) -> BoxFuture<Result<()>>;
    /// `None` when no `promptField` callback was given.
    fn prompt_field(&self, field: PromptField) -> Option<BoxFuture<Result<Option<String>>>>;
    fn has_prompt(&self) -> bool;
}

/// A user-supplied `register(driver, ctx)` (the `custom` strategy, or any JS object that
/// looks like a strategy).
pub(crate) trait Registrar: Send + Sync {
    fn register(&self, driver: &Driver, ctx: &LogonContext) -> BoxFuture<Result<()>>;
}

/// Told about a background logon failure (the headless ticket flow), so a waiting
/// `ensureLoggedOn` can end at once with the real cause instead of timing out.
pub(crate) type FailureListener = Arc<dyn Fn(crate::kernel::error::Error) + Send + Sync>;

/// What a strategy needs to know when it registers its handlers.
#[derive(Clone, Default)]
pub(crate) struct LogonContext {
    /// `connection.selfSigned`: the reentrance GET may skip certificate verification.
    pub insecure: bool,
    /// `extraCaCerts` contents, trusted by the reentrance GET (docs/decisions.md#d5-8).
    pub extra_ca_pems: Vec<Vec<u8>>,
    /// The destination's client, sent as `sap-client` on the ticket request.
    pub sap_client: Option<String>,
    /// Hears background failures of the ticket flow (already logged as warnings).
    pub on_failure: Option<FailureListener>,
    /// The only origins the ticket flow may send credentials to (the `systemUrl` and the
    /// proxy fronting it, [`super::origin`]); empty when no system URL is known.
    pub credential_origins: Vec<reqwest::Url>,
}

#[derive(Clone)]
pub(crate) enum Logon {
    Basic { password: String },
    Bearer { token: TokenSource },
    ClientCert,
    Interactive(Arc<dyn InteractiveUi>),
    Custom(Arc<dyn Registrar>),
}

/// A logon strategy.
#[derive(Clone)]
pub(crate) struct Strategy {
    pub kind: Kind,
    pub user: Option<String>,
    pub client_cert: Option<ClientCertPem>,
    pub logon: Logon,
}

impl Strategy {
    pub(crate) fn client_cert(&self) -> Option<&ClientCertPem> {
        self.client_cert.as_ref()
    }
}

//! Installing a strategy's server->client handlers on the driver (docs/wire.md#logon-strategies): basic,
//! bearer and clientCert get the reentrance handler (clientCert without credentials, the TLS
//! proxy presents the certificate); interactive gets the browser-logon handler plus, when
//! the user can be prompted, the logon-input handler; custom runs the user's registrar.
//! Strategies never call `ensureLoggedOn` themselves.

use super::destinations::{LSP_REQUEST_BROWSER_LOGON, LSP_REQUEST_LOGON_INPUT};
use super::interactive::BrowserLogonHandler;
use super::logon_input::LogonInputHandler;
use super::reentrance_handler::ReentranceHandler;
use super::strategy::{Logon, LogonContext, Strategy};
use crate::driver::router::ServerRequestHandler;
use crate::driver::Driver;
use crate::kernel::error::Result;
use std::sync::Arc;

/// One handler for one server->client request method.
pub(crate) type MethodHandler = (&'static str, Arc<dyn ServerRequestHandler>);

impl Strategy {
    /// Register this strategy's logon handlers on `driver`.
    pub(crate) async fn register(&self, driver: &Driver, ctx: &LogonContext) -> Result<()> {
        if let Logon::Custom(registrar) = &self.logon {
            return registrar.register(driver, ctx).await;
        }
        for (method, handler) in self.builtin_handlers(ctx) {
            driver.set_request_handler(method, handler);
        }
        Ok(())
    }

    /// The handlers a built-in strategy installs (none for `custom`).
    pub(crate) fn builtin_handlers(&self, ctx: &LogonContext) -> Vec<MethodHandler> {
        let reentrance = |handler: ReentranceHandler| -> Vec<MethodHandler> {
            vec![(LSP_REQUEST_BROWSER_LOGON, Arc::new(handler))]
        };
        match &self.logon {
            Logon::Basic { password } => reentrance(ReentranceHandler::basic(
                self.user.clone().unwrap_or_default(),
                password.clone(),
                ctx.clone(),
            )),
            Logon::Bearer { token } => {
                reentrance(ReentranceHandler::bearer(token.clone(), ctx.clone()))
            }
            Logon::ClientCert => reentrance(ReentranceHandler::without_credentials(ctx.clone())),
            Logon::Interactive(ui) => {
                let mut handlers: Vec<MethodHandler> = vec![(
                    LSP_REQUEST_BROWSER_LOGON,
                    Arc::new(BrowserLogonHandler::new(ui.clone())),
                )];
                if ui.has_prompt() {
                    handlers.push((
                        LSP_REQUEST_LOGON_INPUT,
                        Arc::new(LogonInputHandler::new(ui.clone())),
                    ));
                }
                handlers
            }
            Logon::Custom(_) => Vec::new(),
        }
    }
}

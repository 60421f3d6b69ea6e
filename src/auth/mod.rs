//! Logon: strategies, the destination requests, the headless reentrance-ticket flow and the
//! interactive logon-input prompts.

pub mod destinations;
pub mod interactive;
pub mod logon_diagnosis;
pub mod logon_error;
pub mod logon_input;
pub mod logon_url;
pub mod origin;
pub mod proxy_url;
pub mod reentrance;
pub mod reentrance_handler;
mod reentrance_http;
pub mod register;
pub mod strategy;

#[cfg(test)]
mod tests;

pub use destinations::{
    create_destination, ensure_logged_on, get_logon_info, initialize_service, DestinationConfig,
    LogonInfo, LSP_CREATE_DESTINATION, LSP_ENSURE_LOGGED_ON, LSP_GET_LOGON_INFO,
    LSP_INITIALIZE_SERVICE, LSP_LOGON_STATE_CHANGED, LSP_REQUEST_BROWSER_LOGON,
    LSP_REQUEST_LOGON_INPUT, LSP_STOP_LOGON,
};
pub use interactive::BrowserLogonHandler;
pub use logon_input::LogonInputHandler;
pub use logon_url::extract_logon_url;
pub use reentrance::{perform_reentrance_logon, Credentials};
pub use reentrance_handler::ReentranceHandler;
pub use reentrance_http::REENTRANCE_REQUEST_TIMEOUT;
pub use strategy::{
    ClientCertPem, FailureListener, InteractiveUi, Kind, Logon, LogonContext, PromptField,
    Registrar, Strategy, TokenProvider, TokenSource,
};

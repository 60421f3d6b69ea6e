//! Logon: strategies, the destination requests, the headless reentrance-ticket flow and the
//! interactive logon-input prompts.

pub(crate) mod destinations;
pub(crate) mod interactive;
pub(crate) mod logon_diagnosis;
pub(crate) mod logon_error;
pub(crate) mod logon_input;
pub(crate) mod logon_url;
pub(crate) mod origin;
pub(crate) mod proxy_url;
pub(crate) mod reentrance;
pub(crate) mod reentrance_handler;
mod reentrance_http;
pub(crate) mod register;
pub(crate) mod strategy;

#[cfg(test)]
mod tests;

pub(crate) use strategy::{
    FailureListener, InteractiveUi, LogonContext, PromptField, Strategy, TokenProvider, TokenSource,
};

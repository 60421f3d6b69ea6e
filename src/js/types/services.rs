//! The results of the `services` namespace.

use napi_derive::napi;

/// `listServices`: the OData services a binding exposes (MCP `fetch_services`).
#[napi(object)]
pub struct ServiceBindingServices {
    pub binding_type: Option<String>,
    pub odata_version: Option<String>,
    pub odata_info_uri: Option<Vec<ODataInfoUri>>,
    pub services: Vec<BindingService>,
}

/// A metadata URI of a binding.
#[napi(object)]
pub struct ODataInfoUri {
    pub href: String,
}

/// One service of a binding.
#[napi(object)]
pub struct BindingService {
    pub name: String,
    pub content: Vec<ServiceContent>,
    pub is_published: Option<bool>,
}

/// A version of a service.
#[napi(object)]
pub struct ServiceContent {
    pub service_definition: String,
    pub service_version: String,
}

/// `getServiceInfo`: live OData service information (MCP `fetch_service_information`).
#[napi(object)]
pub struct ServiceInfo {
    pub service_url: String,
    pub entity_sets: Vec<EntitySet>,
}

/// An entity set and its navigation properties.
#[napi(object)]
pub struct EntitySet {
    pub name: String,
    pub navigations: Vec<String>,
}

/// `serviceBindingDetails`: adt-ls's answer.
#[napi(object)]
pub struct ServiceBindingDetails {
    pub is_executed: Option<bool>,
    pub status_message: Option<String>,
    pub name: Option<String>,
    pub binding_type: Option<String>,
    pub binding_category: Option<String>,
    pub odata_version: Option<String>,
    pub is_published: Option<bool>,
    pub service_definition: Option<String>,
    pub service_version: Option<String>,
    pub service_url: Option<String>,
}

/// `publishServiceBinding`: adt-ls's answer.
#[napi(object)]
pub struct PublishServiceBindingResult {
    pub is_executed: Option<bool>,
    pub is_publish_success: Option<bool>,
    pub status_message: Option<String>,
}

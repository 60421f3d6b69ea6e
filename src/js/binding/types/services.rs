//! The results of the `services` namespace.

use napi_derive::napi;

/// `listServices`: the OData services a binding exposes (MCP `fetch_services`).
#[napi(object)]
pub struct ServiceBindingServices {
    /// The binding type, e.g. `ODATA`.
    pub binding_type: Option<String>,
    /// The OData version, e.g. `V2` or `V4`.
    pub odata_version: Option<String>,
    /// The binding's metadata URIs, when adt-ls reports them.
    pub odata_info_uri: Option<Vec<ODataInfoUri>>,
    /// Whether the binding is published: adt-ls sends it for OData V4 only.
    pub is_published: Option<bool>,
    /// The services the binding exposes.
    pub services: Vec<BindingService>,
}

/// A metadata URI of a binding.
#[napi(object)]
pub struct ODataInfoUri {
    /// The URI.
    pub href: String,
}

/// One service of a binding.
#[napi(object)]
pub struct BindingService {
    /// The service name (pass it as `service` to `getServiceInfo`).
    pub name: String,
    /// The service's versions and their service definitions.
    pub content: Vec<ServiceContent>,
    /// Whether the service is published, when adt-ls reports it here (adt-ls 1.1.2 reports
    /// it at the binding's top level instead).
    pub is_published: Option<bool>,
}

/// A version of a service.
#[napi(object)]
pub struct ServiceContent {
    /// The service definition (SRVD) behind this version.
    pub service_definition: String,
    /// The version, e.g. `0001`.
    pub service_version: String,
}

/// `getServiceInfo`: live OData service information (MCP `fetch_service_information`).
#[napi(object)]
pub struct ServiceInfo {
    /// The service's URL, e.g. `https://host:44300/sap/opu/odata/sap/ZUI_X_O2/?sap-client=001`.
    pub service_url: String,
    /// The service's entity sets.
    pub entity_sets: Vec<EntitySet>,
}

/// An entity set and its navigation properties.
#[napi(object)]
pub struct EntitySet {
    /// The entity set's name.
    pub name: String,
    /// The names of its navigation properties.
    pub navigations: Vec<String>,
}

/// `serviceBindingDetails`: adt-ls's answer, unchanged. The fields are the ones live adt-ls
/// 1.1.2 is known to send (a field is absent when adt-ls does not send it); the answer may
/// carry more.
#[napi(object)]
pub struct ServiceBindingDetails {
    /// The binding's name as the system spells it, e.g. `ZUI_X_O2`.
    pub service_binding_name: Option<String>,
    /// The binding type, e.g. `ODATA`.
    pub service_type: Option<String>,
    /// The OData version, `V2` or `V4` (lower-case `v` in the key, as adt-ls sends it).
    pub odataversion: Option<String>,
    /// The service definitions (SRVD) the binding exposes, by name; pass one as `service` to
    /// `publishServiceBinding`.
    pub services: Option<Vec<String>>,
    /// The binding's object data: whether it is published.
    pub object_data: Option<ServiceBindingObjectData>,
    /// The same, under the name some adt-ls answers use instead of `objectData`.
    pub srvb_object_data: Option<ServiceBindingObjectData>,
}

/// The object data of a service binding.
#[napi(object)]
pub struct ServiceBindingObjectData {
    /// Whether the binding is published.
    pub published: Option<bool>,
}

/// `publishServiceBinding`: adt-ls's answer.
#[napi(object)]
pub struct PublishServiceBindingResult {
    /// adt-ls carried out the request.
    pub is_executed: Option<bool>,
    /// The publish (or unpublish) action succeeded.
    pub is_publish_success: Option<bool>,
    /// adt-ls's status text, e.g. `Service binding Z_UI_ORDER_O4 published successfully`.
    pub status_message: Option<String>,
}

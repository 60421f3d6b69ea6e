//! The shaped results of `navigation.typeHierarchy` and `navigation.completion`.

use napi_derive::napi;

use super::lsp::{CompletionItem, TypeHierarchyItem};

/// `typeHierarchy`: the prepared item (`null` when there is none) and the directions asked
/// for.
#[napi(object)]
pub struct TypeHierarchyResult {
    /// The type at the position (`textDocument/prepareTypeHierarchy`); `null` when there is
    /// none there.
    #[napi(ts_type = "TypeHierarchyItem | null")]
    pub item: serde_json::Value,
    /// Superclasses and implemented interfaces (`typeHierarchy/supertypes`); absent when not
    /// requested, empty without an item.
    pub supertypes: Option<Vec<TypeHierarchyItem>>,
    /// Subclasses and implementing classes (`typeHierarchy/subtypes`); absent when not
    /// requested, empty without an item.
    pub subtypes: Option<Vec<TypeHierarchyItem>>,
}

/// `completion`: the first `maxItems` proposals of `total`.
#[napi(object)]
pub struct CompletionResult {
    /// adt-ls's `isIncomplete`, when it answered with a completion list.
    pub is_incomplete: Option<bool>,
    /// How many proposals adt-ls returned before capping.
    pub total: f64,
    /// With `resolve`: how many items were resolved.
    pub resolved: Option<f64>,
    /// The proposals, at most `maxItems`, in adt-ls's order.
    pub items: Vec<CompletionItem>,
}

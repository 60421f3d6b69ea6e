// The client's methods and namespaces: the one list. Included by `registry.rs` (where each
// entry becomes a `Method` with its implementation) and by `build.rs` (where the same entries
// become the `AdtLsClient` declaration). Adding a method is one entry here. Each entry reads
// `"<namespace>.<name>" [<"generics">] ("<TS parameters>") -> "<TS result>" = <implementation>;`
// with its JSDoc above; a `"void"` result resolves `undefined`. The implementation names the
// method's function with what happens at the call (`registry.rs`): `polled!` (nothing before
// the future is polled), `on_object!` (the object located and queued), `on_file!` (the file
// queued), `at_call!` (the function starts its own work).

client_namespaces! {
    /// Repository queries, file operations by repotree URI and the name-to-URI resolver.
    "repository" => "Repository";
    /// Read object source by name.
    "source" => "Source";
    /// The authoring lifecycle (modern ABAP-Cloud / RAP types): resolve, create, update,
    /// activate, test, delete, generators and the creation metadata.
    "lifecycle" => "Lifecycle";
    /// LSP code intelligence (symbols, definition, references, type hierarchy, hover,
    /// completion, syntax check, format, semantic tokens). Positions are a declared `symbol`
    /// name or an explicit 1-based `line` + `character`.
    "navigation" => "Navigation";
    /// Quality: ATC static analysis and ABAP Unit with code coverage. All reads.
    "quality" => "Quality";
    /// Runtime and business services: run a console application, service-binding details,
    /// publishing and OData service information.
    "services" => "Services";
    /// CTS transport and lock operations.
    "transport" => "Transport";
    /// Escape hatches: any LSP request, any tool of adt-ls's MCP server.
    "raw" => "Raw";
}

client_methods! {
    /// The LSP capabilities adt-ls announced (a copy) and the tools of its MCP server
    /// (freshly listed with `tools/list`). Rejects when the MCP server cannot be reached.
    "capabilities" () -> "AdtLsCapabilities" = at_call!(raw::capabilities);

    /// Search ABAP repository objects by name pattern (e.g. `"CL_ABAP*"`), optionally filtered
    /// by ADT type (`adtLs/repository/quickSearch`, default 50 hits). `cold` retries the
    /// cold-index window; an empty result on a dead session logs on again and retries once.
    /// Rejects with "No ABAP destination is connected." without a destination.
    "repository.search" ("pattern: string, opts?: { maxResults?: number; types?: string[]; cold?: boolean }") -> "QuickSearchResult"
        = polled!(repository::search);

    /// List the user master records visible to the logged-on user
    /// (`adtLs/repository/getUsers`). Rejects without a destination.
    "repository.getUsers" () -> "UserRef[]" = polled!(repository::get_users);

    /// Resolve an ADT object path (e.g. `/sap/bc/adt/oo/classes/zcl_x`) to the repotree AFF URI
    /// the file operations use (`adtLs/repository/getLsUri`). Rejects when adt-ls returns no URI.
    "repository.getLsUri" ("adtUri: string") -> "string" = polled!(repository::get_ls_uri);

    /// Read an AFF file's content by repotree URI (`adtLs/fileSystem/readFile`; `''` when empty):
    /// the version adt-ls serves (your draft when you have one). Runs in the object's queue:
    /// one operation per object at a time, in call order.
    "repository.readFile" ("uri: string") -> "string" = on_file!(repository::read_file);

    /// Write an AFF file (plain multi-line source) by repotree URI
    /// (`adtLs/fileSystem/writeFile`); resolves adt-ls's raw answer. Runs in the object's queue.
    "repository.writeFile" ("uri: string, content: string") -> "unknown" = on_file!(repository::write_file);

    /// Delete by AFF URI (use the `.json` metadata URI for objects) with
    /// `adtLs/fileSystem/delete`; resolves adt-ls's raw answer. Runs in the object's queue.
    "repository.delete" ("uri: string") -> "unknown" = on_file!(repository::delete);

    /// List a repotree directory (`adtLs/fileSystem/readDirectory`): each entry's name and
    /// whether it is a `file` or a `directory`. Pass a directory URI (a package's is its
    /// `getLsUri` file URI without the last segment; an object's, its file URI up to the last
    /// `/`); a file URI lists nothing. Rejects when adt-ls answers no listing.
    "repository.readDirectory" ("uri: string") -> "DirectoryEntry[]" = polled!(directory::read_directory);

    /// The version adt-ls serves for a file (`adtLs/fileSystem/abapStat`): `'inactive'` while it
    /// serves your draft of that file, else `'active'`. Runs in the object's queue.
    "repository.abapStat" ("uri: string") -> "SourceVersion" = on_file!(versions::abap_stat);

    /// List the inactive (draft) objects on the connected destination
    /// (`adtLs/activation/getInactiveObjects`). Rejects without a destination.
    "repository.listInactive" () -> "unknown[]" = polled!(repository::list_inactive);

    /// Read an object's source by name (per include for classes, e.g. `include: 'testclasses'`):
    /// resolves the AFF URI, then `adtLs/fileSystem/readFile`. By default (and with
    /// `version: 'inactive'`) that is the version adt-ls serves: your draft when you have one,
    /// else the active version. `version: 'active'` reads the active version of that file
    /// (switching adt-ls's view with `toggleVersion` and back), inside the object's queue.
    /// Rejects for object types adt-ls headless does not serve, for another `version`, and
    /// without a destination.
    "source.read" ("args: ObjectRef & { include?: string; version?: SourceVersion }") -> "string" = on_object!(FromArgs, source::read_source);

    /// Resolve `{name, objectType}` to the repotree AFF URI (quickSearch, then
    /// `adtLs/repository/getLsUri`); a ref with a `uri` resolves to it without a search. Rejects
    /// when the object is not found, and for a `uri` of another destination.
    "lifecycle.resolveAffUri" ("ref: ObjectRef") -> "string" = polled!(lifecycle::resolve_aff_uri);

    /// Create an object with the MCP tool `abap_creation-create_object`.
    /// `transportRequestNumber` is `''` for `$TMP` / local packages. Rejects with the tool's
    /// message when it reports an error.
    "lifecycle.create" ("args: { objectType: string; name: string; packageName: string; description: string; transportRequestNumber?: string; additionalFields?: Record<string, unknown> }") -> "CreateResult"
        = polled!(lifecycle::create);

    /// Update an object's source (optionally one include) with `adtLs/fileSystem/writeFile`;
    /// a dead session is logged on again and the write retried.
    "lifecycle.update" ("args: ObjectRef & { source: string; include?: string }") -> "void" = on_object!(FromArgs, lifecycle::update);

    /// Activate with the native `adtLs/activation/activate` (per-phase flags, refreshed URIs,
    /// optional `forceActivation`). Resolves `success: false` with the LSP `diagnostics` per
    /// file when the check fails; rejects when the request itself fails. `onProgress` gets
    /// adt-ls's `$/progress` reports (docs/events.md#progress).
    "lifecycle.activate" ("args: ObjectRef & { forceActivation?: boolean } & ProgressOptions") -> "ActivateResult" = on_object!(Main, lifecycle::activate);

    /// Run the object's ABAP Unit tests with the MCP tool `abap_run_unit_tests`. Rejects with
    /// the tool's message when it reports an error. `onProgress` gets the tool's MCP
    /// progress notifications (docs/events.md#progress).
    "lifecycle.runUnitTests" ("args: ObjectRef & ProgressOptions") -> "unknown" = polled!(lifecycle::run_unit_tests);

    /// Delete the object (its `.json` metadata) with `adtLs/fileSystem/delete`.
    "lifecycle.delete" ("args: ObjectRef") -> "void" = on_object!(Main, lifecycle::delete);

    /// Run a RAP generator (MCP tool `abap_generators-generate_objects`): a full object set
    /// (table, CDS, BDEF, SRVD, SRVB). Rejects with the tool's message on an error result.
    "lifecycle.generate" ("args: { generatorId: string; content: string; packageName: string; transportRequestNumber?: string; referencedObjectType?: string; referencedObjectName?: string }") -> "GeneratorResult"
        = polled!(lifecycle::generate);

    /// Validate creation input before `create` (MCP tool `abap_creation-run_validation`;
    /// a read-only verdict).
    "lifecycle.validate" ("args: { objectType: string; name: string; packageName: string; description: string; additionalFields?: Record<string, unknown> }") -> "ValidationResult"
        = polled!(lifecycle::validate);

    /// List the object types creatable on this system (MCP tool
    /// `abap_creation-get_all_creatable_objects`).
    "lifecycle.listCreatableObjects" () -> "CreatableObjects" = polled!(lifecycle::list_creatable_objects);

    /// Creation details (the flat MCP field list) for one object type, e.g. `"CLAS/OC"` (MCP
    /// tool `abap_creation-get_object_type_details`).
    "lifecycle.getObjectTypeDetails" ("objectType: string, opts?: { name?: string }") -> "ObjectTypeDetails"
        = polled!(lifecycle::get_object_type_details);

    /// The full creation form: each field's value-help types, name pattern, label and
    /// required flag, from the native UI model (`adtLs/objectCreation/getCreationUiModelAndContent`).
    "lifecycle.getCreationForm" ("objectType: string, opts?: { name?: string }") -> "{\
         \n  /** The object type asked for, e.g. `CLAS/OC`. */\
         \n  objectType: string\
         \n  /** The form's fields. */\
         \n  fields: CreationField[]\
         \n}"
        = polled!(lifecycle::get_creation_form);

    /// List the available RAP generators (MCP tool `abap_generators-list_generators`); feed an
    /// id to `generate` / `getGeneratorSchema`.
    "lifecycle.listGenerators" () -> "GeneratorList" = polled!(lifecycle::list_generators);

    /// The JSON input schema a generator's `content` must satisfy (MCP tool
    /// `abap_generators-get_schema`).
    "lifecycle.getGeneratorSchema" ("generatorId: string, opts?: { packageName?: string; referencedObjectType?: string; referencedObjectName?: string }") -> "GeneratorSchema"
        = polled!(lifecycle::get_generator_schema);

    /// The object's outline: `textDocument/documentSymbol` (kinds, ranges, children).
    "navigation.documentSymbols" ("ref: ObjectRef") -> "DocumentSymbol[] | SymbolInformation[] | null" = on_object!(Main, navigation::document_symbols);

    /// ABAP syntax check without activating: pull diagnostics (`textDocument/diagnostic`).
    "navigation.checkSyntax" ("ref: ObjectRef") -> "FullDocumentDiagnosticReport | UnchangedDocumentDiagnosticReport" = on_object!(Main, navigation::check_syntax);

    /// Go to a symbol's definition (the implementation): `textDocument/definition`. Rejects
    /// when the locator's symbol is not in the source.
    "navigation.goToDefinition" ("ref: ObjectRef, locator: Locator") -> "Location | Location[] | LocationLink[] | null" = on_object!(Main, navigation::go_to_definition);

    /// Go to a symbol's declaration (the signature): `textDocument/declaration`.
    "navigation.goToDeclaration" ("ref: ObjectRef, locator: Locator") -> "Location | Location[] | LocationLink[] | null" = on_object!(Main, navigation::go_to_declaration);

    /// Hover information (ABAP signature and ABAP Doc, or CDS element information):
    /// `textDocument/hover` after priming adt-ls's token cache.
    "navigation.hover" ("ref: ObjectRef, locator: Locator") -> "Hover | null" = on_object!(Main, navigation::hover);

    /// Read, write and text occurrences of the symbol in the document
    /// (`textDocument/documentHighlight`).
    "navigation.documentHighlight" ("ref: ObjectRef, locator: Locator") -> "DocumentHighlight[] | null" = on_object!(Main, navigation::document_highlight);

    /// Where-used (`textDocument/references`), raced against `timeoutMs` (heavily used globals
    /// can take long); rejects when the limit passes.
    "navigation.findReferences" ("ref: ObjectRef, locator: Locator, opts?: { includeDeclaration?: boolean; timeoutMs?: number }") -> "Location[] | null"
        = on_object!(Main, navigation::find_references);

    /// The inheritance / implementation tree: `textDocument/prepareTypeHierarchy`, then
    /// `typeHierarchy/supertypes` and / or `typeHierarchy/subtypes` (default both).
    "navigation.typeHierarchy" ("ref: ObjectRef, locator: Locator, opts?: { direction?: 'supertypes' | 'subtypes' | 'both' }") -> "TypeHierarchyResult"
        = on_object!(Main, navigation::type_hierarchy);

    /// Code completion at a position (`textDocument/completion`, capped at `maxItems`); with
    /// `resolve`, items are enriched with `completionItem/resolve` (signatures, ABAP Doc).
    "navigation.completion" ("ref: ObjectRef, locator: Locator, opts?: { maxItems?: number; resolve?: boolean; resolveLimit?: number }") -> "CompletionResult"
        = on_object!(Main, navigation::completion);

    /// Format the whole document with the ABAP pretty printer (`textDocument/formatting`):
    /// the formatted source plus the raw LSP edits.
    "navigation.format" ("ref: ObjectRef, opts?: { tabSize?: number; insertSpaces?: boolean }") -> "{\
         \n  /** The whole formatted source. */\
         \n  formatted: string\
         \n  /** adt-ls's LSP edits that turn the current source into `formatted`. */\
         \n  edits: TextEdit[]\
         \n}"
        = on_object!(Main, navigation::format);

    /// Semantic tokens for the object (`textDocument/semanticTokens/full`), decoded to
    /// absolute, name-resolved tokens with the server's legend.
    "navigation.semanticTokens" ("ref: ObjectRef") -> "{\
         \n  /** The server's legend the tokens were decoded with. */\
         \n  legend: SemanticTokensLegend\
         \n  /** The tokens in document order. */\
         \n  tokens: DecodedToken[]\
         \n}"
        = on_object!(Main, navigation::semantic_tokens);

    /// List the ATC check variants in the object's context (`adtLs/atc/getCheckVariants`; a
    /// blank `query` asks for `*`).
    "quality.listAtcVariants" ("ref: ObjectRef, opts?: { query?: string }") -> "unknown" = polled!(quality::list_atc_variants);

    /// Run ABAP Test Cockpit static analysis (`adtLs/atc/runCheck`; empty `checkVariant` =
    /// system default). Report only; rejects when `timeoutMs` (default 60 000) passes.
    /// `onProgress` gets adt-ls's `$/progress` reports (docs/events.md#progress).
    "quality.runAtc" ("ref: ObjectRef, opts?: { checkVariant?: string; timeoutMs?: number } & ProgressOptions") -> "AtcRunResult"
        = polled!(quality::run_atc);

    /// Run ABAP Unit with code coverage (`adtLs/abapUnit/runTests`, then
    /// `adtLs/coverage/getCoverage`) -> `{ status, result, coverage }`. Rejects when
    /// `timeoutMs` (default 120 000) passes. `onProgress` gets adt-ls's `$/progress` reports
    /// (docs/events.md#progress).
    "quality.runUnitTestsWithCoverage" ("ref: ObjectRef, opts?: { timeoutMs?: number } & ProgressOptions") -> "UnitTestsWithCoverage"
        = polled!(quality::run_unit_tests_with_coverage);

    /// Run an executable object (classrun, program) and return its console output
    /// (`adtLs/run/runApplication`).
    "services.runApplication" ("ref: ObjectRef") -> "{\
         \n  /** Everything the application wrote to its console. */\
         \n  output: string\
         \n}" = polled!(services::run_application);

    /// A service binding's details as adt-ls answers them: its name, service type, OData
    /// version, service definitions and publish state
    /// (`adtLs/businessservice/srvb/getServiceBindingDetails`, after a warm-up read).
    "services.serviceBindingDetails" ("ref: ObjectRef") -> "ServiceBindingDetails" = polled!(services::service_binding_details);

    /// Publish (or unpublish) a service binding: mutating. Reads the binding details, then
    /// sends `adtLs/businessservice/srvb/publishandUnpublishAction` with the request adt-ls needs
    /// (`lsUri`, `serviceName`, `serviceVersion`, `bindingType`, `odataVersion`,
    /// `serviceBindingName`). `service` picks the service definition to toggle (an entry of the
    /// details' `services`, exact case; default the first): OData V2 toggles that definition's
    /// service, V4 the whole binding. Rejects before sending when the details have no OData
    /// version or no service (`ERR_BINDING_INCOMPLETE`), or `service` is not one of them
    /// (`ERR_NOT_FOUND`, listing the binding's definitions). Resolves adt-ls's answer.
    "services.publishServiceBinding" ("ref: ObjectRef, opts?: { service?: string }") -> "PublishServiceBindingResult" = polled!(services::publish_service_binding);

    /// The OData services a binding exposes (MCP tool `abap_business_services-fetch_services`).
    "services.listServices" ("ref: ObjectRef") -> "ServiceBindingServices" = polled!(services::list_services);

    /// Live OData service information, the service URL and entity sets, for one service of a
    /// binding (default the first): `fetch_services`, then `fetch_service_information`. The
    /// publish state comes from `fetch_services` (OData V4) or, when it says nothing (V2), from
    /// the binding details, which needs `ref.objectType` (`SRVB/SVB`) to find the binding.
    /// Rejects for an unknown service name (listing the binding's services), for an unpublished
    /// binding (`ERR_NOT_PUBLISHED`), and when the tool answers without a service URL
    /// (`ADT_TOOL_ERROR`).
    "services.getServiceInfo" ("ref: ObjectRef, opts?: { service?: string }") -> "ServiceInfo" = polled!(services::get_service_info);

    /// Object-scoped transport lookup, read-only (MCP tool `abap_transport-get`). Rejects with
    /// `find_transport failed: <text>` (`ADT_TOOL_ERROR`) when the tool reports an error, and
    /// also when its answer is not the data its schema promises: a plain-text refusal the tool
    /// did not flag (e.g. an object locked in a task of another client), or data without
    /// `isRecordingRequired`, `transportRequests` or `informationMessages`.
    "transport.find" ("args: { objectName: string; objectType: string; developmentPackage: string; isCreation: boolean }") -> "TransportInfo"
        = polled!(transport::find);

    /// Create a CTS transport request (MCP tool `abap_transport-create`). Rejects for local
    /// `$` packages before calling adt-ls. `objectName` and `objectType` are optional as in
    /// 0.5.0's declaration, but adt-ls 1.1.2's tool requires them: omitting them fails there.
    "transport.create" ("args: { developmentPackage: string; transportDescription: string; isCreation: boolean; objectName?: string; objectType?: string }") -> "TransportCreated"
        = polled!(transport::create);

    /// Assign an existing transport (request or task) to an object, confirmed against the CTS
    /// lock: `adtLs/cts/transport/checkTransportForObjectLock`, then
    /// `adtLs/cts/transport/assignTransportToObject`, then the lock check again (adt-ls answers
    /// `true` even for a transport that does not exist). Rejects with
    /// `Could not verify the CTS lock for <name>.` plus SAP's reason (`ERR_CTS_LOCK_UNVERIFIED`)
    /// when a lock check fails; when the first one fails, nothing is assigned. A task of the
    /// request that already holds the lock reads `assigned: false`: compare `lockedIn` with the
    /// task's request.
    "transport.assign" ("args: ObjectRef & { transport: string }") -> "{\
         \n  /** adt-ls executed the assignment and the object is now locked in `transport`, or was unlocked and is now locked (a task locks its request). */\
         \n  assigned: boolean\
         \n  /** The object's name, as passed. */\
         \n  object: string\
         \n  /** The object's ADT type code, as passed. */\
         \n  objectType: string\
         \n  /** The transport request, as passed. */\
         \n  transport: string\
         \n  /** The transport requests (upper case) that lock the object after the assignment. */\
         \n  lockedIn: string[]\
         \n}"
        = polled!(transport::assign);

    /// Your modifiable transports (`adtLs/cts/transport/searchTransports`), filtered by
    /// `query` and capped at `limit`.
    "transport.list" ("opts?: { limit?: number; query?: string }") -> "TransportList" = polled!(transport::list);

    /// The transport decision: does this operation need a transport, which are assignable, is
    /// the object locked (`adtLs/cts/transport/checkTransportForObjectLock`; `operation`
    /// defaults to MODIFY).
    "transport.check" ("args: ObjectRef & { operation?: 'CREATE' | 'MODIFY' | 'DELETE'; transportLayer?: string; recordChanges?: boolean }") -> "TransportCheck"
        = polled!(transport::check);

    /// An object's lock status (`adtLs/fileSystem/getFileLockStatus`).
    "transport.getLockStatus" ("args: ObjectRef") -> "{\
         \n  /** The system supports locking this object (`false` when adt-ls does not say). */\
         \n  lockingSupported: boolean\
         \n  /** The lock handle; `null` when the object is not locked. */\
         \n  lockId: string | null\
         \n}"
        = polled!(transport::get_lock_status);

    /// One page of a transport's unified diff (MCP tool `abap_transport-unifiedDifference`);
    /// pass `nextCursor` back until `batchInfo.status` is `completed`. Rejects for a blank
    /// transport number or a `pageSize` outside 1..40.
    "transport.getDiff" ("transportNumber: string, opts?: { cursor?: string; pageSize?: number }") -> "TransportDiffPage"
        = polled!(transport::get_diff);

    /// Any LSP or `adtLs/*` request, with the re-logon wrapper; resolves the raw result.
    "raw.lsp" <"T = unknown"> ("method: string, params?: unknown") -> "T" = at_call!(raw::lsp);

    /// Call a tool of adt-ls's own MCP server (e.g. a backend-dynamic tool); resolves the MCP
    /// `CallToolResult` untouched (`isError` results included; unwrap with `parseFederated`).
    "raw.tool" ("name: string, args?: Record<string, unknown>") -> "CallToolResult" = at_call!(raw::tool);

    /// The ABAP destinations adt-ls knows (MCP tool `abap_list_destinations`, unwrapped);
    /// works without a connected destination.
    "listDestinations" () -> "AdtLsDestination[]" = at_call!(raw::list_destinations);

    /// Log on to SAP again now; `true` when the session is live afterwards (`false` in
    /// foundation mode). Dead sessions are also healed automatically.
    "reconnect" () -> "boolean" = at_call!(raw::reconnect);
}

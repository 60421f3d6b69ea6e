// The shared state of one simulated adt-ls process. Every handler module receives the same
// `ctx` and registers its LSP handlers on `ctx.connection`.
//
// Ownership (while the simulator is being built):
//   lib/server.mjs, lib/context.mjs, lib/config.mjs, lib/trace.mjs, lib/shell/*,
//   lib/native/*, lib/install*.mjs, bin/*                                          -> LSP shell
//   lib/logon/*, lib/sap/*, lib/backend-client.mjs                                -> SAP side
//   lib/mcp/*                                                                      -> MCP server
//
// Contract (do not change shapes without updating every module):
//   ctx.config       parsed configuration (see lib/config.mjs)
//   ctx.connection   the vscode-jsonrpc MessageConnection to the SDK. Its onRequest(method,
//                    handler) is gated (see lib/shell/gates.mjs): a missing userAgentInfos or a
//                    bad workspace/configuration answer fail requests before the handler runs.
//                    Untyped handlers get array params spread: ["A4H"] -> handler('A4H', token).
//                    Never register a star handler (onRequest(fn)): the shell's dispatcher is one.
//   ctx.onRequest(method, handler)  alternative registration (lib/shell/dispatch.mjs): the
//                    handler gets (params, {raw, method, token}) with a one-element array
//                    unwrapped and `raw` exactly as on the wire; errors keep message/code/data.
//   ctx.log(text)    write a line to stderr, as the real JVM prints its log
//   ctx.trace(ev)    append an event to the wire trace when one is enabled
//   ctx.state        mutable process state:
//       initializeParams, initialized (bool), destinationsStorePath (string|undefined),
//       destinations: Map<id, {id, systemUrl, user, client, language, logonState}>,
//       mcp: running MCP server handle or null,
//       userAgentInfosMissing (bool; set by initialize),
//       configurationProbe: 'pending' | 'ok' | 'bad' | 'skipped' | undefined (before initialized),
//       startup: {configuration, registerCapability, workDoneProgressCreate} -> {result}|{error}
//   ctx.backend(id)  -> BackendClient | undefined   (a logged-on session to the SAP backend)
//   ctx.setBackend(id, client|undefined)
//   ctx.defaultDestination() -> the single logged-on destination id, or undefined
//
// BackendClient: { call(op, payload) -> Promise<any> } where `op` is the adt-ls method or
// tool name being served (e.g. 'adtLs/repository/quickSearch', 'tool:abap_transport-get')
// and `payload` its params/arguments. It rejects with an Error carrying `.code` and `.data`
// when the backend answers with an error, which handlers turn into JSON-RPC errors.

export function createContext({ config, connection, log, trace, onRequest }) {
  const backends = new Map();
  const ctx = {
    config,
    connection,
    log,
    trace,
    onRequest,
    state: {
      initializeParams: undefined,
      initialized: false,
      destinationsStorePath: undefined,
      destinations: new Map(),
      mcp: null,
      userAgentInfosMissing: false,
      configurationProbe: undefined,
      startup: {},
    },
    backend(id) {
      return backends.get(id);
    },
    setBackend(id, client) {
      if (client) backends.set(id, client);
      else backends.delete(id);
    },
    defaultDestination() {
      for (const id of backends.keys()) return id;
      return undefined;
    },
  };
  return ctx;
}

// Test hooks for exercising an LSP client against the simulator. They are not adt-ls methods
// (real adt-ls answers them "method not found"); the `sim/` prefix keeps them apart:
//   sim/echo        -> returns its params as received (after the usual one-element unwrap)
//   sim/never       -> never answers (for timeouts, crashes and dispose)
//   sim/slow        -> answers `{slow: true}` after `params.ms` (default 200) milliseconds
//   sim/askClient   -> sends the server->client request `{method, params}` to the SDK and
//                      returns `{result}` or `{error: {code, message}}`, or `{timedOut: true}`
//                      when the SDK does not answer within `timeoutMs` (default 5000)
//   sim/notifyClient -> sends the server->client notification `{method, params}` to the SDK,
//                      then answers `null`

export function registerTestHooks(ctx) {
  ctx.onRequest('sim/echo', (params) => params);
  ctx.onRequest('sim/never', () => new Promise(() => {}));
  ctx.onRequest('sim/slow', async (params) => {
    await new Promise((resolve) => setTimeout(resolve, params?.ms ?? 200));
    return { slow: true };
  });
  ctx.onRequest('sim/askClient', async (params) => {
    const { method, params: args, timeoutMs = 5000 } = params ?? {};
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve({ timedOut: true }), timeoutMs);
    });
    const ask = (args === undefined ? ctx.connection.sendRequest(method) : ctx.connection.sendRequest(method, args)).then(
      (result) => ({ result: result ?? null }),
      (error) => ({ error: { code: error.code, message: error.message } }),
    );
    try {
      return await Promise.race([ask, timeout]);
    } finally {
      clearTimeout(timer);
    }
  });
  ctx.onRequest('sim/notifyClient', async (params) => {
    const { method, params: args } = params ?? {};
    await (args === undefined ? ctx.connection.sendNotification(method) : ctx.connection.sendNotification(method, args));
    return null;
  });
  ctx.connection.onNotification('sim/note', () => {});
}

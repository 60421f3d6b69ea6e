// The logon settings from ctx.config: the `logon` / `backend` sections that lib/config.mjs
// fills from ADTLS_SIM_LOGON_* / ADTLS_SIM_BACKEND_* (e.g. ADTLS_SIM_LOGON_TIMEOUT_MS), or
// flat keys for in-process use (`logonTimeoutMs`, `logonInput`, `javaToolOptions`,
// `backendTimeoutMs`, `logonUrlOrigin`).

const DEFAULT_TIMEOUT_MS = 15_000;

export function logonSettings(ctx) {
  const config = ctx.config ?? {};
  const logon = config.logon ?? {};
  const backend = config.backend ?? {};
  let javaToolOptions = process.env.JAVA_TOOL_OPTIONS;
  if ('javaToolOptions' in logon) javaToolOptions = logon.javaToolOptions;
  else if ('javaToolOptions' in config) javaToolOptions = config.javaToolOptions;
  return {
    timeoutMs: Number(logon.timeoutMs ?? config.logonTimeoutMs ?? DEFAULT_TIMEOUT_MS),
    input: logon.input ?? config.logonInput,
    javaToolOptions: javaToolOptions === undefined || javaToolOptions === null ? undefined : String(javaToolOptions),
    backendTimeoutMs: backend.timeoutMs ?? config.backendTimeoutMs,
    urlOrigin: logon.urlOrigin ?? config.logonUrlOrigin,
  };
}

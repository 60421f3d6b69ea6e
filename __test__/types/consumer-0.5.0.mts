// Consumer code as users wrote it against @marianfoo/adt-ls 0.5.0 (only the import path
// changed): raw results handed to the helpers, results kept in variables and fields typed
// with the exported types, destructured namespaces, options built up step by step, every
// logon strategy factory, small wrappers typed with the namespace interfaces. Compiled with
// tsc (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess), never run.
import {
  AdtLsDriver,
  applyTextEdits,
  basic,
  bearer,
  clientCert,
  createAdtLs,
  custom,
  interactive,
  parseFederated,
  resolveAdtLsPath,
  setLogger,
  startMcpServer,
  startMcpServerWithFallback,
  stderrLogger,
} from 'adt-ls-native';
import type {
  ActivateResult,
  AdtLsClient,
  CreateAdtLsOptions,
  CreateResult,
  FederatedResult,
  HealthInfo,
  Logger,
  LogonStrategy,
  LspRequester,
  Navigation,
  ObjectRef,
  QuickSearchResult,
  SearchReference,
  ServiceInfo,
  StartMcpServerResult,
  TextEdit,
} from 'adt-ls-native';
import { readFileSync } from 'node:fs';

// --- options assembled from the environment -------------------------------------------------
function strategyFromEnv(env: NodeJS.ProcessEnv): LogonStrategy {
  if (env.SAP_TOKEN) return bearer(env.SAP_TOKEN, { user: env.SAP_USER ?? 'DEVELOPER' });
  if (env.SAP_TOKEN_CMD) return bearer(async () => (await fetch(env.SAP_TOKEN_CMD!)).text());
  if (env.SAP_TOKEN_SYNC) return bearer(() => 'static');
  if (env.SAP_CERT && env.SAP_KEY) return clientCert({ cert: readFileSync(env.SAP_CERT), key: readFileSync(env.SAP_KEY, 'utf8') });
  if (env.SAP_SSO) {
    return interactive({
      openUrl: async (url) => {
        console.log(`open ${url}`);
      },
      promptField: async (field) => (field.sensitive ? env.SAP_PW : env.SAP_USER),
      user: 'DEVELOPER',
    });
  }
  if (env.SAP_CUSTOM) {
    return custom((driver, ctx) => {
      driver.setRequestHandler('adtLs/destinations/requestBrowserBasedLogon', async () => ctx.insecure === true);
    });
  }
  return basic(env.SAP_USER ?? 'DEVELOPER', env.SAP_PW ?? '');
}

const options: CreateAdtLsOptions = { connection: { systemUrl: process.env.SAP_URL ?? 'https://my-s4:50001' } };
options.auth = strategyFromEnv(process.env);
if (process.env.SAP_CLIENT && options.connection) options.connection.client = process.env.SAP_CLIENT;
if (process.env.ADT_LS_PATH) options.adtLs = { path: process.env.ADT_LS_PATH };
options.keepAlive = process.env.KEEPALIVE !== '0';
options.mcpPort = Number(process.env.MCP_PORT ?? 2240);
const strategies: LogonStrategy[] = [basic('U', 'P'), bearer('t'), clientCert({ cert: 'pem', key: 'pem', user: 'U' })];

const adt: AdtLsClient = await createAdtLs(options);

// --- raw results into the helpers -------------------------------------------------------------
const destinations = parseFederated(await adt.raw.tool('abap_list_destinations'));
if (destinations.ok) console.log(destinations.text);
const federated: FederatedResult = { content: [{ text: '[]' }] };
const { ok, data } = parseFederated(federated);
const listed = parseFederated(await adt.listDestinations());
const raw: unknown = await adt.raw.tool('abap_get_object_info', { objectName: 'ZCL_X' });
const viaLsp = await adt.raw.lsp<{ uri: string }>('adtLs/repository/getLsUri', { adtUri: '/sap/bc/adt/x' });

// --- results stored in typed variables and fields --------------------------------------------
class ObjectCache {
  lastSearch: QuickSearchResult | undefined;
  activations: ActivateResult[] = [];
  created = new Map<string, CreateResult>();
  health?: HealthInfo;
}
const cache = new ObjectCache();
cache.lastSearch = await adt.repository.search('ZCL_*', { maxResults: 10 });
const firstHit: SearchReference | undefined = cache.lastSearch.references[0];
const names: string[] = cache.lastSearch.references.map((r) => r.name);
const ref: ObjectRef = { name: firstHit?.name ?? 'ZCL_X', objectType: firstHit?.type ?? 'CLAS/OC' };
cache.created.set(ref.name, await adt.lifecycle.create({ ...ref, packageName: '$TMP', description: 'demo' }));
cache.activations.push(await adt.lifecycle.activate(ref));
cache.health = adt.health();
let info: ServiceInfo | undefined;
info = await adt.services.getServiceInfo({ name: 'ZUI_X_O4', objectType: 'SRVB/SVB' });
const failed = cache.activations.filter((a) => !a.success).flatMap((a) => a.diagnostics);
type SearchResult = Awaited<ReturnType<AdtLsClient['repository']['search']>>;
const again: SearchResult = await adt.repository.search('ZCL_*');

// --- destructured namespaces and wrappers typed with the namespace interfaces -------------
const { search, readFile, getLsUri } = adt.repository;
const { read } = adt.source;
const { activate, update } = adt.lifecycle;
const hits = await search('CL_ABAP*', { types: ['CLAS/OC'] });
const content: string = await readFile(await getLsUri('/sap/bc/adt/oo/classes/zcl_x'));
await update({ ...ref, source: await read(ref) });
await activate({ ...ref, forceActivation: true });

async function symbolsOf(nav: Navigation, target: ObjectRef): Promise<unknown> {
  return nav.documentSymbols(target);
}
async function reformat(nav: AdtLsClient['navigation'], target: ObjectRef): Promise<string> {
  const source = await adt.source.read(target);
  const { edits }: { edits: TextEdit[] } = await nav.format(target, { tabSize: 4 });
  return applyTextEdits(source, edits);
}
function repositoryOnly(client: Pick<AdtLsClient, 'repository' | 'source'>): Promise<QuickSearchResult> {
  return client.repository.search('Z*');
}
await symbolsOf(adt.navigation, ref);
await reformat(adt.navigation, ref);
await repositoryOnly(adt);

// --- transport calls written against 0.5.0 (objectName/objectType were optional) -------------
await adt.transport.create({ developmentPackage: 'ZPKG', transportDescription: 'demo', isCreation: true });
await adt.transport.find({ objectName: ref.name, objectType: ref.objectType, developmentPackage: 'ZPKG', isCreation: false });

// --- the driver, a logger and the MCP server helpers ------------------------------------------
class PrefixLogger implements Logger {
  debug(msg: string): void {}
  info(msg: string): void {}
  warn(msg: string): void {}
  error(msg: string): void {}
}
setLogger(new PrefixLogger());
setLogger(stderrLogger('[adt]'));
const driver = new AdtLsDriver(resolveAdtLsPath({ repoRoot: process.cwd() }), { dataDir: '/tmp/adt' });
const requester: LspRequester = {
  sendRequest: async <T,>(method: string, params?: unknown): Promise<T> => driver.sendRequest<T>(method, params),
};
const server: StartMcpServerResult = await startMcpServerWithFallback((port) => startMcpServer(requester, { port, token: 'secret' }), 2240, 5);
const url = `http://127.0.0.1:${server.port}/mcp`;

await adt.dispose();
void [strategies, ok, data, listed, raw, viaLsp.uri, names, info, failed, again, hits, content, url];

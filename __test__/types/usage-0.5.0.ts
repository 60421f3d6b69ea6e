// Code written against @marianfoo/adt-ls@0.5.0's declarations must type-check unchanged
// against adt-ls-native's (docs/decisions.md#d3). Compiled with tsc --strict, never run.
import {
  AdtLsDriver,
  MINIMUM_ADT_LS_VERSION,
  REQUIRED_SAPSE_ADT_VSCODE_VERSION,
  VERIFIED_ADT_LS_VERSION,
  applyTextEdits,
  assertSupportedAdtLsVersion,
  basic,
  bearer,
  clientCert,
  composeSpawnArgs,
  createAdtLs,
  custom,
  decodeSemanticTokens,
  defaultExtensionDirs,
  interactive,
  isSupportedAdtLsVersion,
  parseAdtLsVersion,
  parseFederated,
  platformSubPath,
  resolveAdtLsPath,
  setLogger,
  setMcpDestination,
  silentLogger,
  startMcpServer,
  startMcpServerWithFallback,
  stderrLogger,
  stopMcpServer,
} from 'adt-ls-native';
import type {
  ActivateResult,
  AdtLsClient,
  AdtLsDriverOptions,
  AdtLsInitializeResult,
  ConnectionOptions,
  CreateAdtLsOptions,
  CreateResult,
  CreationField,
  DecodedToken,
  DiscoverOptions,
  FederatedResult,
  HealthInfo,
  InteractiveCallbacks,
  Locator,
  Logger,
  LogonContext,
  LogonHandlerRegistrar,
  LogonStrategy,
  LspClient,
  LspRequester,
  Navigation,
  ObjectRef,
  Position,
  Quality,
  QuickSearchResult,
  SearchReference,
  SemanticTokensLegend,
  ServerRequestHandler,
  ServiceBindingServices,
  ServiceInfo,
  Services,
  StartMcpServerResult,
  TextEdit,
  UserRef,
} from 'adt-ls-native';

async function main(): Promise<void> {
  const versions: string[] = [MINIMUM_ADT_LS_VERSION, REQUIRED_SAPSE_ADT_VSCODE_VERSION, VERIFIED_ADT_LS_VERSION];
  const parsed = parseAdtLsVersion('1.1.2');
  if (parsed) {
    const [major, minor, patch]: readonly [number, number, number] = parsed;
    void [major, minor, patch];
  }
  const ok: boolean = isSupportedAdtLsVersion(undefined) && isSupportedAdtLsVersion('1.1.2');
  assertSupportedAdtLsVersion(versions[0]);

  const sub: string[] = platformSubPath('darwin', 'arm64');
  const dirs: string[] = defaultExtensionDirs('/home/me');
  const discover: DiscoverOptions = { explicitPath: '/x', repoRoot: '.', extensionsDir: '/e', extensionsDirs: ['/e'], platform: 'linux', arch: 'x64' };
  const bin: string = resolveAdtLsPath(discover);
  const argv: string[] = composeSpawnArgs({ dataDir: '/d', pipeName: '/p', extraArgs: ['-consoleLog'] });

  const logger: Logger = stderrLogger('[x]');
  setLogger(logger);
  setLogger(silentLogger);
  setLogger({ debug() {}, info() {}, warn() {}, error() {} });

  const handler: ServerRequestHandler = async (params: unknown) => params;
  const driverOptions: AdtLsDriverOptions = {
    dataDir: '/tmp/d',
    extraEnv: { A: 'b' },
    extraArgs: ['-x'],
    requestHandlers: { 'x/y': handler, 'x/z': () => true },
    clientInfo: { name: 'me', version: '1' },
  };
  const driver = new AdtLsDriver(bin, driverOptions);
  driver.setRequestHandler('workspace/configuration', (p) => [null]);
  const init: AdtLsInitializeResult = await driver.start(60_000);
  const name: string | undefined = init.serverInfo?.name;
  const caps: Record<string, unknown> = init.capabilities;
  const maybeInit: AdtLsInitializeResult | undefined = driver.initializeResult;
  const typed = await driver.sendRequest<{ uri: string }>('adtLs/repository/getLsUri', { destination: 'A', adtUri: '/x' });
  const uri: string = typed.uri;
  await driver.sendNotification('textDocument/didClose', { textDocument: { uri } });
  const requester: LspRequester = driver;
  const lspClient: LspClient = driver;
  const registrar: LogonHandlerRegistrar = driver;

  const started: StartMcpServerResult = await startMcpServer(requester, { port: 2240, token: 't' });
  const effective: number = started.port;
  const fallback: StartMcpServerResult = await startMcpServerWithFallback((port) => startMcpServer(driver, { port, token: 't' }), 2240, 20, (busy: number) => {});
  await startMcpServerWithFallback(async (port) => ({ port, token: 't' }), 2240);
  await setMcpDestination(driver, 'ADTLS');
  await stopMcpServer(driver);
  await driver.dispose();

  const fed: FederatedResult = { content: [{ text: '{}' }], isError: false, structuredContent: {} };
  const unwrapped: { ok: boolean; data: unknown; text: string } = parseFederated(fed);

  const edits: TextEdit[] = [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, newText: 'x' }];
  const text: string = applyTextEdits('abc', edits);
  const legend: SemanticTokensLegend = { tokenTypes: ['class'], tokenModifiers: [] };
  const tokens: DecodedToken[] = decodeSemanticTokens([0, 0, 1, 0, 0], legend);
  const noTokens: DecodedToken[] = decodeSemanticTokens(undefined, legend);
  const pos: Position = { line: 0, character: 0 };

  const s1: LogonStrategy = basic('u', 'p');
  const s2: LogonStrategy = bearer('t');
  const s3: LogonStrategy = bearer(async () => 't', { user: 'U' });
  const s4: LogonStrategy = bearer(() => 't');
  const s5: LogonStrategy = clientCert({ cert: 'pem', key: Buffer.from('k'), user: 'U' });
  const cb: InteractiveCallbacks = { openUrl: async (url: string) => {}, promptField: async (f) => (f.sensitive ? 'x' : undefined), user: 'U' };
  const s6: LogonStrategy = interactive(cb);
  const s7: LogonStrategy = interactive({ openUrl: (url) => {} });
  const s8: LogonStrategy = custom((d: LogonHandlerRegistrar, ctx: LogonContext) => {
    d.setRequestHandler('adtLs/destinations/requestBrowserBasedLogon', () => true);
    const insecure: boolean | undefined = ctx.insecure;
  }, { user: 'U' });
  const kind: 'basic' | 'bearer' | 'interactive' | 'custom' | 'clientCert' = s1.kind;
  const user: string | undefined = s1.user;
  const certs = s5.clientCert;
  s1.register(driver, { insecure: true });
  const own: LogonStrategy = { kind: 'custom', register(d, ctx) {} };

  const connection: ConnectionOptions = {
    systemUrl: 'https://h:1',
    client: '001',
    language: 'EN',
    selfSigned: true,
    extraCaCerts: ['/ca.pem'],
    forwardProxy: { host: 'p', port: 3128 },
    probe: { pattern: 'CL_ABAP_TYPEDESCR', types: ['CLAS/OC'] },
  };
  const options: CreateAdtLsOptions = { adtLs: { path: bin, extraArgs: [] }, connection, auth: s1, destinationId: 'A', mcpPort: 2240, keepAlive: false };
  const adt: AdtLsClient = await createAdtLs(options);
  const foundation: AdtLsClient = await createAdtLs({});
  const health: HealthInfo = adt.health();
  const port: number = health.mcpPort;

  const ref: ObjectRef = { name: 'ZCL_X', objectType: 'CLAS/OC' };
  const found: QuickSearchResult = await adt.repository.search('ZCL_*', { maxResults: 5, types: ['CLAS/OC'], cold: true });
  const hit: SearchReference | undefined = found.references[0];
  const users: UserRef[] = await adt.repository.getUsers();
  const lsUri: string = await adt.repository.getLsUri('/sap/bc/adt/oo/classes/zcl_x');
  const content: string = await adt.repository.readFile(lsUri);
  await adt.repository.writeFile(lsUri, content);
  await adt.repository.delete(lsUri);
  const inactive: unknown[] = await adt.repository.listInactive();
  const source: string = await adt.source.read({ ...ref, include: 'testclasses' });
  const affUri: string = await adt.lifecycle.resolveAffUri(ref);
  const created: CreateResult = await adt.lifecycle.create({ objectType: 'CLAS/OC', name: 'ZCL_X', packageName: '$TMP', description: 'd', transportRequestNumber: '' });
  await adt.lifecycle.update({ ...ref, source: 'x', include: 'main' });
  const activated: ActivateResult = await adt.lifecycle.activate({ ...ref, forceActivation: true });
  const success: boolean = activated.success;
  await adt.lifecycle.runUnitTests(ref);
  await adt.lifecycle.delete(ref);
  await adt.lifecycle.generate({ generatorId: 'g', content: '{}', packageName: '$TMP', transportRequestNumber: '', referencedObjectType: '', referencedObjectName: '' });
  await adt.lifecycle.validate({ objectType: 'CLAS/OC', name: 'ZCL_X', packageName: '$TMP', description: 'd' });
  await adt.lifecycle.listCreatableObjects();
  await adt.lifecycle.getObjectTypeDetails('CLAS/OC', { name: 'ZCL_X' });
  const form: { objectType: string; fields: CreationField[] } = await adt.lifecycle.getCreationForm('CLAS/OC');
  await adt.lifecycle.listGenerators();
  await adt.lifecycle.getGeneratorSchema('g', { packageName: '$TMP', referencedObjectType: '', referencedObjectName: '' });
  const nav: Navigation = adt.navigation;
  const loc: Locator = { symbol: 'run' };
  await nav.documentSymbols(ref);
  await nav.checkSyntax(ref);
  await nav.goToDefinition(ref, loc);
  await nav.goToDeclaration(ref, { line: 1, character: 1 });
  await nav.hover(ref, loc);
  await nav.documentHighlight(ref, loc);
  await nav.findReferences(ref, loc, { includeDeclaration: false, timeoutMs: 1000 });
  await nav.typeHierarchy(ref, loc, { direction: 'both' });
  await nav.completion(ref, loc, { maxItems: 5, resolve: true, resolveLimit: 2 });
  const formatted: { formatted: string; edits: TextEdit[] } = await nav.format(ref, { tabSize: 2, insertSpaces: true });
  const semantic: { legend: SemanticTokensLegend; tokens: DecodedToken[] } = await nav.semanticTokens(ref);
  const quality: Quality = adt.quality;
  await quality.listAtcVariants(ref, { query: '*' });
  await quality.runAtc(ref, { checkVariant: '', timeoutMs: 1000 });
  await quality.runUnitTestsWithCoverage(ref, { timeoutMs: 1000 });
  const services: Services = adt.services;
  const output: { output: string } = await services.runApplication(ref);
  await services.serviceBindingDetails(ref);
  await services.publishServiceBinding(ref);
  const bindings: ServiceBindingServices = await services.listServices(ref);
  const info: ServiceInfo = await services.getServiceInfo(ref, { service: 'S' });
  await adt.transport.find({ objectName: 'ZCL_X', objectType: 'CLAS/OC', developmentPackage: 'Z', isCreation: false });
  await adt.transport.create({ developmentPackage: 'Z', transportDescription: 'd', isCreation: true, objectName: 'ZCL_X', objectType: 'CLAS/OC' });
  const assigned: { assigned: boolean; object: string; objectType: string; transport: string } = await adt.transport.assign({ ...ref, transport: 'A4HK900001' });
  await adt.transport.list({ limit: 10, query: 'x' });
  await adt.transport.check({ ...ref, operation: 'MODIFY', transportLayer: '', recordChanges: true });
  const lock: { lockingSupported: boolean; lockId: string | null } = await adt.transport.getLockStatus(ref);
  const raw: { uri: string } = await adt.raw.lsp<{ uri: string }>('adtLs/repository/getLsUri', {});
  await adt.raw.tool('abap_list_destinations');
  await adt.raw.tool('abap_list_destinations', {});
  await adt.listDestinations();
  const revived: boolean = await adt.reconnect();
  await adt.dispose();
  await foundation.dispose();
  void [ok, sub, dirs, argv, name, caps, maybeInit, lspClient, registrar, effective, fallback, unwrapped, text, tokens, noTokens, pos, s2, s3, s4, s6, s7, s8, kind, user, certs, own, port, hit, users, inactive, source, affUri, created, success, form, formatted, semantic, output, bindings, info, assigned, lock, raw, revived];
}

void main;

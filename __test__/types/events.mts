// Events and progress as a TypeScript user writes them (docs/events.md): the event map types
// each listener's payload, unknown names and wrong fields do not compile, onProgress is
// accepted by the four long operations only, and driver.onNotification returns a remover.
// Compiled with tsc, never run.
import { AdtLsDriver, createAdtLs, basic } from 'adt-ls-native';
import type {
  AdtLsClient,
  AdtLsEventListener,
  AdtLsEventName,
  ExitEvent,
  HealthEvent,
  LogonStateEvent,
  ProgressOptions,
  ProgressReport,
  RelogonEvent,
} from 'adt-ls-native';

const adt: AdtLsClient = await createAdtLs({
  connection: { systemUrl: 'https://my-s4:50001' },
  auth: basic('DEVELOPER', 'secret'),
});

const offHealth: () => void = adt.on('health', (e: HealthEvent) => {
  const was: boolean = e.previous.backendLive;
  const now: boolean = e.current.connected;
  void [was, now];
});
adt.on('logonState', (e: LogonStateEvent) => {
  const state: string = e.logonState;
  const message: string | undefined = e.message;
  void [state, message, e.destinationId];
});
adt.once('relogon', async (e: RelogonEvent) => {
  const status: 'started' | 'succeeded' | 'failed' = e.status;
  const reason: 'call' | 'keepAlive' | 'reconnect' = e.reason;
  void [status, reason];
});
const onExit: AdtLsEventListener<'exit'> = (e: ExitEvent) => {
  const code: number | null = e.code;
  const signal: string | null = e.signal;
  const expected: boolean = e.expected;
  void [code, signal, expected];
};
adt.on('exit', onExit);
adt.off('exit', onExit);
offHealth();
const names: AdtLsEventName[] = ['logonState', 'health', 'relogon', 'exit'];
void names;

// @ts-expect-error unknown event name
adt.on('logon', () => {});
// @ts-expect-error the health payload has no logonState
adt.on('health', (e) => e.logonState);

const ref = { name: 'ZCL_TEST', objectType: 'CLAS/OC' };
const onProgress = (r: ProgressReport): void => {
  const done: number = r.progress;
  const total: number | undefined = r.total;
  void [done, total, r.message];
};
await adt.quality.runAtc(ref, { checkVariant: '', onProgress });
await adt.quality.runUnitTestsWithCoverage(ref, { timeoutMs: 60_000, onProgress });
await adt.lifecycle.activate({ ...ref, forceActivation: false, onProgress });
await adt.lifecycle.runUnitTests({ ...ref, onProgress: async () => {} });
const options: ProgressOptions = { onProgress };
void options;
// @ts-expect-error onProgress must be a function
await adt.quality.runAtc(ref, { onProgress: 'yes' });

const driver = new AdtLsDriver('/opt/adt-ls');
const off: () => void = driver.onNotification('adtLs/destinations/logonStateChanged', (params: unknown) => {
  void params;
});
off();
await adt.dispose();

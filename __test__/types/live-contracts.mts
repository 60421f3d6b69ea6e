// The SDK's live contracts (docs/decisions.md#d9) as a user of its newest version writes them
// (ESM): publishServiceBinding with a service definition and call options, assign's lockedIn,
// the live binding details, a choice field's values, getServiceInfo's publish state, and a
// custom strategy that sends ctx.client. Compiled with tsc, never run.
import { createAdtLs, basic, custom } from 'adt-ls-native';
import type {
  AdtLsClient,
  CreationField,
  CreationFieldValue,
  LogonContext,
  LogonHandlerRegistrar,
  LogonStrategy,
  PublishServiceBindingResult,
  ServiceBindingDetails,
  ServiceBindingServices,
} from 'adt-ls-native';

const adt: AdtLsClient = await createAdtLs({
  connection: { systemUrl: 'https://my-s4:50001', client: '100' },
  auth: basic('DEVELOPER', 'secret'),
  mcpPort: 2240,
});
const binding = { name: 'ZUI_X_O2', objectType: 'SRVB/SVB' };

const details: ServiceBindingDetails = await adt.services.serviceBindingDetails(binding);
const definitions: string[] = details.services ?? [];
const published: boolean | undefined = details.objectData?.published ?? details.srvbObjectData?.published;
const version: string | undefined = details.odataversion;
const first = definitions[0];
const toggled: PublishServiceBindingResult = await adt.services.publishServiceBinding(
  binding,
  first === undefined ? { timeoutMs: 60_000 } : { service: first, signal: AbortSignal.timeout(60_000) },
);
const plain: PublishServiceBindingResult = await adt.services.publishServiceBinding(binding);
const withOptions: PublishServiceBindingResult = await adt.services.publishServiceBinding(binding, { timeoutMs: 5_000 });

const listed: ServiceBindingServices = await adt.services.listServices(binding);
const v4Published: boolean | undefined = listed.isPublished;

const { assigned, lockedIn } = await adt.transport.assign({ name: 'ZCL_X', objectType: 'CLAS/OC', transport: 'A4HK900002' });
const requests: string[] = lockedIn;
const confirmed: boolean = assigned && requests.includes('A4HK900001');

const form = await adt.lifecycle.getCreationForm('SRVD/SRV');
const sourceType: CreationField | undefined = form.fields.find((f) => f.path === 'sourceType');
const legal: CreationFieldValue[] = sourceType?.values ?? [];
const firstValue: string | undefined = legal[0]?.value;
const title: string | undefined = legal[0]?.title;

const own: LogonStrategy = custom((driver: LogonHandlerRegistrar, ctx: LogonContext) => {
  const client: string = ctx.client ?? '001';
  driver.setRequestHandler('adtLs/destinations/requestBrowserBasedLogon', async (params) => {
    void params;
    void client;
    return true;
  });
});

void [toggled, plain, withOptions, published, version, v4Published, confirmed, firstValue, title, own];

// The seeded content of the simulated A4H system: packages, objects with sources,
// service bindings, transports, users and ATC check variants. Plain data; the
// repository clones it so every backend starts from the same state.
import * as src from './seed-sources.mjs';

const CHANGED_AT = '2026-09-01T08:00:00.000Z';

function object(name, type, packageName, description, sources, extra = {}) {
  return {
    name,
    type,
    packageName,
    description,
    owner: extra.owner ?? (packageName.startsWith('S') ? 'SAP' : 'DEVELOPER'),
    changedAt: CHANGED_AT,
    sources: sources ? { ...sources } : null,
    inactiveSources: null,
    ...extra,
  };
}

const V2_BINDING = {
  bindingType: 'ODATA',
  bindingCategory: 'UI',
  odataVersion: 'V2',
  isPublished: true,
  serviceDefinition: 'ZUI_SIM_FLIGHT',
  serviceVersion: '0001',
  serviceUrl: '/sap/opu/odata/sap/ZUI_SIM_FLIGHT_O2/',
  odataInfoUri: '/sap/bc/adt/businessservices/odatav2/ZUI_SIM_FLIGHT_O2',
  entitySets: [{ name: 'Flight', navigations: [] }],
};

const V4_BINDING = {
  bindingType: 'ODATA',
  bindingCategory: 'UI',
  odataVersion: 'V4',
  isPublished: false,
  serviceDefinition: 'ZUI_SIM_FLIGHT',
  serviceVersion: '0001',
  serviceUrl: '/sap/opu/odata4/sap/zui_sim_flight_o4/srvd/sap/zui_sim_flight/0001/',
  odataInfoUri: '/sap/bc/adt/businessservices/odatav4/ZUI_SIM_FLIGHT_O4',
  entitySets: [{ name: 'Flight', navigations: ['_Carrier'] }],
};

export function seedObjects() {
  return [
    object('CL_ABAP_TYPEDESCR', 'CLAS/OC', 'SABP_RTTI', 'Runtime Type Services', src.CL_ABAP_TYPEDESCR),
    object('CL_ABAP_STRUCTDESCR', 'CLAS/OC', 'SABP_RTTI', 'Runtime Type Services: Structures', src.CL_ABAP_TYPEDESCR),
    object('ZCL_TEST', 'CLAS/OC', '$TMP', 'Simulator test class', src.ZCL_TEST, {
      consoleOutput: '2 + 3 = 5\n',
    }),
    object('ZCL_TEST_EXTRA', 'CLAS/OC', '$TMP', 'Near-miss of ZCL_TEST', src.ZCL_TEST_EXTRA),
    object('ZCL_SIM_FLIGHT_QUERY', 'CLAS/OC', 'ZSIM_DEMO', 'Flight query', src.ZCL_SIM_FLIGHT_QUERY, {
      releasedSources: { main: src.ZCL_SIM_FLIGHT_QUERY_RELEASED },
    }),
    object('ZIF_SIM_FLIGHT', 'INTF/OI', 'ZSIM_DEMO', 'Flight access', src.ZIF_SIM_FLIGHT),
    object('ZSIM_REPORT', 'PROG/P', 'ZSIM_DEMO', 'Classic report', src.ZSIM_REPORT),
    object('ZSIM_FG', 'FUGR/F', 'ZSIM_DEMO', 'Classic function group', src.ZSIM_FG),
    object('SFLIGHT', 'TABL/DT', 'SAPBC_DATAMODEL', 'Flight', src.SFLIGHT),
    object('ZI_SIM_FLIGHT', 'DDLS/DF', 'ZSIM_DEMO', 'Flights', src.ZI_SIM_FLIGHT),
    object('ZUI_SIM_FLIGHT', 'SRVD/SRV', 'ZSIM_DEMO', 'Flight service', src.ZUI_SIM_FLIGHT),
    object('ZUI_SIM_FLIGHT_O2', 'SRVB/SVB', 'ZSIM_DEMO', 'Flight service (OData V2)', null, {
      binding: structuredClone(V2_BINDING),
    }),
    object('ZUI_SIM_FLIGHT_O4', 'SRVB/SVB', 'ZSIM_DEMO', 'Flight service (OData V4)', null, {
      binding: structuredClone(V4_BINDING),
    }),
    object('ZCL_SIM_SHARED', 'CLAS/OC', 'ZSIM_DEMO', 'Locked in a task of client 100', src.ZCL_SIM_SHARED),
    object('ZR_SIM_FLIGHT', 'BDEF/BDO', 'ZSIM_DEMO', 'Flight behaviour', src.ZR_SIM_FLIGHT),
    object('ZC_SIM_FLIGHT', 'DDLX/EX', 'ZSIM_DEMO', 'Flight UI annotations', src.ZC_SIM_FLIGHT),
    object('ZSIM_FLNR', 'NROB/NRO', 'ZSIM_DEMO', 'Flight numbers', null, {
      numberRange: { domain: 'S_CONN_ID', intervals: [{ number: '01', from: '0001', to: '9999' }] },
    }),
    // An object with an unfinished change: DEVELOPER saved a draft of the main file.
    object('ZCL_SIM_ORDER', 'CLAS/OC', 'ZSIM_DEMO', 'Order totals', src.ZCL_SIM_ORDER, {
      inactiveSources: { ...src.ZCL_SIM_ORDER, main: src.ZCL_SIM_ORDER_DRAFT },
      draft: { owner: 'DEVELOPER', parts: ['main'] },
    }),
  ];
}

export function seedPackages() {
  return [
    { name: '$TMP', description: 'Local Objects', transportLayer: '', local: true },
    { name: 'ZSIM_DEMO', description: 'Simulator demo package', transportLayer: 'ZA4H', local: false },
    { name: 'SABP_RTTI', description: 'Run Time Type Identification', transportLayer: 'SAP', local: false },
    { name: 'SAPBC_DATAMODEL', description: 'BC Data Model', transportLayer: 'SAP', local: false },
  ];
}

export function seedTransports() {
  return [
    {
      number: 'A4HK900101',
      description: 'Simulated flight demo',
      owner: 'DEVELOPER',
      status: 'modifiable',
      type: 'K',
      target: 'QA4',
      tasks: [{ number: 'A4HK900102', owner: 'DEVELOPER', status: 'modifiable' }],
      objects: [
        { name: 'ZIF_SIM_FLIGHT', type: 'INTF/OI' },
        { name: 'ZI_SIM_FLIGHT', type: 'DDLS/DF' },
        { name: 'ZUI_SIM_FLIGHT', type: 'SRVD/SRV' },
        { name: 'ZCL_SIM_FLIGHT_QUERY', type: 'CLAS/OC' },
      ],
    },
    {
      number: 'A4HK900103',
      description: 'Flight service bindings',
      owner: 'DEVELOPER',
      status: 'modifiable',
      type: 'K',
      target: 'QA4',
      tasks: [{ number: 'A4HK900104', owner: 'DEVELOPER', status: 'modifiable' }],
      objects: [
        { name: 'ZUI_SIM_FLIGHT_O2', type: 'SRVB/SVB' },
        { name: 'ZUI_SIM_FLIGHT_O4', type: 'SRVB/SVB' },
      ],
    },
    {
      // A request of another client: its lock on ZCL_SIM_SHARED cannot be checked from 001.
      number: 'A4HK900201',
      description: 'Shared class (client 100)',
      owner: 'DEVELOPER',
      status: 'modifiable',
      type: 'K',
      target: 'QA4',
      client: '100',
      tasks: [{ number: 'A4HK900202', owner: 'DEVELOPER', status: 'modifiable' }],
      objects: [{ name: 'ZCL_SIM_SHARED', type: 'CLAS/OC', task: 'A4HK900202' }],
    },
    {
      number: 'A4HK900090',
      description: 'Initial import (released)',
      owner: 'DEVELOPER',
      status: 'released',
      type: 'K',
      target: 'QA4',
      tasks: [],
      objects: [],
    },
  ];
}

export const SYSTEM_USERS = [
  { id: 'DDIC', text: 'Data Dictionary' },
  { id: 'SAP*', text: 'SAP Superuser' },
];

export const ATC_VARIANTS = [
  { name: 'DEFAULT', description: 'Default ATC variant of the system' },
  { name: 'ABAP_CLOUD_DEVELOPMENT_DEFAULT', description: 'ABAP Cloud development checks' },
  { name: 'SAP_CP_READINESS', description: 'SAP BTP ABAP environment readiness' },
];

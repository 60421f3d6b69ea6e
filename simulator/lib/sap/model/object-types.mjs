// The ABAP object types the simulated repository knows: ADT type code, repotree folder,
// AFF file naming, ADT path and whether adt-ls (VS Code flavour) serves their source. Types
// whose file suffix is `json` (service bindings, number range objects) are their JSON file
// alone: the main file is the metadata file, served from the object's data, not editable.

export const CLASS_INCLUDES = ['definitions', 'implementations', 'macros', 'testclasses'];

export const OBJECT_TYPES = {
  'CLAS/OC': {
    label: 'Class',
    folder: ['Source Code Library', 'Classes'],
    ext: 'clas',
    fileSuffix: 'abap',
    adtPath: '/sap/bc/adt/oo/classes/',
    supported: true,
    language: 'abap',
    includes: CLASS_INCLUDES,
  },
  'INTF/OI': {
    label: 'Interface',
    folder: ['Source Code Library', 'Interfaces'],
    ext: 'intf',
    fileSuffix: 'abap',
    adtPath: '/sap/bc/adt/oo/interfaces/',
    supported: true,
    language: 'abap',
  },
  'PROG/P': {
    label: 'Program',
    folder: ['Source Code Library', 'Programs'],
    ext: 'prog',
    fileSuffix: 'jsonc',
    adtPath: '/sap/bc/adt/programs/programs/',
    supported: false,
    language: 'abap',
  },
  'FUGR/F': {
    label: 'Function Group',
    folder: ['Source Code Library', 'Function Groups'],
    ext: 'fugr',
    fileSuffix: 'jsonc',
    adtPath: '/sap/bc/adt/functions/groups/',
    supported: false,
    language: 'abap',
  },
  'TABL/DT': {
    label: 'Database Table',
    folder: ['Dictionary', 'Database Tables'],
    ext: 'tabl',
    fileSuffix: 'acds',
    adtPath: '/sap/bc/adt/ddic/tables/',
    supported: true,
    language: 'ddl',
  },
  'DDLS/DF': {
    label: 'Data Definition',
    folder: ['Core Data Services', 'Data Definitions'],
    ext: 'ddls',
    fileSuffix: 'acds',
    adtPath: '/sap/bc/adt/ddic/ddl/sources/',
    supported: true,
    language: 'ddl',
  },
  'BDEF/BDO': {
    label: 'Behavior Definition',
    folder: ['Core Data Services', 'Behavior Definitions'],
    ext: 'bdef',
    fileSuffix: 'acds',
    adtPath: '/sap/bc/adt/bo/behaviordefinitions/',
    supported: true,
    language: 'ddl',
  },
  'SRVD/SRV': {
    label: 'Service Definition',
    folder: ['Business Services', 'Service Definitions'],
    ext: 'srvd',
    fileSuffix: 'acds',
    adtPath: '/sap/bc/adt/ddic/srvd/sources/',
    supported: true,
    language: 'ddl',
  },
  'DDLX/EX': {
    label: 'Metadata Extension',
    folder: ['Core Data Services', 'Metadata Extensions'],
    ext: 'ddlx',
    fileSuffix: 'acds',
    adtPath: '/sap/bc/adt/ddic/ddlx/sources/',
    supported: true,
    language: 'ddl',
  },
  'NROB/NRO': {
    label: 'Number Range Object',
    folder: ['Dictionary', 'Number Range Objects'],
    ext: 'nrob',
    fileSuffix: 'json',
    adtPath: '/sap/bc/adt/numberranges/objects/',
    supported: true,
    language: 'json',
  },
  'SRVB/SVB': {
    label: 'Service Binding',
    folder: ['Business Services', 'Service Bindings'],
    ext: 'srvb',
    fileSuffix: 'json',
    adtPath: '/sap/bc/adt/businessservices/bindings/',
    supported: true,
    language: 'json',
  },
};

/** The type entry for an ADT type code; tolerates a bare TADIR type such as `CLAS`. */
export function typeInfo(type) {
  if (OBJECT_TYPES[type]) return OBJECT_TYPES[type];
  const key = Object.keys(OBJECT_TYPES).find((k) => k.split('/')[0] === String(type ?? '').toUpperCase());
  return key ? OBJECT_TYPES[key] : undefined;
}

/** Normalises `CLAS` or `clas/oc` to the full code `CLAS/OC` (undefined when unknown). */
export function normaliseType(type) {
  const upper = String(type ?? '').toUpperCase();
  if (OBJECT_TYPES[upper]) return upper;
  return Object.keys(OBJECT_TYPES).find((k) => k.split('/')[0] === upper);
}

/** True for types that are one JSON file (main file = metadata file). */
export function isJsonOnly(type) {
  return typeInfo(type)?.fileSuffix === 'json';
}

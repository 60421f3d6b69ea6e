// Object-creation UI models (`getCreationUiModelAndContent`) and the field tables the MCP
// creation tools derive from them. Choice fields are combo controls with their legal
// `values` (`{value, title}`), as in the live SRVB/SVB and SRVD/SRV models: the binding type
// of a service binding (not required; its service definition's value help is `SRVD`) and the
// source type of a service definition, which the form leaves optional although the creation
// tool requires it (../tools/object-content.mjs).
import { badRequest } from '../errors.mjs';
import { normaliseType, OBJECT_TYPES } from '../model/object-types.mjs';

const NAME_PATTERN = '^[ZzYy][A-Za-z0-9_]{0,29}$';

/** The binding types of a service binding (value = title, as the live model has them). */
export const BINDING_TYPES = ['OData V2 - UI', 'OData V2 - Web API', 'OData V4 - UI', 'OData V4 - Web API'];
/** The source types of a service definition: `S` (Definition) and `X` (Extension). */
export const SOURCE_TYPES = [
  { value: 'S', title: 'Definition' },
  { value: 'X', title: 'Extension' },
];

function control(path, label, { required = false, maxLength, pattern, valueHelp } = {}) {
  const c = { bindingPath: `$.${path}`, $type: 'input', label: { text: label }, required };
  if (maxLength !== undefined) c.maxLength = maxLength;
  if (pattern !== undefined) c.pattern = pattern;
  if (valueHelp) c.onValueHelp = { kind: 'adtTypes', adtTypes: valueHelp.map((value) => ({ value })) };
  return c;
}

function combo(path, label, values) {
  return { bindingPath: `$.${path}`, $type: 'combo', label: { text: label }, required: false, values };
}

/** The field groups of the creation form of `type`: `[{title, controls}]`. */
export function creationSections(type) {
  const general = {
    title: 'General Information',
    controls: [
      control('packageName', 'Package', { required: true, maxLength: 30, valueHelp: ['DEVC/K'] }),
      control('name', 'Name', { required: true, maxLength: 30, pattern: NAME_PATTERN }),
      control('description', 'Description', { required: true, maxLength: 60 }),
    ],
  };
  const specific = [];
  if (type === 'CLAS/OC') {
    specific.push({
      title: 'Class Properties',
      controls: [
        control('superclass', 'Superclass', { maxLength: 30, valueHelp: ['CLAS/OC'] }),
        control('interfaces', 'Interfaces', { valueHelp: ['INTF/OI'] }),
      ],
    });
  }
  if (type === 'SRVB/SVB') {
    specific.push({
      title: 'Binding',
      controls: [
        control('serviceDefinition', 'Service Definition', { required: true, maxLength: 30, valueHelp: ['SRVD'] }),
        combo('bindingType', 'Binding Type', BINDING_TYPES.map((value) => ({ value, title: value }))),
      ],
    });
  }
  if (type === 'SRVD/SRV') {
    specific.push({
      title: 'Service Definition',
      controls: [combo('sourceType', 'Source Type', SOURCE_TYPES.map((v) => ({ ...v })))],
    });
  }
  return [general, ...specific];
}

function getCreationUiModelAndContent(payload) {
  const type = normaliseType(payload?.objectType);
  if (!type || !OBJECT_TYPES[type]) {
    throw badRequest(`Object type ${payload?.objectType} is not supported for creation`);
  }
  const sections = creationSections(type);
  return {
    fieldGroupSections: sections.map((section) => ({
      title: section.title,
      uiModel: JSON.stringify({ sections: [section] }),
    })),
    content: JSON.stringify({
      name: payload.name ?? '',
      description: payload.description ?? '',
      packageName: '',
      objectType: type,
    }),
  };
}

export const creationOps = {
  'adtLs/objectCreation/getCreationUiModelAndContent': getCreationUiModelAndContent,
};

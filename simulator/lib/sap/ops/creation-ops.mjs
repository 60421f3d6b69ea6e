// Object-creation UI models (`getCreationUiModelAndContent`) and the field tables the MCP
// creation tools derive from them.
import { badRequest } from '../errors.mjs';
import { normaliseType, OBJECT_TYPES } from '../model/object-types.mjs';

const NAME_PATTERN = '^[ZzYy][A-Za-z0-9_]{0,29}$';

function control(path, label, { required = false, maxLength, pattern, valueHelp } = {}) {
  const c = { bindingPath: `$.${path}`, type: 'Input', label: { text: label }, required };
  if (maxLength !== undefined) c.maxLength = maxLength;
  if (pattern !== undefined) c.pattern = pattern;
  if (valueHelp) c.onValueHelp = { adtTypes: valueHelp.map((value) => ({ value })) };
  return c;
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
        control('serviceDefinition', 'Service Definition', { required: true, maxLength: 30, valueHelp: ['SRVD/SRV'] }),
        control('bindingType', 'Binding Type', { required: true }),
      ],
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

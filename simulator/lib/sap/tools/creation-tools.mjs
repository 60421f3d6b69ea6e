// MCP creation tools: the creatable-type catalogue, type details, validation and
// create_object (which adds a class, interface or program to the repository).
import { creationSections } from '../ops/creation-ops.mjs';
import { normaliseType } from '../model/object-types.mjs';
import { affUri } from '../model/uris.mjs';
import { CREATABLE_BY_TOOL, validateObjectContent } from './object-content.mjs';
import { errorResult, jsonResult, missingArg } from './result.mjs';

const CATALOGUE = [
  ['Class', 'CLAS/OC'],
  ['Interface', 'INTF/OI'],
  ['Program', 'PROG/P'],
  ['Function Group', 'FUGR/F'],
  ['Function Module', 'FUGR/FF'],
  ['Database Table', 'TABL/DT'],
  ['Data Definition', 'DDLS/DF'],
  ['Behavior Definition', 'BDEF/BDO'],
  ['Service Definition', 'SRVD/SRV'],
  ['Service Binding', 'SRVB/SVB'],
];

function getAllCreatableObjects(args) {
  if (missingArg(args, ['destination'])) return errorResult('Destination is required', 'missing destination');
  return jsonResult({ creatableObjects: CATALOGUE.map(([name, objectType]) => ({ name, objectType })) });
}

function getObjectTypeDetails(args) {
  const type = normaliseType(args?.objectType);
  if (!type) {
    return errorResult(`Object type ${args?.objectType} is not supported`, 'unknown object type');
  }
  const fields = creationSections(type).flatMap((section, index) =>
    section.controls.map((c) => {
      const field = { tag: c.bindingPath.replace(/^\$\./, ''), fieldGroup: index + 1 };
      if (c.required) field.required = true;
      if (c.maxLength !== undefined) field.maxLength = c.maxLength;
      return field;
    }),
  );
  return jsonResult({ fields });
}

function runValidation(args, ctx) {
  const checked = validateObjectContent(args, ctx.repo);
  if (checked.error) return errorResult('Validation failed', checked.error);
  return jsonResult({ message: 'Validation successful', objectContent: JSON.stringify(checked.content) });
}

function transportProblem(args, checked, ctx) {
  if (checked.local) return undefined;
  const number = String(args.transportRequestNumber ?? '').trim();
  if (number === '') return `Package ${checked.content.packageName} requires a transport request`;
  const tr = ctx.repo.transports.get(number.toUpperCase());
  if (!tr || tr.status !== 'modifiable') return `Transport request ${number} does not exist or is not modifiable`;
  return undefined;
}

function createObject(args, ctx) {
  const checked = validateObjectContent(args, ctx.repo);
  if (checked.error) return errorResult('Object creation failed', checked.error);
  if (!CREATABLE_BY_TOOL.has(checked.type)) {
    return errorResult('Object creation failed', `Object type ${checked.type} cannot be created with this tool`);
  }
  const problem = transportProblem(args, checked, ctx);
  if (problem) return errorResult('Object creation failed', problem);
  const obj = ctx.repo.create({
    name: checked.content.name,
    type: checked.type,
    description: checked.content.description,
    packageName: checked.content.packageName,
    owner: ctx.session.user,
    transport: checked.local ? undefined : String(args.transportRequestNumber).toUpperCase(),
  });
  return jsonResult({
    message: `Object ${obj.name} of type ${obj.type} created successfully.`,
    filePath: affUri(args.destination, obj),
  });
}

export const creationTools = {
  'abap_creation-get_all_creatable_objects': getAllCreatableObjects,
  'abap_creation-get_object_type_details': getObjectTypeDetails,
  'abap_creation-run_validation': runValidation,
  'abap_creation-create_object': createObject,
};

// Activation shared by the native `adtLs/activation/activate` op and the MCP
// `abap_activate_objects` tool: syntax-check the inactive version, then make it active.
import { typeInfo } from '../model/object-types.mjs';
import { checkAbapSource, checkDdlSource } from '../model/syntax-check.mjs';
import { affUri } from '../model/uris.mjs';
import { requireFile } from './resolve.mjs';

function checkerFor(obj) {
  const lang = typeInfo(obj.type).language;
  if (lang === 'abap') return checkAbapSource;
  if (lang === 'ddl') return checkDdlSource;
  return () => [];
}

function diagnosticsOf(obj, dest) {
  const sources = obj.inactiveSources ?? {};
  const check = checkerFor(obj);
  const out = [];
  for (const [part, text] of Object.entries(sources)) {
    const found = check(text);
    if (found.length === 0) continue;
    out.push({
      fileUri: affUri(dest, obj, part),
      diagnostic: found.map((d) => ({
        range: {
          start: { line: d.line, character: d.character },
          end: { line: d.line, character: d.endCharacter },
        },
        severity: 1,
        source: 'abapActivation',
        message: d.message,
      })),
    });
  }
  return out;
}

/** Activates the objects behind `uris`; returns the 1.1.2 activation result shape. */
export function activateUris(uris, ctx) {
  const targets = new Map();
  for (const uri of uris) {
    const { obj, dest } = requireFile(ctx, uri);
    targets.set(`${obj.type}:${obj.name}`, { obj, dest });
  }
  const objectDiagnostics = [];
  for (const { obj, dest } of targets.values()) {
    if (ctx.repo.isInactive(obj)) objectDiagnostics.push(...diagnosticsOf(obj, dest));
  }
  const ok = objectDiagnostics.length === 0;
  const refreshFileUris = [];
  if (ok) {
    for (const { obj, dest } of targets.values()) {
      if (!ctx.repo.activateObject(obj)) continue;
      for (const part of Object.keys(obj.sources)) refreshFileUris.push(affUri(dest, obj, part));
    }
  }
  return {
    isCheckExecuted: true,
    isActivationExecuted: ok,
    isGenerationExecuted: ok,
    isForceSupported: false,
    refreshFileUris,
    objectDiagnostics,
  };
}

// Builders for tool-op results `{text, structuredContent?, isError?}` (S3 turns them into
// MCP CallToolResults).

/** A JSON payload as text, with `structuredContent` (by default the same data). */
export function jsonResult(data, { structured = data } = {}) {
  const result = { text: JSON.stringify(data) };
  if (structured !== undefined) result.structuredContent = structured;
  return result;
}

export const textResult = (text) => ({ text });

/** A tool failure: `isError` with a plain text or a `{message, error}` JSON body. */
export function errorResult(message, error) {
  if (error === undefined) return { text: message, isError: true };
  return { text: JSON.stringify({ message, error }), structuredContent: { message, error }, isError: true };
}

/** Checks that `args` has the listed non-empty string properties; returns the missing one. */
export function missingArg(args, names) {
  return names.find((n) => typeof args?.[n] !== 'string' || args[n].trim() === '');
}

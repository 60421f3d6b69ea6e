// LSP work-done progress for the long native requests (ATC, ABAP Unit, activation): when the
// client put a `workDoneToken` in the params, `$/progress` begin (0 %), report (50 %) and end
// are sent before the response; without a token nothing is sent. The token is never passed
// on to the backend.

const TITLES = Object.freeze({
  'adtLs/abapUnit/runTests': 'Running ABAP Unit tests',
  'adtLs/activation/activate': 'Activating',
  'adtLs/atc/runCheck': 'Running ATC checks',
});

/** The params without `workDoneToken`, and the token (undefined when none was sent). */
export function takeWorkDoneToken(params) {
  if (!params || typeof params !== 'object' || Array.isArray(params) || !('workDoneToken' in params)) {
    return { params, token: undefined };
  }
  const { workDoneToken: token, ...rest } = params;
  return { params: rest, token };
}

/** Run `run(params)`, reporting work-done progress around it for a method that reports it. */
export async function withWorkDoneProgress(ctx, method, raw, run) {
  const { params, token } = takeWorkDoneToken(raw);
  const title = TITLES[method];
  if (token === undefined || title === undefined) return run(params);
  const send = (value) => ctx.connection.sendNotification('$/progress', { token, value });
  await send({ kind: 'begin', title, percentage: 0 });
  await send({ kind: 'report', message: `${title}: half way`, percentage: 50 });
  try {
    return await run(params);
  } finally {
    await send({ kind: 'end', message: `${title}: done` });
  }
}

// The error type every backend operation throws. It carries the HTTP status the SAP side
// answers with and the `{message, code?, data?}` body the backend client turns back into
// an Error for the simulated adt-ls.

export class SapError extends Error {
  constructor(message, { status = 500, code, data } = {}) {
    super(message);
    this.name = 'SapError';
    this.status = status;
    if (code !== undefined) this.code = code;
    if (data !== undefined) this.data = data;
  }

  toBody() {
    const error = { message: this.message };
    if (this.code !== undefined) error.code = this.code;
    if (this.data !== undefined) error.data = this.data;
    return { error };
  }
}

export const badRequest = (message, extra = {}) => new SapError(message, { status: 400, ...extra });
export const notFound = (message, extra = {}) => new SapError(message, { status: 404, ...extra });
export const internalError = (message = 'Internal error', extra = {}) =>
  new SapError(message, { status: 500, ...extra });

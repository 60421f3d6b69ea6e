// AdtLsError's declaration: a class exported at runtime whose instances are
// typed as Errors with a string-or-number `code` and the optional details.
import { AdtLsError, AdtLsDriver } from '../../index.js'

export async function myBusinessFunction(driver: AdtLsDriver): Promise<string | undefined> {
  try {
    await driver.sendRequest('x/y', {})
    return undefined
  } catch (e) {
    if (e instanceof AdtLsError) {
      const asError: Error = e
      const code: string | number = e.code
      const status: number | undefined = e.httpStatus
      const parts = [asError.message, String(code), String(status), e.method, e.tool, e.destination, e.cause?.message]
      return parts.join(' ')
    }
    throw e
  }
}

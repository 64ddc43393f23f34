// A 2xx body is parsed here; JSON that does not parse was cut short on the way, so the
// attempt counts as a transient failure and is fetched again.
import { parseCatalogJson } from "../json"
import type { Interceptor } from "./compose"
import { TransientFailure } from "./failures"

export const parseJsonBody: Interceptor = (next) => async (call) => {
  const response = await next(call)
  if (response.status < 200 || response.status >= 300) return response
  try {
    return { ...response, body: parseCatalogJson(response.text) }
  } catch {
    const message = `Truncated or malformed JSON body (${response.text.length} bytes)`
    throw new TransientFailure("network", "truncated_body", message, response.requestId)
  }
}

// The innermost part: one GET through undici, the answer's headers reported as soon as they
// arrive (quota learning happens while the slot is still held), then the whole body as text.
// No redirect interceptor: a 3xx is an answer, never a second request elsewhere.
import { request, type Dispatcher } from "undici"
import { headerValue, type HeaderBag } from "../rate-limiter"
import type { Send } from "./compose"

export function sendRequest(dispatcher: Dispatcher, onHeaders: (headers: HeaderBag, status: number) => Promise<void>): Send {
  return async (call) => {
    const response = await request(call.url, { method: "GET", headers: call.headers, signal: call.signal, dispatcher })
    const headers = response.headers as HeaderBag
    await onHeaders(headers, response.statusCode)
    const text = await response.body.text()
    return { status: response.statusCode, headers, text, requestId: headerValue(headers, "x-trace-id") ?? null }
  }
}

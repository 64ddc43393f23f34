import type { IncomingHttpHeaders } from "node:http"
import type { CardRenderer } from "../cards"
import type { QueryParams } from "../params"
import type { SandboxState } from "../state"
import type { ReferenceDocuments } from "./reference"

export interface RequestContext {
  state: SandboxState
  renderer: CardRenderer
  references: ReferenceDocuments
  query: QueryParams
  requestId: string
  headers: IncomingHttpHeaders
  /** The `{product_id}` path segment, when the route has one. */
  pathParam: string | null
}

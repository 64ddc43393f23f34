// What the page workflow hands back to its run.
import type { RejectedItem } from "../../catalog-client/items"
import type { NewReferences } from "../extras"
import type { RecordedChanges } from "./record-changes-step"

export interface SyncCatalogPageResult {
  /**
   * Catalog ids of the plan as written: the map check may move a product to create or update,
   * and products that could not be written left it (they are rejected).
   */
  written: { create: string[]; update: string[]; stockOnly: string[] }
  /** The page's plan rejections and the products whose write failed alone. */
  rejected: RejectedItem[]
  /** Brand and model records the page made, for the run's later pages. */
  newReferences: NewReferences
  /** Change-log rows the page stored, and the changes the run's cap left without a row. */
  changeLog: RecordedChanges
}

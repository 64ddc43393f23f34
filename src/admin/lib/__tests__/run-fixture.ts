import type { Run } from "../types"

/** A finished scheduled changes run that changed nothing, with the fields given changed. */
export const runFixture = (patch: Partial<Run>) =>
  ({
    id: "csrun_1",
    mode: "changes",
    status: "succeeded",
    trigger: "schedule",
    started_at: "2026-12-06T08:00:00.000Z",
    finished_at: "2026-12-06T08:01:00.000Z",
    created: 0,
    updated: 0,
    stock_only: 0,
    removed: 0,
    swept: 0,
    skipped: 0,
    error_code: null,
    error_message: null,
    ...patch,
  }) as Run

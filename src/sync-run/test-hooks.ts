// Test-only hooks of a sync run, parsed from the environment the runtime resolved at start
// (run-dependencies.ts hands them to runSync). Unset in production: then they do nothing.
//
// CATALOG_SYNC_TEST_PAGE_DELAY_MS  waits (asynchronously) this long before a page's write
// CATALOG_SYNC_TEST_BLOCK_LOOP_MS  then blocks the event loop (a synchronous busy loop) this long
// CATALOG_SYNC_TEST_HELD_APPLY_DELAY_MS  waits this long after a run's held removals were judged
//                                  and before they are applied (a crash test kills it there)
//
// Each value is "<ms>" (every page) or "<ms>@<page>,<page>…" (only those pages of a run,
// counted from 1). CATALOG_SYNC_TEST_HOOK_MODE ("full" or "changes") limits the page hooks to
// runs of that mode. The liveness tests use them to make a page take minutes and to starve
// every timer of the process for longer than any lock duration.

import type { PluginEnvironment } from "../config/environment"

/** Where a test may hold a run up. */
export interface RunHooks {
  /** Before page `page` (counted from 1) of a run of this mode is written. */
  beforePageWrite(page: number, mode: "changes" | "full"): Promise<void>
  /** Between judging a run's held removals and applying them. */
  beforeHeldApply(): Promise<void>
}

export const NO_HOOKS: RunHooks = { beforePageWrite: async () => undefined, beforeHeldApply: async () => undefined }

type Hook = { ms: number; pages: Set<number> | null }

function parse(value: string | undefined): Hook | null {
  if (!value?.trim()) return null
  const [msPart, pagesPart] = value.trim().split("@")
  const ms = Number(msPart)
  if (!Number.isFinite(ms) || ms <= 0) return null
  const pages = pagesPart
    ? new Set(
        pagesPart
          .split(",")
          .map((p) => Number(p.trim()))
          .filter((p) => Number.isInteger(p) && p > 0)
      )
    : null
  return { ms, pages }
}

const applies = (hook: Hook | null, page: number): hook is Hook => !!hook && (!hook.pages || hook.pages.has(page))

/** The hooks the environment sets (NO_HOOKS' behaviour for each one it leaves unset). */
export function testHooksFrom(env: PluginEnvironment): RunHooks {
  const onlyMode = env.CATALOG_SYNC_TEST_HOOK_MODE
  const delay = parse(env.CATALOG_SYNC_TEST_PAGE_DELAY_MS)
  const block = parse(env.CATALOG_SYNC_TEST_BLOCK_LOOP_MS)
  const heldApply = parse(env.CATALOG_SYNC_TEST_HELD_APPLY_DELAY_MS)
  return {
    async beforePageWrite(page, mode) {
      if (onlyMode && onlyMode !== mode) return
      if (applies(delay, page)) await new Promise((r) => setTimeout(r, delay.ms))
      if (applies(block, page)) {
        const until = Date.now() + block.ms
        // eslint-disable-next-line no-empty
        while (Date.now() < until) {}
      }
    },
    async beforeHeldApply() {
      if (heldApply) await new Promise((r) => setTimeout(r, heldApply.ms))
    },
  }
}

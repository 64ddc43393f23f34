// The sweep removes only what a complete pass did not see. Two ways it could remove too much:
// a full resync that fails before its first page (the old cursor must not be continued under
// the new pass), and a card rejected during a full pass (its product is still on sale).
import { compareShop, configureAndWait, readCatalog, readShop, runAndWait, startCatalogProxy, startSyncEnv, syncState, type SyncEnv } from "./sync-helpers"

jest.setTimeout(900_000)

const PRODUCTS = 250

describe("sync: the sweep never removes products that are still on sale", () => {
  let env: SyncEnv
  let proxy: Awaited<ReturnType<typeof startCatalogProxy>>
  beforeAll(async () => {
    env = await startSyncEnv("pass-safety", { products: PRODUCTS, seed: 31 })
    proxy = await startCatalogProxy(env.sb.baseUrl)
    const { run } = await configureAndWait(env, { base_url: proxy.url, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS })
  })
  afterAll(async () => {
    await proxy?.close()
    await env?.close()
  })

  it("a full resync that fails before its first page leaves the next run to start a whole new pass", async () => {
    // The export's first request is refused (not retried), after the run began its pass.
    proxy.hooks.respond = (url) =>
      url.startsWith("/v1/products/changes") && !url.includes("cursor=")
        ? {
            status: 422,
            body: {
              error: { code: "validation_error", message: "refused by the test", request_id: "proxy", details: [{ field: "limit", message: "refused" }] },
            },
          }
        : undefined
    const failed = await runAndWait(env, "full")
    proxy.hooks.respond = undefined
    expect(failed).toMatchObject({ status: "failed", error_code: "validation_error", pages: 0 })
    const state = await syncState(env)
    expect(state.cursor).toBeNull()

    const next = await runAndWait(env, "changes")
    expect(next).toMatchObject({ status: "succeeded", swept: 0, removed: 0, unchanged: PRODUCTS })
    expect(compareShop(await readCatalog(env.sb.baseUrl, env.sb.apiKey), await readShop(env.db.url))).toEqual([])
  })

  it("a card rejected during a full pass keeps its product", async () => {
    let brokenId: string | null = null
    proxy.hooks.rewriteChanges = (body) => {
      if (!brokenId && body.data.length > 0 && body.data[0].product) {
        body.data[0].product.sizes = "not a list"
        brokenId = String(body.data[0].id)
      }
      return body
    }
    const full = await runAndWait(env, "full")
    proxy.hooks.rewriteChanges = undefined
    expect(full).toMatchObject({ status: "succeeded", skipped: 1, swept: 0, removed: 0 })
    const shop = await readShop(env.db.url)
    expect(shop.has(brokenId!)).toBe(true)
    expect(compareShop(await readCatalog(env.sb.baseUrl, env.sb.apiKey), shop)).toEqual([])
  })
})

// Helpers for the sync's integration specs (sync-pages, cursor-restarts, identity-*, crash-*, …): a spawned demo app
// with the built plugin (runs go through the admin API, the queue and the worker), the
// sandbox, and a comparison of what Medusa holds against what the sandbox serves.
import http from "node:http"
import { randomUUID } from "node:crypto"
import Decimal from "decimal.js"
import { parse, stringify } from "lossless-json"
import { createTestDatabase, databaseUrl, dropDatabase, startMedusaApp, TEST_ENCRYPTION_SECRET, type MedusaApp } from "../harness"
import { parkApp, parkingKey, takeParkedApp } from "../harness/parked-apps"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { CatalogClient, type PricingOptions, type ProductCard } from "../../src/catalog-client"
import { variantAmounts, mapCardDetails } from "../../src/sync/card-details"
import { distinctSizes, stockOf, variantSku } from "../../src/sync/map-card"
import { configure, sql, waitForRun } from "./poll-and-query"

export const PRICING: PricingOptions = { price_calculation: "max", markup_percent: "30", discount_percent: null, old_price_markup_percent: null }

/** A spawned demo app (real PostgreSQL, Redis, BullMQ worker) with its own database and sandbox. */
export interface SyncEnv {
  app: MedusaApp
  db: Awaited<ReturnType<typeof createTestDatabase>>
  sb: Sandbox
  /** The plugin's Redis key prefix of this app. */
  redisPrefix: string
  /** SIGKILLs the app (a crash) and starts it again on the same database and Redis prefix. */
  crashAndRestart(): Promise<void>
  close(): Promise<void>
}

export async function startSyncEnv(label: string, sandbox: Parameters<typeof startSandbox>[0], extraEnv: Record<string, string> = {}): Promise<SyncEnv> {
  const sb = await startSandbox({ apiKey: `k-${randomUUID()}`, rpm: 100_000, concurrency: 3, port: 0, controlPort: 0, ...sandbox })
  // An app another spec file of this worker booted with the same settings, made new (parked-apps.ts).
  const key = parkingKey(extraEnv)
  const parked = key === null ? null : await takeParkedApp(key, extraEnv, label)
  // The flags that change the schema (the Index module, translation off) shape the template too.
  const db = parked
    ? { name: parked.databaseName, url: databaseUrl(parked.databaseName), drop: () => dropDatabase(parked.databaseName) }
    : await createTestDatabase(label, extraEnv)
  const appEnv = {
    CATALOG_SYNC_REDIS_PREFIX: parked?.redisPrefix ?? `mcs-test-${randomUUID()}`,
    // A handed-on app keeps the secret it was started with (a restart must read what it encrypted).
    CATALOG_SYNC_ENCRYPTION_KEY: parked?.encryptionSecretGiven ?? TEST_ENCRYPTION_SECRET,
    // Runs only when the test asks for them.
    CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000),
    CATALOG_BASE_URL: "",
    CATALOG_API_KEY: "",
    ...extraEnv,
  }
  // A crashed and restarted app is not handed on: its boot is what the spec looked at.
  let restarted = false
  const env: SyncEnv = {
    app: parked?.app ?? (await startMedusaApp({ databaseUrl: db.url, label, env: appEnv })),
    db,
    sb,
    redisPrefix: appEnv.CATALOG_SYNC_REDIS_PREFIX,
    async crashAndRestart() {
      restarted = true
      await env.app.kill()
      env.app = await startMedusaApp({ databaseUrl: db.url, label: `${label}-restarted`, env: appEnv })
    },
    async close() {
      const parking = { key: key ?? "", app: env.app, databaseName: db.name, redisPrefix: appEnv.CATALOG_SYNC_REDIS_PREFIX, encryptionSecretGiven: appEnv.CATALOG_SYNC_ENCRYPTION_KEY }
      if (key === null || restarted || !(await parkApp(parking))) {
        await env.app.stop()
        await db.drop()
      }
      await sb.close()
    },
  }
  return env
}

/** Starts a run through the admin API and waits for its end. */
/** A priced product on sale that offers every one of `sizes` (its catalog id as text). */
export function sizedProductId(env: SyncEnv, sizes: string[]): string {
  const found = env.sb.state.catalog.liveProducts().find((p) => sizes.every((s) => p.sizes.includes(s)) && p.suppliers.every((s) => s.baseCost !== null))
  if (!found) throw new Error(`no priced product on sale offers sizes ${sizes.join(", ")}`)
  return found.idText
}

export async function runAndWait(env: SyncEnv, mode: "changes" | "full" = "changes", timeoutMs = 300_000) {
  const start = () => env.app.admin("/admin/catalog-sync/runs", { body: { mode } })
  let res = await start()
  if (res.status !== 202) throw new Error(`run refused: ${res.status} ${JSON.stringify(res.body)}`)
  if (res.body.already_running) {
    await waitForRun(env.app, res.body.run.id, undefined, timeoutMs)
    res = await start()
  }
  return waitForRun(env.app, res.body.run.id, undefined, timeoutMs)
}

/** Saves settings; a pricing change enqueues a full run, which is awaited. */
export async function configureAndWait(env: SyncEnv, body: Record<string, unknown>, timeoutMs = 300_000) {
  const saved = await configure(env.app, body)
  const run = saved.run ? await waitForRun(env.app, saved.run.id, undefined, timeoutMs) : null
  return { saved, run }
}

export async function syncState(env: SyncEnv) {
  return (await sql(env.db.url, "select * from mcs_sync_state where deleted_at is null limit 1"))[0]
}

/** Every card the sandbox serves for the given pricing, read through its public API. */
export async function readCatalog(baseUrl: string, apiKey: string, pricing: PricingOptions = PRICING): Promise<ProductCard[]> {
  const client = new CatalogClient({ baseUrl, apiKey, pricing, limitCeiling: { requestsPerMinute: 100_000_000, maxConcurrent: 1000 } })
  const cards: ProductCard[] = []
  try {
    for await (const page of client.listProducts({ limit: 200 })) cards.push(...page.items)
  } finally {
    await client.close()
  }
  return cards
}

export interface ShopProduct {
  id: string
  external_id: string
  title: string
  status: string
  thumbnail: string | null
  images: string[]
  salesChannelIds: string[]
  /** Catalog ids of the live brand and brand model records the product's live links point at. */
  brands: string[]
  brandModels: string[]
  /** Locale of each live translation row of the product (Medusa's translation module), sorted: a locale twice is a duplicate. */
  translationLocales: string[]
  variants: { sku: string; title: string; amounts: string[]; stock: number[] }[]
}

/**
 * Live product links with the catalog id of the record of `recordTable` (catalog_brand, catalog_brand_model) they point at, with
 * the link table found by its columns, not by the plugin's or Medusa's naming of it.
 */
async function linkedRecords(databaseUrl: string, recordTable: string, column: string): Promise<{ product_id: string; catalog_id: string }[]> {
  const tables = await sql(
    databaseUrl,
    `select r.table_name from information_schema.columns r
       join information_schema.columns p on p.table_name = r.table_name and p.table_schema = r.table_schema and p.column_name = 'product_id'
      where r.column_name = $1 and r.table_schema = current_schema() and r.table_name <> $2`,
    [column, recordTable]
  )
  const out: { product_id: string; catalog_id: string }[] = []
  for (const { table_name } of tables) {
    out.push(
      ...(await sql(
        databaseUrl,
        // A live link to a deleted or missing record shows as such, never as no link.
        `select l.product_id, case when r.id is not null and r.deleted_at is null then r.catalog_id else 'deleted or missing record ' || l."${column}" end as catalog_id
           from "${table_name}" l left join "${recordTable}" r on r.id = l."${column}" where l.deleted_at is null`
      ))
    )
  }
  return out
}

/**
 * What the plugin made in Medusa (not deleted; marked `metadata.catalog_sync`, so products of
 * other imports are left out), by catalog id, read straight from PostgreSQL so amounts stay exact.
 */
export async function readShop(databaseUrl: string): Promise<Map<string, ShopProduct>> {
  const products = await sql(
    databaseUrl,
    "select id, external_id, title, status, thumbnail from product where deleted_at is null and metadata->>'catalog_sync' = 'true'"
  )
  const images = await sql(databaseUrl, "select product_id, url from image where deleted_at is null order by product_id, rank")
  const channels = await sql(databaseUrl, "select product_id, sales_channel_id from product_sales_channel where deleted_at is null")
  const variants = await sql(databaseUrl, "select id, product_id, sku, title from product_variant where deleted_at is null")
  const prices = await sql(
    databaseUrl,
    `select l.variant_id, p.currency_code, p.raw_amount->>'value' as amount
       from product_variant_price_set l join price p on p.price_set_id = l.price_set_id
      where l.deleted_at is null and p.deleted_at is null and p.price_list_id is null`
  )
  const levels = await sql(
    databaseUrl,
    `select l.variant_id, il.stocked_quantity
       from product_variant_inventory_item l join inventory_level il on il.inventory_item_id = l.inventory_item_id
      where l.deleted_at is null and il.deleted_at is null`
  )
  const group = <T extends Record<string, any>>(rows: T[], key: string) => {
    const m = new Map<string, T[]>()
    for (const r of rows) m.set(r[key], [...(m.get(r[key]) ?? []), r])
    return m
  }
  const imagesBy = group(images, "product_id")
  const channelsBy = group(channels, "product_id")
  const variantsBy = group(variants, "product_id")
  const pricesBy = group(prices, "variant_id")
  const levelsBy = group(levels, "variant_id")
  const brandsBy = group(await linkedRecords(databaseUrl, "mcs_brand", "catalog_brand_id"), "product_id")
  const modelsBy = group(await linkedRecords(databaseUrl, "mcs_brand_model", "catalog_brand_model_id"), "product_id")
  const [{ has_translations }] = await sql(databaseUrl, "select to_regclass('translation') is not null as has_translations")
  const translations = has_translations
    ? await sql(databaseUrl, "select reference_id, locale_code from translation where reference = 'product' and deleted_at is null")
    : []
  const translationsBy = group(translations, "reference_id")
  const shop = new Map<string, ShopProduct>()
  for (const p of products) {
    shop.set(p.external_id, {
      id: p.id,
      external_id: p.external_id,
      title: p.title,
      status: p.status,
      thumbnail: p.thumbnail,
      images: (imagesBy.get(p.id) ?? []).map((i) => i.url),
      salesChannelIds: (channelsBy.get(p.id) ?? []).map((c) => c.sales_channel_id),
      brands: (brandsBy.get(p.id) ?? []).map((b) => String(b.catalog_id)).sort(),
      brandModels: (modelsBy.get(p.id) ?? []).map((b) => String(b.catalog_id)).sort(),
      translationLocales: (translationsBy.get(p.id) ?? []).map((t) => String(t.locale_code)).sort(),
      variants: (variantsBy.get(p.id) ?? []).map((v) => ({
        sku: v.sku,
        title: v.title,
        amounts: (pricesBy.get(v.id) ?? []).map((pr) => `${pr.currency_code}:${new Decimal(pr.amount).toFixed(2)}`),
        stock: (levelsBy.get(v.id) ?? []).map((l) => Number(l.stocked_quantity)),
      })),
    })
  }
  return shop
}

/** Differences between the shop and the catalog (empty = equal). */
export function compareShop(
  cards: ProductCard[],
  shop: Map<string, ShopProduct>,
  opts: { removed?: string[]; removalMode?: "delete" | "draft" } = {}
): string[] {
  const problems: string[] = []
  const seen = new Set<string>()
  for (const card of cards) {
    seen.add(card.id)
    const p = shop.get(card.id)
    if (!p) {
      problems.push(`${card.id}: missing in shop`)
      continue
    }
    const title = mapCardDetails(card, { primaryLanguage: "uk" }).title
    if (p.title !== title) problems.push(`${card.id}: title ${p.title} != ${title}`)
    const images = [...card.images.filter((i) => i.is_main), ...card.images.filter((i) => !i.is_main)].map((i) => i.url)
    if (JSON.stringify(p.images) !== JSON.stringify(images)) problems.push(`${card.id}: images ${p.images} != ${images}`)
    if (p.thumbnail !== (images[0] ?? null)) problems.push(`${card.id}: thumbnail ${p.thumbnail} != ${images[0]}`)
    // One live link to the card's brand and one to its model, or none.
    const brands = card.brand ? [String(card.brand.id)] : []
    if (JSON.stringify(p.brands) !== JSON.stringify(brands)) problems.push(`${card.id}: brand links [${p.brands}] != [${brands}]`)
    const models = card.brand_model ? [String(card.brand_model.id)] : []
    if (JSON.stringify(p.brandModels) !== JSON.stringify(models)) problems.push(`${card.id}: brand model links [${p.brandModels}] != [${models}]`)
    const locales = p.translationLocales
    if (locales.some((l, i) => locales[i - 1] === l)) problems.push(`${card.id}: translation rows [${locales}] (a locale twice)`)
    const sizes = distinctSizes(card)
    const stock = stockOf(card)
    const expected = sizes.length
      ? sizes.map((s) => ({ sku: variantSku(card, s.size.trim()), key: s.size.trim(), amount: variantAmounts(s).amount }))
      : [{ sku: variantSku(card, ""), key: "", amount: variantAmounts(card).amount }]
    const priced = expected.some((e) => e.amount !== null)
    if (p.status !== (priced ? "published" : "draft")) problems.push(`${card.id}: status ${p.status}`)
    if (p.variants.length !== expected.length) problems.push(`${card.id}: ${p.variants.length} variants != ${expected.length}`)
    for (const e of expected) {
      const v = p.variants.find((x) => x.sku === e.sku)
      if (!v) {
        problems.push(`${card.id}: variant ${e.sku} missing`)
        continue
      }
      const amounts = v.amounts
      const want = e.amount === null ? [] : [`uah:${new Decimal(e.amount).toFixed(2)}`]
      if (JSON.stringify(amounts) !== JSON.stringify(want)) problems.push(`${card.id}/${e.sku}: prices ${amounts} != ${want}`)
      if (JSON.stringify(v.stock) !== JSON.stringify([stock[e.key]])) problems.push(`${card.id}/${e.sku}: stock ${v.stock} != ${stock[e.key]}`)
    }
  }
  for (const [id, p] of shop) {
    if (seen.has(id)) continue
    if (opts.removalMode === "draft" && p.status === "draft") continue
    problems.push(`${id}: in shop (${p.status}) but not in catalog`)
  }
  return problems
}

export interface ProxyHooks {
  /** Called before a request is forwarded (e.g. to rotate the sandbox's cursor secret mid-run). */
  beforeForward?: (url: string) => void | Promise<void>
  /** Rewrites a 200 body of /v1/products/changes (parsed losslessly), e.g. to serve malformed cards. */
  rewriteChanges?: (body: any) => any
  /** Answers a request itself instead of forwarding it (e.g. an error the sandbox would not give). */
  respond?: (url: string) => { status: number; body: unknown } | undefined
}

/** A loopback proxy in front of the sandbox; the hooks can be swapped while it runs. */
export async function startCatalogProxy(target: string): Promise<{ url: string; hooks: ProxyHooks; close(): Promise<void> }> {
  const hooks: ProxyHooks = {}
  const server = http.createServer(async (req, res) => {
    try {
      await hooks.beforeForward?.(req.url ?? "")
      const own = hooks.respond?.(req.url ?? "")
      if (own) {
        res.writeHead(own.status, { "content-type": "application/json", "x-trace-id": "proxy" })
        res.end(JSON.stringify(own.body))
        return
      }
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (k !== "host" && typeof v === "string") headers[k] = v
      const upstream = await fetch(target + req.url, { headers })
      const text = await upstream.text()
      const out: Record<string, string> = {}
      upstream.headers.forEach((v, k) => {
        if (!["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"].includes(k)) out[k] = v
      })
      let body = text
      if (upstream.status === 200 && hooks.rewriteChanges && req.url?.startsWith("/v1/products/changes")) {
        body = stringify(hooks.rewriteChanges(parse(text))) ?? text
      }
      res.writeHead(upstream.status, out)
      res.end(upstream.status === 304 ? undefined : body)
    } catch (e) {
      res.writeHead(502, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: { code: "internal_error", message: String(e), request_id: null, details: null } }))
    }
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}`,
    hooks,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}

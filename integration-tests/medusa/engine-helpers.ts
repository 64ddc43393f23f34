// Helpers for the sync engine's integration specs (engine-*.spec.ts): the plugin's
// built code (the same modules the app loaded), the sandbox, and a comparison of what
// Medusa holds against what the sandbox serves.
import http from "node:http"
import path from "node:path"
import Decimal from "decimal.js"
import { parse, stringify } from "lossless-json"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { REPO_ROOT } from "../harness/paths"
import type { EffectiveSettings, PricingParams } from "../../src/sync/settings"
import type { ProductCard } from "../../src/catalog-client/schemas"

const BUILT = path.join(REPO_ROOT, ".medusa", "server", "src")

/** Modules from the built plugin: the app loaded these, so classes and workflows are the same instances. */
export function built<T>(rel: string): T {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  return require(path.join(BUILT, rel)) as T
}

export const runSyncModule = () => built<typeof import("../../src/runner/run-sync")>("runner/run-sync")
export const clientModule = () => built<typeof import("../../src/catalog-client")>("catalog-client")
export const mapCardModule = () => built<typeof import("../../src/sync/map-card")>("sync/map-card")
export const cardDetailsModule = () => built<typeof import("../../src/sync/card-details")>("sync/card-details")

export const PRICING: PricingParams = { price_calculation: "max", markup_percent: "30", discount_percent: null, old_price_markup_percent: null }

export function settingsFor(baseUrl: string, apiKey: string, over: Partial<EffectiveSettings> = {}): EffectiveSettings {
  return {
    baseUrl,
    apiKey,
    apiKeyHash: "test",
    apiKeyLast4: apiKey.slice(-4),
    pricing: PRICING,
    pollIntervalMinutes: 10,
    stockLocationId: null,
    salesChannelId: null,
    removalMode: "delete",
    primaryLanguage: "uk",
    enabled: true,
    revision: 1,
    ...over,
  }
}

type Service = {
  createCatalogSyncRuns(data: Record<string, unknown>): Promise<{ id: string }>
  retrieveCatalogSyncRun(id: string): Promise<Record<string, any>>
  listCatalogSyncStates(f?: Record<string, unknown>): Promise<Record<string, any>[]>
  updateCatalogSyncStates(data: Record<string, unknown>): Promise<unknown>
  listCatalogProductMaps(f?: Record<string, unknown>, c?: Record<string, unknown>): Promise<Record<string, any>[]>
}

export function service(container: MedusaContainer): Service {
  return container.resolve("catalog_sync") as unknown as Service
}

/** Creates the run row (as the platform's worker does) and runs a sync in-process. */
export async function sync(container: MedusaContainer, settings: EffectiveSettings, mode: "changes" | "full" = "changes") {
  const { runSync } = runSyncModule()
  const { CatalogClient } = clientModule()
  const run = await service(container).createCatalogSyncRuns({ trigger: "manual", mode, status: "queued" })
  const client = new CatalogClient({ baseUrl: settings.baseUrl!, apiKey: settings.apiKey!, pricing: settings.pricing })
  try {
    const result = await runSync(container, { runId: run.id, mode, settings, client, signal: new AbortController().signal })
    const row = await service(container).retrieveCatalogSyncRun(run.id)
    return { result, run: row }
  } finally {
    await client.close()
  }
}

/** Every card the sandbox serves for the given pricing, read through its public API. */
export async function readCatalog(baseUrl: string, apiKey: string, pricing: PricingParams = PRICING): Promise<ProductCard[]> {
  const { CatalogClient } = clientModule()
  const client = new CatalogClient({ baseUrl, apiKey, pricing })
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
  variants: { sku: string; title: string; amounts: { currency: string; amount: string }[]; stock: number[] }[]
}

/** What Medusa holds for the synced products (not deleted), by catalog id. */
export async function readShop(container: MedusaContainer): Promise<Map<string, ShopProduct>> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "product",
    fields: [
      "id",
      "external_id",
      "title",
      "status",
      "thumbnail",
      "images.url",
      "images.rank",
      "sales_channels.id",
      "variants.id",
      "variants.sku",
      "variants.title",
      "variants.prices.amount",
      "variants.prices.raw_amount",
      "variants.prices.currency_code",
      "variants.inventory_items.inventory_item_id",
    ],
  })
  const itemIds = data.flatMap((p: any) => p.variants.flatMap((v: any) => (v.inventory_items ?? []).map((i: any) => i.inventory_item_id)))
  const levels = itemIds.length
    ? await container.resolve(Modules.INVENTORY).listInventoryLevels({ inventory_item_id: itemIds }, { take: null })
    : []
  const stockByItem = new Map<string, number[]>()
  for (const l of levels) stockByItem.set(l.inventory_item_id, [...(stockByItem.get(l.inventory_item_id) ?? []), Number(l.stocked_quantity)])
  const shop = new Map<string, ShopProduct>()
  for (const p of data as any[]) {
    shop.set(p.external_id, {
      id: p.id,
      external_id: p.external_id,
      title: p.title,
      status: p.status,
      thumbnail: p.thumbnail,
      images: [...(p.images ?? [])].sort((a: any, b: any) => a.rank - b.rank).map((i: any) => i.url),
      salesChannelIds: (p.sales_channels ?? []).map((s: any) => s.id),
      variants: (p.variants ?? []).map((v: any) => ({
        sku: v.sku,
        title: v.title,
        amounts: (v.prices ?? []).map((pr: any) => ({
          currency: pr.currency_code,
          amount: new Decimal(String(pr.raw_amount?.value ?? pr.amount)).toFixed(2),
        })),
        stock: (v.inventory_items ?? []).flatMap((i: any) => stockByItem.get(i.inventory_item_id) ?? []),
      })),
    })
  }
  return shop
}

/** Differences between the shop and the catalog (empty = equal). */
export function compareShop(cards: ProductCard[], shop: Map<string, ShopProduct>, opts: { removed?: string[]; removalMode?: "delete" | "draft" } = {}): string[] {
  const { distinctSizes, stockOf } = mapCardModule()
  const { variantAmounts, mapCardDetails } = cardDetailsModule()
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
    const sizes = distinctSizes(card)
    const stock = stockOf(card)
    const expected = sizes.length
      ? sizes.map((s) => ({ sku: `${card.sku}-${s.size.trim()}`, key: s.size.trim(), amount: variantAmounts(s).amount }))
      : [{ sku: card.sku, key: "", amount: variantAmounts(card).amount }]
    const priced = expected.some((e) => e.amount !== null)
    if (p.status !== (priced ? "published" : "draft")) problems.push(`${card.id}: status ${p.status}`)
    if (p.variants.length !== expected.length) problems.push(`${card.id}: ${p.variants.length} variants != ${expected.length}`)
    for (const e of expected) {
      const v = p.variants.find((x) => x.sku === e.sku)
      if (!v) {
        problems.push(`${card.id}: variant ${e.sku} missing`)
        continue
      }
      const amounts = v.amounts.map((a) => `${a.currency}:${a.amount}`)
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

/** A loopback proxy in front of the sandbox that can rewrite changes pages (to serve malformed cards). */
export async function startRewritingProxy(target: string, rewrite: (body: any) => any): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const upstream = await fetch(target + req.url, { headers: { "x-api-key": String(req.headers["x-api-key"] ?? "") } })
    const text = await upstream.text()
    const headers: Record<string, string> = {}
    upstream.headers.forEach((v, k) => {
      if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(k)) headers[k] = v
    })
    let body = text
    if (upstream.ok && req.url?.startsWith("/v1/products/changes")) body = stringify(rewrite(parse(text))) ?? text
    res.writeHead(upstream.status, headers)
    res.end(body)
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const port = (server.address() as { port: number }).port
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) }
}

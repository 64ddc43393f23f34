// Runs inside a Medusa app (`medusa exec`, see bench/bulk-write.ts): writes synthetic catalog
// pages through the bulk writer and through Medusa's createProductsWorkflow (+ inventory
// levels), alternating page by page, then bulk removals, price-only and stock-only changes.
// Prints products/s, this process's CPU time and RSS, and the machine's load. Measures only.
import os from "node:os"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createInventoryLevelsWorkflow, createProductsWorkflow, createStockLocationsWorkflow, deleteProductsWorkflow } from "@medusajs/medusa/core-flows"
import { writePageInBulk, type BulkPlacement, type BulkProduct } from "../src/bulk-write"

const PAGE = 200

function synthetic(i: number, tag: string): BulkProduct {
  const sizes = Array.from({ length: (i % 7) + 1 }, (_, k) => String(36 + k)) // 1..7, avg 4
  const images = 4 + (i % 2) // 4 or 5
  return {
    title: `Bench ${tag} ${i}`,
    handle: `bench-${tag}-${i}`,
    status: "published",
    external_id: `${tag}-${i}`,
    description: `Product ${i} of the ${tag} bench catalog`,
    thumbnail: `https://img.example/${tag}/${i}/0.jpg`,
    metadata: { catalog_sku: `${tag}-${i}` },
    images: Array.from({ length: images }, (_, k) => `https://img.example/${tag}/${i}/${k}.jpg`),
    categoryIds: [],
    options: [{ title: "Size", values: sizes }],
    variants: sizes.map((s, k) => ({
      title: s,
      sku: `${tag}-${i}-${s}`,
      options: { Size: s },
      amount: `${1000 + (i % 500)}.${k}0`,
      stock: (i + k) % 9,
    })),
  }
}

function medusaInput(p: BulkProduct, placement: BulkPlacement) {
  return {
    title: p.title,
    handle: p.handle,
    status: p.status,
    external_id: p.external_id,
    description: p.description,
    thumbnail: p.thumbnail,
    metadata: p.metadata,
    images: p.images.map((url) => ({ url })),
    sales_channels: [{ id: placement.salesChannelId }],
    ...(placement.shippingProfileId ? { shipping_profile_id: placement.shippingProfileId } : {}),
    options: p.options.map((o) => ({ title: o.title, values: o.values })),
    variants: p.variants.map((v, k) => ({
      title: v.title,
      sku: v.sku,
      variant_rank: k,
      manage_inventory: true,
      options: v.options,
      prices: [{ amount: v.amount as unknown as number, currency_code: placement.currencyCode }],
    })),
  }
}

class Meter {
  wallMs = 0
  cpuMs = 0
  count = 0
  async run<T>(count: number, fn: () => Promise<T>): Promise<T> {
    const c0 = process.cpuUsage()
    const t0 = process.hrtime.bigint()
    const r = await fn()
    this.wallMs += Number(process.hrtime.bigint() - t0) / 1e6
    const c = process.cpuUsage(c0)
    this.cpuMs += (c.user + c.system) / 1000
    this.count += count
    return r
  }
  line(label: string, unit = "products") {
    const perS = this.count / (this.wallMs / 1000)
    return `${label.padEnd(34)} ${String(this.count).padStart(6)} ${unit} in ${(this.wallMs / 1000).toFixed(1).padStart(6)} s = ${perS.toFixed(1).padStart(7)} ${unit}/s, app CPU ${(this.cpuMs / 1000).toFixed(1)} s (${(this.cpuMs / this.count).toFixed(2)} ms each)`
  }
}

/** With BENCH_SQL_TRACE=1: the slowest statement shapes on the shared connection, per phase. */
function traceSql(pg: any) {
  const totals = new Map<string, { ms: number; n: number }>()
  const started = new Map<string, number>()
  if (process.env.BENCH_SQL_TRACE) {
    pg.on("query", (q: any) => started.set(q.__knexQueryUid, performance.now()))
    pg.on("query-response", (_r: unknown, q: any) => {
      const t = started.get(q.__knexQueryUid)
      if (t === undefined) return
      started.delete(q.__knexQueryUid)
      const key = String(q.sql)
        .replace(/\s+/g, " ")
        .replace(/\(\?(, \?)*\)/g, "(…)")
        .replace(/(\(\?, \?::numeric, \?::jsonb\),? ?)+/g, "(…)")
        .slice(0, 110)
      const e = totals.get(key) ?? { ms: 0, n: 0 }
      e.ms += performance.now() - t
      e.n++
      totals.set(key, e)
    })
  }
  return {
    print(phase: string) {
      if (!process.env.BENCH_SQL_TRACE) return
      const top = [...totals].sort((a, b) => b[1].ms - a[1].ms).slice(0, 8)
      console.log(`  slowest SQL, ${phase}:`)
      for (const [sql, e] of top) console.log(`    ${(e.ms / 1000).toFixed(2)} s ${e.n}× ${sql}`)
      totals.clear()
    },
  }
}

const mb = (n: number) => `${Math.round(n / 1048576)} MB`
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")

export default async function bench({ container, args }: { container: any; args: string[] }) {
  const [products = 3000, removals = 5000, changes = 1000, medusaRemovals = 100] = args.map(Number)
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const trace = traceSql(pg)
  let peakRss = process.memoryUsage().rss
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200)

  const [salesChannel] = await container.resolve(Modules.SALES_CHANNEL).listSalesChannels({}, { take: 1 })
  const [profile] = await container.resolve(Modules.FULFILLMENT).listShippingProfiles({}, { take: 1 })
  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({ input: { locations: [{ name: "Bench" }] } })
  const placement: BulkPlacement = {
    salesChannelId: salesChannel.id,
    stockLocationId: location.id,
    shippingProfileId: profile?.id ?? null,
    currencyCode: "uah",
  }
  console.log(
    `bulk-write bench: ${products} products a path in pages of ${PAGE}, load ${load()}, ${os.cpus().length} cores, RSS ${mb(process.memoryUsage().rss)}`
  )

  // ── first sync: alternating pages, same shapes on both paths ──────────────
  const bulk = new Meter()
  const medusa = new Meter()
  let variants = 0
  let images = 0
  for (let start = 0; start < products; start += PAGE) {
    const n = Math.min(PAGE, products - start)
    const page = (tag: string) => Array.from({ length: n }, (_, k) => synthetic(start + k, tag))
    const b = page("b")
    variants += b.reduce((s, p) => s + p.variants.length, 0)
    images += b.reduce((s, p) => s + p.images.length, 0)
    const runBulk = () => bulk.run(n, () => writePageInBulk(container, (w) => w.createProducts(b, placement)))
    const runMedusa = () =>
      medusa.run(n, async () => {
        const { result } = await createProductsWorkflow(container).run({ input: { products: page("m").map((p) => medusaInput(p, placement)) as any } })
        const { data: links } = await query.graph({
          entity: "product_variant_inventory_item",
          fields: ["inventory_item_id", "variant.sku"],
          filters: { variant_id: result.flatMap((p: any) => p.variants.map((v: any) => v.id)) },
        })
        const stock = new Map(page("m").flatMap((p) => p.variants.map((v) => [v.sku, v.stock] as const)))
        await createInventoryLevelsWorkflow(container).run({
          input: {
            inventory_levels: links.map((l: any) => ({
              inventory_item_id: l.inventory_item_id,
              location_id: location.id,
              stocked_quantity: stock.get(l.variant.sku) ?? 0,
            })),
          },
        })
      })
    // Alternate which path goes first so neither always meets a warmer cache.
    if ((start / PAGE) % 2 === 0) {
      await runBulk()
      await runMedusa()
    } else {
      await runMedusa()
      await runBulk()
    }
  }
  console.log(`catalog: ${products} products, ${variants} variants, ${images} images a path`)
  console.log(bulk.line("create, bulk writer"))
  console.log(medusa.line("create, createProductsWorkflow+levels"))
  trace.print("first sync (both paths)")
  console.log(
    `ratio bulk / Medusa: ${(bulk.count / bulk.wallMs / (medusa.count / medusa.wallMs)).toFixed(2)}x products/s, ${(medusa.cpuMs / bulk.cpuMs).toFixed(2)}x less app CPU; load ${load()}; RSS ${mb(process.memoryUsage().rss)}, peak ${mb(peakRss)}`
  )

  // ── price-only and stock-only changes on bulk-written products ─────────────
  const changed: { product_id: string; variant_id: string; inventory_item_id: string }[] = (
    await pg.raw(
      `select v.product_id, v.id as variant_id, l.inventory_item_id from product_variant v
         join product_variant_inventory_item l on l.variant_id = v.id and l.deleted_at is null
        where v.product_id in (select id from product where handle like 'bench-b-%' and deleted_at is null order by handle limit ?)`,
      [changes]
    )
  ).rows
  const byProduct = new Map<string, typeof changed>()
  for (const r of changed) byProduct.set(r.product_id, [...(byProduct.get(r.product_id) ?? []), r])
  const productPages: (typeof changed)[] = []
  let current: typeof changed = []
  let inPage = 0
  for (const rows of byProduct.values()) {
    current.push(...rows)
    if (++inPage === PAGE) {
      productPages.push(current)
      current = []
      inPage = 0
    }
  }
  if (current.length) productPages.push(current)
  const reprice = new Meter()
  for (const rows of productPages) {
    await reprice.run(new Set(rows.map((r) => r.product_id)).size, () =>
      writePageInBulk(container, (w) =>
        w.setBasePrices(
          rows.map((r, k) => ({ variantId: r.variant_id, amount: `${2000 + k}.5` })),
          "uah"
        )
      )
    )
  }
  console.log(reprice.line("price-only change, bulk writer"))
  trace.print("price-only")
  const restock = new Meter()
  for (const rows of productPages) {
    await restock.run(new Set(rows.map((r) => r.product_id)).size, () =>
      writePageInBulk(container, (w) =>
        w.setStock(
          rows.map((r, k) => ({ inventoryItemId: r.inventory_item_id, quantity: 50 + (k % 7) })),
          location.id
        )
      )
    )
  }
  console.log(restock.line("stock-only change, bulk writer"))

  // ── removals: extra bulk-written products, removed in pages ───────────────
  const seed = new Meter()
  const doomed: string[] = []
  for (let start = 0; start < removals; start += PAGE) {
    const n = Math.min(PAGE, removals - start)
    const created = await seed.run(n, () =>
      writePageInBulk(container, (w) =>
        w.createProducts(
          Array.from({ length: n }, (_, k) => synthetic(start + k, "r")),
          placement
        )
      )
    )
    doomed.push(...created.map((c) => c.productId))
  }
  console.log(seed.line("create (removal seed), bulk writer"))
  const remove = new Meter()
  for (let start = 0; start < doomed.length; start += PAGE) {
    const ids = doomed.slice(start, start + PAGE)
    await remove.run(ids.length, () => writePageInBulk(container, (w) => w.removeProducts(ids)))
  }
  console.log(remove.line("removal, bulk writer"))
  trace.print("removal")
  const mRemove = new Meter()
  const mIds: string[] = (await pg.raw(`select id from product where handle like 'bench-m-%' and deleted_at is null limit ?`, [medusaRemovals])).rows.map(
    (r: any) => r.id
  )
  for (let start = 0; start < mIds.length; start += 50) {
    const ids = mIds.slice(start, start + 50)
    await mRemove.run(ids.length, () => deleteProductsWorkflow(container).run({ input: { ids } }))
  }
  console.log(mRemove.line("removal, deleteProductsWorkflow"))
  clearInterval(sampler)
  console.log(`end: load ${load()}; RSS ${mb(process.memoryUsage().rss)}, peak ${mb(peakRss)}`)
}

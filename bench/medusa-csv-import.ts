// Medusa's own CSV product import of the sandbox catalog, for the side-by-side bench (bench/import.ts).
// The CSV uses the columns of Medusa's CSVNormalizer (@medusajs/utils product/csv-normalizer). It goes
// the way the 2.21 admin sends it: POST /admin/uploads, then POST /admin/products/imports with the
// file's key (importProductsAsChunksWorkflow), then POST /admin/products/imports/:transaction_id/confirm;
// the import runs in the background. (POST /admin/products/import is the deprecated route.)
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../integration-tests/harness/database"
import type { MedusaApp } from "../integration-tests/harness"
import { sql } from "../integration-tests/medusa/poll-and-query"

interface Card {
  id: number | string
  sku: string
  name: string
  price?: string
  sizes?: { size: string; price?: string }[]
  images?: { url: string }[]
}

/** Every card the sandbox serves, with the bench's markup (the plugin's full sync sees the same). */
export async function readCatalog(baseUrl: string, apiKey: string, markupPercent: string): Promise<Card[]> {
  const cards: Card[] = []
  let cursor = ""
  for (;;) {
    const q = new URLSearchParams({ limit: "200", markup_percent: markupPercent, ...(cursor ? { cursor } : {}) })
    const res = await fetch(`${baseUrl}/v1/products?${q}`, { headers: { "x-api-key": apiKey } })
    if (!res.ok) throw new Error(`catalog read: ${res.status} ${await res.text()}`)
    const page = (await res.json()) as { data: Card[]; meta: { next_cursor?: string; has_more: boolean } }
    cards.push(...page.data)
    if (!page.meta.has_more || !page.meta.next_cursor) return cards
    cursor = page.meta.next_cursor
  }
}

const quote = (v: string) => `"${v.replace(/"/g, '""')}"`

/** One row per variant (a size, or one "One size" variant), Medusa's product-import columns. */
export function catalogCsv(cards: Card[], placement: { salesChannelId: string; shippingProfileId: string; currency: string }): string {
  const maxImages = Math.max(1, ...cards.map((c) => c.images?.length ?? 0))
  const header = [
    "Product Handle",
    "Product Title",
    "Product Status",
    "Product Thumbnail",
    ...Array.from({ length: maxImages }, (_, i) => `Product Image ${i + 1}`),
    "Product Sales Channel 1",
    "Shipping Profile Id",
    "Variant Title",
    "Variant Sku",
    `Variant Price ${placement.currency.toUpperCase()}`,
    "Variant Option 1 Name",
    "Variant Option 1 Value",
  ]
  const lines = [header.map(quote).join(",")]
  for (const card of cards) {
    const images = (card.images ?? []).map((i) => i.url)
    // Medusa's CSV parsing turns a numeric cell ("42") into a number, which its option validator then
    // rejects: size values get a word, which costs the import nothing.
    const variants = card.sizes?.length
      ? card.sizes.map((s) => ({ size: `Size ${s.size}`, price: s.price ?? card.price }))
      : [{ size: "One size", price: card.price }]
    for (const v of variants) {
      const row = [
        `p-${card.id}`,
        card.name,
        "published",
        images[0] ?? "",
        ...Array.from({ length: maxImages }, (_, i) => images[i] ?? ""),
        placement.salesChannelId,
        placement.shippingProfileId,
        v.size,
        card.sizes?.length ? `${card.sku}-${v.size.slice(5)}` : card.sku,
        v.price ?? "0",
        "Size",
        v.size,
      ]
      lines.push(row.map((x) => quote(String(x))).join(","))
    }
  }
  return lines.join("\n")
}

async function adminToken(app: MedusaApp): Promise<string> {
  const res = await fetch(`${app.url}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  })
  const body = (await res.json()) as { token?: string }
  if (!body.token) throw new Error(`admin login failed: ${res.status}`)
  return body.token
}

/** The import's own end: the admin feed notification its workflow sends last ("completed successfully" or "Failed to import"). */
async function importOutcome(databaseUrl: string, filename: string): Promise<"done" | "failed" | null> {
  const rows = await sql(databaseUrl, "select data->>'description' as d from notification where channel = 'feed' and data->>'description' like $1", [
    `%${filename}%`,
  ])
  if (rows.some((r) => /^Failed to import/.test(r.d))) return "failed"
  return rows.some((r) => /completed successfully/.test(r.d)) ? "done" : null
}

/**
 * Uploads the CSV, confirms the import and waits for its workflow's last step (the success
 * notification), so prices and inventory of the last chunk count too, not just the product rows.
 * Returns the seconds from upload to that end, and to the moment every product row existed.
 */
export async function importCsv(
  app: MedusaApp,
  databaseUrl: string,
  csv: string,
  expectedProducts: number,
  timeoutMs = 3600_000
): Promise<{ seconds: number; productRowsSeconds: number | null; lastRowSeconds: number }> {
  const token = await adminToken(app)
  const filename = `catalog-${Date.now()}.csv`
  const started = Date.now()
  // The 2.21 admin's way (js-sdk admin.product.createImport with the local file provider): the
  // file to /admin/uploads, its key to /admin/products/imports, then the confirm.
  const auth = { authorization: `Bearer ${token}` }
  const form = new FormData()
  form.append("files", new Blob([csv], { type: "text/csv" }), filename)
  const upload = await fetch(`${app.url}/admin/uploads`, { method: "POST", headers: auth, body: form })
  const uploaded = (await upload.json()) as { files?: { id: string }[] }
  const fileKey = uploaded.files?.[0]?.id
  if (upload.status !== 200 || !fileKey) throw new Error(`upload refused: ${upload.status} ${JSON.stringify(uploaded).slice(0, 500)}`)
  const started_ = await fetch(`${app.url}/admin/products/imports`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ file_key: fileKey, originalname: filename, extension: "csv", size: Buffer.byteLength(csv), mime_type: "text/csv" }),
  })
  const imported = (await started_.json()) as { transaction_id?: string }
  if (started_.status !== 202 || !imported.transaction_id) throw new Error(`import refused: ${started_.status} ${JSON.stringify(imported).slice(0, 500)}`)
  const confirm = await fetch(`${app.url}/admin/products/imports/${imported.transaction_id}/confirm`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: "{}",
  })
  if (confirm.status !== 202) throw new Error(`import confirm refused: ${confirm.status} ${await confirm.text()}`)
  let productRowsSeconds: number | null = null
  // When the rows last grew: shows whether the notification comes right after the last write.
  let lastCounts = ""
  let lastRowSeconds = 0
  while (Date.now() - started < timeoutMs) {
    const outcome = await importOutcome(databaseUrl, filename)
    if (outcome === "failed") throw new Error("Medusa's import failed; see the app log")
    const [c] = await sql(
      databaseUrl,
      `select (select count(*) from product where deleted_at is null)::int as products,
              (select count(*) from price)::int as prices,
              (select count(*) from inventory_item)::int as items,
              (select count(*) from product_variant_inventory_item)::int as item_links,
              (select count(*) from product_variant_price_set)::int as price_links,
              (select count(*) from product_sales_channel)::int as channel_links`
    )
    const seconds = (Date.now() - started) / 1000
    if (productRowsSeconds === null && c.products >= expectedProducts) productRowsSeconds = seconds
    const counts = `${c.products}/${c.prices}/${c.items}/${c.item_links}/${c.price_links}/${c.channel_links}`
    if (counts !== lastCounts) ((lastCounts = counts), (lastRowSeconds = seconds))
    if (outcome === "done") {
      if (c.products < expectedProducts) throw new Error(`Medusa's import reported success with ${c.products} of ${expectedProducts} products`)
      return { seconds, productRowsSeconds, lastRowSeconds }
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`Medusa's import did not finish in ${timeoutMs / 1000} s`)
}

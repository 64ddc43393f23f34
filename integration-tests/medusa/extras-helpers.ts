// Helpers for the fidelity specs: a pass-through proxy in front of the sandbox that records
// reference requests (to prove 304s) and can serve an edited category tree, and readers for
// the catalog's own view (exact ids through the plugin's client).
import { createHash } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { CatalogClient, type Brand, type Category, type ProductCard } from "../../src/catalog-client"

export interface ProxyLogEntry {
  path: string
  status: number
  conditional: boolean
}

export interface CatalogProxy {
  url: string
  log: ProxyLogEntry[]
  /** Serve this category list instead of the sandbox's (null: pass through). */
  setCategories(categories: Category[] | null): void
  close(): Promise<void>
}

function categoriesBody(categories: Category[]): string {
  return JSON.stringify({
    data: categories.map((c) => ({
      id: Number(c.id),
      parent_id: c.parent_id === null ? null : Number(c.parent_id),
      name: c.name,
      name_uk: c.name_uk,
      name_ru: c.name_ru,
      slug: c.slug,
    })),
  })
}

export async function startCatalogProxy(upstream: string): Promise<CatalogProxy> {
  const log: ProxyLogEntry[] = []
  let override: { body: string; etag: string } | null = null
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://proxy")
    const conditional = req.headers["if-none-match"] !== undefined || req.headers["if-modified-since"] !== undefined
    try {
      if (override && url.pathname === "/v1/categories") {
        const status = req.headers["if-none-match"] === override.etag ? 304 : 200
        log.push({ path: url.pathname, status, conditional })
        res.writeHead(status, { etag: override.etag, "content-type": "application/json" })
        res.end(status === 304 ? undefined : override.body)
        return
      }
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "connection") headers[k] = v
      const answer = await fetch(upstream + url.pathname + url.search, { method: req.method, headers })
      const body = Buffer.from(await answer.arrayBuffer())
      log.push({ path: url.pathname, status: answer.status, conditional })
      const out: Record<string, string> = {}
      answer.headers.forEach((v, k) => {
        if (!["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"].includes(k)) out[k] = v
      })
      res.writeHead(answer.status, out)
      res.end(answer.status === 304 ? undefined : body)
    } catch (error) {
      res.writeHead(502, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: { code: "internal_error", message: String(error), request_id: null, details: null } }))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    setCategories(categories) {
      if (!categories) {
        override = null
        return
      }
      const body = categoriesBody(categories)
      override = { body, etag: `"${createHash("sha1").update(body).digest("hex")}"` }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

export interface CatalogView {
  cards: ProductCard[]
  categories: Category[]
  brands: Brand[]
}

/** The catalog as the plugin sees it with these pricing settings (ids exact, through the real client). */
export async function readCatalog(baseUrl: string, apiKey: string, pricing: Record<string, string>): Promise<CatalogView> {
  const client = new CatalogClient({
    baseUrl,
    apiKey,
    pricing: { price_calculation: "max", ...pricing } as never,
    limitCeiling: { requestsPerMinute: 100_000_000, maxConcurrent: 1000 },
  })
  try {
    const cards: ProductCard[] = []
    for await (const page of client.listProducts({ limit: 200 } as never)) cards.push(...(page as { items: ProductCard[] }).items)
    const categories = (await client.getCategories({ validators: {} })).data ?? []
    const brands = (await client.getBrands({ validators: {} })).data ?? []
    return { cards, categories, brands }
  } finally {
    await client.close()
  }
}

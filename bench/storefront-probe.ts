// A steady storefront probe: at most 2 shoppers, 4 operations a second in all, each operation one
// of the four a shopper does most (the product list with prices, a product page, a cart create, a
// line item add), timed from the request to the last byte of the answer.

export const PROBE_KINDS = ["list", "product", "cart", "line_item"] as const
export type ProbeKind = (typeof PROBE_KINDS)[number]

export interface ProbeSample {
  kind: ProbeKind
  ms: number
  ok: boolean
  /** For a failed operation: its status and the start of its answer. */
  error?: string
}

export interface StoreTarget {
  url: string
  publishableKey: string
  regionId: string
}

const SHOPPERS = 2
const OPS_PER_SECOND = 4

/** The value at quantile q (0..1) of sorted values, nearest rank. */
export function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}

export interface KindFigures {
  n: number
  errors: number
  p50: number
  p95: number
  p99: number
}

export function figuresOf(samples: ProbeSample[]): Record<ProbeKind | "all", KindFigures> {
  const of = (list: ProbeSample[]): KindFigures => {
    const ms = list.map((s) => s.ms).sort((a, b) => a - b)
    return { n: list.length, errors: list.filter((s) => !s.ok).length, p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), p99: quantile(ms, 0.99) }
  }
  const out = { all: of(samples) } as Record<ProbeKind | "all", KindFigures>
  for (const kind of PROBE_KINDS) out[kind] = of(samples.filter((s) => s.kind === kind))
  return out
}

async function timedFetch(target: StoreTarget, path: string, body?: unknown): Promise<{ ms: number; ok: boolean; json: any; error?: string }> {
  const started = performance.now()
  try {
    const res = await fetch(target.url + path, {
      method: body === undefined ? "GET" : "POST",
      headers: { "x-publishable-api-key": target.publishableKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    const ms = performance.now() - started
    let json: any = null
    try {
      json = JSON.parse(text)
    } catch {
      // an answer that is not JSON counts as an error below
    }
    const ok = res.ok && json !== null
    return { ms, ok, json, ...(ok ? {} : { error: `${res.status} ${text.slice(0, 160)}` }) }
  } catch (e) {
    return { ms: performance.now() - started, ok: false, json: null, error: String(e) }
  }
}

const PRICED = "fields=*variants.calculated_price"

/** One shopper's visit: list, open a product, create a cart, add one of the product's sizes. */
async function* visit(target: StoreTarget, seed: () => number, known: { count: number }): AsyncGenerator<ProbeSample> {
  const region = `region_id=${target.regionId}`
  // A page of the listing anywhere in the catalog, as shoppers page and filter (the count from the last listing).
  const offset = known.count > 12 ? Math.floor(seed() * (known.count - 12)) : 0
  const list = await timedFetch(target, `/store/products?limit=12&offset=${offset}&${PRICED}&${region}`)
  yield { kind: "list", ms: list.ms, ok: list.ok, error: list.error }
  known.count = Number(list.json?.count ?? known.count)
  const products: any[] = list.json?.products ?? []
  const product = products[Math.floor(seed() * products.length)]
  if (!product) return
  // With each size's stock, as a product page shows it (and so the cart gets a size in stock).
  const page = await timedFetch(target, `/store/products/${product.id}?${PRICED},+variants.inventory_quantity&${region}`)
  yield { kind: "product", ms: page.ms, ok: page.ok, error: page.error }
  const cart = await timedFetch(target, `/store/carts`, { region_id: target.regionId })
  yield { kind: "cart", ms: cart.ms, ok: cart.ok, error: cart.error }
  const variants: any[] = page.json?.product?.variants ?? []
  const variant = variants.find((v) => v.calculated_price && (v.manage_inventory === false || v.allow_backorder || Number(v.inventory_quantity) > 0))
  // A product sold out in every size: the shopper leaves without a cart item.
  if (!cart.json?.cart?.id || !variant) return
  const item = await timedFetch(target, `/store/carts/${cart.json.cart.id}/line-items`, { variant_id: variant.id, quantity: 1 })
  yield { kind: "line_item", ms: item.ms, ok: item.ok, error: item.error }
}

/** Probes until `until()` says stop: each shopper starts an operation every SHOPPERS / OPS_PER_SECOND seconds at most. */
export async function probe(target: StoreTarget, until: () => boolean): Promise<ProbeSample[]> {
  const samples: ProbeSample[] = []
  const known = { count: 0 }
  const interval = (SHOPPERS / OPS_PER_SECOND) * 1000
  let state = 12345
  const seed = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31
    return state / 2 ** 31
  }
  const shopper = async () => {
    while (!until()) {
      for await (const sample of visit(target, seed, known)) {
        const started = Date.now()
        samples.push(sample)
        if (until()) return
        // Paced: an operation slower than the interval is followed at once, a faster one waits.
        await new Promise((r) => setTimeout(r, Math.max(0, interval - sample.ms - (Date.now() - started))))
      }
    }
  }
  await Promise.all(Array.from({ length: SHOPPERS }, shopper))
  return samples
}

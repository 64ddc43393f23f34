// A hostile catalog: malformed change items of many kinds, written as raw JSON text (so a
// string id stays a string, a 30-digit number stays a number, a NUL stays an escape), to be
// mixed into the valid pages the sandbox serves (see startCatalogProxy's rewriteChanges).
import { parse } from "lossless-json"

/** Ids of hostile cards: valid int64 above 2^53, far from the sandbox's ids. */
const BASE = 8_000_000_000_000_000_000n

export type Expectation =
  /** Stored, made safe (text cleaned, bad image URLs dropped). */
  | { kind: "kept"; id: string; warnings: string[] }
  /** Refused by validation: the run lists it with this id (or null and an excerpt) and field. */
  | { kind: "rejected"; id: string | null; field: string | null; excerptHas?: string }
  /** Valid for the client but refused by the database: rejected with its id, never stalling. */
  | { kind: "refused-by-db"; id: string }

export interface HostileItem {
  what: string
  json: string
  expect: Expectation
}

const q = JSON.stringify

/** Deterministic text of letters and digits a compressor cannot shrink much. */
function noise(length: number, seed: number): string {
  const chars = "abcdefghijklmnopqrstuvwxyz0123456789"
  let x = seed >>> 0 || 1
  let out = ""
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out += chars[(x >>> 0) % chars.length]
  }
  return out
}

/** A card as JSON text; `over` replaces fields by raw JSON text (undefined: drop the field). */
export function cardJson(idText: string, over: Record<string, string | undefined> = {}): string {
  const fields: Record<string, string | undefined> = {
    id: idText,
    sku: q(`HOSTILE-${idText.replace(/\D/g, "").slice(-6) || "x"}`),
    name: q("Hostile card"),
    name_uk: q("Ворожа картка"),
    name_ru: q("Враждебная карточка"),
    cost_price: q("100.00"),
    price: q("130.00"),
    in_stock: "true",
    sizes: `[{"size":"40","stock":2,"cost_price":"100.00","price":"130.00"},{"size":"41","stock":1,"cost_price":"100.00","price":"130.00"}]`,
    images: `[{"url":"https://img.example/${idText.replace(/\D/g, "")}/main.jpg","is_main":true}]`,
    sync_version: "1",
    ...over,
  }
  return `{${Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${q(k)}:${v}`)
    .join(",")}}`
}

export const item = (idText: string, product: string, status = '"active"') => `{"status":${status},"id":${idText},"product":${product}}`

/** The malformed kinds that validation refuses; `copy` varies the id so each kind can repeat. */
function rejectedKinds(copy: number): HostileItem[] {
  let n = 0
  const next = () => (BASE + BigInt(copy * 100 + ++n)).toString()
  const kinds: HostileItem[] = []
  const add = (what: string, make: (id: string) => { json: string; expect: Expectation }) => {
    const id = next()
    const made = make(id)
    kinds.push({ what, ...made })
  }
  add("id as a JSON string", (id) => ({ json: item(q(id), cardJson(q(id))), expect: { kind: "rejected", id, field: "id" } }))
  add("stock as a string", (id) => ({
    json: item(id, cardJson(id, { sizes: `[{"size":"40","stock":"3","price":"130.00"}]` })),
    expect: { kind: "rejected", id, field: "sizes[0].stock" },
  }))
  add("negative size price", (id) => ({
    json: item(id, cardJson(id, { sizes: `[{"size":"40","stock":3,"price":"-5.00","cost_price":"1.00"}]` })),
    expect: { kind: "rejected", id, field: "sizes[0].price" },
  }))
  add("30-digit price", (id) => ({
    json: item(id, cardJson(id, { price: q("123456789012345678901234567890"), sizes: "[]" })),
    expect: { kind: "rejected", id, field: "price" },
  }))
  add("30-digit price as a JSON number", (id) => ({
    json: item(id, cardJson(id, { sizes: `[{"size":"40","stock":3,"price":123456789012345678901234567890}]` })),
    expect: { kind: "rejected", id, field: "sizes[0].price" },
  }))
  add("price with 3 decimals", (id) => ({
    json: item(id, cardJson(id, { sizes: `[{"size":"40","stock":3,"price":"130.005"}]` })),
    expect: { kind: "rejected", id, field: "sizes[0].price" },
  }))
  add("duplicate size", (id) => ({
    json: item(id, cardJson(id, { sizes: `[{"size":"40","stock":3,"price":"1.00"},{"size":"40 ","stock":1,"price":"2.00"}]` })),
    expect: { kind: "rejected", id, field: "sizes[1].size" },
  }))
  add("empty size", (id) => ({
    json: item(id, cardJson(id, { sizes: `[{"size":"","stock":3,"price":"1.00"}]` })),
    expect: { kind: "rejected", id, field: "sizes[0].size" },
  }))
  add("unknown status", (id) => ({ json: item(id, cardJson(id), '"archived"'), expect: { kind: "rejected", id, field: "status" } }))
  add("missing status", (id) => ({ json: `{"id":${id},"product":${cardJson(id)}}`, expect: { kind: "rejected", id, field: "status" } }))
  add("in_stock as a string", (id) => ({ json: item(id, cardJson(id, { in_stock: q("yes") })), expect: { kind: "rejected", id, field: "in_stock" } }))
  add("sizes not a list", (id) => ({ json: item(id, cardJson(id, { sizes: q("40,41") })), expect: { kind: "rejected", id, field: "sizes" } }))
  add("huge stock", (id) => ({
    json: item(id, cardJson(id, { sizes: `[{"size":"40","stock":100000000000000000000000,"price":"1.00"}]` })),
    expect: { kind: "rejected", id, field: "sizes[0].stock" },
  }))
  add("sync_version as a string", (id) => ({ json: item(id, cardJson(id, { sync_version: q("1") })), expect: { kind: "rejected", id, field: "sync_version" } }))
  add("item id differs from the card's", (id) => ({
    json: item(id, cardJson((BigInt(id) + 50n).toString())),
    expect: { kind: "rejected", id, field: "id" },
  }))
  add("image without a URL", (id) => ({
    json: item(id, cardJson(id, { images: `[{"is_main":true}]` })),
    expect: { kind: "rejected", id, field: "images[0].url" },
  }))
  // No readable id: the run keeps an excerpt of what was received.
  add("id beyond int64", () => ({
    json: item("9223372036854775808", cardJson("9223372036854775808", { name: q(`beyond int64 #${copy}`) })),
    expect: { kind: "rejected", id: null, field: "id", excerptHas: "9223372036854775808" },
  }))
  add("id 0", () => ({
    json: item("0", cardJson("0", { name: q(`zero #${copy}`) })),
    expect: { kind: "rejected", id: null, field: "id", excerptHas: `zero #${copy}` },
  }))
  add("not an object", () => ({ json: q(`garbage #${copy}`), expect: { kind: "rejected", id: null, field: null, excerptHas: `garbage #${copy}` } }))
  return kinds
}

const KEPT_BASE = BASE + 900n
export const NUL_CARD_ID = (KEPT_BASE + 1n).toString()
export const BAD_IMAGES_ID = (KEPT_BASE + 2n).toString()
export const NO_GOOD_IMAGE_ID = (KEPT_BASE + 3n).toString()
export const HUGE_TEXT_ID = (KEPT_BASE + 4n).toString()
export const DB_POISON_ID = (KEPT_BASE + 5n).toString()

export const BAD_IMAGE_URLS = ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "file:///etc/passwd", "not a url"]
export const GOOD_IMAGE_URL = "https://img.example/hostile/good.jpg"

/** Cards that are stored once made safe, and one the database refuses. */
function keptKinds(): HostileItem[] {
  const badImages = (main: boolean) =>
    `[${BAD_IMAGE_URLS.map((url, i) => `{"url":${q(url)},"is_main":${main && i === 0}}`).join(",")}` +
    (main ? `,{"url":${q(GOOD_IMAGE_URL)},"is_main":false}]` : "]")
  return [
    {
      what: "NUL bytes, control characters and a lone surrogate in text",
      json: item(
        NUL_CARD_ID,
        cardJson(NUL_CARD_ID, {
          name: q("Bad\u0000Name"),
          name_uk: q("Кеди\u0000 Nike\u0007"),
          name_ru: q("Кеды\u0000"),
          description_uk: q("Опис\u0000 з NUL \ud800 і керуючими\u0001"),
          sku: q("NUL\u0000SKU"),
          sizes: `[{"size":"4\\u00002","stock":1,"price":"10.00"}]`,
          brand: `{"id":${(KEPT_BASE + 70n).toString()},"name":"Brand\\u0000"}`,
        })
      ),
      expect: { kind: "kept", id: NUL_CARD_ID, warnings: [] },
    },
    {
      what: "javascript:, data:, file: and relative image URLs before a good one",
      json: item(BAD_IMAGES_ID, cardJson(BAD_IMAGES_ID, { images: badImages(true) })),
      expect: { kind: "kept", id: BAD_IMAGES_ID, warnings: ["images[0].url", "images[1].url", "images[2].url", "images[3].url"] },
    },
    {
      what: "no usable image at all",
      json: item(NO_GOOD_IMAGE_ID, cardJson(NO_GOOD_IMAGE_ID, { images: badImages(false) })),
      expect: { kind: "kept", id: NO_GOOD_IMAGE_ID, warnings: ["images[0].url", "images[1].url", "images[2].url", "images[3].url"] },
    },
    {
      what: "huge texts",
      json: item(HUGE_TEXT_ID, cardJson(HUGE_TEXT_ID, { name_uk: q(noise(1000, 7)), description_uk: q(noise(50_000, 11)) })),
      expect: { kind: "kept", id: HUGE_TEXT_ID, warnings: [] },
    },
    {
      // Valid for the schema; its SKU (and with it the handle and variant SKU) is too large for
      // PostgreSQL's unique indexes. Alone on a page this used to fail the page forever.
      what: "SKU too large for the database's indexes",
      json: item(DB_POISON_ID, cardJson(DB_POISON_ID, { sku: q(noise(12_000, 13)) })),
      expect: { kind: "refused-by-db", id: DB_POISON_ID },
    },
  ]
}

/** Items for the first page(s) of a full pass, and for the last page (every run sees these). */
export function hostileItems(): { early: HostileItem[]; last: HostileItem[] } {
  const kept = keptKinds()
  return {
    early: [...rejectedKinds(1), ...rejectedKinds(2), ...rejectedKinds(3), kept[1]],
    last: [...kept, ...rejectedKinds(4).filter((_, i) => i % 3 === 0)],
  }
}

/** Mixes the items into a page's data, spread among the valid ones (parsed losslessly). */
export function mixInto(data: unknown[], items: HostileItem[]): unknown[] {
  const out = [...data]
  const step = Math.max(1, Math.floor(out.length / Math.max(1, items.length)))
  items.forEach((h, i) => out.splice(Math.min(out.length, i * (step + 1)), 0, parse(h.json)))
  return out
}

// Command-line arguments of `npm run catalog`. Anything wrong is a UsageError (exit code 2).
import { parseArgs } from "node:util"
import { toCatalogId } from "../ids"
import { pricingQuery, type PriceCalculation, type PricingOptions } from "../pricing"

export class UsageError extends Error {}

export const USAGE = `Usage: npm run catalog -- <command> --base-url URL --api-key KEY [pricing options]

Commands:
  me                      plan, expiry, limits and usage of the key
  product --id N          one product by catalog id
  product --sku S         one product by its exact article
  stock --ids 1,2,3       stock and prices (also --skus A,B; any number, split into batches)
  export --out FILE       the whole catalog through the changes feed as NDJSON, one card per
                          line; progress on stderr, the final cursor on stdout

Connection (or env CATALOG_BASE_URL / CATALOG_API_KEY; the env keeps the key out of ps):
  --base-url URL          API address without /v1, e.g. https://api.example.com
  --api-key KEY           the account's API key (never printed)

Pricing options (send the same ones in every run; the cursor remembers them):
  --price-calculation min|avg|max
  --markup-percent N      0..1000
  --discount-percent N    0..<100 (needs --markup-percent for old_price)
  --old-price-markup-percent N   0..1000

Other:
  --limit N               page size for export, 1..200 (default 200)
  -h, --help              this text`

export type Command =
  | { name: "me" }
  | { name: "product"; id?: string; sku?: string }
  | { name: "stock"; ids: string[]; skus: string[] }
  | { name: "export"; out: string; limit: number }
  | { name: "help" }

export interface CliConfig {
  command: Command
  baseUrl: string
  apiKey: string
  pricing: PricingOptions
}

function list(value: string | undefined): string[] {
  if (value === undefined) return []
  return value
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v.length > 0)
}

export function parseCliArgs(argv: string[], env: Record<string, string | undefined>): CliConfig {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        "base-url": { type: "string" },
        "api-key": { type: "string" },
        "price-calculation": { type: "string" },
        "markup-percent": { type: "string" },
        "discount-percent": { type: "string" },
        "old-price-markup-percent": { type: "string" },
        id: { type: "string" },
        sku: { type: "string" },
        ids: { type: "string" },
        skus: { type: "string" },
        out: { type: "string" },
        limit: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    })
  } catch (error) {
    // parseArgs names the offending option; it never echoes option values.
    throw new UsageError((error as Error).message)
  }
  const { values, positionals } = parsed
  if (values.help || positionals[0] === "help") {
    return { command: { name: "help" }, baseUrl: "", apiKey: "", pricing: {} }
  }
  if (positionals.length === 0) throw new UsageError("missing command: choose me, product, stock or export")
  if (positionals.length > 1) throw new UsageError(`unexpected argument after the command: ${JSON.stringify(positionals[1])}`)

  const baseUrl = values["base-url"] ?? env.CATALOG_BASE_URL
  const apiKey = values["api-key"] ?? env.CATALOG_API_KEY
  if (!baseUrl) throw new UsageError("missing --base-url (or CATALOG_BASE_URL)")
  try {
    const url = new URL(baseUrl)
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error()
  } catch {
    throw new UsageError("--base-url must be an absolute http(s) URL")
  }
  if (!apiKey) throw new UsageError("missing --api-key (or CATALOG_API_KEY)")

  const calculation = values["price-calculation"]
  if (calculation !== undefined && !["min", "avg", "max"].includes(calculation)) {
    throw new UsageError("--price-calculation must be min, avg or max")
  }
  const pricing: PricingOptions = {
    ...(calculation ? { price_calculation: calculation as PriceCalculation } : {}),
    ...(values["markup-percent"] !== undefined ? { markup_percent: values["markup-percent"] } : {}),
    ...(values["discount-percent"] !== undefined ? { discount_percent: values["discount-percent"] } : {}),
    ...(values["old-price-markup-percent"] !== undefined ? { old_price_markup_percent: values["old-price-markup-percent"] } : {}),
  }
  try {
    pricingQuery(pricing)
  } catch (error) {
    throw new UsageError(`--${(error as Error).message.replace(/_/g, "-")}`)
  }

  const name = positionals[0]
  const allowed: Record<string, string[]> = {
    me: [],
    product: ["id", "sku"],
    stock: ["ids", "skus"],
    export: ["out", "limit"],
  }
  if (!(name in allowed)) throw new UsageError(`unknown command "${name}": choose me, product, stock or export`)
  for (const option of ["id", "sku", "ids", "skus", "out", "limit"] as const) {
    if (values[option] !== undefined && !allowed[name].includes(option)) {
      throw new UsageError(`--${option} does not apply to "${name}"`)
    }
  }

  let command: Command
  switch (name) {
    case "me":
      command = { name: "me" }
      break
    case "product": {
      const { id, sku } = values
      if ((id === undefined) === (sku === undefined)) throw new UsageError("product needs exactly one of --id N or --sku S")
      if (id !== undefined && toCatalogId(id) === null) {
        throw new UsageError("--id must be an integer from 1 to 9223372036854775807")
      }
      if (sku !== undefined && (sku.length < 1 || sku.length > 100)) throw new UsageError("--sku must be 1 to 100 characters")
      command = { name: "product", ...(id !== undefined ? { id: toCatalogId(id)! } : { sku }) }
      break
    }
    case "stock": {
      const ids = list(values.ids)
      const skus = list(values.skus)
      if (ids.length + skus.length === 0) throw new UsageError("stock needs --ids 1,2,3 and/or --skus A,B")
      const bad = ids.find((id) => toCatalogId(id) === null)
      if (bad !== undefined) throw new UsageError(`--ids: ${JSON.stringify(bad)} is not an id from 1 to 9223372036854775807`)
      command = { name: "stock", ids: ids.map((id) => toCatalogId(id)!), skus }
      break
    }
    default: {
      if (!values.out) throw new UsageError("export needs --out FILE")
      const limit = values.limit === undefined ? 200 : Number(values.limit)
      if (!/^[0-9]+$/.test(values.limit ?? "200") || !Number.isInteger(limit) || limit < 1 || limit > 200) {
        throw new UsageError("--limit must be an integer from 1 to 200")
      }
      command = { name: "export", out: values.out, limit }
    }
  }
  return { command, baseUrl, apiKey, pricing }
}

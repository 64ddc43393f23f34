// An independent judge of "the shop equals the catalog": reads Medusa's own tables with plain
// SQL (no Medusa module, no plugin code) and compares them with the cards the catalog serves,
// computing what each card should look like from the catalog spec alone. Variants are matched
// by their option value (the size), never by SKU, so the SKU format is free to change.
import Decimal from "decimal.js"
import { Client } from "pg"

/** The parts of a catalog card the judge reads (ids as decimal strings). */
export interface TruthCard {
  id: string
  in_stock: boolean
  stock?: number | null
  cost_price: string | null
  price?: string | null
  old_price?: string | null
  sizes: { size: string; stock: number; cost_price?: string | null; price?: string | null; old_price?: string | null }[]
  images: { url: string; is_main: boolean }[]
}

export interface TruthVariant {
  id: string
  /** Option values of the variant (one: the size). */
  values: string[]
  /** Base prices (no price list), "uah:123.40". */
  base: string[]
  /** Prices in the plugin's sale price list. */
  sale: string[]
  /** Stocked quantity of every live level of the variant's inventory items. */
  stock: number[]
}

export interface TruthProduct {
  id: string
  external_id: string
  status: string
  thumbnail: string | null
  images: string[]
  /** Values of the product's options, as the product sees them (its own subset). */
  optionValues: string[]
  /** Live values of the product's exclusive options themselves (stale ones would show here). */
  exclusiveOptionValues: string[]
  optionCount: number
  variants: TruthVariant[]
}

export interface ShopTruth {
  products: Map<string, TruthProduct>
  /** external_ids with more than one live plugin product. */
  duplicates: string[]
}

async function query<T = any>(client: Client, text: string, params: unknown[] = []): Promise<T[]> {
  return (await client.query(text, params)).rows as T[]
}

const money = (value: string) => `uah:${new Decimal(value).toFixed(2)}`

function groupBy<T extends Record<string, any>>(rows: T[], key: string): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const r of rows) {
    const list = out.get(r[key]) ?? []
    list.push(r)
    out.set(r[key], list)
  }
  return out
}

/** Every live product the plugin made (metadata marker), with everything a shopper sees of it. */
export async function readShopTruth(databaseUrl: string): Promise<ShopTruth> {
  const client = new Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const products = await query(
      client,
      `select id, external_id, status, thumbnail from product
        where deleted_at is null and metadata->>'catalog_sync' = 'true'`
    )
    const ids = products.map((p) => p.id)
    const images = await query(client, `select product_id, url from image where deleted_at is null and product_id = any($1) order by product_id, rank, id`, [
      ids,
    ])
    const options = await query(
      client,
      `select ppo.product_id, o.id as option_id, o.is_exclusive, pov.value
         from product_product_option ppo
         join product_option o on o.id = ppo.product_option_id and o.deleted_at is null
         left join product_product_option_value ppov on ppov.product_product_option_id = ppo.id and ppov.deleted_at is null
         left join product_option_value pov on pov.id = ppov.product_option_value_id and pov.deleted_at is null
        where ppo.deleted_at is null and ppo.product_id = any($1)`,
      [ids]
    )
    const optionIds = [...new Set(options.filter((o) => o.is_exclusive).map((o) => o.option_id))]
    const exclusiveValues = await query(client, `select option_id, value from product_option_value where deleted_at is null and option_id = any($1)`, [
      optionIds,
    ])
    const variants = await query(client, `select id, product_id from product_variant where deleted_at is null and product_id = any($1)`, [ids])
    const variantIds = variants.map((v) => v.id)
    const values = await query(
      client,
      `select vo.variant_id, pov.value from product_variant_option vo join product_option_value pov on pov.id = vo.option_value_id
        where vo.variant_id = any($1)`,
      [variantIds]
    )
    const [saleList] = await query(
      client,
      `select id from price_list where deleted_at is null and type = 'sale' and metadata->>'source' = 'catalog-sync' order by created_at limit 1`
    )
    const prices = await query(
      client,
      `select l.variant_id, p.currency_code, p.raw_amount->>'value' as amount, p.price_list_id
         from product_variant_price_set l join price p on p.price_set_id = l.price_set_id and p.deleted_at is null
        where l.deleted_at is null and l.variant_id = any($1)`,
      [variantIds]
    )
    const levels = await query(
      client,
      `select l.variant_id, il.stocked_quantity
         from product_variant_inventory_item l
         join inventory_item ii on ii.id = l.inventory_item_id and ii.deleted_at is null
         join inventory_level il on il.inventory_item_id = l.inventory_item_id and il.deleted_at is null
        where l.deleted_at is null and l.variant_id = any($1)`,
      [variantIds]
    )
    const imagesBy = groupBy(images, "product_id")
    const optionsBy = groupBy(options, "product_id")
    const exclusiveBy = groupBy(exclusiveValues, "option_id")
    const variantsBy = groupBy(variants, "product_id")
    const valuesBy = groupBy(values, "variant_id")
    const pricesBy = groupBy(prices, "variant_id")
    const levelsBy = groupBy(levels, "variant_id")

    const out = new Map<string, TruthProduct>()
    const duplicates = new Set<string>()
    for (const p of products) {
      if (out.has(p.external_id)) duplicates.add(p.external_id)
      const opts = optionsBy.get(p.id) ?? []
      const ownOptionIds = [...new Set(opts.map((o) => o.option_id))]
      out.set(p.external_id, {
        id: p.id,
        external_id: p.external_id,
        status: p.status,
        thumbnail: p.thumbnail,
        images: (imagesBy.get(p.id) ?? []).map((i) => i.url),
        optionValues: opts
          .filter((o) => o.value !== null)
          .map((o) => o.value)
          .sort(),
        exclusiveOptionValues: ownOptionIds
          .filter((id) => opts.find((o) => o.option_id === id)?.is_exclusive)
          .flatMap((id) => (exclusiveBy.get(id) ?? []).map((v) => v.value))
          .sort(),
        optionCount: ownOptionIds.length,
        variants: (variantsBy.get(p.id) ?? []).map((v) => {
          const vp = pricesBy.get(v.id) ?? []
          return {
            id: v.id,
            values: (valuesBy.get(v.id) ?? []).map((x) => x.value),
            base: vp
              .filter((x) => x.price_list_id === null)
              .map((x) => `${x.currency_code}:${new Decimal(x.amount).toFixed(2)}`)
              .sort(),
            sale: vp
              .filter((x) => saleList && x.price_list_id === saleList.id)
              .map((x) => `${x.currency_code}:${new Decimal(x.amount).toFixed(2)}`)
              .sort(),
            stock: (levelsBy.get(v.id) ?? []).map((l) => Number(l.stocked_quantity)),
          }
        }),
      })
    }
    return { products: out, duplicates: [...duplicates] }
  } finally {
    await client.end()
  }
}

/** What a card must look like in the shop, from the spec alone. */
export function expectedOf(card: TruthCard) {
  const selling = (e: { price?: string | null; cost_price?: string | null }) => e.price ?? e.cost_price ?? null
  const amounts = (e: { price?: string | null; cost_price?: string | null; old_price?: string | null }) => {
    const sell = selling(e)
    const old = e.old_price ?? null
    if (sell !== null && old !== null && new Decimal(old).greaterThan(sell)) return { base: [money(old)], sale: [money(sell)] }
    return { base: sell === null ? [] : [money(sell)], sale: [] as string[] }
  }
  const seen = new Set<string>()
  const sizes = card.sizes.filter((s) => {
    const key = s.size.trim()
    if (!key || seen.has(key)) return false
    seen.add(key)
    return true
  })
  const variants = sizes.length
    ? sizes.map((s) => ({ size: s.size.trim() as string | null, stock: card.in_stock ? s.stock : 0, ...amounts(s) }))
    : [{ size: null as string | null, stock: card.in_stock ? Math.max(0, card.stock ?? 0) : 0, ...amounts(card) }]
  const urls: string[] = []
  for (const image of [...card.images.filter((i) => i.is_main), ...card.images.filter((i) => !i.is_main)]) {
    const url = image.url.trim()
    if (url && !urls.includes(url)) urls.push(url)
  }
  return {
    variants,
    images: urls,
    thumbnail: urls[0] ?? null,
    status: variants.some((v) => v.base.length > 0) ? "published" : "draft",
  }
}

/** Differences between the shop and the cards served (empty = equal). */
export function judgeShop(cards: TruthCard[], truth: ShopTruth): string[] {
  const problems: string[] = truth.duplicates.map((id) => `${id}: more than one live product`)
  const served = new Set<string>()
  const eq = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
  for (const card of cards) {
    served.add(card.id)
    const p = truth.products.get(card.id)
    if (!p) {
      problems.push(`${card.id}: missing in shop`)
      continue
    }
    const want = expectedOf(card)
    if (p.status !== want.status) problems.push(`${card.id}: status ${p.status} != ${want.status}`)
    if (!eq(p.images, want.images)) problems.push(`${card.id}: images [${p.images}] != [${want.images}]`)
    if (p.thumbnail !== want.thumbnail) problems.push(`${card.id}: thumbnail ${p.thumbnail} != ${want.thumbnail}`)
    if (p.optionCount !== 1) problems.push(`${card.id}: ${p.optionCount} options`)
    if (p.variants.length !== want.variants.length) problems.push(`${card.id}: ${p.variants.length} variants != ${want.variants.length}`)
    // A card without sizes has one variant whose single option value is the product's only value (its label is free).
    const wantValues = want.variants[0].size === null ? [...p.optionValues.slice(0, 1)] : want.variants.map((v) => v.size!).sort()
    if (want.variants[0].size === null && p.optionValues.length !== 1) problems.push(`${card.id}: option values [${p.optionValues}] for a card without sizes`)
    if (!eq(p.optionValues, wantValues)) problems.push(`${card.id}: option values [${p.optionValues}] != [${wantValues}]`)
    if (p.exclusiveOptionValues.length && !eq(p.exclusiveOptionValues, wantValues)) {
      problems.push(`${card.id}: option's own values [${p.exclusiveOptionValues}] != [${wantValues}]`)
    }
    for (const w of want.variants) {
      const matches = w.size === null ? p.variants : p.variants.filter((v) => v.values.includes(w.size!))
      if (matches.length !== 1) {
        problems.push(`${card.id}/${w.size ?? "-"}: ${matches.length} variants`)
        continue
      }
      const v = matches[0]
      if (!eq(v.base, w.base)) problems.push(`${card.id}/${w.size ?? "-"}: price [${v.base}] != [${w.base}]`)
      if (!eq(v.sale, w.sale)) problems.push(`${card.id}/${w.size ?? "-"}: sale price [${v.sale}] != [${w.sale}]`)
      if (!eq(v.stock, [w.stock])) problems.push(`${card.id}/${w.size ?? "-"}: stock [${v.stock}] != ${w.stock}`)
    }
  }
  for (const [id, p] of truth.products) if (!served.has(id)) problems.push(`${id}: in shop (${p.status}) but not served`)
  return problems
}

/**
 * The plugin's product map must never point at a deleted row: every active row's product,
 * variants and inventory items are live, and its variants are exactly the product's variants.
 */
export async function judgeProductMap(databaseUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const rows = await query(
      client,
      `select catalog_id, product_id, variant_ids, inventory_item_ids from mcs_product_map where deleted_at is null and status = 'active'`
    )
    const variantIds = rows.flatMap((r) => Object.values((r.variant_ids ?? {}) as Record<string, string>))
    const itemIds = rows.flatMap((r) => Object.values((r.inventory_item_ids ?? {}) as Record<string, string>))
    const liveProducts = new Set(
      (await query(client, `select id from product where deleted_at is null and id = any($1)`, [rows.map((r) => r.product_id)])).map((r) => r.id)
    )
    const liveVariants = new Map(
      (await query(client, `select id, product_id from product_variant where deleted_at is null and id = any($1)`, [variantIds])).map((r) => [
        r.id,
        r.product_id,
      ])
    )
    const liveItems = new Set((await query(client, `select id from inventory_item where deleted_at is null and id = any($1)`, [itemIds])).map((r) => r.id))
    const counts = new Map(
      (
        await query(
          client,
          `select product_id, count(*)::int as n from product_variant where deleted_at is null and product_id = any($1) group by product_id`,
          [rows.map((r) => r.product_id)]
        )
      ).map((r) => [r.product_id, r.n])
    )
    const problems: string[] = []
    for (const r of rows) {
      if (!liveProducts.has(r.product_id)) problems.push(`map ${r.catalog_id}: product ${r.product_id} is not live`)
      const vids = Object.entries((r.variant_ids ?? {}) as Record<string, string>)
      for (const [size, id] of vids) {
        if (liveVariants.get(id) !== r.product_id) problems.push(`map ${r.catalog_id}/${size}: variant ${id} is not a live variant of the product`)
      }
      for (const [size, id] of Object.entries((r.inventory_item_ids ?? {}) as Record<string, string>)) {
        if (!liveItems.has(id)) problems.push(`map ${r.catalog_id}/${size}: inventory item ${id} is not live`)
      }
      if ((counts.get(r.product_id) ?? 0) !== vids.length)
        problems.push(`map ${r.catalog_id}: ${vids.length} variants mapped, product has ${counts.get(r.product_id) ?? 0}`)
    }
    return problems
  } finally {
    await client.end()
  }
}

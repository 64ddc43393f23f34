// A product's rows in every table the bulk writer touches, nested along their foreign keys
// (so a child is found only through the key that must point at its parent), with ids and
// timestamps replaced by their shape: two products written the same way give equal snapshots.
// Deleted rows are included: soft-delete semantics are compared too.
import type { Knex } from "knex"

const ULID = "[0-9A-HJKMNP-TV-Z]{26}"
const TIMESTAMP_COLUMNS = new Set(["created_at", "updated_at", "deleted_at"])

type Row = Record<string, any>

/** Replaces ids (checking their prefix_ULID format) and timestamps; `fk` columns become "<fk>". */
function shape(row: Row, prefix: string | null, fks: string[], tag: string): Row {
  const out: Row = {}
  for (const [k, v] of Object.entries(row)) {
    if (k === "id" && prefix) {
      if (!new RegExp(`^${prefix}_${ULID}$`).test(String(v))) throw new Error(`id ${v} is not ${prefix}_<ULID>`)
      out[k] = `<${prefix}>`
    } else if (TIMESTAMP_COLUMNS.has(k)) {
      out[k] = v === null ? null : k === "deleted_at" ? "<deleted>" : "<ts>"
    } else if (fks.includes(k)) {
      out[k] = "<fk>"
    } else {
      out[k] = v === null || typeof v === "number" || typeof v === "boolean" ? v : JSON.parse(JSON.stringify(v).split(tag).join("<tag>"))
    }
  }
  return out
}

async function rows(db: Knex | Knex.Transaction, sql: string, bindings: any[]): Promise<Row[]> {
  return (await db.raw(sql, bindings)).rows
}

export async function productSnapshot(db: Knex | Knex.Transaction, productId: string, tag: string): Promise<Row> {
  const [product] = await rows(db, "select * from product where id = ?", [productId])
  if (!product) throw new Error(`no product ${productId}`)
  const ppos = await rows(db, "select * from product_product_option where product_id = ? order by id", [productId])
  const options = []
  for (const ppo of ppos) {
    const [option] = await rows(db, "select * from product_option where id = ?", [ppo.product_option_id])
    const values = await rows(db, "select * from product_option_value where option_id = ? order by value, deleted_at nulls first", [option.id])
    const ppovs = await rows(
      db,
      `select j.*, v.value as _value from product_product_option_value j join product_option_value v on v.id = j.product_option_value_id
        where j.product_product_option_id = ? order by v.value`,
      [ppo.id]
    )
    options.push({
      productOption: shape(ppo, "prodopt", ["product_id", "product_option_id"], tag),
      option: shape(option, "opt", [], tag),
      values: values.map((v) => shape(v, "optval", ["option_id"], tag)),
      productOptionValues: ppovs.map((v) => shape(v, "prodoptval", ["product_product_option_id", "product_option_value_id"], tag)),
    })
  }
  options.sort((a, b) => String(a.option.title).localeCompare(String(b.option.title)))
  const images = await rows(db, "select * from image where product_id = ? order by rank, url", [productId])
  const categories = await rows(db, "select product_category_id from product_category_product where product_id = ? order by 1", [productId])
  const salesChannels = await rows(db, "select * from product_sales_channel where product_id = ? order by sales_channel_id", [productId])
  const shippingProfiles = await rows(db, "select * from product_shipping_profile where product_id = ? order by shipping_profile_id", [productId])
  const variants = []
  for (const v of await rows(db, "select * from product_variant where product_id = ? order by variant_rank, sku, deleted_at nulls first", [productId])) {
    const optionValues = await rows(
      db,
      `select o.title, ov.value, (ppov.id is not null) as belongs_to_product
         from product_variant_option j
         join product_option_value ov on ov.id = j.option_value_id
         join product_option o on o.id = ov.option_id
         left join product_product_option ppo on ppo.product_option_id = o.id and ppo.product_id = ?
         left join product_product_option_value ppov on ppov.product_product_option_id = ppo.id and ppov.product_option_value_id = ov.id
        where j.variant_id = ? order by o.title`,
      [productId, v.id]
    )
    const priceLinks = await rows(db, "select * from product_variant_price_set where variant_id = ? order by created_at", [v.id])
    const priceSets = []
    for (const l of priceLinks) {
      const [set] = await rows(db, "select * from price_set where id = ?", [l.price_set_id])
      const prices = await rows(db, "select * from price where price_set_id = ? order by price_list_id nulls first, currency_code, amount", [set.id])
      const priceRules = await rows(db, "select r.* from price_rule r join price p on p.id = r.price_id where p.price_set_id = ? order by r.attribute", [
        set.id,
      ])
      priceSets.push({
        link: shape(l, "pvps", ["variant_id", "price_set_id"], tag),
        set: shape(set, "pset", [], tag),
        prices: prices.map((p) => shape(p, "price", ["price_set_id"], tag)),
        priceRules: priceRules.map((r) => shape(r, "prule", ["price_id"], tag)),
      })
    }
    const itemLinks = await rows(db, "select * from product_variant_inventory_item where variant_id = ? order by created_at", [v.id])
    const items = []
    for (const l of itemLinks) {
      const [item] = await rows(db, "select * from inventory_item where id = ?", [l.inventory_item_id])
      const levels = await rows(db, "select * from inventory_level where inventory_item_id = ? order by location_id", [item.id])
      items.push({
        link: shape(l, "pvitem", ["variant_id", "inventory_item_id"], tag),
        item: shape(item, "iitem", [], tag),
        levels: levels.map((x) => shape(x, "ilev", ["inventory_item_id"], tag)),
      })
    }
    variants.push({ variant: shape(v, "variant", ["product_id"], tag), optionValues, priceSets, items })
  }
  return {
    product: shape(product, "prod", [], tag),
    options,
    images: images.map((i) => shape(i, "img", ["product_id"], tag)),
    categories: categories.map((c) => c.product_category_id),
    salesChannels: salesChannels.map((l) => shape(l, "prodsc", ["product_id"], tag)),
    shippingProfiles: shippingProfiles.map((l) => shape(l, "prodsp", ["product_id"], tag)),
    variants,
  }
}

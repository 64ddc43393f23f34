// The tables of the app's module links with a product or variant side, named as Medusa's link
// module names them: the removals soft-delete their rows, the bulk link writer writes the
// plugin's brand links into them, and a first sync's ANALYZE covers them.
import { MedusaModule } from "@medusajs/framework/modules-sdk"
import { composeLinkName, composeTableName, compressName, Modules, toPascalCase } from "@medusajs/framework/utils"

const KNOWN_LINK_TABLES = [
  { table: "product_sales_channel", column: "product_id" },
  { table: "product_shipping_profile", column: "product_id" },
  { table: "product_variant_price_set", column: "variant_id" },
  { table: "product_variant_inventory_item", column: "variant_id" },
]

/**
 * A link's table: the one its definition names, else the name Medusa's link loader composes from
 * its two sides (@medusajs/link-modules initialize: composeTableName of each side's service and
 * key), as for every defineLink without a `database.table` option, the plugin's brand links too;
 * either shortened as the link's entity shortens it (utils/generate-entity: compressName, which
 * leaves a name of up to 58 characters as it is, in lower case).
 */
export function linkTableOf(config: {
  databaseConfig?: { tableName?: string }
  relationships?: { serviceName: string; foreignKey: string }[]
}): string | undefined {
  const named = config.databaseConfig?.tableName
  if (named) return compressName(named)
  const [primary, foreign] = config.relationships ?? []
  if (!primary?.serviceName || !primary.foreignKey || !foreign?.serviceName || !foreign.foreignKey) return undefined
  return compressName(composeTableName(primary.serviceName, primary.foreignKey, foreign.serviceName, foreign.foreignKey).toLowerCase())
}

/** Link tables with a product_id or variant_id side, from the app's registered module links. */
export function productLinkTables(): { table: string; column: "product_id" | "variant_id" }[] {
  const found = new Map<string, "product_id" | "variant_id">()
  for (const config of MedusaModule.getAllJoinerConfigs() as any[]) {
    if (!config?.isLink || config.isReadOnlyLink) continue
    const table = linkTableOf(config)
    if (!table) continue
    for (const rel of config.relationships ?? []) {
      if (rel.serviceName !== Modules.PRODUCT) continue
      if (rel.foreignKey === "product_id" || rel.foreignKey === "variant_id") found.set(table, rel.foreignKey)
    }
  }
  for (const k of KNOWN_LINK_TABLES) if (!found.has(k.table)) found.set(k.table, k.column as "product_id" | "variant_id")
  return [...found].map(([table, column]) => ({ table, column }))
}

/** A link whose other side Medusa's link removal soft-deletes with the product or variant (deleteCascade). */
export interface CascadeLink {
  table: string
  column: "product_id" | "variant_id"
  /** The other side's key in the link table. */
  otherColumn: string
  serviceName: string
  primaryKey: string
  /** The other module's soft delete method is `softDelete` + this (Medusa's link cascade). */
  methodSuffix: string | undefined
}

/**
 * The app's links with a product or variant side whose other side declares deleteCascade
 * (@medusajs/modules-sdk Link.executeCascade), but product_variant_price_set: the removals soft
 * delete price sets, prices and price rules themselves, as the pricing module does.
 */
export function cascadeLinks(): CascadeLink[] {
  const out: CascadeLink[] = []
  for (const config of MedusaModule.getAllJoinerConfigs() as any[]) {
    if (!config?.isLink || config.isReadOnlyLink) continue
    const table = linkTableOf(config)
    if (!table || table === "product_variant_price_set") continue
    const rels: any[] = config.relationships ?? []
    const own = rels.find((r) => r.serviceName === Modules.PRODUCT && (r.foreignKey === "product_id" || r.foreignKey === "variant_id"))
    if (!own) continue
    for (const other of rels) {
      if (other === own || !other.deleteCascade) continue
      out.push({
        table,
        column: own.foreignKey,
        otherColumn: other.foreignKey,
        serviceName: other.serviceName,
        primaryKey: other.primaryKey,
        methodSuffix: other.args?.methodSuffix,
      })
    }
  }
  return out
}

/** A link's events as the link module emits them: `<entity>.attached` / `.detached`, source its service. */
export interface LinkEventNaming {
  serviceName: string
  entityName: string
}

/**
 * Every registered module link's table → the service and entity its events are named after
 * (@medusajs/link-modules loaders/container.ts: the service is composeLinkName of both sides,
 * the entity "Link" + the table name in Pascal case), for the link rows a page writes.
 */
export function linkEventNamings(): Map<string, LinkEventNaming> {
  const out = new Map<string, LinkEventNaming>()
  for (const config of MedusaModule.getAllJoinerConfigs() as any[]) {
    if (!config?.isLink || config.isReadOnlyLink) continue
    const table = linkTableOf(config)
    const [primary, foreign] = config.relationships ?? []
    if (!table || !primary?.serviceName || !foreign?.serviceName) continue
    const composed = composeTableName(primary.serviceName, primary.foreignKey, foreign.serviceName, foreign.foreignKey)
    out.set(table, {
      serviceName: config.serviceName ?? composeLinkName(primary.serviceName, primary.foreignKey, foreign.serviceName, foreign.foreignKey),
      entityName: toPascalCase("Link_" + (config.databaseConfig?.tableName ?? composed)),
    })
  }
  return out
}

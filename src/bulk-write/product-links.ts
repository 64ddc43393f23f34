// A product's single link to a record of another module (a defineLink with the product on one
// side and one record on the other, as the plugin's brand and brand model links), set in bulk:
// the rows and events of the link API's dismiss of the wrong links and create of the missing
// ones (@medusajs/modules-sdk Link + @medusajs/link-modules), in one statement each.
//
// Why not the link API: its create first checks, for a one-record side, that no other link of
// the product exists, with one OR of every pair of the batch over the whole table; on a large
// first sync that check grew to a third of a second a page and the call to a quarter of the
// page's write (integration-tests/medusa/product-link-rows.spec.ts compares the rows and events).
import { MedusaModule } from "@medusajs/framework/modules-sdk"
import { CommonEvents, composeLinkName, composeTableName, Modules, toPascalCase } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import { newId } from "./ids"
import { linkTableOf } from "./link-tables"

/** Where and how Medusa's link module keeps one product ↔ record link. */
export interface ProductLinkTable {
  table: string
  /** The record's column (the product's is product_id). */
  column: string
  /** The link service's name and entity: the source and object of its events. */
  serviceName: string
  entityName: string
  idPrefix: string
}

type JoinerConfig = {
  isLink?: boolean
  isReadOnlyLink?: boolean
  serviceName?: string
  databaseConfig?: { tableName?: string }
  extraDataFields?: string[]
  relationships?: { serviceName: string; foreignKey: string }[]
}

/**
 * The app's link between products and `serviceName`'s records keyed `foreignKey`, named as the link
 * module names it (loaders/container.ts for the service and entity, utils/generate-entity.ts for
 * the table); undefined when the app defines no such link. The registered config keeps only the
 * definition's table name (services/dynamic-service-class.ts drops the rest of `database`), so a
 * link with its own id prefix or extra columns cannot be written here: the plugin's links
 * (src/links) have neither, and the id prefix is the link repository's default, "link".
 */
export function productLinkTo(serviceName: string, foreignKey: string): ProductLinkTable | undefined {
  for (const config of MedusaModule.getAllJoinerConfigs() as JoinerConfig[]) {
    if (!config?.isLink || config.isReadOnlyLink) continue
    const [primary, foreign] = config.relationships ?? []
    if (primary?.serviceName !== Modules.PRODUCT || primary.foreignKey !== "product_id") continue
    if (foreign?.serviceName !== serviceName || foreign.foreignKey !== foreignKey) continue
    if (config.extraDataFields?.length)
      throw new Error(
        `the link between products and ${foreignKey} has extra columns (${config.extraDataFields.join(", ")}), which the bulk link writer does not write`
      )
    const composed = composeTableName(primary.serviceName, primary.foreignKey, foreign.serviceName, foreign.foreignKey)
    return {
      table: linkTableOf(config)!,
      column: foreignKey,
      serviceName: config.serviceName ?? composeLinkName(primary.serviceName, primary.foreignKey, foreign.serviceName, foreign.foreignKey),
      entityName: toPascalCase("Link_" + (config.databaseConfig?.tableName ?? composed)),
      idPrefix: "link",
    }
  }
  return undefined
}

export interface LinkChanges {
  /** Ids of the rows created or brought back. */
  attached: string[]
  /** Ids of the rows soft-deleted. */
  detached: string[]
}

/**
 * Sets each product's single link to `wanted` (null: none): a live link to the wanted record
 * stays as it is, every other live link of the product is soft-deleted (the link API's dismiss),
 * and a missing one is inserted, or brought back with a new id where a soft-deleted row of the
 * same pair exists (its create: an upsert on the pair, the table's primary key).
 */
export async function setProductLinks(
  trx: Knex.Transaction,
  link: ProductLinkTable,
  wanted: Map<string /* product id */, string | null>
): Promise<LinkChanges> {
  const productIds = [...wanted.keys()]
  if (!productIds.length) return { attached: [], detached: [] }
  const { rows: live } = (await trx.raw(`select id, product_id, ?? as record_id from ?? where product_id = any(?) and deleted_at is null`, [
    link.column,
    link.table,
    productIds,
  ])) as { rows: { id: string; product_id: string; record_id: string }[] }
  const kept = new Set<string>()
  const dismiss: string[] = []
  for (const row of live) {
    if (wanted.get(row.product_id) === row.record_id && !kept.has(row.product_id)) kept.add(row.product_id)
    else dismiss.push(row.id)
  }
  const create: [string, string][] = []
  for (const [productId, recordId] of wanted) if (recordId && !kept.has(productId)) create.push([productId, recordId])

  let detached: string[] = []
  if (dismiss.length) {
    const { rows } = await trx.raw(`update ?? set deleted_at = now(), updated_at = now() where id = any(?) and deleted_at is null returning id`, [
      link.table,
      dismiss,
    ])
    detached = rows.map((r: { id: string }) => r.id)
  }
  let attached: string[] = []
  if (create.length) {
    const ids = create.map(() => newId(link.idPrefix))
    const { rows } = await trx.raw(
      `insert into ?? (id, product_id, ??)
       select * from unnest(?::text[], ?::text[], ?::text[])
       on conflict (product_id, ??) do update set id = excluded.id, deleted_at = null
       returning id`,
      [link.table, link.column, ids, create.map(([p]) => p), create.map(([, r]) => r), link.column]
    )
    attached = rows.map((r: { id: string }) => r.id)
  }
  return { attached, detached }
}

/** The events the link module emits for these changes (internal, as its service emits them). */
export function linkEventMessages(link: ProductLinkTable, changes: LinkChanges) {
  const message = (action: string, ids: string[]) => ({
    name: `${link.entityName}.${action}`,
    metadata: { source: link.serviceName, object: link.entityName, action },
    data: { id: ids.length === 1 ? ids[0] : ids },
  })
  return [
    ...(changes.detached.length ? [message(CommonEvents.DETACHED, changes.detached)] : []),
    ...(changes.attached.length ? [message(CommonEvents.ATTACHED, changes.attached)] : []),
  ]
}

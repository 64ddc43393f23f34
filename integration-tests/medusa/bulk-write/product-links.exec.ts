// Run inside the demo app with `medusa exec`: the same brand and model link changes go once
// through Medusa's link API (link.create / link.dismiss, as the plugin wrote them before) for
// three products, and once through the plugin's bulk link writer (syncLinks) for three others.
// After each round every row of both link tables (deleted ones too) is saved with its ids and
// timestamps replaced by what they are relative to the round before (same, new, later), with
// every event emitted and Medusa's Query read of the links. Usage: medusa exec product-links.exec.ts <out.json>
import fs from "node:fs"
import { createProductsWorkflow } from "@medusajs/medusa/core-flows"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { BRAND_LINK, MODEL_LINK, syncLinks } from "../../../src/workflows/extras/brand-links"
import { CATALOG_SYNC_MODULE } from "../../../src/modules/catalog_sync/module-name"

type Row = Record<string, any>
type Kind = typeof BRAND_LINK
const ULID = "[0-9A-HJKMNP-TV-Z]{26}"

// Rounds of wanted links per product (P1..P3 → brand B1/B2 or none; M1/M2 for models): links
// made, moved, dropped, made again to a pair whose row is soft-deleted, and left as they are.
const ROUNDS: Record<string, [string | null, string | null]>[] = [
  { P1: ["B1", "M1"], P2: ["B1", "M1"], P3: ["B2", null] },
  { P1: ["B2", "M2"], P2: [null, null], P3: ["B2", null] },
  { P1: ["B1", "M1"], P2: ["B1", "M2"], P3: ["B2", "M2"] },
  { P1: ["B1", "M1"], P2: ["B1", "M2"], P3: [null, null] },
]

export default async function compare({ container, args }: { container: any; args: string[] }) {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const catalogSync = container.resolve(CATALOG_SYNC_MODULE)
  const eventBus = container.resolve(Modules.EVENT_BUS)

  const brands = await catalogSync.createCatalogBrands([
    { catalog_id: "b1", name: "B1" },
    { catalog_id: "b2", name: "B2" },
  ])
  const models = await catalogSync.createCatalogBrandModels([
    { catalog_id: "m1", name: "M1" },
    { catalog_id: "m2", name: "M2" },
  ])
  const recordId: Record<string, string> = { B1: brands[0].id, B2: brands[1].id, M1: models[0].id, M2: models[1].id }
  const nameOf = new Map(Object.entries(recordId).map(([k, v]) => [v, k]))
  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: ["api-1", "api-2", "api-3", "bulk-1", "bulk-2", "bulk-3"].map((h) => ({
        title: h,
        handle: h,
        options: [{ title: "o", values: ["v"] }],
        variants: [{ title: "v", options: { o: "v" } }],
      })),
    },
  })
  const productOf = (way: string, p: string) => products.find((x: Row) => x.handle === `${way}-${p.slice(1)}`)!.id
  const nameOfProduct = new Map<string, string>()
  for (const way of ["api", "bulk"]) for (const p of ["P1", "P2", "P3"]) nameOfProduct.set(productOf(way, p), p)
  // The link tables, found by their columns (not by the plugin's naming of them).
  const { rows: found } = await pg.raw(
    `select r.table_name, r.column_name from information_schema.columns r
      join information_schema.columns p on p.table_name = r.table_name and p.column_name = 'product_id'
      where r.column_name in ('catalog_brand_id', 'catalog_brand_model_id') order by r.table_name`
  )
  const recordColumn = new Map<string, string>(found.map((r: Row) => [r.table_name, r.column_name]))
  const linkTables = [...recordColumn.keys()]

  // Every message emitted, as the event bus receives it, with whether a pool connection (not one
  // an open transaction holds) already sees each row it names as the event says (live after
  // attached, deleted after detached): events come after the commit.
  let emitted: { messages: any[]; options: any }[] = []
  const emit = eventBus.emit.bind(eventBus)
  eventBus.emit = async (messages: any, options: any) => {
    const list = JSON.parse(JSON.stringify(Array.isArray(messages) ? messages : [messages]))
    for (const m of list) {
      if (!/\.(attached|detached)$/.test(m.name ?? "")) continue
      const ids: string[] = Array.isArray(m.data?.id) ? m.data.id : [m.data?.id]
      let seen = 0
      for (const table of linkTables) {
        const { rows } = await pg.raw(`select count(*)::int as n from ?? where id = any(?) and (deleted_at is null) = ?`, [
          table,
          ids,
          m.name.endsWith(".attached"),
        ])
        seen += rows[0].n
      }
      m.committedAtEmit = seen === ids.length
    }
    emitted.push({ messages: list, options: options ?? null })
    return emit(messages, options)
  }

  // The rows of one way's products, by table, with the round before's rows to compare against.
  const before: Record<string, Map<string, Row>> = {}
  const snapshot = async (way: string) => {
    const out: Record<string, Row[]> = {}
    for (const table of linkTables) {
      const ids = ["P1", "P2", "P3"].map((p) => productOf(way, p))
      const { rows: unordered } = await pg.raw(`select * from ?? where product_id = any(?)`, [table, ids])
      // By product and record name (ids differ between the two ways), then age.
      const sortKey = (r: Row) => `${nameOfProduct.get(r.product_id)}/${nameOf.get(r[recordColumn.get(table)!])}/${+r.created_at}`
      const rows = unordered.sort((a: Row, b: Row) => sortKey(a).localeCompare(sortKey(b)))
      const key = `${way}:${table}`
      const prior = before[key] ?? new Map()
      const byPair = new Map<string, Row>()
      out[table] = rows.map((r: Row) => {
        const record = r.catalog_brand_id ?? r.catalog_brand_model_id
        const pair = `${r.product_id}/${record}`
        const was = prior.get(pair)
        byPair.set(pair, r)
        const shaped: Row = {}
        for (const [k, v] of Object.entries(r)) {
          if (k === "id") shaped.id = !new RegExp(`^link_${ULID}$`).test(v) ? `bad id ${v}` : !was ? "<new>" : was.id === v ? "<same>" : "<new id>"
          else if (k === "product_id") shaped[k] = nameOfProduct.get(v) ?? `unknown ${v}`
          else if (k === "catalog_brand_id" || k === "catalog_brand_model_id") shaped[k] = nameOf.get(v) ?? `unknown ${v}`
          else if (k === "created_at" || k === "updated_at")
            shaped[k] = !(v instanceof Date) ? `bad ${v}` : !was ? "<ts>" : +was[k] === +v ? "<same>" : +v > +was[k] ? "<later>" : "<earlier>"
          else if (k === "deleted_at")
            shaped[k] = v === null ? null : !was || was.deleted_at === null ? "<deleted now>" : +was.deleted_at === +v ? "<still deleted>" : "<deleted again>"
          else shaped[k] = v
        }
        return shaped
      })
      before[key] = byPair
    }
    return out
  }
  // The events of one way, with ids replaced by the row they name (any table, live or deleted).
  const events = async () => {
    const got = emitted
    emitted = []
    const out = []
    for (const { messages, options } of got) {
      for (const m of messages) {
        const ids: string[] = Array.isArray(m.data?.id) ? m.data.id : [m.data?.id]
        const named = []
        for (const id of ids) {
          let found = `unknown ${id}`
          for (const table of linkTables) {
            const { rows } = await pg.raw(`select product_id, ?? as record from ?? where id = ?`, [recordColumn.get(table), table, id])
            if (rows[0]) found = `${nameOfProduct.get(rows[0].product_id)}-${nameOf.get(rows[0].record)}`
          }
          named.push(found)
        }
        out.push({
          name: m.name,
          metadata: m.metadata,
          data: { id: Array.isArray(m.data?.id) ? named.sort() : named[0] },
          options,
          committedAtEmit: m.committedAtEmit,
        })
      }
    }
    return out.sort((a, b) => (a.name + JSON.stringify(a.data)).localeCompare(b.name + JSON.stringify(b.data)))
  }
  const read = async (way: string) => {
    const out: Record<string, Row[]> = {}
    for (const kind of [BRAND_LINK, MODEL_LINK]) {
      const { data } = await query.graph({
        entity: kind.entryPoint,
        fields: ["product_id", kind.key],
        filters: { product_id: ["P1", "P2", "P3"].map((p) => productOf(way, p)) },
      })
      out[kind.entryPoint] = data.map((r: Row) => `${nameOfProduct.get(r.product_id)}-${nameOf.get(r[kind.key])}`).sort()
    }
    return out
  }

  // The link API's way, as syncLinks made it before: read the live links, dismiss the wrong ones, create the missing.
  const byLinkApi = async (kind: Kind, wanted: Map<string, string | null>) => {
    const { data } = await query.graph({ entity: kind.entryPoint, fields: ["product_id", kind.key], filters: { product_id: [...wanted.keys()] } })
    const def = (p: string, r: string) => ({ [Modules.PRODUCT]: { product_id: p }, [CATALOG_SYNC_MODULE]: { [kind.key]: r } })
    const have = new Set<string>()
    const dismiss = []
    for (const row of data as Row[]) {
      if (wanted.get(row.product_id) === row[kind.key] && !have.has(row.product_id)) have.add(row.product_id)
      else dismiss.push(def(row.product_id, row[kind.key]))
    }
    const create = [...wanted].filter(([p, r]) => r && !have.has(p)).map(([p, r]) => def(p, r!))
    if (dismiss.length) await link.dismiss(dismiss)
    if (create.length) await link.create(create)
  }

  const rounds = []
  for (const round of ROUNDS) {
    const result: Row = {}
    for (const way of ["api", "bulk"]) {
      for (const [i, kind] of [BRAND_LINK, MODEL_LINK].entries()) {
        const wanted = new Map(Object.entries(round).map(([p, pair]) => [productOf(way, p), pair[i] ? recordId[pair[i]!] : null]))
        if (way === "api") await byLinkApi(kind, wanted)
        else await syncLinks(container, kind, wanted)
      }
      await new Promise((r) => setTimeout(r, 300))
      result[way] = { rows: await snapshot(way), events: await events(), read: await read(way) }
    }
    rounds.push(result)
  }
  fs.writeFileSync(args[0], JSON.stringify({ linkTables, rounds }, null, 2))
}

// Never break an open order (issue #34, item 1). A customer buys a synced size through the store
// API (cart → shipping method → payment → complete); then the catalog drops that size, then the
// whole product, then a full resync runs. Through all of it the order's variant, inventory item,
// level and reservation stay (SQL on Medusa's tables), the size cannot be bought (a new cart
// refuses it) and the order can be fulfilled (Medusa's admin route). Once the order is fulfilled,
// or in the second case cancelled, the next run finishes the removal.
// Both write paths: the first size drop of a product goes through the bulk size writer, a later
// drop of the same product (a kept size is then a live variant the map does not know) through
// the update workflow; each logs its own line, checked below.
import { configureAndWait, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"
import { sql } from "./poll-and-query"
import { sortSizes } from "../../src/sync/size-order"
import { checkout as storeCheckout, enableShipping } from "../harness/store-checkout"

jest.setTimeout(1_500_000)

interface Bought {
  catalogId: string
  productId: string
  variantId: string
  size: string
  inventoryItemId: string
}

describe("open orders survive the catalog removing what they bought", () => {
  let env: SyncEnv
  let token: string
  let regionId: string
  let locationId: string

  const storeCall = async (path: string, body?: unknown) => {
    const res = await fetch(env.app.url + path, {
      method: body === undefined ? "GET" : "POST",
      headers: { "x-publishable-api-key": token, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : null }
  }
  const ok = async (path: string, body?: unknown) => {
    const res = await storeCall(path, body)
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body
  }
  const admin = async (path: string, body?: unknown) => {
    const res = await env.app.admin(path, body === undefined ? undefined : { body })
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body
  }
  const sync = async (mode: "changes" | "full" = "changes") => {
    const run = await runAndWait(env, mode, 600_000)
    expect([run.status, run.error_message, run.skipped, run.rejected_items ?? []]).toEqual(["succeeded", null, 0, []])
    return run
  }

  /** A new cart with the variant: the line item, or the store API's refusal. */
  const tryToBuy = (variantId: string) =>
    ok("/store/carts", { region_id: regionId }).then(({ cart }) => storeCall(`/store/carts/${cart.id}/line-items`, { variant_id: variantId, quantity: 1 }))

  /** The store API's checkout, as a customer does it. */
  const checkout = (variantIds: string[]) => storeCheckout(storeCall, env.db.url, regionId, variantIds)

  /** Three sizes of a published product, each stocked with at least 2 at the sync's location. */
  const pickProduct = async (exclude: string[]): Promise<{ catalogId: string; productId: string; sizes: Omit<Bought, "catalogId" | "productId">[] }> => {
    const candidates = await sql(
      env.db.url,
      `select p.id as product_id, p.external_id, v.id as variant_id, v.metadata->>'catalog_size' as size, l.inventory_item_id
         from product p join product_variant v on v.product_id = p.id and v.deleted_at is null
         join product_variant_inventory_item pvi on pvi.variant_id = v.id and pvi.deleted_at is null
         join inventory_level l on l.inventory_item_id = pvi.inventory_item_id and l.deleted_at is null and l.location_id = $1
        where p.deleted_at is null and p.status = 'published' and l.stocked_quantity >= 2 and v.metadata->>'catalog_size' is not null
        order by p.external_id, v.variant_rank`,
      [locationId]
    )
    const byProduct = new Map<string, typeof candidates>()
    for (const c of candidates) byProduct.set(c.product_id, [...(byProduct.get(c.product_id) ?? []), c])
    for (const [productId, rows] of byProduct) {
      const live = env.sb.state.catalog.findLive(rows[0].external_id)
      if (exclude.includes(productId) || !live || rows.length < 3 || live.sizes.length < 4) continue
      return {
        catalogId: rows[0].external_id,
        productId,
        sizes: rows.slice(0, 3).map((r) => ({ variantId: r.variant_id, size: r.size, inventoryItemId: r.inventory_item_id })),
      }
    }
    throw new Error("no product with three stocked sizes")
  }

  /** The order's stock as Medusa holds it: the variant, its item and level live, the reservation and the level's counts. */
  const heldStock = async (b: Pick<Bought, "variantId" | "inventoryItemId">, lineItemId: string) => {
    const [row] = await sql(
      env.db.url,
      `select v.deleted_at is null as variant_live, v.allow_backorder, i.deleted_at is null as item_live, l.deleted_at is null as level_live,
              l.stocked_quantity::int as stocked, l.reserved_quantity::int as reserved,
              (select count(*)::int from reservation_item r where r.inventory_item_id = i.id and r.line_item_id = $3 and r.deleted_at is null) as reservations
         from product_variant v
         join product_variant_inventory_item pvi on pvi.variant_id = v.id
         join inventory_item i on i.id = pvi.inventory_item_id and i.id = $2
         join inventory_level l on l.inventory_item_id = i.id and l.location_id = $4
        where v.id = $1`,
      [b.variantId, b.inventoryItemId, lineItemId, locationId]
    )
    return row
  }
  const pending = async (subjectId: string) =>
    (await sql(env.db.url, "select kind, reason from mcs_pending_removal where subject_id = $1 and deleted_at is null", [subjectId]))[0] ?? null
  const orderVariantIds = async (orderId: string) =>
    (
      await sql(
        env.db.url,
        `select distinct li.variant_id from order_line_item li join order_item oi on oi.item_id = li.id where oi.order_id = $1 order by li.variant_id`,
        [orderId]
      )
    ).map((r) => r.variant_id)
  const logSince = (from: number) => env.app.logs().slice(from)

  beforeAll(async () => {
    env = await startSyncEnv("open-orders", { products: 40, seed: 11 })
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey })
    expect(run).toMatchObject({ status: "succeeded", skipped: 0 })
    ;[{ token }] = await sql(env.db.url, "select token from api_key where type = 'publishable' and revoked_at is null order by created_at limit 1")
    ;({ locationId, regionId } = await enableShipping((path, body) => env.app.admin(path, body === undefined ? undefined : { body }), env.db.url))
  })
  afterAll(async () => {
    await env?.close()
  })

  it("fulfilled: the size, then the product leave the catalog, a full resync runs; the order is fulfilled and the removal completes", async () => {
    const picked = await pickProduct([])
    const bought: Bought = { catalogId: picked.catalogId, productId: picked.productId, ...picked.sizes[0] }
    const { orderId, lineItemIds } = await checkout([bought.variantId])
    const line = lineItemIds[0]
    const before = await heldStock(bought, line)
    expect(before).toMatchObject({ variant_live: true, item_live: true, level_live: true, reservations: 1, reserved: 1 })
    expect(before.stocked).toBeGreaterThanOrEqual(2)

    // 1. The catalog drops the bought size (the bulk size writer).
    let from = env.app.logs().length
    const live = env.sb.state.catalog.findLive(bought.catalogId)!
    env.sb.state.mutator.setSizes(
      bought.catalogId,
      live.sizes.filter((s) => s !== bought.size)
    )
    await sync()
    expect(logSince(from)).toMatch(/bulk sizes: 1 lost size\(s\) kept for an open order/)
    expect(await heldStock(bought, line)).toEqual({
      variant_live: true,
      allow_backorder: false,
      item_live: true,
      level_live: true,
      stocked: 1,
      reserved: 1,
      reservations: 1,
    })
    expect(await pending(bought.variantId)).toEqual({ kind: "size", reason: "kept for an open order" })
    // The admin names it on the run's change log (the size was kept while that run ran).
    const sizeRun = (await admin("/admin/catalog-sync/runs?limit=1")).runs[0]
    const [title] = (await sql(env.db.url, "select title from product where id = $1", [bought.productId])).map((r) => r.title)
    expect((await admin(`/admin/catalog-sync/kept-for-orders?run_id=${sizeRun.id}`)).kept).toEqual([
      expect.objectContaining({ kind: "size", product_id: bought.productId, title, size: bought.size, catalog_id: bought.catalogId }),
    ])
    // The product widget's sizes (issue 43): the one only the order keeps is marked, since it was
    // kept; every size in the shop's size order, the kept one in its place.
    const story = (await admin(`/admin/catalog-sync/products/${bought.productId}/prices`)).sizes as { size: string; kept_for_order?: { since: string } }[]
    expect(story.filter((s) => s.kept_for_order).map((s) => s.size)).toEqual([bought.size])
    expect(story.map((s) => s.size)).toEqual(sortSizes(story, (s) => s.size).map((s) => s.size))
    const shopSizes = (await sql(env.db.url, "select title from product_variant where product_id = $1 and deleted_at is null", [bought.productId])).map(
      (r) => r.title as string
    )
    expect([...story.map((s) => s.size)].sort()).toEqual(shopSizes.sort())
    // Not sellable: Medusa's cart refuses it (available = stocked - reserved = 0), the store shows 0.
    const refused = await tryToBuy(bought.variantId)
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body)).toMatch(/inventory/i)
    const shown = await ok(`/store/products/${bought.productId}?region_id=${regionId}&fields=*variants,+variants.inventory_quantity`)
    expect(shown.product.variants.find((v: any) => v.id === bought.variantId).inventory_quantity).toBe(0)
    // The other sizes are untouched and still sellable.
    expect((await tryToBuy(picked.sizes[1].variantId)).status).toBe(200)

    // 2. The catalog removes the whole product: kept as a draft for the order.
    from = env.app.logs().length
    env.sb.control.mutate({ remove_ids: [bought.catalogId] })
    await sync()
    expect(logSince(from)).toMatch(/1 removed product\(s\) kept for an open order/)
    const [product] = await sql(env.db.url, "select status, deleted_at from product where id = $1", [bought.productId])
    expect(product).toEqual({ status: "draft", deleted_at: null })
    expect(await heldStock(bought, line)).toMatchObject({ variant_live: true, item_live: true, level_live: true, stocked: 1, reserved: 1, reservations: 1 })
    expect(await pending(bought.productId)).toEqual({ kind: "product", reason: "kept for an open order" })
    const productRun = (await admin("/admin/catalog-sync/runs?limit=1")).runs[0]
    // Kept, not removed: this run neither counts nor logs it as a removal (the run that finishes it does, below).
    expect(productRun.removed).toBe(0)
    expect(await sql(env.db.url, "select 1 from mcs_sync_run_change where run_id = $1 and kind = 'removed' and deleted_at is null", [productRun.id])).toEqual(
      []
    )
    expect((await admin(`/admin/catalog-sync/kept-for-orders?run_id=${productRun.id}`)).kept).toEqual([
      expect.objectContaining({ kind: "product", product_id: bought.productId, title, catalog_id: bought.catalogId, run_id: productRun.id }),
    ])
    // The readiness list says why it is a draft: the open order, not the removal setting.
    const drafts = (await admin("/admin/catalog-sync/readiness")).readiness.checks.find((c: any) => c.id === "drafts")
    expect(drafts.detail).toMatch(/1 is a draft because the catalog removed it while an open order holds it/)
    expect(drafts.detail).not.toMatch(/removal setting/)
    // Both are kept now: the Catalog sync page lists every one.
    expect((await admin("/admin/catalog-sync/kept-for-orders")).kept.map((k: { kind: string }) => k.kind).sort()).toEqual(["product", "size"])
    expect((await tryToBuy(bought.variantId)).status).toBe(400)
    expect((await tryToBuy(picked.sizes[1].variantId)).status).toBe(400)
    expect((await storeCall(`/store/products/${bought.productId}?region_id=${regionId}`)).status).toBe(404)

    // 3. A full resync changes nothing in the order.
    await sync("full")
    expect(await orderVariantIds(orderId)).toEqual([bought.variantId])
    expect(await heldStock(bought, line)).toMatchObject({ variant_live: true, item_live: true, level_live: true, stocked: 1, reserved: 1, reservations: 1 })
    expect((await sql(env.db.url, "select status, deleted_at from product where id = $1", [bought.productId]))[0]).toEqual({
      status: "draft",
      deleted_at: null,
    })

    // 4. The order is fulfilled as in any shop (Medusa's admin route): the reservation is used up.
    await admin(`/admin/orders/${orderId}/fulfillments`, { items: [{ id: line, quantity: 1 }], location_id: locationId })
    expect(await heldStock(bought, line)).toMatchObject({ variant_live: true, stocked: 0, reserved: 0, reservations: 0 })
    const [{ n: fulfilled }] = await sql(
      env.db.url,
      "select count(*)::int as n from order_fulfillment ofl join fulfillment f on f.id = ofl.fulfillment_id where ofl.order_id = $1",
      [orderId]
    )
    expect(fulfilled).toBe(1)

    // 5. The next run finishes the removal: product, variants, items and levels soft-deleted; the map forgets it.
    // That run reports it as its removal, in its counts and its change log.
    const finishing = await sync()
    expect(finishing.removed).toBe(1)
    expect(
      await sql(env.db.url, "select kind, product_id, catalog_id from mcs_sync_run_change where run_id = $1 and deleted_at is null and kind = 'removed'", [
        finishing.id,
      ])
    ).toEqual([{ kind: "removed", product_id: bought.productId, catalog_id: bought.catalogId }])
    const [gone] = await sql(
      env.db.url,
      `select (select deleted_at is not null from product where id = $1) as product_gone,
              (select bool_and(deleted_at is not null) from product_variant where product_id = $1) as variants_gone,
              (select deleted_at is not null from inventory_item where id = $2) as item_gone,
              (select bool_and(deleted_at is not null) from inventory_level where inventory_item_id = $2) as level_gone,
              (select count(*)::int from mcs_pending_removal where product_id = $1 and deleted_at is null) as pending,
              (select row(status, product_id)::text from mcs_product_map where catalog_id = $3 and deleted_at is null) as map_row`,
      [bought.productId, bought.inventoryItemId, bought.catalogId]
    )
    expect(gone).toEqual({ product_gone: true, variants_gone: true, item_gone: true, level_gone: true, pending: 0, map_row: "(removed,)" })
    expect((await admin("/admin/catalog-sync/kept-for-orders")).kept).toEqual([])
    // The order still reads its line (the snapshot) with the fulfilled item.
    expect(await orderVariantIds(orderId)).toEqual([bought.variantId])
  })

  it("cancelled: two bought sizes leave (bulk path, then the update workflow), the order is cancelled, the next run removes them", async () => {
    const picked = await pickProduct([])
    const [a, b, c] = picked.sizes
    const { orderId, lineItemIds } = await checkout([a.variantId, b.variantId])
    const base = { catalogId: picked.catalogId, productId: picked.productId }

    // Size a leaves: the bulk size writer keeps it.
    let from = env.app.logs().length
    let sizes = env.sb.state.catalog.findLive(picked.catalogId)!.sizes.filter((s) => s !== a.size)
    env.sb.state.mutator.setSizes(picked.catalogId, sizes)
    await sync()
    expect(logSince(from)).toMatch(/bulk sizes: 1 lost size\(s\) kept for an open order/)
    // Size b leaves: the product now has a live variant its map row does not name (a), so the update workflow writes it.
    from = env.app.logs().length
    sizes = sizes.filter((s) => s !== b.size)
    env.sb.state.mutator.setSizes(picked.catalogId, sizes)
    await sync()
    expect(logSince(from)).toMatch(/catalog sync: 2 removed size\(s\) kept for an open order \(off sale/)
    for (const [i, s] of [a, b].entries()) {
      expect(await heldStock({ ...base, ...s }, lineItemIds[i])).toEqual({
        variant_live: true,
        allow_backorder: false,
        item_live: true,
        level_live: true,
        stocked: 1,
        reserved: 1,
        reservations: 1,
      })
      expect(await pending(s.variantId)).toEqual({ kind: "size", reason: "kept for an open order" })
      expect((await tryToBuy(s.variantId)).status).toBe(400)
    }
    // The kept sizes keep their option values; the product stays on sale with its other sizes.
    expect((await tryToBuy(c.variantId)).status).toBe(200)
    await sync("full")
    expect(await orderVariantIds(orderId)).toEqual([a.variantId, b.variantId].sort())

    // The order is cancelled: the reservations go and their stock returns to the level, which
    // must not put the sizes back on sale.
    await admin(`/admin/orders/${orderId}/cancel`, {})
    for (const [i, s] of [a, b].entries()) {
      // The subscriber (order.canceled) takes the returned stock down again.
      let held = await heldStock({ ...base, ...s }, lineItemIds[i])
      for (let t = 0; t < 60 && held.stocked !== 0; t++) {
        await new Promise((r) => setTimeout(r, 500))
        held = await heldStock({ ...base, ...s }, lineItemIds[i])
      }
      expect(held).toMatchObject({ variant_live: true, reserved: 0, reservations: 0, stocked: 0 })
      expect((await tryToBuy(s.variantId)).status).toBe(400)
    }

    // The next run removes both sizes and their option values; the rest of the product stays.
    // It counts the product as updated and logs its sizes' change (issue 43: it logged nothing).
    const finishing = await sync()
    expect(finishing.updated).toBe(1)
    expect(
      await sql(env.db.url, "select kind, product_id, catalog_id, sizes_changed from mcs_sync_run_change where run_id = $1 and deleted_at is null", [
        finishing.id,
      ])
    ).toEqual([{ kind: "updated", product_id: picked.productId, catalog_id: picked.catalogId, sizes_changed: true }])
    const variants = await sql(env.db.url, "select id, deleted_at is not null as gone from product_variant where id = any($1)", [
      [a.variantId, b.variantId, c.variantId],
    ])
    expect(Object.fromEntries(variants.map((v) => [v.id, v.gone]))).toEqual({ [a.variantId]: true, [b.variantId]: true, [c.variantId]: false })
    const values = await sql(
      env.db.url,
      `select ov.value from product_product_option ppo join product_product_option_value j on j.product_product_option_id = ppo.id
         join product_option_value ov on ov.id = j.product_option_value_id and ov.deleted_at is null
        where ppo.product_id = $1 and ppo.deleted_at is null order by ov.value`,
      [picked.productId]
    )
    expect(values.map((v) => v.value).sort()).toEqual(
      (
        await sql(
          env.db.url,
          "select ov.value from product_variant v join product_variant_option pvo on pvo.variant_id = v.id join product_option_value ov on ov.id = pvo.option_value_id where v.product_id = $1 and v.deleted_at is null",
          [picked.productId]
        )
      )
        .map((v) => v.value)
        .sort()
    )
    expect(await sql(env.db.url, "select id from mcs_pending_removal where product_id = $1 and deleted_at is null", [picked.productId])).toEqual([])
    expect(
      (await sql(env.db.url, "select count(*)::int as n from product_variant where product_id = $1 and deleted_at is null", [picked.productId]))[0].n
    ).toBe(sizes.length)
  })
})

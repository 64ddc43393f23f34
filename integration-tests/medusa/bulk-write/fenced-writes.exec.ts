// Run inside the demo app with `medusa exec`: a run's lock held on a connection of its own, as a
// run holds it, and page writes fenced by it on each write path; the lock's connection is ended
// with pg_terminate_backend in the middle of a write, and what is in Medusa's tables afterwards is
// read by SQL. Usage: medusa exec fenced-writes.exec.ts <out.json>
import fs from "node:fs"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStockLocationsWorkflow } from "@medusajs/medusa/core-flows"

export default async function fencedWrites({ container, args }: { container: any; args: string[] }) {
  const { createInOneTransaction } = require("../../../src/workflows/page/new-products-in-bulk")
  const { BulkShopWriter } = require("../../../src/shop-writer/bulk/bulk-shop-writer")
  const { createProductsThroughCoreFlowsWorkflow } = require("../../../src/workflows/create-products-through-core-flows")
  const { setStockThroughCoreFlows } = require("../../../src/workflows/writes-through-core-flows")
  const { withWriteFence } = require("../../../src/bulk-write/write-fence")
  const { dedicatedClient, tryRunLock } = require("../../../src/modules/catalog_sync/sql/run-lock")
  const { mapCardToProduct, stockOf } = require("../../../src/sync/map-card")
  const { card } = require("../../../src/sync/__tests__/card-fixtures")
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)

  const [salesChannel] = await container.resolve(Modules.SALES_CHANNEL).listSalesChannels({}, { take: 1 })
  const [shippingProfile] = await container.resolve(Modules.FULFILLMENT).listShippingProfiles({}, { take: 1 })
  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({ input: { locations: [{ name: "Склад" }] } })
  const placement = { salesChannelId: salesChannel.id, stockLocationId: location.id, shippingProfileId: shippingProfile?.id ?? null }
  const toCreate = (catalogId: string) => {
    const c = card({ id: catalogId, sku: `FENCE-${catalogId}` })
    return { catalogId, input: mapCardToProduct(c, { primaryLanguage: "uk", salesChannelId: salesChannel.id }), stock: stockOf(c) }
  }
  /** Rows of Medusa's tables for these catalog products: products, variants, their live prices. */
  const written = async (ids: string[]) => {
    const { rows } = await pg.raw(
      `select (select count(*) from product p where p.metadata->>'catalog_id' = any(?) and p.deleted_at is null)::int as products,
              (select count(*) from product_variant v join product p on p.id = v.product_id where p.metadata->>'catalog_id' = any(?))::int as variants,
              (select count(*) from price pr join product_variant_price_set l on l.price_set_id = pr.price_set_id
                 join product_variant v on v.id = l.variant_id join product p on p.id = v.product_id
                where p.metadata->>'catalog_id' = any(?) and pr.deleted_at is null)::int as prices`,
      [ids, ids, ids]
    )
    return rows[0]
  }
  const outcome = async (work: () => Promise<unknown>) => {
    try {
      // The bulk create reports a transaction that rolled back before its inserts (the way the page then takes is fenced too).
      const result = (await work()) as { rolledBack?: { code?: string; message?: string } } | undefined
      if (result?.rolledBack) return result.rolledBack.code ?? result.rolledBack.message
      return "written"
    } catch (e: any) {
      return e?.code ?? e?.message ?? String(e)
    }
  }

  /** Takes the run lock on a connection of its own and names this run in the state, as a run does. */
  const holdLock = async (runId: string) => {
    const lock = await dedicatedClient(pg)
    lock.on("error", () => undefined)
    if (!(await tryRunLock(lock))) throw new Error("run lock not free")
    const state = await container.resolve("catalog_sync").getState()
    await pg.raw("update mcs_sync_state set current_run_id = ? where id = ?", [runId, state.id])
    return { runId, lockPid: lock.processID as number }
  }
  const cutStatement = (pid: number) =>
    `perform pg_terminate_backend(${pid});
     for i in 1..100 loop exit when not exists (select 1 from pg_stat_activity where pid = ${pid}); perform pg_sleep(0.05); end loop;`

  const out: Record<string, unknown> = {}

  // Bulk path. While the lock is held, a fenced page write commits.
  const bulk = await holdLock("run_fence_bulk")
  out.bulkHeld = await outcome(() => withWriteFence(bulk, () => createInOneTransaction(container, [toCreate("9300")], placement)))
  out.bulkHeldRows = await written(["9300"])
  // The lock's connection is ended by the page's own insert (a trigger), in the middle of its transaction.
  await pg.raw(`create or replace function mcs_test_cut_lock() returns trigger language plpgsql as $$ begin ${cutStatement(bulk.lockPid)} return null; end $$`)
  await pg.raw("create trigger mcs_test_cut_lock after insert on product for each statement execute function mcs_test_cut_lock()")
  out.bulkCut = await outcome(() => withWriteFence(bulk, () => createInOneTransaction(container, [toCreate("9301"), toCreate("9302")], placement)))
  await pg.raw("drop trigger mcs_test_cut_lock on product")
  out.bulkCutRows = await written(["9301", "9302"])
  // The next write of the page, after the loss.
  out.bulkAfter = await outcome(() => withWriteFence(bulk, () => createInOneTransaction(container, [toCreate("9303")], placement)))
  out.bulkAfterRows = await written(["9303"])

  // The bulk writer's one-by-one way: the page's bulk create rolls back on a product's data (a
  // unique violation, raised once by a trigger that first ends the lock's connection), so its
  // products go one by one, after the loss: those writes are fenced too and write nothing.
  const fallback = await holdLock("run_fence_fallback")
  await pg.raw("create sequence mcs_test_cut_once")
  await pg.raw(
    `create or replace function mcs_test_cut_once() returns trigger language plpgsql as $$ begin
       if nextval('mcs_test_cut_once') = 1 then ${cutStatement(fallback.lockPid)} raise exception 'handle taken (test)' using errcode = '23505'; end if;
       return null; end $$`
  )
  await pg.raw("create trigger mcs_test_cut_once after insert on product for each statement execute function mcs_test_cut_once()")
  out.fallback = await outcome(() =>
    withWriteFence(fallback, async () => {
      await new BulkShopWriter(container).createProducts([toCreate("9501"), toCreate("9502")], placement, 1)
    })
  )
  await pg.raw("drop trigger mcs_test_cut_once on product")
  out.fallbackCutOnce = Number((await pg.raw("select last_value from mcs_test_cut_once")).rows[0].last_value)
  out.fallbackRows = await written(["9501", "9502"])

  // Workflows path (Medusa's own workflows): a chunk written while held, then the lock's
  // connection ended, then the page's next workflow writes.
  const flows = await holdLock("run_fence_flows")
  out.flowsHeld = await outcome(() =>
    withWriteFence(flows, async () => {
      const { result } = await createProductsThroughCoreFlowsWorkflow(container).run({ input: { products: [toCreate("9401")], placement } })
      out.flowsCreated = result
    })
  )
  out.flowsHeldRows = await written(["9401"])
  const items = ((out.flowsCreated as any[])?.[0]?.inventoryItemIds ?? {}) as Record<string, string>
  const levels = () =>
    pg.raw("select inventory_item_id, stocked_quantity::int as q from inventory_level where inventory_item_id = any(?) and deleted_at is null order by 1", [
      Object.values(items),
    ])
  out.levelsBefore = (await levels()).rows
  await pg.raw(`do $$ begin ${cutStatement(flows.lockPid)} end $$`)
  out.flowsStock = await outcome(() =>
    withWriteFence(flows, () =>
      setStockThroughCoreFlows(
        container,
        Object.values(items).map((inventoryItemId) => ({ inventoryItemId, quantity: 77 })),
        location.id
      )
    )
  )
  out.levelsAfter = (await levels()).rows
  fs.writeFileSync(args[0], JSON.stringify(out))
}

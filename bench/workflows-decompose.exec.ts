// Run inside the demo app with `medusa exec` (bench/workflows-decompose.ts): the app CPU and
// PostgreSQL CPU per product of the workflows write path's create, in parts, each run alone and in
// sequence (so process.cpuUsage is theirs): Medusa's createProductsWorkflow by itself, then the
// plugin's create workflow (createProductsWorkflow nested, the variants' inventory items read back,
// the stock levels through batchInventoryItemLevelsWorkflow). Chunks of 100 new products of four
// sizes; a warm-up chunk first. Usage: medusa exec workflows-decompose.exec.ts <out.json> <products>
import fs from "node:fs"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createProductsWorkflow, createStockLocationsWorkflow } from "@medusajs/medusa/core-flows"
import { cpuTicksOf } from "./proc-ticks"

export default async function decompose({ container, args }: { container: any; args: string[] }) {
  const { createProductsThroughCoreFlowsWorkflow, coreFlowsProductOf } = require("../src/workflows/create-products-through-core-flows")
  const { mapCardToProduct, stockOf } = require("../src/sync/map-card")
  const { card } = require("../src/sync/__tests__/card-fixtures")
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const products = Number(args[1] ?? 600)
  const [salesChannel] = await container.resolve(Modules.SALES_CHANNEL).listSalesChannels({}, { take: 1 })
  const [shippingProfile] = await container.resolve(Modules.FULFILLMENT).listShippingProfiles({}, { take: 1 })
  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({ input: { locations: [{ name: "Склад" }] } })
  const placement = { salesChannelId: salesChannel.id, stockLocationId: location.id, shippingProfileId: shippingProfile?.id ?? null }
  let next = 100000
  const toCreate = () => {
    const id = String(next++)
    const c = card({
      id,
      sku: `DC-${id}`,
      sizes: ["40", "41", "42", "43"].map((size, i) => ({ size, stock: i + 1, cost_price: "990.00", price: "1287.00" })),
    })
    return { catalogId: id, input: mapCardToProduct(c, { primaryLanguage: "uk", salesChannelId: salesChannel.id }), stock: stockOf(c) }
  }
  const chunk = () => Array.from({ length: 100 }, toCreate)
  /** CPU ticks of this database's PostgreSQL backends (same machine, /proc). */
  const pgTicks = async () => {
    const { rows } = await pg.raw("select pid from pg_stat_activity where datname = current_database()")
    return rows.reduce((ticks: number, { pid }: { pid: number }) => ticks + (cpuTicksOf(pid) ?? 0), 0) // 0: ended
  }
  const parts: Record<string, (products: any[]) => Promise<unknown>> = {
    "createProductsWorkflow alone": (ps) => createProductsWorkflow(container).run({ input: { products: ps.map((p) => coreFlowsProductOf(p, placement)) } }),
    "plugin create workflow (createProductsWorkflow nested, items read, stock levels)": (ps) =>
      createProductsThroughCoreFlowsWorkflow(container).run({ input: { products: ps, placement } }),
  }
  const out: Record<string, { appMsPerProduct: number; pgMsPerProduct: number; wallMsPerProduct: number }> = {}
  for (let round = 0; round < 2; round++) {
    for (const [name, run] of Object.entries(parts)) {
      await run(chunk()) // warm-up
      const cpu = process.cpuUsage()
      const pgBefore = await pgTicks()
      const started = Date.now()
      for (let i = 0; i < products; i += 100) await run(chunk())
      const used = process.cpuUsage(cpu)
      const pgUsed = ((await pgTicks()) - pgBefore) * 10
      const key = `${name}, round ${round + 1}`
      out[key] = {
        appMsPerProduct: (used.user + used.system) / 1000 / products,
        pgMsPerProduct: pgUsed / products,
        wallMsPerProduct: (Date.now() - started) / products,
      }
      console.log(`decompose: ${key}: ${JSON.stringify(out[key])}`)
    }
  }
  fs.writeFileSync(args[0], JSON.stringify(out, null, 2))
}

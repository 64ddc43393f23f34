/**
 * `npx tsx bench/workflows-decompose.ts`: the workflows write path's create in parts (app CPU and
 * PostgreSQL CPU per product, bench/workflows-decompose.exec.ts), on a fresh database, with the load.
 * BENCH_PRODUCTS products per part (default 600).
 */
import fs from "node:fs"
import { loadavg } from "node:os"
import os from "node:os"
import path from "node:path"
import { createTestDatabase, ensurePluginBuilt, runMedusaCommand } from "../integration-tests/harness"

async function main() {
  ensurePluginBuilt()
  const db = await createTestDatabase("bench_workflows_decompose")
  const file = path.join(os.tmpdir(), `workflows-decompose-${process.pid}.json`)
  try {
    console.log(
      `load before ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`
    )
    await runMedusaCommand(
      ["exec", path.join(__dirname, "workflows-decompose.exec.ts"), file, process.env.BENCH_PRODUCTS ?? "600"],
      { DATABASE_URL: db.url },
      1_800_000
    )
    const out = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, { appMsPerProduct: number; pgMsPerProduct: number; wallMsPerProduct: number }>
    for (const [k, v] of Object.entries(out))
      console.log(
        `${k}: app CPU ${v.appMsPerProduct.toFixed(1)} ms/product, PostgreSQL CPU ${v.pgMsPerProduct.toFixed(1)} ms/product, wall ${v.wallMsPerProduct.toFixed(1)} ms/product`
      )
    console.log(
      `load after ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`
    )
  } finally {
    fs.rmSync(file, { force: true })
    await db.drop()
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  }
)

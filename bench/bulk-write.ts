/**
 * `npx tsx bench/bulk-write.ts [products] [removals] [changes] [medusaRemovals]`: the bulk
 * writer against Medusa's createProductsWorkflow in one app process (alternating pages), plus
 * bulk removals, price-only and stock-only changes. Needs a built plugin (`npm run build`),
 * PostgreSQL and Redis. Prints figures; nothing asserts on time.
 */
import path from "node:path"
import { spawn } from "node:child_process"
import { createTestDatabase } from "../integration-tests/harness/database"
import { baseMedusaEnv } from "../integration-tests/harness/medusa-cli"
import { DEMO_DIR, MEDUSA_BIN } from "../integration-tests/harness/paths"

async function main() {
  const db = await createTestDatabase("bench_bulk_write")
  try {
    const script = path.join(__dirname, "bulk-write.exec.ts")
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(MEDUSA_BIN, ["exec", script, ...process.argv.slice(2)], {
        cwd: DEMO_DIR,
        env: baseMedusaEnv({ DATABASE_URL: db.url, LOG_LEVEL: "error" }),
        stdio: ["ignore", "inherit", "inherit"],
      })
      child.on("exit", (c) => resolve(c))
    })
    if (code !== 0) throw new Error(`bench exited with ${code}`)
  } finally {
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

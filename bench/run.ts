/**
 * `npm run bench [-- sandbox client sync reprice mirror import scaleout]`: runs the benchmarks in turn and prints their
 * numbers. Benchmarks measure; tests never assert on time.
 */
import { benchSandbox } from "./sandbox"
import { benchClient } from "./client"
import { benchSync } from "./sync"
import { benchReprice } from "./reprice"
import { benchMirror } from "./mirror"
import { benchImport } from "./import"
import { benchScaleout } from "./scaleout"

const suites: Record<string, () => Promise<unknown>> = {
  sandbox: benchSandbox,
  client: benchClient,
  sync: benchSync,
  reprice: benchReprice,
  mirror: benchMirror,
  import: benchImport,
  scaleout: benchScaleout,
}

async function main() {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"))
  // The sync benchmark measures a reprice after its own full sync; `reprice` and `import` (Medusa's
  // CSV import beside the plugin, several app starts) and `scaleout` (several app processes) only when asked.
  const names = wanted.length ? wanted : Object.keys(suites).filter((n) => n !== "reprice" && n !== "import" && n !== "scaleout")
  for (const name of names) {
    const run = suites[name]
    if (!run) {
      console.error(`unknown benchmark "${name}"; choose from: ${Object.keys(suites).join(", ")}`)
      process.exit(2)
    }
    console.log(`\n=== bench: ${name}`)
    const started = Date.now()
    await run()
    console.log(`=== bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  }
)

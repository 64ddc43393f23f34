/**
 * `npm run bench [-- sandbox client sync reprice mirror import scaleout changes crossed-out memory storefront goals]`: runs the benchmarks in turn and prints their
 * numbers. Benchmarks measure; tests never assert on time.
 */
import { loadavg } from "node:os"
import { benchSandbox } from "./sandbox"
import { benchClient } from "./client"
import { benchSync } from "./sync"
import { benchReprice } from "./reprice"
import { benchMirror } from "./mirror"
import { benchImport } from "./import"
import { benchScaleout } from "./scaleout"
import { benchChanges } from "./changes"
import { benchCrossedOut } from "./crossed-out"
import { benchMemory } from "./memory"
import { benchStorefront } from "./storefront"
import { machineSpeedLine } from "./machine-speed"

const suites: Record<string, () => Promise<unknown>> = {
  sandbox: benchSandbox,
  client: benchClient,
  sync: benchSync,
  reprice: benchReprice,
  mirror: benchMirror,
  import: benchImport,
  scaleout: benchScaleout,
  changes: benchChanges,
  "crossed-out": benchCrossedOut,
  memory: benchMemory,
  storefront: benchStorefront,
}

/** Run only when named: each starts its own shops and takes minutes. */
const ON_REQUEST = ["reprice", "scaleout", "changes", "crossed-out", "memory", "storefront"]

/** `goals`: the benchmarks that print the figures issue 14 asks for, in turn, then those figures together. */
const GOALS = ["import", "changes", "crossed-out", "memory"]

async function main() {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"))
  // The sync benchmark measures a reprice after its own full sync; the others in ON_REQUEST only when asked.
  const names = (wanted.length ? wanted : Object.keys(suites).filter((n) => !ON_REQUEST.includes(n))).flatMap((n) => (n === "goals" ? GOALS : [n]))
  const figures: Record<string, Record<string, number>> = {}
  for (const name of names) {
    const run = suites[name]
    if (!run) {
      console.error(`unknown benchmark "${name}"; choose from: ${Object.keys(suites).join(", ")}, goals (${GOALS.join(" ")})`)
      process.exit(2)
    }
    console.log(
      `\n=== bench: ${name} (load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}; ${machineSpeedLine()})`
    )
    const started = Date.now()
    try {
      const result = await run()
      if (result && typeof result === "object") figures[name] = result as Record<string, number>
    } catch (e) {
      // One failing benchmark does not lose the others' figures.
      console.error(`=== bench: ${name} failed:`, e)
      process.exitCode = 1
    }
    console.log(`=== bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  }
  if (names.length > 1) {
    console.log(
      `\n=== figures (load at the end ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}; ${machineSpeedLine()})`
    )
    for (const [name, values] of Object.entries(figures)) {
      const shown = Object.entries(values).map(([k, v]) => `${k} ${typeof v === "number" ? (Number.isInteger(v) ? v : v.toFixed(2)) : JSON.stringify(v)}`)
      console.log(`${name}: ${shown.join(", ")}`)
    }
  }
}

main().then(
  () => process.exit(),
  (e) => {
    console.error(e)
    process.exit(1)
  }
)

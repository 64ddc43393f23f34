// npm run sandbox -- [options]: starts the sandbox and prints its addresses.

import { parseArgs } from "node:util"
import { startSandbox } from "./server"

const USAGE = `Usage: npm run sandbox -- [options]
  --host 127.0.0.1        address to listen on
  --port 4010             public API port (0 = any free port)
  --control-port 4011     control API port (0 = any free port)
  --products 2000         catalog size
  --seed 1                same seed, same catalog
  --api-key sandbox-key   the account's API key
  --rpm 60                requests per minute per key
  --concurrency 3         requests in flight per key
  --daily-quota 10000     requests per day per account
  --quota-enforced        refuse requests over the daily quota (429 daily_quota_exceeded)
  --latency-ms 0          delay added to every API answer
  --fail-rate 0           fraction (0..1) of API answers turned into faults
  --help                  this text`

async function main(): Promise<void> {
  const { values } = parseOptions()
  if (values.help) {
    console.log(USAGE)
    return
  }
  const sandbox = await startSandbox({
    host: values.host,
    port: integer(values.port, "--port", 0, 65535),
    controlPort: integer(values["control-port"], "--control-port", 0, 65535),
    products: integer(values.products, "--products", 0, 10_000_000),
    seed: integer(values.seed, "--seed", 0, 2 ** 31),
    apiKey: values["api-key"],
    rpm: integer(values.rpm, "--rpm", 1, 100_000_000),
    concurrency: integer(values.concurrency, "--concurrency", 1, 1_000_000),
    dailyQuota: integer(values["daily-quota"], "--daily-quota", 0, 2 ** 31),
    quotaEnforced: values["quota-enforced"],
    latencyMs: integer(values["latency-ms"], "--latency-ms", 0, 600_000),
    failRate: fraction(values["fail-rate"], "--fail-rate"),
  })
  console.log(`Catalog sandbox listening on ${sandbox.baseUrl}  (API key: ${sandbox.apiKey})`)
  console.log(`Control API on ${sandbox.controlUrl}  (started in ${sandbox.startupMs} ms)`)
  const stop = () => {
    void sandbox.close().then(() => process.exit(0))
  }
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}

function parseOptions() {
  try {
    return parseArgs({
      options: {
        host: { type: "string", default: "127.0.0.1" },
        port: { type: "string", default: "4010" },
        "control-port": { type: "string", default: "4011" },
        products: { type: "string", default: "2000" },
        seed: { type: "string", default: "1" },
        "api-key": { type: "string", default: "sandbox-key" },
        rpm: { type: "string", default: "60" },
        concurrency: { type: "string", default: "3" },
        "daily-quota": { type: "string", default: "10000" },
        "quota-enforced": { type: "boolean", default: false },
        "latency-ms": { type: "string", default: "0" },
        "fail-rate": { type: "string", default: "0" },
        help: { type: "boolean", default: false },
      },
    })
  } catch (error) {
    fail(String((error as Error).message))
  }
}

function integer(text: string | undefined, name: string, min: number, max: number): number {
  const value = Number(text)
  if (!/^[0-9]+$/.test(text ?? "") || value < min || value > max) fail(`${name} must be an integer from ${min} to ${max}`)
  return value
}

function fraction(text: string | undefined, name: string): number {
  const value = Number(text)
  if (!/^[0-9]*\.?[0-9]+$/.test(text ?? "") || value > 1) fail(`${name} must be a number from 0 to 1`)
  return value
}

function fail(message: string): never {
  console.error(message + "\n\n" + USAGE)
  process.exit(2)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})

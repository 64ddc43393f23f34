// Entry point of `npm run catalog`; the work is in cli/run-cli.ts.
import { runCli } from "./cli/run-cli"

const controller = new AbortController()
process.once("SIGINT", () => controller.abort())
process.once("SIGTERM", () => controller.abort())

runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
}).then(
  (code) => {
    process.exitCode = code
  },
  (error) => {
    process.stderr.write(`catalog: unexpected failure: ${(error as Error)?.name ?? "Error"}\n`)
    process.exitCode = 1
  },
)

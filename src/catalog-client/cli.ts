#!/usr/bin/env node
// Entry point of `npm run catalog`; the work is in cli/run-cli.ts.
import { runCli } from "./cli/run-cli"

function main(): void {
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
      // Only the error's name: its message could hold anything, and the key must never be printed.
      process.stderr.write(`catalog: unexpected failure: ${(error as Error)?.name ?? "Error"}\n`)
      process.exitCode = 1
    },
  )
}

// Only when run as a program: the plugin build compiles this file too, and importing it must do nothing.
if (require.main === module) main()

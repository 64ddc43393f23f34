// The catalog CLI as a process: arguments, the environment, Ctrl-C, the exit code. Importing
// this file does nothing; cli.ts (the package's bin) is the one file that calls main().
import { processEnvironment } from "../../config/environment"
import { runCli } from "./run-cli"

export function main(): void {
  const controller = new AbortController()
  process.once("SIGINT", () => controller.abort())
  process.once("SIGTERM", () => controller.abort())
  runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: processEnvironment(),
    signal: controller.signal,
  }).then(
    (code) => {
      process.exitCode = code
    },
    (error) => {
      // Only the error's name: its message could hold anything, and the key must never be printed.
      process.stderr.write(`catalog: unexpected failure: ${(error as Error)?.name ?? "Error"}\n`)
      process.exitCode = 1
    }
  )
}

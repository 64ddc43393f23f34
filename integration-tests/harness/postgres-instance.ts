// A PostgreSQL server of the test's own (initdb into a temporary directory, trust auth, a free
// port, its socket in that directory), which the test stops and starts again. Never the shared
// server: a restart there would break every other test using it.
import { execFile, spawn } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { promisify } from "node:util"
import { databaseUrl, PG_HOST, PG_PASSWORD, PG_PORT, PG_USER } from "./database"
import { freePort } from "./medusa-app"

const run = promisify(execFile)

export interface PostgresInstance {
  port: number
  /** A URL for a database on this server. */
  url(database: string): string
  /** Creates `database` here as a copy of `source` on the shared server (pg_dump piped into psql). */
  copyFrom(source: string, database: string): Promise<void>
  /** Stops the server (fast: open sessions are terminated), waits `downMs`, starts it again. */
  restart(downMs: number): Promise<void>
  stop(): Promise<void>
}

/** The newest PostgreSQL's binaries (Debian keeps them out of PATH). */
function binDir(): string {
  const root = "/usr/lib/postgresql"
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, "bin", "pg_ctl"))) : []
  if (!versions.length) throw new Error(`no PostgreSQL binaries under ${root}`)
  return path.join(root, versions.sort((a, b) => Number(b) - Number(a))[0], "bin")
}

/** initdb and the server refuse to run as root: as root they run as the `postgres` user. */
function asServerUser(bin: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args]
}

export async function startPostgresInstance(): Promise<PostgresInstance> {
  const bin = binDir()
  const port = await freePort()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcs-pg-"))
  const data = path.join(dir, "data")
  if (process.getuid?.() === 0) await run("chown", ["postgres:postgres", dir])
  const tool = (name: string, args: string[]) => {
    const [cmd, argv] = asServerUser(path.join(bin, name), args)
    return run(cmd, argv, { maxBuffer: 16 * 1024 * 1024 })
  }
  await tool("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"])
  // A test server: nothing here must survive a crash of the machine, so no fsync.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c synchronous_commit=off`
  const start = () => tool("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "server.log"), "-w", "-t", "300", "start"])
  const stop = () => tool("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "300", "stop"])
  await start()
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`
  let stopped = false
  return {
    port,
    url,
    async copyFrom(source, database) {
      await run(path.join(bin, "psql"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-c", `create database "${database}"`])
      const dump = spawn(path.join(bin, "pg_dump"), ["--no-owner", "--no-privileges", "-h", PG_HOST, "-p", String(PG_PORT), "-U", PG_USER, "-d", source], {
        env: { ...process.env, ...(PG_PASSWORD ? { PGPASSWORD: PG_PASSWORD } : {}) },
        stdio: ["ignore", "pipe", "pipe"],
      })
      const load = spawn(path.join(bin, "psql"), ["-q", "-v", "ON_ERROR_STOP=1", url(database)], { stdio: ["pipe", "ignore", "pipe"] })
      let errors = ""
      dump.stderr.on("data", (d) => (errors += d))
      load.stderr.on("data", (d) => (errors += d))
      dump.stdout.pipe(load.stdin)
      const exit = (c: ReturnType<typeof spawn>) => new Promise<number | null>((r) => c.on("exit", (code) => r(code)))
      const [dumped, loaded] = await Promise.all([exit(dump), exit(load)])
      if (dumped !== 0 || loaded !== 0) throw new Error(`copying ${databaseUrl(source)} failed (pg_dump ${dumped}, psql ${loaded}): ${errors.slice(-2000)}`)
    },
    async restart(downMs) {
      await stop()
      await new Promise((r) => setTimeout(r, downMs))
      await start()
    },
    async stop() {
      if (stopped) return
      stopped = true
      await stop().catch(() => undefined)
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

// The demo's encryption secret: random, made on first start, kept in demo/.env (gitignored)
// so a saved key still decrypts after a restart. There is no default secret anywhere: a fixed
// one would decrypt the stored key from any database dump of any app that copied it.
//
// `npm run demo` runs this through scripts/demo.sh, which exports what it prints. Run alone:
//   npx tsx scripts/demo-secret.ts        # prints `export CATALOG_SYNC_ENCRYPTION_KEY=...`
import { randomBytes } from "node:crypto"
import fs from "node:fs"
import path from "node:path"

export const SECRET_VAR = "CATALOG_SYNC_ENCRYPTION_KEY"
export const DEMO_ENV_FILE = path.resolve(__dirname, "..", "demo", ".env")

/** 48 random bytes, base64url: 64 characters. */
export function generateSecret(): string {
  return randomBytes(48).toString("base64url")
}

function readVar(text: string, name: string): string | null {
  for (const line of text.split(/\r?\n/)) {
    const m = line.match(/^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/)
    if (m && m[1] === name) {
      const value = m[2].trim().replace(/^(['"])(.*)\1$/, "$2")
      return value || null
    }
  }
  return null
}

/**
 * The secret in `envFile`, written there first (a new random one, the file created 0600 or
 * appended to) when it holds none. Returns it and whether it was created.
 */
export function ensureDemoSecret(envFile = DEMO_ENV_FILE): { secret: string; created: boolean } {
  const text = fs.existsSync(envFile) ? fs.readFileSync(envFile, "utf8") : ""
  const existing = readVar(text, SECRET_VAR)
  if (existing) return { secret: existing, created: false }
  const secret = generateSecret()
  const line = `# Generated on first start of the demo; keep it: it decrypts the catalog API key saved in the database.\n${SECRET_VAR}=${secret}\n`
  const prefix = text && !text.endsWith("\n") ? "\n" : ""
  fs.writeFileSync(envFile, text + prefix + line, { mode: 0o600 })
  return { secret, created: true }
}

if (require.main === module) {
  // A secret already in the environment wins (e.g. a deployment's own); else demo/.env's.
  const fromEnv = process.env[SECRET_VAR]?.trim()
  const { secret, created } = fromEnv ? { secret: fromEnv, created: false } : ensureDemoSecret()
  if (created) console.error(`[demo] generated a random ${SECRET_VAR} in ${path.relative(process.cwd(), DEMO_ENV_FILE)}`)
  if (!/^[A-Za-z0-9_.~+/=-]+$/.test(secret)) {
    console.error(`[demo] ${SECRET_VAR} holds characters the demo script cannot pass on; use a base64 or hex value`)
    process.exit(1)
  }
  process.stdout.write(`export ${SECRET_VAR}='${secret}'\n`)
}

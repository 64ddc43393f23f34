// Finds the secret-like literals this repository publishes, for the guard test that keeps
// src/sync/settings/published-secrets.ts complete: a value given to a setting named like a
// secret (an `.env` line, a config or code assignment), and any random-looking token in the
// documentation and the demo. Each must be listed there, so the plugin refuses it.
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { MIN_STRONG_SECRET_LENGTH } from "../src/sync/settings"

export const ROOT = path.resolve(__dirname, "..")

/** Tracked files plus new files not ignored (what the next commit can hold). */
export function repositoryFiles(root = ROOT): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, maxBuffer: 64 * 1024 * 1024 })
  return [...new Set(out.toString("utf8").split("\0").filter(Boolean))]
    .filter((file) => file !== "package-lock.json")
    .map((file) => path.join(root, file))
    .filter((file) => fs.existsSync(file) && fs.statSync(file).isFile())
}

/** Where a reader copies examples from: any random-looking token there counts. */
export function isDocumentation(file: string): boolean {
  const rel = path.relative(ROOT, file).split(path.sep).join("/")
  return /\.md$/.test(rel) || rel.startsWith("docs/") || rel.startsWith("demo/") || /(^|\/)\.env/.test(rel)
}

// `NAME = "value"`, `name: 'value'`, `NAME=value` (an .env line), `x || "value"`, where NAME
// ends in secret, key, token or password.
const SECRET_ASSIGNMENT =
  /[A-Za-z0-9_.$-]*(?:secret|key|token|password)["']?\s*[:=]\s*(?:[^"'`\n]*?\|\|\s*)?(?:"([^"\n]*)"|'([^'\n]*)'|`([^`\n]*)`|([^\s"'`,;)]+))/gi

/** A token someone could paste as a generated secret: long, no spaces, letters and digits. */
function looksRandom(token: string): boolean {
  return (
    token.length >= MIN_STRONG_SECRET_LENGTH &&
    /^[A-Za-z0-9+/_-]+={0,2}$/.test(token) &&
    /[A-Za-z]/.test(token) &&
    /[0-9]/.test(token) &&
    !/\/\/|^\/|\/$/.test(token)
  )
}

export function secretLikeLiterals(text: string, documentation: boolean): Set<string> {
  const found = new Set<string>()
  for (const m of text.matchAll(SECRET_ASSIGNMENT)) {
    const value = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? "").trim()
    // A secret is one word; interpolations and expressions are code, not published values.
    if (value.length >= MIN_STRONG_SECRET_LENGTH && !/\s|\$\{|[{}\\()]|^process\.env/.test(value)) found.add(value)
  }
  if (documentation) {
    for (const word of text.split(/[\s"'`<>()[\]{},;|]+/)) {
      for (const part of [word, ...word.split(/[=:]+/)]) if (looksRandom(part)) found.add(part)
    }
  }
  return found
}

/** Every secret-like literal of the repository, with the files it stands in. */
export function repositorySecretLikeLiterals(root = ROOT): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const file of repositoryFiles(root)) {
    const buffer = fs.readFileSync(file)
    if (buffer.includes(0)) continue // binary
    for (const value of secretLikeLiterals(buffer.toString("utf8"), isDocumentation(file))) {
      found.set(value, [...(found.get(value) ?? []), path.relative(root, file)])
    }
  }
  return found
}

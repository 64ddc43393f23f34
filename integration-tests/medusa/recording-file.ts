// A file a recorder in the demo app appends JSON lines to, named by the app's environment (the
// product-events subscriber, the pageWritten hook): `take()` reads what was recorded and empties it.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export function recordingFile(label: string) {
  const path = join(mkdtempSync(join(tmpdir(), `${label}-`)), "recorded.jsonl")
  writeFileSync(path, "")
  return {
    path,
    take<T>(): T[] {
      const lines = readFileSync(path, "utf8").split("\n").filter(Boolean)
      writeFileSync(path, "")
      return lines.map((l) => JSON.parse(l) as T)
    },
  }
}

import { execFileSync } from "node:child_process"
import { readdirSync } from "node:fs"
import path from "node:path"

// A shell script with a quoting slip (an apostrophe inside a `node -e '…'` block) fails only when
// CI reaches that line, after half an hour of tests: parse every script here instead.
const root = path.resolve(__dirname, "../..")
const scripts = [
  ".ci/run",
  ...readdirSync(path.join(root, "scripts"))
    .filter((f) => f.endsWith(".sh"))
    .map((f) => `scripts/${f}`),
]

describe("the project's shell scripts", () => {
  it.each(scripts)("%s parses (bash -n)", (script) => {
    expect(() => execFileSync("bash", ["-n", path.join(root, script)], { stdio: "pipe" })).not.toThrow()
  })

  it("include the test runner and CI's entry point", () => {
    expect(scripts).toEqual(expect.arrayContaining([".ci/run", "scripts/test.sh"]))
  })
})

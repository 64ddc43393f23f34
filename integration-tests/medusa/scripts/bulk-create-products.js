"use strict"
// Runs inside the demo app through `medusa exec` (plain JavaScript: exec loads it as is): the
// built plugin's bulk create of a page's new products, alone, as a page whose process died
// right after that transaction committed (before its product map was written) leaves them.
//   args[0]: path of a JSON file { products: ProductToCreate[], placement, resultFile }
const fs = require("node:fs")
const path = require("node:path")

const PLUGIN = path.resolve(__dirname, "..", "..", "..", ".medusa", "server", "src")
const { createInOneTransaction } = require(path.join(PLUGIN, "workflows", "page", "new-products-in-bulk"))

exports.default = async function run({ container, args }) {
  const input = JSON.parse(fs.readFileSync(args[0], "utf8"))
  const outcome = await createInOneTransaction(container, input.products, input.placement)
  if (!("created" in outcome)) throw outcome.rolledBack
  fs.writeFileSync(input.resultFile, JSON.stringify(outcome.created))
}

"use strict"
// Runs inside the demo app through `medusa exec` (plain JavaScript: exec loads it as is):
// the image mirror of the built plugin, with the app's container (catalog_sync module and the
// File module the app configured), through a list of steps, and writes a JSON report to a file
// (not stdout: exec ends the process at once, before a large pipe write is flushed).
//   args[0]: path of a JSON file { imageServer, reportFile, steps: [...] }
const fs = require("node:fs")
const path = require("node:path")
const { Modules } = require("@medusajs/framework/utils")

const PLUGIN = path.resolve(__dirname, "..", "..", "..", ".medusa", "server", "src")
const { imageMirrorFromContainer } = require(path.join(PLUGIN, "image-mirror"))

exports.default = async function run({ container, args }) {
  const plan = JSON.parse(fs.readFileSync(args[0], "utf8"))
  const files = container.resolve(Modules.FILE)
  const records = container.resolve("catalog_sync")
  const counts = async () => (await fetch(`${plan.imageServer}/__counts?reset=1`)).json()
  await counts()
  const report = []
  for (const step of plan.steps) {
    const clock = new Date(Date.now() + (step.nowOffsetMs || 0))
    const { mirror, close } = imageMirrorFromContainer(
      container,
      { addressPolicy: { allowPrivateNetworks: true }, maxBytes: step.maxBytes, timeoutMs: 5000 },
      undefined,
      () => clock,
    )
    try {
      const out = { op: step.op }
      const started = Date.now()
      if (step.op === "mirror") {
        const r = await mirror.mirrorGalleries(step.products)
        Object.assign(out, { ...r, galleries: Object.fromEntries(r.galleries) })
      } else if (step.op === "release") {
        out.released = await mirror.releaseProducts(step.ids)
      } else if (step.op === "due") {
        out.due = await mirror.productsWithDueImages()
      } else if (step.op === "collect") {
        out.collected = await mirror.collect(step.urls)
      } else if (step.op === "stored") {
        // Every record with a file, and the bytes the File module returns for it.
        const rows = await records.listCatalogMirroredImages({}, { take: null })
        out.records = await Promise.all(
          rows.map(async (r) => ({
            source_url: r.source_url,
            file_id: r.file_id,
            shop_url: r.shop_url,
            content_hash: r.content_hash,
            failure_count: r.failure_count,
            next_attempt_at: r.next_attempt_at,
            bytes: r.file_id ? (await files.getAsBuffer(r.file_id)).toString("base64") : null,
          })),
        )
        out.refs = (await records.listCatalogMirroredImageRefs({}, { take: null })).map((r) => [r.catalog_id, r.source_url])
      }
      out.ms = Date.now() - started
      out.requests = await counts()
      report.push(out)
    } finally {
      await close()
    }
  }
  fs.writeFileSync(plan.reportFile, JSON.stringify(report))
}

/**
 * Mirrored images benchmark: the first sync of BENCH_MIRROR_PRODUCTS products (default 2,000;
 * 1 to 8 images each, as the sandbox generates them) with mirror_images on, into the demo's
 * local file provider. Prints the run's time, the images downloaded and stored, and the load.
 * The files it stored are deleted afterwards. Run alone: `npx tsx bench/mirror.ts`.
 */
import fs from "node:fs"
import path from "node:path"
import { loadavg } from "node:os"
import { DEMO_DIR } from "../integration-tests/harness"
import { configure, sql, waitForRun } from "../integration-tests/medusa/poll-and-query"
import { startBenchShop } from "./bench-shop"

export async function benchMirror(): Promise<Record<string, number>> {
  const shop = await startBenchShop("bench-mirror", 5, Number(process.env.BENCH_MIRROR_PRODUCTS ?? 2_000))
  const { sb, db, app } = shop
  try {
    const saved = await configure(app, { base_url: sb.baseUrl, api_key: sb.apiKey, markup_percent: "30", mirror_images: true })
    const run = await waitForRun(app, saved.run.id, undefined, 3600_000)
    if (run.status !== "succeeded") throw new Error(`mirrored sync ${run.status}: ${run.error_message}`)
    const seconds = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000
    const images = (sb.control.stats() as { images: number }).images
    const [stored] = await sql(
      db.url,
      "select count(*)::int as records, count(distinct file_id)::int as files from mcs_mirrored_image where file_id is not null and deleted_at is null"
    )
    const [hotLinked] = await sql(db.url, "select count(*)::int as n from image where deleted_at is null and url like $1", [`${sb.baseUrl}%`])
    console.log(
      `first sync with mirrored images: ${run.created} products, ${images} images downloaded, ${stored.files} files stored, ` +
        `${hotLinked.n} still hot-linked, in ${seconds.toFixed(1)} s = ${(run.created / seconds).toFixed(0)} products/s, ` +
        `${(images / seconds).toFixed(0)} images/s; load ${loadavg()
          .map((l) => l.toFixed(2))
          .join(" ")}`
    )
    // The local provider's files of this shop, not left in the demo's static folder.
    for (const r of await sql(db.url, "select distinct file_id from mcs_mirrored_image where file_id is not null")) {
      fs.rmSync(path.join(DEMO_DIR, "static", r.file_id), { force: true })
    }
    return { mirror_products: run.created, mirror_images: images, mirror_seconds: seconds }
  } finally {
    await shop.stop()
  }
}

if (require.main === module) {
  benchMirror().then(
    () => process.exit(0),
    (e) => {
      console.error(e)
      process.exit(1)
    }
  )
}

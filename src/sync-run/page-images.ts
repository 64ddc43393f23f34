// Mirrored images in a run (setting mirror_images; src/image-mirror does the work). Per page:
//
//   mirrorPlan (before the page's workflow) → the workflow writes the products with shop URLs →
//   afterPage (once the page committed) deletes what no product references any more.
//
// Why before the write rather than a step after it or a job per page: each product is written
// once with its final gallery (no second write, no window in which the storefront hot-links),
// and the page's database work never waits on an image host inside a transaction. Every part is
// replay-safe: records are keyed by URL and references by product and URL, so a page replayed
// after a crash fetches only what it never stored and writes the same galleries. Files are
// deleted only after the products that stopped showing them were written.
//
// A failed download keeps the catalog URL on the product; at the end of each run `revisitDue`
// retries due failures for products the catalog may never send again and writes only their images.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { updateProductsWorkflow } from "@medusajs/medusa/core-flows"
import type { AddressPolicy } from "../catalog-client/address-guard"
import { galleryUrls, imageMirrorFromContainer, mirrorable, type ImageMirror, type MirrorRecordsService } from "../image-mirror"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"
import type { PagePlan, PlannedUpsert } from "../sync/plan-page"
import type { RemovalMode } from "../workflows/remove-catalog-products"
import type CatalogSyncModuleService from "../modules/catalog_sync/service"

export interface PageImagesStats {
  fetched: number
  uploaded: number
  failed: number
}

export interface PageImages {
  /** The plan with each written product's gallery in the shop's storage; `released` goes to afterPage. */
  mirrorPlan(plan: PagePlan): Promise<{ plan: PagePlan; released: string[]; stats: PageImagesStats }>
  /**
   * After the page committed: drops the references of deleted products and collects what no
   * product uses. With products whose write failed it collects nothing (they may still show a
   * released file); the records stay and a later page collects them.
   */
  afterPage(input: { released: string[]; removedCatalogIds: string[]; anyRejected: boolean }): Promise<void>
  /** The sweep removed these products: in delete mode their images are released and collected. */
  sweptRemoved(catalogIds: string[]): Promise<void>
  /** Retries due failed downloads and rewrites those products' images; returns the products rewritten. */
  revisitDue(): Promise<number>
  close(): Promise<void>
}

/** Products whose images the page writes: every create, and updates whose fields (images included) changed. */
const writesImages = (p: PlannedUpsert, isCreate: boolean) => isCreate || p.partsToWrite.fields

// Frozen: every planned product that gets it shares this one object.
const IMAGES_ONLY = Object.freeze({ fields: true, variants: false, prices: false })

/**
 * Unchanged products never mirrored (synced before the setting was on): they have images but
 * no reference at all. They join the page's updates (fields only), so a full pass mirrors the
 * whole shop once; afterwards every one of them has references and stays unchanged.
 */
async function neverMirrored(container: MedusaContainer, unchanged: PlannedUpsert[]): Promise<PlannedUpsert[]> {
  // Only products with a URL the mirror keeps (else no reference is ever made and they would come back every pass).
  const withImages = unchanged.filter((p) => p.row?.product_id && galleryUrls(p.input.images).some(mirrorable))
  if (withImages.length === 0) return []
  const service = container.resolve<MirrorRecordsService>(CATALOG_SYNC_MODULE)
  const refs = await service.listCatalogMirroredImageRefs({ catalog_id: withImages.map((p) => p.catalogId) }, { select: ["catalog_id"], take: null })
  const mirrored = new Set(refs.map((r: any) => r.catalog_id as string))
  return withImages.filter((p) => !mirrored.has(p.catalogId)).map((p) => ({ ...p, partsToWrite: IMAGES_ONLY }))
}

function withGallery(p: PlannedUpsert, gallery: string[] | undefined): PlannedUpsert {
  if (!gallery) return p
  const images = gallery.map((url) => ({ url }))
  return { ...p, input: { ...p.input, images, thumbnail: images[0]?.url ?? null } }
}

export function pageImagesFor(container: MedusaContainer, addressPolicy: AddressPolicy, removalMode: RemovalMode): PageImages {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const { mirror, close } = imageMirrorFromContainer(container, { addressPolicy }, logger)
  return {
    async mirrorPlan(input) {
      const catchUp = await neverMirrored(container, input.unchanged)
      const caughtUp = new Set(catchUp.map((p) => p.catalogId))
      const plan: PagePlan = caughtUp.size
        ? { ...input, update: [...input.update, ...catchUp], unchanged: input.unchanged.filter((p) => !caughtUp.has(p.catalogId)) }
        : input
      const products = [...plan.create.filter((p) => writesImages(p, true)), ...plan.update.filter((p) => writesImages(p, false))].map((p) => ({
        catalogId: p.catalogId,
        images: p.input.images,
      }))
      if (products.length === 0) return { plan, released: [], stats: { fetched: 0, uploaded: 0, failed: 0 } }
      const result = await mirror.mirrorGalleries(products)
      const rewrite = (p: PlannedUpsert) => withGallery(p, result.galleries.get(p.catalogId))
      return {
        plan: { ...plan, create: plan.create.map(rewrite), update: plan.update.map((p) => (p.partsToWrite.fields ? rewrite(p) : p)) },
        released: result.released,
        stats: { fetched: result.fetched, uploaded: result.uploaded, failed: result.failed.length },
      }
    },

    async afterPage({ released, removedCatalogIds, anyRejected }) {
      // Drafted products keep their images; deleted ones release them.
      const dropped = removalMode === "delete" ? await mirror.releaseProducts(removedCatalogIds) : []
      if (anyRejected) return
      await mirror.collect([...released, ...dropped])
    },

    async sweptRemoved(catalogIds) {
      if (removalMode !== "delete") return
      await mirror.collect(await mirror.releaseProducts(catalogIds))
    },

    revisitDue: () => revisitDueImages(container, mirror),
    close,
  }
}

/**
 * Products showing a catalog URL whose download is due: their source gallery is read back from
 * the product (a shop URL maps to the source URL of one of the product's own references), the
 * mirror runs again, and only the product's images and thumbnail are written.
 */
async function revisitDueImages(container: MedusaContainer, mirror: ImageMirror): Promise<number> {
  const catalogIds = await mirror.productsWithDueImages()
  if (catalogIds.length === 0) return 0
  const service = container.resolve<MirrorRecordsService & { listCatalogProductMaps(f: object, c?: object): Promise<any[]> }>(CATALOG_SYNC_MODULE)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const rows = await service.listCatalogProductMaps({ catalog_id: catalogIds, status: "active" }, { select: ["catalog_id", "product_id"], take: null })
  // A product whose images the shop locked keeps them (src/field-locks); with auto-lock on, the
  // new gallery is recorded as the sync's own write first, so it is not taken for an admin edit.
  const locks = container.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
  const imagesLocked = await locks.catalogIdsWithLockedField(catalogIds, "images")
  const recordWrites = (await locks.getFieldLockDefaults()).auto_lock_on_admin_edit
  let rewritten = 0
  for (const row of rows) {
    if (!row.product_id || imagesLocked.has(row.catalog_id)) continue
    const { data } = await query.graph({ entity: "product", fields: ["id", "images.url", "images.rank"], filters: { id: row.product_id } })
    const shown: string[] = [...(data[0]?.images ?? [])].sort((a: any, b: any) => (a.rank ?? 0) - (b.rank ?? 0)).map((i: any) => i.url)
    const refs = await service.listCatalogMirroredImageRefs({ catalog_id: row.catalog_id }, { select: ["source_url"], take: null })
    const sources = refs.map((r: any) => r.source_url as string)
    const records = sources.length ? await service.listCatalogMirroredImages({ source_url: sources }, { select: ["source_url", "shop_url"], take: null }) : []
    const sourceOf = new Map<string, string>(records.filter((r: any) => r.shop_url).map((r: any) => [r.shop_url, r.source_url]))
    const gallery = shown.map((url) => sourceOf.get(url) ?? url)
    const result = await mirror.mirrorGalleries([{ catalogId: row.catalog_id, images: gallery }])
    const images = result.galleries.get(row.catalog_id) ?? []
    if (images.join("\n") === shown.join("\n")) continue
    if (recordWrites) await locks.mergeFieldValues("written", [{ productId: row.product_id, catalogId: row.catalog_id, values: { images } }])
    await updateProductsWorkflow(container).run({
      input: { selector: { id: row.product_id }, update: { images: images.map((url) => ({ url })), thumbnail: images[0] ?? null } },
    })
    rewritten++
  }
  return rewritten
}

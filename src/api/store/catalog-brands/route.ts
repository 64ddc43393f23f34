// GET /store/catalog-brands: the catalog's brands with their models (publishable key required,
// like every /store route). ?limit (1..200, default 50), ?offset, ?q (name contains).
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

export const BRAND_FIELDS = ["id", "catalog_id", "name", "slug", "models.id", "models.catalog_id", "models.name", "models.slug"]

function intParam(value: unknown, fallback: number, min: number, max: number): number {
  const n = typeof value === "string" && /^[0-9]+$/.test(value) ? Number(value) : fallback
  return Math.min(max, Math.max(min, n))
}

export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const limit = intParam(req.query.limit, 50, 1, 200)
  const offset = intParam(req.query.offset, 0, 0, Number.MAX_SAFE_INTEGER)
  const q = typeof req.query.q === "string" && req.query.q.trim() ? req.query.q.trim() : undefined
  const { data, metadata } = await query.graph({
    entity: "catalog_brand",
    fields: BRAND_FIELDS,
    filters: q ? { name: { $ilike: `%${q}%` } } : {},
    pagination: { skip: offset, take: limit, order: { name: "ASC" } },
  } as never)
  res.json({ brands: data, count: (metadata as { count?: number } | undefined)?.count ?? data.length, limit, offset })
}

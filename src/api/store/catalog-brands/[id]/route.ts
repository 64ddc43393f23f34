// GET /store/catalog-brands/:id: one brand (by its id or its catalog id) with its models.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { BRAND_FIELDS } from "../route"

export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const id = req.params.id
  const filters = /^[0-9]+$/.test(id) ? { catalog_id: id } : { id }
  const { data } = await query.graph({ entity: "catalog_brand", fields: BRAND_FIELDS, filters } as never)
  if (!data.length) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Brand ${id} was not found`)
  res.json({ brand: data[0] })
}

// Product titles read from Medusa's product table (live or not: a title names what was removed).
import { sqlOf, type Connection } from "../connection"

/** The titles of these products, by id. */
export async function productTitles(connection: Connection, productIds: string[]): Promise<Map<string, string>> {
  if (!productIds.length) return new Map()
  const found = (await sqlOf(connection)("product").select("id", "title").whereIn("id", productIds)) as { id: string; title: string }[]
  return new Map(found.map((p) => [p.id, p.title]))
}

// Ids exactly as Medusa's models make them (`model.id({ prefix })` → generateEntityId):
// `<prefix>_<ULID>`, 10 Crockford base-32 characters of millisecond time then 16 of
// randomness. Medusa's ulid() draws one crypto random byte per character (randomFillSync for
// each), a large share of a page write's CPU in a profile.
// This writes the same format from a pooled crypto buffer: same alphabet, same time part, the
// same 80 random bits, uniformly distributed (32 divides 256).
import { randomFillSync } from "node:crypto"

export const ID_PREFIX = {
  product: "prod",
  option: "opt",
  optionValue: "optval",
  productOption: "prodopt",
  productOptionValue: "prodoptval",
  variant: "variant",
  image: "img",
  priceSet: "pset",
  price: "price",
  inventoryItem: "iitem",
  inventoryLevel: "ilev",
  productSalesChannel: "prodsc",
  productShippingProfile: "prodsp",
  variantPriceSet: "pvps",
  variantInventoryItem: "pvitem",
} as const

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const POOL = Buffer.alloc(16 * 1024)
let offset = POOL.length

function encodeTime(ms: number): string {
  let out = ""
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[ms % 32] + out
    ms = Math.floor(ms / 32)
  }
  return out
}

export function ulid(now = Date.now()): string {
  if (offset + 16 > POOL.length) {
    randomFillSync(POOL)
    offset = 0
  }
  let random = ""
  for (let i = 0; i < 16; i++) random += CROCKFORD[POOL[offset++] & 31]
  return encodeTime(now) + random
}

export function newId(prefix: string): string {
  return `${prefix}_${ulid()}`
}

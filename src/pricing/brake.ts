// The safety brake: before a run writes, decide whether what it is about to do looks like a
// supplier feed gone wrong (half the catalog removed, prices at a tenth) and should wait for the
// admin. Pure: the caller gathers the plan and pauses the run when told to.
import { z } from "zod"
import { formatCount } from "../sync/number-format"
import { D, type Dec, HUNDRED, parseDecimal } from "./decimal"
import { brakePercentText } from "./percent-text"

export type BrakeThresholds = {
  /** Pause when removals are more than this percent of the shop's catalog products. */
  removal_percent: string
  /** Pause when more than this percent of the shop's prices would drop by more than `price_drop_percent`. */
  lowered_prices_percent: string
  price_drop_percent: string
}

export const DEFAULT_BRAKE_THRESHOLDS: BrakeThresholds = {
  removal_percent: "20",
  lowered_prices_percent: "10",
  price_drop_percent: "30",
}

const percent = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const d = parseDecimal(value)
  if (d === null || d.lt(0) || d.gt(100)) {
    ctx.addIssue({ code: "custom", message: "must be a percent from 0 to 100" })
    return z.NEVER
  }
  return d.toFixed()
})

export const brakeThresholdsSchema = z
  .object({
    removal_percent: percent.default(DEFAULT_BRAKE_THRESHOLDS.removal_percent),
    lowered_prices_percent: percent.default(DEFAULT_BRAKE_THRESHOLDS.lowered_prices_percent),
    price_drop_percent: percent.default(DEFAULT_BRAKE_THRESHOLDS.price_drop_percent),
  })
  .strict()

export type PlannedRemoval = { catalog_id: string; product_id?: string | null; title?: string | null }
export type PlannedPriceChange = { variant_id: string; catalog_id?: string; size?: string; title?: string | null; from: string; to: string }

/**
 * The products the shop holds from the catalog that the removals' base (`shopCatalogProducts`)
 * leaves out, so the admin is told what the share is of: those kept by a discarded removal and
 * those an open order keeps (neither is the catalog's any more).
 */
export type BrakeBaseExclusions = { kept_by_discard: number; kept_for_orders: number }

export type BrakeInput = {
  /** The shop's products that came from the catalog (active ones), before the run. */
  shopCatalogProducts: number
  /** What `shopCatalogProducts` leaves out; stored in the preview as `removals.base` when given. */
  notCounted?: BrakeBaseExclusions
  /** The shop's catalog variant prices before the run (the base of the lowered-prices share). */
  shopPrices: number
  /** Everything the run (so far, cumulatively) would remove and every selling-price change it would write. */
  removals: readonly PlannedRemoval[]
  /** How many removals there are when `removals` holds only some of them (a sweep's sample). */
  removalCount?: number
  priceChanges: readonly PlannedPriceChange[]
  thresholds?: Partial<BrakeThresholds>
  /** How many examples the preview carries of each kind (default 20). */
  previewSize?: number
}

export type BrakeReason = { code: "removals" | "price_drops"; message: string }

export type BrakePreview = {
  thresholds: BrakeThresholds
  /**
   * `share_percent` is the exact share to 2 decimals (the API's figure); `share_text` the same share
   * as the reason and the admin write it (brakePercentText: "23.3"). Previews stored before it have none.
   */
  removals: {
    count: number
    share_percent: string | null
    share_text?: string | null
    sample: PlannedRemoval[]
    /**
     * What the share is of: `products` the shop held from the catalog at the run's start, not
     * counting those kept by a discard or for an open order. Previews stored before it have none.
     */
    base?: { products: number } & BrakeBaseExclusions
  }
  /** Prices dropping by more than price_drop_percent; the sample is the steepest drops first. */
  steep_drops: {
    count: number
    share_percent: string | null
    share_text?: string | null
    sample: (PlannedPriceChange & { drop_percent: string; drop_text?: string })[]
  }
}

/** How many examples a preview carries of each kind. */
export const BRAKE_PREVIEW_SIZE = 20

export type BrakeDecision = { pause: boolean; reasons: BrakeReason[]; preview: BrakePreview }

/** part / whole × 100, 2 decimals; null when whole is 0. */
function share(part: number, whole: number): Dec | null {
  return whole > 0 ? new D(part).div(whole).times(HUNDRED) : null
}

/** The drop from → to in percent of from (exact); null when it is not a drop. */
export function dropPercent(from: string, to: string): Dec | null {
  const f = parseDecimal(from)
  const t = parseDecimal(to)
  if (f === null || t === null || !f.gt(0) || !t.lt(f)) return null
  return f.minus(t).div(f).times(HUNDRED)
}

/**
 * Pause or go on. Thresholds are strict: exactly 20 % removals goes on, more pauses. With a shop
 * of 0 catalog products (first sync) there is nothing to protect and nothing to remove.
 */
export function decideBrake(input: BrakeInput): BrakeDecision {
  const thresholds: BrakeThresholds = { ...DEFAULT_BRAKE_THRESHOLDS, ...stripUndefined(input.thresholds ?? {}) }
  const previewSize = input.previewSize ?? BRAKE_PREVIEW_SIZE
  const removalLimit = new D(thresholds.removal_percent)
  const loweredLimit = new D(thresholds.lowered_prices_percent)
  const dropLimit = new D(thresholds.price_drop_percent)
  const reasons: BrakeReason[] = []

  const removalCount = input.removalCount ?? input.removals.length
  const removalShare = share(removalCount, input.shopCatalogProducts)
  if (removalShare !== null && removalShare.gt(removalLimit)) {
    reasons.push({
      code: "removals",
      message: `would remove ${formatCount(removalCount)} of ${formatCount(input.shopCatalogProducts)} catalog products (${brakePercentText(removalShare, removalLimit)} %, more than ${thresholds.removal_percent} %)`,
    })
  }

  const steep: (PlannedPriceChange & { drop: Dec })[] = []
  for (const change of input.priceChanges) {
    const drop = dropPercent(change.from, change.to)
    if (drop !== null && drop.gt(dropLimit)) steep.push({ ...change, drop })
  }
  const steepShare = share(steep.length, input.shopPrices)
  if (steepShare !== null && steepShare.gt(loweredLimit)) {
    reasons.push({
      code: "price_drops",
      message: `would lower ${formatCount(steep.length)} of ${formatCount(input.shopPrices)} prices by more than ${thresholds.price_drop_percent} % (${brakePercentText(steepShare, loweredLimit)} %, more than ${thresholds.lowered_prices_percent} %)`,
    })
  }

  steep.sort((a, b) => b.drop.comparedTo(a.drop))
  return {
    pause: reasons.length > 0,
    reasons,
    preview: {
      thresholds,
      removals: {
        count: removalCount,
        share_percent: removalShare?.toFixed(2) ?? null,
        share_text: removalShare ? brakePercentText(removalShare, removalLimit) : null,
        sample: input.removals.slice(0, previewSize),
        ...(input.notCounted
          ? {
              base: {
                products: input.shopCatalogProducts,
                kept_by_discard: input.notCounted.kept_by_discard,
                kept_for_orders: input.notCounted.kept_for_orders,
              },
            }
          : {}),
      },
      steep_drops: {
        count: steep.length,
        share_percent: steepShare?.toFixed(2) ?? null,
        share_text: steepShare ? brakePercentText(steepShare, loweredLimit) : null,
        sample: steep
          .slice(0, previewSize)
          .map(({ drop, ...change }) => ({ ...change, drop_percent: drop.toFixed(2), drop_text: brakePercentText(drop, dropLimit) ?? drop.toFixed(2) })),
      },
    },
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

// The pricing rules engine: one size's cost → selling price and crossed-out price, exact.
//
// Steps, in this order (each documented where it happens):
//   1. pick the markup: the most specific matching override, else the base markup (PRECEDENCE);
//   2. price = cost × (1 + markup/100), rounded to whole kopiykas half up (what the API does);
//   3. the minimum margin lifts the price to its floor;
//   4. rounding (whole hryvnia or an ending, up or nearest); when rounding to nearest would
//      fall under the floor, the floor is rounded up instead, so nothing undercuts the margin;
//   5. crossed-out price: from the final price (discount) or from the cost (separate markup),
//      to whole kopiykas half up as the API does, then rounded by the same rounding.
// With only a base markup, optionally one crossed-out option and no rounding, steps 1, 3 and 4
// do nothing and the result equals the API's price for the same parameters.
import { D, type Dec, HUNDRED, ONE, ZERO, money, parseDecimal, percentFactor, roundKop } from "./decimal"
import type { PricingOverride, PricingRules, RoundingDirection } from "./rules"

export type PricingContext = {
  /** Category ids from the root to the product's own category; empty when unknown. */
  categoryPath: readonly string[]
  brandId: string | null
}

export type RuleApplied =
  | { type: "base"; markup_percent: string }
  | {
      type: "category"
      index: number
      category_id: string
      markup_percent: string
      /** The category's position in the product's path (0 = root). */
      depth: number
      /** True when the override is on an ancestor, not the product's own category. */
      inherited: boolean
    }
  | { type: "brand"; index: number; brand_id: string; markup_percent: string }
  | { type: "cost_band"; index: number; min_cost: string | null; max_cost: string | null; markup_percent: string }

export type PriceResult = {
  /** Selling price, 2 decimals. */
  amount: string
  /** Crossed-out price, 2 decimals, or null when the rules have none. */
  crossedOut: string | null
  ruleApplied: RuleApplied
  /** True when the minimum margin, not the markup, set the price. */
  minimumMarginApplied: boolean
}

/**
 * The precedence, as the admin reads it. The most specific rule wins:
 *   1. a category override: the deepest category on the product's path that has one (a
 *      category's override applies to all its subcategories unless one has its own);
 *   2. else a brand override for the product's brand;
 *   3. else the first cost band, in list order, that contains the size's cost;
 *   4. else the base markup.
 * The minimum margin then applies whichever rule won.
 */
export const PRECEDENCE: readonly string[] = [
  "Category override: the deepest matching category on the product's path (inherited by subcategories)",
  "Brand override",
  "Cost band: the first band in the list that contains the cost",
  "Base markup",
]

/** Amounts a rounding allows: k × step + offset, k ≥ 0. */
export type RoundingGrid = { step: Dec; offset: Dec; direction: RoundingDirection }

type CompiledRules = {
  base: { markup: Dec; rule: RuleApplied }
  categories: Map<string, { index: number; markup: Dec; text: string }>
  brands: Map<string, { index: number; markup: Dec; rule: RuleApplied }>
  bands: { index: number; min: Dec | null; max: Dec | null; markup: Dec; rule: RuleApplied }[]
  /** null: no rounding beyond whole kopiykas. */
  grid: RoundingGrid | null
  margin: { amount: Dec | null; factor: Dec | null }
  crossedOut: { kind: "none" } | { kind: "discount"; divisor: Dec } | { kind: "markup"; factor: Dec }
}

const compiled = new WeakMap<PricingRules, CompiledRules>()

/** Rules are compiled once per rules object (they are treated as immutable). */
function compile(rules: PricingRules): CompiledRules {
  let c = compiled.get(rules)
  if (c) return c
  const dec = (text: string) => {
    const d = parseDecimal(text)
    if (d === null) throw new TypeError(`not a number: ${text}`)
    return d
  }
  c = {
    base: { markup: dec(rules.base_markup_percent), rule: { type: "base", markup_percent: rules.base_markup_percent } },
    categories: new Map(),
    brands: new Map(),
    bands: [],
    grid: gridOf(rules.rounding),
    margin: {
      amount: rules.minimum_margin.amount === null ? null : dec(rules.minimum_margin.amount),
      factor: rules.minimum_margin.percent === null ? null : percentFactor(dec(rules.minimum_margin.percent)),
    },
    crossedOut:
      rules.crossed_out.type === "discount"
        ? { kind: "discount", divisor: ONE.minus(dec(rules.crossed_out.discount_percent).div(HUNDRED)) }
        : rules.crossed_out.type === "markup"
          ? { kind: "markup", factor: percentFactor(dec(rules.crossed_out.markup_percent)) }
          : { kind: "none" },
  }
  if (c.crossedOut.kind === "discount" && c.crossedOut.divisor.lte(0)) throw new TypeError("discount_percent must be below 100")
  rules.overrides.forEach((o: PricingOverride, index) => {
    const markup = dec(o.markup_percent)
    // The first of duplicates wins (validation refuses duplicates anyway).
    if (o.type === "category") {
      if (!c!.categories.has(o.category_id)) c!.categories.set(o.category_id, { index, markup, text: o.markup_percent })
    } else if (o.type === "brand") {
      if (!c!.brands.has(o.brand_id))
        c!.brands.set(o.brand_id, { index, markup, rule: { type: "brand", index, brand_id: o.brand_id, markup_percent: o.markup_percent } })
    } else {
      c!.bands.push({
        index,
        min: o.min_cost === null ? null : dec(o.min_cost),
        max: o.max_cost === null ? null : dec(o.max_cost),
        markup,
        rule: { type: "cost_band", index, min_cost: o.min_cost, max_cost: o.max_cost, markup_percent: o.markup_percent },
      })
    }
  })
  compiled.set(rules, c)
  return c
}

function gridOf(rounding: PricingRules["rounding"]): CompiledRules["grid"] {
  if (rounding.mode === "none") return null
  if (rounding.mode === "whole") return { step: ONE, offset: ZERO, direction: rounding.direction }
  switch (rounding.ending) {
    case "9":
      return { step: new D(10), offset: new D(9), direction: rounding.direction }
    case "99":
      return { step: HUNDRED, offset: new D(99), direction: rounding.direction }
    case ".99":
      return { step: ONE, offset: new D("0.99"), direction: rounding.direction }
    default:
      throw new TypeError("rounding to an ending needs an ending (9, 99 or .99)")
  }
}

/** The markup rule for a size, by PRECEDENCE. */
function pickRule(c: CompiledRules, cost: Dec, context: PricingContext): { markup: Dec; rule: RuleApplied } {
  const path = context.categoryPath
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const hit = c.categories.get(path[depth])
    if (hit) {
      return {
        markup: hit.markup,
        rule: {
          type: "category",
          index: hit.index,
          category_id: path[depth],
          markup_percent: hit.text,
          depth,
          inherited: depth < path.length - 1,
        },
      }
    }
  }
  if (context.brandId !== null) {
    const hit = c.brands.get(context.brandId)
    if (hit) return hit
  }
  for (const band of c.bands) {
    if ((band.min === null || cost.gte(band.min)) && (band.max === null || cost.lt(band.max))) return band
  }
  return c.base
}

/** Amount on the rounding grid (k × step + offset, k ≥ 0); 0 stays 0 (nothing to round). */
function roundToGrid(amount: Dec, grid: RoundingGrid, direction = grid.direction): Dec {
  if (amount.isZero()) return amount
  const k = amount.minus(grid.offset).div(grid.step)
  const below = k.floor()
  const lower = below.times(grid.step).plus(grid.offset)
  if (lower.eq(amount)) return amount
  const upper = lower.plus(grid.step)
  if (direction === "up" || lower.isNegative()) return upper
  // Nearest; a tie goes up (half up, like every other rounding here).
  return amount.minus(lower).lt(upper.minus(amount)) ? lower : upper
}

/** An amount rounded as the rules' rounding says (kopiykas half up first), e.g. for previews and tests. */
export function roundPrice(amount: string, rounding: PricingRules["rounding"]): string {
  const d = parseDecimal(amount)
  if (d === null || d.isNegative()) throw new TypeError(`amount must be a non-negative number, got ${JSON.stringify(amount)}`)
  const grid = gridOf(rounding)
  const kop = roundKop(d)
  return money(grid === null ? kop : roundToGrid(kop, grid))
}

/** The lowest price the minimum margin allows for a cost, in whole kopiykas (rounded up). */
function marginFloor(c: CompiledRules, cost: Dec): Dec | null {
  let floor: Dec | null = null
  if (c.margin.amount !== null) floor = cost.plus(c.margin.amount)
  if (c.margin.factor !== null) {
    const byPercent = cost.times(c.margin.factor)
    floor = floor === null || byPercent.gt(floor) ? byPercent : floor
  }
  return floor === null ? null : floor.toDecimalPlaces(2, D.ROUND_UP)
}

function finish(c: CompiledRules, amount: Dec): Dec {
  return c.grid === null ? amount : roundToGrid(amount, c.grid)
}

/**
 * One size's selling and crossed-out price from its cost (a non-negative decimal string, the
 * API's `sizes[].cost_price`, computed with the run's `price_calculation`).
 */
export function priceOf(cost: string, context: PricingContext, rules: PricingRules): PriceResult {
  const c = compile(rules)
  const costD = parseDecimal(cost)
  if (costD === null || costD.isNegative()) throw new TypeError(`cost must be a non-negative number, got ${JSON.stringify(cost)}`)
  const { markup, rule } = pickRule(c, costD, context)
  let price = roundKop(costD.times(percentFactor(markup)))
  const floor = marginFloor(c, costD)
  let minimumMarginApplied = false
  if (floor !== null && price.lt(floor)) {
    price = floor
    minimumMarginApplied = true
  }
  price = finish(c, price)
  if (floor !== null && price.lt(floor)) price = c.grid === null ? floor : roundToGrid(floor, c.grid, "up")

  let crossedOut: Dec | null = null
  if (c.crossedOut.kind === "discount") crossedOut = finish(c, roundKop(price.div(c.crossedOut.divisor)))
  else if (c.crossedOut.kind === "markup") crossedOut = finish(c, roundKop(costD.times(c.crossedOut.factor)))

  return { amount: money(price), crossedOut: crossedOut === null ? null : money(crossedOut), ruleApplied: rule, minimumMarginApplied }
}

/** Names the admin knows categories and brands by; ids without a name are shown as ids. */
export type RuleNames = {
  category?: (id: string) => string | null | undefined
  brand?: (id: string) => string | null | undefined
}

/** Which rule set a price and why, in one sentence for the admin. */
export function explainRule(result: Pick<PriceResult, "ruleApplied" | "minimumMarginApplied">, names: RuleNames = {}): string {
  const r = result.ruleApplied
  const pct = (p: string) => `${p.startsWith("-") ? "" : "+"}${p} %`
  let text: string
  switch (r.type) {
    case "category": {
      const name = names.category?.(r.category_id) ?? `#${r.category_id}`
      text = r.inherited
        ? `Category “${name}” ${pct(r.markup_percent)}, inherited by its subcategories (rule ${r.index + 1})`
        : `Category “${name}” ${pct(r.markup_percent)} (rule ${r.index + 1})`
      break
    }
    case "brand":
      text = `Brand “${names.brand?.(r.brand_id) ?? `#${r.brand_id}`}” ${pct(r.markup_percent)} (rule ${r.index + 1}; no category override matched)`
      break
    case "cost_band":
      text = `Cost ${bandText(r.min_cost, r.max_cost)} ${pct(r.markup_percent)} (rule ${r.index + 1}; no category or brand override matched)`
      break
    default:
      text = `Base markup ${pct(r.markup_percent)} (no override matched)`
  }
  return result.minimumMarginApplied ? `${text}; raised to the minimum margin` : text
}

/** "from 200 ₴ below 1000 ₴", "below 200 ₴", "from 5000 ₴" */
export function bandText(min: string | null, max: string | null): string {
  if (min !== null && max !== null) return `from ${min} ₴ below ${max} ₴`
  if (max !== null) return `below ${max} ₴`
  return `from ${min ?? "0"} ₴`
}

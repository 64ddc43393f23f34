// Pure helpers of the pricing rules editor: editing the override list, the category tree's
// labels and paths, the server preview's rows and the "N prices will move" summary. Validation
// and the rule explanations come from src/pricing (pure, so the admin bundle imports it directly).
import Decimal from "decimal.js"
import { formatCount } from "../../../../../lib/format"
import type { PreviewRow as PreviewSampleRow } from "../../../../../../api/admin/catalog-sync/pricing/preview/preview-plan"
import {
  type FieldError,
  type OverrideType,
  type PricingOverride,
  type PricingRules,
  type RepriceSummary,
  explainRule,
  parsePricingRules,
} from "../../../../../../pricing"

const D = Decimal

export type CategoryOption = { id: string; name: string; parent_id: string | null }
export type BrandOption = { id: string; name: string }

/** One sampled product of the server's preview (POST /pricing/preview), as the table shows it. */
export type PreviewRow = {
  key: string
  title: string
  cost: string
  current: string | null
  currentCrossedOut: string | null
  amount: string
  crossedOut: string | null
  /** Which rule set the price, for the admin. */
  rule: string
  move: "up" | "down" | "same"
}

export function newOverride(type: OverrideType): PricingOverride {
  if (type === "category") return { type, category_id: "", markup_percent: "" }
  if (type === "brand") return { type, brand_id: "", markup_percent: "" }
  return { type, min_cost: null, max_cost: "", markup_percent: "" }
}

export function addOverride(rules: PricingRules, type: OverrideType): PricingRules {
  return { ...rules, overrides: [...rules.overrides, newOverride(type)] }
}

export function removeOverride(rules: PricingRules, index: number): PricingRules {
  return { ...rules, overrides: rules.overrides.filter((_, i) => i !== index) }
}

/** Moves an override from one position to another (out-of-range moves change nothing). */
export function moveOverride(rules: PricingRules, from: number, to: number): PricingRules {
  const n = rules.overrides.length
  if (from === to || from < 0 || from >= n || to < 0 || to >= n) return rules
  const overrides = [...rules.overrides]
  const [moved] = overrides.splice(from, 1)
  overrides.splice(to, 0, moved)
  return { ...rules, overrides }
}

export function updateOverride(rules: PricingRules, index: number, patch: Partial<PricingOverride>): PricingRules {
  return {
    ...rules,
    overrides: rules.overrides.map((o, i) => (i === index ? ({ ...o, ...patch } as PricingOverride) : o)),
  }
}

/** A category's ids from the root down to it; stops at a missing parent or a cycle. */
export function categoryPathOf(categories: readonly CategoryOption[] | Map<string, CategoryOption>, id: string | null): string[] {
  if (id === null) return []
  const byId = categories instanceof Map ? categories : new Map(categories.map((c) => [c.id, c]))
  const path: string[] = []
  const seen = new Set<string>()
  let current: string | null = id
  while (current !== null && !seen.has(current)) {
    seen.add(current)
    path.unshift(current)
    current = byId.get(current)?.parent_id ?? null
  }
  return path
}

/** Picker options: every category with its full path as the label ("Shoes › Sneakers"), by label. */
export function categoryOptions(categories: readonly CategoryOption[]): { value: string; label: string }[] {
  const byId = new Map(categories.map((c) => [c.id, c]))
  return categories
    .map((c) => ({
      value: c.id,
      label: categoryPathOf(byId, c.id)
        .map((id) => byId.get(id)?.name ?? `#${id}`)
        .join(" › "),
    }))
    .sort((a, b) => a.label.localeCompare(b.label))
}

export type RulesCheck = { ok: true; rules: PricingRules } | { ok: false; errors: FieldError[] }

/** Validation of the draft (the editor shows the errors beside their fields). */
export function checkRules(draft: PricingRules): RulesCheck {
  return parsePricingRules(draft)
}

/** The error message for one field, e.g. "overrides[2].markup_percent". */
export function errorFor(errors: readonly FieldError[], field: string): string | null {
  return errors.find((e) => e.field === field)?.message ?? null
}

/** The server's sampled rows with the winning rule explained in the admin's words. */
export function previewRowsOf(sample: readonly PreviewSampleRow[], categories: readonly CategoryOption[], brands: readonly BrandOption[]): PreviewRow[] {
  const byId = new Map(categories.map((c) => [c.id, c]))
  const brandNames = new Map(brands.map((b) => [b.id, b.name]))
  const names = { category: (id: string) => byId.get(id)?.name, brand: (id: string) => brandNames.get(id) }
  return sample.map((r) => {
    const current = r.current.amount
    const next = new D(r.next.amount)
    const move = current === null || next.gt(current) ? "up" : next.lt(current) ? "down" : "same"
    return {
      key: `${r.catalog_id}:${r.size}`,
      title: r.size ? `${r.title} (${r.size})` : r.title,
      cost: r.cost,
      current,
      currentCrossedOut: r.current.crossed_out,
      amount: r.next.amount,
      crossedOut: r.next.crossed_out,
      rule: r.prices_locked
        ? "Prices locked on this product: kept"
        : explainRule({ ruleApplied: r.rule, minimumMarginApplied: r.minimum_margin_applied }, names),
      move,
    }
  })
}

const signed = (p: string) => (p.startsWith("-") ? `−${p.slice(1)}` : `+${p}`)

/** "12 of 40 prices will move (9 up, 3 down); largest +25.00 %, median +8.33 %; 3 more held by price locks" */
export function moveSummaryText(summary: RepriceSummary): string {
  if (summary.priced === 0) return "No stored costs yet: the first sync stores them."
  const n = formatCount
  const held = summary.held_by_lock ?? 0
  const heldText = held > 0 ? `${n(held)} ${held === 1 ? "size" : "sizes"} held by price locks` : ""
  if (summary.changed === 0) return `No price will change (${n(summary.priced)} checked${heldText ? `; ${heldText}` : ""}).`
  if (summary.moved === 0)
    return `No selling price moves; ${n(summary.crossed_out_only)} of ${n(summary.priced)} crossed-out prices change${heldText ? `; ${heldText}` : ""}.`
  const parts = [`${n(summary.moved)} of ${n(summary.priced)} prices will move (${n(summary.up)} up, ${n(summary.down)} down)`]
  if (summary.largest_change_percent !== null) {
    parts.push(`largest ${signed(summary.largest_change_percent)} %, median ${signed(summary.median_change_percent!)} %`)
  }
  let text = parts.join("; ")
  if (summary.crossed_out_only > 0) text += `; ${n(summary.crossed_out_only)} more change only the crossed-out price`
  if (heldText) text += `; ${heldText}`
  return text
}

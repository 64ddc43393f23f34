// The settings form's part for the shop's own pricing rules (pure): whether the server has
// them, whether the draft differs from what is saved, and the server's refusals of a field
// inside the rules ("pricing_rules.overrides[2].markup_percent") split from the other fields.
import { DEFAULT_PRICING_RULES, type FieldError, type PricingRules, parsePricingRules } from "../../pricing"
import type { SyncSettings } from "./types"

/** The rules the editor starts from: the ones prices are computed with now. */
export function savedRules(saved: SyncSettings): PricingRules {
  return saved.pricing_rules ?? DEFAULT_PRICING_RULES
}

/** A server that knows pricing rules returns them with the settings; an older one does not. */
export function rulesSupported(saved: SyncSettings): boolean {
  return saved.pricing_rules !== undefined && saved.pricing_rules !== null
}

/** True when saving would change the rules (compared normalised: "30" and "30.0" are the same). */
export function rulesDiffer(draft: PricingRules, saved: SyncSettings): boolean {
  const parsed = parsePricingRules(draft)
  const before = parsePricingRules(savedRules(saved))
  if (!parsed.ok || !before.ok) return true
  return JSON.stringify(parsed.rules) !== JSON.stringify(before.rules)
}

const PREFIX = "pricing_rules."

/** The API's field errors: those inside the rules (prefix dropped, for the editor) and the rest. */
export function splitRulesErrors(fieldErrors: Record<string, string>): { rules: FieldError[]; other: Record<string, string> } {
  const rules: FieldError[] = []
  const other: Record<string, string> = {}
  for (const [field, message] of Object.entries(fieldErrors)) {
    if (field.startsWith(PREFIX)) rules.push({ field: field.slice(PREFIX.length), message })
    else if (field === "pricing_rules") rules.push({ field: "rules", message })
    else other[field] = message
  }
  return { rules, other }
}

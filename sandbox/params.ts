// Strict query-parameter parsing. Every problem is collected so one 422 can name them all.
// Unknown parameters are ignored (section 9: clients and servers tolerate additions).

import Decimal from "decimal.js"
import type { FieldError } from "./reply"
import { hasControlCharacters } from "./json"
import { INT64_MAX } from "./prng"
import { makePricing, type PriceCalculation, type Pricing } from "./pricing"

const INTEGER = /^[0-9]+$/
const NUMBER = /^-?[0-9]+(\.[0-9]+)?$/

export class QueryParams {
  readonly errors: FieldError[] = []

  constructor(private readonly search: URLSearchParams) {}

  private fail(field: string, message: string): null {
    this.errors.push({ field, message })
    return null
  }

  /** The raw value; a repeated parameter is an error. */
  raw(name: string): string | null {
    const values = this.search.getAll(name)
    if (values.length === 0) return null
    if (values.length > 1) return this.fail(name, `${name} must be given once`)
    return values[0]
  }

  string(name: string, opts: { min: number; max: number; required?: boolean }): string | null {
    const value = this.raw(name)
    if (value === null) {
      if (opts.required && !this.errors.some((e) => e.field === name)) this.fail(name, `${name} is required`)
      return null
    }
    const length = [...value].length
    if (length < opts.min || length > opts.max) {
      return this.fail(name, `${name} must be ${opts.min} to ${opts.max} characters long`)
    }
    if (hasControlCharacters(value)) return this.fail(name, `${name} must not contain control characters`)
    return value
  }

  /** A whole number within [min, max]; 64-bit values come back as bigint. */
  integer(name: string, min: bigint, max: bigint = INT64_MAX): bigint | null {
    const value = this.raw(name)
    if (value === null) return null
    return parseInteger(value, min, max, (message) => this.fail(name, message.replace("{name}", name)))
  }

  boolean(name: string): boolean | null {
    const value = this.raw(name)
    if (value === null) return null
    if (value === "true") return true
    if (value === "false") return false
    return this.fail(name, `${name} must be true or false`)
  }

  /** A decimal number in [min, max] (or [min, max) when maxExclusive), normalised ("30.50" → "30.5"). */
  decimal(name: string, min: number, max: number, maxExclusive = false): string | null {
    const value = this.raw(name)
    if (value === null) return null
    if (value.length > 30 || !NUMBER.test(value)) return this.fail(name, `${name} must be a number`)
    const number = new Decimal(value)
    const tooHigh = maxExclusive ? number.gte(max) : number.gt(max)
    if (number.lt(min) || tooHigh) {
      return this.fail(name, `${name} must be from ${min} ${maxExclusive ? "and below" : "to"} ${max}`)
    }
    return number.toString()
  }

  /** The common pricing parameters of section 4.1. */
  pricing(): Pricing | null {
    const calcRaw = this.raw("price_calculation")
    let calculation: PriceCalculation = "max"
    if (calcRaw !== null) {
      if (calcRaw === "min" || calcRaw === "avg" || calcRaw === "max") calculation = calcRaw
      else this.fail("price_calculation", "price_calculation must be one of min, avg, max")
    }
    const markup = this.decimal("markup_percent", 0, 1000)
    const discount = this.decimal("discount_percent", 0, 100, true)
    const oldMarkup = this.decimal("old_price_markup_percent", 0, 1000)
    if (discount !== null && oldMarkup !== null) {
      const message = "discount_percent and old_price_markup_percent cannot be combined"
      this.fail("discount_percent", message)
      this.fail("old_price_markup_percent", message)
    }
    if (this.errors.length > 0) return null
    return makePricing(calculation, markup, discount, oldMarkup)
  }

  /** `limit` of list and changes: 1 to 200, default 100. */
  limit(): number {
    const value = this.integer("limit", 1n, 200n)
    return value === null ? 100 : Number(value)
  }
}

export function parseInteger(value: string, min: bigint, max: bigint, fail: (message: string) => null): bigint | null {
  if (!INTEGER.test(value) || value.length > 30) return fail("{name} must be an integer")
  const number = BigInt(value)
  if (number < min || number > max) return fail(`{name} must be from ${min} to ${max}`)
  return number
}

// The shop's pricing rules: base markup, overrides (category, brand, cost band) with their
// precedence, rounding, minimum margin and crossed-out price, with a live preview (priced by the
// server from the stored costs) on sampled products and the count of prices the change would
// move. Controlled (value / onChange); the settings page owns saving (every button here is
// type="button": inside the page's one form, a button without a type is a Save).
import { ArrowDownMini, ArrowUpMini, Trash } from "@medusajs/icons"
import { Badge, Button, Container, Heading, Hint, IconButton, Input, Label, Select, Table, Text } from "@medusajs/ui"
import { createContext, useContext, useMemo, useState, type ReactNode } from "react"
import { PRECEDENCE, type FieldError, type OverrideType, type PricingOverride, type PricingRules } from "../../../../../../pricing"
import {
  type BrandOption,
  type CategoryOption,
  addOverride,
  categoryOptions,
  checkRules,
  errorFor,
  moveOverride,
  removeOverride,
  updateOverride,
} from "./editor-model"
import { RulesPreview } from "./rules-preview"

export type PricingRulesEditorProps = {
  value: PricingRules
  onChange: (next: PricingRules) => void
  /** The synced category tree and brands, for the pickers and the preview's explanations. */
  categories: CategoryOption[]
  brands: BrandOption[]
  /** Errors from the server or the page's Save, by field ("overrides[2].markup_percent"): shown at once. */
  errors?: FieldError[]
  disabled?: boolean
}

const NONE = "__none__"
const TYPE_LABEL: Record<OverrideType, string> = { category: "Category", brand: "Brand", cost_band: "Cost band" }

/**
 * Each field's error, by its name in the rules' errors. The form's own check speaks at a field only
 * once the admin has left it (blur), so a band just added is not red before anything was typed; the
 * errors of a refused Save (`errors`) show at once.
 */
const FieldErrors = createContext<{ errorOf: (field: string) => string | null; touch: (field: string) => void }>({
  errorOf: () => null,
  touch: () => {},
})

export function PricingRulesEditor(props: PricingRulesEditorProps) {
  const { value, onChange, categories, brands, disabled } = props
  const check = useMemo(() => checkRules(value), [value])
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const fieldErrors = {
    errorOf: (field: string) => errorFor(props.errors ?? [], field) ?? (touched.has(field) && !check.ok ? errorFor(check.errors, field) : null),
    touch: (field: string) => setTouched((current) => (current.has(field) ? current : new Set(current).add(field))),
  }
  const categoryChoices = useMemo(() => categoryOptions(categories), [categories])

  const set = (patch: Partial<PricingRules>) => onChange({ ...value, ...patch })

  return (
    <FieldErrors.Provider value={fieldErrors}>
      <Container className="flex flex-col gap-y-6 px-6 py-4" data-testid="pricing-rules-editor">
        <div>
          <Heading level="h2">Pricing rules</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Prices are computed in the shop from each size's stored cost. Changing the rules reprices without asking the catalog.
          </Text>
        </div>

        <Field id="base_markup_percent" label="Base markup, %" field="base_markup_percent" hint="Applies when no override matches. −100 to 1000.">
          <Input
            id="base_markup_percent"
            inputMode="decimal"
            value={value.base_markup_percent}
            disabled={disabled}
            aria-invalid={!!fieldErrors.errorOf("base_markup_percent")}
            onChange={(e) => set({ base_markup_percent: e.target.value })}
          />
        </Field>

        <section className="flex flex-col gap-y-3" data-testid="pricing-overrides">
          <div className="flex items-center justify-between">
            <Label weight="plus">Overrides</Label>
            <div className="flex gap-x-2">
              {(["category", "brand", "cost_band"] as const).map((type) => (
                <Button
                  key={type}
                  type="button"
                  size="small"
                  variant="secondary"
                  disabled={disabled}
                  onClick={() => onChange(addOverride(value, type))}
                  data-testid={`add-override-${type}`}
                >
                  Add {TYPE_LABEL[type].toLowerCase()}
                </Button>
              ))}
            </div>
          </div>
          <Text size="small" className="text-ui-fg-subtle" data-testid="pricing-precedence">
            The most specific rule wins: {PRECEDENCE.map((p, i) => `${i + 1}. ${p}`).join("; ")}. The minimum margin then applies.
          </Text>
          {value.overrides.length === 0 ? (
            <Text size="small" className="text-ui-fg-muted">
              No overrides: every price uses the base markup.
            </Text>
          ) : (
            value.overrides.map((override, index) => (
              <OverrideRow
                key={index}
                index={index}
                count={value.overrides.length}
                override={override}
                categoryChoices={categoryChoices}
                brands={brands}
                disabled={disabled}
                onChange={(patch) => onChange(updateOverride(value, index, patch))}
                onMove={(to) => onChange(moveOverride(value, index, to))}
                onRemove={() => onChange(removeOverride(value, index))}
              />
            ))
          )}
        </section>

        <section className="grid grid-cols-3 gap-4">
          <Field id="rounding_mode" label="Rounding" field="rounding.mode">
            <Select
              value={value.rounding.mode}
              disabled={disabled}
              onValueChange={(mode) =>
                set({
                  rounding: {
                    ...value.rounding,
                    mode: mode as PricingRules["rounding"]["mode"],
                    ending: mode === "ending" ? (value.rounding.ending ?? "99") : null,
                  },
                })
              }
            >
              <Select.Trigger id="rounding_mode">
                <Select.Value />
              </Select.Trigger>
              <Select.Content>
                <Select.Item value="none">None (to the kopiyka)</Select.Item>
                <Select.Item value="whole">Whole hryvnia</Select.Item>
                <Select.Item value="ending">To an ending</Select.Item>
              </Select.Content>
            </Select>
          </Field>
          <Field id="rounding_ending" label="Ending" field="rounding.ending">
            <Select
              value={value.rounding.ending ?? NONE}
              disabled={disabled || value.rounding.mode !== "ending"}
              onValueChange={(ending) => set({ rounding: { ...value.rounding, ending: ending === NONE ? null : (ending as "9" | "99" | ".99") } })}
            >
              <Select.Trigger id="rounding_ending">
                <Select.Value placeholder="—" />
              </Select.Trigger>
              <Select.Content>
                <Select.Item value="9">…9 (1,289)</Select.Item>
                <Select.Item value="99">…99 (1,299)</Select.Item>
                <Select.Item value=".99">…,99 (1,287.99)</Select.Item>
              </Select.Content>
            </Select>
          </Field>
          <Field id="rounding_direction" label="Direction" field="rounding.direction">
            <Select
              value={value.rounding.direction}
              disabled={disabled || value.rounding.mode === "none"}
              onValueChange={(direction) => set({ rounding: { ...value.rounding, direction: direction as "up" | "nearest" } })}
            >
              <Select.Trigger id="rounding_direction">
                <Select.Value />
              </Select.Trigger>
              <Select.Content>
                <Select.Item value="nearest">Nearest</Select.Item>
                <Select.Item value="up">Up</Select.Item>
              </Select.Content>
            </Select>
          </Field>
        </section>

        <section className="grid grid-cols-2 gap-4">
          <Field id="minimum_margin_amount" label="Minimum margin, ₴" field="minimum_margin.amount" hint="Over cost; no rule or rounding goes below it.">
            <Input
              id="minimum_margin_amount"
              inputMode="decimal"
              placeholder="—"
              disabled={disabled}
              value={value.minimum_margin.amount ?? ""}
              onChange={(e) => set({ minimum_margin: { ...value.minimum_margin, amount: e.target.value.trim() === "" ? null : e.target.value } })}
            />
          </Field>
          <Field id="minimum_margin_percent" label="Minimum margin, %" field="minimum_margin.percent" hint="Of cost. With both, the higher floor wins.">
            <Input
              id="minimum_margin_percent"
              inputMode="decimal"
              placeholder="—"
              disabled={disabled}
              value={value.minimum_margin.percent ?? ""}
              onChange={(e) => set({ minimum_margin: { ...value.minimum_margin, percent: e.target.value.trim() === "" ? null : e.target.value } })}
            />
          </Field>
        </section>

        <section className="grid grid-cols-2 gap-4">
          <Field id="crossed_out_type" label="Crossed-out price" field="crossed_out.type">
            <Select
              value={value.crossed_out.type}
              disabled={disabled}
              onValueChange={(type) =>
                set({
                  crossed_out:
                    type === "discount"
                      ? { type: "discount", discount_percent: "" }
                      : type === "markup"
                        ? { type: "markup", markup_percent: "" }
                        : { type: "none" },
                })
              }
            >
              <Select.Trigger id="crossed_out_type">
                <Select.Value />
              </Select.Trigger>
              <Select.Content>
                <Select.Item value="none">None</Select.Item>
                <Select.Item value="discount">As a discount from it, %</Select.Item>
                <Select.Item value="markup">A separate markup over cost, %</Select.Item>
              </Select.Content>
            </Select>
          </Field>
          {value.crossed_out.type === "discount" && (
            <Field
              id="crossed_out_discount"
              label="Discount, %"
              field="crossed_out.discount_percent"
              hint="Crossed-out = price / (1 − discount); rounded like the price."
            >
              <Input
                id="crossed_out_discount"
                inputMode="decimal"
                disabled={disabled}
                value={value.crossed_out.discount_percent}
                onChange={(e) => set({ crossed_out: { type: "discount", discount_percent: e.target.value } })}
              />
            </Field>
          )}
          {value.crossed_out.type === "markup" && (
            <Field
              id="crossed_out_markup"
              label="Crossed-out markup, %"
              field="crossed_out.markup_percent"
              hint="Crossed-out = cost × (1 + markup); rounded like the price."
            >
              <Input
                id="crossed_out_markup"
                inputMode="decimal"
                disabled={disabled}
                value={value.crossed_out.markup_percent}
                onChange={(e) => set({ crossed_out: { type: "markup", markup_percent: e.target.value } })}
              />
            </Field>
          )}
        </section>

        <RulesPreview rules={check.ok ? check.rules : null} categories={categories} brands={brands} />
      </Container>
    </FieldErrors.Provider>
  )
}

function OverrideRow(props: {
  index: number
  count: number
  override: PricingOverride
  categoryChoices: { value: string; label: string }[]
  brands: BrandOption[]
  disabled?: boolean
  onChange: (patch: Partial<PricingOverride>) => void
  onMove: (to: number) => void
  onRemove: () => void
}) {
  const { index, count, override: o, disabled } = props
  const at = (field: string) => `overrides[${index}].${field}`
  return (
    <div className="flex items-start gap-x-3 rounded-md border border-ui-border-base p-3" data-testid="pricing-override">
      <Badge size="2xsmall" className="mt-2">
        {index + 1}. {TYPE_LABEL[o.type]}
      </Badge>
      <div className="grid flex-1 grid-cols-3 gap-3">
        {o.type === "category" && (
          <Field id={at("category_id")} label="Category (and its subcategories)" field={at("category_id")} className="col-span-2">
            <Select value={o.category_id || NONE} disabled={disabled} onValueChange={(v) => props.onChange({ category_id: v === NONE ? "" : v })}>
              <Select.Trigger id={at("category_id")}>
                <Select.Value placeholder="Pick a category" />
              </Select.Trigger>
              <Select.Content>
                {props.categoryChoices.map((c) => (
                  <Select.Item key={c.value} value={c.value}>
                    {c.label}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select>
          </Field>
        )}
        {o.type === "brand" && (
          <Field id={at("brand_id")} label="Brand" field={at("brand_id")} className="col-span-2">
            <Select value={o.brand_id || NONE} disabled={disabled} onValueChange={(v) => props.onChange({ brand_id: v === NONE ? "" : v })}>
              <Select.Trigger id={at("brand_id")}>
                <Select.Value placeholder="Pick a brand" />
              </Select.Trigger>
              <Select.Content>
                {props.brands.map((b) => (
                  <Select.Item key={b.id} value={b.id}>
                    {b.name}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select>
          </Field>
        )}
        {o.type === "cost_band" && (
          <>
            <Field id={at("min_cost")} label="Cost from, ₴" field={at("min_cost")}>
              <Input
                id={at("min_cost")}
                inputMode="decimal"
                placeholder="0"
                disabled={disabled}
                value={o.min_cost ?? ""}
                onChange={(e) => props.onChange({ min_cost: e.target.value.trim() === "" ? null : e.target.value })}
              />
            </Field>
            <Field id={at("max_cost")} label="below, ₴" field={at("max_cost")}>
              <Input
                id={at("max_cost")}
                inputMode="decimal"
                placeholder="no limit"
                disabled={disabled}
                value={o.max_cost ?? ""}
                onChange={(e) => props.onChange({ max_cost: e.target.value.trim() === "" ? null : e.target.value })}
              />
            </Field>
          </>
        )}
        <Field id={at("markup_percent")} label="Markup, %" field={at("markup_percent")}>
          <Input
            id={at("markup_percent")}
            inputMode="decimal"
            disabled={disabled}
            value={o.markup_percent}
            onChange={(e) => props.onChange({ markup_percent: e.target.value })}
          />
        </Field>
      </div>
      <div className="mt-6 flex gap-x-1">
        <IconButton
          type="button"
          size="small"
          variant="transparent"
          aria-label="Move up"
          disabled={disabled || index === 0}
          onClick={() => props.onMove(index - 1)}
        >
          <ArrowUpMini />
        </IconButton>
        <IconButton
          type="button"
          size="small"
          variant="transparent"
          aria-label="Move down"
          disabled={disabled || index === count - 1}
          onClick={() => props.onMove(index + 1)}
        >
          <ArrowDownMini />
        </IconButton>
        <IconButton type="button" size="small" variant="transparent" aria-label="Delete override" disabled={disabled} onClick={props.onRemove}>
          <Trash />
        </IconButton>
      </div>
    </div>
  )
}

/** A labelled field; `field` names it in the rules' errors. Leaving it (blur) lets the form's check speak at it. */
function Field(props: { id: string; field: string; label: string; hint?: string; className?: string; children: ReactNode }) {
  const { errorOf, touch } = useContext(FieldErrors)
  const error = errorOf(props.field)
  return (
    <div className={`flex flex-col gap-y-1 ${props.className ?? ""}`} onBlur={() => touch(props.field)}>
      <Label size="small" weight="plus" htmlFor={props.id}>
        {props.label}
      </Label>
      {props.children}
      {error ? (
        <Hint variant="error" data-testid={`error-${props.id}`}>
          {error}
        </Hint>
      ) : props.hint ? (
        <Hint>{props.hint}</Hint>
      ) : null}
    </div>
  )
}

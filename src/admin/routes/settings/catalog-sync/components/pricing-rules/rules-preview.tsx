// The live preview of a rules draft: the server prices every stored cost with the engine
// (POST /pricing/preview) and answers 10 sampled products and how many prices would move.
// Asked 400 ms after the last edit, and only for a draft the form accepts (the server refuses
// the same values, naming the field): while a field is invalid the last valid draft's preview
// stays, marked stale, and the error is said at the field.
import { Badge, Hint, Label, Table, Text } from "@medusajs/ui"
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useEffect, useMemo, useState } from "react"
import type { PricingRules } from "../../../../../../pricing"
import { catalogSyncApi, queryKeys } from "../../../../../lib/api"
import { errorVoice } from "../../../../../lib/errors"
import { formatAmount } from "../../../../../lib/format"
import { type BrandOption, type CategoryOption, moveSummaryText, previewRowsOf } from "./editor-model"

const DEBOUNCE_MS = 400

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return debounced
}

export function RulesPreview(props: { rules: PricingRules | null; categories: CategoryOption[]; brands: BrandOption[] }) {
  const valid = props.rules ? JSON.stringify(props.rules) : null
  const [lastValid, setLastValid] = useState(valid)
  useEffect(() => {
    if (valid !== null) setLastValid(valid)
  }, [valid])
  // An invalid draft keeps the last valid one's preview (stale) rather than blanking it.
  const text = valid ?? lastValid
  const stalePreview = valid === null && text !== null
  const asked = useDebounced(text, DEBOUNCE_MS)
  const preview = useQuery({
    queryKey: queryKeys.pricingPreview(asked ?? ""),
    queryFn: () => catalogSyncApi.previewPricingRules(JSON.parse(asked!)),
    enabled: asked !== null,
    placeholderData: keepPreviousData,
    retry: false,
  })
  const rows = useMemo(
    () => (preview.data ? previewRowsOf(preview.data.sample, props.categories, props.brands) : null),
    [preview.data, props.categories, props.brands]
  )
  const updating = text !== asked || preview.isFetching
  const state = text === null ? "refused" : stalePreview ? "stale" : updating ? "loading" : "ready"

  return (
    <section className="flex flex-col gap-y-2" data-testid="pricing-preview" data-state={state}>
      <div className="flex items-center gap-x-2">
        <Label weight="plus">Preview on the shop's products</Label>
        {state === "loading" && <Badge size="2xsmall">Updating…</Badge>}
        {state === "stale" && (
          <Badge size="2xsmall" color="orange" data-testid="pricing-preview-stale">
            Stale
          </Badge>
        )}
      </div>
      {stalePreview && (
        <Hint variant="error" data-testid="pricing-preview-stale-note">
          A field above needs fixing: these are the prices of the last valid rules.
        </Hint>
      )}
      {text === null ? (
        <Hint variant="error">Fix the fields above to see the prices.</Hint>
      ) : preview.isError ? (
        <Hint variant="error" data-testid="pricing-preview-error">
          {errorVoice(preview.error).sentence}
        </Hint>
      ) : !preview.data ? (
        <Text size="small" className="text-ui-fg-muted">
          Pricing the stored costs…
        </Text>
      ) : (
        <>
          <Text size="small" data-testid="pricing-move-summary">
            {moveSummaryText(preview.data.summary)}
          </Text>
          {rows && rows.length > 0 ? (
            <Table>
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>Product (size)</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">Cost, ₴</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">Now, ₴</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">New price, ₴</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">Crossed-out, ₴</Table.HeaderCell>
                  <Table.HeaderCell>Rule</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((row) => (
                  <Table.Row key={row.key} data-testid="pricing-preview-row" data-move={row.move}>
                    <Table.Cell className="max-w-[220px] truncate" title={row.title}>
                      {row.title}
                    </Table.Cell>
                    <Table.Cell className="text-right text-ui-fg-subtle">{formatAmount(row.cost)}</Table.Cell>
                    <Table.Cell className="text-right text-ui-fg-subtle" data-testid="pricing-preview-current">
                      {formatAmount(row.current)}
                    </Table.Cell>
                    <Table.Cell className={`text-right ${row.move === "same" ? "" : "txt-compact-small-plus"}`} data-testid="pricing-preview-amount">
                      {formatAmount(row.amount)} {row.move === "up" ? "↑" : row.move === "down" ? "↓" : ""}
                    </Table.Cell>
                    <Table.Cell className="text-right text-ui-fg-subtle line-through">{formatAmount(row.crossedOut)}</Table.Cell>
                    <Table.Cell className="max-w-[280px]">
                      <Text size="xsmall" className="text-ui-fg-subtle">
                        {row.rule}
                      </Text>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          ) : (
            <Text size="small" className="text-ui-fg-muted">
              No synced products with a stored cost yet.
            </Text>
          )}
        </>
      )}
    </section>
  )
}

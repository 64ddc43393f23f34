// The live preview of a rules draft: the server prices every stored cost with the engine
// (POST /pricing/preview) and answers 10 sampled products and how many prices would move.
// Asked 400 ms after the last edit, and only for a draft the form accepts (no preview for a
// value the form refuses; the server refuses the same values, naming the field).
import { Badge, Hint, Label, Table, Text } from "@medusajs/ui"
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useEffect, useMemo, useState } from "react"
import type { PricingRules } from "../../../../../../pricing"
import { catalogSyncApi, queryKeys } from "../../../../../lib/api"
import { errorVoice } from "../../../../../lib/errors"
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
  const text = props.rules ? JSON.stringify(props.rules) : null
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
  const stale = text !== asked || preview.isFetching

  return (
    <section className="flex flex-col gap-y-2" data-testid="pricing-preview" data-state={text === null ? "refused" : stale ? "loading" : "ready"}>
      <div className="flex items-center gap-x-2">
        <Label weight="plus">Preview on the shop's products</Label>
        {text !== null && stale && <Badge size="2xsmall">Updating…</Badge>}
      </div>
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
                    <Table.Cell className="text-right text-ui-fg-subtle">{row.cost}</Table.Cell>
                    <Table.Cell className="text-right text-ui-fg-subtle" data-testid="pricing-preview-current">
                      {row.current ?? "—"}
                    </Table.Cell>
                    <Table.Cell className={`text-right ${row.move === "same" ? "" : "txt-compact-small-plus"}`} data-testid="pricing-preview-amount">
                      {row.amount} {row.move === "up" ? "↑" : row.move === "down" ? "↓" : ""}
                    </Table.Cell>
                    <Table.Cell className="text-right text-ui-fg-subtle line-through">{row.crossedOut ?? "—"}</Table.Cell>
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

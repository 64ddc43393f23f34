// A run the safety brake paused: why, what it would do (counts, the products it would remove by
// name with a link to each, prices before → after), and the admin's answer. Confirm applies
// exactly what was previewed; Discard removes none of the held products, now or later (the run
// goes on past them). Both ask first; the status refreshes after either.
import { Alert, Button, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { Link } from "react-router-dom"
import { catalogSyncApi, queryKeys } from "../../../lib/api"
import { type PausedRun, brakeDropText, brakeDropsLine, brakeHeadline, brakeRemovalsLine, productPagePath } from "../../../lib/brake"
import { describeError } from "../../../lib/errors"
import { formatCount } from "../../../lib/format"

export const BrakePanel = ({ paused }: { paused: PausedRun }) => {
  const queryClient = useQueryClient()
  const prompt = usePrompt()
  const { run, preview } = paused
  const answer = useMutation({
    mutationFn: (action: "confirm" | "discard") => (action === "confirm" ? catalogSyncApi.confirmRun(run.id) : catalogSyncApi.discardRun(run.id)),
    onSuccess: (_, action) => {
      toast.success(action === "confirm" ? "Confirmed: the run applies what the preview showed" : "Discarded: none of the held products is removed")
      queryClient.invalidateQueries({ queryKey: queryKeys.all })
    },
    onError: (error) => toast.error("The answer was not taken", { description: describeError(error) }),
  })
  const removals = preview?.removals
  const drops = preview?.steep_drops

  const confirm = async () => {
    const ok = await prompt({
      title: "Apply these changes?",
      description: `The run goes on and writes what the preview shows${removals?.count ? `: ${formatCount(removals.count)} products removed` : ""}${drops?.count ? `${removals?.count ? "," : ":"} ${formatCount(drops.count)} prices lowered steeply` : ""}. This cannot be undone.`,
      confirmText: "Confirm and apply",
      cancelText: "Cancel",
    })
    if (ok) answer.mutate("confirm")
  }
  const discard = async () => {
    const ok = await prompt({
      title: "Discard this run?",
      description: `${removals?.count ? `None of the ${formatCount(removals.count)} products is removed, now or by a later run, unless the catalog sends them again. ` : ""}${drops?.count ? "The steep price drops are not written; those sizes keep their prices until the catalog's price moves again. " : ""}The run goes on with everything else.`,
      confirmText: "Discard",
      cancelText: "Cancel",
      variant: "confirmation",
    })
    if (ok) answer.mutate("discard")
  }

  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="catalog-sync-brake" data-run-id={run.id}>
      <Alert variant="warning" data-testid="catalog-sync-brake-reason">
        {brakeHeadline(paused)} It makes no catalog requests while it waits for your answer.
      </Alert>
      {removals && removals.count > 0 && (
        <div className="flex flex-col gap-y-1" data-testid="catalog-sync-brake-removals">
          <Text size="small" weight="plus">
            {brakeRemovalsLine(preview!)}; none has been removed yet
          </Text>
          <ul className="flex flex-col gap-y-0.5" data-testid="catalog-sync-brake-removal-list">
            {removals.sample.map((r) => (
              <li key={r.catalog_id} data-testid="catalog-sync-brake-removal" data-catalog-id={r.catalog_id}>
                <Text size="small" className="text-ui-fg-subtle">
                  {r.product_id ? (
                    <Link to={productPagePath(r.product_id)} className="text-ui-fg-interactive">
                      {r.title ?? "(untitled)"}
                    </Link>
                  ) : (
                    (r.title ?? "(untitled)")
                  )}{" "}
                  · catalog id {r.catalog_id}
                </Text>
              </li>
            ))}
          </ul>
          {removals.count > removals.sample.length && (
            <Text size="small" className="text-ui-fg-subtle">
              and {formatCount(removals.count - removals.sample.length)} more
            </Text>
          )}
        </div>
      )}
      {drops && drops.count > 0 && (
        <div className="flex flex-col gap-y-1" data-testid="catalog-sync-brake-drops">
          <Text size="small" weight="plus">
            {brakeDropsLine(preview!)}
          </Text>
          <Table>
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>Product (size)</Table.HeaderCell>
                <Table.HeaderCell className="text-right">Before, ₴</Table.HeaderCell>
                <Table.HeaderCell className="text-right">After, ₴</Table.HeaderCell>
                <Table.HeaderCell className="text-right">Drop</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {drops.sample.slice(0, 10).map((d) => (
                <Table.Row key={d.variant_id}>
                  <Table.Cell data-testid="catalog-sync-brake-drop-product">
                    {d.title ?? `#${d.catalog_id ?? d.variant_id}`}
                    {d.size ? ` (${d.size})` : ""}
                  </Table.Cell>
                  <Table.Cell className="text-right">{d.from}</Table.Cell>
                  <Table.Cell className="text-right">{d.to}</Table.Cell>
                  <Table.Cell className="text-right text-ui-fg-error">{brakeDropText(d, preview!)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table>
        </div>
      )}
      <div className="flex items-center justify-end gap-x-2">
        <Button size="small" variant="secondary" onClick={discard} disabled={answer.isPending} data-testid="catalog-sync-brake-discard">
          Discard
        </Button>
        <Button size="small" variant="primary" onClick={confirm} isLoading={answer.isPending} data-testid="catalog-sync-brake-confirm">
          Confirm
        </Button>
      </div>
    </div>
  )
}

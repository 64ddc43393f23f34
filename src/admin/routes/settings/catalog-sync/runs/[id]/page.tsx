import { Button, Container, Heading, StatusBadge, Table, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { Link, useParams } from "react-router-dom"
import { ErrorState } from "../../../../../components/error-state"
import { KeyValue } from "../../../../../components/key-value"
import { LoadingState } from "../../../../../components/loading-state"
import { RunCounts } from "../../../../../components/run-counts"
import { catalogSyncApi, queryKeys } from "../../../../../lib/api"
import { runErrorVoice } from "../../../../../lib/errors"
import { formatCount, formatDateTime, formatDuration, runDurationMs } from "../../../../../lib/format"
import { brakeAnswerText, modeLabel, phaseLabel, runBadge, triggerLabel } from "../../../../../lib/status"
import { runHeadline, runSubtitle } from "../../../../../lib/run-headline"
import { CONTINUED_BY_WORDS, pausedPhase, pausedRunOfRun, pauseOutcomeText } from "../../../../../lib/brake"
import { runDisplayState } from "../../../../../../sync/run-display-state"
import { BrakePanel } from "../../../../catalog-sync/components/brake-panel"
import type { Run } from "../../../../../lib/types"
import { sdk } from "../../../../../lib/sdk"
import { ChangeLog } from "../../../../catalog-sync/components/change-log"
import { RunProgress } from "../../../../catalog-sync/components/run-progress"
import { ErrorDetails } from "../../../../../components/error-details"
import { useCatalogSyncProgress } from "../../../../../lib/use-progress"

/**
 * One run, laid out as Medusa's detail pages are: a header with its state, what it is and what it
 * came to (or its error, its pause and answer, its live progress), then what it did beside its
 * details and catalog reads, then its change log and the catalog items it rejected.
 */

/** The run's error in the one voice: a sentence, then the code and request id once (the full text on hover). */
const RunError = ({ run }: { run: Run }) => {
  const voice = runErrorVoice(run.error_code, run.error_message)
  return (
    <span className="flex flex-col text-ui-fg-error break-words" title={run.error_message ?? undefined} data-testid="run-error">
      <span>{voice.sentence}</span>
      <ErrorDetails detail={voice.detail} />
    </span>
  )
}

const CatalogSyncRunPage = () => {
  const { id = "" } = useParams()
  const run = useQuery({
    queryKey: queryKeys.run(id),
    queryFn: () => catalogSyncApi.getRun(id),
    retry: 1,
    refetchInterval: (query) => {
      const status = query.state.data?.run.status
      return status === "running" || status === "queued" ? 2000 : status === "paused" && !query.state.data?.run.brake_resolution ? 5000 : false
    },
  })

  return (
    <div className="flex flex-col gap-y-3" data-testid="catalog-sync-run">
      {run.isPending ? (
        <Container className="p-0">
          <LoadingState rows={6} />
        </Container>
      ) : run.isError ? (
        <Container className="p-0">
          <ErrorState what="This run" error={run.error} onRetry={() => run.refetch()} />
        </Container>
      ) : (
        <RunDetails run={run.data.run} />
      )}
    </div>
  )
}

const RunDetails = ({ run }: { run: Run }) => {
  // This run's progress from the one progress view (GET /progress?run_id=), as the sync page shows it.
  const progress = useCatalogSyncProgress(run.id)
  const resolution = run.brake_resolution ?? null
  const badge = runBadge(run)
  const reprice = run.mode === "reprice"
  const display = runDisplayState(run)
  // A pause waiting for the answer carries its preview and the Confirm / Discard buttons here too.
  const waiting = display.state === "paused" ? pausedRunOfRun(run) : null
  const pauseOutcome = run.status === "paused" ? pauseOutcomeText(run) : null
  const paused = pausedPhase(run)
  // Who answered: the admin user's email (Medusa's own users route); the id when it cannot be read.
  const answeredBy = useQuery({
    queryKey: ["catalog-sync", "brake-answer-user", resolution?.user_id ?? null],
    queryFn: async () => (await sdk.admin.user.retrieve(resolution!.user_id!)).user.email,
    enabled: !!resolution?.user_id,
    retry: false,
  })
  const answer = brakeAnswerText(resolution, answeredBy.data ?? null, formatDateTime)
  const rejected = run.rejected_items ?? []
  const headline = runHeadline(run)
  return (
    <>
      {/* The header, as Medusa's detail pages open: the record, its state and what it came to. */}
      <Container className="divide-y p-0" data-testid="catalog-sync-run-header">
        <div className="flex items-start justify-between gap-x-4 px-6 py-4">
          <div className="flex min-w-0 flex-col gap-y-1">
            <div className="flex items-center gap-x-3">
              <Heading level="h1">Sync run</Heading>
              <StatusBadge color={badge.color} data-testid="catalog-sync-run-state" data-state={display.state}>
                {badge.label}
              </StatusBadge>
            </div>
            <Text size="small" className="text-ui-fg-subtle" data-testid="catalog-sync-run-subtitle">
              {runSubtitle(run, formatDateTime)}
            </Text>
            {headline && (
              <Text size="small" weight="plus" data-testid="catalog-sync-run-headline">
                {headline}
              </Text>
            )}
          </div>
          <Button size="small" variant="secondary" asChild>
            <Link to="/settings/catalog-sync/runs">All runs</Link>
          </Button>
        </div>
        {(run.error_code || run.error_message) && (
          <div className="px-6 py-4" data-testid="catalog-sync-run-error">
            <RunError run={run} />
          </div>
        )}
        {waiting && <BrakePanel paused={waiting} />}
        {pauseOutcome ? (
          <div className="px-6 py-4" data-testid="catalog-sync-run-pause-outcome">
            <Text size="small">{pauseOutcome}</Text>
          </div>
        ) : (
          progress.view && <RunProgress view={progress.view} now={progress.now} receivedAt={progress.receivedAt} />
        )}
      </Container>
      <div className="flex w-full flex-col items-start gap-x-4 gap-y-3 xl:grid xl:grid-cols-[minmax(0,_1fr)_440px]">
        <div className="flex w-full min-w-0 flex-col gap-y-3">
          <Container className="divide-y p-0" data-testid="catalog-sync-run-did">
            <div className="px-6 py-4">
              <Heading level="h2">What it did</Heading>
            </div>
            <div className="px-6 py-4">
              <RunCounts run={run} />
            </div>
            <KeyValue label="Removed by the sweep">{formatCount(run.swept)}</KeyValue>
          </Container>
        </div>
        <div className="flex w-full flex-col gap-y-3">
          <Container className="divide-y p-0" data-testid="catalog-sync-run-details">
            <div className="px-6 py-4">
              <Heading level="h2">Details</Heading>
            </div>
            <KeyValue label="Trigger">{triggerLabel(run.trigger, run)}</KeyValue>
            {answer && (
              <KeyValue label="Your answer" testId="catalog-sync-run-brake-answer">
                {answer}
              </KeyValue>
            )}
            <KeyValue label="Mode">{modeLabel(run.mode)}</KeyValue>
            <KeyValue label="Started">{formatDateTime(run.started_at ?? run.created_at)}</KeyValue>
            {/* A paused run has not finished: it stopped where it waits (or waited) for the answer. */}
            {run.status === "paused" ? (
              <KeyValue label="Paused at" testId="catalog-sync-run-paused-at">
                {formatDateTime(run.finished_at)}
              </KeyValue>
            ) : (
              <KeyValue label="Finished" testId="catalog-sync-run-finished">
                {formatDateTime(run.finished_at)}
              </KeyValue>
            )}
            <KeyValue label="Duration">{formatDuration(runDurationMs(run))}</KeyValue>
            {paused ? (
              <KeyValue label="Phase" testId="catalog-sync-run-phase">
                {paused.text}
                {paused.continued_by && (
                  <>
                    , {CONTINUED_BY_WORDS.before}{" "}
                    <Link
                      to={`/settings/catalog-sync/runs/${paused.continued_by}`}
                      className="text-ui-fg-interactive"
                      data-testid="catalog-sync-run-continued-by"
                    >
                      {CONTINUED_BY_WORDS.link}
                    </Link>
                    {/* The run's id is for support, not a word: folded under Details. */}
                    <ErrorDetails detail={`Run id ${paused.continued_by}`} className="block" />
                  </>
                )}
              </KeyValue>
            ) : (
              run.progress?.phase && (
                <KeyValue label="Phase" testId="catalog-sync-run-phase">
                  {phaseLabel(run.progress.phase as string)}
                </KeyValue>
              )
            )}
            <KeyValue label="Run id">
              <span className="font-mono break-all">{run.id}</span>
            </KeyValue>
          </Container>
          {/* A reprice asks the catalog nothing: it prices the shop's products from their stored costs. */}
          <Container className="divide-y p-0" data-testid="catalog-sync-run-reads" data-mode={run.mode}>
            <div className="px-6 py-4">
              <Heading level="h2">{reprice ? "What it read" : "Catalog reads"}</Heading>
              {reprice && (
                <Text size="small" className="text-ui-fg-subtle">
                  A reprice reads the costs the shop has stored and asks the catalog nothing.
                </Text>
              )}
            </div>
            {!reprice && <KeyValue label="Pages">{formatCount(run.pages)}</KeyValue>}
            <KeyValue label={reprice ? "Shop products priced again" : "Products read"}>{formatCount(run.items_seen)}</KeyValue>
            <KeyValue label="API requests">{formatCount(run.requests_used)}</KeyValue>
          </Container>
        </div>
      </div>
      <ChangeLog run={run} />
      <Container className="divide-y p-0" data-testid="catalog-sync-rejected">
        <div className="px-6 py-4">
          <Heading level="h2">Rejected items</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Catalog items that failed validation or could not be written were skipped; the rest of their page went on. Rows starting with "Kept" were written
            with only the named field dropped.
          </Text>
        </div>
        {rejected.length === 0 ? (
          <div className="px-6 py-4">
            <Text size="small" className="text-ui-fg-subtle">
              {run.skipped > 0 ? `${formatCount(run.skipped)} items were rejected; their details were not kept.` : "Nothing was rejected."}
            </Text>
          </div>
        ) : (
          <Table>
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>Catalog id</Table.HeaderCell>
                <Table.HeaderCell>Field</Table.HeaderCell>
                <Table.HeaderCell>Reason</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rejected.map((item, index) => (
                <Table.Row key={`${item.id ?? "unknown"}-${index}`} data-testid="catalog-sync-rejected-row">
                  <Table.Cell className="font-mono">{item.id ?? "unknown"}</Table.Cell>
                  <Table.Cell className="font-mono">{item.field ?? "–"}</Table.Cell>
                  <Table.Cell className="whitespace-normal">
                    {item.kept ? "Kept; " : ""}
                    {item.reason}
                    {item.excerpt ? <span className="text-ui-fg-subtle block font-mono break-all">Received: {item.excerpt}</span> : null}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table>
        )}
        {rejected.length > 0 && run.skipped > rejected.length && (
          <div className="px-6 py-3">
            <Text size="xsmall" className="text-ui-fg-subtle">
              Showing the first {formatCount(rejected.length)} of {formatCount(run.skipped)} rejected items.
            </Text>
          </div>
        )}
      </Container>
    </>
  )
}

export default CatalogSyncRunPage

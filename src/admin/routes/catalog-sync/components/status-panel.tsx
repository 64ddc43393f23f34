import { Alert, Button, Container, Heading, StatusBadge, Text, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect, useRef } from "react"
import { Link } from "react-router-dom"
import { ErrorDetails } from "../../../components/error-details"
import { ErrorState } from "../../../components/error-state"
import { KeyValue } from "../../../components/key-value"
import { LoadingState } from "../../../components/loading-state"
import { RunCounts } from "../../../components/run-counts"
import { UsageBar } from "../../../components/usage-bar"
import { BrakePanel } from "./brake-panel"
import { RunProgress } from "./run-progress"
import { catalogSyncApi, queryKeys } from "../../../lib/api"
import { pausedRunOf } from "../../../lib/brake"
import { describeError, runErrorSentence, runErrorVoice } from "../../../lib/errors"
import { expiredAtOf, planRefusalSentence, planRowText } from "../../../lib/plan-words"
import { shopProductsSplit, shopProductsSplitText } from "../../../lib/kept-products"
import { lastRunSection, lastRunTime } from "../../../lib/last-run"
import { formatCount, formatDateTime, formatDuration, formatRelative, runDurationMs } from "../../../lib/format"
import { countsText, endedBlockShown, endedHeadline, liveBlockShown, syncStateBadge } from "../../../lib/progress"
import { quotaLine } from "../../../lib/quota-bar"
import { useCatalogSyncProgress } from "../../../lib/use-progress"
import { modeLabel, nextRunText, planExpiry, runBadge, statusPollMs, syncStartRefusal, triggerLabel } from "../../../lib/status"
import { notConnectedText } from "../../../lib/sync-summary"
import type { SyncStatus } from "../../../lib/types"

/** Sync health in full: state, progress, last run, plan and quota (the sync page; the product list has one line, sync-summary-line.tsx). */
export const CatalogSyncStatusPanel = () => {
  const queryClient = useQueryClient()
  const prompt = usePrompt()
  const status = useQuery({
    queryKey: queryKeys.status,
    queryFn: catalogSyncApi.getStatus,
    retry: 1,
    refetchInterval: (query) => (query.state.error ? 30000 : statusPollMs(query.state.data)),
  })

  const start = useMutation({
    mutationFn: (mode: "changes" | "full") => catalogSyncApi.startRun(mode),
    onSuccess: (result, mode) => {
      if (result.waiting_for_answer)
        toast.warning("A run is waiting for your answer", {
          description: (
            <span data-testid="sync-waiting-toast">
              No sync starts until you confirm or discard{" "}
              <Link to={`/settings/catalog-sync/runs/${result.run.id}`} className="underline">
                the paused run
              </Link>
              .
            </span>
          ),
        })
      else if (result.already_running) toast.info("A sync is already running", { description: "It goes on; watch its progress here." })
      else toast.success(mode === "full" ? "Full resync started" : "Sync started")
      queryClient.invalidateQueries({ queryKey: queryKeys.all })
    },
    onError: (error) => toast.error("The sync could not be started", { description: describeError(error) }),
  })

  const fullResync = async () => {
    const confirmed = await prompt({
      title: "Start a full resync?",
      description:
        "Every product is fetched from the catalog again and compared with the shop. Products the catalog no longer has are removed, except those you chose to keep (Discard) and those an open order holds; the safety brake asks first when many would go. It takes longer than a normal sync and uses about one request per 200 products of the daily quota.",
      confirmText: "Start full resync",
      cancelText: "Cancel",
      variant: "confirmation",
    })
    if (confirmed) start.mutate("full")
  }

  const data = status.data
  // While a run goes or waits, the header names it as the progress block below does (one source,
  // the progress view), never "Idle" beside "Changes running".
  const { view } = useCatalogSyncProgress()
  const badge = syncStateBadge(data, view)
  const running = !!data && (data.state === "running" || !!data.running_run)
  const refusal = syncStartRefusal(data)
  const canStart = !!data && refusal === null

  return (
    <Container className="divide-y p-0" data-testid="catalog-sync-widget">
      <div className="flex flex-wrap items-center justify-between gap-2 px-6 py-4">
        <div className="flex items-center gap-x-3">
          <Heading level="h2">Catalog sync</Heading>
          {data && (
            <StatusBadge color={badge.color} data-testid="catalog-sync-state" data-state={data.state} data-color={badge.color}>
              {badge.label}
            </StatusBadge>
          )}
        </div>
        <div className="flex flex-wrap items-center justify-end gap-x-2">
          {refusal && data?.state !== "not_configured" && (
            <Text size="small" className="text-ui-fg-subtle" data-testid="sync-now-refusal">
              {refusal}
            </Text>
          )}
          <Button size="small" variant="transparent" asChild>
            <Link to="/settings/catalog-sync/runs">History</Link>
          </Button>
          {/* Settings is the page header's one action (page.tsx), as Medusa's own pages carry it: not repeated here. */}
          <Button size="small" variant="secondary" disabled={!canStart || running || start.isPending} onClick={fullResync} data-testid="full-resync">
            Full resync
          </Button>
          <Button
            size="small"
            variant="primary"
            disabled={!canStart || running}
            isLoading={start.isPending}
            onClick={() => start.mutate("changes")}
            data-testid="sync-now"
          >
            Sync now
          </Button>
        </div>
      </div>
      {status.isPending ? (
        <LoadingState rows={2} />
      ) : status.isError ? (
        <ErrorState what="The catalog sync status" error={status.error} onRetry={() => status.refetch()} />
      ) : (
        <StatusBody status={status.data} />
      )}
    </Container>
  )
}

const StatusBody = ({ status }: { status: SyncStatus }) => {
  if (status.state === "not_configured") {
    return (
      <div className="flex flex-col items-start gap-y-2 px-6 py-4" data-testid="catalog-sync-empty">
        <Text size="small">{notConnectedText(status)}</Text>
        <Button size="small" variant="secondary" asChild>
          <Link to="/settings/catalog-sync">Connect the catalog</Link>
        </Button>
      </div>
    )
  }
  const paused = pausedRunOf(status)
  return (
    <>
      <BlockedNotice status={status} />
      {paused && <BrakePanel paused={paused} />}
      <LiveProgress planExpiredAt={expiredAtOf(status.account)} />
      <LastRun status={status} />
      <div className="grid grid-cols-1 divide-y md:grid-cols-2 md:divide-x md:divide-y-0">
        <div className="divide-y">
          <KeyValue label="Next run" testId="catalog-sync-next-run">
            {nextRunText(status, (at) => `${formatRelative(at)} (${formatDateTime(at)})`)}
          </KeyValue>
          <ShopProducts synced={status.products_synced} />
        </div>
        <AccountBlock status={status} />
      </div>
    </>
  )
}

/**
 * The shop's products from the catalog, and when the shop keeps some the catalog no longer has
 * (a discarded removal, an open order), how many of them the catalog still sells: the one number
 * is never read as the catalog's size.
 */
const ShopProducts = ({ synced }: { synced: number }) => {
  const kept = useQuery({ queryKey: queryKeys.keptProducts(null), queryFn: () => catalogSyncApi.getKeptProducts(), retry: false })
  const split = shopProductsSplit(synced, kept.data?.counts ?? { discarded: 0, open_order: 0, total: 0, removing: 0 })
  return (
    <KeyValue label="In the shop from the catalog" testId="catalog-sync-products">
      <span className="flex flex-col">
        <span className="tabular-nums">{formatCount(split.total)}</span>
        {(split.kept > 0 || split.removing > 0) && (
          <Text
            size="xsmall"
            className="text-ui-fg-subtle"
            data-testid="catalog-sync-products-split"
            data-sold={split.sold}
            data-kept={split.kept}
            data-removing={split.removing}
            data-awaiting-answer={kept.data?.counts.awaiting_answer ?? ""}
          >
            {shopProductsSplitText(split, formatCount, kept.data?.counts)}
          </Text>
        )}
      </span>
    </KeyValue>
  )
}

/**
 * The run's progress from the one progress view the top bar's chip reads (same query, same
 * answer): the live block while a run goes or waits, and its end ("100 %", "Finished") while the
 * chip still shows it.
 */
const LiveProgress = ({ planExpiredAt }: { planExpiredAt: string | null }) => {
  const queryClient = useQueryClient()
  const { view, now, receivedAt } = useCatalogSyncProgress()
  // When the run's look changes (it ends, stops or starts), the state, last run and history follow
  // at once rather than at their next poll: the badge never says "Running" beside "done".
  const look = view ? `${view.run_id}:${view.look}` : null
  const seenLook = useRef<string | null | undefined>(undefined)
  useEffect(() => {
    if (seenLook.current !== undefined && look !== seenLook.current) {
      queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === queryKeys.all[0] && q.queryKey[1] !== queryKeys.progress[1] })
    }
    seenLook.current = look
  }, [look, queryClient])
  if (liveBlockShown(view)) return <RunProgress view={view} now={now} receivedAt={receivedAt} />
  if (!endedBlockShown(view)) return null
  const counts = countsText(view)
  return (
    <div
      className="flex flex-col gap-y-1 px-6 py-3"
      data-testid="catalog-sync-progress-ended"
      data-run-id={view.run_id}
      data-look={view.look}
      data-percent={view.percent ?? ""}
      data-read={view.read}
      data-written={view.written}
    >
      <Text size="small" weight="plus" data-testid="catalog-sync-progress-ended-state" data-color={view.display.color}>
        {endedHeadline(view, planExpiredAt)}
      </Text>
      {view.look !== "blocked" && counts && (
        <Text size="small" className="text-ui-fg-subtle tabular-nums" data-testid="catalog-sync-progress-ended-counts">
          {counts}
        </Text>
      )}
    </div>
  )
}

const BlockedNotice = ({ status }: { status: SyncStatus }) => {
  if (status.state !== "key_invalid" && status.state !== "plan_required") return null
  // One wording for a refused plan (planRefusalSentence: its end date when it expired), as the
  // last run and the progress line say it; the code stays in the details.
  const run = runErrorVoice(status.blocked?.code ?? status.state, status.blocked?.message)
  const voice = status.state === "plan_required" ? { ...run, sentence: planRefusalSentence(expiredAtOf(status.account)) } : run
  return (
    <div className="px-6 py-4">
      <Alert variant={status.state === "key_invalid" ? "error" : "warning"} data-testid="catalog-sync-blocked">
        {voice.sentence}{" "}
        {status.state === "key_invalid" ? (
          <>
            Scheduled syncs are paused until a new key is saved in{" "}
            <Link to="/settings/catalog-sync" className="underline">
              settings
            </Link>
            .
          </>
        ) : (
          "Scheduled syncs are paused until the plan is renewed and the settings are saved again."
        )}
        <ErrorDetails detail={voice.detail} className="block" />
      </Alert>
    </div>
  )
}

/**
 * The last finished run, called "Last run" only while it is the newest: beside a newer run (paused
 * at the safety brake, going or queued) it is the "Last finished run", with what the newer one is.
 */
const LastRun = ({ status }: { status: SyncStatus }) => {
  const section = lastRunSection(status)
  const { run, heading, newer, empty } = section
  const newerLine = newer && (
    <Text size="small" className="text-ui-fg-subtle" data-testid="catalog-sync-last-run-newer">
      {newer}
    </Text>
  )
  if (!run) {
    return (
      <div className="flex flex-col gap-y-1 px-6 py-4" data-testid="catalog-sync-last-run" data-heading={heading}>
        {newerLine}
        <Text size="small" className="text-ui-fg-subtle">
          {empty}
        </Text>
      </div>
    )
  }
  const badge = runBadge(run)
  return (
    <div
      className="flex flex-col gap-y-3 px-6 py-4"
      data-testid="catalog-sync-last-run"
      data-status={run.status}
      data-trigger={run.trigger}
      data-mode={run.mode}
      data-heading={heading}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-x-2">
          <Text size="small" weight="plus" data-testid="catalog-sync-last-run-heading">
            {heading}
          </Text>
          <StatusBadge color={badge.color} data-testid="catalog-sync-last-run-state">
            {badge.label}
          </StatusBadge>
          <Text size="small" className="text-ui-fg-subtle">
            {triggerLabel(run.trigger, run)} · {modeLabel(run.mode)} · {formatDuration(runDurationMs(run))}
          </Text>
        </div>
        <Link to={`/settings/catalog-sync/runs/${run.id}`}>
          <Text size="small" className="text-ui-fg-interactive">
            {lastRunTime(section, (at) => formatRelative(at), formatDateTime)}
          </Text>
        </Link>
      </div>
      {newerLine}
      {run.error_message && (
        <Text size="small" className="text-ui-fg-error" title={run.error_message} data-testid="catalog-sync-last-run-error">
          {runErrorSentence(run)}
        </Text>
      )}
      <RunCounts run={run} />
    </div>
  )
}

const AccountBlock = ({ status }: { status: SyncStatus }) => {
  const account = status.account
  // The catalog's own count for the key (the one progress answer), else what /status read: one
  // source (src/sync/requests-today.ts), no figure from an older /v1/me beside it.
  const { requestsToday } = useCatalogSyncProgress()
  const quota = quotaLine(requestsToday ?? status.requests_today, status.state)
  const expiry = account ? planExpiry(account.plan_expires_at) : null
  return (
    <div className="divide-y" data-testid="catalog-sync-account">
      <KeyValue label="Plan" testId="catalog-sync-plan">
        {/* The plan itself; what keeps it from syncing is told once, in the notice above. */}
        <span className={account ? undefined : "text-ui-fg-subtle"}>
          {planRowText(account, status.account_error, (at) => formatDateTime(at))}
          {expiry === "expiring" && <span className="text-ui-fg-error"> (ends soon)</span>}
        </span>
      </KeyValue>
      <div
        className="flex flex-col gap-y-2 px-6 py-3"
        data-testid="catalog-sync-quota"
        data-used={quota.kind === "bar" ? quota.used : ""}
        data-limit={quota.kind === "bar" ? quota.limit : ""}
        data-kind={quota.kind}
      >
        <Text size="small" weight="plus" className="text-ui-fg-subtle">
          Requests today
        </Text>
        {quota.kind === "text" ? (
          <Text size="small" className="text-ui-fg-subtle">
            {quota.text}
          </Text>
        ) : (
          <UsageBar percent={quota.percent} color={quota.color} label={quota.label} />
        )}
      </div>
    </div>
  )
}

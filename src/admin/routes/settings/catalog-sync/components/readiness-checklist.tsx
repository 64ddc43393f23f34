// The storefront readiness checklist: live state of what a storefront needs to show and price
// the synced products (region in UAH, a publishable key that sees the channel, the stock
// location, drafts), each with the button that fixes it.
import { Button, Container, Heading, StatusBadge, Text } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { BACKEND_URL } from "../../../../lib/sdk"
import { describeError, toAdminApiError } from "../../../../lib/errors"
import { ErrorState } from "../../../../components/error-state"
import { LoadingState } from "../../../../components/loading-state"

export type ReadinessCheck = {
  id: "sales_channel" | "publishable_key" | "region" | "stock_location" | "drafts"
  status: "ok" | "warning" | "error"
  title: string
  detail: string
  fix: { label: string } | null
}

export type Readiness = {
  ready: boolean
  sales_channel: { id: string; name: string; source: string } | null
  stock_location: { id: string; name: string; source: string } | null
  region: { id: string; name: string; countries: string[] } | null
  checks: ReadinessCheck[]
}

const ROOT = `${BACKEND_URL.replace(/\/+$/, "")}/admin/catalog-sync/readiness`

async function call<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(ROOT + path, {
    method: body === undefined ? "GET" : "POST",
    credentials: "include",
    headers: { accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  let parsed: unknown = null
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    parsed = null
  }
  if (!response.ok) throw toAdminApiError(response.status, parsed)
  return parsed as T
}

export const readinessQueryKey = ["catalog-sync", "readiness"] as const

export function useReadiness() {
  return useQuery({
    queryKey: readinessQueryKey,
    queryFn: () => call<{ readiness: Readiness }>("").then((r) => r.readiness),
    retry: 1,
  })
}

/** What the settings page's pickers show when nothing is chosen: the record actually in use. */
export function automaticLabel(kind: "sales_channel" | "stock_location", readiness: Readiness | undefined): string {
  const record = readiness?.[kind]
  if (kind === "sales_channel") {
    if (!record) return "The store's default sales channel"
    return record.source === "store_default" ? `The store's default channel ("${record.name}")` : `"${record.name}" (made by the catalog sync)`
  }
  if (!record) return `A new "Catalog sync warehouse" on the first sync`
  return record.source === "store_default_location" ? `The store's default location ("${record.name}")` : `"${record.name}" (made by the catalog sync)`
}

const BADGE = { ok: { color: "green", label: "Ready" }, warning: { color: "orange", label: "Check" }, error: { color: "red", label: "Needs a fix" } } as const

export const ReadinessChecklist = () => {
  const queryClient = useQueryClient()
  const readiness = useReadiness()
  const fix = useMutation({
    mutationFn: (check: ReadinessCheck["id"]) => call<{ readiness: Readiness }>("/fix", { check }),
    onSuccess: (result) => {
      queryClient.setQueryData(readinessQueryKey, result.readiness)
      // A fix may clear a stale setting or start a run.
      queryClient.invalidateQueries({ queryKey: ["catalog-sync"], predicate: (q) => q.queryKey[1] !== "readiness" })
    },
  })

  return (
    <Container className="divide-y p-0" data-testid="readiness-checklist" data-ready={readiness.data ? String(readiness.data.ready) : undefined}>
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">Storefront readiness</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            What a storefront needs to show and price the synced products.
          </Text>
        </div>
        <Button size="small" variant="transparent" onClick={() => readiness.refetch()} isLoading={readiness.isFetching} data-testid="readiness-refresh">
          Check again
        </Button>
      </div>
      {readiness.isPending ? (
        <LoadingState rows={4} />
      ) : readiness.isError ? (
        <ErrorState what="The storefront readiness" error={readiness.error} onRetry={() => readiness.refetch()} />
      ) : (
        readiness.data.checks.map((check) => (
          <div
            key={check.id}
            className="flex items-start justify-between gap-x-4 px-6 py-3"
            data-testid={`readiness-check-${check.id}`}
            data-status={check.status}
          >
            <div className="flex flex-col gap-y-1">
              <div className="flex items-center gap-x-2">
                <StatusBadge color={BADGE[check.status].color}>{BADGE[check.status].label}</StatusBadge>
                <Text size="small" weight="plus">
                  {check.title}
                </Text>
              </div>
              <Text size="small" className="text-ui-fg-subtle">
                {check.detail}
              </Text>
              {fix.isError && fix.variables === check.id && (
                <Text size="small" className="text-ui-fg-error" role="alert">
                  {describeError(fix.error)}
                </Text>
              )}
            </div>
            {check.fix && (
              <Button
                size="small"
                variant="secondary"
                className="shrink-0"
                data-testid={`readiness-fix-${check.id}`}
                isLoading={fix.isPending && fix.variables === check.id}
                disabled={fix.isPending}
                onClick={() => fix.mutate(check.id)}
              >
                {check.fix.label}
              </Button>
            )}
          </div>
        ))
      )}
    </Container>
  )
}

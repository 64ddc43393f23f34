import { toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { catalogSyncApi, queryKeys } from "./api"
import { describeError } from "./errors"
import { REMOVE_KEPT_FAILED, REMOVE_KEPT_QUEUED, canRemoveKept, removeKeptPrompt } from "./remove-kept"
import type { KeptProduct } from "./types"

/**
 * Remove a product kept by a discard (POST /kept-products/remove), after the one prompt; every
 * catalog-sync query refreshes after it (the list, the status, the product's widget).
 */
export function useRemoveKeptProduct() {
  const queryClient = useQueryClient()
  const prompt = usePrompt()
  const remove = useMutation({
    mutationFn: (catalogId: string) => catalogSyncApi.removeKeptProduct(catalogId),
    onSuccess: () => {
      toast.success(REMOVE_KEPT_QUEUED)
      queryClient.invalidateQueries({ queryKey: queryKeys.all })
    },
    onError: (error) => toast.error(REMOVE_KEPT_FAILED, { description: describeError(error) }),
  })
  const ask = async (p: KeptProduct) => {
    if (!canRemoveKept(p)) return
    const ok = await prompt(removeKeptPrompt(p))
    if (ok) remove.mutate(p.catalog_id)
  }
  return { ask, isPending: remove.isPending }
}

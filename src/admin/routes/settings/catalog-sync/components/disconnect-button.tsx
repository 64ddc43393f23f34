import { Button, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { catalogSyncApi, queryKeys } from "../../../../lib/api"
import { errorVoice } from "../../../../lib/errors"
import type { SyncSettings } from "../../../../lib/types"

/** "Disconnect": after a confirmation, removes the saved key; scheduled syncs stop until a key is saved again. */
export const DisconnectButton = ({ saved }: { saved: SyncSettings }) => {
  const queryClient = useQueryClient()
  const prompt = usePrompt()
  const disconnect = useMutation({
    mutationFn: () => catalogSyncApi.disconnect(),
    onSuccess: (result) => {
      if (result.options_key_applies) {
        toast.warning("Saved key removed", {
          description: "The plugin options (medusa-config) also set a key, and it applies now. Remove it there to disconnect.",
        })
      } else {
        toast.success("Disconnected", {
          description: "The saved API key was removed. Scheduled syncs are paused until a key is saved again.",
        })
      }
      queryClient.invalidateQueries({ queryKey: queryKeys.all })
    },
    onError: (error) => {
      const voice = errorVoice(error)
      toast.error("Not disconnected", { description: voice.detail ? `${voice.sentence} ${voice.detail}` : voice.sentence })
    },
  })

  const confirmThenDisconnect = async () => {
    const confirmed = await prompt({
      title: "Disconnect the catalog?",
      description: `The saved API key ${saved.api_key ?? ""} is removed from this shop and scheduled syncs stop. Products already synced stay as they are. Enter a key again to reconnect.`,
      confirmText: "Disconnect",
      cancelText: "Cancel",
      variant: "danger",
    })
    if (confirmed) disconnect.mutate()
  }

  return (
    <Button type="button" size="small" variant="danger" isLoading={disconnect.isPending} onClick={confirmThenDisconnect} data-testid="disconnect">
      Disconnect
    </Button>
  )
}

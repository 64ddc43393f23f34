import { useEffect, useState } from "react"

/**
 * The current time, re-read every `intervalMs` while `active`: a run's timer, rate and ETA
 * tick between two polls of the API instead of freezing until the next answer.
 */
export function useNow(active: boolean, intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(timer)
  }, [active, intervalMs])
  return active ? now : Date.now()
}

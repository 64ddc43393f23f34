// Independent writes run side by side; the first failure is thrown only once all of them
// settled, so nothing is still writing when the caller's step fails.
export async function settleAll(writes: (Promise<unknown> | null)[]): Promise<void> {
  const results = await Promise.allSettled(writes)
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected")
  if (failed) throw failed.reason
}

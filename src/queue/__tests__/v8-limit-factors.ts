// What V8 printed with --trace-gc-verbose about the limits it set: shared by the heap growth
// specs (a child process here, a real app in integration-tests/medusa/heap-growth.spec.ts).

/**
 * The factor of each old-generation limit V8 set, by the PHASE markers between. V8 11 (Node 20)
 * prints it on its "Limit:" line (its "factor … based on" line comes before the flag's
 * override); later V8s print it only on the "factor" line, after the override.
 */
export function limitFactorsByPhase(log: string): Record<string, number[]> {
  const onLimitLines = /\[HeapController\] Limit: [^\n]*\(([\d.]+)\)/.test(log)
  const pattern = onLimitLines ? /\[HeapController\] Limit: [^\n]*\(([\d.]+)\)/ : /\[HeapController\] factor ([\d.]+) based on/
  const byPhase: Record<string, number[]> = {}
  let phase = "before"
  for (const line of log.split("\n")) {
    const marker = /^PHASE (\S+)/.exec(line)
    if (marker) phase = marker[1]
    const factor = pattern.exec(line)
    if (factor) (byPhase[phase] ??= []).push(Number(factor[1]))
  }
  return byPhase
}

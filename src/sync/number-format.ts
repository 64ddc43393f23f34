// The one way a count is written for people (the admin's screens and the notifications alike):
// whole numbers with a comma between thousands, "12,345".

/** "1234567" -> "1,234,567" (digits only). */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",")
}

/** 12345 -> "12,345"; null or not finite -> "—". */
export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—"
  return groupThousands(String(Math.trunc(value)))
}

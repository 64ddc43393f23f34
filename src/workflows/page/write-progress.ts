// Products the page writes have written so far in this process (a monotonic counter), so a run
// can report progress inside a long page: it reads the counter on a timer while the page's
// workflow writes. One run writes at a time per process (the run lock), so a plain counter does.
let written = 0

export function noteProductsWritten(count: number): void {
  written += count
}

export function productsWritten(): number {
  return written
}

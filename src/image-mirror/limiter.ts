// A concurrency limit of its own for image downloads: image hosts are not the catalog API,
// so downloads never take the API's rate-limit slots, and the API's calls never wait on them.

export interface ConcurrencyLimit {
  run<T>(task: () => Promise<T>): Promise<T>
  readonly active: number
  readonly waiting: number
}

export function concurrencyLimit(max: number): ConcurrencyLimit {
  if (!Number.isInteger(max) || max < 1) throw new Error(`concurrency must be a positive integer, got ${max}`)
  let active = 0
  const queue: Array<() => void> = []
  const release = () => {
    active--
    const next = queue.shift()
    if (next) next()
  }
  return {
    get active() {
      return active
    },
    get waiting() {
      return queue.length
    },
    run<T>(task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          active++
          task().then(resolve, reject).finally(release)
        }
        if (active < max) start()
        else queue.push(start)
      })
    },
  }
}

// `npm run catalog -- <command> ...`: the tool for shop owners and support. Exit codes:
// 0 done, 1 the API or network failed, 2 bad arguments, 130 interrupted. The key is never printed.
import { accountAccess } from "../account"
import { CatalogClient } from "../catalog-client"
import { AbortedError, CatalogApiError } from "../errors"
import { redactor } from "../redact"
import { exportCatalog } from "./export-catalog"
import { parseCliArgs, USAGE, UsageError, type CliConfig } from "./parse-args"

export interface CliIo {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  env: Record<string, string | undefined>
  signal?: AbortSignal
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let config: CliConfig
  try {
    config = parseCliArgs(argv, io.env)
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`catalog: ${error.message}\n\n${USAGE}\n`)
      return 2
    }
    throw error
  }
  if (config.command.name === "help") {
    io.stdout.write(`${USAGE}\n`)
    return 0
  }
  const redact = redactor(config.apiKey)
  const out = (text: string) => io.stdout.write(redact(text))
  const err = (text: string) => io.stderr.write(redact(text))
  const client = new CatalogClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    pricing: config.pricing,
    signal: io.signal,
    logger: { warn: (message, fields) => err(`warn: ${message} ${JSON.stringify(fields ?? {})}\n`) },
  })
  try {
    const command = config.command
    switch (command.name) {
      case "me": {
        const info = await client.me()
        const access = accountAccess(info)
        out(JSON.stringify({ ...info, access, quota: client.quota }, null, 2) + "\n")
        if (!access.ok) err(`catalog: ${access.message}\n`)
        return 0
      }
      case "product": {
        const card = command.id !== undefined ? await client.getProduct(command.id) : await client.getProductBySku(command.sku!)
        out(JSON.stringify(card, null, 2) + "\n")
        return 0
      }
      case "stock": {
        const result = await client.getStock({ ids: command.ids, skus: command.skus })
        out(JSON.stringify(result, null, 2) + "\n")
        return 0
      }
      case "export": {
        const started = Date.now()
        const result = await exportCatalog(client, {
          out: command.out,
          limit: command.limit,
          signal: io.signal,
          onPage: (p, rejected) => {
            for (const r of rejected) err(`rejected card ${r.id ?? "(no id)"}: ${r.reason}\n`)
            const seconds = (Date.now() - started) / 1000
            const quota = client.quota.quotaRemaining
            err(
              `page ${p.pages}: ${p.products} products, ${p.removed} removed, ${p.rejected} rejected, ` +
                `${(p.products / Math.max(seconds, 0.001)).toFixed(0)}/s` +
                (quota !== null ? `, quota left ${quota}` : "") +
                "\n"
            )
          },
        })
        err(
          `exported ${result.products} products to ${command.out} in ${result.pages} pages` +
            (result.rejected ? ` (${result.rejected} rejected cards skipped)` : "") +
            "\n"
        )
        out(result.cursor + "\n")
        return 0
      }
    }
  } catch (error) {
    if (error instanceof AbortedError) {
      err("catalog: interrupted\n")
      return 130
    }
    if (error instanceof CatalogApiError) {
      err(`catalog: ${error.message}\n`)
      if (error.details?.length) for (const d of error.details) err(`  ${d.field ?? "(request)"}: ${d.message}\n`)
      if (error.requestId) err(`request_id: ${error.requestId} (quote it to support)\n`)
      return 1
    }
    if (error instanceof TypeError) {
      err(`catalog: ${error.message}\n`)
      return 2
    }
    err(`catalog: ${(error as Error)?.message ?? String(error)}\n`)
    return 1
  } finally {
    await client.close()
  }
  return 1
}

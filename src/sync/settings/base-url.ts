// Where the key may be sent: the one base-URL rule, and whether non-public addresses are allowed.
import { readEnvironment, type PluginEnvironment } from "../../config/environment"
import type { CatalogSyncPluginOptions } from "./plugin-options"

/**
 * The one base-URL rule, for admin input and plugin options alike: http(s) with a host, no
 * credentials, query or fragment (the key must only ever go where the URL plainly says);
 * returned without /v1 and trailing slashes. http stays allowed (a sandbox on loopback).
 */
export function parseBaseUrl(value: string): { ok: true; url: string } | { ok: false; message: string } {
  const trimmed = value.trim()
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    return { ok: false, message: "must be an absolute http(s) URL" }
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) {
    return { ok: false, message: "must be an absolute http(s) URL" }
  }
  if (url.username || url.password || /^[a-z]+:\/\/[^/]*@/i.test(trimmed)) {
    return { ok: false, message: "must not contain credentials" }
  }
  if (url.search || url.hash || trimmed.includes("?") || trimmed.includes("#")) {
    return { ok: false, message: "must not contain a query string or fragment" }
  }
  return { ok: true, url: trimmed.replace(/\/+$/, "").replace(/\/v1$/, "") }
}

/** Plugin options' base URL through the same rule as admin input; an invalid one counts as unset. */
export function normaliseBaseUrl(url: string | undefined | null): string | null {
  if (!url?.trim()) return null
  const parsed = parseBaseUrl(url)
  return parsed.ok ? parsed.url : null
}

/** The allowPrivateNetworks option, else CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS ("true"/"1"/"yes"), else false. */
export function allowPrivateNetworks(options: Pick<CatalogSyncPluginOptions, "allowPrivateNetworks">, env: PluginEnvironment = readEnvironment()): boolean {
  if (typeof options.allowPrivateNetworks === "boolean") return options.allowPrivateNetworks
  return /^(true|1|yes)$/i.test(env.CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS?.trim() ?? "")
}

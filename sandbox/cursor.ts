// Opaque, tamper-evident cursors: a small binary payload signed with HMAC-SHA256 (truncated),
// base64url-encoded (56 characters, well under the 200 the spec allows).

import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto"

export type CursorMode = "export" | "changes" | "list"

const MODE_CODES: Record<CursorMode, number> = { export: 1, changes: 2, list: 3 }
const CODE_MODES: Record<number, CursorMode> = { 1: "export", 2: "changes", 3: "list" }
const VERSION = 1
const PAYLOAD_BYTES = 26
const MAC_BYTES = 16

export interface CursorState {
  mode: CursorMode
  /** export and list: the last id served; changes: the change-log position. */
  position: bigint
  /** export: the change-log position when the export began (the changes feed continues from it). */
  logStart: number
  /** Hash of the pricing parameters the cursor was made with. */
  pricingHash: string
  /** list: hash of the filters the cursor was made with. */
  filterHash: string
}

export type CursorDecodeResult = { ok: true; cursor: CursorState } | { ok: false; reason: string }

export class CursorCodec {
  private secret: Buffer

  constructor(secret?: string) {
    this.secret = secret ? Buffer.from(secret) : randomBytes(32)
  }

  /** Every cursor issued so far becomes invalid. */
  rotateSecret(): void {
    this.secret = randomBytes(32)
  }

  encode(state: CursorState): string {
    const payload = Buffer.alloc(PAYLOAD_BYTES)
    payload.writeUInt8(VERSION, 0)
    payload.writeUInt8(MODE_CODES[state.mode], 1)
    payload.writeBigUInt64BE(state.position, 2)
    payload.writeUInt32BE(state.logStart, 10)
    Buffer.from(state.pricingHash, "hex").copy(payload, 14, 0, 8)
    Buffer.from(state.filterHash, "hex").copy(payload, 22, 0, 4)
    return Buffer.concat([payload, this.mac(payload)]).toString("base64url")
  }

  decode(text: string): CursorDecodeResult {
    if (!/^[A-Za-z0-9_-]+$/.test(text)) return { ok: false, reason: "cursor is not base64url" }
    const raw = Buffer.from(text, "base64url")
    if (raw.length !== PAYLOAD_BYTES + MAC_BYTES || raw.toString("base64url") !== text) {
      return { ok: false, reason: "cursor has the wrong length" }
    }
    const payload = raw.subarray(0, PAYLOAD_BYTES)
    if (!timingSafeEqual(raw.subarray(PAYLOAD_BYTES), this.mac(payload))) {
      return { ok: false, reason: "cursor signature does not match" }
    }
    const mode = CODE_MODES[payload.readUInt8(1)]
    if (payload.readUInt8(0) !== VERSION || !mode) return { ok: false, reason: "unknown cursor version" }
    return {
      ok: true,
      cursor: {
        mode,
        position: payload.readBigUInt64BE(2),
        logStart: payload.readUInt32BE(10),
        pricingHash: payload.subarray(14, 22).toString("hex"),
        filterHash: payload.subarray(22, 26).toString("hex"),
      },
    }
  }

  private mac(payload: Buffer): Buffer {
    return createHmac("sha256", this.secret).update(payload).digest().subarray(0, MAC_BYTES)
  }
}

/** A short hex hash of canonical text (pricing key, filters). */
export function shortHash(text: string, bytes: number): string {
  return createHash("sha256").update(text).digest().subarray(0, bytes).toString("hex")
}

/** The pricing a cursor is bound to: a hash of the canonical pricing parameters. */
export function pricingHash(pricingKey: string): string {
  return shortHash(pricingKey, 8)
}

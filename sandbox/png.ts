// Small real PNG images (solid colour, 32x32), so image URLs in cards can be downloaded.

import { createHash } from "node:crypto"
import { deflateSync } from "node:zlib"

const SIZE = 32
const cache = new Map<string, Buffer>()
const CACHE_LIMIT = 5000

/** A PNG whose colour derives from the key (product id and image token). */
export function pngFor(key: string): Buffer {
  let png = cache.get(key)
  if (!png) {
    const digest = createHash("sha1").update(key).digest()
    png = solidPng(digest[0], digest[1], digest[2])
    if (cache.size >= CACHE_LIMIT) cache.clear()
    cache.set(key, png)
  }
  return png
}

function solidPng(r: number, g: number, b: number): Buffer {
  const row = Buffer.alloc(1 + SIZE * 3)
  for (let x = 0; x < SIZE; x++) row.set([r, g, b], 1 + x * 3)
  const raw = Buffer.concat(Array.from({ length: SIZE }, () => row))
  const header = Buffer.alloc(13)
  header.writeUInt32BE(SIZE, 0)
  header.writeUInt32BE(SIZE, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ])
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, "ascii"), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(data: Buffer): number {
  let crc = 0xffffffff
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

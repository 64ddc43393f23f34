// An image download is accepted only when the server says image/* and the first bytes are
// that kind of image. SVG is refused: it is a document that can carry script, and a mirrored
// file is served from the shop's own origin.

export type RasterType = "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "image/avif" | "image/bmp" | "image/tiff" | "image/x-icon"

const EXTENSIONS: Record<RasterType, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/avif": "avif",
  "image/bmp": "bmp",
  "image/tiff": "tiff",
  "image/x-icon": "ico",
}

export const extensionOf = (type: RasterType) => EXTENSIONS[type]

const startsWith = (b: Uint8Array, bytes: number[], at = 0) => bytes.every((v, i) => b[at + i] === v)
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to))

/** The raster type the first bytes show (16 are enough), or null. */
export function sniffImageType(head: Uint8Array): RasterType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png"
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg"
  if (ascii(head, 0, 6) === "GIF87a" || ascii(head, 0, 6) === "GIF89a") return "image/gif"
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return "image/webp"
  if (ascii(head, 4, 8) === "ftyp" && ["avif", "avis"].includes(ascii(head, 8, 12))) return "image/avif"
  if (ascii(head, 0, 2) === "BM") return "image/bmp"
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return "image/tiff"
  if (startsWith(head, [0x00, 0x00, 0x01, 0x00])) return "image/x-icon"
  return null
}

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaType(header: string | null | undefined): string {
  return (header ?? "").split(";")[0].trim().toLowerCase()
}

/** Whether a Content-Type header is an image type this mirror stores (not SVG). */
export function isAcceptedImageHeader(header: string | null | undefined): boolean {
  const type = mediaType(header)
  return type.startsWith("image/") && type !== "image/svg+xml"
}

/**
 * The type to store, or why not. The header must be image/*; the bytes decide which image
 * (servers often say image/jpeg for a PNG), but bytes that are no known image are refused.
 */
export function acceptImage(header: string | null | undefined, head: Uint8Array): { type: RasterType } | { refused: string } {
  if (!isAcceptedImageHeader(header)) return { refused: `content-type ${mediaType(header) || "missing"} is not an image` }
  const sniffed = sniffImageType(head)
  if (!sniffed) return { refused: `bytes are not a known image format (content-type ${mediaType(header)})` }
  // A mismatch among raster types is tolerated: the bytes are an image either way.
  return { type: sniffed }
}

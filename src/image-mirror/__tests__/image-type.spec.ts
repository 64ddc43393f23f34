import { acceptImage, sniffImageType } from "../image-type"

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([1, 2, 3, 4]), Buffer.from("WEBPVP8 ")])
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')

describe("image types", () => {
  it("recognises raster images by their first bytes", () => {
    expect(sniffImageType(PNG)).toBe("image/png")
    expect(sniffImageType(JPEG)).toBe("image/jpeg")
    expect(sniffImageType(WEBP)).toBe("image/webp")
    expect(sniffImageType(Buffer.from("GIF89a...."))).toBe("image/gif")
    expect(sniffImageType(Buffer.from("<html>"))).toBeNull()
  })

  it("needs an image content type and bytes that are an image; refuses SVG", () => {
    expect(acceptImage("image/png", PNG)).toEqual({ type: "image/png" })
    expect(acceptImage("image/jpeg; charset=binary", PNG)).toEqual({ type: "image/png" })
    expect(acceptImage("text/html", PNG)).toEqual({ refused: "content-type text/html is not an image" })
    expect(acceptImage(undefined, PNG)).toEqual({ refused: "content-type missing is not an image" })
    expect(acceptImage("image/png", Buffer.from("<html>hi</html>"))).toHaveProperty("refused")
    expect(acceptImage("image/svg+xml", SVG)).toHaveProperty("refused")
  })
})

// Sealed workflow data: what the page workflow relies on. Medusa's engine hands a string to a
// step as it is (no walk, no copy), and a sealed value comes back equal; a queued job of an
// earlier version carries its plan unsealed, and is read as it is.
import { parseStringifyIfNecessary } from "@medusajs/framework/utils"
import { forgetHandOver, handOver, HANDED_MAX, peek, releaseShared, seal, sealForHandOver, sealShared, SHARED_CHARS_MAX, takeHandedOver, unseal, unsealedValue, type Sealed } from "../page/sealed"

const plan = { create: [{ catalogId: "7", input: { variants: [{ sizeKey: "M", offers: [[1, 2]] }] } }], update: [], note: "ü \" \\n" }

describe("sealed workflow data", () => {
  it("comes back equal, and the workflow engine passes it as the same string", () => {
    const sealed = seal(plan)
    expect(typeof sealed).toBe("string")
    expect(unseal(sealed)).toEqual(plan)
    // The premise of sealing: an upgrade of Medusa that copies strings too would show here.
    expect(parseStringifyIfNecessary(sealed)).toBe(sealed)
    expect(parseStringifyIfNecessary({ records: sealed }).records).toBe(sealed)
  })

  it("reads a value stored unsealed (a job queued by an earlier version) as it is", () => {
    expect(unsealedValue<typeof plan>(plan)).toBe(plan)
    expect(unsealedValue(seal(plan))).toEqual(plan)
    expect(unsealedValue("\"x\"" as Sealed<string>)).toBe("x")
  })

  it("shares one frozen parse among readers of the same text, and gives unseal's readers their own copy", () => {
    const sealed = seal({ ...plan, note: "shared" })
    const first = peek(sealed)
    expect(first).toEqual({ ...plan, note: "shared" })
    // Equal text sealed again (a transform the engine computed twice) is the same read.
    expect(peek(seal({ ...plan, note: "shared" }))).toBe(first)
    // Frozen through and through: a reader that tried to change it would change it for all.
    expect(Object.isFrozen(first)).toBe(true)
    expect(Object.isFrozen(first.create[0].input.variants[0].offers[0])).toBe(true)
    expect(() => {
      ;(first.create as unknown[]).push({})
    }).toThrow(TypeError)
    const own = unseal(sealed)
    own.create.push(own.create[0])
    expect(own.create).toHaveLength(2)
    expect(peek(sealed).create).toHaveLength(1)
  })

  it("keeps at most SHARED_CHARS_MAX of text: the least recently read go first, and a later read parses again", () => {
    const big = (n: number) => seal({ n, pad: "x".repeat(Math.floor(SHARED_CHARS_MAX / 4)) })
    const [a, b, c, d] = [big(1), big(2), big(3), big(4)]
    const readA = peek(a)
    const readB = peek(b)
    const readC = peek(c)
    expect(peek(a)).toBe(readA) // read again: now the most recent (its text counted once)
    peek(d) // over the bound: b, the least recently read, goes, and only b
    expect(peek(a)).toBe(readA)
    expect(peek(c)).toBe(readC)
    const bAgain = peek(b)
    expect(bAgain).not.toBe(readB)
    expect(bAgain).toEqual(readB)
    // Text longer than the bound is parsed on each read, never kept, and (its reader's own) not frozen.
    const huge = seal({ pad: "y".repeat(SHARED_CHARS_MAX + 1) })
    expect(peek(huge)).not.toBe(peek(huge))
    expect(Object.isFrozen(peek(huge))).toBe(false)
    expect(peek(huge)).toEqual(unseal(huge))
  })
  it("hands a value sealed for hand-over to its one reader in this process as it is, and parses otherwise", () => {
    const value = { ...plan, note: "handed" }
    const sealed = sealForHandOver(value)
    expect(sealed).toBe(seal(value))
    // The workflow engine's copy of its input passes the text as it is: the reader gets the sealer's value.
    expect(takeHandedOver(parseStringifyIfNecessary({ plan: sealed }).plan)).toBe(value)
    // Taken once: a second read (a transform computed again) parses the text, equal.
    const again = takeHandedOver(sealed)
    expect(again).not.toBe(value)
    expect(again).toEqual(value)
    // Frozen when sealed: neither the sealer nor the reader changes what the text says.
    expect(Object.isFrozen(value.create[0].input.variants[0].offers[0])).toBe(true)
    // One not taken (its page written elsewhere) is forgotten when its page is done.
    const elsewhere = { ...plan, note: "written elsewhere" }
    const elsewhereText = sealForHandOver(elsewhere)
    forgetHandOver(elsewhereText)
    expect(takeHandedOver(elsewhereText)).not.toBe(elsewhere)
    // A text sealed elsewhere and parsed here (a queued page's plan) is handed over with its parse.
    const queuedText = seal({ ...plan, note: "queued and parsed" })
    const parsed = unseal(queuedText)
    expect(handOver(queuedText, parsed)).toBe(queuedText)
    expect(Object.isFrozen(parsed)).toBe(true)
    expect(takeHandedOver(queuedText)).toBe(parsed)
    // Text sealed elsewhere (a page queued by another instance) is parsed.
    expect(takeHandedOver(seal({ ...plan, note: "queued" }))).toEqual({ ...plan, note: "queued" })
    // Only the last HANDED_MAX wait for their reader: older ones are parsed when read.
    const values = Array.from({ length: HANDED_MAX + 1 }, (_, i) => ({ ...plan, note: `page ${i}` }))
    const texts = values.map((v) => sealForHandOver(v))
    expect(takeHandedOver(texts[0])).not.toBe(values[0])
    expect(takeHandedOver(texts[0])).toEqual(values[0])
    for (let i = 1; i <= HANDED_MAX; i++) expect(takeHandedOver(texts[i])).toBe(values[i])
  })
  it("gives peek's readers the very value sealShared sealed, frozen, without parsing it", () => {
    const value = { ...plan, note: "sealed shared", nested: { list: [{ a: 1 }] } }
    const sealed = sealShared(value)
    expect(sealed).toBe(seal(value))
    expect(peek(sealed)).toBe(value)
    // The sealer gave it up: frozen all the way down, so no reader changes it for the others.
    expect(Object.isFrozen(value.nested.list[0])).toBe(true)
    expect(() => {
      ;(value.nested.list[0] as { a: number }).a = 2
    }).toThrow(TypeError)
    // A step's copy of the text (the engine's) is the same read.
    expect(peek(parseStringifyIfNecessary({ s: sealed }).s)).toBe(value)
    // Text over the bound is not kept: its readers parse it, as with peek.
    const big = { text: "x".repeat(SHARED_CHARS_MAX + 1) }
    const bigSealed = sealShared(big)
    expect(Object.isFrozen(big)).toBe(false)
    expect(peek(bigSealed)).not.toBe(big)
    expect(peek(bigSealed)).toEqual(big)
  })
  it("drops every shared value when a page is done: the next read of the text parses it again", () => {
    const value = { ...plan, note: "released" }
    const sealed = sealShared(value)
    const read = peek(seal({ ...plan, note: "read once" }))
    expect(peek(sealed)).toBe(value)
    releaseShared()
    expect(peek(sealed)).not.toBe(value)
    expect(peek(sealed)).toEqual(value)
    expect(peek(seal({ ...plan, note: "read once" }))).not.toBe(read)
  })
})

// Sealed workflow data: what the page workflow relies on. Medusa's engine hands a string to a
// step as it is (no walk, no copy), and a sealed value comes back equal; a queued job of an
// earlier version carries its plan unsealed, and is read as it is.
import { parseStringifyIfNecessary } from "@medusajs/framework/utils"
import { createStep, createWorkflow, parallelize, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import {
  forgetHandOver,
  HANDED_MAX,
  heldCount,
  peek,
  releaseShared,
  seal,
  sealedText,
  sealForHandOver,
  sealShared,
  SHARED_CHARS_MAX,
  takeHandedOver,
  unseal,
  unsealedValue,
  withSealScope,
  type Sealed,
} from "../page/sealed"

const plan = { create: [{ catalogId: "7", input: { variants: [{ sizeKey: "M", offers: [[1, 2]] }] } }], update: [], note: 'ü " \\n' }

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
    expect(unsealedValue('"x"' as Sealed<string>)).toBe("x")
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
  it("hands the run's plan to its workflow in this process as it is, and as text to another process", () => {
    const value = { ...plan, note: "handed" }
    const sealed = sealForHandOver(value)
    // A handle, not the text: nothing is stringified for a page written here.
    expect(sealed).not.toBe(seal(value))
    expect(sealed.length).toBeLessThan(40)
    expect(() => JSON.parse(sealed)).toThrow()
    // The workflow engine's copy of its input passes the handle as it is: the reader gets the sealer's value, each time it reads it.
    expect(takeHandedOver(parseStringifyIfNecessary({ plan: sealed }).plan)).toBe(value)
    expect(takeHandedOver(sealed)).toBe(value)
    // Frozen when sealed: neither the sealer nor the reader changes what the other reads.
    expect(Object.isFrozen(value.create[0].input.variants[0].offers[0])).toBe(true)
    // Another instance's writer gets the text, equal; unseal gives its reader an own copy.
    expect(JSON.parse(sealedText(sealed))).toEqual(value)
    expect(unseal(sealed)).toEqual(value)
    expect(Object.isFrozen(unseal(sealed).create)).toBe(false)
    // Text sealed elsewhere (a page queued by another instance) is parsed, and stays text.
    const queued = seal({ ...plan, note: "queued" })
    expect(takeHandedOver(queued)).toEqual({ ...plan, note: "queued" })
    expect(sealedText(queued)).toBe(queued)
    // Done with: a later read is a bug, and says so instead of reading something else.
    forgetHandOver(sealed)
    expect(() => takeHandedOver(sealed)).toThrow(/read after its page was written/)
    // Held HANDED_MAX at most, oldest dropped first.
    const values = Array.from({ length: HANDED_MAX + 1 }, (_, i) => ({ ...plan, note: `page ${i}` }))
    const handles = values.map((v) => sealForHandOver(v))
    expect(() => takeHandedOver(handles[0])).toThrow(/read after its page was written/)
    for (let i = 1; i <= HANDED_MAX; i++) expect(takeHandedOver(handles[i])).toBe(values[i])
    handles.forEach((h) => forgetHandOver(h))
  })

  it("outside a page's scope, gives peek's readers the very value sealShared sealed as text, frozen, without parsing it", () => {
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

  it("inside a page's scope, seals as a handle held until the page is written, whatever other pages end meanwhile", async () => {
    const first = { ...plan, note: "page 1" }
    const second = { ...plan, note: "page 2" }
    let handle1 = "" as Sealed<typeof first>
    let handle2 = "" as Sealed<typeof second>
    let endSecond!: () => void
    const secondPage = withSealScope(async () => {
      handle2 = sealShared(second)
      await new Promise<void>((resolve) => (endSecond = resolve))
      return peek(handle2)
    })
    await withSealScope(async () => {
      await Promise.resolve()
      handle1 = sealShared(first)
      expect(handle1).not.toBe(seal(first))
      expect(peek(handle1)).toBe(first)
      expect(peek(parseStringifyIfNecessary({ s: handle1 }).s)).toBe(first)
      expect(Object.isFrozen(first.create[0].input.variants[0].offers[0])).toBe(true)
      // unseal: an own copy, equal.
      expect(unseal(handle1)).toEqual(first)
      expect(unseal(handle1)).not.toBe(first)
    })
    // The first page is done: its values go; the second page's stay until it is done.
    expect(() => peek(handle1)).toThrow(/read after its page was written/)
    expect(peek(handle2)).toBe(second)
    endSecond()
    expect(await secondPage).toBe(second)
    expect(() => peek(handle2)).toThrow(/read after its page was written/)
    expect(heldCount()).toBe(0)
  })

  it("keeps the scope through Medusa's workflow engine: its transforms and steps share the handles, released when the run ends", async () => {
    const read = async (input: { rows: Sealed<{ n: number }[]> }) => {
      const rows = peek(input.rows)
      return new StepResponse({ sum: rows.reduce((a, r) => a + r.n, 0), frozen: Object.isFrozen(rows[0]), handle: input.rows.charCodeAt(0) === 1 })
    }
    const readStep = createStep("sealed-spec-read", read)
    const readAgainStep = createStep("sealed-spec-read-again", read)
    const workflow = createWorkflow("sealed-spec-workflow", (input: { count: number }) => {
      const sealed = transform({ input }, ({ input }) => ({ rows: sealShared(Array.from({ length: input.count }, (_, i) => ({ n: i + 1 }))) }))
      const [a, b] = parallelize(readStep(sealed), readAgainStep(transform({ sealed }, ({ sealed }) => ({ rows: sealed.rows }))))
      return new WorkflowResponse(transform({ a, b }, ({ a, b }) => ({ a, b })))
    })
    const { result } = await withSealScope(() => workflow().run({ input: { count: 4 } }))
    expect(result).toEqual({ a: { sum: 10, frozen: true, handle: true }, b: { sum: 10, frozen: true, handle: true } })
    expect(heldCount()).toBe(0)
    // Run outside a scope (directly), the same workflow seals text and reads the same.
    const direct = await workflow().run({ input: { count: 3 } })
    expect(direct.result).toEqual({ a: { sum: 6, frozen: true, handle: false }, b: { sum: 6, frozen: true, handle: false } })
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

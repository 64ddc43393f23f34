// Sealed workflow data: what the page workflow relies on. Medusa's engine hands a string to a
// step as it is (no walk, no copy), and a sealed value comes back equal; a queued job of an
// earlier version carries its plan unsealed, and is read as it is.
import { parseStringifyIfNecessary } from "@medusajs/framework/utils"
import { seal, unseal, unsealedValue, type Sealed } from "../page/sealed"

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
})

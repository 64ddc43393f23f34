// A page's data is open in this process while its workflow runs, under its own key, and dropped
// when the run settles (failed or not), whatever other pages this process writes meanwhile.
import { openPage, withOpenPage, type PageToWrite } from "../page-context"

const page = (note: string) =>
  ({
    runId: note,
    plan: {
      create: [{ catalogId: "1" }],
      update: [{ catalogId: "2" }],
      stockOnly: [{ catalogId: "3" }],
      unchanged: [{ catalogId: "4" }],
      remove: [],
      rejected: [],
    },
  }) as unknown as PageToWrite

describe("the open page", () => {
  it("is the caller's own page, with its written products by catalog id, until its run settles", async () => {
    const toWrite = page("a")
    let key = ""
    await withOpenPage(toWrite, async (pageKey) => {
      key = pageKey
      const open = openPage(pageKey)
      // The plan itself, not a copy.
      expect(open.page).toBe(toWrite)
      expect([...open.planned.keys()]).toEqual(["1", "2", "3"])
      expect(open.planned.get("2")).toBe(toWrite.plan.update[0])
    })
    expect(() => openPage(key)).toThrow(/not open in this process/)
  })

  it("is dropped when the run fails, and pages open side by side keep their own data", async () => {
    let endSecond!: () => void
    let secondKey = ""
    const second = withOpenPage(page("b"), async (pageKey) => {
      secondKey = pageKey
      await new Promise<void>((resolve) => (endSecond = resolve))
      return openPage(pageKey).page.runId
    })
    let firstKey = ""
    await expect(
      withOpenPage(page("a"), async (pageKey) => {
        firstKey = pageKey
        expect(pageKey).not.toBe(secondKey)
        expect(openPage(pageKey).page.runId).toBe("a")
        throw new Error("write failed")
      })
    ).rejects.toThrow("write failed")
    expect(() => openPage(firstKey)).toThrow(/not open/)
    expect(openPage(secondKey).page.runId).toBe("b")
    endSecond()
    expect(await second).toBe("b")
    expect(() => openPage(secondKey)).toThrow(/not open/)
  })
})

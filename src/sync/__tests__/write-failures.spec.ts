import { classifyFailure, judgeFailures, needsProbe, runErrorText } from "../write-failures"

const dataError = (message: string) => Object.assign(new Error(message), { type: "invalid_data" })

describe("judgeFailures", () => {
  it("rejects products that failed on their data, even when nothing else was written", () => {
    const verdict = judgeFailures([{ catalogId: "7", error: dataError("Product variant with sku: A-1-2, already exists.") }], 0)
    expect(verdict).toEqual({ rejected: [{ id: "7", reason: "write failed: Product variant with sku: A-1-2, already exists." }] })
  })

  it("rejects any failure when other products of the page were written", () => {
    const verdict = judgeFailures([{ catalogId: "7", error: new Error("odd") }], 3)
    expect(verdict).toEqual({ rejected: [{ id: "7", reason: "write failed: odd" }] })
  })

  it("fails the page when nothing was written and no failure blames the data", () => {
    const down = new Error("Connection terminated")
    expect(
      judgeFailures(
        [
          { catalogId: "7", error: down },
          { catalogId: "8", error: new Error("x") },
        ],
        0
      )
    ).toEqual({ fatal: down })
  })

  it("has nothing to reject without failures", () => {
    expect(judgeFailures([], 0)).toEqual({ rejected: [] })
  })
})

describe("classifyFailure: by cause, wherever the cause is wrapped", () => {
  // What MikroORM throws for a pg error: the pg fields copied onto a DriverException, its
  // message the statement (with the product's data) and PostgreSQL's text.
  const pgError = (code: string, message: string) =>
    Object.assign(new Error(`insert into "product" ("title") values ('Shoe\\u0000') - ${message}`), { name: "DriverException", code, severity: "ERROR" })
  // What a workflow's run() throws: the step's error serialised (own fields kept, prototype lost).
  const serialised = (e: Error) => ({ ...Object.fromEntries(Object.getOwnPropertyNames(e).map((k) => [k, (e as any)[k]])) })

  it.each([
    ["NUL in text (22P05)", pgError("22P05", "unsupported Unicode escape sequence")],
    ["invalid byte sequence (22021)", pgError("22021", 'invalid byte sequence for encoding "UTF8": 0x00')],
    ["too long (22001)", pgError("22001", "value too long for type character varying(255)")],
    ["numeric overflow (22003)", pgError("22003", "numeric field overflow")],
    ["unique violation (23505)", pgError("23505", 'duplicate key value violates unique constraint "IDX_x"')],
    ["index row too large (54000)", pgError("54000", "index row size 3000 exceeds btree version 4 maximum 2704")],
    ["a MedusaError of a data type", dataError("Variant options are required")],
  ])("%s blames the product", (_what, error) => {
    expect(classifyFailure(error)).toBe("product")
    expect(classifyFailure(serialised(error))).toBe("product")
    expect(classifyFailure({ message: "step failed", cause: error })).toBe("product")
    expect(classifyFailure(Object.assign(new Error("wrapped"), { previousErrors: [serialised(error)] }))).toBe("product")
  })

  it.each([
    ["connection refused", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })],
    ["connection reset", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })],
    ["connection terminated (no code)", new Error("Connection terminated unexpectedly")],
    ["admin shutdown (57P01)", pgError("57P01", "terminating connection due to administrator command")],
    ["disk full (53100)", pgError("53100", "could not extend file: No space left on device")],
    ["out of memory (53200)", pgError("53200", "out of memory")],
    ["deadlock (40P01)", pgError("40P01", "deadlock detected")],
    ["serialization (40001)", pgError("40001", "could not serialize access")],
    ["missing table (42P01)", pgError("42P01", 'relation "product" does not exist')],
    ["knex pool timeout", new Error("Knex: Timeout acquiring a connection. The pool is probably full.")],
    // node-postgres and knex on a busy machine: no code at all, only the message or the name.
    ["pg pool connect timeout", new Error("timeout exceeded when trying to connect")],
    ["pg client closed", new Error("Client was closed and is not queryable")],
    ["pg query read timeout", new Error("Query read timeout")],
    ["knex timeout by name", Object.assign(new Error("Timeout"), { name: "KnexTimeoutError" })],
    // Five-letter Node codes look like a SQLSTATE by shape; they must still count as the system's.
    ["broken pipe (EPIPE)", Object.assign(new Error("write EPIPE"), { code: "EPIPE" })],
    ["too many open files (EMFILE)", Object.assign(new Error("connect EMFILE 127.0.0.1:5432 - Local (undefined:undefined)"), { code: "EMFILE" })],
  ])("%s blames the system", (_what, error) => {
    expect(classifyFailure(error)).toBe("system")
    expect(classifyFailure({ message: "step failed", cause: serialised(error) })).toBe("system")
  })

  it("a broken pipe after other products were written fails the page instead of skipping the product", () => {
    const broken = Object.assign(new Error("write EPIPE"), { code: "EPIPE" })
    expect(judgeFailures([{ catalogId: "7", error: broken }], 3)).toEqual({ fatal: broken })
  })

  it("a system cause anywhere in the chain wins over a data type on the wrapper", () => {
    const down = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })
    expect(classifyFailure(Object.assign(dataError("could not save"), { cause: down }))).toBe("system")
  })

  it("an error with nothing to go by is unknown", () => {
    expect(classifyFailure(new Error("odd"))).toBe("unknown")
    expect(classifyFailure("odd")).toBe("unknown")
    expect(classifyFailure(null)).toBe("unknown")
  })
})

describe("judgeFailures: containment", () => {
  const nul = Object.assign(new Error(`insert into "product" ("title") values ('A\\u0000') - unsupported Unicode escape sequence`), { code: "22P05" })

  it("a product the database refuses is rejected even when it is alone on its page, with a plain reason", () => {
    const verdict = judgeFailures([{ catalogId: "9223372036854775807", error: nul }], 0)
    expect(verdict).toEqual({ rejected: [{ id: "9223372036854775807", reason: "write failed: the database refused the product's data (invalid text)" }] })
  })

  it("never puts SQL or the product's data in the reason", () => {
    const sqlOnly = new Error(`insert into "product_variant" ("sku") values ('SECRET-SKU') - something odd`)
    const verdict = judgeFailures([{ catalogId: "7", error: sqlOnly }], 1) as { rejected: { reason: string }[] }
    expect(verdict.rejected[0].reason).not.toMatch(/insert|SECRET/i)
    expect(verdict.rejected[0].reason).toMatch(/^write failed: /)
  })

  it("a system failure fails the page even when other products were written", () => {
    const down = new Error("Connection terminated unexpectedly")
    expect(
      judgeFailures(
        [
          { catalogId: "7", error: nul },
          { catalogId: "8", error: down },
        ],
        5
      )
    ).toEqual({ fatal: down })
  })

  it("an unknown failure with nothing written is the product's when the database answers a probe", () => {
    const odd = new Error("odd")
    expect(needsProbe([{ catalogId: "7", error: odd }], 0)).toBe(true)
    expect(needsProbe([{ catalogId: "7", error: odd }], 1)).toBe(false)
    expect(needsProbe([{ catalogId: "7", error: nul }], 0)).toBe(false)
    expect(judgeFailures([{ catalogId: "7", error: odd }], 0, true)).toEqual({ rejected: [{ id: "7", reason: "write failed: odd" }] })
    expect(judgeFailures([{ catalogId: "7", error: odd }], 0, false)).toEqual({ fatal: odd })
  })

  it("reasons are cleaned so the run record can be saved", () => {
    const verdict = judgeFailures([{ catalogId: "7", error: dataError("bad \u0000name\uD800") }], 0) as { rejected: { reason: string }[] }
    expect(verdict.rejected[0].reason).toBe("write failed: bad name")
  })
})

describe("the shape a real failing write throws", () => {
  // Seen from the plugin's former create workflow in a real app (hostile catalog spec): the step's
  // MikroORM DriverException, serialised by the workflow orchestrator into a plain object with
  // the pg fields on top and the whole statement, with the product's data, as its message.
  const real = {
    message: `insert into "product" ("id", "title", "handle") values ('prod_01', 'Shoe', 'k3j9…') returning "id" - index row size 6032 exceeds btree version 4 maximum 2704 for index "IDX_product_handle_unique"`,
    name: "DriverException",
    stack: "DriverException: …",
    code: "54000",
    severity: "ERROR",
    table: "product",
    routine: "_bt_check_third_page",
  }

  it("is the product's, alone on its page, and its reason quotes neither the SQL nor the data", () => {
    expect(classifyFailure(real)).toBe("product")
    expect(judgeFailures([{ catalogId: "8000000000000000905", error: real }], 0)).toEqual({
      rejected: [{ id: "8000000000000000905", reason: "write failed: the database refused the product's data (a value is too large)" }],
    })
  })
})

describe("runErrorText: what a failed run stores and logs", () => {
  // A deadlock met while writing a page: a system failure, so the run fails with it, and
  // MikroORM's message quotes the statement with the product's data.
  const deadlock = () =>
    Object.assign(new Error(`insert into "product" ("title", "handle") values ('Secret Shoe', 'secret-shoe') - deadlock detected`), {
      name: "DeadlockException",
      code: "40P01",
    })

  it("never stores the SQL or the product's data of a system failure met during a write", () => {
    const text = runErrorText(deadlock())
    expect(text).not.toMatch(/insert into|Secret Shoe|secret-shoe/i)
    expect(text).toBe("the database failed during the write (SQLSTATE 40P01)")
  })

  it("keeps them out of the logged stack too", () => {
    const text = runErrorText(deadlock(), { withStack: true })
    expect(text).not.toMatch(/insert into|Secret Shoe|secret-shoe/i)
    expect(text).toMatch(/at /) // the stack frames are still there
  })

  it("keeps any other message, cleaned and cut", () => {
    expect(runErrorText(new Error("catalog answered 500"))).toBe("catalog answered 500")
    expect(runErrorText(new Error("bad\u0000byte"))).toBe("badbyte")
    expect(runErrorText(new Error("x".repeat(3000)))).toHaveLength(2001)
    expect(runErrorText({ code: "x" })).toBe('{"code":"x"}')
  })
})

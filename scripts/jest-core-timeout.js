// The core project's default test and hook timeout: 30 s instead of jest's 5 s, so a busy
// machine (3 to 4 times slower) does not fail the sandbox specs' catalog-building hooks.
// A spec's own jest.setTimeout still wins.
jest.setTimeout(30_000)

// Loaded into a test app with --require (NODE_OPTIONS refuses V8's tracing flags): V8 prints
// each old-generation limit it sets with its factor (--trace-gc-verbose), and a full collection
// every second makes it set one, so the test sees the factor in force at any time.
const v8 = require("node:v8")
v8.setFlagsFromString("--trace-gc-verbose")
v8.setFlagsFromString("--expose-gc")
const gc = require("node:vm").runInNewContext("gc")
setInterval(() => gc(), 1000).unref()

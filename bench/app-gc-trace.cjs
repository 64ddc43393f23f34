// Loaded into the memory bench's app process with --require: Node refuses --trace-gc in
// NODE_OPTIONS, so it is set here, before the app starts. V8 then prints one line per
// collection; bench/gc-trace.ts reads the full collections back from the app's log.
require("node:v8").setFlagsFromString("--trace-gc")

// --require hook (bench/workflows-profile.ts): a CPU profile of this process, written to $CPU_PROF_DIR on SIGUSR2 or at exit.
const inspector = require("node:inspector")
const fs = require("node:fs")
const dir = process.env.CPU_PROF_DIR
if (dir) {
  const session = new inspector.Session()
  session.connect()
  session.post("Profiler.enable", () => session.post("Profiler.setSamplingInterval", { interval: 1000 }, () => session.post("Profiler.start")))
  let done = false
  const write = () => {
    if (done) return
    done = true
    session.post("Profiler.stop", (err, { profile } = {}) => {
      if (!err && profile) fs.writeFileSync(`${dir}/cpu-${process.pid}.cpuprofile`, JSON.stringify(profile))
    })
  }
  process.on("SIGUSR2", write)
  process.on("exit", write)
}

// The order jest hands spec files to its workers: the longest first, by the times a whole run
// measured (integration-tests/spec-times.json, written by `node scripts/report-test-times.js`
// from a run's results), so the pass does not end on one worker running a long file while the
// other waits. Jest's own order needs its timing cache, which a clean clone (CI) does not have;
// it falls back to file size. A file not in the list (new) goes first: its time is not known.
const path = require("path")
const fs = require("fs")
const Sequencer = require("@jest/test-sequencer").default

const TIMES_FILE = path.join(__dirname, "..", "spec-times.json")

function measuredTimes() {
  try {
    return JSON.parse(fs.readFileSync(TIMES_FILE, "utf8"))
  } catch {
    return {}
  }
}

class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    const times = measuredTimes()
    const root = path.join(__dirname, "..", "..")
    const timeOf = (test) => times[path.relative(root, test.path).split(path.sep).join("/")]
    return [...tests].sort((a, b) => {
      const ta = timeOf(a)
      const tb = timeOf(b)
      if ((ta === undefined) !== (tb === undefined)) return ta === undefined ? -1 : 1
      if (ta !== undefined && tb !== undefined && ta !== tb) return tb - ta
      return a.path.localeCompare(b.path)
    })
  }
}

module.exports = LongestFirstSequencer

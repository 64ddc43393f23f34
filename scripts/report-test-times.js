// Prints the slowest test files of a run and writes every file's time and when it ran to artifacts/.
// Usage: node scripts/report-test-times.js <directory of jest --json results>
const fs = require("fs"), path = require("path");
const dir = process.argv[2];
const suites = [];
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
  const r = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
  for (const s of r.testResults) suites.push([(s.endTime - s.startTime) / 1000, path.relative(process.cwd(), s.name), s.startTime, s.endTime, f.replace(/\.json$/, "")]);
}
suites.sort((a, b) => b[0] - a[0]);
// Every file and its time, to compare two runs file by file (artifacts/ is not committed).
fs.mkdirSync("artifacts", { recursive: true });
fs.writeFileSync("artifacts/test-file-times.txt", suites.map(([secs, name]) => `${secs.toFixed(1)}\t${name}`).join("\n") + "\n");
// When each file started and ended, in seconds from the first file's start, by pass: where a pass
// waited, ran one file at its end, or overlapped another.
const first = Math.min(...suites.map((s) => s[2]));
const timeline = [...suites].sort((a, b) => a[2] - b[2]).map(([secs, name, start, end, pass]) => `${((start - first) / 1000).toFixed(0)}\t${((end - first) / 1000).toFixed(0)}\t${pass}\t${name}`);
fs.writeFileSync("artifacts/test-file-timeline.txt", "start\tend\tpass\tfile\n" + timeline.join("\n") + "\n");
console.log("=== slowest test files (all of them: artifacts/test-file-times.txt; when each ran: artifacts/test-file-timeline.txt)");
for (const [secs, name] of suites.slice(0, 15)) console.log(`${secs.toFixed(0).padStart(6)} s  ${name}`);

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
// The same as JSON in the form the test sequencer reads (integration-tests/harness/longest-first-sequencer.js):
// copied over integration-tests/spec-times.json when the order should follow a newer run.
fs.writeFileSync("artifacts/spec-times.json", JSON.stringify(Object.fromEntries([...suites].sort((a, b) => a[1].localeCompare(b[1])).map(([secs, name]) => [name, Math.round(secs)])), null, 1) + "\n");
// When each file started and ended, in seconds from the first file's start, by pass: where a pass
// waited, ran one file at its end, or overlapped another.
const first = Math.min(...suites.map((s) => s[2]));
const timeline = [...suites].sort((a, b) => a[2] - b[2]).map(([secs, name, start, end, pass]) => `${((start - first) / 1000).toFixed(0)}\t${((end - first) / 1000).toFixed(0)}\t${pass}\t${name}`);
fs.writeFileSync("artifacts/test-file-timeline.txt", "start\tend\tpass\tfile\n" + timeline.join("\n") + "\n");
console.log("=== slowest test files (all of them: artifacts/test-file-times.txt; when each ran: artifacts/test-file-timeline.txt)");
for (const [secs, name] of suites.slice(0, 15)) console.log(`${secs.toFixed(0).padStart(6)} s  ${name}`);

// What the Medusa processes of the run cost in CPU (integration-tests/harness/app-cpu.ts writes
// one line per app or command): the suite is bound by CPU, so this, not a file's wall time beside
// others, says where a cut would shorten it.
const cpuFile = "artifacts/app-cpu.tsv";
if (fs.existsSync(cpuFile)) {
  const bySpec = new Map();
  let boots = 0, bootCpu = 0, totalCpu = 0;
  for (const line of fs.readFileSync(cpuFile, "utf8").split("\n").filter(Boolean)) {
    const [spec, what, boot, total] = line.split("\t");
    const s = bySpec.get(spec) ?? { processes: 0, boot: 0, total: 0 };
    s.processes += 1;
    s.boot += Number(boot) || 0;
    s.total += Number(total) || 0;
    bySpec.set(spec, s);
    if (what.startsWith("app ") || what.startsWith("admin app ")) { boots += 1; bootCpu += Number(boot) || 0; }
    totalCpu += Number(total) || 0;
  }
  console.log(`=== CPU of the Medusa processes: ${totalCpu.toFixed(0)} s in all; ${boots} app boot${boots === 1 ? "" : "s"} took ${bootCpu.toFixed(0)} s of it (all of them: ${cpuFile})`);
  for (const [spec, s] of [...bySpec].sort((a, b) => b[1].total - a[1].total).slice(0, 15)) {
    console.log(`${s.total.toFixed(0).padStart(6)} s  ${spec} (${s.processes} process${s.processes === 1 ? "" : "es"}, boots ${s.boot.toFixed(0)} s)`);
  }
}

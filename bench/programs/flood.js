// Debuggee for bench/node_output.py: prints `count` numbered lines, by console.log or by process.stdout.write.

const count = Number(process.argv[2] || 50000);
const how = process.argv[3] || "log";
if (how === "log") {
    for (let i = 0; i < count; i++) console.log(`line ${i}`);
} else {
    for (let i = 0; i < count; i++) process.stdout.write(`line ${i}\n`);
}

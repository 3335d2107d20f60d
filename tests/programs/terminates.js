// Runs until a signal: SIGTERM's handler says how far it got and exits with code 3 (for `stop {signal}`).
let ticks = 0;
process.on("SIGTERM", () => {
    console.log(`cleaned up after ${ticks} ticks`); // marker: handler
    process.exit(3);
});
setInterval(() => {
    ticks += 1; // marker: tick
}, 10);

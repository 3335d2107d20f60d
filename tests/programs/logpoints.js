// A logpoint in the main thread and in a worker thread (tests/e2e/test_node_output.py).
const { Worker, isMainThread, workerData } = require("node:worker_threads");

function tick(who, i) {
    return i + 1; // marker: tick
}

if (isMainThread) {
    for (let i = 0; i < 3; i++) {
        console.log(`main prints ${i}`);
        tick("main", i);
    }
    new Worker(__filename, { workerData: "worker" });
} else {
    for (let i = 0; i < 2; i++) tick(workerData, i);
}

// A main thread and a worker thread that runs a file of its own (tests/e2e/test_node_behaviour.py): a breakpoint
// in the worker's file binds only in the worker, and the worker is named by its file.
const path = require("node:path");
const { Worker } = require("node:worker_threads");

const worker = new Worker(path.join(__dirname, "worker_notes_worker.js"), { workerData: 3 });
worker.on("message", (square) => {
    const shown = `square ${square}`; // marker: message
    console.log(shown);
});

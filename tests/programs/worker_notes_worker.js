// The worker of worker_notes.js: posts the squares below its workerData.
const { parentPort, workerData } = require("node:worker_threads");

for (let i = 0; i < workerData; i++) {
    const square = i * i; // marker: square
    parentPort.postMessage(square);
}

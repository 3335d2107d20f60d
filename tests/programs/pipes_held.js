// Its process ends while a process it started holds its pipes on (4 s): js-debug reports the end of the program's
// target before its process's end is known, as under load for Jest's main process closing its workers.
const { spawn } = require("child_process");

spawn("sleep", ["4"], { stdio: "inherit", detached: true }).unref();
console.log("leaving with code 3");
process.exitCode = 3;

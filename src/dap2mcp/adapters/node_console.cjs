// Loaded into a Node program dap2mcp launches (`node --require`, so in its worker threads and forked children
// too): the global console writes to stdout and stderr as it does with no debugger, and no longer also hands
// every call to the inspector. With a debugger connected, Node sends each console call to V8's console as
// well, which captures its stack and sends it to js-debug as an event: ten times the cost of the write, for
// events dap2mcp does not read (it reads the program's output from its pipes, js-debug's `outputCapture` is
// `std`). A logpoint is a `console.log` call, so its message is printed as the program prints.
"use strict";
const { Console } = require("node:console");

const direct = new Console({ stdout: process.stdout, stderr: process.stderr });
for (const [name, method] of Object.entries(direct)) {
    // only what Node's console does itself; profile, timeStamp and the like are the inspector's alone
    if (typeof method === "function" && typeof console[name] === "function") console[name] = method;
}

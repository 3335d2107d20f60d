// The official TypeScript MCP SDK's client, the one most agents' hosts are built on, driven line by line
// by bench/step_latency.py (variant `mcp-node`). It talks to `dap2mcp serve` over stdio, lists the tools
// (so the SDK compiles each output schema with ajv and checks every result against it, as it does for an
// agent), then for each line read: `debug <json arguments>`, `step` or `stop`, it makes the call and
// prints one JSON line: how long the call took in ms, from the call to the checked result, and the result.
//
// Run:  node bench/node_client.mjs SDK_DIR PYTHON   (SDK_DIR: .../node_modules/@modelcontextprotocol/sdk)

import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const [sdkDir, python] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(`${sdkDir}/dist/esm/${path}`).href);
const { Client } = await load("client/index.js");
const { StdioClientTransport } = await load("client/stdio.js");

const client = new Client({ name: "dap2mcp-bench-node", version: "0" });
await client.connect(new StdioClientTransport({ command: python, args: ["-m", "dap2mcp", "serve"], env: process.env }));
await client.listTools();

const calls = { debug: (args) => client.callTool({ name: "debug", arguments: args }),
                step: () => client.callTool({ name: "step", arguments: { mode: "over" } }),
                stop: () => client.callTool({ name: "stop", arguments: {} }) };

for await (const line of createInterface({ input: process.stdin })) {
  const space = line.indexOf(" ");
  const [name, rest] = space < 0 ? [line, ""] : [line.slice(0, space), line.slice(space + 1)];
  const started = performance.now();
  const result = await calls[name](rest ? JSON.parse(rest) : undefined);
  const ms = performance.now() - started;
  process.stdout.write(JSON.stringify({ ms, result: result.structuredContent }) + "\n");
  if (name === "stop") break;
}
await client.close();

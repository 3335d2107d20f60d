'use strict';
// Preloaded (`node --require`) into a Node test run under dap2mcp (`debug` mode `test`), and into each test file's
// own process. Test runners catch a failing test's error to report it and run the next test, so no exception is
// ever uncaught, and stopping at caught ones would stop at every expected throw (`assert.throws`). This file has
// each runner call `failed` where the runner records a test's failure, once per failed test; dap2mcp's hidden
// breakpoint on the line marked below is the stop, and what it reads there is `failure`: the error's message and
// the test's own frame (the place in the error's stack that is not the runner's, Node's or a library's).
//
// A runner is recognised by the object that has its failure method; each entry says how to
// find the failed test's error among the method's arguments, and which calls fail no test of their own (node:test
// fails a parent test again for its failed subtests, and a test its parent's failure cancelled).

const { pathToFileURL } = require('node:url');

const RUNNERS = [
  {
    name: 'node:test', // internal/test_runner/test's Test (with --expose-internals, which dap2mcp passes)
    recognise: (exports) => exports && typeof exports.Test === 'function' && exports.Test.prototype.fail
      && typeof exports.Test.prototype.processPendingSubtests === 'function' ? exports.Test.prototype : null,
    method: 'fail',
    error: (test, [err]) => (test.error === null ? err && err.failureType !== undefined && err.cause !== undefined ? err.cause : err : null),
    ignored: (test, [err]) => test.error !== null || ['cancelledByParent', 'subtestsFailed'].includes(err && err.failureType),
    title: (test) => test.name,
  },
  {
    name: 'mocha', // lib/runner.js's Runner
    recognise: (exports) => typeof exports === 'function' && exports.prototype && typeof exports.prototype.fail === 'function'
      && exports.constants && exports.constants.EVENT_TEST_FAIL ? exports.prototype : null,
    method: 'fail',
    error: (runner, [, err]) => err,
    ignored: (runner, [test]) => Boolean(test && typeof test.isPending === 'function' && test.isPending()),
    title: (runner, [test]) => (test && typeof test.fullTitle === 'function' ? test.fullTitle() : undefined),
  },
];

const LIBRARY = /^node:|^internal\/|[\\/]node_modules[\\/]|^(?:native|<anonymous>)/;
const FRAME = /^\s*at (?:(?<fn>.*?) \()?(?<file>(?:file:\/\/)?[^()]*?):(?<line>\d+):(?<column>\d+)\)?$/;

/** The first frame of the error's stack in the project's code: where the failing assertion (or throw) is. */
function ownFrame(error) {
  const stack = error && typeof error.stack === 'string' ? error.stack : '';
  for (const text of stack.split('\n')) {
    const found = FRAME.exec(text);
    if (found && !LIBRARY.test(found.groups.file) && found.groups.file !== __filename) {
      const file = found.groups.file.replace(/^file:\/\//, '');
      return { file, line: Number(found.groups.line), column: Number(found.groups.column), function: found.groups.fn || null };
    }
  }
  return null;
}

/** What a failed test's error says: its first line as the runner prints it (`AssertionError [ERR_ASSERTION]: ...`). */
function said(error) {
  if (error instanceof Error) {
    const head = `${error.name}${error.code ? ` [${error.code}]` : ''}`;
    return error.message ? `${head}: ${error.message}` : head;
  }
  return `thrown: ${String(error)}`;
}

/** Where dap2mcp stops: a test failed. `failure` is what dap2mcp reads here; the runner goes on when resumed. */
function failed(runner, title, error) {
  const failure = JSON.stringify({ runner, test: title, message: said(error), frame: ownFrame(error) });
  return failure; // dap2mcp: test failure stop
}

function hook(proto, runner) {
  const original = proto[runner.method];
  if (original.dap2mcpHooked) return;
  const wrapped = function (...args) {
    if (!runner.ignored(this, args)) {
      const error = runner.error(this, args);
      if (error !== null && error !== undefined) failed(runner.name, runner.title(this, args), error);
    }
    return original.apply(this, args);
  };
  wrapped.dap2mcpHooked = true;
  proto[runner.method] = wrapped;
}

function recognise(exports) {
  for (const runner of RUNNERS) {
    let proto = null;
    try {
      proto = runner.recognise(exports);
    } catch {
      proto = null;
    }
    if (proto) hook(proto, runner);
  }
}

const runnerModule = process.env.DAP2MCP_TEST_RUNNER_MODULE;
if (runnerModule) {
  // the runner's file with its failure method, as its command line will load it (a module is loaded once, and
  // mocha 12 is an ES module, out of reach of a require hook), patched before any test has run
  import(pathToFileURL(runnerModule).href).then((exports) => Object.values(exports).forEach(recognise), () => {});
} else {
  try {
    recognise(require('internal/test_runner/test')); // node:test's, with --expose-internals
  } catch {
    // Node without --expose-internals: not a test run of node:test
  }
}

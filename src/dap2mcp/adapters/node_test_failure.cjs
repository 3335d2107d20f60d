'use strict';
// Preloaded (`node --require`) into a Node test run under dap2mcp (`debug` mode `test`), and into each test file's
// own process (a worker). Test runners catch a failing test's error to report it and run the next test, so no
// exception is ever uncaught, and stopping at caught ones would stop at every expected throw (`assert.throws`,
// `expect(f).toThrow()`). This file has each runner call `failed` where the runner records a test's failure, once
// per failed test; dap2mcp's hidden breakpoint on the line marked below is the stop, and what it reads there is
// `failure`: the error's message and the test's own frame (the place in the error's stack that is not the
// runner's, Node's or a library's).
//
// A runner is recognised by the object that has its failure method, among the exports of the file
// DAP2MCP_TEST_RUNNER_MODULE names (mocha's, Vitest's) or of Node's own module (node:test's); each entry says how
// to find the failed test's error among the method's arguments, and which calls fail no test of their own
// (node:test fails a parent test again for its failed subtests, and a test its parent's failure cancelled). Jest
// runs its tests in a vm sandbox of its own, out of reach; its entry in WATCHED hooks its test framework
// (jest-circus) as Node loads it, outside the sandbox, where it is handed each test file's environment.

const Module = require('node:module');
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
  {
    name: 'vitest', // its TestRunner (Vitest 5: `vitest`'s export; VitestTestRunner of `vitest/runners` before),
    // whose onAfterRunTask it calls once a test has run, retries and hooks included; the error is the one the
    // runner recorded, made plain for the main process (its `actual` and `expected` as text)
    recognise: (exports) => typeof exports === 'function' && exports.prototype
      && typeof exports.prototype.onAfterRunTask === 'function' && typeof exports.prototype.importFile === 'function'
      ? exports.prototype : null,
    method: 'onAfterRunTask',
    error: (runner, [test]) => (test && test.result && test.result.state === 'fail' && test.result.errors
      ? test.result.errors[0] : null),
    ignored: (runner, [test]) => !test || test.type !== 'test',
    title: (runner, [test]) => fullName(test, (task) => task.suite || (task.file !== task ? task.file : null),
      (task) => typeof task.filepath !== 'string'), // a file's task has its path
  },
];

/** A test's name after its suites' (`invoice totals its lines`), as the runners print it. */
function fullName(test, parentOf, named) {
  const names = [];
  for (let task = test; task && named(task); task = parentOf(task)) names.unshift(task.name);
  return names.length ? names.join(' ') : test && test.name;
}

/** Runners reached as Node loads a file of theirs: `file` is its path, `hook` patches its exports. */
const WATCHED = [
  {
    name: 'jest',
    // jest-circus's adapter (`testRunner`, jest-runner's `testFramework`), called with each test file's
    // environment, whose `handleTestEvent` circus calls with every event of the run; `test_done` comes once per
    // test, with every error it recorded (the test's, its hooks', expect.assertions') as [error, asyncError]
    file: /[\\/]jest-circus[\\/](?:runner\.js|build[\\/](?:runner|legacy-code-todo-rewrite[\\/]jestAdapter)\.js)$/,
    hook(exports) {
      const holder = exports && typeof exports.default === 'function' ? exports : null;
      if (!holder || holder.default.dap2mcpHooked) return;
      const adapter = holder.default;
      const wrapped = function (globalConfig, config, environment, ...rest) {
        if (environment && !environment.dap2mcpHooked) {
          const own = environment.handleTestEvent;
          environment.handleTestEvent = function (event, state) {
            if (event && event.name === 'test_done' && event.test && event.test.errors.length > 0) {
              const [error, asyncError] = [].concat(event.test.errors[0]);
              const thrown = error && (typeof error.stack === 'string' || error.message) ? error : asyncError || error;
              failed('jest', fullName(event.test, (t) => t.parent, (t) => t.parent), thrown);
            }
            return own ? own.call(this, event, state) : undefined;
          };
          environment.dap2mcpHooked = true;
        }
        return adapter.call(this, globalConfig, config, environment, ...rest);
      };
      wrapped.dap2mcpHooked = true;
      holder.default = wrapped;
    },
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

const COLOUR = /\x1b\[[0-9;]*m/g;

/** What a failed test's error says, as the runner prints it (`AssertionError [ERR_ASSERTION]: ...`). An error of
 * another realm (Jest's sandbox) or made plain (Vitest's) is one too. */
function said(error) {
  const isError = error instanceof Error || Object.prototype.toString.call(error) === '[object Error]'
    || (error !== null && typeof error === 'object' && typeof error.message === 'string'
      && (typeof error.stack === 'string' || typeof error.name === 'string'));
  if (isError) {
    const head = `${error.name || 'Error'}${error.code ? ` [${error.code}]` : ''}`;
    return (error.message ? `${head}: ${error.message}` : head).replace(COLOUR, '');
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

// a file of a watched runner, hooked as Node loads it (CommonJS: jest-circus is); the check is one test of its path
const load = Module.prototype.load;
Module.prototype.load = function (filename, ...rest) {
  const result = load.call(this, filename, ...rest);
  for (const runner of WATCHED) {
    if (runner.file.test(filename)) {
      try {
        runner.hook(this.exports);
      } catch {
        // not the shape this hook knows: the run goes on without the stop
      }
    }
  }
  return result;
};

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

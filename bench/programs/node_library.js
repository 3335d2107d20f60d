// Calls into a library as real Node code does (commander, from the tests' npm packages): a step into it stops in a
// module whose closure holds the library's classes and helpers, the kind of stop trials on lodash measured at 24.8 KB.
const { Command } = require("commander");

const program = new Command();
program.option("-d, --debug", "output extra debugging"); // marker: option
program.parse(["node", "cli", "-d"]);
console.log(program.opts());

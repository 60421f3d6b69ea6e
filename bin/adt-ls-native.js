#!/usr/bin/env node
require("../index.js").runCli(process.argv.slice(2)).then((code) => { process.exitCode = code; });

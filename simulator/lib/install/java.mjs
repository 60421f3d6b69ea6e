#!/usr/bin/env node
// `java` of the adt-ls simulator's fake bundled JRE (SapMachine 21, as SAP's extension ships
// it). It answers `java -version` (banner on stderr) and `java --version` (on stdout) the way
// the real launcher does, exit 0, after the JVM's `Picked up JAVA_TOOL_OPTIONS: …` /
// `Picked up _JAVA_OPTIONS: …` lines when those variables are set. Nothing else runs:
// adt-ls-native never starts the JRE itself (adt-ls does, and the simulator's adt-ls is Node).

const JAVA_VERSION = '21.0.9';

const args = process.argv.slice(2);
for (const name of ['JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS']) {
  if (process.env[name]) process.stderr.write(`Picked up ${name}: ${process.env[name]}\n`);
}
const build = `${JAVA_VERSION}+10-LTS`;
if (args.length === 1 && args[0] === '-version') {
  process.stderr.write(`openjdk version "${JAVA_VERSION}" 2025-10-21 LTS\nOpenJDK Runtime Environment SapMachine (build ${build})\nOpenJDK 64-Bit Server VM SapMachine (build ${build}, mixed mode, sharing)\n`);
  process.exit(0);
}
if (args.length === 1 && args[0] === '--version') {
  process.stdout.write(`openjdk ${JAVA_VERSION} 2025-10-21 LTS\nOpenJDK Runtime Environment SapMachine (build ${build})\nOpenJDK 64-Bit Server VM SapMachine (build ${build}, mixed mode, sharing)\n`);
  process.exit(0);
}
process.stderr.write("Error: the adt-ls simulator's bundled JRE runs only `java -version`\n");
process.exit(1);

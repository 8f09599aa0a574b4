// Dolos (npm's @dodona/dolos-lib, installed by bench_similarity.sh into PEERS) on C++ files:
// prints "file_a TAB file_b TAB similarity" for every pair. With --ignore TEMPLATE, the fingerprints
// found in TEMPLATE (the handout's code) do not count, as Dolos's own --ignore does.
// usage: PEERS=build/peers node similarity_dolos.mjs [--ignore TEMPLATE] FILE...
import path from "node:path";
import { pathToFileURL } from "node:url";

const peers = process.env.PEERS || "build/peers";
const lib = path.resolve(peers, "node_modules/@dodona/dolos-lib/dist/index.js");
const { Dolos } = await import(pathToFileURL(lib).href);

let args = process.argv.slice(2);
let ignore;
if (args[0] === "--ignore") {
  ignore = args[1];
  args = args.slice(2);
}
const report = await new Dolos({ language: "cpp" }).analyzePaths(args, ignore);
for (const pair of report.allPairs()) {
  console.log([pair.leftFile.path, pair.rightFile.path, pair.similarity].join("\t"));
}

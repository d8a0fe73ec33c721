// precompress.mjs writes FILE.br (brotli, quality 11) and FILE.gz (gzip, level 9) beside each file
// named, for servers that send a precompressed file as is: serve/ (the dev server), nginx's
// brotli_static and gzip_static, Caddy's precompressed. `make build` runs it on the wasm.
//
//   node scripts/precompress.mjs web/ragjudge.wasm
//
// The encoder is Node's zlib (brotliCompressSync, gzipSync): Node is already required to build
// and test, it runs only here at build time, and nothing of it reaches the wasm. Both outputs are
// deterministic (zlib writes no file name or time into the gzip header), so a rebuild of the same
// wasm gives the same bytes and the same ETags.
//
// Each output gets the modification time of its source: serve/ sends a precompressed file only
// when the two times are equal, so one left over from an older build is never sent. `go build`
// rewrites the wasm on every `make build`, so an output whose content still matches is kept and
// only its time is set (quality 11 takes seconds).

import { readFileSync, writeFileSync, renameSync, statSync, utimesSync, existsSync } from "node:fs";
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync, constants } from "node:zlib";

const files = process.argv.slice(2);
if (!files.length) {
  console.error("usage: node scripts/precompress.mjs FILE...");
  process.exit(2);
}

const codings = [
  {
    ext: ".br",
    encode: (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } }),
    decode: (b) => brotliDecompressSync(b),
  },
  { ext: ".gz", encode: (b) => gzipSync(b, { level: 9 }), decode: (b) => gunzipSync(b) },
];

for (const file of files) {
  const src = readFileSync(file);
  const { atime, mtime } = statSync(file);
  // Node sets times through a double of seconds, which rounds: the source is given the same
  // rounded time as its outputs, so that the times are equal to the nanosecond.
  utimesSync(file, atime, mtime);
  for (const c of codings) {
    const out = file + c.ext;
    let same = false;
    if (existsSync(out)) {
      try {
        same = c.decode(readFileSync(out)).equals(src);
      } catch {
        same = false; // unreadable: write it again
      }
    }
    if (!same) {
      const tmp = out + ".tmp";
      writeFileSync(tmp, c.encode(src));
      renameSync(tmp, out);
    }
    utimesSync(out, atime, mtime);
    console.log(`${out}: ${statSync(out).size} bytes${same ? " (unchanged)" : ""}`);
  }
}

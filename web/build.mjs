// Bundles the gpuscout web assets with esbuild.
//
//   src/app.js    -> ../internal/web/static/app.js     (IIFE, minified, ES2019)
//   src/charts.js -> ../internal/web/static/charts.js  (IIFE: ECharts and the
//                    chart code, loaded by app.js only on pages with charts)
//   src/style.css -> ../internal/web/static/app.css    (minified)
//
// Each output also gets a brotli copy (NAME.br, best quality, Node's own
// zlib: no extra package), which the server sends to clients that accept br.
//
// Run with `npm run build` (or `make assets` from the repository root).
// Pass --sourcemap to also write linked .map files (they are git-ignored).
import * as esbuild from "esbuild";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const outdir = join(here, "..", "internal", "web", "static");
const sourcemap = process.argv.includes("--sourcemap");

const common = {
  bundle: true,
  minify: true,
  sourcemap,
  logLevel: "warning",
  legalComments: "none",
};

const script = {
  ...common,
  format: "iife",
  platform: "browser",
  target: "es2019",
  define: { "process.env.NODE_ENV": '"production"' },
};

await Promise.all([
  esbuild.build({ ...script, entryPoints: [join(here, "src", "app.js")], outfile: join(outdir, "app.js") }),
  esbuild.build({ ...script, entryPoints: [join(here, "src", "charts.js")], outfile: join(outdir, "charts.js") }),
  esbuild.build({
    ...common,
    entryPoints: [join(here, "src", "style.css")],
    outfile: join(outdir, "app.css"),
    target: ["chrome90", "firefox90", "safari14", "edge90"],
  }),
]);

for (const f of ["app.js", "charts.js", "app.css"]) {
  const p = join(outdir, f);
  const plain = readFileSync(p);
  const br = brotliCompressSync(plain, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
    },
  });
  writeFileSync(p + ".br", br);
  const kb = (n) => (n / 1024).toFixed(1);
  console.log(`built ${relative(process.cwd(), p)} (${kb(statSync(p).size)} KiB, gzip ${kb(gzipSync(plain, { level: 9 }).length)} KiB, br ${kb(br.length)} KiB)`);
}

// Bundles the gpuscout web assets with esbuild.
//
//   src/app.js    -> ../internal/web/static/app.js   (IIFE, minified, ES2019)
//   src/style.css -> ../internal/web/static/app.css  (minified)
//
// Run with `npm run build` (or `make assets` from the repository root).
// Pass --sourcemap to also write linked .map files (they are git-ignored).
import * as esbuild from "esbuild";
import { statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

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

await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: [join(here, "src", "app.js")],
    outfile: join(outdir, "app.js"),
    format: "iife",
    platform: "browser",
    target: "es2019",
    define: { "process.env.NODE_ENV": '"production"' },
  }),
  esbuild.build({
    ...common,
    entryPoints: [join(here, "src", "style.css")],
    outfile: join(outdir, "app.css"),
    target: ["chrome90", "firefox90", "safari14", "edge90"],
  }),
]);

for (const f of ["app.js", "app.css"]) {
  const p = join(outdir, f);
  const kb = (statSync(p).size / 1024).toFixed(1);
  console.log(`built ${relative(process.cwd(), p)} (${kb} KiB)`);
}

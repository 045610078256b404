// The browser client's build: TypeScript + Preact (JSX through esbuild), written into the
// Python package so that `pip install keltis` users need no Node (docs/web.md).
import { defineConfig } from "vite";

export default defineConfig({
  base: "/",
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: {
    outDir: "../src/keltis/server/static",
    emptyOutDir: true,
    target: "es2020",
    sourcemap: false,
    assetsInlineLimit: 0,
  },
  server: {
    proxy: { "/api": { target: "http://127.0.0.1:8000", ws: true } },
  },
});

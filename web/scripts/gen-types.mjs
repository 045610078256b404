// The wire format's TypeScript types, generated from the JSON Schemas the server publishes
// (src/keltis/schemas/*.schema.json, draft 2020-12) by json-schema-to-typescript: one file,
// src/wire.gen.ts, committed (docs/web.md). `npm run types` writes it; `npm run types --
// --out FILE` writes elsewhere (tests/web/test_wire_types.py compares the two).
//
// The schemas are bundled here, locally (no network): every file's definitions become one
// document's `$defs`, each file itself a definition named after it, and every `$ref` — within
// a file or to another by its `$id` — a pointer into that document. A few draft 2020-12
// forms the generator does not read are lowered first, each only in the shape checked here
// (any other stops the generation, naming the schema's path, rather than typing it wrong):
//
// - `prefixItems` (+ `items: false`): the older tuple form, `items: [...]` +
//   `additionalItems: false`;
// - `if`/`then`/`else` on a `const` (the view: board or cards): the union of `then` and `else`;
// - `allOf` of `if`/`then`s, each on a `const` of the same property, which together cover
//   that property's `enum` (the events): the union of the `then`s;
// - `allOf: [{$ref}, {required: [...]}]` (a legal action's preview): the referenced object
//   with those properties required.
//
// Besides, a `$ref` with a description beside it is wrapped (`allOf: [{$ref}]`) rather than
// copied into a second, numbered type, and an object whose keys the schema leaves open
// (`{"type": "object"}`) is a record of unknown values.
//
// Nothing here depends on the machine: the files are read in name order, the generator walks
// them in that order, and its locked Prettier (package-lock.json) formats the result with the
// options below, never a configuration file: the same schemas give the same bytes anywhere.

import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SCHEMAS = resolve(WEB, "..", "src", "keltis", "schemas");
const OUT = join(WEB, "src", "wire.gen.ts");

/** Each document's type name (a file not listed here is named after the file). */
const DOCUMENT_NAMES = {
  "common": null, // shared definitions only
  "view": "View",
  "step": "Step",
  "game-info": "GameInfo",
  "record": "GameRecord", // not `Record`, TypeScript's own
  "live": "LiveMessage",
  "review": "Review",
};

const HEADER = `// Generated from src/keltis/schemas/*.schema.json by web/scripts/gen-types.mjs
// (json-schema-to-typescript): do not edit. After changing a schema: cd web && npm run types
// (docs/web.md). tests/web/test_wire_types.py fails while this file is not what that writes.`;

function fail(where, why) {
  throw new Error(`${where}: ${why}`);
}

/** Keywords that say what a schema means without constraining it. */
const ANNOTATIONS = new Set(["description", "title", "$comment", "deprecated", "examples"]);

const isObject = (x) => typeof x === "object" && x !== null && !Array.isArray(x);

/** The schema files, by name: {name, id, schema}. */
function load() {
  return readdirSync(SCHEMAS)
    .filter((f) => f.endsWith(".schema.json"))
    .sort()
    .map((file) => {
      const schema = JSON.parse(readFileSync(join(SCHEMAS, file), "utf-8"));
      const name = file.slice(0, -".schema.json".length);
      if (typeof schema.$id !== "string") fail(file, "no $id");
      return { name, file, id: schema.$id, schema };
    });
}

/** The bundle: one schema whose `$defs` hold every file's definitions and every document. */
function bundle(files) {
  const byId = new Map(files.map((f) => [f.id, f]));
  const defs = {};
  const documentKey = (f) => `document:${f.name}`;

  function pointer(file, ref) {
    const url = new URL(ref, file.id);
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    const target = byId.get(url.href);
    if (!target) fail(file.file, `$ref ${ref} names no schema here (no network look-ups)`);
    if (fragment === "") return `#/$defs/${documentKey(target)}`;
    const m = /^\/\$defs\/([^/]+)(\/.*)?$/.exec(fragment);
    if (!m) fail(file.file, `$ref ${ref}: only whole files and their $defs are referenced`);
    return `#/$defs/${m[1]}${m[2] ?? ""}`;
  }

  function rewrite(file, node) {
    if (Array.isArray(node)) return node.map((x) => rewrite(file, x));
    if (!isObject(node)) return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref") out.$ref = pointer(file, value);
      else if (key === "const" || key === "enum" || key === "default" || key === "examples")
        out[key] = value;
      else out[key] = rewrite(file, value);
    }
    return out;
  }

  for (const file of files) {
    const { $schema, $id, $defs = {}, title, ...root } = rewrite(file, file.schema);
    void $schema, void $id, void title; // the bundle's names are the files' and the keys'
    for (const [key, def] of Object.entries($defs)) {
      if (key in defs) fail(file.file, `$defs/${key} is defined in two files`);
      defs[key] = def;
    }
    if (file.name in DOCUMENT_NAMES && DOCUMENT_NAMES[file.name] === null) {
      if (Object.keys(root).length) fail(file.file, "a file of shared definitions only has a root");
      continue;
    }
    defs[documentKey(file)] = { title: DOCUMENT_NAMES[file.name] ?? file.name, ...root };
  }
  return { $defs: defs };
}

/** The definition a local `$ref` points to. */
function follow(root, ref) {
  let node = root;
  for (const part of ref.slice(2).split("/")) {
    node = node?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  if (node === undefined) fail(ref, "points nowhere");
  return node;
}

/** `{properties: {P: {const: V}}}`, the form of every `if` lowered here: [P, V]. */
function discriminator(where, cond) {
  const keys = isObject(cond) ? Object.keys(cond) : [];
  const props = keys.length === 1 && keys[0] === "properties" ? cond.properties : null;
  const names = props ? Object.keys(props) : [];
  if (names.length !== 1 || !isObject(props[names[0]]) || !("const" in props[names[0]])
      || Object.keys(props[names[0]]).length !== 1)
    fail(where, "an `if` other than {properties: {P: {const: V}}} is not lowered");
  return [names[0], props[names[0]].const];
}

/** Lower the draft 2020-12 forms json-schema-to-typescript does not read (see the top). */
function lower(root, node, where) {
  if (Array.isArray(node)) return node.map((x, i) => lower(root, x, `${where}/${i}`));
  if (!isObject(node)) return node;
  const out = { ...node };

  if ("prefixItems" in out) {
    if ("items" in out && out.items !== false)
      fail(where, "prefixItems with items other than false is not lowered");
    out.items = out.prefixItems;
    out.additionalItems = false;
    delete out.prefixItems;
  }

  if ("if" in out) {
    if (!("then" in out && "else" in out)) fail(where, "an `if` without then and else");
    discriminator(where, out.if);
    out.anyOf = [out.then, out.else];
    delete out.if, delete out.then, delete out.else;
  }

  if (Array.isArray(out.allOf) && out.allOf.length && out.allOf.every((s) => isObject(s) && "if" in s)) {
    const values = [];
    let property = null;
    for (const [i, s] of out.allOf.entries()) {
      if (Object.keys(s).sort().join() !== "if,then") fail(`${where}/allOf/${i}`, "only if/then");
      const [p, v] = discriminator(`${where}/allOf/${i}`, s.if);
      if (property !== null && p !== property) fail(where, "conditions on different properties");
      property = p;
      values.push(v);
    }
    const declared = out.properties?.[property]?.enum;
    if (!Array.isArray(declared) || declared.length !== values.length
        || !declared.every((v) => values.includes(v)))
      fail(where, `the conditions do not cover ${property}'s enum exactly`);
    if (out.anyOf || out.oneOf) fail(where, "allOf of conditions beside anyOf/oneOf");
    out.anyOf = out.allOf.map((s) => s.then);
    delete out.allOf;
    // the union says all: the base (type, required, the discriminator's enum) adds nothing
    delete out.properties, delete out.required, delete out.type;
  }

  if (Array.isArray(out.allOf) && out.allOf.length === 2 && isObject(out.allOf[0])
      && typeof out.allOf[0].$ref === "string" && isObject(out.allOf[1])
      && Object.keys(out.allOf[1]).join() === "required") {
    const base = follow(root, out.allOf[0].$ref);
    const required = out.allOf[1].required;
    if (!isObject(base.properties) || !required.every((p) => p in base.properties))
      fail(where, "requires properties the referenced schema lacks");
    out.allOf = [out.allOf[0], {
      type: "object",
      properties: Object.fromEntries(required.map((p) => [p, base.properties[p]])),
      required,
    }];
  }

  // Not forms of 2020-12, but what makes the types read well:
  // - a `$ref` with annotations beside it (a property's description) would become a second,
  //   numbered copy of the referenced type: the reference is wrapped instead;
  if (typeof out.$ref === "string" && Object.keys(out).length > 1) {
    const { $ref, ...rest } = out;
    if (!Object.keys(rest).every((k) => ANNOTATIONS.has(k)))
      fail(where, `$ref beside ${Object.keys(rest).join(", ")} is not lowered`);
    return { ...rest, allOf: [{ $ref }] };
  }
  // - an object whose keys are not described (the variant's rule switches) is a record of
  //   unknown values, not the empty object that the default `additionalProperties: false`
  //   below would make of it.
  if (out.type === "object" && !("properties" in out) && !("additionalProperties" in out)
      && !("patternProperties" in out)) {
    out.additionalProperties = true;
  }

  // then the schemas inside (the forms above are read from the outside in)
  for (const [key, value] of Object.entries(out)) {
    if (key !== "const" && key !== "enum") out[key] = lower(root, value, `${where}/${key}`);
  }
  return out;
}

export async function generate() {
  const bundled = bundle(load());
  const root = { title: "WireDocument", ...lower(bundled, bundled, "#") };
  // the root: any document (the definitions are what matters)
  root.anyOf = Object.keys(root.$defs)
    .filter((k) => k.startsWith("document:"))
    .map((k) => ({ $ref: `#/$defs/${k.replace(/~/g, "~0").replace(/\//g, "~1")}` }));
  const code = await compile(root, "WireDocument", {
    bannerComment: HEADER,
    additionalProperties: false, // a type names what is sent; a client reads nothing else
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    strictIndexSignatures: false,
    unknownAny: true,
    ignoreMinAndMaxItems: true, // [number, ...number[]] for "at least one" helps no client
    format: true,
    cwd: SCHEMAS,
    $refOptions: { resolve: { external: false } },
  });
  return code;
}

const args = process.argv.slice(2);
const outAt = args[0] === "--out" ? resolve(args[1]) : OUT;
const code = await generate();
writeFileSync(outAt, code);
console.log(`wrote ${relative(process.cwd(), outAt) || outAt}`);

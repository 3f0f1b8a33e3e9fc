import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  writeFileAtomic
} from "./chunk-LW4JBI54.js";
import {
  libraryIndexFileName
} from "./chunk-4XQBZWSZ.js";
import "./chunk-V4RWK56N.js";

// dist/services/library/library-index.js
import { mkdir, readFile, rename } from "node:fs/promises";
import { join } from "node:path";
function createLibraryIndexStore(options) {
  const file = join(options.stateDir, options.fileName ?? libraryIndexFileName);
  return {
    async load() {
      let text;
      try {
        text = await readFile(file, "utf8");
      } catch (err) {
        if (err.code !== "ENOENT")
          options.logger.warn({ err, file }, "library index unreadable; the next scan probes every file");
        return /* @__PURE__ */ new Map();
      }
      try {
        return parseIndex(text);
      } catch (err) {
        const aside = `${file}.corrupt-${Date.now()}`;
        await rename(file, aside).catch(() => {
        });
        options.logger.warn({ err, file, movedTo: aside }, "library index is corrupt; set aside, the next scan probes every file");
        return /* @__PURE__ */ new Map();
      }
    },
    async save(entries) {
      const body = { version: 1, entries: {} };
      for (const [path, entry] of entries)
        body.entries[path] = [entry.size, entry.mtime, entry.facts];
      await mkdir(options.stateDir, { recursive: true, mode: 448 });
      await writeFileAtomic(file, JSON.stringify(body), { mode: 384 });
    }
  };
}
function parseIndex(text) {
  const json = JSON.parse(text);
  if (typeof json !== "object" || json === null || json.version !== 1 || typeof json.entries !== "object" || json.entries === null) {
    throw new Error("not a version 1 library index");
  }
  const entries = /* @__PURE__ */ new Map();
  for (const [path, value] of Object.entries(json.entries)) {
    if (!Array.isArray(value) || typeof value[0] !== "number" || typeof value[1] !== "number" || value[2] !== null && typeof value[2] !== "object") {
      throw new Error(`bad index entry for ${path}`);
    }
    entries.set(path, { size: value[0], mtime: value[1], facts: value[2] });
  }
  return entries;
}
export {
  createLibraryIndexStore,
  parseIndex
};

import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/services/state/atomic-file.js
import { open, rename, mkdir, unlink } from "node:fs/promises";
import { dirname, basename, join } from "node:path";
import { randomBytes } from "node:crypto";
async function writeFileAtomic(path, data, options = {}) {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", options.mode ?? 420);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {
    });
    await unlink(temp).catch(() => {
    });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => {
    });
    throw error;
  }
  await syncDirectory(dir);
}
async function syncDirectory(dir) {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } catch {
  } finally {
    await handle.close();
  }
}

export {
  writeFileAtomic
};

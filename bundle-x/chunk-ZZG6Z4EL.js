import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  writeFileAtomic
} from "./chunk-LW4JBI54.js";
import {
  upgradeCurrentLinkName,
  upgradeStateFileName,
  upgradeVersionsDirName
} from "./chunk-4XQBZWSZ.js";
import {
  StateFileError,
  UpgradeInstallError
} from "./chunk-7UR2AQZP.js";

// dist/services/upgrade/installer.js
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { access, mkdir, readFile as readFile2, readlink, rename, rm, symlink, unlink } from "node:fs/promises";
import { join as join2 } from "node:path";
import { promisify } from "node:util";

// dist/services/upgrade/upgrade-store.js
import { readFile } from "node:fs/promises";
import { join } from "node:path";
var emptyUpgradeState = () => ({ pending: null, results: [] });
var versionsDir = (stateDir) => join(stateDir, upgradeVersionsDirName);
var upgradeStatePath = (stateDir) => join(stateDir, upgradeStateFileName);
async function readUpgradeState(stateDir) {
  const path = upgradeStatePath(stateDir);
  let text;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error.code === "ENOENT")
      return emptyUpgradeState();
    throw new StateFileError(`cannot read ${path}: ${error.message}`, { cause: error });
  }
  try {
    return parseUpgradeState(text);
  } catch (error) {
    throw new StateFileError(`${path} is not a valid upgrade state file: ${error.message}`, { cause: error });
  }
}
async function writeUpgradeState(stateDir, state) {
  await writeFileAtomic(upgradeStatePath(stateDir), `${JSON.stringify(state, null, 2)}
`, { mode: 384 });
}
async function updateUpgradeState(stateDir, change) {
  const next = change(await readUpgradeState(stateDir));
  await writeUpgradeState(stateDir, next);
  return next;
}
var outcomes = /* @__PURE__ */ new Set(["success", "failure", "noop"]);
function parseUpgradeState(text) {
  const value = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error("expected an object");
  const record = value;
  const state = emptyUpgradeState();
  if (record.pending !== null && record.pending !== void 0) {
    const pending = record.pending;
    if (typeof pending !== "object" || typeof pending.fromVersion !== "string" || typeof pending.toVersion !== "string" || typeof pending.launched !== "boolean" || !(pending.previous === null || typeof pending.previous === "string"))
      throw new Error("pending: expected fromVersion, toVersion, previous, launched");
    state.pending = { fromVersion: pending.fromVersion, toVersion: pending.toVersion, previous: pending.previous, launched: pending.launched };
    if (typeof pending.exit === "string")
      state.pending.exit = pending.exit;
  }
  if (!Array.isArray(record.results))
    throw new Error("results: expected an array");
  for (const entry of record.results) {
    const item = entry;
    const result = item?.result;
    if (typeof result !== "object" || result === null || typeof result.outcome !== "string" || !outcomes.has(result.outcome) || typeof result.fromVersion !== "string" || typeof result.toVersion !== "string" || typeof item.posted !== "boolean" || result.error !== void 0 && typeof result.error !== "string")
      throw new Error("results: expected { result: UpgradeResult, posted }");
    state.results.push({ result, posted: item.posted });
  }
  return state;
}

// dist/services/upgrade/installer.js
var run = promisify(execFile);
var versionName = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/;
function createInstaller(options) {
  const dir = versionsDir(options.stateDir);
  const nodePath = options.nodePath ?? process.execPath;
  return {
    async install({ offer, artifactPath, fromVersion }) {
      const version = offer.targetVersion;
      if (!versionName.test(version) || version === upgradeCurrentLinkName)
        throw new UpgradeInstallError(`the offered targetVersion ${JSON.stringify(version)} is not a usable version name`);
      const staging = join2(dir, `.staging-${version}-${randomBytes(4).toString("hex")}`);
      const target = join2(dir, version);
      const current = join2(dir, upgradeCurrentLinkName);
      try {
        await mkdir(staging, { recursive: true, mode: 493 });
        try {
          await run("tar", ["-xzf", artifactPath, "-C", staging, "--strip-components=1", "--no-same-owner", "--no-same-permissions"], { timeout: options.extractTimeoutMs });
        } catch (error) {
          throw new UpgradeInstallError(`cannot extract the upgrade artifact: ${firstLine(error)}`, { cause: error });
        }
        await checkPackage(staging, version);
        let printed;
        try {
          const { stdout } = await run(nodePath, [join2(staging, "dist", "cli.js"), "--version"], { timeout: options.smokeTestTimeoutMs, env: { ...process.env, MEDIA_AGENT_DELEGATED: "1" } });
          printed = stdout.trim();
        } catch (error) {
          throw new UpgradeInstallError(`the new version's smoke test (\`media-agent --version\`) failed: ${firstLine(error)}`, { cause: error });
        }
        if (printed !== version)
          throw new UpgradeInstallError(`the new version's smoke test printed ${JSON.stringify(printed.slice(0, 80))}, expected ${version}`);
        const previous = await readlink(current).catch(() => null);
        if (previous === version)
          throw new UpgradeInstallError(`versions/current already names ${version}`);
        await rm(target, { recursive: true, force: true });
        await rename(staging, target);
        await updateUpgradeState(options.stateDir, (state) => ({ ...state, pending: { fromVersion, toVersion: version, previous, launched: false } }));
        try {
          await switchCurrent(dir, version);
        } catch (error) {
          await updateUpgradeState(options.stateDir, (state) => ({ ...state, pending: null }));
          throw new UpgradeInstallError(`cannot switch versions/current to ${version}: ${error.message}`, { cause: error });
        }
      } finally {
        await rm(staging, { recursive: true, force: true }).catch(() => {
        });
        await unlink(artifactPath).catch(() => {
        });
      }
    }
  };
}
async function switchCurrent(dir, name) {
  const current = join2(dir, upgradeCurrentLinkName);
  if (name === null) {
    await unlink(current).catch((error) => {
      if (error.code !== "ENOENT")
        throw error;
    });
    return;
  }
  const temp = join2(dir, `.current-${randomBytes(4).toString("hex")}`);
  await symlink(name, temp);
  try {
    await rename(temp, current);
  } catch (error) {
    await unlink(temp).catch(() => {
    });
    throw error;
  }
}
async function checkPackage(root, version) {
  let manifest;
  try {
    manifest = JSON.parse(await readFile2(join2(root, "package.json"), "utf8"));
  } catch (error) {
    throw new UpgradeInstallError(`the upgrade artifact has no readable package.json at its top: ${error.message}`, { cause: error });
  }
  if (manifest.name !== "media-agent")
    throw new UpgradeInstallError(`the upgrade artifact is the package ${JSON.stringify(manifest.name)}, not media-agent`);
  if (manifest.version !== version)
    throw new UpgradeInstallError(`the upgrade artifact is version ${JSON.stringify(manifest.version)}, the server offered ${version}`);
  try {
    await access(join2(root, "dist", "cli.js"));
    await access(join2(root, "node_modules"));
  } catch {
    throw new UpgradeInstallError("the upgrade artifact is not self-contained: dist/cli.js or node_modules is missing (build it with `npm run release`)");
  }
}
function firstLine(error) {
  const record = error;
  if (record.killed)
    return `timed out (${record.signal ?? "killed"})`;
  const text = (record.stderr?.trim() || record.message || String(error)).split("\n")[0];
  return text.slice(0, 300);
}

export {
  emptyUpgradeState,
  versionsDir,
  upgradeStatePath,
  readUpgradeState,
  updateUpgradeState,
  createInstaller,
  switchCurrent
};

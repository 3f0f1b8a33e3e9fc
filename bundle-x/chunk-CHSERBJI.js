import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/version.js
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
var packageJson = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
var agentVersion = packageJson.version;
var userAgent = `media-agent/${agentVersion}`;
var packageRoot = fileURLToPath(new URL("..", import.meta.url));

export {
  agentVersion,
  userAgent,
  packageRoot
};

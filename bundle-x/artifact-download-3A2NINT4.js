import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  userAgent
} from "./chunk-CHSERBJI.js";
import {
  UpgradeDownloadError,
  UpgradeVerifyError
} from "./chunk-7UR2AQZP.js";
import "./chunk-V4RWK56N.js";

// dist/services/upgrade/artifact-download.js
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { once } from "node:events";
function createArtifactDownloader(options) {
  return {
    async download(offer) {
      let url;
      try {
        url = new URL(offer.artifactUrl);
      } catch {
        throw new UpgradeDownloadError(`the upgrade artifactUrl is not a URL: ${JSON.stringify(offer.artifactUrl)}`, { retryable: false });
      }
      if (url.protocol !== "https:" && url.protocol !== "http:")
        throw new UpgradeDownloadError(`the upgrade artifactUrl must be http(s), not ${url.protocol}`, { retryable: false });
      const expected = offer.sha256.trim().toLowerCase();
      if (!/^[0-9a-f]{64}$/.test(expected))
        throw new UpgradeVerifyError(`the offered sha256 is not 64 hex digits: ${JSON.stringify(offer.sha256)}`);
      const sameOrigin = url.origin === new URL(options.server.baseUrl).origin;
      const headers = { "user-agent": userAgent };
      if (sameOrigin)
        headers.authorization = `Bearer ${options.server.accessToken}`;
      await mkdir(options.dir, { recursive: true });
      const path = join(options.dir, `.download-${randomBytes(6).toString("hex")}.tgz`);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error(`timed out after ${options.timeoutMs} ms`)), options.timeoutMs);
      const signal = controller.signal;
      try {
        let response;
        try {
          const { request } = await import("./undici-3XR6EART.js");
          response = await request(url, { method: "GET", headers, signal, ...options.dispatcher ? { dispatcher: options.dispatcher } : {} });
        } catch (error) {
          throw new UpgradeDownloadError(`cannot fetch the upgrade artifact ${url.origin}${url.pathname}: ${error.message}`, { cause: error });
        }
        if (response.statusCode < 200 || response.statusCode > 299) {
          await response.body.dump().catch(() => {
          });
          throw new UpgradeDownloadError(`the upgrade artifact ${url.origin}${url.pathname} answered HTTP ${response.statusCode}`, { retryable: response.statusCode >= 500 });
        }
        const declared = Number(response.headers["content-length"]);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          discard(response.body);
          throw new UpgradeVerifyError(`the upgrade artifact is ${declared} bytes, over the ${options.maxBytes}-byte cap`);
        }
        const hash = createHash("sha256");
        const file = createWriteStream(path, { flags: "wx", mode: 384 });
        let bytes = 0;
        try {
          for await (const chunk of response.body) {
            bytes += chunk.length;
            if (bytes > options.maxBytes)
              throw new UpgradeVerifyError(`the upgrade artifact is over the ${options.maxBytes}-byte cap`);
            hash.update(chunk);
            if (!file.write(chunk))
              await once(file, "drain");
          }
        } catch (error) {
          discard(response.body);
          if (error instanceof UpgradeVerifyError)
            throw error;
          throw new UpgradeDownloadError(`the upgrade artifact download broke off after ${bytes} bytes: ${error.message}`, { cause: error });
        } finally {
          file.end();
          await once(file, "close").catch(() => {
          });
        }
        const actual = hash.digest("hex");
        if (actual !== expected)
          throw new UpgradeVerifyError(`the upgrade artifact's sha256 is ${actual}, the server offered ${expected}`);
        return path;
      } catch (error) {
        await unlink(path).catch(() => {
        });
        throw error;
      } finally {
        clearTimeout(timer);
      }
    }
  };
}
function discard(body) {
  body.on("error", () => {
  });
  body.destroy();
}
export {
  createArtifactDownloader
};

import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import "./chunk-XFQH27E5.js";
import "./chunk-X73D3NYA.js";
import "./chunk-E4LMVZ2F.js";
import {
  writeFileAtomic
} from "./chunk-LW4JBI54.js";
import {
  require_undici
} from "./chunk-6C5SF6VE.js";
import {
  torrentAnnounceJitter,
  torrentAnnounceRetryMaxMs,
  torrentAnnounceRetryMinMs,
  torrentDht,
  torrentFetchTimeoutMs,
  torrentFileMaxBytes,
  torrentLsd,
  torrentMaxConns,
  torrentMetadataDirName,
  torrentNatPmp,
  torrentNatUpnp,
  torrentPex,
  torrentPieceMapWriteIntervalMs,
  torrentPort,
  torrentStopTimeoutMs,
  torrentStoreMaxOpenFiles,
  torrentStoreReadBudgetBytes,
  torrentUtp,
  torrentUtpFallbackMs
} from "./chunk-4XQBZWSZ.js";
import {
  AgentError,
  TorrentDiskFullError,
  TorrentEngineError,
  TorrentFetchError,
  TorrentMetadataError,
  TorrentNotFoundError,
  TorrentSourceError
} from "./chunk-7UR2AQZP.js";
import {
  __commonJS,
  __require,
  __toESM
} from "./chunk-V4RWK56N.js";

// node_modules/queue-microtask/index.js
var require_queue_microtask = __commonJS({
  "node_modules/queue-microtask/index.js"(exports, module) {
    var promise;
    module.exports = typeof queueMicrotask === "function" ? queueMicrotask.bind(typeof window !== "undefined" ? window : global) : (cb) => (promise || (promise = Promise.resolve())).then(cb).catch((err) => setTimeout(() => {
      throw err;
    }, 0));
  }
});

// node_modules/ms/index.js
var require_ms = __commonJS({
  "node_modules/ms/index.js"(exports, module) {
    var s = 1e3;
    var m = s * 60;
    var h = m * 60;
    var d = h * 24;
    var w = d * 7;
    var y = d * 365.25;
    module.exports = function(val, options) {
      options = options || {};
      var type = typeof val;
      if (type === "string" && val.length > 0) {
        return parse(val);
      } else if (type === "number" && isFinite(val)) {
        return options.long ? fmtLong(val) : fmtShort(val);
      }
      throw new Error(
        "val is not a non-empty string or a valid number. val=" + JSON.stringify(val)
      );
    };
    function parse(str) {
      str = String(str);
      if (str.length > 100) {
        return;
      }
      var match = /^(-?(?:\d+)?\.?\d+) *(milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w|years?|yrs?|y)?$/i.exec(
        str
      );
      if (!match) {
        return;
      }
      var n = parseFloat(match[1]);
      var type = (match[2] || "ms").toLowerCase();
      switch (type) {
        case "years":
        case "year":
        case "yrs":
        case "yr":
        case "y":
          return n * y;
        case "weeks":
        case "week":
        case "w":
          return n * w;
        case "days":
        case "day":
        case "d":
          return n * d;
        case "hours":
        case "hour":
        case "hrs":
        case "hr":
        case "h":
          return n * h;
        case "minutes":
        case "minute":
        case "mins":
        case "min":
        case "m":
          return n * m;
        case "seconds":
        case "second":
        case "secs":
        case "sec":
        case "s":
          return n * s;
        case "milliseconds":
        case "millisecond":
        case "msecs":
        case "msec":
        case "ms":
          return n;
        default:
          return void 0;
      }
    }
    function fmtShort(ms) {
      var msAbs = Math.abs(ms);
      if (msAbs >= d) {
        return Math.round(ms / d) + "d";
      }
      if (msAbs >= h) {
        return Math.round(ms / h) + "h";
      }
      if (msAbs >= m) {
        return Math.round(ms / m) + "m";
      }
      if (msAbs >= s) {
        return Math.round(ms / s) + "s";
      }
      return ms + "ms";
    }
    function fmtLong(ms) {
      var msAbs = Math.abs(ms);
      if (msAbs >= d) {
        return plural(ms, msAbs, d, "day");
      }
      if (msAbs >= h) {
        return plural(ms, msAbs, h, "hour");
      }
      if (msAbs >= m) {
        return plural(ms, msAbs, m, "minute");
      }
      if (msAbs >= s) {
        return plural(ms, msAbs, s, "second");
      }
      return ms + " ms";
    }
    function plural(ms, msAbs, n, name) {
      var isPlural = msAbs >= n * 1.5;
      return Math.round(ms / n) + " " + name + (isPlural ? "s" : "");
    }
  }
});

// node_modules/debug/src/common.js
var require_common = __commonJS({
  "node_modules/debug/src/common.js"(exports, module) {
    function setup(env) {
      createDebug.debug = createDebug;
      createDebug.default = createDebug;
      createDebug.coerce = coerce;
      createDebug.disable = disable;
      createDebug.enable = enable;
      createDebug.enabled = enabled;
      createDebug.humanize = require_ms();
      createDebug.destroy = destroy;
      Object.keys(env).forEach((key) => {
        createDebug[key] = env[key];
      });
      createDebug.names = [];
      createDebug.skips = [];
      createDebug.formatters = {};
      function selectColor(namespace) {
        let hash2 = 0;
        for (let i = 0; i < namespace.length; i++) {
          hash2 = (hash2 << 5) - hash2 + namespace.charCodeAt(i);
          hash2 |= 0;
        }
        return createDebug.colors[Math.abs(hash2) % createDebug.colors.length];
      }
      createDebug.selectColor = selectColor;
      function createDebug(namespace) {
        let prevTime;
        let enableOverride = null;
        let namespacesCache;
        let enabledCache;
        function debug2(...args) {
          if (!debug2.enabled) {
            return;
          }
          const self = debug2;
          const curr = Number(/* @__PURE__ */ new Date());
          const ms = curr - (prevTime || curr);
          self.diff = ms;
          self.prev = prevTime;
          self.curr = curr;
          prevTime = curr;
          args[0] = createDebug.coerce(args[0]);
          if (typeof args[0] !== "string") {
            args.unshift("%O");
          }
          let index = 0;
          args[0] = args[0].replace(/%([a-zA-Z%])/g, (match, format) => {
            if (match === "%%") {
              return "%";
            }
            index++;
            const formatter = createDebug.formatters[format];
            if (typeof formatter === "function") {
              const val = args[index];
              match = formatter.call(self, val);
              args.splice(index, 1);
              index--;
            }
            return match;
          });
          createDebug.formatArgs.call(self, args);
          const logFn = self.log || createDebug.log;
          logFn.apply(self, args);
        }
        debug2.namespace = namespace;
        debug2.useColors = createDebug.useColors();
        debug2.color = createDebug.selectColor(namespace);
        debug2.extend = extend;
        debug2.destroy = createDebug.destroy;
        Object.defineProperty(debug2, "enabled", {
          enumerable: true,
          configurable: false,
          get: () => {
            if (enableOverride !== null) {
              return enableOverride;
            }
            if (namespacesCache !== createDebug.namespaces) {
              namespacesCache = createDebug.namespaces;
              enabledCache = createDebug.enabled(namespace);
            }
            return enabledCache;
          },
          set: (v) => {
            enableOverride = v;
          }
        });
        if (typeof createDebug.init === "function") {
          createDebug.init(debug2);
        }
        return debug2;
      }
      function extend(namespace, delimiter) {
        const newDebug = createDebug(this.namespace + (typeof delimiter === "undefined" ? ":" : delimiter) + namespace);
        newDebug.log = this.log;
        return newDebug;
      }
      function enable(namespaces) {
        createDebug.save(namespaces);
        createDebug.namespaces = namespaces;
        createDebug.names = [];
        createDebug.skips = [];
        const split = (typeof namespaces === "string" ? namespaces : "").trim().replace(/\s+/g, ",").split(",").filter(Boolean);
        for (const ns of split) {
          if (ns[0] === "-") {
            createDebug.skips.push(ns.slice(1));
          } else {
            createDebug.names.push(ns);
          }
        }
      }
      function matchesTemplate(search, template) {
        let searchIndex = 0;
        let templateIndex = 0;
        let starIndex = -1;
        let matchIndex = 0;
        while (searchIndex < search.length) {
          if (templateIndex < template.length && (template[templateIndex] === search[searchIndex] || template[templateIndex] === "*")) {
            if (template[templateIndex] === "*") {
              starIndex = templateIndex;
              matchIndex = searchIndex;
              templateIndex++;
            } else {
              searchIndex++;
              templateIndex++;
            }
          } else if (starIndex !== -1) {
            templateIndex = starIndex + 1;
            matchIndex++;
            searchIndex = matchIndex;
          } else {
            return false;
          }
        }
        while (templateIndex < template.length && template[templateIndex] === "*") {
          templateIndex++;
        }
        return templateIndex === template.length;
      }
      function disable() {
        const namespaces = [
          ...createDebug.names,
          ...createDebug.skips.map((namespace) => "-" + namespace)
        ].join(",");
        createDebug.enable("");
        return namespaces;
      }
      function enabled(name) {
        for (const skip of createDebug.skips) {
          if (matchesTemplate(name, skip)) {
            return false;
          }
        }
        for (const ns of createDebug.names) {
          if (matchesTemplate(name, ns)) {
            return true;
          }
        }
        return false;
      }
      function coerce(val) {
        if (val instanceof Error) {
          return val.stack || val.message;
        }
        return val;
      }
      function destroy() {
        console.warn("Instance method `debug.destroy()` is deprecated and no longer does anything. It will be removed in the next major version of `debug`.");
      }
      createDebug.enable(createDebug.load());
      return createDebug;
    }
    module.exports = setup;
  }
});

// node_modules/debug/src/browser.js
var require_browser = __commonJS({
  "node_modules/debug/src/browser.js"(exports, module) {
    exports.formatArgs = formatArgs;
    exports.save = save;
    exports.load = load;
    exports.useColors = useColors;
    exports.storage = localstorage();
    exports.destroy = /* @__PURE__ */ (() => {
      let warned = false;
      return () => {
        if (!warned) {
          warned = true;
          console.warn("Instance method `debug.destroy()` is deprecated and no longer does anything. It will be removed in the next major version of `debug`.");
        }
      };
    })();
    exports.colors = [
      "#0000CC",
      "#0000FF",
      "#0033CC",
      "#0033FF",
      "#0066CC",
      "#0066FF",
      "#0099CC",
      "#0099FF",
      "#00CC00",
      "#00CC33",
      "#00CC66",
      "#00CC99",
      "#00CCCC",
      "#00CCFF",
      "#3300CC",
      "#3300FF",
      "#3333CC",
      "#3333FF",
      "#3366CC",
      "#3366FF",
      "#3399CC",
      "#3399FF",
      "#33CC00",
      "#33CC33",
      "#33CC66",
      "#33CC99",
      "#33CCCC",
      "#33CCFF",
      "#6600CC",
      "#6600FF",
      "#6633CC",
      "#6633FF",
      "#66CC00",
      "#66CC33",
      "#9900CC",
      "#9900FF",
      "#9933CC",
      "#9933FF",
      "#99CC00",
      "#99CC33",
      "#CC0000",
      "#CC0033",
      "#CC0066",
      "#CC0099",
      "#CC00CC",
      "#CC00FF",
      "#CC3300",
      "#CC3333",
      "#CC3366",
      "#CC3399",
      "#CC33CC",
      "#CC33FF",
      "#CC6600",
      "#CC6633",
      "#CC9900",
      "#CC9933",
      "#CCCC00",
      "#CCCC33",
      "#FF0000",
      "#FF0033",
      "#FF0066",
      "#FF0099",
      "#FF00CC",
      "#FF00FF",
      "#FF3300",
      "#FF3333",
      "#FF3366",
      "#FF3399",
      "#FF33CC",
      "#FF33FF",
      "#FF6600",
      "#FF6633",
      "#FF9900",
      "#FF9933",
      "#FFCC00",
      "#FFCC33"
    ];
    function useColors() {
      if (typeof window !== "undefined" && window.process && (window.process.type === "renderer" || window.process.__nwjs)) {
        return true;
      }
      if (typeof navigator !== "undefined" && navigator.userAgent && navigator.userAgent.toLowerCase().match(/(edge|trident)\/(\d+)/)) {
        return false;
      }
      let m;
      return typeof document !== "undefined" && document.documentElement && document.documentElement.style && document.documentElement.style.WebkitAppearance || // Is firebug? http://stackoverflow.com/a/398120/376773
      typeof window !== "undefined" && window.console && (window.console.firebug || window.console.exception && window.console.table) || // Is firefox >= v31?
      // https://developer.mozilla.org/en-US/docs/Tools/Web_Console#Styling_messages
      typeof navigator !== "undefined" && navigator.userAgent && (m = navigator.userAgent.toLowerCase().match(/firefox\/(\d+)/)) && parseInt(m[1], 10) >= 31 || // Double check webkit in userAgent just in case we are in a worker
      typeof navigator !== "undefined" && navigator.userAgent && navigator.userAgent.toLowerCase().match(/applewebkit\/(\d+)/);
    }
    function formatArgs(args) {
      args[0] = (this.useColors ? "%c" : "") + this.namespace + (this.useColors ? " %c" : " ") + args[0] + (this.useColors ? "%c " : " ") + "+" + module.exports.humanize(this.diff);
      if (!this.useColors) {
        return;
      }
      const c = "color: " + this.color;
      args.splice(1, 0, c, "color: inherit");
      let index = 0;
      let lastC = 0;
      args[0].replace(/%[a-zA-Z%]/g, (match) => {
        if (match === "%%") {
          return;
        }
        index++;
        if (match === "%c") {
          lastC = index;
        }
      });
      args.splice(lastC, 0, c);
    }
    exports.log = console.debug || console.log || (() => {
    });
    function save(namespaces) {
      try {
        if (namespaces) {
          exports.storage.setItem("debug", namespaces);
        } else {
          exports.storage.removeItem("debug");
        }
      } catch (error) {
      }
    }
    function load() {
      let r;
      try {
        r = exports.storage.getItem("debug") || exports.storage.getItem("DEBUG");
      } catch (error) {
      }
      if (!r && typeof process !== "undefined" && "env" in process) {
        r = process.env.DEBUG;
      }
      return r;
    }
    function localstorage() {
      try {
        return localStorage;
      } catch (error) {
      }
    }
    module.exports = require_common()(exports);
    var { formatters } = module.exports;
    formatters.j = function(v) {
      try {
        return JSON.stringify(v);
      } catch (error) {
        return "[UnexpectedJSONParseError]: " + error.message;
      }
    };
  }
});

// node_modules/debug/src/node.js
var require_node = __commonJS({
  "node_modules/debug/src/node.js"(exports, module) {
    var tty = __require("tty");
    var util = __require("util");
    exports.init = init;
    exports.log = log;
    exports.formatArgs = formatArgs;
    exports.save = save;
    exports.load = load;
    exports.useColors = useColors;
    exports.destroy = util.deprecate(
      () => {
      },
      "Instance method `debug.destroy()` is deprecated and no longer does anything. It will be removed in the next major version of `debug`."
    );
    exports.colors = [6, 2, 3, 4, 5, 1];
    try {
      const supportsColor = __require("supports-color");
      if (supportsColor && (supportsColor.stderr || supportsColor).level >= 2) {
        exports.colors = [
          20,
          21,
          26,
          27,
          32,
          33,
          38,
          39,
          40,
          41,
          42,
          43,
          44,
          45,
          56,
          57,
          62,
          63,
          68,
          69,
          74,
          75,
          76,
          77,
          78,
          79,
          80,
          81,
          92,
          93,
          98,
          99,
          112,
          113,
          128,
          129,
          134,
          135,
          148,
          149,
          160,
          161,
          162,
          163,
          164,
          165,
          166,
          167,
          168,
          169,
          170,
          171,
          172,
          173,
          178,
          179,
          184,
          185,
          196,
          197,
          198,
          199,
          200,
          201,
          202,
          203,
          204,
          205,
          206,
          207,
          208,
          209,
          214,
          215,
          220,
          221
        ];
      }
    } catch (error) {
    }
    exports.inspectOpts = Object.keys(process.env).filter((key) => {
      return /^debug_/i.test(key);
    }).reduce((obj, key) => {
      const prop = key.substring(6).toLowerCase().replace(/_([a-z])/g, (_, k) => {
        return k.toUpperCase();
      });
      let val = process.env[key];
      if (/^(yes|on|true|enabled)$/i.test(val)) {
        val = true;
      } else if (/^(no|off|false|disabled)$/i.test(val)) {
        val = false;
      } else if (val === "null") {
        val = null;
      } else {
        val = Number(val);
      }
      obj[prop] = val;
      return obj;
    }, {});
    function useColors() {
      return "colors" in exports.inspectOpts ? Boolean(exports.inspectOpts.colors) : tty.isatty(process.stderr.fd);
    }
    function formatArgs(args) {
      const { namespace: name, useColors: useColors2 } = this;
      if (useColors2) {
        const c = this.color;
        const colorCode = "\x1B[3" + (c < 8 ? c : "8;5;" + c);
        const prefix = `  ${colorCode};1m${name} \x1B[0m`;
        args[0] = prefix + args[0].split("\n").join("\n" + prefix);
        args.push(colorCode + "m+" + module.exports.humanize(this.diff) + "\x1B[0m");
      } else {
        args[0] = getDate() + name + " " + args[0];
      }
    }
    function getDate() {
      if (exports.inspectOpts.hideDate) {
        return "";
      }
      return (/* @__PURE__ */ new Date()).toISOString() + " ";
    }
    function log(...args) {
      return process.stderr.write(util.formatWithOptions(exports.inspectOpts, ...args) + "\n");
    }
    function save(namespaces) {
      if (namespaces) {
        process.env.DEBUG = namespaces;
      } else {
        delete process.env.DEBUG;
      }
    }
    function load() {
      return process.env.DEBUG;
    }
    function init(debug2) {
      debug2.inspectOpts = {};
      const keys = Object.keys(exports.inspectOpts);
      for (let i = 0; i < keys.length; i++) {
        debug2.inspectOpts[keys[i]] = exports.inspectOpts[keys[i]];
      }
    }
    module.exports = require_common()(exports);
    var { formatters } = module.exports;
    formatters.o = function(v) {
      this.inspectOpts.colors = this.useColors;
      return util.inspect(v, this.inspectOpts).split("\n").map((str) => str.trim()).join(" ");
    };
    formatters.O = function(v) {
      this.inspectOpts.colors = this.useColors;
      return util.inspect(v, this.inspectOpts);
    };
  }
});

// node_modules/debug/src/index.js
var require_src = __commonJS({
  "node_modules/debug/src/index.js"(exports, module) {
    if (typeof process === "undefined" || process.type === "renderer" || process.browser === true || process.__nwjs) {
      module.exports = require_browser();
    } else {
      module.exports = require_node();
    }
  }
});

// node_modules/events-universal/default.js
var require_default = __commonJS({
  "node_modules/events-universal/default.js"(exports, module) {
    module.exports = __require("events");
  }
});

// node_modules/fast-fifo/fixed-size.js
var require_fixed_size = __commonJS({
  "node_modules/fast-fifo/fixed-size.js"(exports, module) {
    module.exports = class FixedFIFO {
      constructor(hwm) {
        if (!(hwm > 0) || (hwm - 1 & hwm) !== 0) throw new Error("Max size for a FixedFIFO should be a power of two");
        this.buffer = new Array(hwm);
        this.mask = hwm - 1;
        this.top = 0;
        this.btm = 0;
        this.next = null;
      }
      clear() {
        this.top = this.btm = 0;
        this.next = null;
        this.buffer.fill(void 0);
      }
      push(data) {
        if (this.buffer[this.top] !== void 0) return false;
        this.buffer[this.top] = data;
        this.top = this.top + 1 & this.mask;
        return true;
      }
      shift() {
        const last = this.buffer[this.btm];
        if (last === void 0) return void 0;
        this.buffer[this.btm] = void 0;
        this.btm = this.btm + 1 & this.mask;
        return last;
      }
      peek() {
        return this.buffer[this.btm];
      }
      isEmpty() {
        return this.buffer[this.btm] === void 0;
      }
    };
  }
});

// node_modules/fast-fifo/index.js
var require_fast_fifo = __commonJS({
  "node_modules/fast-fifo/index.js"(exports, module) {
    var FixedFIFO = require_fixed_size();
    module.exports = class FastFIFO {
      constructor(hwm) {
        this.hwm = hwm || 16;
        this.head = new FixedFIFO(this.hwm);
        this.tail = this.head;
        this.length = 0;
      }
      clear() {
        this.head = this.tail;
        this.head.clear();
        this.length = 0;
      }
      push(val) {
        this.length++;
        if (!this.head.push(val)) {
          const prev = this.head;
          this.head = prev.next = new FixedFIFO(2 * this.head.buffer.length);
          this.head.push(val);
        }
      }
      shift() {
        if (this.length !== 0) this.length--;
        const val = this.tail.shift();
        if (val === void 0 && this.tail.next) {
          const next = this.tail.next;
          this.tail.next = null;
          this.tail = next;
          return this.tail.shift();
        }
        return val;
      }
      peek() {
        const val = this.tail.peek();
        if (val === void 0 && this.tail.next) return this.tail.next.peek();
        return val;
      }
      isEmpty() {
        return this.length === 0;
      }
    };
  }
});

// node_modules/b4a/index.js
var require_b4a = __commonJS({
  "node_modules/b4a/index.js"(exports, module) {
    function isBuffer(value) {
      return Buffer.isBuffer(value) || value instanceof Uint8Array;
    }
    function isEncoding(encoding) {
      return Buffer.isEncoding(encoding);
    }
    function alloc(size, fill2, encoding) {
      return Buffer.alloc(size, fill2, encoding);
    }
    function allocUnsafe(size) {
      return Buffer.allocUnsafe(size);
    }
    function allocUnsafeSlow(size) {
      return Buffer.allocUnsafeSlow(size);
    }
    function byteLength(string, encoding) {
      return Buffer.byteLength(string, encoding);
    }
    function compare(a, b) {
      return Buffer.compare(a, b);
    }
    function concat2(buffers, totalLength) {
      return Buffer.concat(buffers, totalLength);
    }
    function copy(source, target, targetStart, start, end) {
      return toBuffer(source).copy(target, targetStart, start, end);
    }
    function equals(a, b) {
      return toBuffer(a).equals(b);
    }
    function fill(buffer, value, offset, end, encoding) {
      return toBuffer(buffer).fill(value, offset, end, encoding);
    }
    function from(value, encodingOrOffset, length) {
      return Buffer.from(value, encodingOrOffset, length);
    }
    function includes(buffer, value, byteOffset, encoding) {
      return toBuffer(buffer).includes(value, byteOffset, encoding);
    }
    function indexOf(buffer, value, byfeOffset, encoding) {
      return toBuffer(buffer).indexOf(value, byfeOffset, encoding);
    }
    function lastIndexOf(buffer, value, byteOffset, encoding) {
      return toBuffer(buffer).lastIndexOf(value, byteOffset, encoding);
    }
    function swap16(buffer) {
      return toBuffer(buffer).swap16();
    }
    function swap32(buffer) {
      return toBuffer(buffer).swap32();
    }
    function swap64(buffer) {
      return toBuffer(buffer).swap64();
    }
    function toBuffer(buffer) {
      if (Buffer.isBuffer(buffer)) return buffer;
      return Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    }
    function toString(buffer, encoding, start, end) {
      return toBuffer(buffer).toString(encoding, start, end);
    }
    function toHex(buffer, start, end) {
      return toBuffer(buffer).toString("hex", start, end);
    }
    function write2(buffer, string, offset, length, encoding) {
      return toBuffer(buffer).write(string, offset, length, encoding);
    }
    function readDoubleBE(buffer, offset) {
      return toBuffer(buffer).readDoubleBE(offset);
    }
    function readDoubleLE(buffer, offset) {
      return toBuffer(buffer).readDoubleLE(offset);
    }
    function readFloatBE(buffer, offset) {
      return toBuffer(buffer).readFloatBE(offset);
    }
    function readFloatLE(buffer, offset) {
      return toBuffer(buffer).readFloatLE(offset);
    }
    function readInt32BE(buffer, offset) {
      return toBuffer(buffer).readInt32BE(offset);
    }
    function readInt32LE(buffer, offset) {
      return toBuffer(buffer).readInt32LE(offset);
    }
    function readUInt32BE(buffer, offset) {
      return toBuffer(buffer).readUInt32BE(offset);
    }
    function readUInt32LE(buffer, offset) {
      return toBuffer(buffer).readUInt32LE(offset);
    }
    function writeDoubleBE(buffer, value, offset) {
      return toBuffer(buffer).writeDoubleBE(value, offset);
    }
    function writeDoubleLE(buffer, value, offset) {
      return toBuffer(buffer).writeDoubleLE(value, offset);
    }
    function writeFloatBE(buffer, value, offset) {
      return toBuffer(buffer).writeFloatBE(value, offset);
    }
    function writeFloatLE(buffer, value, offset) {
      return toBuffer(buffer).writeFloatLE(value, offset);
    }
    function writeInt32BE(buffer, value, offset) {
      return toBuffer(buffer).writeInt32BE(value, offset);
    }
    function writeInt32LE(buffer, value, offset) {
      return toBuffer(buffer).writeInt32LE(value, offset);
    }
    function writeUInt32BE(buffer, value, offset) {
      return toBuffer(buffer).writeUInt32BE(value, offset);
    }
    function writeUInt32LE(buffer, value, offset) {
      return toBuffer(buffer).writeUInt32LE(value, offset);
    }
    module.exports = {
      isBuffer,
      isEncoding,
      alloc,
      allocUnsafe,
      allocUnsafeSlow,
      byteLength,
      compare,
      concat: concat2,
      copy,
      equals,
      fill,
      from,
      includes,
      indexOf,
      lastIndexOf,
      swap16,
      swap32,
      swap64,
      toBuffer,
      toString,
      toHex,
      write: write2,
      readDoubleBE,
      readDoubleLE,
      readFloatBE,
      readFloatLE,
      readInt32BE,
      readInt32LE,
      readUInt32BE,
      readUInt32LE,
      writeDoubleBE,
      writeDoubleLE,
      writeFloatBE,
      writeFloatLE,
      writeInt32BE,
      writeInt32LE,
      writeUInt32BE,
      writeUInt32LE
    };
  }
});

// node_modules/text-decoder/lib/pass-through-decoder.js
var require_pass_through_decoder = __commonJS({
  "node_modules/text-decoder/lib/pass-through-decoder.js"(exports, module) {
    var b4a = require_b4a();
    module.exports = class PassThroughDecoder {
      constructor(encoding) {
        this.encoding = encoding;
      }
      get remaining() {
        return 0;
      }
      decode(data) {
        return b4a.toString(data, this.encoding);
      }
      flush() {
        return "";
      }
    };
  }
});

// node_modules/text-decoder/lib/utf8-decoder.js
var require_utf8_decoder = __commonJS({
  "node_modules/text-decoder/lib/utf8-decoder.js"(exports, module) {
    var b4a = require_b4a();
    module.exports = class UTF8Decoder {
      constructor() {
        this._reset();
      }
      get remaining() {
        return this.bytesSeen;
      }
      decode(data) {
        if (data.byteLength === 0) return "";
        if (this.bytesNeeded === 0 && trailingIncomplete(data, 0) === 0) {
          this.bytesSeen = trailingBytesSeen(data);
          return b4a.toString(data, "utf8");
        }
        let result = "";
        let start = 0;
        if (this.bytesNeeded > 0) {
          while (start < data.byteLength) {
            const byte = data[start];
            if (byte < this.lowerBoundary || byte > this.upperBoundary) {
              result += "\uFFFD";
              this._reset();
              break;
            }
            this.lowerBoundary = 128;
            this.upperBoundary = 191;
            this.codePoint = this.codePoint << 6 | byte & 63;
            this.bytesSeen++;
            start++;
            if (this.bytesSeen === this.bytesNeeded) {
              result += String.fromCodePoint(this.codePoint);
              this._reset();
              break;
            }
          }
          if (this.bytesNeeded > 0) return result;
        }
        const trailing = trailingIncomplete(data, start);
        const end = data.byteLength - trailing;
        if (end > start) result += b4a.toString(data, "utf8", start, end);
        for (let i = end; i < data.byteLength; i++) {
          const byte = data[i];
          if (this.bytesNeeded === 0) {
            if (byte <= 127) {
              this.bytesSeen = 0;
              result += String.fromCharCode(byte);
            } else if (byte >= 194 && byte <= 223) {
              this.bytesNeeded = 2;
              this.bytesSeen = 1;
              this.codePoint = byte & 31;
            } else if (byte >= 224 && byte <= 239) {
              if (byte === 224) this.lowerBoundary = 160;
              else if (byte === 237) this.upperBoundary = 159;
              this.bytesNeeded = 3;
              this.bytesSeen = 1;
              this.codePoint = byte & 15;
            } else if (byte >= 240 && byte <= 244) {
              if (byte === 240) this.lowerBoundary = 144;
              else if (byte === 244) this.upperBoundary = 143;
              this.bytesNeeded = 4;
              this.bytesSeen = 1;
              this.codePoint = byte & 7;
            } else {
              this.bytesSeen = 1;
              result += "\uFFFD";
            }
            continue;
          }
          if (byte < this.lowerBoundary || byte > this.upperBoundary) {
            result += "\uFFFD";
            i--;
            this._reset();
            continue;
          }
          this.lowerBoundary = 128;
          this.upperBoundary = 191;
          this.codePoint = this.codePoint << 6 | byte & 63;
          this.bytesSeen++;
          if (this.bytesSeen === this.bytesNeeded) {
            result += String.fromCodePoint(this.codePoint);
            this._reset();
          }
        }
        return result;
      }
      flush() {
        const result = this.bytesNeeded > 0 ? "\uFFFD" : "";
        this._reset();
        return result;
      }
      _reset() {
        this.codePoint = 0;
        this.bytesNeeded = 0;
        this.bytesSeen = 0;
        this.lowerBoundary = 128;
        this.upperBoundary = 191;
      }
    };
    function trailingIncomplete(data, start) {
      const len = data.byteLength;
      if (len <= start) return 0;
      const limit = Math.max(start, len - 4);
      let i = len - 1;
      while (i > limit && (data[i] & 192) === 128) i--;
      if (i < start) return 0;
      const byte = data[i];
      let needed;
      if (byte <= 127) return 0;
      if (byte >= 194 && byte <= 223) needed = 2;
      else if (byte >= 224 && byte <= 239) needed = 3;
      else if (byte >= 240 && byte <= 244) needed = 4;
      else return 0;
      const available = len - i;
      return available < needed ? available : 0;
    }
    function trailingBytesSeen(data) {
      const len = data.byteLength;
      if (len === 0) return 0;
      const last = data[len - 1];
      if (last <= 127) return 0;
      if ((last & 192) !== 128) return 1;
      const limit = Math.max(0, len - 4);
      let i = len - 2;
      while (i >= limit && (data[i] & 192) === 128) i--;
      if (i < 0) return 1;
      const first = data[i];
      let needed;
      if (first >= 194 && first <= 223) needed = 2;
      else if (first >= 224 && first <= 239) needed = 3;
      else if (first >= 240 && first <= 244) needed = 4;
      else return 1;
      if (len - i !== needed) return 1;
      if (needed >= 3) {
        const second = data[i + 1];
        if (first === 224 && second < 160) return 1;
        if (first === 237 && second > 159) return 1;
        if (first === 240 && second < 144) return 1;
        if (first === 244 && second > 143) return 1;
      }
      return 0;
    }
  }
});

// node_modules/text-decoder/index.js
var require_text_decoder = __commonJS({
  "node_modules/text-decoder/index.js"(exports, module) {
    var PassThroughDecoder = require_pass_through_decoder();
    var UTF8Decoder = require_utf8_decoder();
    module.exports = class TextDecoder {
      constructor(encoding = "utf8") {
        this.encoding = normalizeEncoding(encoding);
        switch (this.encoding) {
          case "utf8":
            this.decoder = new UTF8Decoder();
            break;
          case "utf16le":
          case "base64":
            throw new Error("Unsupported encoding: " + this.encoding);
          default:
            this.decoder = new PassThroughDecoder(this.encoding);
        }
      }
      get remaining() {
        return this.decoder.remaining;
      }
      push(data) {
        if (typeof data === "string") return data;
        return this.decoder.decode(data);
      }
      // For Node.js compatibility
      write(data) {
        return this.push(data);
      }
      end(data) {
        let result = "";
        if (data) result = this.push(data);
        result += this.decoder.flush();
        return result;
      }
    };
    function normalizeEncoding(encoding) {
      encoding = encoding.toLowerCase();
      switch (encoding) {
        case "utf8":
        case "utf-8":
          return "utf8";
        case "ucs2":
        case "ucs-2":
        case "utf16le":
        case "utf-16le":
          return "utf16le";
        case "latin1":
        case "binary":
          return "latin1";
        case "base64":
        case "ascii":
        case "hex":
          return encoding;
        default:
          throw new Error("Unknown encoding: " + encoding);
      }
    }
  }
});

// node_modules/streamx/lib/errors.js
var require_errors = __commonJS({
  "node_modules/streamx/lib/errors.js"(exports, module) {
    module.exports = class StreamError extends Error {
      constructor(msg, code, fn = StreamError) {
        super(msg);
        this.code = code;
        if (Error.captureStackTrace) {
          Error.captureStackTrace(this, fn);
        }
      }
      static isStreamDestroyed(err) {
        return err && err.code === "STREAM_DESTROYED";
      }
      static isPrematureClose(err) {
        return err && err.code === "PREMATURE_CLOSE";
      }
      static isAborted(err) {
        return err && err.code === "ABORTED";
      }
      static isBadArgument(err) {
        return err && err.code === "BAD_ARGUMENT";
      }
      get name() {
        return "StreamError";
      }
      static STREAM_DESTROYED() {
        return new StreamError("Stream was destroyed", "STREAM_DESTROYED", StreamError.STREAM_DESTROYED);
      }
      static PREMATURE_CLOSE(msg = "Premature close") {
        return new StreamError(msg, "PREMATURE_CLOSE", StreamError.PREMATURE_CLOSE);
      }
      static ABORTED() {
        return new StreamError("Stream aborted", "ABORTED", StreamError.ABORTED);
      }
      static BAD_ARGUMENT(msg = "Bad argument") {
        return new StreamError(msg, "BAD_ARGUMENT", StreamError.BAD_ARGUMENT);
      }
    };
  }
});

// node_modules/streamx/index.js
var require_streamx = __commonJS({
  "node_modules/streamx/index.js"(exports, module) {
    var { EventEmitter: EventEmitter2 } = require_default();
    var FIFO = require_fast_fifo();
    var TextDecoder2 = require_text_decoder();
    var StreamError = require_errors();
    var qmt = typeof queueMicrotask === "undefined" ? (fn) => global.process.nextTick(fn) : queueMicrotask;
    var MAX = (1 << 29) - 1;
    var OPENING = 1;
    var PREDESTROYING = 2;
    var DESTROYING = 4;
    var DESTROYED = 8;
    var NOT_OPENING = MAX ^ OPENING;
    var NOT_PREDESTROYING = MAX ^ PREDESTROYING;
    var READ_ACTIVE = 1 << 4;
    var READ_UPDATING = 2 << 4;
    var READ_PRIMARY = 4 << 4;
    var READ_QUEUED = 8 << 4;
    var READ_RESUMED = 16 << 4;
    var READ_PIPE_DRAINED = 32 << 4;
    var READ_ENDING = 64 << 4;
    var READ_EMIT_DATA = 128 << 4;
    var READ_EMIT_READABLE = 256 << 4;
    var READ_EMITTED_READABLE = 512 << 4;
    var READ_DONE = 1024 << 4;
    var READ_NEXT_TICK = 2048 << 4;
    var READ_NEEDS_PUSH = 4096 << 4;
    var READ_READ_AHEAD = 8192 << 4;
    var READ_FLOWING = READ_RESUMED | READ_PIPE_DRAINED;
    var READ_ACTIVE_AND_NEEDS_PUSH = READ_ACTIVE | READ_NEEDS_PUSH;
    var READ_PRIMARY_AND_ACTIVE = READ_PRIMARY | READ_ACTIVE;
    var READ_EMIT_READABLE_AND_QUEUED = READ_EMIT_READABLE | READ_QUEUED;
    var READ_RESUMED_READ_AHEAD = READ_RESUMED | READ_READ_AHEAD;
    var READ_NOT_ACTIVE = MAX ^ READ_ACTIVE;
    var READ_NON_PRIMARY = MAX ^ READ_PRIMARY;
    var READ_NON_PRIMARY_AND_PUSHED = MAX ^ (READ_PRIMARY | READ_NEEDS_PUSH);
    var READ_PUSHED = MAX ^ READ_NEEDS_PUSH;
    var READ_PAUSED = MAX ^ READ_RESUMED;
    var READ_NOT_QUEUED = MAX ^ (READ_QUEUED | READ_EMITTED_READABLE);
    var READ_NOT_ENDING = MAX ^ READ_ENDING;
    var READ_PIPE_NOT_DRAINED = MAX ^ READ_FLOWING;
    var READ_NOT_NEXT_TICK = MAX ^ READ_NEXT_TICK;
    var READ_NOT_UPDATING = MAX ^ READ_UPDATING;
    var READ_NO_READ_AHEAD = MAX ^ READ_READ_AHEAD;
    var READ_PAUSED_NO_READ_AHEAD = MAX ^ READ_RESUMED_READ_AHEAD;
    var WRITE_ACTIVE = 1 << 18;
    var WRITE_UPDATING = 2 << 18;
    var WRITE_PRIMARY = 4 << 18;
    var WRITE_QUEUED = 8 << 18;
    var WRITE_UNDRAINED = 16 << 18;
    var WRITE_DONE = 32 << 18;
    var WRITE_EMIT_DRAIN = 64 << 18;
    var WRITE_NEXT_TICK = 128 << 18;
    var WRITE_WRITING = 256 << 18;
    var WRITE_FINISHING = 512 << 18;
    var WRITE_CORKED = 1024 << 18;
    var WRITE_NOT_ACTIVE = MAX ^ (WRITE_ACTIVE | WRITE_WRITING);
    var WRITE_NON_PRIMARY = MAX ^ WRITE_PRIMARY;
    var WRITE_NOT_FINISHING = MAX ^ (WRITE_ACTIVE | WRITE_FINISHING);
    var WRITE_DRAINED = MAX ^ WRITE_UNDRAINED;
    var WRITE_NOT_QUEUED = MAX ^ WRITE_QUEUED;
    var WRITE_NOT_NEXT_TICK = MAX ^ WRITE_NEXT_TICK;
    var WRITE_NOT_UPDATING = MAX ^ WRITE_UPDATING;
    var WRITE_NOT_CORKED = MAX ^ WRITE_CORKED;
    var ACTIVE = READ_ACTIVE | WRITE_ACTIVE;
    var NOT_ACTIVE = MAX ^ ACTIVE;
    var DONE = READ_DONE | WRITE_DONE;
    var DESTROY_STATUS = DESTROYING | DESTROYED | PREDESTROYING;
    var OPEN_STATUS = DESTROY_STATUS | OPENING;
    var AUTO_DESTROY = DESTROY_STATUS | DONE;
    var NON_PRIMARY = WRITE_NON_PRIMARY & READ_NON_PRIMARY;
    var ACTIVE_OR_TICKING = WRITE_NEXT_TICK | READ_NEXT_TICK;
    var TICKING = ACTIVE_OR_TICKING & NOT_ACTIVE;
    var IS_OPENING = OPEN_STATUS | TICKING;
    var READ_PRIMARY_STATUS = OPEN_STATUS | READ_ENDING | READ_DONE;
    var READ_STATUS = OPEN_STATUS | READ_DONE | READ_QUEUED;
    var READ_ENDING_STATUS = OPEN_STATUS | READ_ENDING | READ_QUEUED;
    var READ_READABLE_STATUS = OPEN_STATUS | READ_EMIT_READABLE | READ_QUEUED | READ_EMITTED_READABLE;
    var SHOULD_NOT_READ = OPEN_STATUS | READ_ACTIVE | READ_ENDING | READ_DONE | READ_NEEDS_PUSH | READ_READ_AHEAD;
    var READ_BACKPRESSURE_STATUS = DESTROY_STATUS | READ_ENDING | READ_DONE;
    var READ_UPDATE_SYNC_STATUS = READ_UPDATING | OPEN_STATUS | READ_NEXT_TICK | READ_PRIMARY;
    var READ_NEXT_TICK_OR_OPENING = READ_NEXT_TICK | OPENING;
    var WRITE_PRIMARY_STATUS = OPEN_STATUS | WRITE_FINISHING | WRITE_DONE;
    var WRITE_QUEUED_AND_UNDRAINED = WRITE_QUEUED | WRITE_UNDRAINED;
    var WRITE_QUEUED_AND_ACTIVE = WRITE_QUEUED | WRITE_ACTIVE;
    var WRITE_DRAIN_STATUS = WRITE_QUEUED | WRITE_UNDRAINED | OPEN_STATUS | WRITE_ACTIVE;
    var WRITE_STATUS = OPEN_STATUS | WRITE_ACTIVE | WRITE_QUEUED | WRITE_CORKED;
    var WRITE_PRIMARY_AND_ACTIVE = WRITE_PRIMARY | WRITE_ACTIVE;
    var WRITE_ACTIVE_AND_WRITING = WRITE_ACTIVE | WRITE_WRITING;
    var WRITE_FINISHING_STATUS = OPEN_STATUS | WRITE_FINISHING | WRITE_QUEUED_AND_ACTIVE | WRITE_DONE;
    var WRITE_BACKPRESSURE_STATUS = WRITE_UNDRAINED | DESTROY_STATUS | WRITE_FINISHING | WRITE_DONE;
    var WRITE_UPDATE_SYNC_STATUS = WRITE_UPDATING | OPEN_STATUS | WRITE_NEXT_TICK | WRITE_PRIMARY;
    var WRITE_DROP_DATA = WRITE_FINISHING | WRITE_DONE | DESTROY_STATUS;
    var asyncIterator = Symbol.asyncIterator || /* @__PURE__ */ Symbol("asyncIterator");
    var WritableState = class {
      constructor(stream, { highWaterMark = 16384, map = null, mapWritable, byteLength, byteLengthWritable } = {}) {
        this.stream = stream;
        this.queue = new FIFO();
        this.highWaterMark = highWaterMark;
        this.buffered = 0;
        this.error = null;
        this.pipeline = null;
        this.drains = null;
        this.byteLength = byteLengthWritable || byteLength || defaultByteLength;
        this.map = mapWritable || map;
        this.afterWrite = afterWrite.bind(this);
        this.afterUpdateNextTick = updateWriteNT.bind(this);
      }
      get ending() {
        return (this.stream._duplexState & WRITE_FINISHING) !== 0;
      }
      get ended() {
        return (this.stream._duplexState & WRITE_DONE) !== 0;
      }
      push(data) {
        if ((this.stream._duplexState & WRITE_DROP_DATA) !== 0) return false;
        if (this.map !== null) data = this.map(data);
        this.buffered += this.byteLength(data);
        this.queue.push(data);
        if (this.buffered < this.highWaterMark) {
          this.stream._duplexState |= WRITE_QUEUED;
          return true;
        }
        this.stream._duplexState |= WRITE_QUEUED_AND_UNDRAINED;
        return false;
      }
      shift() {
        const data = this.queue.shift();
        this.buffered -= this.byteLength(data);
        if (this.buffered === 0) this.stream._duplexState &= WRITE_NOT_QUEUED;
        return data;
      }
      end(data) {
        if (typeof data === "function") {
          this.stream.once("finish", data);
        } else if (data !== void 0 && data !== null) {
          this.push(data);
        }
        this.stream._duplexState = (this.stream._duplexState | WRITE_FINISHING) & WRITE_NON_PRIMARY;
      }
      autoBatch(data, cb) {
        const buffer = [];
        const stream = this.stream;
        buffer.push(data);
        while ((stream._duplexState & WRITE_STATUS) === WRITE_QUEUED_AND_ACTIVE) {
          buffer.push(stream._writableState.shift());
        }
        if ((stream._duplexState & OPEN_STATUS) !== 0) return cb(null);
        stream._writev(buffer, cb);
      }
      update() {
        const stream = this.stream;
        stream._duplexState |= WRITE_UPDATING;
        do {
          while ((stream._duplexState & WRITE_STATUS) === WRITE_QUEUED) {
            const data = this.shift();
            stream._duplexState |= WRITE_ACTIVE_AND_WRITING;
            stream._write(data, this.afterWrite);
          }
          if ((stream._duplexState & WRITE_PRIMARY_AND_ACTIVE) === 0) this.updateNonPrimary();
        } while (this.continueUpdate() === true);
        stream._duplexState &= WRITE_NOT_UPDATING;
      }
      updateNonPrimary() {
        const stream = this.stream;
        if ((stream._duplexState & WRITE_FINISHING_STATUS) === WRITE_FINISHING) {
          stream._duplexState = stream._duplexState | WRITE_ACTIVE;
          stream._final(afterFinal.bind(this));
          return;
        }
        if ((stream._duplexState & DESTROY_STATUS) === DESTROYING) {
          if ((stream._duplexState & ACTIVE_OR_TICKING) === 0) {
            stream._duplexState |= ACTIVE;
            stream._destroy(afterDestroy.bind(this));
          }
          return;
        }
        if ((stream._duplexState & IS_OPENING) === OPENING) {
          stream._duplexState = (stream._duplexState | ACTIVE) & NOT_OPENING;
          stream._open(afterOpen.bind(this));
        }
      }
      continueUpdate() {
        if ((this.stream._duplexState & WRITE_NEXT_TICK) === 0) return false;
        this.stream._duplexState &= WRITE_NOT_NEXT_TICK;
        return true;
      }
      updateCallback() {
        if ((this.stream._duplexState & WRITE_UPDATE_SYNC_STATUS) === WRITE_PRIMARY) {
          this.update();
        } else {
          this.updateNextTick();
        }
      }
      updateNextTick() {
        if ((this.stream._duplexState & WRITE_NEXT_TICK) !== 0) return;
        this.stream._duplexState |= WRITE_NEXT_TICK;
        if ((this.stream._duplexState & WRITE_UPDATING) === 0) qmt(this.afterUpdateNextTick);
      }
    };
    var ReadableState = class {
      constructor(stream, { highWaterMark = 16384, map = null, mapReadable, byteLength, byteLengthReadable } = {}) {
        this.stream = stream;
        this.queue = new FIFO();
        this.highWaterMark = highWaterMark === 0 ? 1 : highWaterMark;
        this.buffered = 0;
        this.readAhead = highWaterMark > 0;
        this.error = null;
        this.pipeline = null;
        this.byteLength = byteLengthReadable || byteLength || defaultByteLength;
        this.map = mapReadable || map;
        this.pipeTo = null;
        this.afterRead = afterRead.bind(this);
        this.afterUpdateNextTick = updateReadNT.bind(this);
      }
      get ending() {
        return (this.stream._duplexState & READ_ENDING) !== 0;
      }
      get ended() {
        return (this.stream._duplexState & READ_DONE) !== 0;
      }
      pipe(pipeTo, cb) {
        if (this.pipeTo !== null) throw StreamError.BAD_ARGUMENT("Can only pipe to one destination");
        if (typeof cb !== "function") cb = null;
        this.stream._duplexState |= READ_PIPE_DRAINED;
        this.pipeTo = pipeTo;
        this.pipeline = new Pipeline(this.stream, pipeTo, cb);
        if (cb) this.stream.on("error", noop);
        if (isStreamx(pipeTo)) {
          pipeTo._writableState.pipeline = this.pipeline;
          if (cb) pipeTo.on("error", noop);
          pipeTo.on("finish", this.pipeline.finished.bind(this.pipeline));
        } else {
          const onerror = this.pipeline.done.bind(this.pipeline, pipeTo);
          const onclose = this.pipeline.done.bind(this.pipeline, pipeTo, null);
          pipeTo.on("error", onerror);
          pipeTo.on("close", onclose);
          pipeTo.on("finish", this.pipeline.finished.bind(this.pipeline));
        }
        pipeTo.on("drain", afterDrain.bind(this));
        this.stream.emit("piping", pipeTo);
        pipeTo.emit("pipe", this.stream);
      }
      push(data) {
        const stream = this.stream;
        if (data === null) {
          this.highWaterMark = 0;
          stream._duplexState = (stream._duplexState | READ_ENDING) & READ_NON_PRIMARY_AND_PUSHED;
          return false;
        }
        if (this.map !== null) {
          data = this.map(data);
          if (data === null) {
            stream._duplexState &= READ_PUSHED;
            return this.buffered < this.highWaterMark;
          }
        }
        this.buffered += this.byteLength(data);
        this.queue.push(data);
        stream._duplexState = (stream._duplexState | READ_QUEUED) & READ_PUSHED;
        return this.buffered < this.highWaterMark;
      }
      shift() {
        const data = this.queue.shift();
        this.buffered -= this.byteLength(data);
        if (this.buffered === 0) {
          this.stream._duplexState &= READ_NOT_QUEUED;
        }
        return data;
      }
      unshift(data) {
        const pending = [this.map !== null ? this.map(data) : data];
        while (this.buffered > 0) pending.push(this.shift());
        for (let i = 0; i < pending.length - 1; i++) {
          const data2 = pending[i];
          this.buffered += this.byteLength(data2);
          this.queue.push(data2);
        }
        this.push(pending[pending.length - 1]);
      }
      read() {
        const stream = this.stream;
        if ((stream._duplexState & READ_STATUS) === READ_QUEUED) {
          const data = this.shift();
          if (this.pipeTo !== null && this.pipeTo.write(data) === false) {
            stream._duplexState &= READ_PIPE_NOT_DRAINED;
          }
          if ((stream._duplexState & READ_EMIT_DATA) !== 0) {
            stream.emit("data", data);
          }
          return data;
        }
        if (this.readAhead === false) {
          stream._duplexState |= READ_READ_AHEAD;
          this.updateNextTick();
        }
        return null;
      }
      drain() {
        const stream = this.stream;
        while ((stream._duplexState & READ_STATUS) === READ_QUEUED && (stream._duplexState & READ_FLOWING) !== 0) {
          const data = this.shift();
          if (this.pipeTo !== null && this.pipeTo.write(data) === false) {
            stream._duplexState &= READ_PIPE_NOT_DRAINED;
          }
          if ((stream._duplexState & READ_EMIT_DATA) !== 0) {
            stream.emit("data", data);
          }
        }
      }
      update() {
        const stream = this.stream;
        stream._duplexState |= READ_UPDATING;
        do {
          this.drain();
          while (this.buffered < this.highWaterMark && (stream._duplexState & SHOULD_NOT_READ) === READ_READ_AHEAD) {
            stream._duplexState |= READ_ACTIVE_AND_NEEDS_PUSH;
            stream._read(this.afterRead);
            this.drain();
          }
          if ((stream._duplexState & READ_READABLE_STATUS) === READ_EMIT_READABLE_AND_QUEUED) {
            stream._duplexState |= READ_EMITTED_READABLE;
            stream.emit("readable");
          }
          if ((stream._duplexState & READ_PRIMARY_AND_ACTIVE) === 0) {
            this.updateNonPrimary();
          }
        } while (this.continueUpdate() === true);
        stream._duplexState &= READ_NOT_UPDATING;
      }
      updateNonPrimary() {
        const stream = this.stream;
        if ((stream._duplexState & READ_ENDING_STATUS) === READ_ENDING) {
          stream._duplexState = (stream._duplexState | READ_DONE) & READ_NOT_ENDING;
          stream.emit("end");
          if ((stream._duplexState & AUTO_DESTROY) === DONE) {
            stream._duplexState |= DESTROYING;
          }
          if (this.pipeTo !== null) {
            this.pipeTo.end();
          }
        }
        if ((stream._duplexState & DESTROY_STATUS) === DESTROYING) {
          if ((stream._duplexState & ACTIVE_OR_TICKING) === 0) {
            stream._duplexState |= ACTIVE;
            stream._destroy(afterDestroy.bind(this));
          }
          return;
        }
        if ((stream._duplexState & IS_OPENING) === OPENING) {
          stream._duplexState = (stream._duplexState | ACTIVE) & NOT_OPENING;
          stream._open(afterOpen.bind(this));
        }
      }
      continueUpdate() {
        if ((this.stream._duplexState & READ_NEXT_TICK) === 0) return false;
        this.stream._duplexState &= READ_NOT_NEXT_TICK;
        return true;
      }
      updateCallback() {
        if ((this.stream._duplexState & READ_UPDATE_SYNC_STATUS) === READ_PRIMARY) {
          this.update();
        } else {
          this.updateNextTick();
        }
      }
      updateNextTickIfOpen() {
        if ((this.stream._duplexState & READ_NEXT_TICK_OR_OPENING) !== 0) return;
        this.stream._duplexState |= READ_NEXT_TICK;
        if ((this.stream._duplexState & READ_UPDATING) === 0) qmt(this.afterUpdateNextTick);
      }
      updateNextTick() {
        if ((this.stream._duplexState & READ_NEXT_TICK) !== 0) return;
        this.stream._duplexState |= READ_NEXT_TICK;
        if ((this.stream._duplexState & READ_UPDATING) === 0) qmt(this.afterUpdateNextTick);
      }
    };
    var TransformState = class {
      constructor(stream) {
        this.data = null;
        this.afterTransform = afterTransform.bind(stream);
        this.afterFinal = null;
      }
    };
    var Pipeline = class {
      constructor(src, dst, cb) {
        this.from = src;
        this.to = dst;
        this.afterPipe = cb;
        this.error = null;
        this.pipeToFinished = false;
      }
      finished() {
        this.pipeToFinished = true;
      }
      done(stream, err) {
        if (err) this.error = err;
        if (stream === this.to) {
          this.to = null;
          if (this.from !== null) {
            if ((this.from._duplexState & READ_DONE) === 0 || !this.pipeToFinished) {
              this.from.destroy(this.error || StreamError.PREMATURE_CLOSE("Writable stream closed"));
            }
            return;
          }
        }
        if (stream === this.from) {
          this.from = null;
          if (this.to !== null) {
            if ((stream._duplexState & READ_DONE) === 0) {
              this.to.destroy(this.error || StreamError.PREMATURE_CLOSE("Readable stream closed"));
            }
            return;
          }
        }
        if (this.afterPipe !== null) this.afterPipe(this.error);
        this.to = this.from = this.afterPipe = null;
      }
    };
    function afterDrain() {
      this.stream._duplexState |= READ_PIPE_DRAINED;
      this.updateCallback();
    }
    function afterFinal(err) {
      const stream = this.stream;
      if (err) stream.destroy(err);
      if ((stream._duplexState & DESTROY_STATUS) === 0) {
        stream._duplexState |= WRITE_DONE;
        stream.emit("finish");
      }
      if ((stream._duplexState & AUTO_DESTROY) === DONE) {
        stream._duplexState |= DESTROYING;
      }
      stream._duplexState &= WRITE_NOT_FINISHING;
      if ((stream._duplexState & WRITE_UPDATING) === 0) {
        this.update();
      } else {
        this.updateNextTick();
      }
    }
    function afterDestroy(err) {
      const stream = this.stream;
      if (!err && !StreamError.isStreamDestroyed(this.error)) err = this.error;
      if (err) stream.emit("error", err);
      stream._duplexState |= DESTROYED;
      stream.emit("close");
      const rs = stream._readableState;
      const ws = stream._writableState;
      if (rs !== null && rs.pipeline !== null) {
        rs.pipeline.done(stream, err);
      }
      if (ws !== null) {
        while (ws.drains !== null && ws.drains.length > 0) {
          ws.drains.shift().resolve(false);
        }
        if (ws.pipeline !== null) {
          ws.pipeline.done(stream, err);
        }
      }
    }
    function afterWrite(err) {
      const stream = this.stream;
      if (err) stream.destroy(err);
      stream._duplexState &= WRITE_NOT_ACTIVE;
      if (this.drains !== null) tickDrains(this.drains);
      if ((stream._duplexState & WRITE_DRAIN_STATUS) === WRITE_UNDRAINED) {
        stream._duplexState &= WRITE_DRAINED;
        if ((stream._duplexState & WRITE_EMIT_DRAIN) === WRITE_EMIT_DRAIN) {
          stream.emit("drain");
        }
      }
      this.updateCallback();
    }
    function afterRead(err) {
      if (err) this.stream.destroy(err);
      this.stream._duplexState &= READ_NOT_ACTIVE;
      if (this.readAhead === false && (this.stream._duplexState & READ_RESUMED) === 0) {
        this.stream._duplexState &= READ_NO_READ_AHEAD;
      }
      this.updateCallback();
    }
    function updateReadNT() {
      if ((this.stream._duplexState & READ_UPDATING) === 0) {
        this.stream._duplexState &= READ_NOT_NEXT_TICK;
        this.update();
      }
    }
    function updateWriteNT() {
      if ((this.stream._duplexState & WRITE_UPDATING) === 0) {
        this.stream._duplexState &= WRITE_NOT_NEXT_TICK;
        this.update();
      }
    }
    function tickDrains(drains) {
      for (let i = 0; i < drains.length; i++) {
        if (--drains[i].writes === 0) {
          drains.shift().resolve(true);
          i--;
        }
      }
    }
    function afterOpen(err) {
      const stream = this.stream;
      if (err) stream.destroy(err);
      if ((stream._duplexState & DESTROYING) === 0) {
        if ((stream._duplexState & READ_PRIMARY_STATUS) === 0) {
          stream._duplexState |= READ_PRIMARY;
        }
        if ((stream._duplexState & WRITE_PRIMARY_STATUS) === 0) {
          stream._duplexState |= WRITE_PRIMARY;
        }
        stream.emit("open");
      }
      stream._duplexState &= NOT_ACTIVE;
      if (stream._writableState !== null) {
        stream._writableState.updateCallback();
      }
      if (stream._readableState !== null) {
        stream._readableState.updateCallback();
      }
    }
    function afterTransform(err, data) {
      if (data !== void 0 && data !== null) this.push(data);
      this._writableState.afterWrite(err);
    }
    function newListener(name) {
      if (this._readableState !== null) {
        if (name === "data") {
          this._duplexState |= READ_EMIT_DATA | READ_RESUMED_READ_AHEAD;
          this._readableState.updateNextTick();
        }
        if (name === "readable") {
          this._duplexState |= READ_EMIT_READABLE;
          this._readableState.updateNextTick();
        }
      }
      if (this._writableState !== null) {
        if (name === "drain") {
          this._duplexState |= WRITE_EMIT_DRAIN;
          this._writableState.updateNextTick();
        }
      }
    }
    var Stream = class extends EventEmitter2 {
      constructor(opts) {
        super();
        this._duplexState = 0;
        this._readableState = null;
        this._writableState = null;
        if (opts) {
          if (opts.open) this._open = opts.open;
          if (opts.destroy) this._destroy = opts.destroy;
          if (opts.predestroy) this._predestroy = opts.predestroy;
          if (opts.signal) opts.signal.addEventListener("abort", abort.bind(this));
        }
        this.on("newListener", newListener);
      }
      _open(cb) {
        cb(null);
      }
      _destroy(cb) {
        cb(null);
      }
      _predestroy() {
      }
      get readable() {
        return this._readableState !== null ? true : void 0;
      }
      get writable() {
        return this._writableState !== null ? true : void 0;
      }
      get destroyed() {
        return (this._duplexState & DESTROYED) !== 0;
      }
      get destroying() {
        return (this._duplexState & DESTROY_STATUS) !== 0;
      }
      destroy(err) {
        if ((this._duplexState & DESTROY_STATUS) === 0) {
          if (!err) err = StreamError.STREAM_DESTROYED();
          this._duplexState = (this._duplexState | DESTROYING) & NON_PRIMARY;
          if (this._readableState !== null) {
            this._readableState.highWaterMark = 0;
            this._readableState.error = err;
          }
          if (this._writableState !== null) {
            this._writableState.highWaterMark = 0;
            this._writableState.error = err;
          }
          this._duplexState |= PREDESTROYING;
          this._predestroy();
          this._duplexState &= NOT_PREDESTROYING;
          if (this._readableState !== null) {
            this._readableState.updateNextTick();
          }
          if (this._writableState !== null) {
            this._writableState.updateNextTick();
          }
        }
      }
    };
    var Readable2 = class _Readable extends Stream {
      constructor(opts) {
        super(opts);
        this._duplexState |= OPENING | WRITE_DONE | READ_READ_AHEAD;
        this._readableState = new ReadableState(this, opts);
        if (opts) {
          if (this._readableState.readAhead === false) this._duplexState &= READ_NO_READ_AHEAD;
          if (opts.read) this._read = opts.read;
          if (opts.eagerOpen) this._readableState.updateNextTick();
          if (opts.encoding) this.setEncoding(opts.encoding);
        }
      }
      static deferred(fn, opts) {
        const out = new PassThrough(opts);
        fn().then((src) => {
          if (src === null) return out.end();
          if (out.destroying) return;
          pipeline(src, out, noop);
        }).catch((err) => out.destroy(err));
        return out;
      }
      setEncoding(encoding) {
        const dec = new TextDecoder2(encoding);
        const map = this._readableState.map || echo;
        this._readableState.map = mapOrSkip;
        return this;
        function mapOrSkip(data) {
          const next = dec.push(data);
          return next === "" && (data.byteLength !== 0 || dec.remaining > 0) ? null : map(next);
        }
      }
      _read(cb) {
        cb(null);
      }
      pipe(dest, cb) {
        this._readableState.updateNextTick();
        this._readableState.pipe(dest, cb);
        return dest;
      }
      read() {
        this._readableState.updateNextTick();
        return this._readableState.read();
      }
      push(data) {
        this._readableState.updateNextTickIfOpen();
        return this._readableState.push(data);
      }
      unshift(data) {
        this._readableState.updateNextTickIfOpen();
        return this._readableState.unshift(data);
      }
      resume() {
        this._duplexState |= READ_RESUMED_READ_AHEAD;
        this._readableState.updateNextTick();
        return this;
      }
      pause() {
        this._duplexState &= this._readableState.readAhead === false ? READ_PAUSED_NO_READ_AHEAD : READ_PAUSED;
        return this;
      }
      static _fromAsyncIterator(ite, opts) {
        let destroy;
        const rs = new _Readable({
          ...opts,
          read(cb) {
            ite.next().then(push).then(cb.bind(null, null)).catch(cb);
          },
          predestroy() {
            destroy = ite.return();
          },
          destroy(cb) {
            if (!destroy) return cb(null);
            destroy.then(cb.bind(null, null)).catch(cb);
          }
        });
        return rs;
        function push(data) {
          if (data.done) rs.push(null);
          else rs.push(data.value);
        }
      }
      static from(data, opts) {
        if (isReadStreamx(data)) return data;
        if (data[asyncIterator]) return this._fromAsyncIterator(data[asyncIterator](), opts);
        if (!Array.isArray(data)) data = data === void 0 ? [] : [data];
        let i = 0;
        return new _Readable({
          ...opts,
          read(cb) {
            this.push(i === data.length ? null : data[i++]);
            cb(null);
          }
        });
      }
      static isBackpressured(rs) {
        return (rs._duplexState & READ_BACKPRESSURE_STATUS) !== 0 || rs._readableState.buffered >= rs._readableState.highWaterMark;
      }
      static isPaused(rs) {
        return (rs._duplexState & READ_RESUMED) === 0;
      }
      [asyncIterator]() {
        const stream = this;
        let error = null;
        let promiseResolve = null;
        let promiseReject = null;
        this.on("error", (err) => {
          error = err;
        });
        this.on("readable", onreadable);
        this.on("close", onclose);
        return {
          [asyncIterator]() {
            return this;
          },
          next() {
            return new Promise(function(resolve4, reject) {
              promiseResolve = resolve4;
              promiseReject = reject;
              const data = stream.read();
              if (data !== null) ondata(data);
              else if ((stream._duplexState & DESTROYED) !== 0) ondata(null);
            });
          },
          return() {
            return destroy(null);
          },
          throw(err) {
            return destroy(err);
          }
        };
        function onreadable() {
          if (promiseResolve !== null) ondata(stream.read());
        }
        function onclose() {
          if (promiseResolve !== null) ondata(null);
        }
        function ondata(data) {
          if (promiseReject === null) return;
          if (error) {
            promiseReject(error);
          } else if (data === null && (stream._duplexState & READ_DONE) === 0) {
            promiseReject(StreamError.STREAM_DESTROYED());
          } else {
            promiseResolve({ value: data, done: data === null });
          }
          promiseReject = promiseResolve = null;
        }
        function destroy(err) {
          stream.destroy(err);
          return new Promise((resolve4, reject) => {
            if (stream._duplexState & DESTROYED) return resolve4({ value: void 0, done: true });
            stream.once("close", function() {
              if (err) reject(err);
              else resolve4({ value: void 0, done: true });
            });
          });
        }
      }
    };
    var Writable = class extends Stream {
      constructor(opts) {
        super(opts);
        this._duplexState |= OPENING | READ_DONE;
        this._writableState = new WritableState(this, opts);
        if (opts) {
          if (opts.writev) this._writev = opts.writev;
          if (opts.write) this._write = opts.write;
          if (opts.final) this._final = opts.final;
          if (opts.eagerOpen) this._writableState.updateNextTick();
        }
      }
      cork() {
        this._duplexState |= WRITE_CORKED;
      }
      uncork() {
        this._duplexState &= WRITE_NOT_CORKED;
        this._writableState.updateNextTick();
      }
      _writev(batch, cb) {
        cb(null);
      }
      _write(data, cb) {
        this._writableState.autoBatch(data, cb);
      }
      _final(cb) {
        cb(null);
      }
      static isBackpressured(ws) {
        return (ws._duplexState & WRITE_BACKPRESSURE_STATUS) !== 0;
      }
      static drained(ws) {
        if (ws.destroyed) return Promise.resolve(false);
        const state = ws._writableState;
        const pending = isWritev(ws) ? Math.min(1, state.queue.length) : state.queue.length;
        const writes = pending + (ws._duplexState & WRITE_WRITING ? 1 : 0);
        if (writes === 0) return Promise.resolve(true);
        if (state.drains === null) state.drains = [];
        return new Promise((resolve4) => {
          state.drains.push({ writes, resolve: resolve4 });
        });
      }
      write(data) {
        this._writableState.updateNextTick();
        return this._writableState.push(data);
      }
      end(data) {
        this._writableState.updateNextTick();
        this._writableState.end(data);
        return this;
      }
    };
    var Duplex2 = class extends Readable2 {
      // and Writable
      constructor(opts) {
        super(opts);
        this._duplexState = OPENING | this._duplexState & READ_READ_AHEAD;
        this._writableState = new WritableState(this, opts);
        if (opts) {
          if (opts.writev) this._writev = opts.writev;
          if (opts.write) this._write = opts.write;
          if (opts.final) this._final = opts.final;
        }
      }
      cork() {
        this._duplexState |= WRITE_CORKED;
      }
      uncork() {
        this._duplexState &= WRITE_NOT_CORKED;
        this._writableState.updateNextTick();
      }
      _writev(batch, cb) {
        cb(null);
      }
      _write(data, cb) {
        this._writableState.autoBatch(data, cb);
      }
      _final(cb) {
        cb(null);
      }
      write(data) {
        this._writableState.updateNextTick();
        return this._writableState.push(data);
      }
      end(data) {
        this._writableState.updateNextTick();
        this._writableState.end(data);
        return this;
      }
    };
    var Transform = class extends Duplex2 {
      constructor(opts) {
        super(opts);
        this._transformState = new TransformState(this);
        if (opts) {
          if (opts.transform) this._transform = opts.transform;
          if (opts.flush) this._flush = opts.flush;
        }
      }
      _write(data, cb) {
        if (this._readableState.buffered >= this._readableState.highWaterMark) {
          this._transformState.data = data;
        } else {
          this._transform(data, this._transformState.afterTransform);
        }
      }
      _read(cb) {
        if (this._transformState.data !== null) {
          const data = this._transformState.data;
          this._transformState.data = null;
          cb(null);
          this._transform(data, this._transformState.afterTransform);
        } else {
          cb(null);
        }
      }
      destroy(err) {
        super.destroy(err);
        if (this._transformState.data !== null) {
          this._transformState.data = null;
          this._transformState.afterTransform();
        }
      }
      _transform(data, cb) {
        cb(null, data);
      }
      _flush(cb) {
        cb(null);
      }
      _final(cb) {
        this._transformState.afterFinal = cb;
        this._flush(transformAfterFlush.bind(this));
      }
    };
    var PassThrough = class extends Transform {
    };
    function transformAfterFlush(err, data) {
      const cb = this._transformState.afterFinal;
      if (err) return cb(err);
      if (data !== null && data !== void 0) this.push(data);
      this.push(null);
      cb(null);
    }
    function pipelinePromise(...streams) {
      return new Promise((resolve4, reject) => {
        return pipeline(...streams, (err) => {
          if (err) return reject(err);
          resolve4();
        });
      });
    }
    function pipeline(stream, ...streams) {
      const all = Array.isArray(stream) ? [...stream, ...streams] : [stream, ...streams];
      const done = all.length && typeof all[all.length - 1] === "function" ? all.pop() : null;
      if (all.length < 2) throw StreamError.BAD_ARGUMENT("Pipeline requires at least 2 streams");
      let src = all[0];
      let dest = null;
      let error = null;
      for (let i = 1; i < all.length; i++) {
        dest = all[i];
        if (isStreamx(src)) {
          src.pipe(dest, onerror);
        } else {
          errorHandle(src, true, i > 1, onerror);
          src.pipe(dest);
        }
        src = dest;
      }
      if (done) {
        let fin = false;
        const autoDestroy = isStreamx(dest) || !!(dest._writableState && dest._writableState.autoDestroy);
        dest.on("error", (err) => {
          if (error === null) error = err;
        });
        dest.on("finish", () => {
          fin = true;
          if (!autoDestroy) done(error);
        });
        if (autoDestroy) {
          dest.on("close", () => done(error || (fin ? null : StreamError.PREMATURE_CLOSE())));
        }
      }
      return dest;
      function errorHandle(s, rd, wr, onerror2) {
        s.on("error", onerror2);
        s.on("close", onclose);
        function onclose() {
          if (rd && s._readableState && !s._readableState.ended) {
            return onerror2(StreamError.PREMATURE_CLOSE());
          }
          if (wr && s._writableState && !s._writableState.ended) {
            return onerror2(StreamError.PREMATURE_CLOSE());
          }
        }
      }
      function onerror(err) {
        if (!err || error) return;
        error = err;
        for (const s of all) {
          s.destroy(err);
        }
      }
    }
    function echo(s) {
      return s;
    }
    function isStream(stream) {
      return !!stream._readableState || !!stream._writableState;
    }
    function isStreamx(stream) {
      return typeof stream._duplexState === "number" && isStream(stream);
    }
    function isEnding(stream) {
      return !!stream._readableState && stream._readableState.ending;
    }
    function isEnded(stream) {
      return !!stream._readableState && stream._readableState.ended;
    }
    function isFinishing(stream) {
      return !!stream._writableState && stream._writableState.ending;
    }
    function isFinished(stream) {
      return !!stream._writableState && stream._writableState.ended;
    }
    function getStreamError(stream, opts = {}) {
      const err = stream._readableState && stream._readableState.error || stream._writableState && stream._writableState.error;
      return !opts.all && StreamError.isStreamDestroyed(err) ? null : err;
    }
    function isReadStreamx(stream) {
      return isStreamx(stream) && stream.readable;
    }
    function isDisturbed(stream) {
      return (stream._duplexState & OPENING) !== OPENING || (stream._duplexState & DESTROYING) === DESTROYING || (stream._duplexState & ACTIVE_OR_TICKING) !== 0;
    }
    function isTypedArray(data) {
      return typeof data === "object" && data !== null && typeof data.byteLength === "number";
    }
    function defaultByteLength(data) {
      return isTypedArray(data) ? data.byteLength : 1024;
    }
    function noop() {
    }
    function abort() {
      this.destroy(StreamError.ABORTED());
    }
    function isWritev(s) {
      return s._writev !== Writable.prototype._writev && s._writev !== Duplex2.prototype._writev;
    }
    module.exports = {
      pipeline,
      pipelinePromise,
      isStream,
      isStreamx,
      isEnding,
      isEnded,
      isFinishing,
      isFinished,
      isDisturbed,
      getStreamError,
      Stream,
      Writable,
      Readable: Readable2,
      Duplex: Duplex2,
      Transform,
      // Export PassThrough for compatibility with Node.js core's stream module
      PassThrough
    };
  }
});

// node_modules/throughput/index.js
var require_throughput = __commonJS({
  "node_modules/throughput/index.js"(exports, module) {
    var hrtime = typeof process !== "undefined" && !!process.hrtime;
    var maxTick = 65535;
    var resolution = 10;
    var timeDiff = hrtime ? 1e9 / resolution : 1e3 / resolution;
    var now = hrtime ? () => {
      const [seconds, nanoseconds] = process.hrtime();
      return seconds * 1e9 + nanoseconds;
    } : () => performance.now();
    function getTick(start) {
      return (now() - start) / timeDiff & maxTick;
    }
    module.exports = function(seconds) {
      const start = now();
      const size = resolution * (seconds || 5);
      const buffer = [0];
      let pointer = 1;
      let last = getTick(start) - 1 & maxTick;
      return function(delta) {
        const tick = getTick(start);
        let dist = tick - last & maxTick;
        if (dist > size) dist = size;
        last = tick;
        while (dist--) {
          if (pointer === size) pointer = 0;
          buffer[pointer] = buffer[pointer === 0 ? size - 1 : pointer - 1];
          pointer++;
        }
        if (delta) buffer[pointer - 1] += delta;
        const top = buffer[pointer - 1];
        const btm = buffer.length < size ? 0 : buffer[pointer === size ? 0 : pointer];
        return buffer.length < resolution ? top : (top - btm) * resolution / buffer.length;
      };
    };
  }
});

// node_modules/unordered-array-remove/index.js
var require_unordered_array_remove = __commonJS({
  "node_modules/unordered-array-remove/index.js"(exports, module) {
    module.exports = remove;
    function remove(arr, i) {
      if (i >= arr.length || i < 0) return;
      var last = arr.pop();
      if (i < arr.length) {
        var tmp = arr[i];
        arr[i] = last;
        return tmp;
      }
      return last;
    }
  }
});

// dist/services/torrent/engine.js
import { EventEmitter, once } from "node:events";
import { resolve as resolve3 } from "node:path";
import WebTorrent, {} from "webtorrent";

// node_modules/uint8-util/dist/src/node.js
import { createHash, randomBytes as rand } from "node:crypto";

// node_modules/uint8-util/dist/src/util.js
var decoder = new TextDecoder();
var arr2text = (data, enc) => {
  if (!enc)
    return decoder.decode(data);
  const dec = new TextDecoder(enc);
  return dec.decode(data);
};
function concat(chunks, size = 0) {
  const length = chunks.length;
  if (!size)
    for (let i = 0; i < length; i++)
      size += chunks[i].length;
  const b = new Uint8Array(size);
  let offset = 0;
  for (let i = 0; i < length; i++) {
    b.set(chunks[i], offset);
    offset += chunks[i].length;
  }
  return b;
}

// node_modules/uint8-util/dist/src/node.js
var text2arr = (str) => {
  const buf = Buffer.from(str, "utf8");
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
};
var arr2hex = (data) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("hex");
var hex2arr = (str) => {
  const buf = Buffer.from(str, "hex");
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
};
async function hash(data, format, algo = "sha1") {
  algo = algo.replace("sha-", "sha");
  if (data instanceof ArrayBuffer)
    data = new Uint8Array(data);
  const out = createHash(algo).update(data);
  if (format)
    return out.digest(format);
  const res = out.digest();
  return new Uint8Array(res.buffer, res.byteOffset, res.byteLength);
}
var randomBytes = (size) => new Uint8Array(rand(size));
function equal(a, b) {
  if (a.byteLength !== b.byteLength)
    return false;
  if (a.byteLength < 256) {
    for (let i = 0; i < a.byteLength; i++)
      if (a[i] !== b[i])
        return false;
    return true;
  }
  return Buffer.compare(a, b) === 0;
}

// node_modules/bencode/lib/util.js
function digitCount(value) {
  const sign = value < 0 ? 1 : 0;
  value = Math.abs(Number(value || 1));
  return Math.floor(Math.log10(value)) + 1 + sign;
}
function getType(value) {
  if (ArrayBuffer.isView(value)) return "arraybufferview";
  if (Array.isArray(value)) return "array";
  if (value instanceof Number) return "number";
  if (value instanceof Boolean) return "boolean";
  if (value instanceof Set) return "set";
  if (value instanceof Map) return "map";
  if (value instanceof String) return "string";
  if (value instanceof ArrayBuffer) return "arraybuffer";
  return typeof value;
}

// node_modules/bencode/lib/encode.js
function encode(data, buffer, offset) {
  const buffers = [];
  let result = null;
  encode._encode(buffers, data);
  result = concat(buffers);
  encode.bytes = result.length;
  if (ArrayBuffer.isView(buffer)) {
    buffer.set(result, offset);
    return buffer;
  }
  return result;
}
encode.bytes = -1;
encode._floatConversionDetected = false;
encode._encode = function(buffers, data) {
  if (data == null) {
    return;
  }
  switch (getType(data)) {
    case "object":
      encode.dict(buffers, data);
      break;
    case "map":
      encode.dictMap(buffers, data);
      break;
    case "array":
      encode.list(buffers, data);
      break;
    case "set":
      encode.listSet(buffers, data);
      break;
    case "string":
      encode.string(buffers, data);
      break;
    case "number":
      encode.number(buffers, data);
      break;
    case "boolean":
      encode.number(buffers, data);
      break;
    case "arraybufferview":
      encode.buffer(buffers, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      break;
    case "arraybuffer":
      encode.buffer(buffers, new Uint8Array(data));
      break;
  }
};
var buffE = new Uint8Array([101]);
var buffD = new Uint8Array([100]);
var buffL = new Uint8Array([108]);
encode.buffer = function(buffers, data) {
  buffers.push(text2arr(data.length + ":"), data);
};
encode.string = function(buffers, data) {
  buffers.push(text2arr(text2arr(data).byteLength + ":" + data));
};
encode.number = function(buffers, data) {
  if (Number.isInteger(data)) return buffers.push(text2arr("i" + BigInt(data) + "e"));
  const maxLo = 2147483648;
  const hi = data / maxLo << 0;
  const lo = data % maxLo << 0;
  const val = hi * maxLo + lo;
  buffers.push(text2arr("i" + val + "e"));
  if (val !== data && !encode._floatConversionDetected) {
    encode._floatConversionDetected = true;
    console.warn(
      'WARNING: Possible data corruption detected with value "' + data + '":',
      'Bencoding only defines support for integers, value was converted to "' + val + '"'
    );
    console.trace();
  }
};
encode.dict = function(buffers, data) {
  buffers.push(buffD);
  let j = 0;
  let k;
  const keys = Object.keys(data).sort();
  const kl = keys.length;
  for (; j < kl; j++) {
    k = keys[j];
    if (data[k] == null) continue;
    encode.string(buffers, k);
    encode._encode(buffers, data[k]);
  }
  buffers.push(buffE);
};
encode.dictMap = function(buffers, data) {
  buffers.push(buffD);
  const keys = Array.from(data.keys()).sort();
  for (const key of keys) {
    if (data.get(key) == null) continue;
    ArrayBuffer.isView(key) ? encode._encode(buffers, key) : encode.string(buffers, String(key));
    encode._encode(buffers, data.get(key));
  }
  buffers.push(buffE);
};
encode.list = function(buffers, data) {
  let i = 0;
  const c = data.length;
  buffers.push(buffL);
  for (; i < c; i++) {
    if (data[i] == null) continue;
    encode._encode(buffers, data[i]);
  }
  buffers.push(buffE);
};
encode.listSet = function(buffers, data) {
  buffers.push(buffL);
  for (const item of data) {
    if (item == null) continue;
    encode._encode(buffers, item);
  }
  buffers.push(buffE);
};
var encode_default = encode;

// node_modules/bencode/lib/decode.js
var INTEGER_START = 105;
var STRING_DELIM = 58;
var DICTIONARY_START = 100;
var LIST_START = 108;
var END_OF_TYPE = 101;
function getIntFromBuffer(buffer, start, end) {
  let sum = 0;
  let sign = 1;
  for (let i = start; i < end; i++) {
    const num = buffer[i];
    if (num < 58 && num >= 48) {
      sum = sum * 10 + (num - 48);
      continue;
    }
    if (i === start && num === 43) {
      continue;
    }
    if (i === start && num === 45) {
      sign = -1;
      continue;
    }
    if (num === 46) {
      break;
    }
    throw new Error("not a number: buffer[" + i + "] = " + num);
  }
  return sum * sign;
}
function decode(data, start, end, encoding) {
  if (data == null || data.length === 0) {
    return null;
  }
  if (typeof start !== "number" && encoding == null) {
    encoding = start;
    start = void 0;
  }
  if (typeof end !== "number" && encoding == null) {
    encoding = end;
    end = void 0;
  }
  decode.position = 0;
  decode.encoding = encoding || null;
  decode.data = !ArrayBuffer.isView(data) ? text2arr(data) : new Uint8Array(data.slice(start, end));
  decode.bytes = decode.data.length;
  return decode.next();
}
decode.bytes = 0;
decode.position = 0;
decode.data = null;
decode.encoding = null;
decode.next = function() {
  switch (decode.data[decode.position]) {
    case DICTIONARY_START:
      return decode.dictionary();
    case LIST_START:
      return decode.list();
    case INTEGER_START:
      return decode.integer();
    default:
      return decode.buffer();
  }
};
decode.find = function(chr) {
  let i = decode.position;
  const c = decode.data.length;
  const d = decode.data;
  while (i < c) {
    if (d[i] === chr) return i;
    i++;
  }
  throw new Error(
    'Invalid data: Missing delimiter "' + String.fromCharCode(chr) + '" [0x' + chr.toString(16) + "]"
  );
};
decode.dictionary = function() {
  decode.position++;
  const dict = {};
  while (decode.data[decode.position] !== END_OF_TYPE) {
    const buffer = decode.buffer();
    let key = arr2text(buffer);
    if (key.includes("\uFFFD")) key = arr2hex(buffer);
    dict[key] = decode.next();
  }
  decode.position++;
  return dict;
};
decode.list = function() {
  decode.position++;
  const lst = [];
  while (decode.data[decode.position] !== END_OF_TYPE) {
    lst.push(decode.next());
  }
  decode.position++;
  return lst;
};
decode.integer = function() {
  const end = decode.find(END_OF_TYPE);
  const number = getIntFromBuffer(decode.data, decode.position + 1, end);
  decode.position += end + 1 - decode.position;
  return number;
};
decode.buffer = function() {
  let sep2 = decode.find(STRING_DELIM);
  const length = getIntFromBuffer(decode.data, decode.position, sep2);
  const end = ++sep2 + length;
  decode.position = end;
  return decode.encoding ? arr2text(decode.data.slice(sep2, end)) : decode.data.slice(sep2, end);
};
var decode_default = decode;

// node_modules/bencode/lib/encoding-length.js
function listLength(list) {
  let length = 1 + 1;
  for (const value of list) {
    length += encodingLength(value);
  }
  return length;
}
function mapLength(map) {
  let length = 1 + 1;
  for (const [key, value] of map) {
    const keyLength = text2arr(key).byteLength;
    length += digitCount(keyLength) + 1 + keyLength;
    length += encodingLength(value);
  }
  return length;
}
function objectLength(value) {
  let length = 1 + 1;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const keyLength = text2arr(keys[i]).byteLength;
    length += digitCount(keyLength) + 1 + keyLength;
    length += encodingLength(value[keys[i]]);
  }
  return length;
}
function stringLength(value) {
  const length = text2arr(value).byteLength;
  return digitCount(length) + 1 + length;
}
function arrayBufferLength(value) {
  const length = value.byteLength - value.byteOffset;
  return digitCount(length) + 1 + length;
}
function encodingLength(value) {
  const length = 0;
  if (value == null) return length;
  const type = getType(value);
  switch (type) {
    case "arraybufferview":
      return arrayBufferLength(value);
    case "string":
      return stringLength(value);
    case "array":
    case "set":
      return listLength(value);
    case "number":
      return 1 + digitCount(Math.floor(value)) + 1;
    case "bigint":
      return 1 + value.toString().length + 1;
    case "object":
      return objectLength(value);
    case "map":
      return mapLength(value);
    default:
      throw new TypeError(`Unsupported value of type "${type}"`);
  }
}
var encoding_length_default = encodingLength;

// node_modules/bencode/index.js
var encodingLength2 = encoding_length_default;
var bencode_default = { encode: encode_default, decode: decode_default, byteLength: encoding_length_default, encodingLength: encodingLength2 };

// node_modules/@thaunknown/thirty-two/lib/thirty-two/index.js
var byteTable = [
  255,
  255,
  26,
  27,
  28,
  29,
  30,
  31,
  255,
  255,
  255,
  255,
  255,
  255,
  255,
  255,
  255,
  0,
  1,
  2,
  3,
  4,
  5,
  6,
  7,
  8,
  9,
  10,
  11,
  12,
  13,
  14,
  15,
  16,
  17,
  18,
  19,
  20,
  21,
  22,
  23,
  24,
  25,
  255,
  255,
  255,
  255,
  255,
  255,
  0,
  1,
  2,
  3,
  4,
  5,
  6,
  7,
  8,
  9,
  10,
  11,
  12,
  13,
  14,
  15,
  16,
  17,
  18,
  19,
  20,
  21,
  22,
  23,
  24,
  25,
  255,
  255,
  255,
  255,
  255
];
var decode2 = function(encoded) {
  if (!ArrayBuffer.isView(encoded) && typeof encoded !== "string") {
    throw new TypeError("base32.decode only takes Buffer or string as parameter");
  }
  let shiftIndex = 0;
  let plainDigit = 0;
  let plainChar;
  let plainPos = 0;
  if (!ArrayBuffer.isView(encoded)) {
    encoded = text2arr(encoded);
  }
  const decoded = new Uint8Array(Math.ceil(encoded.length * 5 / 8));
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] === 61) {
      break;
    }
    const encodedByte = encoded[i] - 48;
    if (encodedByte < byteTable.length) {
      plainDigit = byteTable[encodedByte];
      if (shiftIndex <= 3) {
        shiftIndex = (shiftIndex + 5) % 8;
        if (shiftIndex === 0) {
          plainChar |= plainDigit;
          decoded[plainPos] = plainChar;
          plainPos++;
          plainChar = 0;
        } else {
          plainChar |= 255 & plainDigit << 8 - shiftIndex;
        }
      } else {
        shiftIndex = (shiftIndex + 5) % 8;
        plainChar |= 255 & plainDigit >>> shiftIndex;
        decoded[plainPos] = plainChar;
        plainPos++;
        plainChar = 255 & plainDigit << 8 - shiftIndex;
      }
    } else {
      throw new Error("Invalid input - it is not base32 encoded string");
    }
  }
  return decoded.subarray(0, plainPos);
};

// node_modules/bep53-range/index.js
function parseRange(range) {
  const generateRange = (start, end = start) => Array.from({ length: end - start + 1 }, (cur, idx) => idx + start);
  return range.reduce((acc, cur, idx, arr) => {
    const r = cur.split("-").map((cur2) => parseInt(cur2));
    return acc.concat(generateRange(...r));
  }, []);
}

// node_modules/magnet-uri/index.js
function magnetURIDecode(uri) {
  const result = {};
  const data = uri.split("magnet:?")[1];
  const params = data && data.length >= 0 ? data.split("&") : [];
  params.forEach((param) => {
    const keyval = param.split("=");
    if (keyval.length !== 2) return;
    const key = keyval[0];
    let val = keyval[1];
    if (key === "dn") val = decodeURIComponent(val).replace(/\+/g, " ");
    if (key === "tr" || key === "xs" || key === "as" || key === "ws") {
      val = decodeURIComponent(val);
    }
    if (key === "kt") val = decodeURIComponent(val).split("+");
    if (key === "ix") val = Number(val);
    if (key === "so") val = parseRange(decodeURIComponent(val).split(","));
    if (result[key]) {
      if (!Array.isArray(result[key])) {
        result[key] = [result[key]];
      }
      result[key].push(val);
    } else {
      result[key] = val;
    }
  });
  let m;
  if (result.xt) {
    const xts = Array.isArray(result.xt) ? result.xt : [result.xt];
    xts.forEach((xt) => {
      if (m = xt.match(/^urn:btih:(.{40})/)) {
        result.infoHash = m[1].toLowerCase();
      } else if (m = xt.match(/^urn:btih:(.{32})/)) {
        result.infoHash = arr2hex(decode2(m[1]));
      } else if (m = xt.match(/^urn:btmh:1220(.{64})/)) {
        result.infoHashV2 = m[1].toLowerCase();
      }
    });
  }
  if (result.xs) {
    const xss = Array.isArray(result.xs) ? result.xs : [result.xs];
    xss.forEach((xs) => {
      if (m = xs.match(/^urn:btpk:(.{64})/)) {
        result.publicKey = m[1].toLowerCase();
      }
    });
  }
  if (result.infoHash) result.infoHashBuffer = hex2arr(result.infoHash);
  if (result.infoHashV2) result.infoHashV2Buffer = hex2arr(result.infoHashV2);
  if (result.publicKey) result.publicKeyBuffer = hex2arr(result.publicKey);
  if (result.dn) result.name = result.dn;
  if (result.kt) result.keywords = result.kt;
  result.announce = [];
  if (typeof result.tr === "string" || Array.isArray(result.tr)) {
    result.announce = result.announce.concat(result.tr);
  }
  result.urlList = [];
  if (typeof result.as === "string" || Array.isArray(result.as)) {
    result.urlList = result.urlList.concat(result.as);
  }
  if (typeof result.ws === "string" || Array.isArray(result.ws)) {
    result.urlList = result.urlList.concat(result.ws);
  }
  result.peerAddresses = [];
  if (typeof result["x.pe"] === "string" || Array.isArray(result["x.pe"])) {
    result.peerAddresses = result.peerAddresses.concat(result["x.pe"]);
  }
  result.announce = Array.from(new Set(result.announce));
  result.urlList = Array.from(new Set(result.urlList));
  result.peerAddresses = Array.from(new Set(result.peerAddresses));
  return result;
}
var magnet_uri_default = magnetURIDecode;

// node_modules/parse-torrent/index.js
import path from "path";
var import_queue_microtask = __toESM(require_queue_microtask(), 1);
async function parseTorrent(torrentId) {
  if (typeof torrentId === "string" && /^(stream-)?magnet:/.test(torrentId)) {
    const torrentObj = magnet_uri_default(torrentId);
    if (!torrentObj.infoHash) {
      throw new Error("Invalid torrent identifier");
    }
    return torrentObj;
  } else if (typeof torrentId === "string" && (/^[a-f0-9]{40}$/i.test(torrentId) || /^[a-z2-7]{32}$/i.test(torrentId))) {
    return magnet_uri_default(`magnet:?xt=urn:btih:${torrentId}`);
  } else if (ArrayBuffer.isView(torrentId) && torrentId.length === 20) {
    return magnet_uri_default(`magnet:?xt=urn:btih:${arr2hex(torrentId)}`);
  } else if (ArrayBuffer.isView(torrentId)) {
    return await decodeTorrentFile(torrentId);
  } else if (torrentId && torrentId.infoHash) {
    torrentId.infoHash = torrentId.infoHash.toLowerCase();
    if (!torrentId.announce) torrentId.announce = [];
    if (typeof torrentId.announce === "string") {
      torrentId.announce = [torrentId.announce];
    }
    if (!torrentId.urlList) torrentId.urlList = [];
    return torrentId;
  } else {
    throw new Error("Invalid torrent identifier");
  }
}
async function decodeTorrentFile(torrent) {
  if (ArrayBuffer.isView(torrent)) {
    torrent = bencode_default.decode(torrent);
  }
  ensure(torrent.info, "info");
  ensure(torrent.info["name.utf-8"] || torrent.info.name, "info.name");
  ensure(torrent.info["piece length"], "info['piece length']");
  ensure(torrent.info.pieces, "info.pieces");
  if (torrent.info.files) {
    torrent.info.files.forEach((file) => {
      ensure(typeof file.length === "number", "info.files[0].length");
      ensure(file["path.utf-8"] || file.path, "info.files[0].path");
    });
  } else {
    ensure(typeof torrent.info.length === "number", "info.length");
  }
  const result = {
    info: torrent.info,
    infoBuffer: bencode_default.encode(torrent.info),
    name: arr2text(torrent.info["name.utf-8"] || torrent.info.name),
    announce: []
  };
  result.infoHashBuffer = await hash(result.infoBuffer);
  result.infoHash = arr2hex(result.infoHashBuffer);
  if (torrent.info.private !== void 0) result.private = !!torrent.info.private;
  if (torrent["creation date"]) result.created = new Date(torrent["creation date"] * 1e3);
  if (torrent["created by"]) result.createdBy = arr2text(torrent["created by"]);
  if (ArrayBuffer.isView(torrent.comment)) result.comment = arr2text(torrent.comment);
  if (Array.isArray(torrent["announce-list"]) && torrent["announce-list"].length > 0) {
    torrent["announce-list"].forEach((urls) => {
      urls.forEach((url) => {
        result.announce.push(arr2text(url));
      });
    });
  } else if (torrent.announce) {
    result.announce.push(arr2text(torrent.announce));
  }
  if (ArrayBuffer.isView(torrent["url-list"])) {
    torrent["url-list"] = torrent["url-list"].length > 0 ? [torrent["url-list"]] : [];
  }
  result.urlList = (torrent["url-list"] || []).map((url) => arr2text(url));
  result.announce = Array.from(new Set(result.announce));
  result.urlList = Array.from(new Set(result.urlList));
  let sum = 0;
  const files = torrent.info.files || [torrent.info];
  result.files = files.map((file, i) => {
    const parts = [].concat(result.name, file["path.utf-8"] || file.path || []).map((p) => ArrayBuffer.isView(p) ? arr2text(p) : p);
    sum += file.length;
    return {
      path: path.join.apply(null, [path.sep].concat(parts)).slice(1),
      name: parts[parts.length - 1],
      length: file.length,
      offset: sum - file.length
    };
  });
  result.length = sum;
  const lastFile = result.files[result.files.length - 1];
  result.pieceLength = torrent.info["piece length"];
  result.lastPieceLength = (lastFile.offset + lastFile.length) % result.pieceLength || result.pieceLength;
  result.pieces = splitPieces(torrent.info.pieces);
  return result;
}
function splitPieces(buf) {
  const pieces = [];
  for (let i = 0; i < buf.length; i += 20) {
    pieces.push(arr2hex(buf.slice(i, i + 20)));
  }
  return pieces;
}
function ensure(bool, fieldName) {
  if (!bool) throw new Error(`Torrent is missing required field: ${fieldName}`);
}
var parse_torrent_default = parseTorrent;

// dist/services/torrent/engine.js
var import_undici2 = __toESM(require_undici(), 1);

// dist/services/torrent/source.js
import { isAbsolute, join, resolve, sep } from "node:path";
var import_undici = __toESM(require_undici(), 1);
var hex40 = /^[0-9a-f]{40}$/i;
var base32 = /^[a-z2-7]{32}$/i;
async function resolveTorrentSource(source, options = {}) {
  const text = typeof source === "string" ? source.trim() : "";
  if (/^magnet:/i.test(text)) {
    let parsed;
    try {
      parsed = await parse_torrent_default(text);
    } catch (err) {
      throw new TorrentSourceError(`invalid magnet URI "${clip(text)}": it needs xt=urn:btih:<40 hex or 32 base32 info hash>`, { cause: err });
    }
    if (!hex40.test(parsed.infoHash ?? ""))
      throw new TorrentSourceError(`invalid magnet URI "${clip(text)}": the info hash is malformed`);
    return { kind: "magnet", infoHash: parsed.infoHash.toLowerCase(), name: stringOr(parsed.dn ?? parsed.name), magnetURI: text };
  }
  if (hex40.test(text) || base32.test(text)) {
    const parsed = await parse_torrent_default(text);
    const infoHash = parsed.infoHash.toLowerCase();
    return { kind: "infohash", infoHash, name: "", magnetURI: `magnet:?xt=urn:btih:${infoHash}` };
  }
  if (/^https?:\/\//i.test(text)) {
    const { body, status } = await fetchTorrentFile(text, options);
    const parsed = await parseTorrentFile(body, `${text} (HTTP ${status})`);
    return { kind: "url", infoHash: parsed.infoHash, name: stringOr(parsed.name), torrentFile: body };
  }
  throw new TorrentSourceError(`unsupported torrent source "${clip(text)}": expected a magnet URI, an http(s) URL of a .torrent file or a 40-hex / 32-base32 info hash`);
}
async function parseTorrentFile(bytes, origin) {
  if (bytes.length <= 20)
    throw new TorrentMetadataError(`${origin} is not a .torrent file: only ${bytes.length} bytes`);
  let parsed;
  try {
    parsed = await parse_torrent_default(bytes);
  } catch (err) {
    throw new TorrentMetadataError(`${origin} is not a valid .torrent file: ${err.message}`, { cause: err });
  }
  if (!parsed.info || !Array.isArray(parsed.files) || parsed.files.length === 0 || !hex40.test(parsed.infoHash)) {
    throw new TorrentMetadataError(`${origin} is not a valid .torrent file: no file list`);
  }
  for (const file of parsed.files) {
    if (!Number.isSafeInteger(file.length) || file.length < 0)
      throw new TorrentMetadataError(`${origin} is not a valid .torrent file: bad length of "${file.path}"`);
    if (file.path === "" || isAbsolute(file.path) || file.path.split(/[/\\]/).includes("..")) {
      throw new TorrentMetadataError(`${origin} is unsafe: file path "${file.path}" leaves the download directory`);
    }
  }
  return parsed;
}
function torrentFilePath(downloadDir, relativePath) {
  const parts = relativePath.split(/[/\\]/);
  const base = (parts.pop() ?? "").replace(/[<>:"/\\|?*\u0000-\u001F]/g, "");
  const full = join(resolve(join(downloadDir, ...parts)), base);
  const root = resolve(downloadDir);
  if (full !== root && !full.startsWith(root + sep))
    throw new TorrentMetadataError(`file path "${relativePath}" leaves the download directory`);
  return full;
}
var redirectingDispatcher;
async function fetchTorrentFile(url, options) {
  const maxBytes = options.torrentFileMaxBytes ?? torrentFileMaxBytes;
  const timeoutMs = options.fetchTimeoutMs ?? torrentFetchTimeoutMs;
  redirectingDispatcher ??= new import_undici.Agent().compose(import_undici.interceptors.redirect({ maxRedirections: 5 }));
  const signals = [AbortSignal.timeout(timeoutMs), ...options.signal ? [options.signal] : []];
  let response;
  try {
    response = await (0, import_undici.request)(url, {
      method: "GET",
      dispatcher: options.dispatcher ?? redirectingDispatcher,
      signal: AbortSignal.any(signals),
      headers: { accept: "application/x-bittorrent, */*;q=0.5" }
    });
  } catch (err) {
    const reason = err.code ?? err.name;
    throw new TorrentFetchError(`GET ${url} failed: ${reason}: ${err.message}`, { cause: err, url });
  }
  const { statusCode, headers, body } = response;
  if (statusCode < 200 || statusCode > 299) {
    await body.dump().catch(() => {
    });
    throw new TorrentFetchError(`GET ${url} failed: HTTP ${statusCode}`, { status: statusCode, url, retryable: statusCode >= 500 || statusCode === 429 || statusCode === 408 });
  }
  const declared = Number(headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await body.dump().catch(() => {
    });
    throw new TorrentFetchError(`GET ${url} (HTTP ${statusCode}): .torrent of ${declared} bytes exceeds the ${maxBytes}-byte limit`, { status: statusCode, url, retryable: false });
  }
  const chunks = [];
  let total = 0;
  try {
    for await (const chunk of body) {
      total += chunk.length;
      if (total > maxBytes) {
        body.destroy();
        throw new TorrentFetchError(`GET ${url} (HTTP ${statusCode}): .torrent exceeds the ${maxBytes}-byte limit`, { status: statusCode, url, retryable: false });
      }
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof TorrentFetchError)
      throw err;
    throw new TorrentFetchError(`GET ${url} (HTTP ${statusCode}) failed while reading the body: ${err.message}`, { cause: err, status: statusCode, url });
  }
  return { body: new Uint8Array(Buffer.concat(chunks)), status: statusCode };
}
function stringOr(value) {
  return typeof value === "string" ? value : "";
}
function clip(text) {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

// dist/services/torrent/utp-fallback.js
function installUtpFallback(torrent, options) {
  const swarm = torrent;
  const original = swarm._addPeer;
  if (typeof original !== "function" || !(swarm._peers instanceof Map)) {
    options.onUnsupported("webtorrent Torrent has no _addPeer / _peers map");
    return;
  }
  const next = /* @__PURE__ */ new Map();
  let unsupported = false;
  const giveUp = (reason) => {
    if (unsupported)
      return;
    unsupported = true;
    options.onUnsupported(reason);
  };
  const watch = (peer, addr, source, fallback) => {
    const conn = peer.conn;
    if (!conn || typeof conn.once !== "function")
      return giveUp("webtorrent Peer has no connection when its connect timeout starts");
    let connected = false;
    const patient = peer.type === "utpOutgoing" && next.get(addr) === "utp";
    peer.once("connect", () => {
      connected = true;
      if (peer.type === "tcpOutgoing")
        next.set(addr, "tcp");
    });
    conn.once("close", () => {
      if (connected)
        return;
      if (peer.type === "tcpOutgoing") {
        if (fallback || next.get(addr) === "tcp")
          next.set(addr, "utp");
      } else if (patient && next.get(addr) === "utp") {
        next.delete(addr);
      }
    });
    if (peer.type !== "utpOutgoing" || patient)
      return;
    const timer = setTimeout(() => {
      if (peer.connected || peer.destroyed || swarm.destroyed || swarm._peers?.get(addr) !== peer)
        return;
      options.onFallback?.(addr);
      peer.destroy(new Error(`uTP did not connect within ${options.fallbackMs} ms; trying TCP`));
      const tcp = add(addr, "tcp", source, true);
      if (tcp)
        tcp.retries = peer.retries;
    }, options.fallbackMs);
    timer.unref();
    peer.once("connect", () => clearTimeout(timer));
    conn.once("close", () => clearTimeout(timer));
  };
  const add = (peer, type, source, fallback = false) => {
    const addr = typeof peer === "string" && !unsupported ? peer : void 0;
    const created = original.call(swarm, peer, addr && type === "utp" && next.get(addr) === "tcp" ? "tcp" : type, source);
    if (!addr || !created)
      return created;
    const candidate = created;
    if (typeof candidate.startConnectTimeout !== "function" || typeof candidate.destroy !== "function" || typeof candidate.once !== "function" || typeof candidate.type !== "string" || typeof candidate.connected !== "boolean") {
      giveUp("webtorrent Peer does not have the expected shape");
      return created;
    }
    const outgoing = candidate;
    if (outgoing.conn) {
      watch(outgoing, addr, source, fallback);
    } else if (!outgoing.destroyed) {
      const startConnectTimeout = outgoing.startConnectTimeout;
      outgoing.startConnectTimeout = function() {
        startConnectTimeout.call(this);
        if (!unsupported)
          watch(outgoing, addr, source, fallback);
      };
    }
    return outgoing;
  };
  swarm._addPeer = (peer, type, source) => add(peer, type, source);
}

// dist/services/torrent/file-store.js
import { close, constants, fdatasync, mkdir, open, read, rm, write } from "node:fs";
import { rm as rmAsync, rmdir } from "node:fs/promises";
import { dirname, resolve as resolve2 } from "node:path";
function openFile(path2) {
  return new Promise((resolve4, reject) => {
    mkdir(dirname(path2), { recursive: true }, (mkdirErr) => {
      open(path2, constants.O_RDWR | constants.O_CREAT, 438, (err, fd) => {
        if (!err)
          return resolve4({ fd, writable: true });
        const code = err.code;
        if (code === "EACCES" || code === "EROFS" || code === "EPERM") {
          return open(path2, constants.O_RDONLY, (roErr, roFd) => roErr ? reject(roErr) : resolve4({ fd: roFd, writable: false }));
        }
        reject(mkdirErr && code === "ENOENT" ? mkdirErr : err);
      });
    });
  });
}
var datasync = (fd) => new Promise((resolve4, reject) => fdatasync(fd, (err) => err ? reject(err) : resolve4()));
var closeFd = (fd) => new Promise((resolve4) => close(fd, () => resolve4()));
var FilePool = class {
  #maxOpen;
  /** Insertion order is use order: the first idle entry is the least recently used. */
  #handles = /* @__PURE__ */ new Map();
  #closing = /* @__PURE__ */ new Set();
  /**
   * Bytes of reads in flight for all torrents together. webtorrent verifies every torrent at once
   * (two pieces each): 1,000 torrents starting would hold 2,000 piece buffers, ~0.5 GiB at 256 KiB,
   * which the C allocator then keeps. A buffer is allocated only once its read may start.
   */
  #readBudget;
  #reading = 0;
  #waiting = [];
  constructor(options) {
    this.#maxOpen = Math.max(1, options.maxOpen);
    this.#readBudget = Math.max(1, options.readBudgetBytes ?? torrentStoreReadBudgetBytes);
  }
  /** Runs `read` of `bytes` once the reads in flight leave room for it (one read always may run). */
  async reading(bytes, read2) {
    if (this.#reading > 0 && (this.#waiting.length > 0 || this.#reading + bytes > this.#readBudget)) {
      await new Promise((start) => this.#waiting.push({ bytes, start }));
    } else {
      this.#reading += bytes;
    }
    try {
      return await read2();
    } finally {
      this.#reading -= bytes;
      while (this.#waiting.length > 0 && (this.#reading === 0 || this.#reading + this.#waiting[0].bytes <= this.#readBudget)) {
        const next = this.#waiting.shift();
        this.#reading += next.bytes;
        next.start();
      }
    }
  }
  get openCount() {
    return this.#handles.size;
  }
  /** Runs `use` with the file's descriptor, opening it if needed; `wrote` marks it for the next sync. */
  async with(path2, use, wrote = false) {
    let handle = this.#handles.get(path2);
    if (handle) {
      this.#handles.delete(path2);
      this.#handles.set(path2, handle);
    } else {
      const opening = openFile(path2);
      const made = { path: path2, opened: opening.then((o) => o.fd), fd: null, users: 0, dirty: false, writable: true };
      handle = made;
      this.#handles.set(path2, made);
      opening.then((o) => {
        made.fd = o.fd;
        made.writable = o.writable;
      }, () => {
        if (this.#handles.get(path2) === made)
          this.#handles.delete(path2);
      });
      this.#evict();
    }
    handle.users++;
    try {
      const fd = await handle.opened;
      const result = await use(fd, handle.writable);
      if (wrote)
        handle.dirty = true;
      return result;
    } finally {
      handle.users--;
      if (handle.users === 0)
        this.#evict();
    }
  }
  /** fdatasync every file of `paths` written since its last sync: data put before this call is then on disk. */
  async sync(paths) {
    const waits = [...this.#closing];
    for (const path2 of paths) {
      const handle = this.#handles.get(path2);
      if (!handle || !handle.dirty || handle.fd === null)
        continue;
      handle.dirty = false;
      handle.users++;
      waits.push(datasync(handle.fd).catch((err) => {
        handle.dirty = true;
        throw err;
      }).finally(() => {
        handle.users--;
        if (handle.users === 0)
          this.#evict();
      }));
    }
    const results = await Promise.allSettled(waits);
    const failed = results.find((r) => r.status === "rejected");
    if (failed)
      throw failed.reason;
  }
  /** Flushes and closes the files of `paths` (a torrent stopping); a file in use closes once its requests end. */
  async release(paths) {
    const closing = [];
    for (const path2 of paths) {
      const handle = this.#handles.get(path2);
      if (!handle)
        continue;
      this.#handles.delete(path2);
      closing.push(this.#track(this.#close(handle)));
    }
    await Promise.all(closing);
  }
  async closeAll() {
    await this.release([...this.#handles.keys()]);
    await Promise.all([...this.#closing]);
  }
  #evict() {
    if (this.#handles.size <= this.#maxOpen)
      return;
    for (const handle of this.#handles.values()) {
      if (this.#handles.size <= this.#maxOpen)
        break;
      if (handle.users > 0 || handle.fd === null)
        continue;
      this.#handles.delete(handle.path);
      void this.#track(this.#close(handle));
    }
  }
  /** A sync waits for descriptors being closed too: they are flushed on the way. */
  #track(closing) {
    this.#closing.add(closing);
    void closing.finally(() => this.#closing.delete(closing));
    return closing;
  }
  async #close(handle) {
    const fd = await handle.opened.catch(() => null);
    if (fd === null)
      return;
    while (handle.users > 0)
      await new Promise((resolve4) => setImmediate(resolve4));
    if (handle.dirty)
      await datasync(fd).catch(() => {
      });
    await closeFd(fd);
  }
};
function readAt(fd, buf, position) {
  return new Promise((resolve4, reject) => {
    let done = 0;
    const step = () => read(fd, buf, done, buf.length - done, position + done, (err, n) => {
      if (err)
        return reject(err);
      if (n === 0)
        return reject(new Error(`could not read ${buf.length} bytes at ${position}: the file is shorter`));
      done += n;
      if (done < buf.length)
        step();
      else
        resolve4();
    });
    if (buf.length === 0)
      resolve4();
    else
      step();
  });
}
function writeAt(fd, buf, position) {
  return new Promise((resolve4, reject) => {
    let done = 0;
    const step = () => write(fd, buf, done, buf.length - done, position + done, (err, n) => {
      if (err)
        return reject(err);
      done += n;
      if (done < buf.length)
        step();
      else
        resolve4();
    });
    if (buf.length === 0)
      resolve4();
    else
      step();
  });
}
function storeFilePaths(root, files) {
  return files.map((file) => torrentFilePath(root, file.path));
}
function fileStoreFor(pool) {
  return class PooledFileStore {
    chunkLength;
    #files;
    #length;
    /** A file path that leaves the download directory: every request fails with it. */
    #invalid = null;
    #closed = false;
    constructor(chunkLength, options) {
      this.chunkLength = Number(chunkLength);
      if (!(this.chunkLength > 0))
        throw new Error("a chunk store needs a chunk length");
      const root = options.path ?? ".";
      const files = [];
      try {
        for (const file of options.files ?? [])
          files.push({ path: torrentFilePath(root, file.path), offset: file.offset, length: file.length });
      } catch (err) {
        this.#invalid = err;
      }
      this.#files = files.filter((file) => file.length > 0);
      this.#length = options.length ?? files.reduce((sum, file) => sum + file.length, 0);
    }
    /** The files holding bytes [start, end) of the torrent, as slices of the chunk starting at `start`. */
    #targets(start, end) {
      const files = this.#files;
      let lo = 0;
      let hi = files.length;
      while (lo < hi) {
        const mid = lo + hi >>> 1;
        if (files[mid].offset + files[mid].length <= start)
          lo = mid + 1;
        else
          hi = mid;
      }
      const targets = [];
      for (let i = lo; i < files.length && files[i].offset < end; i++) {
        const file = files[i];
        const a = Math.max(start, file.offset);
        const b = Math.min(end, file.offset + file.length);
        targets.push({ file, from: a - start, to: b - start, at: a - file.offset });
      }
      return targets;
    }
    #chunkSize(index) {
      return Math.max(0, Math.min(this.chunkLength, this.#length - index * this.chunkLength));
    }
    put(index, buf, cb = () => {
    }) {
      if (this.#closed)
        return queueMicrotask(() => cb(new Error("the store is closed")));
      if (this.#invalid)
        return queueMicrotask(() => cb(this.#invalid));
      const size = this.#chunkSize(index);
      if (buf.length !== size)
        return queueMicrotask(() => cb(new Error(`chunk ${index} must be ${size} bytes, not ${buf.length}`)));
      const start = index * this.chunkLength;
      const writes = this.#targets(start, start + size).map((t) => pool.with(t.file.path, (fd) => writeAt(fd, buf.subarray(t.from, t.to), t.at), true));
      Promise.all(writes).then(() => cb(null), (err) => cb(err));
    }
    get(index, optsOrCb, maybeCb) {
      const cb = (typeof optsOrCb === "function" ? optsOrCb : maybeCb) ?? (() => {
      });
      const opts = typeof optsOrCb === "function" ? null : optsOrCb;
      if (this.#closed)
        return queueMicrotask(() => cb(new Error("the store is closed")));
      if (this.#invalid)
        return queueMicrotask(() => cb(this.#invalid));
      const size = this.#chunkSize(index);
      const offset = opts?.offset ?? 0;
      const length = opts?.length ?? size - offset;
      if (offset < 0 || length < 0 || offset + length > size)
        return queueMicrotask(() => cb(new Error(`bytes ${offset}+${length} are outside chunk ${index} (${size} bytes)`)));
      const start = index * this.chunkLength + offset;
      pool.reading(length, async () => {
        const buf = Buffer.allocUnsafe(length);
        await Promise.all(this.#targets(start, start + length).map((t) => pool.with(t.file.path, (fd) => readAt(fd, buf.subarray(t.from, t.to), t.at))));
        return buf;
      }).then((buf) => cb(null, buf), (err) => cb(err));
    }
    close(cb = () => {
    }) {
      if (this.#closed)
        return queueMicrotask(() => cb(null));
      this.#closed = true;
      pool.release(this.#files.map((file) => file.path)).then(() => cb(null), (err) => cb(err));
    }
    destroy(cb = () => {
    }) {
      this.close(() => {
        Promise.all(this.#files.map((file) => new Promise((resolve4) => rm(file.path, { force: true }, () => resolve4())))).then(() => cb(null), (err) => cb(err));
      });
    }
  };
}
async function deleteTorrentFiles(downloadDir, torrentFile) {
  const parsed = await parseTorrentFile(torrentFile, "saved metadata");
  const root = resolve2(downloadDir);
  const dirs = /* @__PURE__ */ new Set();
  for (const file of parsed.files ?? []) {
    const path2 = torrentFilePath(root, file.path);
    await rmAsync(path2, { force: true });
    for (let dir = dirname(path2); dir.startsWith(root + "/"); dir = dirname(dir))
      dirs.add(dir);
  }
  for (const dir of [...dirs].sort((a, b) => b.length - a.length))
    await rmdir(dir).catch(() => {
    });
}

// dist/services/torrent/read-stream.js
import { Readable } from "node:stream";
function readTorrentFile(whenReady, key, fileIndex, range) {
  async function* read2() {
    const torrent = await whenReady();
    const file = torrent.files[fileIndex];
    if (!file)
      throw new TorrentNotFoundError(`torrent ${key} has no file ${fileIndex} (it has ${torrent.files.length})`);
    const start = range.start ?? 0;
    const end = Math.min(range.end ?? file.length - 1, file.length - 1);
    if (!Number.isSafeInteger(start) || start < 0 || start > end) {
      if (file.length === 0 || start === end + 1)
        return;
      throw new TorrentNotFoundError(`range ${start}-${range.end ?? ""} is outside file ${fileIndex} of ${file.length} bytes`);
    }
    let remaining = end - start + 1;
    const iterator = file[Symbol.asyncIterator]({ start, end });
    try {
      while (remaining > 0) {
        const step = await iterator.next();
        if (step.done)
          break;
        const chunk = step.value;
        const take2 = Math.min(chunk.length, remaining);
        remaining -= take2;
        yield Buffer.from(chunk.buffer, chunk.byteOffset, take2);
      }
    } finally {
      await iterator.return?.();
    }
    if (remaining > 0)
      throw new TorrentNotFoundError(`torrent ${key} stopped while file ${fileIndex} was being read (${remaining} bytes short)`);
  }
  return Readable.from(read2(), { objectMode: false });
}

// dist/services/torrent/piece-map.js
import { readdir, readFile, stat, unlink } from "node:fs/promises";
import { join as join2 } from "node:path";
var infoHashPattern = /^[0-9a-f]{40}$/;
var suffix = ".pieces.json";
function parsePieceMap(text, infoHash) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return void 0;
  }
  if (!value || typeof value !== "object")
    return void 0;
  const map = value;
  if (map.version !== 1 || map.infoHash !== infoHash || typeof map.bitfield !== "string")
    return void 0;
  if (!Number.isSafeInteger(map.pieces) || map.pieces < 0)
    return void 0;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(map.bitfield))
    return void 0;
  if (Buffer.from(map.bitfield, "base64").length !== Math.ceil(map.pieces / 8))
    return void 0;
  if (!Array.isArray(map.files))
    return void 0;
  for (const file of map.files) {
    if (!file || typeof file !== "object")
      return void 0;
    const { size, mtimeMs } = file;
    if (!Number.isSafeInteger(size) || size < -1 || typeof mtimeMs !== "number" || !Number.isFinite(mtimeMs))
      return void 0;
  }
  return { version: 1, infoHash, pieces: map.pieces, bitfield: map.bitfield, files: map.files.map(({ size, mtimeMs }) => ({ size, mtimeMs })) };
}
async function statFiles(paths) {
  return Promise.all(paths.map(async (path2) => {
    try {
      const s = await stat(path2);
      return { size: s.size, mtimeMs: s.mtimeMs };
    } catch (err) {
      if (err.code === "ENOENT")
        return { size: -1, mtimeMs: 0 };
      throw err;
    }
  }));
}
function decideResume(map, pieces, now) {
  if (!map)
    return { kind: "verify", reason: "no verified-piece map" };
  if (map.pieces !== pieces || map.files.length !== now.length)
    return { kind: "verify", reason: "the map is of another shape" };
  for (const [index, file] of now.entries()) {
    const saved = map.files[index];
    if (saved.size !== file.size)
      return { kind: "verify", reason: file.size === -1 ? `file ${index} is missing` : `file ${index} changed size` };
    if (saved.mtimeMs !== file.mtimeMs)
      return { kind: "verify", reason: `file ${index} was modified` };
  }
  const bitfield = new Uint8Array(Buffer.from(map.bitfield, "base64"));
  return isComplete(bitfield, pieces) ? { kind: "complete" } : { kind: "partial", bitfield };
}
function isComplete(bitfield, pieces) {
  for (let i = 0; i < pieces; i++)
    if (!(bitfield[i >> 3] & 128 >> (i & 7)))
      return false;
  return true;
}
var PieceMaps = class {
  #dir;
  #pool;
  #log;
  #intervalMs;
  #recorders = /* @__PURE__ */ new Map();
  /** Infohashes whose map was forgotten (recheck, removal) while a write was under way. */
  #generation = /* @__PURE__ */ new Map();
  /** Maps that matched the files at the last start, for the recorder to compare against. */
  #matched = /* @__PURE__ */ new Map();
  #cleaned;
  constructor(options) {
    this.#dir = join2(options.stateDir, torrentMetadataDirName);
    this.#pool = options.pool;
    this.#log = options.logger;
    this.#intervalMs = options.writeIntervalMs ?? torrentPieceMapWriteIntervalMs;
  }
  path(infoHash) {
    return join2(this.#dir, `${infoHash}${suffix}`);
  }
  async load(infoHash) {
    await (this.#cleaned ??= this.#removeTemps());
    let text;
    try {
      text = await readFile(this.path(infoHash), "utf8");
    } catch {
      return void 0;
    }
    const map = parsePieceMap(text, infoHash);
    if (!map)
      this.#log.warn({ infoHash, path: this.path(infoHash) }, "verified-piece map unreadable; the torrent is verified instead");
    return map;
  }
  /** webtorrent add options for a torrent about to start: `skipVerify` or `bitfield` when its files match the map. */
  async startOptions(infoHash, torrent, root) {
    if (!torrent.pieces || !torrent.files || !infoHashPattern.test(infoHash))
      return {};
    try {
      const map = await this.load(infoHash);
      const decision = decideResume(map, torrent.pieces.length, await statFiles(storeFilePaths(root, torrent.files)));
      if (map && decision.kind !== "verify")
        this.#matched.set(infoHash, map);
      if (decision.kind === "complete")
        return { skipVerify: true };
      if (decision.kind === "partial")
        return { bitfield: decision.bitfield };
      if (map)
        this.#log.info({ infoHash, reason: decision.reason }, "files changed since the verified-piece map was written; verifying this torrent");
    } catch (err) {
      this.#log.warn({ err, infoHash }, "cannot check the verified-piece map; verifying this torrent");
    }
    return {};
  }
  /** Records the torrent's verified pieces from now on (batched; see the top of this file). */
  track(torrent, infoHash, root) {
    const recorder = { torrent, paths: null, pieces: 0, changed: false, timer: void 0, writing: Promise.resolve(), last: this.#matched.get(infoHash) };
    this.#matched.delete(infoHash);
    this.#recorders.set(infoHash, recorder);
    const soon = () => {
      recorder.changed = true;
      if (recorder.timer || !recorder.paths)
        return;
      recorder.timer = setTimeout(() => {
        recorder.timer = void 0;
        void this.#write(infoHash, recorder);
      }, this.#intervalMs);
      recorder.timer.unref();
    };
    torrent.on("verified", soon);
    const now = () => {
      recorder.changed = true;
      clearTimeout(recorder.timer);
      recorder.timer = void 0;
      void this.#write(infoHash, recorder);
    };
    torrent.once("ready", () => {
      try {
        recorder.paths = storeFilePaths(root, torrent.files);
        recorder.pieces = torrent.pieces.length;
      } catch {
        return;
      }
      now();
    });
    torrent.on("done", now);
    torrent.once("close", () => {
      clearTimeout(recorder.timer);
      recorder.timer = void 0;
    });
  }
  /** After the torrent stopped (its store closed and flushed): the last map, with the files as they are now. */
  async stopped(infoHash) {
    const recorder = this.#recorders.get(infoHash);
    if (!recorder)
      return;
    this.#recorders.delete(infoHash);
    clearTimeout(recorder.timer);
    recorder.changed = true;
    await this.#write(infoHash, recorder);
  }
  /** Drops the map (recheck, removal): the next start hashes every piece. */
  async forget(infoHash) {
    this.#generation.set(infoHash, (this.#generation.get(infoHash) ?? 0) + 1);
    const recorder = this.#recorders.get(infoHash);
    if (recorder) {
      this.#recorders.delete(infoHash);
      clearTimeout(recorder.timer);
      await recorder.writing;
    }
    await unlink(this.path(infoHash)).catch(() => {
    });
  }
  #write(infoHash, recorder) {
    recorder.writing = recorder.writing.then(async () => {
      const paths = recorder.paths;
      const bitfield = recorder.torrent.bitfield?.buffer;
      if (!paths || !bitfield || !recorder.changed)
        return;
      const generation = this.#generation.get(infoHash) ?? 0;
      recorder.changed = false;
      const copy = Buffer.from(bitfield);
      const pieces = recorder.pieces;
      try {
        await this.#pool.sync(paths);
        const files = await statFiles(paths);
        if ((this.#generation.get(infoHash) ?? 0) !== generation)
          return;
        const map = { version: 1, infoHash, pieces, bitfield: copy.toString("base64"), files };
        if (recorder.last && JSON.stringify(recorder.last) === JSON.stringify(map))
          return;
        await writeFileAtomic(this.path(infoHash), `${JSON.stringify(map)}
`, { mode: 384 });
        recorder.last = map;
      } catch (err) {
        recorder.changed = true;
        this.#log.warn({ err, infoHash }, "cannot write the verified-piece map; the next start verifies this torrent");
      }
    });
    return recorder.writing;
  }
  /** Temp files of map writes a kill interrupted. */
  async #removeTemps() {
    const names = await readdir(this.#dir).catch(() => []);
    for (const name of names) {
      if (name.startsWith(".") && name.includes(`${suffix}.`) && name.endsWith(".tmp"))
        await unlink(join2(this.#dir, name)).catch(() => {
        });
    }
  }
};

// node_modules/bitfield/dist/index.js
function bitsToBytes(numberOfBits) {
  return (numberOfBits >> 3) + Number(numberOfBits % 8 !== 0);
}
var BitField = class {
  /**
   * Grow the bitfield up to this number of entries.
   * @default 0.
   */
  grow;
  /** The internal storage of the bitfield. */
  buffer;
  /** The number of bits in the bitfield. */
  get length() {
    return this.buffer.length << 3;
  }
  /**
   * Constructs a BitField.
   * @param data Either a number representing the maximum number of supported bits, or a Uint8Array.
   * @param options Configuration for bitfield growth behavior.
   */
  constructor(data = 0, options) {
    const grow = options?.grow;
    this.grow = grow ? Number.isFinite(grow) ? bitsToBytes(grow) : grow : 0;
    this.buffer = typeof data === "number" ? new Uint8Array(bitsToBytes(data)) : data;
  }
  /**
   * Get a particular bit.
   * @param bitIndex Bit index to retrieve.
   * @returns A boolean indicating whether the `i`th bit is set.
   */
  get(bitIndex) {
    const byteIndex = bitIndex >> 3;
    return byteIndex < this.buffer.length && !!(this.buffer[byteIndex] & 128 >> bitIndex % 8);
  }
  /**
   * Set a particular bit.
   *
   * Will grow the underlying array if the bit is out of bounds and the `grow` option is set.
   * @param bitIndex Bit index to set.
   * @param value Value to set the bit to. Defaults to `true`.
   */
  set(bitIndex, value = true) {
    const byteIndex = bitIndex >> 3;
    if (value) {
      if (byteIndex >= this.buffer.length) {
        const newLength = Math.max(byteIndex + 1, Math.min(2 * this.buffer.length, this.grow));
        if (newLength <= this.grow) {
          const newBuffer = new Uint8Array(newLength);
          newBuffer.set(this.buffer);
          this.buffer = newBuffer;
        }
      }
      this.buffer[byteIndex] |= 128 >> bitIndex % 8;
    } else if (byteIndex < this.buffer.length) {
      this.buffer[byteIndex] &= ~(128 >> bitIndex % 8);
    }
  }
  /**
   * Sets a value or an array of values.
   * @param array An array of booleans to set.
   * @param offset The bit offset at which the values are to be written.
   */
  setAll(array, offset = 0) {
    const targetLength = Math.min(bitsToBytes(offset + array.length), this.grow);
    if (this.buffer.length < targetLength) {
      const newBuffer = new Uint8Array(targetLength);
      newBuffer.set(this.buffer);
      this.buffer = newBuffer;
    }
    let byteIndex = offset >> 3;
    let bitMask = 128 >> offset % 8;
    for (let index = 0; index < array.length; index++) {
      const element = array[index];
      if (element) {
        this.buffer[byteIndex] |= bitMask;
      } else {
        this.buffer[byteIndex] &= ~bitMask;
      }
      if (bitMask === 1) {
        byteIndex += 1;
        if (byteIndex >= this.buffer.length) {
          break;
        }
        bitMask = 128;
      } else {
        bitMask >>= 1;
      }
    }
  }
  /**
   * Loop through the bits in the bitfield.
   * @param callbackfn Function to be called with the bit value and index.
   * @param start Index of the first bit to look at.
   * @param end Index of the first bit that should no longer be considered.
   */
  forEach(callbackfn, start = 0, end = this.buffer.length * 8) {
    let byteIndex = start >> 3;
    let bitMask = 128 >> start % 8;
    for (let bitIndex = start; bitIndex < end; bitIndex++) {
      callbackfn(!!(this.buffer[byteIndex] & bitMask), bitIndex);
      if (bitMask === 1) {
        byteIndex += 1;
        bitMask = 128;
      } else {
        bitMask >>= 1;
      }
    }
  }
  /**
   * Check if all bits in the Bitfield are unset.
   * @returns A boolean indicating whether all bits are unset.
   */
  isEmpty() {
    for (let index = 0; index < this.buffer.length; index++) {
      if (this.buffer[index] !== 0) {
        return false;
      }
    }
    return true;
  }
};

// node_modules/bittorrent-protocol/index.js
var import_debug = __toESM(require_src(), 1);
var import_streamx = __toESM(require_streamx(), 1);
var import_throughput = __toESM(require_throughput(), 1);
var import_unordered_array_remove = __toESM(require_unordered_array_remove(), 1);

// node_modules/bittorrent-protocol/mse.js
import crypto from "crypto";
var nativeRC4 = (() => {
  try {
    crypto.createCipheriv("rc4", Buffer.alloc(16), "");
    return true;
  } catch {
    return false;
  }
})();
function createRC4Cipher(key) {
  if (nativeRC4) {
    const c = crypto.createCipheriv("rc4", key, "");
    c.update(Buffer.alloc(1024));
    return (buf) => c.update(buf);
  }
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = j + s[i] + key[i % key.length] & 255;
    const tmp = s[i];
    s[i] = s[j];
    s[j] = tmp;
  }
  let ii = 0;
  let jj = 0;
  for (let i = 0; i < 1024; i++) {
    ii = ii + 1 & 255;
    jj = jj + s[ii] & 255;
    const tmp = s[ii];
    s[ii] = s[jj];
    s[jj] = tmp;
  }
  return (buf) => {
    const out = new Uint8Array(buf.length);
    for (let i = 0; i < buf.length; i++) {
      ii = ii + 1 & 255;
      jj = jj + s[ii] & 255;
      const tmp = s[ii];
      s[ii] = s[jj];
      s[jj] = tmp;
      out[i] = buf[i] ^ s[s[ii] + s[jj] & 255];
    }
    return out;
  };
}
var DH_PRIME = "ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a63a36210000000000090563";
var DH_GENERATOR = 2;
var REQ1_STR = text2arr("req1");
var REQ2_STR = text2arr("req2");
var REQ3_STR = text2arr("req3");
var KEYA_STR = text2arr("keyA");
var KEYB_STR = text2arr("keyB");
var VC = new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0]);
var SYNC_MAX_BYTES = 512;
function xor(a, b) {
  for (let len = a.length; len--; ) a[len] ^= b[len];
  return a;
}
function sha1(...buffers) {
  const h = crypto.createHash("sha1");
  for (const buf of buffers) h.update(buf);
  return h.digest();
}
function getUint32(buffer, at = 0) {
  return buffer[at] << 24 | buffer[at + 1] << 16 | buffer[at + 2] << 8 | buffer[at + 3];
}
function getUint16(buffer, at = 0) {
  return buffer[at] << 8 | buffer[at + 1];
}
var MessageStreamEncryptor = class {
  // PE/MSE handshake flow
  //
  //   step 1  A => B    Diffie Hellman Ya, PadA
  //   step 2  B => A    Diffie Hellman Yb, PadB
  //   step 3  A => B    HASH('req1',S), HASH('req2',SKEY) XOR HASH('req3',S), ENCRYPT(VC, crypto_provide, len(PadC), PadC, len(IA))
  //   step 4  B => A    ENCRYPT(VC, crypto_select, len(padD), padD)
  //   step 5+ A <=> B   ENCRYPT2(Payload Stream)
  //
  // Initiator (outgoing, peer A):
  //   1. startAsInitiator() => generateStepA1() => send step 1 (Ya + PadA), wait for step 2 (Yb + PadB), plaintext handshake, or timeout
  //   2. handleStepA2() => compute S, init ciphers
  //   3. generateStepA3() => send step 3, then _handlePe4() resyncs on ENCRYPT(VC)
  //   4. _onPe4Select/Padding() => decode crypto_select, _finalizeCryptoHandshake()
  //   5. payload ENCRYPT2() active
  //
  // Responder (incoming, peer B):
  //   1. handleIncoming() => handleStepB1() store Ya
  //   2. generateStepB2() => send step 2 (Yb + PadB), compute S
  //   3. _handlePe3() => resync on HASH('req1',S), extract XOR'd SKEY hash => emit 'crypto-infohash'
  //   4. setInfoHash() => _initializeCiphers('B'), _handlePe3Encrypted(), decodes VC | crypto_provide | len(PadC) | PadC | len(IA) | IA
  //   5. _onPe3IaLen / _onPe3Ia => optionally process embedded payload (IA)
  //   6. _advanceEncryption() => generateStepB4() => send step 4, _finalizeCryptoHandshake()
  //   7. payload ENCRYPT2() active
  constructor(wireOrKey, skeyHex) {
    if (typeof wireOrKey === "string" || wireOrKey === null || wireOrKey === void 0) {
      this.wire = null;
      this.skeyHex = wireOrKey || null;
    } else {
      this.wire = wireOrKey;
      this.skeyHex = skeyHex || null;
    }
    this.state = "idle";
    this._dh = null;
    this._isEncrypted = false;
    this.S = null;
    this.encryptCipher = null;
    this.decryptCipher = null;
    this.ya = null;
    this.encryptionMethod = null;
    this.cryptoHandshakeDone = false;
    this._peerCryptoProvide = 0;
  }
  get dh() {
    if (!this._dh) {
      this._dh = crypto.createDiffieHellman(DH_PRIME, "hex", DH_GENERATOR);
    }
    return this._dh;
  }
  //
  // INITIATOR STEPS
  //
  startAsInitiator(infoHash) {
    this.skeyHex = infoHash;
    const step1 = this.generateStepA1();
    this.wire._push(step1);
    if (this.state === "gotPe2") {
      this._advanceEncryption();
    } else {
      this.state = "sentPe1";
    }
    this.wire._debug("PE: sent step 1 (initiator, gotPe2Already=%s)", this.state === "gotPe2");
  }
  generateStepA1() {
    const raw = this.dh.generateKeys();
    const ya = new Uint8Array(96);
    ya.set(raw, 96 - raw.length);
    const padA = randomBytes(Math.floor(Math.random() * 513));
    return concat([ya, padA]);
  }
  handleStepA2(step2Data) {
    const yb = step2Data.slice(0, 96);
    this.S = this.dh.computeSecret(yb);
    if (this.skeyHex) this._initializeCiphers("A");
  }
  generateStepA3(cryptoProvide = 1 | 2) {
    const req1Hash = sha1(REQ1_STR, this.S);
    const req2Hash = sha1(REQ2_STR, hex2arr(this.skeyHex));
    const req3Hash = sha1(REQ3_STR, this.S);
    const xorHash = xor(req2Hash, req3Hash);
    const cryptoProvideBuf = Buffer.alloc(4);
    cryptoProvideBuf.writeUInt32BE(cryptoProvide, 0);
    const padC = randomBytes(Math.floor(Math.random() * 513));
    const lenPadC = Buffer.alloc(2);
    lenPadC.writeUInt16BE(padC.length, 0);
    const lenIA = Buffer.alloc(2);
    lenIA.writeUInt16BE(0, 0);
    const plaintext = concat([VC, cryptoProvideBuf, lenPadC, padC, lenIA]);
    const encryptedPart = this.encryptCipher(plaintext);
    return concat([req1Hash, xorHash, encryptedPart]);
  }
  //
  // RESPONDER STEPS
  //
  handleStepB1(step1Data) {
    this.ya = step1Data.slice(0, 96);
  }
  generateStepB2() {
    const raw = this.dh.generateKeys();
    const yb = new Uint8Array(96);
    yb.set(raw, 96 - raw.length);
    this.S = this.dh.computeSecret(this.ya);
    const padB = randomBytes(Math.floor(Math.random() * 513));
    return concat([yb, padB]);
  }
  generateStepB4(cryptoSelect = 2) {
    const cryptoSelectBuf = Buffer.alloc(4);
    cryptoSelectBuf.writeUInt32BE(cryptoSelect, 0);
    const padD = randomBytes(Math.floor(Math.random() * 513));
    const lenPadD = Buffer.alloc(2);
    lenPadD.writeUInt16BE(padD.length, 0);
    const plaintext = concat([VC, cryptoSelectBuf, lenPadD, padD]);
    return this.encryptCipher(plaintext);
  }
  getSyncPattern() {
    return sha1(REQ1_STR, this.S);
  }
  extractInfoHashFromXor(xorPart) {
    const req3Hash = sha1(REQ3_STR, this.S);
    const result = new Uint8Array(xorPart);
    xor(result, req3Hash);
    return arr2hex(result);
  }
  //
  // PE STATE MACHINE
  //
  handleIncoming() {
    this._detectHandshakeOrPe(
      (handshake) => this.wire._onHandshakeBuffer(handshake),
      (pubKeyPrefix) => {
        this.wire._parse(76, (pubKeySuffix) => {
          this.handleStepB1(concat([pubKeyPrefix, pubKeySuffix]));
          const step2 = this.generateStepB2();
          this.state = "sentPe2";
          this._handlePe3();
          this.wire._debug("PE: handled step 1, sent step 2 (responder)");
          this.wire._push(step2);
        });
      }
    );
  }
  handleOutgoing() {
    this._detectHandshakeOrPe(
      (handshake) => {
        this.wire._debug("PE: peer sent plaintext handshake, falling back to no PE");
        this.state = "done";
        this.encryptionMethod = null;
        this.cryptoHandshakeDone = true;
        this.wire.emit("crypto-handshake");
        this.wire._onHandshakeBuffer(handshake);
      },
      (pubKeyPrefix) => {
        this.wire._parse(76, (pubKeySuffix) => {
          const pubKey = concat([pubKeyPrefix, pubKeySuffix]);
          this.handleStepA2(pubKey);
          this.state = "gotPe2";
          this.wire._debug("PE: handled step 2 (initiator)");
          this._advanceEncryption();
        });
      }
    );
  }
  _advanceEncryption() {
    if (this.state === "gotPe2" && this.skeyHex) {
      if (!this.encryptCipher) this._initializeCiphers("A");
      const provide = this.wire._peEnabled === 2 ? 2 : 1 | 2;
      const step3 = this.generateStepA3(provide);
      this.state = "sentPe3";
      this.wire._debug("PE: sent step 3 (initiator)");
      this._handlePe4();
      this.wire._push(step3);
    }
    if (this.state === "gotPe3" && this.skeyHex) {
      const wantPlaintext = this.wire._peEnabled === 1;
      const prefer = wantPlaintext ? 1 : 2;
      const accept = wantPlaintext ? 1 | 2 : 2;
      const cryptoSelect = this._peerCryptoProvide & prefer || this._peerCryptoProvide & accept || 0;
      if (!cryptoSelect) {
        this.wire._debug("Error: no supported crypto method to select (peerProvide=0x%s)", this._peerCryptoProvide.toString(16));
        this.wire.destroy();
        return;
      }
      const step4 = this.generateStepB4(cryptoSelect);
      this.wire._push(step4);
      this._finalizeCryptoHandshake(cryptoSelect);
      this.wire._debug("PE: sent step 4 (responder), crypto handshake done (method %s)", cryptoSelect);
      if (!this.wire.peerId) this.wire._parseHandshake(null);
      this.wire.emit("crypto-handshake");
    }
  }
  _finalizeCryptoHandshake(encMethod) {
    this.state = "done";
    this.encryptionMethod = encMethod;
    this.cryptoHandshakeDone = true;
    if (encMethod === 2) this._isEncrypted = true;
    if (this.wire._bufferSize > 0) {
      const buf = concat(this.wire._buffer, this.wire._bufferSize);
      this.wire._buffer = [this.decrypt(buf)];
    }
  }
  setInfoHash(infoHash) {
    this.skeyHex = infoHash.toLowerCase();
    this._initializeCiphers("B");
    this._handlePe3Encrypted();
    this.wire._pePending = false;
    this.wire._processBuffer();
  }
  //
  // PARSING HELPERS
  //
  _detectHandshakeOrPe(onHandshake, onPe) {
    this.wire._parse(20, (first20) => {
      if (first20[0] === 19 && arr2text(first20.slice(1, 20)) === "BitTorrent protocol") {
        this.wire._parse(48, (tail) => onHandshake(concat([first20.slice(1), tail])));
      } else {
        onPe(first20);
      }
    });
  }
  _handlePe3() {
    const hash1Buffer = this.getSyncPattern();
    this.wire._parseUntil(hash1Buffer, SYNC_MAX_BYTES);
    this.wire._parse(20, (buffer) => {
      const infoHashHash = this.extractInfoHashFromXor(buffer);
      this.state = "gotPe3";
      this.wire._debug("PE: handled step 3 XOR hash (responder)");
      this.wire._pePending = true;
      this.wire.emit("crypto-infohash", infoHashHash);
    });
  }
  _handlePe3Encrypted() {
    this.wire._parse(14, (buffer) => this._onPe3Header(buffer));
  }
  _onPe3Header(buffer) {
    const decHeader = this.decryptCipher(buffer);
    if (!equal(decHeader.subarray(0, 8), VC)) {
      this.wire._debug("Error: VC verification failed in pe3 (got %d bytes)", decHeader.length);
      this.wire.destroy();
      return;
    }
    this._peerCryptoProvide = getUint32(decHeader, 8);
    if (this._peerCryptoProvide === 0) {
      this.wire._debug("Error: no crypto methods provided by peer");
      this.wire.destroy();
      return;
    }
    const padCLen = getUint16(decHeader, 12);
    this.wire._parse(padCLen, (padCBuf) => this._onPe3Padding(padCBuf));
  }
  _onPe3Padding(padCBuf) {
    this.decryptCipher(padCBuf);
    this.wire._parse(2, (iaLenBuf) => this._onPe3IaLen(iaLenBuf));
  }
  _onPe3IaLen(iaLenBuf) {
    const decIaLen = this.decryptCipher(iaLenBuf);
    const iaLen = getUint16(decIaLen, 0);
    if (iaLen > 0) {
      this.wire._parse(iaLen, (iaBuffer) => this._onPe3Ia(iaBuffer));
    } else {
      this._advanceEncryption();
    }
  }
  _onPe3Ia(iaBuffer) {
    const ia = this.decryptCipher(iaBuffer);
    this._advanceEncryption();
    if (ia.length > 0 && ia[0] === 19 && arr2text(ia.slice(1, 20)) === "BitTorrent protocol") {
      this.wire._onHandshakeBuffer(ia.slice(1));
    }
  }
  _handlePe4() {
    const vcBufferEncrypted = this.decryptCipher(new Uint8Array(VC));
    this.wire._parseUntil(vcBufferEncrypted, SYNC_MAX_BYTES);
    this.wire._parse(6, (buffer) => this._onPe4Select(buffer));
  }
  _onPe4Select(buffer) {
    const peerSelect = this.decryptCipher(buffer);
    const selectedMethod = getUint32(peerSelect, 0);
    if (selectedMethod !== 1 && selectedMethod !== 2) {
      this.wire._debug("Error: peer selected unknown crypto method %s", selectedMethod);
      this.wire.destroy();
      return;
    }
    const padDLen = getUint16(peerSelect, 4);
    this.wire._parse(padDLen, (padDBuf) => this._onPe4Padding(padDBuf, selectedMethod));
  }
  _onPe4Padding(padDBuf, selectedMethod) {
    this.decryptCipher(padDBuf);
    this._finalizeCryptoHandshake(selectedMethod);
    this.wire._debug("PE: handled step 4, crypto handshake done (method %s)", selectedMethod);
    this.wire._parseHandshake(null);
    this.wire.emit("crypto-handshake");
  }
  //
  // PAYLOAD CRYPTO
  //
  encrypt(data) {
    if (!this._isEncrypted) return data;
    return this.encryptCipher(data);
  }
  decrypt(data) {
    if (!this._isEncrypted) return data;
    return this.decryptCipher(data);
  }
  _initializeCiphers(party) {
    const keyA = sha1(KEYA_STR, this.S, hex2arr(this.skeyHex));
    const keyB = sha1(KEYB_STR, this.S, hex2arr(this.skeyHex));
    const encryptKey = party === "A" ? keyA : keyB;
    const decryptKey = party === "A" ? keyB : keyA;
    this.encryptCipher = createRC4Cipher(encryptKey);
    this.decryptCipher = createRC4Cipher(decryptKey);
  }
};

// node_modules/bittorrent-protocol/index.js
var debug = (0, import_debug.default)("bittorrent-protocol");
var BITFIELD_GROW = 4e5;
var KEEP_ALIVE_TIMEOUT = 55e3;
var ALLOWED_FAST_SET_MAX_LENGTH = 100;
var MESSAGE_PROTOCOL = text2arr("BitTorrent protocol");
var MESSAGE_KEEP_ALIVE = new Uint8Array([0, 0, 0, 0]);
var MESSAGE_CHOKE = new Uint8Array([0, 0, 0, 1, 0]);
var MESSAGE_UNCHOKE = new Uint8Array([0, 0, 0, 1, 1]);
var MESSAGE_INTERESTED = new Uint8Array([0, 0, 0, 1, 2]);
var MESSAGE_UNINTERESTED = new Uint8Array([0, 0, 0, 1, 3]);
var MESSAGE_RESERVED = [0, 0, 0, 0, 0, 0, 0, 0];
var MESSAGE_PORT = [0, 0, 0, 3, 9, 0, 0];
var MESSAGE_HAVE_ALL = new Uint8Array([0, 0, 0, 1, 14]);
var MESSAGE_HAVE_NONE = new Uint8Array([0, 0, 0, 1, 15]);
function getUint322(buffer, at = 0) {
  return buffer[at] << 24 | buffer[at + 1] << 16 | buffer[at + 2] << 8 | buffer[at + 3];
}
function setUint32(buffer, at, value) {
  buffer[at] = value >>> 24 & 255;
  buffer[at + 1] = value >>> 16 & 255;
  buffer[at + 2] = value >>> 8 & 255;
  buffer[at + 3] = value & 255;
}
function indexOfBytes(haystack, needle) {
  if (needle.length === 0) return 0;
  if (haystack.length < needle.length) return -1;
  const max = haystack.length - needle.length;
  for (let i = 0; i <= max; i++) {
    let match = true;
    for (let j = 0; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) {
        match = false;
        break;
      }
    }
    if (match) return i;
  }
  return -1;
}
var Request = class {
  constructor(piece, offset, length, callback) {
    this.piece = piece;
    this.offset = offset;
    this.length = length;
    this.callback = callback;
  }
};
var HaveAllBitField = class {
  constructor() {
    this.buffer = new Uint8Array();
  }
  get(index) {
    return true;
  }
  set(index) {
  }
};
var Wire = class extends import_streamx.Duplex {
  static nativeRC4 = nativeRC4;
  // true if Node's crypto supports RC4 (avoids slower JS fallback) Node 17+ (requires `--openssl-legacy-provider`)
  constructor(type = "", peEnabled = 0) {
    super();
    this._debugId = arr2hex(randomBytes(4));
    this._debug("new wire");
    this.peerId = null;
    this.peerIdBuffer = null;
    this.type = type;
    this.amChoking = true;
    this.amInterested = false;
    this.peerChoking = true;
    this.peerInterested = false;
    this.peerPieces = new BitField(0, { grow: BITFIELD_GROW });
    this.extensions = {};
    this.peerExtensions = {};
    this.requests = [];
    this.peerRequests = [];
    this.extendedMapping = {};
    this.peerExtendedMapping = {};
    this.extendedHandshake = {};
    this.peerExtendedHandshake = {};
    this.hasFast = false;
    this.allowedFastSet = [];
    this.peerAllowedFastSet = [];
    this._ext = {};
    this._nextExt = 1;
    this.uploaded = 0;
    this.downloaded = 0;
    this.uploadSpeed = (0, import_throughput.default)();
    this.downloadSpeed = (0, import_throughput.default)();
    this._keepAliveInterval = null;
    this._timeout = null;
    this._timeoutMs = 0;
    this._timeoutExpiresAt = null;
    this._finished = false;
    this._parserSize = 0;
    this._parser = null;
    this._buffer = [];
    this._bufferSize = 0;
    this._peEnabled = peEnabled;
    this._encryptor = null;
    this._infoHash = null;
    this._cryptoSyncPattern = null;
    this._pePending = false;
    this._waitMaxBytes = null;
    this.on("finish", this._onFinish);
    this._debug("type:", this.type);
    if (this._peEnabled) {
      this._encryptor = new MessageStreamEncryptor(this);
      if (this.type.includes("Incoming")) {
        this._encryptor.handleIncoming();
      } else if (this.type.includes("Outgoing")) {
        this._encryptor.handleOutgoing();
      }
    } else {
      this._parseHandshake(null);
    }
  }
  get _peState() {
    return this._encryptor?.state ?? "idle";
  }
  get _encryptionMethod() {
    return this._encryptor?.encryptionMethod;
  }
  get _cryptoHandshakeDone() {
    return !!this._encryptor?.cryptoHandshakeDone;
  }
  /**
   * Set whether to send a "keep-alive" ping (sent every 55s)
   * @param {boolean} enable
   */
  setKeepAlive(enable) {
    this._debug("setKeepAlive %s", enable);
    clearInterval(this._keepAliveInterval);
    if (enable === false) return;
    this._keepAliveInterval = setInterval(() => {
      this.keepAlive();
    }, KEEP_ALIVE_TIMEOUT);
  }
  /**
   * Set the amount of time to wait before considering a request to be "timed out"
   * @param {number} ms
   * @param {boolean=} unref (should the timer be unref'd? default: false)
   */
  setTimeout(ms, unref) {
    this._debug("setTimeout ms=%d unref=%s", ms, unref);
    this._timeoutMs = ms;
    this._timeoutUnref = !!unref;
    this._resetTimeout(true);
  }
  destroy() {
    if (this.destroyed) return;
    this._debug("destroy");
    this.end();
    return this;
  }
  end(data) {
    if (this.destroyed || this.destroying) return;
    this._debug("end");
    this._onUninterested();
    this._onChoke();
    return super.end(data);
  }
  /**
   * Use the specified protocol extension.
   * @param  {function} Extension
   */
  use(Extension) {
    const name = Extension.prototype.name;
    if (!name) {
      throw new Error('Extension class requires a "name" property on the prototype');
    }
    this._debug("use extension.name=%s", name);
    const ext = this._nextExt;
    const handler = new Extension(this);
    function noop() {
    }
    if (typeof handler.onHandshake !== "function") {
      handler.onHandshake = noop;
    }
    if (typeof handler.onExtendedHandshake !== "function") {
      handler.onExtendedHandshake = noop;
    }
    if (typeof handler.onMessage !== "function") {
      handler.onMessage = noop;
    }
    this.extendedMapping[ext] = name;
    this._ext[name] = handler;
    this[name] = handler;
    this._nextExt += 1;
  }
  //
  // OUTGOING MESSAGES
  //
  /**
   * Message "keep-alive": <len=0000>
   */
  keepAlive() {
    this._debug("keep-alive");
    this._push(MESSAGE_KEEP_ALIVE);
  }
  /**
   * Start the PE/MSE handshake as initiator.
   * @param {string} infoHash hex-encoded info hash
   */
  startEncryption(infoHash) {
    if (!this._peEnabled) return;
    this._infoHash = infoHash;
    this._encryptor.startAsInitiator(infoHash);
  }
  /**
   * Message: "handshake" <pstrlen><pstr><reserved><info_hash><peer_id>
   * @param  {Uint8Array|string} infoHash (as Buffer or *hex* string)
   * @param  {Uint8Array|string} peerId
   * @param  {Object} extensions
   */
  handshake(infoHash, peerId, extensions) {
    let infoHashBuffer;
    let peerIdBuffer;
    if (typeof infoHash === "string") {
      infoHash = infoHash.toLowerCase();
      infoHashBuffer = hex2arr(infoHash);
    } else {
      infoHashBuffer = infoHash;
      infoHash = arr2hex(infoHashBuffer);
    }
    if (typeof peerId === "string") {
      peerIdBuffer = hex2arr(peerId);
    } else {
      peerIdBuffer = peerId;
      peerId = arr2hex(peerIdBuffer);
    }
    this._infoHash = infoHashBuffer;
    if (infoHashBuffer.length !== 20 || peerIdBuffer.length !== 20) {
      throw new Error("infoHash and peerId MUST have length 20");
    }
    this._debug("handshake i=%s p=%s exts=%o", infoHash, peerId, extensions);
    const reserved = new Uint8Array(MESSAGE_RESERVED);
    this.extensions = {
      extended: true,
      dht: !!(extensions && extensions.dht),
      fast: !!(extensions && extensions.fast)
    };
    reserved[5] |= 16;
    if (this.extensions.dht) reserved[7] |= 1;
    if (this.extensions.fast) reserved[7] |= 4;
    if (this.extensions.fast && this.peerExtensions.fast) {
      this._debug("fast extension is enabled");
      this.hasFast = true;
    }
    this._push(concat([MESSAGE_PROTOCOL, reserved, infoHashBuffer, peerIdBuffer]));
    this._handshakeSent = true;
    if (this.peerExtensions.extended && !this._extendedHandshakeSent) {
      this._sendExtendedHandshake();
    }
  }
  /* Peer supports BEP-0010, send extended handshake.
   *
   * This comes after the 'handshake' event to give the user a chance to populate
   * `this.extendedHandshake` and `this.extendedMapping` before the extended handshake
   * is sent to the remote peer.
   */
  _sendExtendedHandshake() {
    const msg = Object.assign({}, this.extendedHandshake);
    msg.m = {};
    for (const ext in this.extendedMapping) {
      const name = this.extendedMapping[ext];
      msg.m[name] = Number(ext);
    }
    this.extended(0, bencode_default.encode(msg));
    this._extendedHandshakeSent = true;
  }
  /**
   * Message "choke": <len=0001><id=0>
   */
  choke() {
    if (this.amChoking) return;
    this.amChoking = true;
    this._debug("choke");
    this._push(MESSAGE_CHOKE);
    if (this.hasFast) {
      let allowedCount = 0;
      while (this.peerRequests.length > allowedCount) {
        const request2 = this.peerRequests[allowedCount];
        if (this.allowedFastSet.includes(request2.piece)) {
          ++allowedCount;
        } else {
          this.reject(request2.piece, request2.offset, request2.length);
        }
      }
    } else {
      while (this.peerRequests.length) {
        this.peerRequests.pop();
      }
    }
  }
  /**
   * Message "unchoke": <len=0001><id=1>
   */
  unchoke() {
    if (!this.amChoking) return;
    this.amChoking = false;
    this._debug("unchoke");
    this._push(MESSAGE_UNCHOKE);
  }
  /**
   * Message "interested": <len=0001><id=2>
   */
  interested() {
    if (this.amInterested) return;
    this.amInterested = true;
    this._debug("interested");
    this._push(MESSAGE_INTERESTED);
  }
  /**
   * Message "uninterested": <len=0001><id=3>
   */
  uninterested() {
    if (!this.amInterested) return;
    this.amInterested = false;
    this._debug("uninterested");
    this._push(MESSAGE_UNINTERESTED);
  }
  /**
   * Message "have": <len=0005><id=4><piece index>
   * @param  {number} index
   */
  have(index) {
    this._debug("have %d", index);
    this._message(4, [index], null);
  }
  /**
   * Message "bitfield": <len=0001+X><id=5><bitfield>
   * @param  {BitField|Buffer} bitfield
   */
  bitfield(bitfield) {
    this._debug("bitfield");
    if (!ArrayBuffer.isView(bitfield)) bitfield = bitfield.buffer;
    this._message(5, [], bitfield);
  }
  /**
   * Message "request": <len=0013><id=6><index><begin><length>
   * @param  {number}   index
   * @param  {number}   offset
   * @param  {number}   length
   * @param  {function} cb
   */
  request(index, offset, length, cb) {
    if (!cb) cb = () => {
    };
    if (this._finished) return cb(new Error("wire is closed"));
    if (this.peerChoking && !(this.hasFast && this.peerAllowedFastSet.includes(index))) {
      return cb(new Error("peer is choking"));
    }
    this._debug("request index=%d offset=%d length=%d", index, offset, length);
    this.requests.push(new Request(index, offset, length, cb));
    if (!this._timeout) {
      this._resetTimeout(true);
    }
    this._message(6, [index, offset, length], null);
  }
  /**
   * Message "piece": <len=0009+X><id=7><index><begin><block>
   * @param  {number} index
   * @param  {number} offset
   * @param  {Uint8Array} buffer
   */
  piece(index, offset, buffer) {
    this._debug("piece index=%d offset=%d", index, offset);
    this._message(7, [index, offset], buffer);
    this.uploaded += buffer.length;
    this.uploadSpeed(buffer.length);
    this.emit("upload", buffer.length);
  }
  /**
   * Message "cancel": <len=0013><id=8><index><begin><length>
   * @param  {number} index
   * @param  {number} offset
   * @param  {number} length
   */
  cancel(index, offset, length) {
    this._debug("cancel index=%d offset=%d length=%d", index, offset, length);
    this._callback(
      this._pull(this.requests, index, offset, length),
      new Error("request was cancelled"),
      null
    );
    this._message(8, [index, offset, length], null);
  }
  /**
   * Message: "port" <len=0003><id=9><listen-port>
   * @param {Number} port
   */
  port(port) {
    this._debug("port %d", port);
    const message = new Uint8Array(MESSAGE_PORT);
    const view = new DataView(message.buffer);
    view.setUint16(5, port);
    this._push(message);
  }
  /**
   * Message: "suggest" <len=0x0005><id=0x0D><piece index> (BEP6)
   * @param {number} index
   */
  suggest(index) {
    if (!this.hasFast) throw Error("fast extension is disabled");
    this._debug("suggest %d", index);
    this._message(13, [index], null);
  }
  /**
   * Message: "have-all" <len=0x0001><id=0x0E> (BEP6)
   */
  haveAll() {
    if (!this.hasFast) throw Error("fast extension is disabled");
    this._debug("have-all");
    this._push(MESSAGE_HAVE_ALL);
  }
  /**
   * Message: "have-none" <len=0x0001><id=0x0F> (BEP6)
   */
  haveNone() {
    if (!this.hasFast) throw Error("fast extension is disabled");
    this._debug("have-none");
    this._push(MESSAGE_HAVE_NONE);
  }
  /**
   * Message "reject": <len=0x000D><id=0x10><index><offset><length> (BEP6)
   * @param  {number}   index
   * @param  {number}   offset
   * @param  {number}   length
   */
  reject(index, offset, length) {
    if (!this.hasFast) throw Error("fast extension is disabled");
    this._debug("reject index=%d offset=%d length=%d", index, offset, length);
    this._pull(this.peerRequests, index, offset, length);
    this._message(16, [index, offset, length], null);
  }
  /**
   * Message: "allowed-fast" <len=0x0005><id=0x11><piece index> (BEP6)
   * @param {number} index
   */
  allowedFast(index) {
    if (!this.hasFast) throw Error("fast extension is disabled");
    this._debug("allowed-fast %d", index);
    if (!this.allowedFastSet.includes(index)) this.allowedFastSet.push(index);
    this._message(17, [index], null);
  }
  /**
   * Message: "extended" <len=0005+X><id=20><ext-number><payload>
   * @param  {number|string} ext
   * @param  {Object} obj
   */
  extended(ext, obj) {
    this._debug("extended ext=%s", ext);
    if (typeof ext === "string" && this.peerExtendedMapping[ext]) {
      ext = this.peerExtendedMapping[ext];
    }
    if (typeof ext === "number") {
      const extId = new Uint8Array([ext]);
      const buf = ArrayBuffer.isView(obj) ? obj : bencode_default.encode(obj);
      this._message(20, [], concat([extId, buf]));
    } else {
      throw new Error(`Unrecognized extension: ${ext}`);
    }
  }
  /**
   * Sets the encryption method for this wire, as per PSE/ME specification
   * Called by conn-pool when it resolves the infoHash from a crypto-infohash event.
   * Initializes the responder's ciphers and resumes pe3 processing.
   * @param {string} infoHash hex-encoded info hash
   */
  setInfoHash(infoHash) {
    this._infoHash = infoHash;
    if (this._encryptor) this._encryptor.setInfoHash(infoHash);
  }
  /**
   * Send a message to the remote peer.
   */
  _message(id, numbers, data) {
    const dataLength = data ? data.length : 0;
    const buffer = new Uint8Array(5 + 4 * numbers.length);
    setUint32(buffer, 0, buffer.length + dataLength - 4);
    buffer[4] = id;
    for (let i = 0; i < numbers.length; i++) {
      setUint32(buffer, 5 + 4 * i, numbers[i]);
    }
    this._push(buffer);
    if (data) this._push(data);
  }
  _push(data) {
    if (this._finished) return;
    if (this._encryptor) data = this._encryptor.encrypt(data);
    return this.push(data);
  }
  //
  // INCOMING MESSAGES
  //
  _onKeepAlive() {
    this._debug("got keep-alive");
    this.emit("keep-alive");
  }
  _onHandshake(infoHashBuffer, peerIdBuffer, extensions) {
    const infoHash = arr2hex(infoHashBuffer);
    const peerId = arr2hex(peerIdBuffer);
    this._debug("got handshake i=%s p=%s exts=%o", infoHash, peerId, extensions);
    this.peerId = peerId;
    this.peerIdBuffer = peerIdBuffer;
    this.peerExtensions = extensions;
    if (this.extensions.fast && this.peerExtensions.fast) {
      this._debug("fast extension is enabled");
      this.hasFast = true;
    }
    this.emit("handshake", infoHash, peerId, extensions);
    for (const name in this._ext) {
      this._ext[name].onHandshake(infoHash, peerId, extensions);
    }
    if (extensions.extended && this._handshakeSent && !this._extendedHandshakeSent) {
      this._sendExtendedHandshake();
    }
  }
  _onChoke() {
    this.peerChoking = true;
    this._debug("got choke");
    this.emit("choke");
    if (!this.hasFast) {
      while (this.requests.length) {
        this._callback(this.requests.pop(), new Error("peer is choking"), null);
      }
    }
  }
  _onUnchoke() {
    this.peerChoking = false;
    this._debug("got unchoke");
    this.emit("unchoke");
  }
  _onInterested() {
    this.peerInterested = true;
    this._debug("got interested");
    this.emit("interested");
  }
  _onUninterested() {
    this.peerInterested = false;
    this._debug("got uninterested");
    this.emit("uninterested");
  }
  _onHave(index) {
    if (this.peerPieces.get(index)) return;
    this._debug("got have %d", index);
    this.peerPieces.set(index, true);
    this.emit("have", index);
  }
  _onBitField(buffer) {
    this.peerPieces = new BitField(buffer);
    this._debug("got bitfield");
    this.emit("bitfield", this.peerPieces);
  }
  _onRequest(index, offset, length) {
    if (this.amChoking && !(this.hasFast && this.allowedFastSet.includes(index))) {
      if (this.hasFast) this.reject(index, offset, length);
      return;
    }
    this._debug("got request index=%d offset=%d length=%d", index, offset, length);
    const respond = (err, buffer) => {
      if (request2 !== this._pull(this.peerRequests, index, offset, length)) return;
      if (err) {
        this._debug("error satisfying request index=%d offset=%d length=%d (%s)", index, offset, length, err.message);
        if (this.hasFast) this.reject(index, offset, length);
        return;
      }
      this.piece(index, offset, buffer);
    };
    const request2 = new Request(index, offset, length, respond);
    this.peerRequests.push(request2);
    this.emit("request", index, offset, length, respond);
  }
  _onPiece(index, offset, buffer) {
    this._debug("got piece index=%d offset=%d", index, offset);
    this._callback(this._pull(this.requests, index, offset, buffer.length), null, buffer);
    this.downloaded += buffer.length;
    this.downloadSpeed(buffer.length);
    this.emit("download", buffer.length);
    this.emit("piece", index, offset, buffer);
  }
  _onCancel(index, offset, length) {
    this._debug("got cancel index=%d offset=%d length=%d", index, offset, length);
    this._pull(this.peerRequests, index, offset, length);
    this.emit("cancel", index, offset, length);
  }
  _onPort(port) {
    this._debug("got port %d", port);
    this.emit("port", port);
  }
  _onSuggest(index) {
    if (!this.hasFast) {
      this._debug("Error: got suggest whereas fast extension is disabled");
      this.destroy();
      return;
    }
    this._debug("got suggest %d", index);
    this.emit("suggest", index);
  }
  _onHaveAll() {
    if (!this.hasFast) {
      this._debug("Error: got have-all whereas fast extension is disabled");
      this.destroy();
      return;
    }
    this._debug("got have-all");
    this.peerPieces = new HaveAllBitField();
    this.emit("have-all");
  }
  _onHaveNone() {
    if (!this.hasFast) {
      this._debug("Error: got have-none whereas fast extension is disabled");
      this.destroy();
      return;
    }
    this._debug("got have-none");
    this.emit("have-none");
  }
  _onReject(index, offset, length) {
    if (!this.hasFast) {
      this._debug("Error: got reject whereas fast extension is disabled");
      this.destroy();
      return;
    }
    this._debug("got reject index=%d offset=%d length=%d", index, offset, length);
    this._callback(
      this._pull(this.requests, index, offset, length),
      new Error("request was rejected"),
      null
    );
    this.emit("reject", index, offset, length);
  }
  _onAllowedFast(index) {
    if (!this.hasFast) {
      this._debug("Error: got allowed-fast whereas fast extension is disabled");
      this.destroy();
      return;
    }
    this._debug("got allowed-fast %d", index);
    if (!this.peerAllowedFastSet.includes(index)) this.peerAllowedFastSet.push(index);
    if (this.peerAllowedFastSet.length > ALLOWED_FAST_SET_MAX_LENGTH) this.peerAllowedFastSet.shift();
    this.emit("allowed-fast", index);
  }
  _onExtended(ext, buf) {
    if (ext === 0) {
      let info;
      try {
        info = bencode_default.decode(buf);
      } catch (err) {
        this._debug("ignoring invalid extended handshake: %s", err.message || err);
      }
      if (!info) return;
      this.peerExtendedHandshake = info;
      if (typeof info.m === "object") {
        for (const name in info.m) {
          this.peerExtendedMapping[name] = Number(info.m[name].toString());
        }
      }
      for (const name in this._ext) {
        if (this.peerExtendedMapping[name]) {
          this._ext[name].onExtendedHandshake(this.peerExtendedHandshake);
        }
      }
      this._debug("got extended handshake");
      this.emit("extended", "handshake", this.peerExtendedHandshake);
    } else {
      if (this.extendedMapping[ext]) {
        ext = this.extendedMapping[ext];
        if (this._ext[ext]) {
          this._ext[ext].onMessage(buf);
        }
      }
      this._debug("got extended message ext=%s", ext);
      this.emit("extended", ext, buf);
    }
  }
  _onTimeout() {
    this._debug("request timed out");
    this._callback(this.requests.shift(), new Error("request has timed out"), null);
    this.emit("timeout");
  }
  /**
   * Duplex stream method. Called whenever the remote peer has data for us. Data that the
   * remote peer sends gets buffered (i.e. not actually processed) until the right number
   * of bytes have arrived, determined by the last call to `this._parse(number, callback)`.
   * Once enough bytes have arrived to process the message, the callback function
   * (i.e. `this._parser`) gets called with the full buffer of data.
   * @param  {Uint8Array} data
   * @param  {function} cb
   */
  _write(data, cb) {
    if (this._encryptor) data = this._encryptor.decrypt(data);
    this._bufferSize += data.length;
    this._buffer.push(data);
    if (this._buffer.length > 1) {
      this._buffer = [concat(this._buffer, this._bufferSize)];
    }
    this._processBuffer();
    cb(null);
  }
  _processBuffer() {
    if (this._cryptoSyncPattern) {
      const index = indexOfBytes(this._buffer[0], this._cryptoSyncPattern);
      if (index !== -1) {
        this._buffer[0] = this._buffer[0].slice(index + this._cryptoSyncPattern.length);
        this._bufferSize -= index + this._cryptoSyncPattern.length;
        this._cryptoSyncPattern = null;
      } else if (this._bufferSize > this._waitMaxBytes + this._cryptoSyncPattern.length) {
        this._debug("Error: could not resynchronize");
        this.destroy();
        return;
      }
      if (this._cryptoSyncPattern) return;
    }
    while (this._bufferSize >= this._parserSize) {
      if (this._cryptoSyncPattern || this._pePending) break;
      if (this._parserSize === 0) {
        this._parser(new Uint8Array());
      } else {
        const buffer = this._buffer[0];
        this._bufferSize -= this._parserSize;
        this._buffer = this._bufferSize ? [buffer.subarray(this._parserSize)] : [];
        this._parser(buffer.subarray(0, this._parserSize));
      }
    }
  }
  _callback(request2, err, buffer) {
    if (!request2) return;
    this._resetTimeout(!this.peerChoking && !this._finished);
    request2.callback(err, buffer);
  }
  _resetTimeout(setAgain) {
    if (!setAgain || !this._timeoutMs || !this.requests.length) {
      clearTimeout(this._timeout);
      this._timeout = null;
      this._timeoutExpiresAt = null;
      return;
    }
    const timeoutExpiresAt = Date.now() + this._timeoutMs;
    if (this._timeout) {
      if (timeoutExpiresAt - this._timeoutExpiresAt < this._timeoutMs * 0.05) {
        return;
      }
      clearTimeout(this._timeout);
    }
    this._timeoutExpiresAt = timeoutExpiresAt;
    this._timeout = setTimeout(() => this._onTimeout(), this._timeoutMs);
    if (this._timeoutUnref && this._timeout.unref) this._timeout.unref();
  }
  /**
   * Takes a number of bytes that the local peer is waiting to receive from the remote peer
   * in order to parse a complete message, and a callback function to be called once enough
   * bytes have arrived.
   * @param  {number} size
   * @param  {function} parser
   */
  _parse(size, parser) {
    this._parserSize = size;
    this._parser = parser;
  }
  _parseUntil(pattern, maxBytes) {
    this._cryptoSyncPattern = pattern;
    this._waitMaxBytes = maxBytes;
  }
  /**
   * Handle the first 4 bytes of a message, to determine the length of bytes that must be
   * waited for in order to have the whole message.
   * @param  {Uint8Array} buffer
   */
  _onMessageLength(buffer) {
    const length = getUint322(buffer);
    if (length > 0) {
      this._parse(length, this._onMessage);
    } else {
      this._onKeepAlive();
      this._parse(4, this._onMessageLength);
    }
  }
  /**
   * Handle a message from the remote peer.
   * @param  {Uint8Array} buffer
   */
  _onMessage(buffer) {
    this._parse(4, this._onMessageLength);
    switch (buffer[0]) {
      case 0:
        return this._onChoke();
      case 1:
        return this._onUnchoke();
      case 2:
        return this._onInterested();
      case 3:
        return this._onUninterested();
      case 4:
        return this._onHave(getUint322(buffer, 1));
      case 5:
        return this._onBitField(buffer.subarray(1));
      case 6:
        return this._onRequest(
          getUint322(buffer, 1),
          getUint322(buffer, 5),
          getUint322(buffer, 9)
        );
      case 7:
        return this._onPiece(
          getUint322(buffer, 1),
          getUint322(buffer, 5),
          buffer.subarray(9)
        );
      case 8:
        return this._onCancel(
          getUint322(buffer, 1),
          getUint322(buffer, 5),
          getUint322(buffer, 9)
        );
      case 9:
        return this._onPort(buffer[1] << 8 | buffer[2]);
      case 13:
        return this._onSuggest(getUint322(buffer, 1));
      case 14:
        return this._onHaveAll();
      case 15:
        return this._onHaveNone();
      case 16:
        return this._onReject(
          getUint322(buffer, 1),
          getUint322(buffer, 5),
          getUint322(buffer, 9)
        );
      case 17:
        return this._onAllowedFast(getUint322(buffer, 1));
      case 20:
        return this._onExtended(buffer[1], buffer.subarray(2));
      default:
        this._debug("got unknown message");
        return this.emit("unknownmessage", buffer);
    }
  }
  /**
   * Reads the handshake as specified by the bittorrent wire protocol.
   */
  _parseHandshake() {
    this._parse(1, (buffer) => {
      const pstrlen = buffer[0];
      if (pstrlen !== 19) {
        this._debug("Error: wire not speaking BitTorrent protocol (%s)", pstrlen.toString());
        this.end();
        return;
      }
      this._parse(pstrlen + 48, this._onHandshakeBuffer);
    });
  }
  _onHandshakeBuffer(handshake) {
    const protocol = handshake.slice(0, 19);
    if (arr2text(protocol) !== "BitTorrent protocol") {
      this._debug("Error: wire not speaking BitTorrent protocol (%s)", arr2text(protocol));
      this.end();
      return;
    }
    handshake = handshake.slice(19);
    this._onHandshake(handshake.slice(8, 28), handshake.slice(28, 48), {
      dht: !!(handshake[7] & 1),
      // see bep_0005
      fast: !!(handshake[7] & 4),
      // see bep_0006
      extended: !!(handshake[5] & 16)
      // see bep_0010
    });
    this._parse(4, this._onMessageLength);
  }
  _onFinish() {
    this._finished = true;
    this.push(null);
    while (this.read()) {
    }
    clearInterval(this._keepAliveInterval);
    this._parse(Number.MAX_VALUE, () => {
    });
    while (this.peerRequests.length) {
      this.peerRequests.pop();
    }
    while (this.requests.length) {
      this._callback(this.requests.pop(), new Error("wire was closed"), null);
    }
  }
  _debug(...args) {
    args[0] = `[${this._debugId}] ${args[0]}`;
    debug(...args);
  }
  _pull(requests, piece, offset, length) {
    for (let i = 0; i < requests.length; i++) {
      const req = requests[i];
      if (req.piece === piece && req.offset === offset && req.length === length) {
        (0, import_unordered_array_remove.default)(requests, i);
        return req;
      }
    }
    return null;
  }
};
var bittorrent_protocol_default = Wire;

// node_modules/torrent-piece/index.js
var BLOCK_LENGTH = 1 << 14;
var Piece = class {
  constructor(length) {
    this.length = length;
    this.missing = length;
    this.sources = null;
    this._chunks = Math.ceil(length / BLOCK_LENGTH);
    this._remainder = length % BLOCK_LENGTH || BLOCK_LENGTH;
    this._buffered = 0;
    this._buffer = null;
    this._cancellations = null;
    this._reservations = 0;
    this._flushed = false;
  }
  chunkLength(i) {
    return i === this._chunks - 1 ? this._remainder : BLOCK_LENGTH;
  }
  chunkLengthRemaining(i) {
    return this.length - i * BLOCK_LENGTH;
  }
  chunkOffset(i) {
    return i * BLOCK_LENGTH;
  }
  reserve() {
    if (!this.init()) return -1;
    if (this._cancellations.length) return this._cancellations.pop();
    if (this._reservations < this._chunks) return this._reservations++;
    return -1;
  }
  reserveRemaining() {
    if (!this.init()) return -1;
    if (this._cancellations.length || this._reservations < this._chunks) {
      let min = this._reservations;
      while (this._cancellations.length) {
        min = Math.min(min, this._cancellations.pop());
      }
      this._reservations = this._chunks;
      return min;
    }
    return -1;
  }
  cancel(i) {
    if (!this.init()) return;
    this._cancellations.push(i);
  }
  cancelRemaining(i) {
    if (!this.init()) return;
    this._reservations = i;
  }
  get(i) {
    if (!this.init()) return null;
    return this._buffer[i];
  }
  set(i, data, source) {
    if (!this.init()) return false;
    const len = data.length;
    const blocks = Math.ceil(len / BLOCK_LENGTH);
    for (let j = 0; j < blocks; j++) {
      if (!this._buffer[i + j]) {
        const offset = j * BLOCK_LENGTH;
        const splitData = data.subarray(offset, offset + BLOCK_LENGTH);
        this._buffered++;
        this._buffer[i + j] = splitData;
        this.missing -= splitData.length;
        if (!this.sources.includes(source)) {
          this.sources.push(source);
        }
      }
    }
    return this._buffered === this._chunks;
  }
  flush() {
    if (!this._buffer || this._chunks !== this._buffered) return null;
    const buffer = concat(this._buffer, this.length);
    this._buffer = null;
    this._cancellations = null;
    this.sources = null;
    this._flushed = true;
    return buffer;
  }
  init() {
    if (this._flushed) return false;
    if (this._buffer) return true;
    this._buffer = new Array(this._chunks);
    this._cancellations = [];
    this.sources = [];
    return true;
  }
};
Piece.BLOCK_LENGTH = BLOCK_LENGTH;

// dist/services/torrent/wire-tuning.js
import Torrent from "webtorrent/lib/torrent.js";
var SMALL_MESSAGE_BYTES = 256;
var BLOCK_LENGTH2 = 1 << 14;
var installed;
function installWireTuning() {
  if (installed === void 0)
    installed = install();
  return typeof installed === "string" ? installed : void 0;
}
function install() {
  const wire = bittorrent_protocol_default.prototype;
  const piece = Piece;
  for (const name of ["_write", "_processBuffer", "_push", "_parse"]) {
    if (typeof wire[name] !== "function")
      return `bittorrent-protocol Wire has no ${name}()`;
  }
  for (const name of ["set", "get", "flush", "init", "reserve"]) {
    if (typeof piece.prototype[name] !== "function")
      return `torrent-piece Piece has no ${name}()`;
  }
  const torrent = Torrent.prototype;
  if (typeof torrent?._update !== "function" || typeof torrent._updateWireWrapper !== "function")
    return "webtorrent Torrent has no _update() / _updateWireWrapper()";
  if (piece.BLOCK_LENGTH !== BLOCK_LENGTH2)
    return `torrent-piece blocks are ${piece.BLOCK_LENGTH} bytes, not ${BLOCK_LENGTH2}`;
  const probe = new Piece(BLOCK_LENGTH2 + 1);
  if (probe._chunks !== 2 || probe._buffered !== 0 || probe.missing !== BLOCK_LENGTH2 + 1)
    return "torrent-piece Piece keeps other fields";
  onMessage = wire._onMessage;
  if (typeof onMessage !== "function")
    return "bittorrent-protocol Wire has no _onMessage()";
  wire._write = receive;
  wire._processBuffer = processQueued;
  wire._push = pushBatched;
  const update = torrent._update;
  torrent._update = function coalescedUpdate() {
    if (this._maUpdateQueued)
      return;
    this._maUpdateQueued = true;
    queueMicrotask(() => {
      this._maUpdateQueued = false;
      update.call(this);
    });
  };
  piece.prototype.set = setBlock;
  piece.prototype.get = getBlock;
  piece.prototype.flush = flushPiece;
  return true;
}
function receive(data, cb) {
  if (this._encryptor)
    data = this._encryptor.decrypt(data);
  if (data.length > 0) {
    this._buffer.push(data);
    this._bufferSize += data.length;
  }
  this._processBuffer();
  cb(null);
}
function processQueued() {
  if (this._cryptoSyncPattern) {
    if (this._buffer.length > 1)
      this._buffer = [join3(this._buffer, this._bufferSize)];
    const head = this._buffer[0] ?? new Uint8Array();
    const index = indexOfBytes2(head, this._cryptoSyncPattern);
    if (index !== -1) {
      const rest = head.subarray(index + this._cryptoSyncPattern.length);
      this._buffer = rest.length ? [rest] : [];
      this._bufferSize = rest.length;
      this._cryptoSyncPattern = null;
    } else if (this._bufferSize > this._waitMaxBytes + this._cryptoSyncPattern.length) {
      ;
      this.destroy();
      return;
    }
    if (this._cryptoSyncPattern)
      return;
  }
  while (this._bufferSize >= this._parserSize) {
    if (this._cryptoSyncPattern || this._pePending)
      break;
    const size = this._parserSize;
    if (size === 0) {
      this._parser(new Uint8Array());
      continue;
    }
    this._bufferSize -= size;
    this._parser(take(this._buffer, size, this._parser === onMessage ? this : void 0));
  }
}
var onMessage;
function take(queue, size, wire) {
  const head = queue[0];
  if (head.length > size) {
    queue[0] = head.subarray(size);
    return head.subarray(0, size);
  }
  if (head.length === size) {
    queue.shift();
    return head;
  }
  let out;
  if (wire && head[0] === 7) {
    if (!wire._maScratch || wire._maScratch.length < size)
      wire._maScratch = Buffer.allocUnsafe(Math.max(size, BLOCK_LENGTH2 + 9));
    out = wire._maScratch.subarray(0, size);
  } else {
    out = Buffer.allocUnsafe(size);
  }
  let filled = 0;
  while (filled < size) {
    const chunk = queue[0];
    const want = size - filled;
    if (chunk.length > want) {
      out.set(chunk.subarray(0, want), filled);
      queue[0] = chunk.subarray(want);
      filled = size;
    } else {
      out.set(chunk, filled);
      filled += chunk.length;
      queue.shift();
    }
  }
  return out;
}
function join3(chunks, size) {
  const out = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
function indexOfBytes2(haystack, needle) {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).indexOf(needle);
}
function pushBatched(data) {
  if (this._finished)
    return false;
  if (this._encryptor) {
    flushPending(this);
    return this.push(this._encryptor.encrypt(data));
  }
  if (data.length <= SMALL_MESSAGE_BYTES) {
    if (!this._maPending) {
      this._maPending = [];
      this._maPendingBytes = 0;
      queueMicrotask(() => flushPending(this));
    }
    this._maPending.push(data);
    this._maPendingBytes += data.length;
    return true;
  }
  flushPending(this);
  return pushNow(this, data);
}
function flushPending(wire) {
  const pending = wire._maPending;
  if (!pending)
    return;
  wire._maPending = null;
  if (wire._finished || wire.destroyed || pending.length === 0)
    return;
  pushNow(wire, pending.length === 1 ? pending[0] : join3(pending, wire._maPendingBytes));
}
function pushNow(wire, data) {
  return wire.push(data);
}
function setBlock(i, data, source) {
  if (!this.init())
    return false;
  const buffered = this._buffer;
  const blocks = Math.ceil(data.length / BLOCK_LENGTH2);
  let whole = this._maData;
  for (let j = 0; j < blocks; j++) {
    if (buffered[i + j])
      continue;
    const offset = j * BLOCK_LENGTH2;
    const block = data.subarray(offset, offset + BLOCK_LENGTH2);
    const at = (i + j) * BLOCK_LENGTH2;
    if (at + block.length > this.length)
      continue;
    if (!whole)
      whole = this._maData = Buffer.allocUnsafe(this.length);
    whole.set(block, at);
    buffered[i + j] = true;
    this._buffered++;
    this.missing -= block.length;
    if (!this.sources.includes(source))
      this.sources.push(source);
  }
  return this._buffered === this._chunks;
}
function getBlock(i) {
  if (!this.init())
    return null;
  if (!this._buffer[i] || !this._maData)
    return void 0;
  return this._maData.subarray(i * BLOCK_LENGTH2, Math.min(this.length, (i + 1) * BLOCK_LENGTH2));
}
function flushPiece() {
  if (!this._buffer || this._chunks !== this._buffered || !this._maData)
    return null;
  const whole = this._maData;
  this._maData = null;
  this._buffer = null;
  this._cancellations = null;
  this.sources = null;
  this._flushed = true;
  return whole;
}

// dist/services/torrent/idle-timers.js
var RECHOKE_INTERVAL_MS = 1e4;
function parkIdleTimers(torrent) {
  const t = torrent;
  if (typeof t._rechoke !== "function" || !("_rechokeIntervalId" in t) || !("_noPeersIntervalId" in t)) {
    return "webtorrent Torrent has no _rechoke / _rechokeIntervalId / _noPeersIntervalId";
  }
  let noPeers = t._noPeersIntervalId;
  if (noPeers)
    clearInterval(noPeers);
  Object.defineProperty(t, "_noPeersIntervalId", {
    configurable: true,
    enumerable: true,
    get: () => noPeers,
    set: (id) => {
      clearInterval(id ?? void 0);
      noPeers = id;
    }
  });
  const park = () => {
    if (t.wires.length === 0 && t._rechokeIntervalId) {
      clearInterval(t._rechokeIntervalId);
      t._rechokeIntervalId = null;
    }
  };
  if (t._rechokeIntervalId)
    park();
  else
    t.once("infoHash", park);
  t.on("wire", (wire) => {
    if (!t._rechokeIntervalId && !t.destroyed) {
      t._rechokeIntervalId = setInterval(() => t._rechoke(), RECHOKE_INTERVAL_MS);
      t._rechokeIntervalId.unref();
    }
    wire.once("close", () => setImmediate(() => {
      if (!t.destroyed)
        park();
    }));
  });
  return void 0;
}
var jittered = /* @__PURE__ */ new WeakSet();
function jitterAnnounces(client, jitter, random = Math.random) {
  const tracker = client?._trackers?.[0];
  if (!tracker || !(jitter > 0))
    return void 0;
  let owner = Object.getPrototypeOf(tracker);
  while (owner && !Object.prototype.hasOwnProperty.call(owner, "setInterval"))
    owner = Object.getPrototypeOf(owner);
  if (!owner)
    return "bittorrent-tracker trackers have no setInterval()";
  if (jittered.has(owner))
    return void 0;
  jittered.add(owner);
  const original = owner.setInterval;
  owner.setInterval = function(intervalMs) {
    const ms = typeof intervalMs === "number" && intervalMs > 0 ? jitteredIntervalMs(intervalMs, jitter, random) : intervalMs;
    return original.call(this, ms);
  };
  return void 0;
}
function jitteredIntervalMs(intervalMs, jitter, random = Math.random) {
  return Math.max(1, Math.round(intervalMs * (1 - Math.min(Math.max(jitter, 0), 0.5) * random())));
}

// dist/services/torrent/peer-network.js
import dgram from "node:dgram";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import { dirname as dirname2, join as join4 } from "node:path";
import { pathToFileURL } from "node:url";
import Torrent2 from "webtorrent/lib/torrent.js";
var scope;
var netWrapped = false;
function wrapNodeModules() {
  if (netWrapped)
    return;
  netWrapped = true;
  const netModule = net;
  const dgramModule = dgram;
  const connect = netModule.connect;
  const createConnection = netModule.createConnection;
  const createServer = netModule.createServer;
  const createSocket = dgramModule.createSocket;
  const routed = (original, route) => function(...args) {
    return scope ? route(scope, args) : original.apply(this, args);
  };
  const connectArgs = (network, args) => {
    const [first, second] = args;
    if (typeof first === "object" && first !== null) {
      const { host, port } = first;
      return network.connect(host ?? "localhost", Number(port));
    }
    return network.connect(typeof second === "string" ? second : "localhost", Number(first));
  };
  netModule.connect = routed(connect, connectArgs);
  netModule.createConnection = routed(createConnection, connectArgs);
  netModule.createServer = routed(createServer, (network) => network.createServer());
  dgramModule.createSocket = routed(createSocket, (network) => network.createUdpSocket());
}
function withinNetwork(network, run) {
  if (!network)
    return run();
  wrapNodeModules();
  const previous = scope;
  scope = network;
  try {
    return run();
  } finally {
    scope = previous;
  }
}
var networkKey = /* @__PURE__ */ Symbol.for("media-agent.peerNetwork");
var clientNetworks = /* @__PURE__ */ new WeakMap();
var hooksError;
function udpTrackerUrl() {
  const require2 = createRequire(import.meta.url);
  const webtorrentDir = dirname2(require2.resolve("webtorrent"));
  const discoveryDir = packageDir("torrent-discovery", join4(webtorrentDir, "index.js"));
  const trackerDir = packageDir("bittorrent-tracker", join4(discoveryDir, "index.js"));
  return pathToFileURL(join4(trackerDir, "lib", "client", "udp-tracker.js")).href;
}
function packageDir(name, fromFile) {
  for (const dir of createRequire(fromFile).resolve.paths(name) ?? []) {
    if (existsSync(join4(dir, name, "package.json")))
      return join4(dir, name);
  }
  throw new Error(`${name} is not installed next to ${fromFile}`);
}
async function installHooks() {
  {
    const torrentProto = Torrent2.prototype;
    const drain = torrentProto._drain;
    if (typeof drain !== "function")
      throw new Error("webtorrent Torrent has no _drain: peer connections cannot be routed");
    torrentProto._drain = function() {
      const network = this.client ? clientNetworks.get(this.client) : void 0;
      return withinNetwork(network, () => drain.call(this));
    };
    const { default: UDPTracker } = await import(udpTrackerUrl());
    const request2 = UDPTracker.prototype._request;
    if (typeof request2 !== "function")
      throw new Error("bittorrent-tracker UDPTracker has no _request: UDP announces cannot be routed");
    UDPTracker.prototype._request = function(opts) {
      const client = this.client;
      const proxyOpts = client?._proxyOpts;
      const network = proxyOpts?.[networkKey];
      if (!client || !proxyOpts || "socksProxy" in proxyOpts)
        return withinNetwork(network, () => request2.call(this, opts));
      client._proxyOpts = void 0;
      try {
        return withinNetwork(network, () => request2.call(this, opts));
      } finally {
        client._proxyOpts = proxyOpts;
      }
    };
  }
}
await installHooks().catch((err) => {
  hooksError = err instanceof Error ? err : new Error(String(err));
});
function assertPeerNetworkHooks() {
  if (hooksError)
    throw hooksError;
}
function routeClient(client, network) {
  clientNetworks.set(client, network);
}
function trackerProxyOpts(network) {
  return { httpAgent: network.trackerDispatcher, httpsAgent: network.trackerDispatcher, [networkKey]: network };
}

// dist/services/torrent/engine.js
var WebTorrentEngine = class {
  #options;
  #log;
  #client;
  /** The network the current client was made for (undefined: the clear). */
  #network;
  #unsubscribe = () => {
  };
  /** Serialises network switches. */
  #switching = Promise.resolve();
  /** Between stopping the old client and making the new one: launches wait for the switch to make them. */
  #replacing = false;
  #entries = /* @__PURE__ */ new Map();
  #signals = new EventEmitter();
  /**
   * Tracker announces go through fetch; without this dispatcher they would share the global,
   * keep-alive pool. Trackers like opentracker answer HTTP/1.1 without `Connection: close` and
   * then close the connection: an announce sent in that gap (another torrent's, a moment after
   * a response) lands on the dying socket and fails with "other side closed", and webtorrent
   * does not announce again for the tracker's whole interval (30 min) - a seeder invisible to
   * peers, a leecher without peers. One connection per announce removes the race.
   */
  #trackerDispatcher = new import_undici2.Agent({ pipelining: 0 });
  #closed = false;
  #utpFallbackUnsupported = false;
  /** The file store's descriptors, shared by every torrent (file-store.ts). */
  #files;
  #store;
  #pieceMaps;
  /** Warnings about a reshaped webtorrent, logged once each. */
  #warned = /* @__PURE__ */ new Set();
  constructor(options) {
    this.#options = options;
    this.#log = options.logger;
    this.#signals.setMaxListeners(0);
    this.#files = new FilePool({ maxOpen: options.maxOpenFiles ?? torrentStoreMaxOpenFiles });
    this.#store = options.store ?? fileStoreFor(this.#files);
    if (options.stateDir && !options.store) {
      this.#pieceMaps = new PieceMaps({ stateDir: options.stateDir, pool: this.#files, logger: this.#log, writeIntervalMs: options.pieceMapWriteIntervalMs });
    }
    if (options.wireTuning !== false)
      this.#warnOnce(installWireTuning(), "webtorrent changed: its wire and piece code stay untuned (more CPU per GiB)");
    this.#network = options.route?.current();
    this.#client = this.#createClient(this.#network);
    if (options.route) {
      const route = options.route;
      this.#unsubscribe = route.subscribe(() => {
        this.#switching = this.#switching.then(() => this.#switchNetwork(route.current()));
      });
    }
  }
  #createClient(network) {
    const options = this.#options;
    if (network)
      assertPeerNetworkHooks();
    const client = withinNetwork(network, () => new WebTorrent({
      // `wrtc: false`: no WebSocket (WebRTC-signalling) trackers, which would be handed the
      // dispatcher as a socket agent; WebRTC is a removed feature anyway (docs/torrents.md).
      tracker: {
        wrtc: false,
        proxyOpts: network ? trackerProxyOpts(network) : { httpAgent: this.#trackerDispatcher, httpsAgent: this.#trackerDispatcher }
      },
      dht: network ? false : options.dht ?? torrentDht,
      lsd: network ? false : options.lsd ?? torrentLsd,
      utPex: network ? false : options.pex ?? torrentPex,
      utp: network ? false : options.utp ?? torrentUtp,
      natUpnp: network ? false : options.natUpnp ?? torrentNatUpnp,
      natPmp: network ? false : options.natPmp ?? torrentNatPmp,
      torrentPort: network ? network.peerPort : options.torrentPort ?? torrentPort,
      maxConns: options.maxConns ?? torrentMaxConns
    }));
    client.on("error", (err) => this.#log.error({ err }, "torrent client error"));
    if (network) {
      routeClient(client, network);
      const off = network.onOpenChange((open2) => this.#gate(client, open2));
      client.once("close", off);
    }
    return client;
  }
  /** While the network is closed (the tunnel not up) torrents start no connection; they wait, never go to the clear. */
  #gate(client, open2) {
    for (const torrent of client.torrents) {
      if (torrent.destroyed)
        continue;
      if (open2)
        torrent.resume();
      else
        torrent.pause();
    }
  }
  /** Stops every torrent (keeping its verified pieces), replaces the client, starts them again. */
  async #switchNetwork(network) {
    if (this.#closed || network === this.#network)
      return;
    this.#log.info({ network: network?.name ?? "clear" }, "torrent traffic moves to another network; restarting the torrent client");
    this.#network = network;
    this.#replacing = true;
    const entries = [...this.#entries.entries()];
    await Promise.all(entries.map(([, entry]) => this.#enqueue(entry, () => this.#halt(entry))));
    const old = this.#client;
    await withTimeout(new Promise((done) => old.destroy(() => done())), this.#options.stopTimeoutMs ?? torrentStopTimeoutMs);
    if (this.#closed)
      return;
    try {
      this.#client = this.#createClient(network);
    } catch (err) {
      this.#log.error({ err, network: network?.name }, "torrent traffic cannot be routed into the new network; torrents stay stopped");
      return;
    }
    this.#replacing = false;
    for (const [infoHash, entry] of entries) {
      if (!entry.paused && this.#entries.get(infoHash) === entry)
        void this.#enqueue(entry, () => this.#launch(infoHash));
    }
  }
  resolveSource(source, options = {}) {
    return resolveTorrentSource(source, {
      torrentFileMaxBytes: this.#options.torrentFileMaxBytes,
      fetchTimeoutMs: this.#options.fetchTimeoutMs,
      dispatcher: this.#options.dispatcher,
      signal: options.signal
    });
  }
  start(input, listener) {
    const infoHash = input.infoHash.toLowerCase();
    let entry = this.#entries.get(infoHash);
    if (!entry) {
      entry = { input: { ...input, infoHash }, listeners: /* @__PURE__ */ new Set(), torrent: null, paused: false, chain: Promise.resolve() };
      this.#entries.set(infoHash, entry);
    }
    if (input.torrentFile && !entry.torrentFile)
      entry.torrentFile = input.torrentFile;
    if (input.magnetURI && !entry.input.magnetURI)
      entry.input.magnetURI = input.magnetURI;
    entry.listeners.add(listener);
    entry.paused = false;
    this.#enqueue(entry, () => this.#launch(infoHash));
    const current = entry;
    return () => {
      current.listeners.delete(listener);
    };
  }
  pause(infoHash) {
    const entry = this.#entries.get(infoHash.toLowerCase());
    if (!entry)
      return Promise.resolve();
    entry.paused = true;
    return this.#enqueue(entry, () => this.#halt(entry));
  }
  resume(infoHash) {
    const key = infoHash.toLowerCase();
    const entry = this.#entries.get(key);
    if (!entry)
      return Promise.reject(new TorrentNotFoundError(`no torrent ${key} to resume`));
    entry.paused = false;
    return this.#enqueue(entry, () => this.#launch(key));
  }
  async recheck(infoHash) {
    const key = infoHash.toLowerCase();
    const entry = this.#entries.get(key);
    const forget = async () => {
      if (entry)
        entry.bitfield = void 0;
      await this.#pieceMaps?.forget(key);
    };
    if (!entry || entry.paused)
      return forget();
    await this.#enqueue(entry, async () => {
      await this.#halt(entry);
      await forget();
      await this.#launch(key);
    });
    await this.#whenReady(key);
  }
  async remove(infoHash, options) {
    const key = infoHash.toLowerCase();
    const entry = this.#entries.get(key);
    let torrentFile = options.torrentFile;
    if (entry) {
      entry.paused = true;
      await this.#enqueue(entry, () => this.#halt(entry));
      torrentFile = entry.torrentFile ?? torrentFile;
      entry.listeners.clear();
      if (this.#entries.get(key) === entry)
        this.#entries.delete(key);
    }
    await this.#pieceMaps?.forget(key);
    this.#signals.emit(`gone:${key}`);
    if (options.deleteFiles && torrentFile)
      await deleteTorrentFiles(this.#options.downloadDir, torrentFile);
  }
  stats(infoHash) {
    const entry = this.#entries.get(infoHash.toLowerCase());
    const torrent = entry?.torrent;
    if (!entry || !torrent || torrent.destroyed)
      return void 0;
    const hasMetadata = torrent.files.length > 0 && Boolean(torrent.bitfield);
    const eta = torrent.timeRemaining;
    return {
      infoHash: torrent.infoHash,
      name: torrent.name ?? "",
      hasMetadata,
      ready: torrent.ready,
      done: torrent.done,
      progress: hasMetadata ? torrent.progress : 0,
      size: hasMetadata ? torrent.length : 0,
      downloaded: hasMetadata ? torrent.downloaded : 0,
      uploaded: torrent.uploaded,
      downloadSpeed: Math.round(torrent.downloadSpeed),
      uploadSpeed: Math.round(torrent.uploadSpeed),
      peers: torrent.numPeers,
      etaSeconds: torrent.done ? 0 : Number.isFinite(eta) ? Math.round(eta / 1e3) : null,
      files: hasMetadata ? torrent.files.map((file) => ({
        path: torrentFilePath(torrent.path, file.path),
        size: file.length,
        downloaded: file.downloaded,
        progress: file.length === 0 ? 1 : file.progress
      })) : []
    };
  }
  createReadStream(infoHash, fileIndex, range = {}) {
    const key = infoHash.toLowerCase();
    return readTorrentFile(() => this.#whenReady(key), key, fileIndex, range);
  }
  async listening() {
    if (!this.#client.listening)
      await once(this.#client, "listening");
    return { port: this.#client.address()?.port ?? this.#client.torrentPort };
  }
  async close() {
    if (this.#closed)
      return;
    this.#closed = true;
    this.#unsubscribe();
    await this.#switching;
    for (const entry of this.#entries.values())
      entry.listeners.clear();
    await Promise.allSettled([...this.#entries.values()].map((entry) => this.#enqueue(entry, () => this.#halt(entry))));
    for (const key of this.#entries.keys())
      this.#signals.emit(`gone:${key}`);
    await withTimeout(new Promise((done) => this.#client.destroy(() => done())), this.#options.stopTimeoutMs ?? torrentStopTimeoutMs);
    await this.#trackerDispatcher.destroy().catch(() => {
    });
    await this.#files.closeAll();
  }
  #enqueue(entry, step) {
    const next = entry.chain.then(step, step);
    entry.chain = next.catch((err) => this.#log.warn({ err }, "torrent engine step failed"));
    return next;
  }
  async #launch(infoHash) {
    const entry = this.#entries.get(infoHash);
    if (!entry || entry.paused || this.#closed || this.#replacing || entry.torrent && !entry.torrent.destroyed)
      return;
    let parsed;
    try {
      parsed = entry.torrentFile ? await parseTorrentFile(entry.torrentFile, `saved metadata of ${infoHash}`) : await parse_torrent_default(entry.input.magnetURI ?? `magnet:?xt=urn:btih:${infoHash}`);
    } catch (err) {
      this.#emit(entry, { type: "error", infoHash, error: err instanceof AgentError ? err : new TorrentEngineError(err.message, { cause: err }) });
      return;
    }
    if (this.#options.announce)
      parsed.announce = [...this.#options.announce];
    const addOptions = { path: resolve3(this.#options.downloadDir), store: this.#store, storeCacheSlots: 0 };
    if (!this.#pieceMaps && entry.bitfield)
      addOptions.bitfield = entry.bitfield;
    if (this.#pieceMaps) {
      Object.assign(addOptions, await this.#pieceMaps.startOptions(infoHash, parsed, addOptions.path));
      if (entry.paused || this.#closed || this.#replacing)
        return;
    }
    const network = this.#network;
    const torrent = withinNetwork(network, () => this.#client.add(parsed, addOptions));
    entry.torrent = torrent;
    this.#pieceMaps?.track(torrent, infoHash, addOptions.path);
    if (network && !network.isOpen())
      torrent.pause();
    this.#fallBackFromUtp(torrent, infoHash);
    this.#retryAnnounces(torrent, infoHash);
    this.#warnOnce(parkIdleTimers(torrent), "webtorrent changed: idle torrents keep their timers");
    torrent.on("metadata", () => {
      entry.torrentFile = torrent.torrentFile;
      this.#emit(entry, {
        type: "metadata",
        infoHash,
        name: torrent.name,
        size: torrent.length,
        files: torrent.files.map((file) => ({ path: torrentFilePath(torrent.path, file.path), size: file.length })),
        torrentFile: torrent.torrentFile
      });
    });
    torrent.on("ready", () => {
      this.#signals.emit(`ready:${infoHash}`, torrent);
      this.#emit(entry, { type: "ready", infoHash });
    });
    torrent.on("done", () => this.#emit(entry, { type: "done", infoHash }));
    torrent.on("wire", () => this.#emit(entry, { type: "peer", infoHash }));
    torrent.on("warning", (err) => this.#log.debug({ err, infoHash }, "torrent warning"));
    torrent.on("error", (err) => {
      if (entry.torrent === torrent)
        entry.torrent = null;
      this.#signals.emit(`gone:${infoHash}`);
      this.#emit(entry, { type: "error", infoHash, error: toTorrentError(err, torrent.name || infoHash, this.#options.downloadDir) });
    });
  }
  async #halt(entry) {
    const torrent = entry.torrent;
    entry.torrent = null;
    if (!torrent || torrent.destroyed)
      return;
    if (torrent.ready && torrent.bitfield)
      entry.bitfield = new Uint8Array(torrent.bitfield.buffer);
    this.#signals.emit(`gone:${entry.input.infoHash}`);
    await withTimeout(new Promise((done) => torrent.destroy({ destroyStore: false }, () => done())), this.#options.stopTimeoutMs ?? torrentStopTimeoutMs);
    await this.#pieceMaps?.stopped(entry.input.infoHash);
  }
  /**
   * webtorrent announces `started` (and `completed` when done) once and then only every tracker
   * interval (30 min): an announce that fails - a tracker restarting, a connection it drops -
   * leaves a seeder invisible to that tracker's peers and a leecher without peers for that long.
   * Here every tracker that has not answered since the torrent started (or finished) is asked
   * again, after announceRetryMinMs doubling up to announceRetryMaxMs, until it answers.
   */
  #retryAnnounces(torrent, infoHash) {
    const minMs = this.#options.announceRetryMinMs ?? torrentAnnounceRetryMinMs;
    const maxMs = this.#options.announceRetryMaxMs ?? torrentAnnounceRetryMaxMs;
    let since = Date.now();
    const answeredAt = /* @__PURE__ */ new Map();
    let client;
    let timer;
    let delay = minMs;
    const unanswered = () => (client?._trackers ?? []).filter((t) => !t.destroyed && (answeredAt.get(t.announceUrl) ?? -1) < since);
    const onUpdate = (data) => {
      if (data.announce)
        answeredAt.set(data.announce, Date.now());
      if (unanswered().length === 0) {
        clearTimeout(timer);
        timer = void 0;
        delay = minMs;
      }
    };
    const schedule = () => {
      if (timer || torrent.destroyed || unanswered().length === 0)
        return;
      timer = setTimeout(retry, delay);
      timer.unref();
    };
    const retry = () => {
      timer = void 0;
      if (torrent.destroyed || !client)
        return;
      const stale = unanswered();
      if (stale.length === 0)
        return;
      this.#log.debug({ infoHash, trackers: stale.map((t) => t.announceUrl), delayMs: delay }, "announcing again to trackers that did not answer");
      for (const tracker of stale) {
        const opts = client._defaultAnnounceOpts?.(answeredAt.has(tracker.announceUrl) ? {} : { event: "started" });
        if (opts)
          tracker.announce(opts);
      }
      delay = Math.min(delay * 2, maxMs);
    };
    const hook = (discovery2) => {
      const next = discovery2?.tracker ?? void 0;
      if (next === client)
        return;
      client?.off("update", onUpdate);
      client = next;
      client?.on("update", onUpdate);
      this.#warnOnce(jitterAnnounces(client, this.#options.announceJitter ?? torrentAnnounceJitter), "bittorrent-tracker changed: announces are not spread");
    };
    let discovery = torrent.discovery ?? null;
    hook(discovery);
    Object.defineProperty(torrent, "discovery", {
      configurable: true,
      enumerable: true,
      get: () => discovery,
      set: (value) => {
        discovery = value;
        hook(value);
      }
    });
    torrent.on("warning", () => {
      hook(discovery);
      schedule();
    });
    torrent.on("done", () => {
      since = Date.now();
    });
    torrent.once("close", () => {
      clearTimeout(timer);
      hook(null);
    });
  }
  /**
   * webtorrent tries every IPv4 peer over uTP four times (5 s connect timeout each, 21 s of backoff)
   * before TCP: a peer without uTP (aria2c, a NAT that drops UDP) is ~41 s away. Here a uTP attempt
   * gets utpFallbackMs, then the address is tried over TCP at once (utp-fallback.ts).
   */
  #fallBackFromUtp(torrent, infoHash) {
    const fallbackMs = this.#options.utpFallbackMs ?? torrentUtpFallbackMs;
    if (!(this.#options.utp ?? torrentUtp) || !(fallbackMs > 0))
      return;
    installUtpFallback(torrent, {
      fallbackMs,
      onFallback: (addr) => this.#log.debug({ infoHash, addr, fallbackMs }, "uTP did not connect; trying TCP"),
      onUnsupported: (reason) => {
        if (this.#utpFallbackUnsupported)
          return;
        this.#utpFallbackUnsupported = true;
        this.#log.warn({ reason }, "webtorrent changed: no quick uTP-to-TCP fallback, peers without uTP take ~40 s to connect");
      }
    });
  }
  #warnOnce(reason, message) {
    if (!reason || this.#warned.has(message))
      return;
    this.#warned.add(message);
    this.#log.warn({ reason }, message);
  }
  #emit(entry, event) {
    for (const listener of [...entry.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.#log.error({ err, event: event.type }, "torrent listener threw");
      }
    }
  }
  async #whenReady(infoHash) {
    const torrent = this.#entries.get(infoHash)?.torrent;
    if (torrent && torrent.ready && !torrent.destroyed)
      return torrent;
    if (!this.#entries.has(infoHash) || this.#closed)
      throw new TorrentNotFoundError(`no active torrent ${infoHash}`);
    return new Promise((resolveReady, reject) => {
      const onReady = (ready) => {
        cleanup();
        resolveReady(ready);
      };
      const onGone = () => {
        cleanup();
        reject(new TorrentNotFoundError(`torrent ${infoHash} stopped before its data could be read`));
      };
      const cleanup = () => {
        this.#signals.off(`ready:${infoHash}`, onReady);
        this.#signals.off(`gone:${infoHash}`, onGone);
      };
      this.#signals.on(`ready:${infoHash}`, onReady);
      this.#signals.on(`gone:${infoHash}`, onGone);
    });
  }
};
function toTorrentError(err, name, downloadDir) {
  if (err instanceof AgentError)
    return err;
  const error = err;
  const message = error?.message ?? String(err);
  if (error?.code === "ENOSPC" || /no space left/i.test(message)) {
    return new TorrentDiskFullError(`no space left on device while writing "${name}" to ${downloadDir}`, { cause: err });
  }
  return new TorrentEngineError(`${name}: ${message}`, { cause: err });
}
async function withTimeout(promise, ms) {
  let timer;
  await Promise.race([promise, new Promise((done) => {
    timer = setTimeout(done, ms);
    timer.unref();
  })]);
  clearTimeout(timer);
}
export {
  WebTorrentEngine,
  toTorrentError
};
/*! Bundled license information:

queue-microtask/index.js:
  (*! queue-microtask. MIT License. Feross Aboukhadijeh <https://feross.org/opensource> *)

magnet-uri/index.js:
  (*! magnet-uri. MIT License. WebTorrent LLC <https://webtorrent.io/opensource> *)

parse-torrent/index.js:
  (*! parse-torrent. MIT License. WebTorrent LLC <https://webtorrent.io/opensource> *)

bittorrent-protocol/index.js:
  (*! bittorrent-protocol. MIT License. WebTorrent LLC <https://webtorrent.io/opensource> *)

torrent-piece/index.js:
  (*! torrent-piece. MIT License. WebTorrent LLC <https://webtorrent.io/opensource> *)
*/

import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  addressesMachine,
  agentMachine,
  cacheEntryMachine,
  cacheMachine,
  cacheShardMachine,
  chooseEncoder,
  controlPlaneDelays,
  controlPlaneMachine,
  downlinkMachine,
  effectiveChoice,
  encodersMachine,
  funnelMachine,
  funnelRestartDelayMs,
  funnelStateName,
  hardwareEncoderOrder,
  hwAccelChange,
  libraryMachine,
  libraryRetryDelayMs,
  libraryStateOf,
  sessionMachine,
  sessionReportOf,
  taskMachine,
  taskRecordOf,
  taskReportOf,
  tasksMachine,
  upgradeMachine,
  upgradeStatusOf,
  vpnMachine,
  vpnStateName
} from "./chunk-S6V5EAOF.js";
import {
  systemClock
} from "./chunk-UIXNKJUF.js";
import {
  agentHeaders,
  apiPaths,
  mintStreamToken,
  parseStreamToken,
  playerPageUrl,
  signStreamToken,
  signaturesEqual,
  streamTokenUnexpired,
  vpnConfigErrorStatus
} from "./chunk-POMXLGRL.js";
import {
  colorWanted,
  createRootLogger,
  logFatalErrors,
  logLevels,
  routeConsoleToLogger
} from "./chunk-ZEVYCYFL.js";
import {
  createPeerNetworkRoute
} from "./chunk-XFQH27E5.js";
import {
  buildTestEncodeArgs,
  commonHeaders,
  createDirectorySegmentStore,
  createProbeService,
  planSegments,
  resolveFfmpegBinary,
  sendNotFound,
  sendStatus
} from "./chunk-ZWVHIBJC.js";
import {
  createActor,
  fromCallback,
  fromPromise,
  toPromise,
  waitFor
} from "./chunk-OFW74AZP.js";
import {
  startWatchedProcess
} from "./chunk-GPRS7GA6.js";
import {
  agentVersion,
  packageRoot
} from "./chunk-CHSERBJI.js";
import {
  emptyUpgradeState,
  readUpgradeState,
  switchCurrent,
  updateUpgradeState,
  upgradeStatePath,
  versionsDir
} from "./chunk-ZZG6Z4EL.js";
import {
  writeFileAtomic
} from "./chunk-LW4JBI54.js";
import {
  accessTokenEnvVar,
  adminBodyLimitBytes,
  adminEventsKeepAliveMs,
  adminListen,
  adminRequestTimeoutMs,
  adminTokenFileName,
  agentIdFileName,
  appDirName,
  childRestartBaseMs,
  childRestartMaxMs,
  configDir,
  configFileName,
  defaults_exports,
  directUrlBodyTimeoutMs,
  directUrlHeadTimeoutMs,
  directUrlHeadersTimeoutMs,
  directUrlMaxRedirections,
  downlinkMode,
  downloadsDir,
  embeddedReferenceServerPort,
  ffmpegPath,
  ffprobePath,
  funnelEnabledFreshInstall,
  funnelEnabledLegacyConfig,
  funnelHelperPath,
  funnelHelperUrlBase,
  hlsCacheBytesPerGb,
  hlsCacheClearWaitMs,
  hlsCacheDir,
  hlsCacheDirName,
  hlsCacheEnabled,
  hlsCacheSizeGb,
  hlsInputTokenTtlSeconds,
  httpRequestTimeoutMs,
  hwDiagnosticTimeoutMs,
  hwTestEncodeHeightsPx,
  inspectionRingSize,
  libraryPaths,
  libraryProbeNice,
  libraryRescanMinutes,
  librarySkipExamples,
  librarySyncTimeoutMs,
  libraryWatchEnabled,
  libraryYieldEveryFiles,
  metricsEventLoopResolutionMs,
  metricsLatencyBucketsSeconds,
  metricsReadyBucketsSeconds,
  readinessDeadlineMs,
  referenceServerCliPort,
  referenceServerHost,
  seedRatio,
  serverMirrors,
  shutdownDeadlineMs,
  softwareMaxTranscodeHeightPx,
  sseConnectTimeoutMs,
  sseMaxEventBytes,
  sseMaxLineBytes,
  stateDir,
  streamBlockInputSampleMs,
  streamFirstReadBytes,
  streamInlineReadBytes,
  streamInlineReadCooldownMs,
  streamInlineReadSlowMs,
  streamInlineReadsEnabled,
  streamMaxRanges,
  streamOpenFileCacheMs,
  streamReadChunkBytes,
  streamReadPoolSlabBytes,
  streamReadPoolSlabs,
  streamReadPoolSlabsPerResponse,
  streamReadsInFlight,
  streamSendBuffers,
  streamServerHeadersTimeoutMs,
  streamServerHost,
  streamServerKeepAliveTimeoutMs,
  streamServerPort,
  streamTokenCacheEntries,
  streamTokenSkewSeconds,
  streamUpnpEnabled,
  streamWholeReadBytes,
  tasksFileName,
  tasksJsonMinWriteIntervalMs,
  thumbnailMaxBytes,
  thumbnailMaxConcurrent,
  thumbnailMaxQueue,
  thumbnailMaxSeekSeconds,
  thumbnailMaxWidth,
  thumbnailMinWidth,
  thumbnailRetryAfterSeconds,
  thumbnailTimeoutMs,
  torrentDht,
  torrentLsd,
  torrentMetadataDirName,
  torrentNatPmp,
  torrentNatUpnp,
  torrentPex,
  torrentPort,
  torrentProgressIntervalMs,
  torrentUtp,
  transcodeEncoder,
  upgradeCommandTimeoutMs,
  upgradeCurrentLinkName,
  upgradeDownloadTimeoutMs,
  upgradeExtractTimeoutMs,
  upgradeMaxArtifactBytes,
  upgradeReportRetryMs,
  upgradeRestartExitCode,
  upgradeSmokeTestTimeoutMs,
  vpnEnabled,
  vpnPeerConnectTimeoutMs,
  vpnPeerPortDefault,
  wakeHeldReconnectMs
} from "./chunk-4XQBZWSZ.js";
import {
  AdminAuthError,
  AdminTokenAccessError,
  AgentError,
  AgentVersionTooOldError,
  ConfigError,
  DaemonNotRunningError,
  DirectUrlUnsupportedError,
  HlsUnavailableError,
  InternalError,
  ServerError,
  ServerRequestError,
  ServerResponseError,
  ServerUnauthorizedError,
  ServerUnreachableError,
  ShutdownTimeoutError,
  SourceMissingError,
  SseLimitError,
  StateFileError,
  StreamServerListenError,
  TasksFileCorruptError,
  ThumbnailError,
  TorrentDuplicateError,
  TorrentEngineError,
  TorrentNotFoundError,
  TunnelClosedError,
  UpstreamError,
  VpnConfigError,
  isAgentError,
  toAgentError
} from "./chunk-7UR2AQZP.js";
import {
  __commonJS,
  __require,
  __toESM
} from "./chunk-V4RWK56N.js";

// node_modules/clipanion/lib/constants.js
var require_constants = __commonJS({
  "node_modules/clipanion/lib/constants.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var NODE_INITIAL = 0;
    var NODE_SUCCESS = 1;
    var NODE_ERRORED = 2;
    var START_OF_INPUT = ``;
    var END_OF_INPUT = `\0`;
    var HELP_COMMAND_INDEX = -1;
    var HELP_REGEX = /^(-h|--help)(?:=([0-9]+))?$/;
    var OPTION_REGEX = /^(--[a-z]+(?:-[a-z]+)*|-[a-zA-Z]+)$/;
    var BATCH_REGEX = /^-[a-zA-Z]{2,}$/;
    var BINDING_REGEX = /^([^=]+)=([\s\S]*)$/;
    var DEBUG = process.env.DEBUG_CLI === `1`;
    exports.BATCH_REGEX = BATCH_REGEX;
    exports.BINDING_REGEX = BINDING_REGEX;
    exports.DEBUG = DEBUG;
    exports.END_OF_INPUT = END_OF_INPUT;
    exports.HELP_COMMAND_INDEX = HELP_COMMAND_INDEX;
    exports.HELP_REGEX = HELP_REGEX;
    exports.NODE_ERRORED = NODE_ERRORED;
    exports.NODE_INITIAL = NODE_INITIAL;
    exports.NODE_SUCCESS = NODE_SUCCESS;
    exports.OPTION_REGEX = OPTION_REGEX;
    exports.START_OF_INPUT = START_OF_INPUT;
  }
});

// node_modules/clipanion/lib/errors.js
var require_errors = __commonJS({
  "node_modules/clipanion/lib/errors.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var constants = require_constants();
    var UsageError3 = class extends Error {
      constructor(message) {
        super(message);
        this.clipanion = { type: `usage` };
        this.name = `UsageError`;
      }
    };
    var UnknownSyntaxError = class extends Error {
      constructor(input, candidates) {
        super();
        this.input = input;
        this.candidates = candidates;
        this.clipanion = { type: `none` };
        this.name = `UnknownSyntaxError`;
        if (this.candidates.length === 0) {
          this.message = `Command not found, but we're not sure what's the alternative.`;
        } else if (this.candidates.every((candidate) => candidate.reason !== null && candidate.reason === candidates[0].reason)) {
          const [{ reason }] = this.candidates;
          this.message = `${reason}

${this.candidates.map(({ usage }) => `$ ${usage}`).join(`
`)}`;
        } else if (this.candidates.length === 1) {
          const [{ usage }] = this.candidates;
          this.message = `Command not found; did you mean:

$ ${usage}
${whileRunning(input)}`;
        } else {
          this.message = `Command not found; did you mean one of:

${this.candidates.map(({ usage }, index) => {
            return `${`${index}.`.padStart(4)} ${usage}`;
          }).join(`
`)}

${whileRunning(input)}`;
        }
      }
    };
    var AmbiguousSyntaxError = class extends Error {
      constructor(input, usages) {
        super();
        this.input = input;
        this.usages = usages;
        this.clipanion = { type: `none` };
        this.name = `AmbiguousSyntaxError`;
        this.message = `Cannot find which to pick amongst the following alternatives:

${this.usages.map((usage, index) => {
          return `${`${index}.`.padStart(4)} ${usage}`;
        }).join(`
`)}

${whileRunning(input)}`;
      }
    };
    var whileRunning = (input) => `While running ${input.filter((token) => {
      return token !== constants.END_OF_INPUT;
    }).map((token) => {
      const json2 = JSON.stringify(token);
      if (token.match(/\s/) || token.length === 0 || json2 !== `"${token}"`) {
        return json2;
      } else {
        return token;
      }
    }).join(` `)}`;
    exports.AmbiguousSyntaxError = AmbiguousSyntaxError;
    exports.UnknownSyntaxError = UnknownSyntaxError;
    exports.UsageError = UsageError3;
  }
});

// node_modules/clipanion/lib/format.js
var require_format = __commonJS({
  "node_modules/clipanion/lib/format.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var MAX_LINE_LENGTH = 80;
    var richLine = Array(MAX_LINE_LENGTH).fill(`\u2501`);
    for (let t = 0; t <= 24; ++t)
      richLine[richLine.length - t] = `\x1B[38;5;${232 + t}m\u2501`;
    var richFormat = {
      header: (str) => `\x1B[1m\u2501\u2501\u2501 ${str}${str.length < MAX_LINE_LENGTH - 5 ? ` ${richLine.slice(str.length + 5).join(``)}` : `:`}\x1B[0m`,
      bold: (str) => `\x1B[1m${str}\x1B[22m`,
      error: (str) => `\x1B[31m\x1B[1m${str}\x1B[22m\x1B[39m`,
      code: (str) => `\x1B[36m${str}\x1B[39m`
    };
    var textFormat = {
      header: (str) => str,
      bold: (str) => str,
      error: (str) => str,
      code: (str) => str
    };
    function dedent(text) {
      const lines = text.split(`
`);
      const nonEmptyLines = lines.filter((line) => line.match(/\S/));
      const indent = nonEmptyLines.length > 0 ? nonEmptyLines.reduce((minLength, line) => Math.min(minLength, line.length - line.trimStart().length), Number.MAX_VALUE) : 0;
      return lines.map((line) => line.slice(indent).trimRight()).join(`
`);
    }
    function formatMarkdownish(text, { format, paragraphs }) {
      text = text.replace(/\r\n?/g, `
`);
      text = dedent(text);
      text = text.replace(/^\n+|\n+$/g, ``);
      text = text.replace(/^(\s*)-([^\n]*?)\n+/gm, `$1-$2

`);
      text = text.replace(/\n(\n)?\n*/g, ($0, $1) => $1 ? $1 : ` `);
      if (paragraphs) {
        text = text.split(/\n/).map((paragraph) => {
          const bulletMatch = paragraph.match(/^\s*[*-][\t ]+(.*)/);
          if (!bulletMatch)
            return paragraph.match(/(.{1,80})(?: |$)/g).join(`
`);
          const indent = paragraph.length - paragraph.trimStart().length;
          return bulletMatch[1].match(new RegExp(`(.{1,${78 - indent}})(?: |$)`, `g`)).map((line, index) => {
            return ` `.repeat(indent) + (index === 0 ? `- ` : `  `) + line;
          }).join(`
`);
        }).join(`

`);
      }
      text = text.replace(/(`+)((?:.|[\n])*?)\1/g, ($0, $1, $2) => {
        return format.code($1 + $2 + $1);
      });
      text = text.replace(/(\*\*)((?:.|[\n])*?)\1/g, ($0, $1, $2) => {
        return format.bold($1 + $2 + $1);
      });
      return text ? `${text}
` : ``;
    }
    exports.formatMarkdownish = formatMarkdownish;
    exports.richFormat = richFormat;
    exports.textFormat = textFormat;
  }
});

// node_modules/clipanion/lib/advanced/options/utils.js
var require_utils = __commonJS({
  "node_modules/clipanion/lib/advanced/options/utils.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var errors = require_errors();
    var isOptionSymbol = /* @__PURE__ */ Symbol(`clipanion/isOption`);
    function makeCommandOption(spec) {
      return { ...spec, [isOptionSymbol]: true };
    }
    function rerouteArguments(a, b) {
      if (typeof a === `undefined`)
        return [a, b];
      if (typeof a === `object` && a !== null && !Array.isArray(a)) {
        return [void 0, a];
      } else {
        return [a, b];
      }
    }
    function cleanValidationError(message, { mergeName = false } = {}) {
      const match = message.match(/^([^:]+): (.*)$/m);
      if (!match)
        return `validation failed`;
      let [, path, line] = match;
      if (mergeName)
        line = line[0].toLowerCase() + line.slice(1);
      line = path !== `.` || !mergeName ? `${path.replace(/^\.(\[|$)/, `$1`)}: ${line}` : `: ${line}`;
      return line;
    }
    function formatError(message, errors$1) {
      if (errors$1.length === 1) {
        return new errors.UsageError(`${message}${cleanValidationError(errors$1[0], { mergeName: true })}`);
      } else {
        return new errors.UsageError(`${message}:
${errors$1.map((error) => `
- ${cleanValidationError(error)}`).join(``)}`);
      }
    }
    function applyValidator(name, value, validator) {
      if (typeof validator === `undefined`)
        return value;
      const errors2 = [];
      const coercions = [];
      const coercion = (v) => {
        const orig = value;
        value = v;
        return coercion.bind(null, orig);
      };
      const check = validator(value, { errors: errors2, coercions, coercion });
      if (!check)
        throw formatError(`Invalid value for ${name}`, errors2);
      for (const [, op] of coercions)
        op();
      return value;
    }
    exports.applyValidator = applyValidator;
    exports.cleanValidationError = cleanValidationError;
    exports.formatError = formatError;
    exports.isOptionSymbol = isOptionSymbol;
    exports.makeCommandOption = makeCommandOption;
    exports.rerouteArguments = rerouteArguments;
  }
});

// node_modules/typanion/lib/index.js
var require_lib = __commonJS({
  "node_modules/typanion/lib/index.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var simpleKeyRegExp = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
    function getPrintable(value) {
      if (value === null)
        return `null`;
      if (value === void 0)
        return `undefined`;
      if (value === ``)
        return `an empty string`;
      if (typeof value === "symbol")
        return `<${value.toString()}>`;
      if (Array.isArray(value))
        return `an array`;
      return JSON.stringify(value);
    }
    function getPrintableArray(value, conjunction) {
      if (value.length === 0)
        return `nothing`;
      if (value.length === 1)
        return getPrintable(value[0]);
      const rest = value.slice(0, -1);
      const trailing = value[value.length - 1];
      const separator = value.length > 2 ? `, ${conjunction} ` : ` ${conjunction} `;
      return `${rest.map((value2) => getPrintable(value2)).join(`, `)}${separator}${getPrintable(trailing)}`;
    }
    function computeKey(state, key) {
      var _a, _b, _c;
      if (typeof key === `number`) {
        return `${(_a = state === null || state === void 0 ? void 0 : state.p) !== null && _a !== void 0 ? _a : `.`}[${key}]`;
      } else if (simpleKeyRegExp.test(key)) {
        return `${(_b = state === null || state === void 0 ? void 0 : state.p) !== null && _b !== void 0 ? _b : ``}.${key}`;
      } else {
        return `${(_c = state === null || state === void 0 ? void 0 : state.p) !== null && _c !== void 0 ? _c : `.`}[${JSON.stringify(key)}]`;
      }
    }
    function plural(n, singular, plural2) {
      return n === 1 ? singular : plural2;
    }
    var colorStringRegExp = /^#[0-9a-f]{6}$/i;
    var colorStringAlphaRegExp = /^#[0-9a-f]{6}([0-9a-f]{2})?$/i;
    var base64RegExp = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
    var uuid4RegExp = /^[a-f0-9]{8}-[a-f0-9]{4}-4[a-f0-9]{3}-[89aAbB][a-f0-9]{3}-[a-f0-9]{12}$/i;
    var iso8601RegExp = /^(?:[1-9]\d{3}(-?)(?:(?:0[1-9]|1[0-2])\1(?:0[1-9]|1\d|2[0-8])|(?:0[13-9]|1[0-2])\1(?:29|30)|(?:0[13578]|1[02])(?:\1)31|00[1-9]|0[1-9]\d|[12]\d{2}|3(?:[0-5]\d|6[0-5]))|(?:[1-9]\d(?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[13579][26])00)(?:(-?)02(?:\2)29|-?366))T(?:[01]\d|2[0-3])(:?)[0-5]\d(?:\3[0-5]\d)?(?:Z|[+-][01]\d(?:\3[0-5]\d)?)$/;
    function pushError({ errors, p } = {}, message) {
      errors === null || errors === void 0 ? void 0 : errors.push(`${p !== null && p !== void 0 ? p : `.`}: ${message}`);
      return false;
    }
    function makeSetter(target, key) {
      return (v) => {
        target[key] = v;
      };
    }
    function makeCoercionFn(target, key) {
      return (v) => {
        const previous = target[key];
        target[key] = v;
        return makeCoercionFn(target, key).bind(null, previous);
      };
    }
    function makeLazyCoercionFn(fn2, orig, generator) {
      const commit = () => {
        fn2(generator());
        return revert;
      };
      const revert = () => {
        fn2(orig);
        return commit;
      };
      return commit;
    }
    function isUnknown() {
      return makeValidator({
        test: (value, state) => {
          return true;
        }
      });
    }
    function isLiteral(expected) {
      return makeValidator({
        test: (value, state) => {
          if (value !== expected)
            return pushError(state, `Expected ${getPrintable(expected)} (got ${getPrintable(value)})`);
          return true;
        }
      });
    }
    function isString() {
      return makeValidator({
        test: (value, state) => {
          if (typeof value !== `string`)
            return pushError(state, `Expected a string (got ${getPrintable(value)})`);
          return true;
        }
      });
    }
    function isEnum(enumSpec) {
      const valuesArray = Array.isArray(enumSpec) ? enumSpec : Object.values(enumSpec);
      const isAlphaNum = valuesArray.every((item) => typeof item === "string" || typeof item === "number");
      const values = new Set(valuesArray);
      if (values.size === 1)
        return isLiteral([...values][0]);
      return makeValidator({
        test: (value, state) => {
          if (!values.has(value)) {
            if (isAlphaNum) {
              return pushError(state, `Expected one of ${getPrintableArray(valuesArray, `or`)} (got ${getPrintable(value)})`);
            } else {
              return pushError(state, `Expected a valid enumeration value (got ${getPrintable(value)})`);
            }
          }
          return true;
        }
      });
    }
    var BOOLEAN_COERCIONS = /* @__PURE__ */ new Map([
      [`true`, true],
      [`True`, true],
      [`1`, true],
      [1, true],
      [`false`, false],
      [`False`, false],
      [`0`, false],
      [0, false]
    ]);
    function isBoolean() {
      return makeValidator({
        test: (value, state) => {
          var _a;
          if (typeof value !== `boolean`) {
            if (typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined`) {
              if (typeof (state === null || state === void 0 ? void 0 : state.coercion) === `undefined`)
                return pushError(state, `Unbound coercion result`);
              const coercion = BOOLEAN_COERCIONS.get(value);
              if (typeof coercion !== `undefined`) {
                state.coercions.push([(_a = state.p) !== null && _a !== void 0 ? _a : `.`, state.coercion.bind(null, coercion)]);
                return true;
              }
            }
            return pushError(state, `Expected a boolean (got ${getPrintable(value)})`);
          }
          return true;
        }
      });
    }
    function isNumber() {
      return makeValidator({
        test: (value, state) => {
          var _a;
          if (typeof value !== `number`) {
            if (typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined`) {
              if (typeof (state === null || state === void 0 ? void 0 : state.coercion) === `undefined`)
                return pushError(state, `Unbound coercion result`);
              let coercion;
              if (typeof value === `string`) {
                let val;
                try {
                  val = JSON.parse(value);
                } catch (_b) {
                }
                if (typeof val === `number`) {
                  if (JSON.stringify(val) === value) {
                    coercion = val;
                  } else {
                    return pushError(state, `Received a number that can't be safely represented by the runtime (${value})`);
                  }
                }
              }
              if (typeof coercion !== `undefined`) {
                state.coercions.push([(_a = state.p) !== null && _a !== void 0 ? _a : `.`, state.coercion.bind(null, coercion)]);
                return true;
              }
            }
            return pushError(state, `Expected a number (got ${getPrintable(value)})`);
          }
          return true;
        }
      });
    }
    function isPayload(spec) {
      return makeValidator({
        test: (value, state) => {
          var _a;
          if (typeof (state === null || state === void 0 ? void 0 : state.coercions) === `undefined`)
            return pushError(state, `The isPayload predicate can only be used with coercion enabled`);
          if (typeof state.coercion === `undefined`)
            return pushError(state, `Unbound coercion result`);
          if (typeof value !== `string`)
            return pushError(state, `Expected a string (got ${getPrintable(value)})`);
          let inner;
          try {
            inner = JSON.parse(value);
          } catch (_b) {
            return pushError(state, `Expected a JSON string (got ${getPrintable(value)})`);
          }
          const wrapper = { value: inner };
          if (!spec(inner, Object.assign(Object.assign({}, state), { coercion: makeCoercionFn(wrapper, `value`) })))
            return false;
          state.coercions.push([(_a = state.p) !== null && _a !== void 0 ? _a : `.`, state.coercion.bind(null, wrapper.value)]);
          return true;
        }
      });
    }
    function isDate() {
      return makeValidator({
        test: (value, state) => {
          var _a;
          if (!(value instanceof Date)) {
            if (typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined`) {
              if (typeof (state === null || state === void 0 ? void 0 : state.coercion) === `undefined`)
                return pushError(state, `Unbound coercion result`);
              let coercion;
              if (typeof value === `string` && iso8601RegExp.test(value)) {
                coercion = new Date(value);
              } else {
                let timestamp;
                if (typeof value === `string`) {
                  let val;
                  try {
                    val = JSON.parse(value);
                  } catch (_b) {
                  }
                  if (typeof val === `number`) {
                    timestamp = val;
                  }
                } else if (typeof value === `number`) {
                  timestamp = value;
                }
                if (typeof timestamp !== `undefined`) {
                  if (Number.isSafeInteger(timestamp) || !Number.isSafeInteger(timestamp * 1e3)) {
                    coercion = new Date(timestamp * 1e3);
                  } else {
                    return pushError(state, `Received a timestamp that can't be safely represented by the runtime (${value})`);
                  }
                }
              }
              if (typeof coercion !== `undefined`) {
                state.coercions.push([(_a = state.p) !== null && _a !== void 0 ? _a : `.`, state.coercion.bind(null, coercion)]);
                return true;
              }
            }
            return pushError(state, `Expected a date (got ${getPrintable(value)})`);
          }
          return true;
        }
      });
    }
    function isArray(spec, { delimiter } = {}) {
      return makeValidator({
        test: (value, state) => {
          var _a;
          const originalValue = value;
          if (typeof value === `string` && typeof delimiter !== `undefined`) {
            if (typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined`) {
              if (typeof (state === null || state === void 0 ? void 0 : state.coercion) === `undefined`)
                return pushError(state, `Unbound coercion result`);
              value = value.split(delimiter);
            }
          }
          if (!Array.isArray(value))
            return pushError(state, `Expected an array (got ${getPrintable(value)})`);
          let valid = true;
          for (let t = 0, T = value.length; t < T; ++t) {
            valid = spec(value[t], Object.assign(Object.assign({}, state), { p: computeKey(state, t), coercion: makeCoercionFn(value, t) })) && valid;
            if (!valid && (state === null || state === void 0 ? void 0 : state.errors) == null) {
              break;
            }
          }
          if (value !== originalValue)
            state.coercions.push([(_a = state.p) !== null && _a !== void 0 ? _a : `.`, state.coercion.bind(null, value)]);
          return valid;
        }
      });
    }
    function isSet(spec, { delimiter } = {}) {
      const isArrayValidator = isArray(spec, { delimiter });
      return makeValidator({
        test: (value, state) => {
          var _a, _b;
          if (Object.getPrototypeOf(value).toString() === `[object Set]`) {
            if (typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined`) {
              if (typeof (state === null || state === void 0 ? void 0 : state.coercion) === `undefined`)
                return pushError(state, `Unbound coercion result`);
              const originalValues = [...value];
              const coercedValues = [...value];
              if (!isArrayValidator(coercedValues, Object.assign(Object.assign({}, state), { coercion: void 0 })))
                return false;
              const updateValue = () => coercedValues.some((val, t) => val !== originalValues[t]) ? new Set(coercedValues) : value;
              state.coercions.push([(_a = state.p) !== null && _a !== void 0 ? _a : `.`, makeLazyCoercionFn(state.coercion, value, updateValue)]);
              return true;
            } else {
              let valid = true;
              for (const subValue of value) {
                valid = spec(subValue, Object.assign({}, state)) && valid;
                if (!valid && (state === null || state === void 0 ? void 0 : state.errors) == null) {
                  break;
                }
              }
              return valid;
            }
          }
          if (typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined`) {
            if (typeof (state === null || state === void 0 ? void 0 : state.coercion) === `undefined`)
              return pushError(state, `Unbound coercion result`);
            const store = { value };
            if (!isArrayValidator(value, Object.assign(Object.assign({}, state), { coercion: makeCoercionFn(store, `value`) })))
              return false;
            state.coercions.push([(_b = state.p) !== null && _b !== void 0 ? _b : `.`, makeLazyCoercionFn(state.coercion, value, () => new Set(store.value))]);
            return true;
          }
          return pushError(state, `Expected a set (got ${getPrintable(value)})`);
        }
      });
    }
    function isMap(keySpec, valueSpec) {
      const isArrayValidator = isArray(isTuple([keySpec, valueSpec]));
      const isRecordValidator = isRecord(valueSpec, { keys: keySpec });
      return makeValidator({
        test: (value, state) => {
          var _a, _b, _c;
          if (Object.getPrototypeOf(value).toString() === `[object Map]`) {
            if (typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined`) {
              if (typeof (state === null || state === void 0 ? void 0 : state.coercion) === `undefined`)
                return pushError(state, `Unbound coercion result`);
              const originalValues = [...value];
              const coercedValues = [...value];
              if (!isArrayValidator(coercedValues, Object.assign(Object.assign({}, state), { coercion: void 0 })))
                return false;
              const updateValue = () => coercedValues.some((val, t) => val[0] !== originalValues[t][0] || val[1] !== originalValues[t][1]) ? new Map(coercedValues) : value;
              state.coercions.push([(_a = state.p) !== null && _a !== void 0 ? _a : `.`, makeLazyCoercionFn(state.coercion, value, updateValue)]);
              return true;
            } else {
              let valid = true;
              for (const [key, subValue] of value) {
                valid = keySpec(key, Object.assign({}, state)) && valid;
                if (!valid && (state === null || state === void 0 ? void 0 : state.errors) == null) {
                  break;
                }
                valid = valueSpec(subValue, Object.assign(Object.assign({}, state), { p: computeKey(state, key) })) && valid;
                if (!valid && (state === null || state === void 0 ? void 0 : state.errors) == null) {
                  break;
                }
              }
              return valid;
            }
          }
          if (typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined`) {
            if (typeof (state === null || state === void 0 ? void 0 : state.coercion) === `undefined`)
              return pushError(state, `Unbound coercion result`);
            const store = { value };
            if (Array.isArray(value)) {
              if (!isArrayValidator(value, Object.assign(Object.assign({}, state), { coercion: void 0 })))
                return false;
              state.coercions.push([(_b = state.p) !== null && _b !== void 0 ? _b : `.`, makeLazyCoercionFn(state.coercion, value, () => new Map(store.value))]);
              return true;
            } else {
              if (!isRecordValidator(value, Object.assign(Object.assign({}, state), { coercion: makeCoercionFn(store, `value`) })))
                return false;
              state.coercions.push([(_c = state.p) !== null && _c !== void 0 ? _c : `.`, makeLazyCoercionFn(state.coercion, value, () => new Map(Object.entries(store.value)))]);
              return true;
            }
          }
          return pushError(state, `Expected a map (got ${getPrintable(value)})`);
        }
      });
    }
    function isTuple(spec, { delimiter } = {}) {
      const lengthValidator = hasExactLength(spec.length);
      return makeValidator({
        test: (value, state) => {
          var _a;
          if (typeof value === `string` && typeof delimiter !== `undefined`) {
            if (typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined`) {
              if (typeof (state === null || state === void 0 ? void 0 : state.coercion) === `undefined`)
                return pushError(state, `Unbound coercion result`);
              value = value.split(delimiter);
              state.coercions.push([(_a = state.p) !== null && _a !== void 0 ? _a : `.`, state.coercion.bind(null, value)]);
            }
          }
          if (!Array.isArray(value))
            return pushError(state, `Expected a tuple (got ${getPrintable(value)})`);
          let valid = lengthValidator(value, Object.assign({}, state));
          for (let t = 0, T = value.length; t < T && t < spec.length; ++t) {
            valid = spec[t](value[t], Object.assign(Object.assign({}, state), { p: computeKey(state, t), coercion: makeCoercionFn(value, t) })) && valid;
            if (!valid && (state === null || state === void 0 ? void 0 : state.errors) == null) {
              break;
            }
          }
          return valid;
        }
      });
    }
    function isRecord(spec, { keys: keySpec = null } = {}) {
      const isArrayValidator = isArray(isTuple([keySpec !== null && keySpec !== void 0 ? keySpec : isString(), spec]));
      return makeValidator({
        test: (value, state) => {
          var _a;
          if (Array.isArray(value)) {
            if (typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined`) {
              if (typeof (state === null || state === void 0 ? void 0 : state.coercion) === `undefined`)
                return pushError(state, `Unbound coercion result`);
              if (!isArrayValidator(value, Object.assign(Object.assign({}, state), { coercion: void 0 })))
                return false;
              value = Object.fromEntries(value);
              state.coercions.push([(_a = state.p) !== null && _a !== void 0 ? _a : `.`, state.coercion.bind(null, value)]);
              return true;
            }
          }
          if (typeof value !== `object` || value === null)
            return pushError(state, `Expected an object (got ${getPrintable(value)})`);
          const keys = Object.keys(value);
          let valid = true;
          for (let t = 0, T = keys.length; t < T && (valid || (state === null || state === void 0 ? void 0 : state.errors) != null); ++t) {
            const key = keys[t];
            const sub = value[key];
            if (key === `__proto__` || key === `constructor`) {
              valid = pushError(Object.assign(Object.assign({}, state), { p: computeKey(state, key) }), `Unsafe property name`);
              continue;
            }
            if (keySpec !== null && !keySpec(key, state)) {
              valid = false;
              continue;
            }
            if (!spec(sub, Object.assign(Object.assign({}, state), { p: computeKey(state, key), coercion: makeCoercionFn(value, key) }))) {
              valid = false;
              continue;
            }
          }
          return valid;
        }
      });
    }
    function isDict(spec, opts = {}) {
      return isRecord(spec, opts);
    }
    function isObject(props, { extra: extraSpec = null } = {}) {
      const specKeys = Object.keys(props);
      const validator = makeValidator({
        test: (value, state) => {
          if (typeof value !== `object` || value === null)
            return pushError(state, `Expected an object (got ${getPrintable(value)})`);
          const keys = /* @__PURE__ */ new Set([...specKeys, ...Object.keys(value)]);
          const extra = {};
          let valid = true;
          for (const key of keys) {
            if (key === `constructor` || key === `__proto__`) {
              valid = pushError(Object.assign(Object.assign({}, state), { p: computeKey(state, key) }), `Unsafe property name`);
            } else {
              const spec = Object.prototype.hasOwnProperty.call(props, key) ? props[key] : void 0;
              const sub = Object.prototype.hasOwnProperty.call(value, key) ? value[key] : void 0;
              if (typeof spec !== `undefined`) {
                valid = spec(sub, Object.assign(Object.assign({}, state), { p: computeKey(state, key), coercion: makeCoercionFn(value, key) })) && valid;
              } else if (extraSpec === null) {
                valid = pushError(Object.assign(Object.assign({}, state), { p: computeKey(state, key) }), `Extraneous property (got ${getPrintable(sub)})`);
              } else {
                Object.defineProperty(extra, key, {
                  enumerable: true,
                  get: () => sub,
                  set: makeSetter(value, key)
                });
              }
            }
            if (!valid && (state === null || state === void 0 ? void 0 : state.errors) == null) {
              break;
            }
          }
          if (extraSpec !== null && (valid || (state === null || state === void 0 ? void 0 : state.errors) != null))
            valid = extraSpec(extra, state) && valid;
          return valid;
        }
      });
      return Object.assign(validator, {
        properties: props
      });
    }
    function isPartial(props) {
      return isObject(props, { extra: isRecord(isUnknown()) });
    }
    var isInstanceOf = (constructor) => makeValidator({
      test: (value, state) => {
        if (!(value instanceof constructor))
          return pushError(state, `Expected an instance of ${constructor.name} (got ${getPrintable(value)})`);
        return true;
      }
    });
    var isOneOf = (specs, { exclusive = false } = {}) => makeValidator({
      test: (value, state) => {
        var _a, _b, _c;
        const matches = [];
        const errorBuffer = typeof (state === null || state === void 0 ? void 0 : state.errors) !== `undefined` ? [] : void 0;
        for (let t = 0, T = specs.length; t < T; ++t) {
          const subErrors = typeof (state === null || state === void 0 ? void 0 : state.errors) !== `undefined` ? [] : void 0;
          const subCoercions = typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined` ? [] : void 0;
          if (specs[t](value, Object.assign(Object.assign({}, state), { errors: subErrors, coercions: subCoercions, p: `${(_a = state === null || state === void 0 ? void 0 : state.p) !== null && _a !== void 0 ? _a : `.`}#${t + 1}` }))) {
            matches.push([`#${t + 1}`, subCoercions]);
            if (!exclusive) {
              break;
            }
          } else {
            errorBuffer === null || errorBuffer === void 0 ? void 0 : errorBuffer.push(subErrors[0]);
          }
        }
        if (matches.length === 1) {
          const [, subCoercions] = matches[0];
          if (typeof subCoercions !== `undefined`)
            (_b = state === null || state === void 0 ? void 0 : state.coercions) === null || _b === void 0 ? void 0 : _b.push(...subCoercions);
          return true;
        }
        if (matches.length > 1)
          pushError(state, `Expected to match exactly a single predicate (matched ${matches.join(`, `)})`);
        else
          (_c = state === null || state === void 0 ? void 0 : state.errors) === null || _c === void 0 ? void 0 : _c.push(...errorBuffer);
        return false;
      }
    });
    function makeTrait(value) {
      return () => {
        return value;
      };
    }
    function makeValidator({ test }) {
      return makeTrait(test)();
    }
    var TypeAssertionError = class extends Error {
      constructor({ errors } = {}) {
        let errorMessage = `Type mismatch`;
        if (errors && errors.length > 0) {
          errorMessage += `
`;
          for (const error of errors) {
            errorMessage += `
- ${error}`;
          }
        }
        super(errorMessage);
      }
    };
    function assert(val, validator) {
      if (!validator(val)) {
        throw new TypeAssertionError();
      }
    }
    function assertWithErrors(val, validator) {
      const errors = [];
      if (!validator(val, { errors })) {
        throw new TypeAssertionError({ errors });
      }
    }
    function softAssert(val, validator) {
    }
    function as(value, validator, { coerce = false, errors: storeErrors, throw: throws } = {}) {
      const errors = storeErrors ? [] : void 0;
      if (!coerce) {
        if (validator(value, { errors })) {
          return throws ? value : { value, errors: void 0 };
        } else if (!throws) {
          return { value: void 0, errors: errors !== null && errors !== void 0 ? errors : true };
        } else {
          throw new TypeAssertionError({ errors });
        }
      }
      const state = { value };
      const coercion = makeCoercionFn(state, `value`);
      const coercions = [];
      if (!validator(value, { errors, coercion, coercions })) {
        if (!throws) {
          return { value: void 0, errors: errors !== null && errors !== void 0 ? errors : true };
        } else {
          throw new TypeAssertionError({ errors });
        }
      }
      for (const [, apply] of coercions)
        apply();
      if (throws) {
        return state.value;
      } else {
        return { value: state.value, errors: void 0 };
      }
    }
    function fn(validators, fn2) {
      const isValidArgList = isTuple(validators);
      return ((...args) => {
        const check = isValidArgList(args);
        if (!check)
          throw new TypeAssertionError();
        return fn2(...args);
      });
    }
    function hasMinLength(length) {
      return makeValidator({
        test: (value, state) => {
          if (!(value.length >= length))
            return pushError(state, `Expected to have a length of at least ${length} elements (got ${value.length})`);
          return true;
        }
      });
    }
    function hasMaxLength(length) {
      return makeValidator({
        test: (value, state) => {
          if (!(value.length <= length))
            return pushError(state, `Expected to have a length of at most ${length} elements (got ${value.length})`);
          return true;
        }
      });
    }
    function hasExactLength(length) {
      return makeValidator({
        test: (value, state) => {
          if (!(value.length === length))
            return pushError(state, `Expected to have a length of exactly ${length} elements (got ${value.length})`);
          return true;
        }
      });
    }
    function hasUniqueItems({ map } = {}) {
      return makeValidator({
        test: (value, state) => {
          const set = /* @__PURE__ */ new Set();
          const dup = /* @__PURE__ */ new Set();
          for (let t = 0, T = value.length; t < T; ++t) {
            const sub = value[t];
            const key = typeof map !== `undefined` ? map(sub) : sub;
            if (set.has(key)) {
              if (dup.has(key))
                continue;
              pushError(state, `Expected to contain unique elements; got a duplicate with ${getPrintable(value)}`);
              dup.add(key);
            } else {
              set.add(key);
            }
          }
          return dup.size === 0;
        }
      });
    }
    function isNegative() {
      return makeValidator({
        test: (value, state) => {
          if (!(value <= 0))
            return pushError(state, `Expected to be negative (got ${value})`);
          return true;
        }
      });
    }
    function isPositive() {
      return makeValidator({
        test: (value, state) => {
          if (!(value >= 0))
            return pushError(state, `Expected to be positive (got ${value})`);
          return true;
        }
      });
    }
    function isAtLeast(n) {
      return makeValidator({
        test: (value, state) => {
          if (!(value >= n))
            return pushError(state, `Expected to be at least ${n} (got ${value})`);
          return true;
        }
      });
    }
    function isAtMost(n) {
      return makeValidator({
        test: (value, state) => {
          if (!(value <= n))
            return pushError(state, `Expected to be at most ${n} (got ${value})`);
          return true;
        }
      });
    }
    function isInInclusiveRange(a, b) {
      return makeValidator({
        test: (value, state) => {
          if (!(value >= a && value <= b))
            return pushError(state, `Expected to be in the [${a}; ${b}] range (got ${value})`);
          return true;
        }
      });
    }
    function isInExclusiveRange(a, b) {
      return makeValidator({
        test: (value, state) => {
          if (!(value >= a && value < b))
            return pushError(state, `Expected to be in the [${a}; ${b}[ range (got ${value})`);
          return true;
        }
      });
    }
    function isInteger({ unsafe = false } = {}) {
      return makeValidator({
        test: (value, state) => {
          if (value !== Math.round(value))
            return pushError(state, `Expected to be an integer (got ${value})`);
          if (!unsafe && !Number.isSafeInteger(value))
            return pushError(state, `Expected to be a safe integer (got ${value})`);
          return true;
        }
      });
    }
    function matchesRegExp(regExp) {
      return makeValidator({
        test: (value, state) => {
          if (!regExp.test(value))
            return pushError(state, `Expected to match the pattern ${regExp.toString()} (got ${getPrintable(value)})`);
          return true;
        }
      });
    }
    function isLowerCase() {
      return makeValidator({
        test: (value, state) => {
          if (value !== value.toLowerCase())
            return pushError(state, `Expected to be all-lowercase (got ${value})`);
          return true;
        }
      });
    }
    function isUpperCase() {
      return makeValidator({
        test: (value, state) => {
          if (value !== value.toUpperCase())
            return pushError(state, `Expected to be all-uppercase (got ${value})`);
          return true;
        }
      });
    }
    function isUUID4() {
      return makeValidator({
        test: (value, state) => {
          if (!uuid4RegExp.test(value))
            return pushError(state, `Expected to be a valid UUID v4 (got ${getPrintable(value)})`);
          return true;
        }
      });
    }
    function isISO8601() {
      return makeValidator({
        test: (value, state) => {
          if (!iso8601RegExp.test(value))
            return pushError(state, `Expected to be a valid ISO 8601 date string (got ${getPrintable(value)})`);
          return true;
        }
      });
    }
    function isHexColor({ alpha = false }) {
      return makeValidator({
        test: (value, state) => {
          const res = alpha ? colorStringRegExp.test(value) : colorStringAlphaRegExp.test(value);
          if (!res)
            return pushError(state, `Expected to be a valid hexadecimal color string (got ${getPrintable(value)})`);
          return true;
        }
      });
    }
    function isBase64() {
      return makeValidator({
        test: (value, state) => {
          if (!base64RegExp.test(value))
            return pushError(state, `Expected to be a valid base 64 string (got ${getPrintable(value)})`);
          return true;
        }
      });
    }
    function isJSON(spec = isUnknown()) {
      return makeValidator({
        test: (value, state) => {
          let data;
          try {
            data = JSON.parse(value);
          } catch (_a) {
            return pushError(state, `Expected to be a valid JSON string (got ${getPrintable(value)})`);
          }
          return spec(data, state);
        }
      });
    }
    function cascade(spec, ...followups) {
      const resolvedFollowups = Array.isArray(followups[0]) ? followups[0] : followups;
      return makeValidator({
        test: (value, state) => {
          var _a, _b;
          const context = { value };
          const subCoercion = typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined` ? makeCoercionFn(context, `value`) : void 0;
          const subCoercions = typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined` ? [] : void 0;
          if (!spec(value, Object.assign(Object.assign({}, state), { coercion: subCoercion, coercions: subCoercions })))
            return false;
          const reverts = [];
          if (typeof subCoercions !== `undefined`)
            for (const [, coercion] of subCoercions)
              reverts.push(coercion());
          try {
            if (typeof (state === null || state === void 0 ? void 0 : state.coercions) !== `undefined`) {
              if (context.value !== value) {
                if (typeof (state === null || state === void 0 ? void 0 : state.coercion) === `undefined`)
                  return pushError(state, `Unbound coercion result`);
                state.coercions.push([(_a = state.p) !== null && _a !== void 0 ? _a : `.`, state.coercion.bind(null, context.value)]);
              }
              (_b = state === null || state === void 0 ? void 0 : state.coercions) === null || _b === void 0 ? void 0 : _b.push(...subCoercions);
            }
            return resolvedFollowups.every((spec2) => {
              return spec2(context.value, state);
            });
          } finally {
            for (const revert of reverts) {
              revert();
            }
          }
        }
      });
    }
    function applyCascade(spec, ...followups) {
      const resolvedFollowups = Array.isArray(followups[0]) ? followups[0] : followups;
      return cascade(spec, resolvedFollowups);
    }
    function isOptional(spec) {
      return makeValidator({
        test: (value, state) => {
          if (typeof value === `undefined`)
            return true;
          return spec(value, state);
        }
      });
    }
    function isNullable(spec) {
      return makeValidator({
        test: (value, state) => {
          if (value === null)
            return true;
          return spec(value, state);
        }
      });
    }
    var checks = {
      missing: (keys, key) => keys.has(key),
      undefined: (keys, key, value) => keys.has(key) && typeof value[key] !== `undefined`,
      nil: (keys, key, value) => keys.has(key) && value[key] != null,
      falsy: (keys, key, value) => keys.has(key) && !!value[key]
    };
    function hasRequiredKeys(requiredKeys, options) {
      var _a;
      const requiredSet = new Set(requiredKeys);
      const check = checks[(_a = options === null || options === void 0 ? void 0 : options.missingIf) !== null && _a !== void 0 ? _a : "missing"];
      return makeValidator({
        test: (value, state) => {
          const keys = new Set(Object.keys(value));
          const problems = [];
          for (const key of requiredSet)
            if (!check(keys, key, value))
              problems.push(key);
          if (problems.length > 0)
            return pushError(state, `Missing required ${plural(problems.length, `property`, `properties`)} ${getPrintableArray(problems, `and`)}`);
          return true;
        }
      });
    }
    function hasAtLeastOneKey(requiredKeys, options) {
      var _a;
      const requiredSet = new Set(requiredKeys);
      const check = checks[(_a = options === null || options === void 0 ? void 0 : options.missingIf) !== null && _a !== void 0 ? _a : "missing"];
      return makeValidator({
        test: (value, state) => {
          const keys = Object.keys(value);
          const valid = keys.some((key) => check(requiredSet, key, value));
          if (!valid)
            return pushError(state, `Missing at least one property from ${getPrintableArray(Array.from(requiredSet), `or`)}`);
          return true;
        }
      });
    }
    function hasForbiddenKeys(forbiddenKeys, options) {
      var _a;
      const forbiddenSet = new Set(forbiddenKeys);
      const check = checks[(_a = options === null || options === void 0 ? void 0 : options.missingIf) !== null && _a !== void 0 ? _a : "missing"];
      return makeValidator({
        test: (value, state) => {
          const keys = new Set(Object.keys(value));
          const problems = [];
          for (const key of forbiddenSet)
            if (check(keys, key, value))
              problems.push(key);
          if (problems.length > 0)
            return pushError(state, `Forbidden ${plural(problems.length, `property`, `properties`)} ${getPrintableArray(problems, `and`)}`);
          return true;
        }
      });
    }
    function hasMutuallyExclusiveKeys(exclusiveKeys, options) {
      var _a;
      const exclusiveSet = new Set(exclusiveKeys);
      const check = checks[(_a = options === null || options === void 0 ? void 0 : options.missingIf) !== null && _a !== void 0 ? _a : "missing"];
      return makeValidator({
        test: (value, state) => {
          const keys = new Set(Object.keys(value));
          const used = [];
          for (const key of exclusiveSet)
            if (check(keys, key, value))
              used.push(key);
          if (used.length > 1)
            return pushError(state, `Mutually exclusive properties ${getPrintableArray(used, `and`)}`);
          return true;
        }
      });
    }
    (function(KeyRelationship) {
      KeyRelationship["Forbids"] = "Forbids";
      KeyRelationship["Requires"] = "Requires";
    })(exports.KeyRelationship || (exports.KeyRelationship = {}));
    var keyRelationships = {
      [exports.KeyRelationship.Forbids]: {
        expect: false,
        message: `forbids using`
      },
      [exports.KeyRelationship.Requires]: {
        expect: true,
        message: `requires using`
      }
    };
    function hasKeyRelationship(subject, relationship, others, options) {
      var _a, _b;
      const skipped = new Set((_a = options === null || options === void 0 ? void 0 : options.ignore) !== null && _a !== void 0 ? _a : []);
      const check = checks[(_b = options === null || options === void 0 ? void 0 : options.missingIf) !== null && _b !== void 0 ? _b : "missing"];
      const otherSet = new Set(others);
      const spec = keyRelationships[relationship];
      const conjunction = relationship === exports.KeyRelationship.Forbids ? `or` : `and`;
      return makeValidator({
        test: (value, state) => {
          const keys = new Set(Object.keys(value));
          if (!check(keys, subject, value) || skipped.has(value[subject]))
            return true;
          const problems = [];
          for (const key of otherSet)
            if ((check(keys, key, value) && !skipped.has(value[key])) !== spec.expect)
              problems.push(key);
          if (problems.length >= 1)
            return pushError(state, `Property "${subject}" ${spec.message} ${plural(problems.length, `property`, `properties`)} ${getPrintableArray(problems, conjunction)}`);
          return true;
        }
      });
    }
    exports.TypeAssertionError = TypeAssertionError;
    exports.applyCascade = applyCascade;
    exports.as = as;
    exports.assert = assert;
    exports.assertWithErrors = assertWithErrors;
    exports.cascade = cascade;
    exports.fn = fn;
    exports.hasAtLeastOneKey = hasAtLeastOneKey;
    exports.hasExactLength = hasExactLength;
    exports.hasForbiddenKeys = hasForbiddenKeys;
    exports.hasKeyRelationship = hasKeyRelationship;
    exports.hasMaxLength = hasMaxLength;
    exports.hasMinLength = hasMinLength;
    exports.hasMutuallyExclusiveKeys = hasMutuallyExclusiveKeys;
    exports.hasRequiredKeys = hasRequiredKeys;
    exports.hasUniqueItems = hasUniqueItems;
    exports.isArray = isArray;
    exports.isAtLeast = isAtLeast;
    exports.isAtMost = isAtMost;
    exports.isBase64 = isBase64;
    exports.isBoolean = isBoolean;
    exports.isDate = isDate;
    exports.isDict = isDict;
    exports.isEnum = isEnum;
    exports.isHexColor = isHexColor;
    exports.isISO8601 = isISO8601;
    exports.isInExclusiveRange = isInExclusiveRange;
    exports.isInInclusiveRange = isInInclusiveRange;
    exports.isInstanceOf = isInstanceOf;
    exports.isInteger = isInteger;
    exports.isJSON = isJSON;
    exports.isLiteral = isLiteral;
    exports.isLowerCase = isLowerCase;
    exports.isMap = isMap;
    exports.isNegative = isNegative;
    exports.isNullable = isNullable;
    exports.isNumber = isNumber;
    exports.isObject = isObject;
    exports.isOneOf = isOneOf;
    exports.isOptional = isOptional;
    exports.isPartial = isPartial;
    exports.isPayload = isPayload;
    exports.isPositive = isPositive;
    exports.isRecord = isRecord;
    exports.isSet = isSet;
    exports.isString = isString;
    exports.isTuple = isTuple;
    exports.isUUID4 = isUUID4;
    exports.isUnknown = isUnknown;
    exports.isUpperCase = isUpperCase;
    exports.makeTrait = makeTrait;
    exports.makeValidator = makeValidator;
    exports.matchesRegExp = matchesRegExp;
    exports.softAssert = softAssert;
  }
});

// node_modules/clipanion/lib/advanced/Command.js
var require_Command = __commonJS({
  "node_modules/clipanion/lib/advanced/Command.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var advanced_options_utils = require_utils();
    function _interopNamespace(e) {
      if (e && e.__esModule) return e;
      var n = /* @__PURE__ */ Object.create(null);
      if (e) {
        Object.keys(e).forEach(function(k) {
          if (k !== "default") {
            var d = Object.getOwnPropertyDescriptor(e, k);
            Object.defineProperty(n, k, d.get ? d : {
              enumerable: true,
              get: function() {
                return e[k];
              }
            });
          }
        });
      }
      n["default"] = e;
      return Object.freeze(n);
    }
    var Command16 = class {
      constructor() {
        this.help = false;
      }
      /**
       * Defines the usage information for the given command.
       */
      static Usage(usage) {
        return usage;
      }
      /**
       * Standard error handler which will simply rethrow the error. Can be used
       * to add custom logic to handle errors from the command or simply return
       * the parent class error handling.
       */
      async catch(error) {
        throw error;
      }
      async validateAndExecute() {
        const commandClass = this.constructor;
        const cascade = commandClass.schema;
        if (Array.isArray(cascade)) {
          const { isDict, isUnknown, applyCascade } = await Promise.resolve().then(function() {
            return /* @__PURE__ */ _interopNamespace(require_lib());
          });
          const schema = applyCascade(isDict(isUnknown()), cascade);
          const errors = [];
          const coercions = [];
          const check = schema(this, { errors, coercions });
          if (!check)
            throw advanced_options_utils.formatError(`Invalid option schema`, errors);
          for (const [, op] of coercions) {
            op();
          }
        } else if (cascade != null) {
          throw new Error(`Invalid command schema`);
        }
        const exitCode = await this.execute();
        if (typeof exitCode !== `undefined`) {
          return exitCode;
        } else {
          return 0;
        }
      }
    };
    Command16.isOption = advanced_options_utils.isOptionSymbol;
    Command16.Default = [];
    exports.Command = Command16;
  }
});

// node_modules/clipanion/lib/core.js
var require_core = __commonJS({
  "node_modules/clipanion/lib/core.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var constants = require_constants();
    var errors = require_errors();
    function debug(str) {
      if (constants.DEBUG) {
        console.log(str);
      }
    }
    var basicHelpState = {
      candidateUsage: null,
      requiredOptions: [],
      errorMessage: null,
      ignoreOptions: false,
      path: [],
      positionals: [],
      options: [],
      remainder: null,
      selectedIndex: constants.HELP_COMMAND_INDEX
    };
    function makeStateMachine() {
      return {
        nodes: [makeNode(), makeNode(), makeNode()]
      };
    }
    function makeAnyOfMachine(inputs) {
      const output = makeStateMachine();
      const heads = [];
      let offset = output.nodes.length;
      for (const input of inputs) {
        heads.push(offset);
        for (let t = 0; t < input.nodes.length; ++t)
          if (!isTerminalNode(t))
            output.nodes.push(cloneNode(input.nodes[t], offset));
        offset += input.nodes.length - 2;
      }
      for (const head of heads)
        registerShortcut(output, constants.NODE_INITIAL, head);
      return output;
    }
    function injectNode(machine, node) {
      machine.nodes.push(node);
      return machine.nodes.length - 1;
    }
    function simplifyMachine(input) {
      const visited = /* @__PURE__ */ new Set();
      const process2 = (node) => {
        if (visited.has(node))
          return;
        visited.add(node);
        const nodeDef = input.nodes[node];
        for (const transitions of Object.values(nodeDef.statics))
          for (const { to } of transitions)
            process2(to);
        for (const [, { to }] of nodeDef.dynamics)
          process2(to);
        for (const { to } of nodeDef.shortcuts)
          process2(to);
        const shortcuts = new Set(nodeDef.shortcuts.map(({ to }) => to));
        while (nodeDef.shortcuts.length > 0) {
          const { to } = nodeDef.shortcuts.shift();
          const toDef = input.nodes[to];
          for (const [segment, transitions] of Object.entries(toDef.statics)) {
            const store = !Object.prototype.hasOwnProperty.call(nodeDef.statics, segment) ? nodeDef.statics[segment] = [] : nodeDef.statics[segment];
            for (const transition of transitions) {
              if (!store.some(({ to: to2 }) => transition.to === to2)) {
                store.push(transition);
              }
            }
          }
          for (const [test, transition] of toDef.dynamics)
            if (!nodeDef.dynamics.some(([otherTest, { to: to2 }]) => test === otherTest && transition.to === to2))
              nodeDef.dynamics.push([test, transition]);
          for (const transition of toDef.shortcuts) {
            if (!shortcuts.has(transition.to)) {
              nodeDef.shortcuts.push(transition);
              shortcuts.add(transition.to);
            }
          }
        }
      };
      process2(constants.NODE_INITIAL);
    }
    function debugMachine(machine, { prefix = `` } = {}) {
      if (constants.DEBUG) {
        debug(`${prefix}Nodes are:`);
        for (let t = 0; t < machine.nodes.length; ++t) {
          debug(`${prefix}  ${t}: ${JSON.stringify(machine.nodes[t])}`);
        }
      }
    }
    function runMachineInternal(machine, input, partial = false) {
      debug(`Running a vm on ${JSON.stringify(input)}`);
      let branches = [{ node: constants.NODE_INITIAL, state: {
        candidateUsage: null,
        requiredOptions: [],
        errorMessage: null,
        ignoreOptions: false,
        options: [],
        path: [],
        positionals: [],
        remainder: null,
        selectedIndex: null
      } }];
      debugMachine(machine, { prefix: `  ` });
      const tokens = [constants.START_OF_INPUT, ...input];
      for (let t = 0; t < tokens.length; ++t) {
        const segment = tokens[t];
        debug(`  Processing ${JSON.stringify(segment)}`);
        const nextBranches = [];
        for (const { node, state } of branches) {
          debug(`    Current node is ${node}`);
          const nodeDef = machine.nodes[node];
          if (node === constants.NODE_ERRORED) {
            nextBranches.push({ node, state });
            continue;
          }
          console.assert(nodeDef.shortcuts.length === 0, `Shortcuts should have been eliminated by now`);
          const hasExactMatch = Object.prototype.hasOwnProperty.call(nodeDef.statics, segment);
          if (!partial || t < tokens.length - 1 || hasExactMatch) {
            if (hasExactMatch) {
              const transitions = nodeDef.statics[segment];
              for (const { to, reducer } of transitions) {
                nextBranches.push({ node: to, state: typeof reducer !== `undefined` ? execute(reducers, reducer, state, segment) : state });
                debug(`      Static transition to ${to} found`);
              }
            } else {
              debug(`      No static transition found`);
            }
          } else {
            let hasMatches = false;
            for (const candidate of Object.keys(nodeDef.statics)) {
              if (!candidate.startsWith(segment))
                continue;
              if (segment === candidate) {
                for (const { to, reducer } of nodeDef.statics[candidate]) {
                  nextBranches.push({ node: to, state: typeof reducer !== `undefined` ? execute(reducers, reducer, state, segment) : state });
                  debug(`      Static transition to ${to} found`);
                }
              } else {
                for (const { to } of nodeDef.statics[candidate]) {
                  nextBranches.push({ node: to, state: { ...state, remainder: candidate.slice(segment.length) } });
                  debug(`      Static transition to ${to} found (partial match)`);
                }
              }
              hasMatches = true;
            }
            if (!hasMatches) {
              debug(`      No partial static transition found`);
            }
          }
          if (segment !== constants.END_OF_INPUT) {
            for (const [test, { to, reducer }] of nodeDef.dynamics) {
              if (execute(tests, test, state, segment)) {
                nextBranches.push({ node: to, state: typeof reducer !== `undefined` ? execute(reducers, reducer, state, segment) : state });
                debug(`      Dynamic transition to ${to} found (via ${test})`);
              }
            }
          }
        }
        if (nextBranches.length === 0 && segment === constants.END_OF_INPUT && input.length === 1) {
          return [{
            node: constants.NODE_INITIAL,
            state: basicHelpState
          }];
        }
        if (nextBranches.length === 0) {
          throw new errors.UnknownSyntaxError(input, branches.filter(({ node }) => {
            return node !== constants.NODE_ERRORED;
          }).map(({ state }) => {
            return { usage: state.candidateUsage, reason: null };
          }));
        }
        if (nextBranches.every(({ node }) => node === constants.NODE_ERRORED)) {
          throw new errors.UnknownSyntaxError(input, nextBranches.map(({ state }) => {
            return { usage: state.candidateUsage, reason: state.errorMessage };
          }));
        }
        branches = trimSmallerBranches(nextBranches);
      }
      if (branches.length > 0) {
        debug(`  Results:`);
        for (const branch of branches) {
          debug(`    - ${branch.node} -> ${JSON.stringify(branch.state)}`);
        }
      } else {
        debug(`  No results`);
      }
      return branches;
    }
    function checkIfNodeIsFinished(node, state) {
      if (state.selectedIndex !== null)
        return true;
      if (Object.prototype.hasOwnProperty.call(node.statics, constants.END_OF_INPUT)) {
        for (const { to } of node.statics[constants.END_OF_INPUT])
          if (to === constants.NODE_SUCCESS)
            return true;
      }
      return false;
    }
    function suggestMachine(machine, input, partial) {
      const prefix = partial && input.length > 0 ? [``] : [];
      const branches = runMachineInternal(machine, input, partial);
      const suggestions = [];
      const suggestionsJson = /* @__PURE__ */ new Set();
      const traverseSuggestion = (suggestion, node, skipFirst = true) => {
        let nextNodes = [node];
        while (nextNodes.length > 0) {
          const currentNodes = nextNodes;
          nextNodes = [];
          for (const node2 of currentNodes) {
            const nodeDef = machine.nodes[node2];
            const keys = Object.keys(nodeDef.statics);
            for (const key of Object.keys(nodeDef.statics)) {
              const segment = keys[0];
              for (const { to, reducer } of nodeDef.statics[segment]) {
                if (reducer !== `pushPath`)
                  continue;
                if (!skipFirst)
                  suggestion.push(segment);
                nextNodes.push(to);
              }
            }
          }
          skipFirst = false;
        }
        const json2 = JSON.stringify(suggestion);
        if (suggestionsJson.has(json2))
          return;
        suggestions.push(suggestion);
        suggestionsJson.add(json2);
      };
      for (const { node, state } of branches) {
        if (state.remainder !== null) {
          traverseSuggestion([state.remainder], node);
          continue;
        }
        const nodeDef = machine.nodes[node];
        const isFinished = checkIfNodeIsFinished(nodeDef, state);
        for (const [candidate, transitions] of Object.entries(nodeDef.statics))
          if (isFinished && candidate !== constants.END_OF_INPUT || !candidate.startsWith(`-`) && transitions.some(({ reducer }) => reducer === `pushPath`))
            traverseSuggestion([...prefix, candidate], node);
        if (!isFinished)
          continue;
        for (const [test, { to }] of nodeDef.dynamics) {
          if (to === constants.NODE_ERRORED)
            continue;
          const tokens = suggest(test, state);
          if (tokens === null)
            continue;
          for (const token of tokens) {
            traverseSuggestion([...prefix, token], node);
          }
        }
      }
      return [...suggestions].sort();
    }
    function runMachine(machine, input) {
      const branches = runMachineInternal(machine, [...input, constants.END_OF_INPUT]);
      return selectBestState(input, branches.map(({ state }) => {
        return state;
      }));
    }
    function trimSmallerBranches(branches) {
      let maxPathSize = 0;
      for (const { state } of branches)
        if (state.path.length > maxPathSize)
          maxPathSize = state.path.length;
      return branches.filter(({ state }) => {
        return state.path.length === maxPathSize;
      });
    }
    function selectBestState(input, states) {
      const terminalStates = states.filter((state) => {
        return state.selectedIndex !== null;
      });
      if (terminalStates.length === 0)
        throw new Error();
      const requiredOptionsSetStates = terminalStates.filter((state) => state.selectedIndex === constants.HELP_COMMAND_INDEX || state.requiredOptions.every((names) => names.some((name) => state.options.find((opt) => opt.name === name))));
      if (requiredOptionsSetStates.length === 0) {
        throw new errors.UnknownSyntaxError(input, terminalStates.map((state) => ({
          usage: state.candidateUsage,
          reason: null
        })));
      }
      let maxPathSize = 0;
      for (const state of requiredOptionsSetStates)
        if (state.path.length > maxPathSize)
          maxPathSize = state.path.length;
      const bestPathBranches = requiredOptionsSetStates.filter((state) => {
        return state.path.length === maxPathSize;
      });
      const getPositionalCount = (state) => state.positionals.filter(({ extra }) => {
        return !extra;
      }).length + state.options.length;
      const statesWithPositionalCount = bestPathBranches.map((state) => {
        return { state, positionalCount: getPositionalCount(state) };
      });
      let maxPositionalCount = 0;
      for (const { positionalCount } of statesWithPositionalCount)
        if (positionalCount > maxPositionalCount)
          maxPositionalCount = positionalCount;
      const bestPositionalStates = statesWithPositionalCount.filter(({ positionalCount }) => {
        return positionalCount === maxPositionalCount;
      }).map(({ state }) => {
        return state;
      });
      const fixedStates = aggregateHelpStates(bestPositionalStates);
      if (fixedStates.length > 1)
        throw new errors.AmbiguousSyntaxError(input, fixedStates.map((state) => state.candidateUsage));
      return fixedStates[0];
    }
    function aggregateHelpStates(states) {
      const notHelps = [];
      const helps = [];
      for (const state of states) {
        if (state.selectedIndex === constants.HELP_COMMAND_INDEX) {
          helps.push(state);
        } else {
          notHelps.push(state);
        }
      }
      if (helps.length > 0) {
        notHelps.push({
          ...basicHelpState,
          path: findCommonPrefix(...helps.map((state) => state.path)),
          options: helps.reduce((options, state) => options.concat(state.options), [])
        });
      }
      return notHelps;
    }
    function findCommonPrefix(firstPath, secondPath, ...rest) {
      if (secondPath === void 0)
        return Array.from(firstPath);
      return findCommonPrefix(firstPath.filter((segment, i) => segment === secondPath[i]), ...rest);
    }
    function makeNode() {
      return {
        dynamics: [],
        shortcuts: [],
        statics: {}
      };
    }
    function isTerminalNode(node) {
      return node === constants.NODE_SUCCESS || node === constants.NODE_ERRORED;
    }
    function cloneTransition(input, offset = 0) {
      return {
        to: !isTerminalNode(input.to) ? input.to > 2 ? input.to + offset - 2 : input.to + offset : input.to,
        reducer: input.reducer
      };
    }
    function cloneNode(input, offset = 0) {
      const output = makeNode();
      for (const [test, transition] of input.dynamics)
        output.dynamics.push([test, cloneTransition(transition, offset)]);
      for (const transition of input.shortcuts)
        output.shortcuts.push(cloneTransition(transition, offset));
      for (const [segment, transitions] of Object.entries(input.statics))
        output.statics[segment] = transitions.map((transition) => cloneTransition(transition, offset));
      return output;
    }
    function registerDynamic(machine, from, test, to, reducer) {
      machine.nodes[from].dynamics.push([
        test,
        { to, reducer }
      ]);
    }
    function registerShortcut(machine, from, to, reducer) {
      machine.nodes[from].shortcuts.push({ to, reducer });
    }
    function registerStatic(machine, from, test, to, reducer) {
      const store = !Object.prototype.hasOwnProperty.call(machine.nodes[from].statics, test) ? machine.nodes[from].statics[test] = [] : machine.nodes[from].statics[test];
      store.push({ to, reducer });
    }
    function execute(store, callback, state, segment) {
      if (Array.isArray(callback)) {
        const [name, ...args] = callback;
        return store[name](state, segment, ...args);
      } else {
        return store[callback](state, segment);
      }
    }
    function suggest(callback, state) {
      const fn = Array.isArray(callback) ? tests[callback[0]] : tests[callback];
      if (typeof fn.suggest === `undefined`)
        return null;
      const args = Array.isArray(callback) ? callback.slice(1) : [];
      return fn.suggest(state, ...args);
    }
    var tests = {
      always: () => {
        return true;
      },
      isOptionLike: (state, segment) => {
        return !state.ignoreOptions && (segment !== `-` && segment.startsWith(`-`));
      },
      isNotOptionLike: (state, segment) => {
        return state.ignoreOptions || segment === `-` || !segment.startsWith(`-`);
      },
      isOption: (state, segment, name, hidden) => {
        return !state.ignoreOptions && segment === name;
      },
      isBatchOption: (state, segment, names) => {
        return !state.ignoreOptions && constants.BATCH_REGEX.test(segment) && [...segment.slice(1)].every((name) => names.includes(`-${name}`));
      },
      isBoundOption: (state, segment, names, options) => {
        const optionParsing = segment.match(constants.BINDING_REGEX);
        return !state.ignoreOptions && !!optionParsing && constants.OPTION_REGEX.test(optionParsing[1]) && names.includes(optionParsing[1]) && options.filter((opt) => opt.names.includes(optionParsing[1])).every((opt) => opt.allowBinding);
      },
      isNegatedOption: (state, segment, name) => {
        return !state.ignoreOptions && segment === `--no-${name.slice(2)}`;
      },
      isHelp: (state, segment) => {
        return !state.ignoreOptions && constants.HELP_REGEX.test(segment);
      },
      isUnsupportedOption: (state, segment, names) => {
        return !state.ignoreOptions && segment.startsWith(`-`) && constants.OPTION_REGEX.test(segment) && !names.includes(segment);
      },
      isInvalidOption: (state, segment) => {
        return !state.ignoreOptions && segment.startsWith(`-`) && !constants.OPTION_REGEX.test(segment);
      }
    };
    tests.isOption.suggest = (state, name, hidden = true) => {
      return !hidden ? [name] : null;
    };
    var reducers = {
      setCandidateState: (state, segment, candidateState) => {
        return { ...state, ...candidateState };
      },
      setSelectedIndex: (state, segment, index) => {
        return { ...state, selectedIndex: index };
      },
      pushBatch: (state, segment) => {
        return { ...state, options: state.options.concat([...segment.slice(1)].map((name) => ({ name: `-${name}`, value: true }))) };
      },
      pushBound: (state, segment) => {
        const [, name, value] = segment.match(constants.BINDING_REGEX);
        return { ...state, options: state.options.concat({ name, value }) };
      },
      pushPath: (state, segment) => {
        return { ...state, path: state.path.concat(segment) };
      },
      pushPositional: (state, segment) => {
        return { ...state, positionals: state.positionals.concat({ value: segment, extra: false }) };
      },
      pushExtra: (state, segment) => {
        return { ...state, positionals: state.positionals.concat({ value: segment, extra: true }) };
      },
      pushExtraNoLimits: (state, segment) => {
        return { ...state, positionals: state.positionals.concat({ value: segment, extra: NoLimits }) };
      },
      pushTrue: (state, segment, name = segment) => {
        return { ...state, options: state.options.concat({ name: segment, value: true }) };
      },
      pushFalse: (state, segment, name = segment) => {
        return { ...state, options: state.options.concat({ name, value: false }) };
      },
      pushUndefined: (state, segment) => {
        return { ...state, options: state.options.concat({ name: segment, value: void 0 }) };
      },
      pushStringValue: (state, segment) => {
        var _a;
        const copy = { ...state, options: [...state.options] };
        const lastOption = state.options[state.options.length - 1];
        lastOption.value = ((_a = lastOption.value) !== null && _a !== void 0 ? _a : []).concat([segment]);
        return copy;
      },
      setStringValue: (state, segment) => {
        const copy = { ...state, options: [...state.options] };
        const lastOption = state.options[state.options.length - 1];
        lastOption.value = segment;
        return copy;
      },
      inhibateOptions: (state) => {
        return { ...state, ignoreOptions: true };
      },
      useHelp: (state, segment, command) => {
        const [
          ,
          /* name */
          ,
          index
        ] = segment.match(constants.HELP_REGEX);
        if (typeof index !== `undefined`) {
          return { ...state, options: [{ name: `-c`, value: String(command) }, { name: `-i`, value: index }] };
        } else {
          return { ...state, options: [{ name: `-c`, value: String(command) }] };
        }
      },
      setError: (state, segment, errorMessage) => {
        if (segment === constants.END_OF_INPUT) {
          return { ...state, errorMessage: `${errorMessage}.` };
        } else {
          return { ...state, errorMessage: `${errorMessage} ("${segment}").` };
        }
      },
      setOptionArityError: (state, segment) => {
        const lastOption = state.options[state.options.length - 1];
        return { ...state, errorMessage: `Not enough arguments to option ${lastOption.name}.` };
      }
    };
    var NoLimits = /* @__PURE__ */ Symbol();
    var CommandBuilder = class {
      constructor(cliIndex, cliOpts) {
        this.allOptionNames = [];
        this.arity = { leading: [], trailing: [], extra: [], proxy: false };
        this.options = [];
        this.paths = [];
        this.cliIndex = cliIndex;
        this.cliOpts = cliOpts;
      }
      addPath(path) {
        this.paths.push(path);
      }
      setArity({ leading = this.arity.leading, trailing = this.arity.trailing, extra = this.arity.extra, proxy = this.arity.proxy }) {
        Object.assign(this.arity, { leading, trailing, extra, proxy });
      }
      addPositional({ name = `arg`, required = true } = {}) {
        if (!required && this.arity.extra === NoLimits)
          throw new Error(`Optional parameters cannot be declared when using .rest() or .proxy()`);
        if (!required && this.arity.trailing.length > 0)
          throw new Error(`Optional parameters cannot be declared after the required trailing positional arguments`);
        if (!required && this.arity.extra !== NoLimits) {
          this.arity.extra.push(name);
        } else if (this.arity.extra !== NoLimits && this.arity.extra.length === 0) {
          this.arity.leading.push(name);
        } else {
          this.arity.trailing.push(name);
        }
      }
      addRest({ name = `arg`, required = 0 } = {}) {
        if (this.arity.extra === NoLimits)
          throw new Error(`Infinite lists cannot be declared multiple times in the same command`);
        if (this.arity.trailing.length > 0)
          throw new Error(`Infinite lists cannot be declared after the required trailing positional arguments`);
        for (let t = 0; t < required; ++t)
          this.addPositional({ name });
        this.arity.extra = NoLimits;
      }
      addProxy({ required = 0 } = {}) {
        this.addRest({ required });
        this.arity.proxy = true;
      }
      addOption({ names, description, arity = 0, hidden = false, required = false, allowBinding = true }) {
        if (!allowBinding && arity > 1)
          throw new Error(`The arity cannot be higher than 1 when the option only supports the --arg=value syntax`);
        if (!Number.isInteger(arity))
          throw new Error(`The arity must be an integer, got ${arity}`);
        if (arity < 0)
          throw new Error(`The arity must be positive, got ${arity}`);
        this.allOptionNames.push(...names);
        this.options.push({ names, description, arity, hidden, required, allowBinding });
      }
      setContext(context) {
        this.context = context;
      }
      usage({ detailed = true, inlineOptions = true } = {}) {
        const segments = [this.cliOpts.binaryName];
        const detailedOptionList = [];
        if (this.paths.length > 0)
          segments.push(...this.paths[0]);
        if (detailed) {
          for (const { names, arity, hidden, description, required } of this.options) {
            if (hidden)
              continue;
            const args = [];
            for (let t = 0; t < arity; ++t)
              args.push(` #${t}`);
            const definition = `${names.join(`,`)}${args.join(``)}`;
            if (!inlineOptions && description) {
              detailedOptionList.push({ definition, description, required });
            } else {
              segments.push(required ? `<${definition}>` : `[${definition}]`);
            }
          }
          segments.push(...this.arity.leading.map((name) => `<${name}>`));
          if (this.arity.extra === NoLimits)
            segments.push(`...`);
          else
            segments.push(...this.arity.extra.map((name) => `[${name}]`));
          segments.push(...this.arity.trailing.map((name) => `<${name}>`));
        }
        const usage = segments.join(` `);
        return { usage, options: detailedOptionList };
      }
      compile() {
        if (typeof this.context === `undefined`)
          throw new Error(`Assertion failed: No context attached`);
        const machine = makeStateMachine();
        let firstNode = constants.NODE_INITIAL;
        const candidateUsage = this.usage().usage;
        const requiredOptions = this.options.filter((opt) => opt.required).map((opt) => opt.names);
        firstNode = injectNode(machine, makeNode());
        registerStatic(machine, constants.NODE_INITIAL, constants.START_OF_INPUT, firstNode, [`setCandidateState`, { candidateUsage, requiredOptions }]);
        const positionalArgument = this.arity.proxy ? `always` : `isNotOptionLike`;
        const paths = this.paths.length > 0 ? this.paths : [[]];
        for (const path of paths) {
          let lastPathNode = firstNode;
          if (path.length > 0) {
            const optionPathNode = injectNode(machine, makeNode());
            registerShortcut(machine, lastPathNode, optionPathNode);
            this.registerOptions(machine, optionPathNode);
            lastPathNode = optionPathNode;
          }
          for (let t = 0; t < path.length; ++t) {
            const nextPathNode = injectNode(machine, makeNode());
            registerStatic(machine, lastPathNode, path[t], nextPathNode, `pushPath`);
            lastPathNode = nextPathNode;
          }
          if (this.arity.leading.length > 0 || !this.arity.proxy) {
            const helpNode = injectNode(machine, makeNode());
            registerDynamic(machine, lastPathNode, `isHelp`, helpNode, [`useHelp`, this.cliIndex]);
            registerDynamic(machine, helpNode, `always`, helpNode, `pushExtra`);
            registerStatic(machine, helpNode, constants.END_OF_INPUT, constants.NODE_SUCCESS, [`setSelectedIndex`, constants.HELP_COMMAND_INDEX]);
            this.registerOptions(machine, lastPathNode);
          }
          if (this.arity.leading.length > 0)
            registerStatic(machine, lastPathNode, constants.END_OF_INPUT, constants.NODE_ERRORED, [`setError`, `Not enough positional arguments`]);
          let lastLeadingNode = lastPathNode;
          for (let t = 0; t < this.arity.leading.length; ++t) {
            const nextLeadingNode = injectNode(machine, makeNode());
            if (!this.arity.proxy || t + 1 !== this.arity.leading.length)
              this.registerOptions(machine, nextLeadingNode);
            if (this.arity.trailing.length > 0 || t + 1 !== this.arity.leading.length)
              registerStatic(machine, nextLeadingNode, constants.END_OF_INPUT, constants.NODE_ERRORED, [`setError`, `Not enough positional arguments`]);
            registerDynamic(machine, lastLeadingNode, `isNotOptionLike`, nextLeadingNode, `pushPositional`);
            lastLeadingNode = nextLeadingNode;
          }
          let lastExtraNode = lastLeadingNode;
          if (this.arity.extra === NoLimits || this.arity.extra.length > 0) {
            const extraShortcutNode = injectNode(machine, makeNode());
            registerShortcut(machine, lastLeadingNode, extraShortcutNode);
            if (this.arity.extra === NoLimits) {
              const extraNode = injectNode(machine, makeNode());
              if (!this.arity.proxy)
                this.registerOptions(machine, extraNode);
              registerDynamic(machine, lastLeadingNode, positionalArgument, extraNode, `pushExtraNoLimits`);
              registerDynamic(machine, extraNode, positionalArgument, extraNode, `pushExtraNoLimits`);
              registerShortcut(machine, extraNode, extraShortcutNode);
            } else {
              for (let t = 0; t < this.arity.extra.length; ++t) {
                const nextExtraNode = injectNode(machine, makeNode());
                if (!this.arity.proxy || t > 0)
                  this.registerOptions(machine, nextExtraNode);
                registerDynamic(machine, lastExtraNode, positionalArgument, nextExtraNode, `pushExtra`);
                registerShortcut(machine, nextExtraNode, extraShortcutNode);
                lastExtraNode = nextExtraNode;
              }
            }
            lastExtraNode = extraShortcutNode;
          }
          if (this.arity.trailing.length > 0)
            registerStatic(machine, lastExtraNode, constants.END_OF_INPUT, constants.NODE_ERRORED, [`setError`, `Not enough positional arguments`]);
          let lastTrailingNode = lastExtraNode;
          for (let t = 0; t < this.arity.trailing.length; ++t) {
            const nextTrailingNode = injectNode(machine, makeNode());
            if (!this.arity.proxy)
              this.registerOptions(machine, nextTrailingNode);
            if (t + 1 < this.arity.trailing.length)
              registerStatic(machine, nextTrailingNode, constants.END_OF_INPUT, constants.NODE_ERRORED, [`setError`, `Not enough positional arguments`]);
            registerDynamic(machine, lastTrailingNode, `isNotOptionLike`, nextTrailingNode, `pushPositional`);
            lastTrailingNode = nextTrailingNode;
          }
          registerDynamic(machine, lastTrailingNode, positionalArgument, constants.NODE_ERRORED, [`setError`, `Extraneous positional argument`]);
          registerStatic(machine, lastTrailingNode, constants.END_OF_INPUT, constants.NODE_SUCCESS, [`setSelectedIndex`, this.cliIndex]);
        }
        return {
          machine,
          context: this.context
        };
      }
      registerOptions(machine, node) {
        registerDynamic(machine, node, [`isOption`, `--`], node, `inhibateOptions`);
        registerDynamic(machine, node, [`isBatchOption`, this.allOptionNames], node, `pushBatch`);
        registerDynamic(machine, node, [`isBoundOption`, this.allOptionNames, this.options], node, `pushBound`);
        registerDynamic(machine, node, [`isUnsupportedOption`, this.allOptionNames], constants.NODE_ERRORED, [`setError`, `Unsupported option name`]);
        registerDynamic(machine, node, [`isInvalidOption`], constants.NODE_ERRORED, [`setError`, `Invalid option name`]);
        for (const option of this.options) {
          const longestName = option.names.reduce((longestName2, name) => {
            return name.length > longestName2.length ? name : longestName2;
          }, ``);
          if (option.arity === 0) {
            for (const name of option.names) {
              registerDynamic(machine, node, [`isOption`, name, option.hidden || name !== longestName], node, `pushTrue`);
              if (name.startsWith(`--`) && !name.startsWith(`--no-`)) {
                registerDynamic(machine, node, [`isNegatedOption`, name], node, [`pushFalse`, name]);
              }
            }
          } else {
            let lastNode = injectNode(machine, makeNode());
            for (const name of option.names)
              registerDynamic(machine, node, [`isOption`, name, option.hidden || name !== longestName], lastNode, `pushUndefined`);
            for (let t = 0; t < option.arity; ++t) {
              const nextNode = injectNode(machine, makeNode());
              registerStatic(machine, lastNode, constants.END_OF_INPUT, constants.NODE_ERRORED, `setOptionArityError`);
              registerDynamic(machine, lastNode, `isOptionLike`, constants.NODE_ERRORED, `setOptionArityError`);
              const action = option.arity === 1 ? `setStringValue` : `pushStringValue`;
              registerDynamic(machine, lastNode, `isNotOptionLike`, nextNode, action);
              lastNode = nextNode;
            }
            registerShortcut(machine, lastNode, node);
          }
        }
      }
    };
    var CliBuilder = class _CliBuilder {
      constructor({ binaryName = `...` } = {}) {
        this.builders = [];
        this.opts = { binaryName };
      }
      static build(cbs, opts = {}) {
        return new _CliBuilder(opts).commands(cbs).compile();
      }
      getBuilderByIndex(n) {
        if (!(n >= 0 && n < this.builders.length))
          throw new Error(`Assertion failed: Out-of-bound command index (${n})`);
        return this.builders[n];
      }
      commands(cbs) {
        for (const cb of cbs)
          cb(this.command());
        return this;
      }
      command() {
        const builder = new CommandBuilder(this.builders.length, this.opts);
        this.builders.push(builder);
        return builder;
      }
      compile() {
        const machines = [];
        const contexts = [];
        for (const builder of this.builders) {
          const { machine: machine2, context } = builder.compile();
          machines.push(machine2);
          contexts.push(context);
        }
        const machine = makeAnyOfMachine(machines);
        simplifyMachine(machine);
        return {
          machine,
          contexts,
          process: (input) => {
            return runMachine(machine, input);
          },
          suggest: (input, partial) => {
            return suggestMachine(machine, input, partial);
          }
        };
      }
    };
    exports.CliBuilder = CliBuilder;
    exports.CommandBuilder = CommandBuilder;
    exports.NoLimits = NoLimits;
    exports.aggregateHelpStates = aggregateHelpStates;
    exports.cloneNode = cloneNode;
    exports.cloneTransition = cloneTransition;
    exports.debug = debug;
    exports.debugMachine = debugMachine;
    exports.execute = execute;
    exports.injectNode = injectNode;
    exports.isTerminalNode = isTerminalNode;
    exports.makeAnyOfMachine = makeAnyOfMachine;
    exports.makeNode = makeNode;
    exports.makeStateMachine = makeStateMachine;
    exports.reducers = reducers;
    exports.registerDynamic = registerDynamic;
    exports.registerShortcut = registerShortcut;
    exports.registerStatic = registerStatic;
    exports.runMachineInternal = runMachineInternal;
    exports.selectBestState = selectBestState;
    exports.simplifyMachine = simplifyMachine;
    exports.suggest = suggest;
    exports.tests = tests;
    exports.trimSmallerBranches = trimSmallerBranches;
  }
});

// node_modules/clipanion/lib/platform/node.js
var require_node = __commonJS({
  "node_modules/clipanion/lib/platform/node.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var tty = __require("tty");
    function _interopDefaultLegacy(e) {
      return e && typeof e === "object" && "default" in e ? e : { "default": e };
    }
    var tty__default = /* @__PURE__ */ _interopDefaultLegacy(tty);
    function getDefaultColorDepth() {
      if (tty__default["default"] && `getColorDepth` in tty__default["default"].WriteStream.prototype)
        return tty__default["default"].WriteStream.prototype.getColorDepth();
      if (process.env.FORCE_COLOR === `0`)
        return 1;
      if (process.env.FORCE_COLOR === `1`)
        return 8;
      if (typeof process.stdout !== `undefined` && process.stdout.isTTY)
        return 8;
      return 1;
    }
    var gContextStorage;
    function getCaptureActivator(context) {
      let contextStorage = gContextStorage;
      if (typeof contextStorage === `undefined`) {
        if (context.stdout === process.stdout && context.stderr === process.stderr)
          return null;
        const { AsyncLocalStorage: LazyAsyncLocalStorage } = __require("async_hooks");
        contextStorage = gContextStorage = new LazyAsyncLocalStorage();
        const origStdoutWrite = process.stdout._write;
        process.stdout._write = function(chunk, encoding, cb) {
          const context2 = contextStorage.getStore();
          if (typeof context2 === `undefined`)
            return origStdoutWrite.call(this, chunk, encoding, cb);
          return context2.stdout.write(chunk, encoding, cb);
        };
        const origStderrWrite = process.stderr._write;
        process.stderr._write = function(chunk, encoding, cb) {
          const context2 = contextStorage.getStore();
          if (typeof context2 === `undefined`)
            return origStderrWrite.call(this, chunk, encoding, cb);
          return context2.stderr.write(chunk, encoding, cb);
        };
      }
      return (fn) => {
        return contextStorage.run(context, fn);
      };
    }
    exports.getCaptureActivator = getCaptureActivator;
    exports.getDefaultColorDepth = getDefaultColorDepth;
  }
});

// node_modules/clipanion/lib/advanced/HelpCommand.js
var require_HelpCommand = __commonJS({
  "node_modules/clipanion/lib/advanced/HelpCommand.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var advanced_Command = require_Command();
    var HelpCommand = class _HelpCommand extends advanced_Command.Command {
      constructor(contexts) {
        super();
        this.contexts = contexts;
        this.commands = [];
      }
      static from(state, contexts) {
        const command = new _HelpCommand(contexts);
        command.path = state.path;
        for (const opt of state.options) {
          switch (opt.name) {
            case `-c`:
              {
                command.commands.push(Number(opt.value));
              }
              break;
            case `-i`:
              {
                command.index = Number(opt.value);
              }
              break;
          }
        }
        return command;
      }
      async execute() {
        let commands = this.commands;
        if (typeof this.index !== `undefined` && this.index >= 0 && this.index < commands.length)
          commands = [commands[this.index]];
        if (commands.length === 0) {
          this.context.stdout.write(this.cli.usage());
        } else if (commands.length === 1) {
          this.context.stdout.write(this.cli.usage(this.contexts[commands[0]].commandClass, { detailed: true }));
        } else if (commands.length > 1) {
          this.context.stdout.write(`Multiple commands match your selection:
`);
          this.context.stdout.write(`
`);
          let index = 0;
          for (const command of this.commands)
            this.context.stdout.write(this.cli.usage(this.contexts[command].commandClass, { prefix: `${index++}. `.padStart(5) }));
          this.context.stdout.write(`
`);
          this.context.stdout.write(`Run again with -h=<index> to see the longer details of any of those commands.
`);
        }
      }
    };
    exports.HelpCommand = HelpCommand;
  }
});

// node_modules/clipanion/lib/advanced/Cli.js
var require_Cli = __commonJS({
  "node_modules/clipanion/lib/advanced/Cli.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var constants = require_constants();
    var core = require_core();
    var format = require_format();
    var platform = require_node();
    var advanced_Command = require_Command();
    var advanced_HelpCommand = require_HelpCommand();
    var errorCommandSymbol = /* @__PURE__ */ Symbol(`clipanion/errorCommand`);
    async function runExit(...args) {
      const { resolvedOptions, resolvedCommandClasses, resolvedArgv, resolvedContext } = resolveRunParameters(args);
      const cli = Cli2.from(resolvedCommandClasses, resolvedOptions);
      return cli.runExit(resolvedArgv, resolvedContext);
    }
    async function run(...args) {
      const { resolvedOptions, resolvedCommandClasses, resolvedArgv, resolvedContext } = resolveRunParameters(args);
      const cli = Cli2.from(resolvedCommandClasses, resolvedOptions);
      return cli.run(resolvedArgv, resolvedContext);
    }
    function resolveRunParameters(args) {
      let resolvedOptions;
      let resolvedCommandClasses;
      let resolvedArgv;
      let resolvedContext;
      if (typeof process !== `undefined` && typeof process.argv !== `undefined`)
        resolvedArgv = process.argv.slice(2);
      switch (args.length) {
        case 1:
          {
            resolvedCommandClasses = args[0];
          }
          break;
        case 2:
          {
            if (args[0] && args[0].prototype instanceof advanced_Command.Command || Array.isArray(args[0])) {
              resolvedCommandClasses = args[0];
              if (Array.isArray(args[1])) {
                resolvedArgv = args[1];
              } else {
                resolvedContext = args[1];
              }
            } else {
              resolvedOptions = args[0];
              resolvedCommandClasses = args[1];
            }
          }
          break;
        case 3:
          {
            if (Array.isArray(args[2])) {
              resolvedOptions = args[0];
              resolvedCommandClasses = args[1];
              resolvedArgv = args[2];
            } else if (args[0] && args[0].prototype instanceof advanced_Command.Command || Array.isArray(args[0])) {
              resolvedCommandClasses = args[0];
              resolvedArgv = args[1];
              resolvedContext = args[2];
            } else {
              resolvedOptions = args[0];
              resolvedCommandClasses = args[1];
              resolvedContext = args[2];
            }
          }
          break;
        default:
          {
            resolvedOptions = args[0];
            resolvedCommandClasses = args[1];
            resolvedArgv = args[2];
            resolvedContext = args[3];
          }
          break;
      }
      if (typeof resolvedArgv === `undefined`)
        throw new Error(`The argv parameter must be provided when running Clipanion outside of a Node context`);
      return {
        resolvedOptions,
        resolvedCommandClasses,
        resolvedArgv,
        resolvedContext
      };
    }
    var Cli2 = class _Cli {
      constructor({ binaryLabel, binaryName: binaryNameOpt = `...`, binaryVersion, enableCapture = false, enableColors } = {}) {
        this.registrations = /* @__PURE__ */ new Map();
        this.builder = new core.CliBuilder({ binaryName: binaryNameOpt });
        this.binaryLabel = binaryLabel;
        this.binaryName = binaryNameOpt;
        this.binaryVersion = binaryVersion;
        this.enableCapture = enableCapture;
        this.enableColors = enableColors;
      }
      /**
       * Creates a new Cli and registers all commands passed as parameters.
       *
       * @param commandClasses The Commands to register
       * @returns The created `Cli` instance
       */
      static from(commandClasses, options = {}) {
        const cli = new _Cli(options);
        const resolvedCommandClasses = Array.isArray(commandClasses) ? commandClasses : [commandClasses];
        for (const commandClass of resolvedCommandClasses)
          cli.register(commandClass);
        return cli;
      }
      /**
       * Registers a command inside the CLI.
       */
      register(commandClass) {
        var _a;
        const specs = /* @__PURE__ */ new Map();
        const command = new commandClass();
        for (const key in command) {
          const value = command[key];
          if (typeof value === `object` && value !== null && value[advanced_Command.Command.isOption]) {
            specs.set(key, value);
          }
        }
        const builder = this.builder.command();
        const index = builder.cliIndex;
        const paths = (_a = commandClass.paths) !== null && _a !== void 0 ? _a : command.paths;
        if (typeof paths !== `undefined`)
          for (const path of paths)
            builder.addPath(path);
        this.registrations.set(commandClass, { specs, builder, index });
        for (const [key, { definition }] of specs.entries())
          definition(builder, key);
        builder.setContext({
          commandClass
        });
      }
      process(input, userContext) {
        const { contexts, process: process2 } = this.builder.compile();
        const state = process2(input);
        const context = {
          ..._Cli.defaultContext,
          ...userContext
        };
        switch (state.selectedIndex) {
          case constants.HELP_COMMAND_INDEX: {
            const command = advanced_HelpCommand.HelpCommand.from(state, contexts);
            command.context = context;
            return command;
          }
          default:
            {
              const { commandClass } = contexts[state.selectedIndex];
              const record = this.registrations.get(commandClass);
              if (typeof record === `undefined`)
                throw new Error(`Assertion failed: Expected the command class to have been registered.`);
              const command = new commandClass();
              command.context = context;
              command.path = state.path;
              try {
                for (const [key, { transformer }] of record.specs.entries())
                  command[key] = transformer(record.builder, key, state, context);
                return command;
              } catch (error) {
                error[errorCommandSymbol] = command;
                throw error;
              }
            }
            break;
        }
      }
      async run(input, userContext) {
        var _a, _b;
        let command;
        const context = {
          ..._Cli.defaultContext,
          ...userContext
        };
        const colored = (_a = this.enableColors) !== null && _a !== void 0 ? _a : context.colorDepth > 1;
        if (!Array.isArray(input)) {
          command = input;
        } else {
          try {
            command = this.process(input, context);
          } catch (error) {
            context.stdout.write(this.error(error, { colored }));
            return 1;
          }
        }
        if (command.help) {
          context.stdout.write(this.usage(command, { colored, detailed: true }));
          return 0;
        }
        command.context = context;
        command.cli = {
          binaryLabel: this.binaryLabel,
          binaryName: this.binaryName,
          binaryVersion: this.binaryVersion,
          enableCapture: this.enableCapture,
          enableColors: this.enableColors,
          definitions: () => this.definitions(),
          error: (error, opts) => this.error(error, opts),
          format: (colored2) => this.format(colored2),
          process: (input2, subContext) => this.process(input2, { ...context, ...subContext }),
          run: (input2, subContext) => this.run(input2, { ...context, ...subContext }),
          usage: (command2, opts) => this.usage(command2, opts)
        };
        const activate = this.enableCapture ? (_b = platform.getCaptureActivator(context)) !== null && _b !== void 0 ? _b : noopCaptureActivator : noopCaptureActivator;
        let exitCode;
        try {
          exitCode = await activate(() => command.validateAndExecute().catch((error) => command.catch(error).then(() => 0)));
        } catch (error) {
          context.stdout.write(this.error(error, { colored, command }));
          return 1;
        }
        return exitCode;
      }
      async runExit(input, context) {
        process.exitCode = await this.run(input, context);
      }
      suggest(input, partial) {
        const { suggest } = this.builder.compile();
        return suggest(input, partial);
      }
      definitions({ colored = false } = {}) {
        const data = [];
        for (const [commandClass, { index }] of this.registrations) {
          if (typeof commandClass.usage === `undefined`)
            continue;
          const { usage: path } = this.getUsageByIndex(index, { detailed: false });
          const { usage, options } = this.getUsageByIndex(index, { detailed: true, inlineOptions: false });
          const category = typeof commandClass.usage.category !== `undefined` ? format.formatMarkdownish(commandClass.usage.category, { format: this.format(colored), paragraphs: false }) : void 0;
          const description = typeof commandClass.usage.description !== `undefined` ? format.formatMarkdownish(commandClass.usage.description, { format: this.format(colored), paragraphs: false }) : void 0;
          const details = typeof commandClass.usage.details !== `undefined` ? format.formatMarkdownish(commandClass.usage.details, { format: this.format(colored), paragraphs: true }) : void 0;
          const examples = typeof commandClass.usage.examples !== `undefined` ? commandClass.usage.examples.map(([label, cli]) => [format.formatMarkdownish(label, { format: this.format(colored), paragraphs: false }), cli.replace(/\$0/g, this.binaryName)]) : void 0;
          data.push({ path, usage, category, description, details, examples, options });
        }
        return data;
      }
      usage(command = null, { colored, detailed = false, prefix = `$ ` } = {}) {
        var _a;
        if (command === null) {
          for (const commandClass2 of this.registrations.keys()) {
            const paths = commandClass2.paths;
            const isDocumented = typeof commandClass2.usage !== `undefined`;
            const isExclusivelyDefault = !paths || paths.length === 0 || paths.length === 1 && paths[0].length === 0;
            const isDefault = isExclusivelyDefault || ((_a = paths === null || paths === void 0 ? void 0 : paths.some((path) => path.length === 0)) !== null && _a !== void 0 ? _a : false);
            if (isDefault) {
              if (command) {
                command = null;
                break;
              } else {
                command = commandClass2;
              }
            } else {
              if (isDocumented) {
                command = null;
                continue;
              }
            }
          }
          if (command) {
            detailed = true;
          }
        }
        const commandClass = command !== null && command instanceof advanced_Command.Command ? command.constructor : command;
        let result = ``;
        if (!commandClass) {
          const commandsByCategories = /* @__PURE__ */ new Map();
          for (const [commandClass2, { index }] of this.registrations.entries()) {
            if (typeof commandClass2.usage === `undefined`)
              continue;
            const category = typeof commandClass2.usage.category !== `undefined` ? format.formatMarkdownish(commandClass2.usage.category, { format: this.format(colored), paragraphs: false }) : null;
            let categoryCommands = commandsByCategories.get(category);
            if (typeof categoryCommands === `undefined`)
              commandsByCategories.set(category, categoryCommands = []);
            const { usage } = this.getUsageByIndex(index);
            categoryCommands.push({ commandClass: commandClass2, usage });
          }
          const categoryNames = Array.from(commandsByCategories.keys()).sort((a, b) => {
            if (a === null)
              return -1;
            if (b === null)
              return 1;
            return a.localeCompare(b, `en`, { usage: `sort`, caseFirst: `upper` });
          });
          const hasLabel = typeof this.binaryLabel !== `undefined`;
          const hasVersion = typeof this.binaryVersion !== `undefined`;
          if (hasLabel || hasVersion) {
            if (hasLabel && hasVersion)
              result += `${this.format(colored).header(`${this.binaryLabel} - ${this.binaryVersion}`)}

`;
            else if (hasLabel)
              result += `${this.format(colored).header(`${this.binaryLabel}`)}
`;
            else
              result += `${this.format(colored).header(`${this.binaryVersion}`)}
`;
            result += `  ${this.format(colored).bold(prefix)}${this.binaryName} <command>
`;
          } else {
            result += `${this.format(colored).bold(prefix)}${this.binaryName} <command>
`;
          }
          for (const categoryName of categoryNames) {
            const commands = commandsByCategories.get(categoryName).slice().sort((a, b) => {
              return a.usage.localeCompare(b.usage, `en`, { usage: `sort`, caseFirst: `upper` });
            });
            const header2 = categoryName !== null ? categoryName.trim() : `General commands`;
            result += `
`;
            result += `${this.format(colored).header(`${header2}`)}
`;
            for (const { commandClass: commandClass2, usage } of commands) {
              const doc = commandClass2.usage.description || `undocumented`;
              result += `
`;
              result += `  ${this.format(colored).bold(usage)}
`;
              result += `    ${format.formatMarkdownish(doc, { format: this.format(colored), paragraphs: false })}`;
            }
          }
          result += `
`;
          result += format.formatMarkdownish(`You can also print more details about any of these commands by calling them with the \`-h,--help\` flag right after the command name.`, { format: this.format(colored), paragraphs: true });
        } else {
          if (!detailed) {
            const { usage } = this.getUsageByRegistration(commandClass);
            result += `${this.format(colored).bold(prefix)}${usage}
`;
          } else {
            const { description = ``, details = ``, examples = [] } = commandClass.usage || {};
            if (description !== ``) {
              result += format.formatMarkdownish(description, { format: this.format(colored), paragraphs: false }).replace(/^./, ($0) => $0.toUpperCase());
              result += `
`;
            }
            if (details !== `` || examples.length > 0) {
              result += `${this.format(colored).header(`Usage`)}
`;
              result += `
`;
            }
            const { usage, options } = this.getUsageByRegistration(commandClass, { inlineOptions: false });
            result += `${this.format(colored).bold(prefix)}${usage}
`;
            if (options.length > 0) {
              result += `
`;
              result += `${this.format(colored).header(`Options`)}
`;
              const maxDefinitionLength = options.reduce((length, option) => {
                return Math.max(length, option.definition.length);
              }, 0);
              result += `
`;
              for (const { definition, description: description2 } of options) {
                result += `  ${this.format(colored).bold(definition.padEnd(maxDefinitionLength))}    ${format.formatMarkdownish(description2, { format: this.format(colored), paragraphs: false })}`;
              }
            }
            if (details !== ``) {
              result += `
`;
              result += `${this.format(colored).header(`Details`)}
`;
              result += `
`;
              result += format.formatMarkdownish(details, { format: this.format(colored), paragraphs: true });
            }
            if (examples.length > 0) {
              result += `
`;
              result += `${this.format(colored).header(`Examples`)}
`;
              for (const [description2, example] of examples) {
                result += `
`;
                result += format.formatMarkdownish(description2, { format: this.format(colored), paragraphs: false });
                result += `${example.replace(/^/m, `  ${this.format(colored).bold(prefix)}`).replace(/\$0/g, this.binaryName)}
`;
              }
            }
          }
        }
        return result;
      }
      error(error, _a) {
        var _b;
        var { colored, command = (_b = error[errorCommandSymbol]) !== null && _b !== void 0 ? _b : null } = _a === void 0 ? {} : _a;
        if (!error || typeof error !== `object` || !(`stack` in error))
          error = new Error(`Execution failed with a non-error rejection (rejected value: ${JSON.stringify(error)})`);
        let result = ``;
        let name = error.name.replace(/([a-z])([A-Z])/g, `$1 $2`);
        if (name === `Error`)
          name = `Internal Error`;
        result += `${this.format(colored).error(name)}: ${error.message}
`;
        const meta = error.clipanion;
        if (typeof meta !== `undefined`) {
          if (meta.type === `usage`) {
            result += `
`;
            result += this.usage(command);
          }
        } else {
          if (error.stack) {
            result += `${error.stack.replace(/^.*\n/, ``)}
`;
          }
        }
        return result;
      }
      format(colored) {
        var _a;
        return ((_a = colored !== null && colored !== void 0 ? colored : this.enableColors) !== null && _a !== void 0 ? _a : _Cli.defaultContext.colorDepth > 1) ? format.richFormat : format.textFormat;
      }
      getUsageByRegistration(klass, opts) {
        const record = this.registrations.get(klass);
        if (typeof record === `undefined`)
          throw new Error(`Assertion failed: Unregistered command`);
        return this.getUsageByIndex(record.index, opts);
      }
      getUsageByIndex(n, opts) {
        return this.builder.getBuilderByIndex(n).usage(opts);
      }
    };
    Cli2.defaultContext = {
      env: process.env,
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      colorDepth: platform.getDefaultColorDepth()
    };
    function noopCaptureActivator(fn) {
      return fn();
    }
    exports.Cli = Cli2;
    exports.run = run;
    exports.runExit = runExit;
  }
});

// node_modules/clipanion/lib/advanced/builtins/definitions.js
var require_definitions = __commonJS({
  "node_modules/clipanion/lib/advanced/builtins/definitions.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var advanced_Command = require_Command();
    var DefinitionsCommand = class extends advanced_Command.Command {
      async execute() {
        this.context.stdout.write(`${JSON.stringify(this.cli.definitions(), null, 2)}
`);
      }
    };
    DefinitionsCommand.paths = [[`--clipanion=definitions`]];
    exports.DefinitionsCommand = DefinitionsCommand;
  }
});

// node_modules/clipanion/lib/advanced/builtins/help.js
var require_help = __commonJS({
  "node_modules/clipanion/lib/advanced/builtins/help.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var advanced_Command = require_Command();
    var HelpCommand = class extends advanced_Command.Command {
      async execute() {
        this.context.stdout.write(this.cli.usage());
      }
    };
    HelpCommand.paths = [[`-h`], [`--help`]];
    exports.HelpCommand = HelpCommand;
  }
});

// node_modules/clipanion/lib/advanced/builtins/version.js
var require_version = __commonJS({
  "node_modules/clipanion/lib/advanced/builtins/version.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var advanced_Command = require_Command();
    var VersionCommand = class extends advanced_Command.Command {
      async execute() {
        var _a;
        this.context.stdout.write(`${(_a = this.cli.binaryVersion) !== null && _a !== void 0 ? _a : `<unknown>`}
`);
      }
    };
    VersionCommand.paths = [[`-v`], [`--version`]];
    exports.VersionCommand = VersionCommand;
  }
});

// node_modules/clipanion/lib/advanced/builtins/index.js
var require_builtins = __commonJS({
  "node_modules/clipanion/lib/advanced/builtins/index.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var advanced_builtins_definitions = require_definitions();
    var advanced_builtins_help = require_help();
    var advanced_builtins_version = require_version();
    exports.DefinitionsCommand = advanced_builtins_definitions.DefinitionsCommand;
    exports.HelpCommand = advanced_builtins_help.HelpCommand;
    exports.VersionCommand = advanced_builtins_version.VersionCommand;
  }
});

// node_modules/clipanion/lib/advanced/options/Array.js
var require_Array = __commonJS({
  "node_modules/clipanion/lib/advanced/options/Array.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var advanced_options_utils = require_utils();
    function Array2(descriptor, initialValueBase, optsBase) {
      const [initialValue, opts] = advanced_options_utils.rerouteArguments(initialValueBase, optsBase !== null && optsBase !== void 0 ? optsBase : {});
      const { arity = 1 } = opts;
      const optNames = descriptor.split(`,`);
      const nameSet = new Set(optNames);
      return advanced_options_utils.makeCommandOption({
        definition(builder) {
          builder.addOption({
            names: optNames,
            arity,
            hidden: opts === null || opts === void 0 ? void 0 : opts.hidden,
            description: opts === null || opts === void 0 ? void 0 : opts.description,
            required: opts.required
          });
        },
        transformer(builder, key, state) {
          let usedName;
          let currentValue = typeof initialValue !== `undefined` ? [...initialValue] : void 0;
          for (const { name, value } of state.options) {
            if (!nameSet.has(name))
              continue;
            usedName = name;
            currentValue = currentValue !== null && currentValue !== void 0 ? currentValue : [];
            currentValue.push(value);
          }
          if (typeof currentValue !== `undefined`) {
            return advanced_options_utils.applyValidator(usedName !== null && usedName !== void 0 ? usedName : key, currentValue, opts.validator);
          } else {
            return currentValue;
          }
        }
      });
    }
    exports.Array = Array2;
  }
});

// node_modules/clipanion/lib/advanced/options/Boolean.js
var require_Boolean = __commonJS({
  "node_modules/clipanion/lib/advanced/options/Boolean.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var advanced_options_utils = require_utils();
    function Boolean2(descriptor, initialValueBase, optsBase) {
      const [initialValue, opts] = advanced_options_utils.rerouteArguments(initialValueBase, optsBase !== null && optsBase !== void 0 ? optsBase : {});
      const optNames = descriptor.split(`,`);
      const nameSet = new Set(optNames);
      return advanced_options_utils.makeCommandOption({
        definition(builder) {
          builder.addOption({
            names: optNames,
            allowBinding: false,
            arity: 0,
            hidden: opts.hidden,
            description: opts.description,
            required: opts.required
          });
        },
        transformer(builer, key, state) {
          let currentValue = initialValue;
          for (const { name, value } of state.options) {
            if (!nameSet.has(name))
              continue;
            currentValue = value;
          }
          return currentValue;
        }
      });
    }
    exports.Boolean = Boolean2;
  }
});

// node_modules/clipanion/lib/advanced/options/Counter.js
var require_Counter = __commonJS({
  "node_modules/clipanion/lib/advanced/options/Counter.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var advanced_options_utils = require_utils();
    function Counter(descriptor, initialValueBase, optsBase) {
      const [initialValue, opts] = advanced_options_utils.rerouteArguments(initialValueBase, optsBase !== null && optsBase !== void 0 ? optsBase : {});
      const optNames = descriptor.split(`,`);
      const nameSet = new Set(optNames);
      return advanced_options_utils.makeCommandOption({
        definition(builder) {
          builder.addOption({
            names: optNames,
            allowBinding: false,
            arity: 0,
            hidden: opts.hidden,
            description: opts.description,
            required: opts.required
          });
        },
        transformer(builder, key, state) {
          let currentValue = initialValue;
          for (const { name, value } of state.options) {
            if (!nameSet.has(name))
              continue;
            currentValue !== null && currentValue !== void 0 ? currentValue : currentValue = 0;
            if (!value) {
              currentValue = 0;
            } else {
              currentValue += 1;
            }
          }
          return currentValue;
        }
      });
    }
    exports.Counter = Counter;
  }
});

// node_modules/clipanion/lib/advanced/options/Proxy.js
var require_Proxy = __commonJS({
  "node_modules/clipanion/lib/advanced/options/Proxy.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var advanced_options_utils = require_utils();
    function Proxy(opts = {}) {
      return advanced_options_utils.makeCommandOption({
        definition(builder, key) {
          var _a;
          builder.addProxy({
            name: (_a = opts.name) !== null && _a !== void 0 ? _a : key,
            required: opts.required
          });
        },
        transformer(builder, key, state) {
          return state.positionals.map(({ value }) => value);
        }
      });
    }
    exports.Proxy = Proxy;
  }
});

// node_modules/clipanion/lib/advanced/options/Rest.js
var require_Rest = __commonJS({
  "node_modules/clipanion/lib/advanced/options/Rest.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var core = require_core();
    var advanced_options_utils = require_utils();
    function Rest(opts = {}) {
      return advanced_options_utils.makeCommandOption({
        definition(builder, key) {
          var _a;
          builder.addRest({
            name: (_a = opts.name) !== null && _a !== void 0 ? _a : key,
            required: opts.required
          });
        },
        transformer(builder, key, state) {
          const isRestPositional = (index) => {
            const positional = state.positionals[index];
            if (positional.extra === core.NoLimits)
              return true;
            if (positional.extra === false && index < builder.arity.leading.length)
              return true;
            return false;
          };
          let count = 0;
          while (count < state.positionals.length && isRestPositional(count))
            count += 1;
          return state.positionals.splice(0, count).map(({ value }) => value);
        }
      });
    }
    exports.Rest = Rest;
  }
});

// node_modules/clipanion/lib/advanced/options/String.js
var require_String = __commonJS({
  "node_modules/clipanion/lib/advanced/options/String.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var core = require_core();
    var advanced_options_utils = require_utils();
    function StringOption(descriptor, initialValueBase, optsBase) {
      const [initialValue, opts] = advanced_options_utils.rerouteArguments(initialValueBase, optsBase !== null && optsBase !== void 0 ? optsBase : {});
      const { arity = 1 } = opts;
      const optNames = descriptor.split(`,`);
      const nameSet = new Set(optNames);
      return advanced_options_utils.makeCommandOption({
        definition(builder) {
          builder.addOption({
            names: optNames,
            arity: opts.tolerateBoolean ? 0 : arity,
            hidden: opts.hidden,
            description: opts.description,
            required: opts.required
          });
        },
        transformer(builder, key, state, context) {
          let usedName;
          let currentValue = initialValue;
          if (typeof opts.env !== `undefined` && context.env[opts.env]) {
            usedName = opts.env;
            currentValue = context.env[opts.env];
          }
          for (const { name, value } of state.options) {
            if (!nameSet.has(name))
              continue;
            usedName = name;
            currentValue = value;
          }
          if (typeof currentValue === `string`) {
            return advanced_options_utils.applyValidator(usedName !== null && usedName !== void 0 ? usedName : key, currentValue, opts.validator);
          } else {
            return currentValue;
          }
        }
      });
    }
    function StringPositional(opts = {}) {
      const { required = true } = opts;
      return advanced_options_utils.makeCommandOption({
        definition(builder, key) {
          var _a;
          builder.addPositional({
            name: (_a = opts.name) !== null && _a !== void 0 ? _a : key,
            required: opts.required
          });
        },
        transformer(builder, key, state) {
          var _a;
          for (let i = 0; i < state.positionals.length; ++i) {
            if (state.positionals[i].extra === core.NoLimits)
              continue;
            if (required && state.positionals[i].extra === true)
              continue;
            if (!required && state.positionals[i].extra === false)
              continue;
            const [positional] = state.positionals.splice(i, 1);
            return advanced_options_utils.applyValidator((_a = opts.name) !== null && _a !== void 0 ? _a : key, positional.value, opts.validator);
          }
          return void 0;
        }
      });
    }
    function String2(descriptor, ...args) {
      if (typeof descriptor === `string`) {
        return StringOption(descriptor, ...args);
      } else {
        return StringPositional(descriptor);
      }
    }
    exports.String = String2;
  }
});

// node_modules/clipanion/lib/advanced/options/index.js
var require_options = __commonJS({
  "node_modules/clipanion/lib/advanced/options/index.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var advanced_options_utils = require_utils();
    var advanced_options_Array = require_Array();
    var advanced_options_Boolean = require_Boolean();
    var advanced_options_Counter = require_Counter();
    var advanced_options_Proxy = require_Proxy();
    var advanced_options_Rest = require_Rest();
    var advanced_options_String = require_String();
    exports.applyValidator = advanced_options_utils.applyValidator;
    exports.cleanValidationError = advanced_options_utils.cleanValidationError;
    exports.formatError = advanced_options_utils.formatError;
    exports.isOptionSymbol = advanced_options_utils.isOptionSymbol;
    exports.makeCommandOption = advanced_options_utils.makeCommandOption;
    exports.rerouteArguments = advanced_options_utils.rerouteArguments;
    exports.Array = advanced_options_Array.Array;
    exports.Boolean = advanced_options_Boolean.Boolean;
    exports.Counter = advanced_options_Counter.Counter;
    exports.Proxy = advanced_options_Proxy.Proxy;
    exports.Rest = advanced_options_Rest.Rest;
    exports.String = advanced_options_String.String;
  }
});

// node_modules/clipanion/lib/advanced/index.js
var require_advanced = __commonJS({
  "node_modules/clipanion/lib/advanced/index.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    var errors = require_errors();
    var format = require_format();
    var advanced_Command = require_Command();
    var advanced_Cli = require_Cli();
    var advanced_builtins_index = require_builtins();
    var advanced_options_index = require_options();
    exports.UsageError = errors.UsageError;
    exports.formatMarkdownish = format.formatMarkdownish;
    exports.Command = advanced_Command.Command;
    exports.Cli = advanced_Cli.Cli;
    exports.run = advanced_Cli.run;
    exports.runExit = advanced_Cli.runExit;
    exports.Builtins = advanced_builtins_index;
    exports.Option = advanced_options_index;
  }
});

// dist/cli/index.js
var import_clipanion16 = __toESM(require_advanced(), 1);

// dist/cli/commands/daemon.js
var import_clipanion2 = __toESM(require_advanced(), 1);

// dist/cli/options.js
var import_clipanion = __toESM(require_advanced(), 1);
var AgentCommand = class extends import_clipanion.Command {
  configPath = import_clipanion.Option.String("--config", { description: "Config file (default: $XDG_CONFIG_HOME/media-agent/config.toml)" });
  logLevel = import_clipanion.Option.String("--log-level", { description: `One of ${logLevels.join(", ")} (default: info)` });
  level() {
    const level = this.logLevel ?? "info";
    if (!logLevels.includes(level))
      throw new import_clipanion.UsageError(`--log-level must be one of ${logLevels.join(", ")}, not "${this.logLevel}"`);
    return level;
  }
};

// dist/config/load.js
import { readFile } from "node:fs/promises";
import { homedir as osHomedir2 } from "node:os";
import { resolve } from "node:path";

// node_modules/smol-toml/dist/error.js
function getLineColFromPtr(string, ptr) {
  let lines = string.slice(0, ptr).split(/\r?\n/);
  return [lines.length, lines.pop().length + 1];
}
function makeCodeBlock(string, line, column) {
  let lines = string.split(/\r?\n/);
  let codeblock = "";
  let numberLen = (Math.log10(line + 1) | 0) + 1;
  for (let i = line - 1; i <= line + 1; i++) {
    let l = lines[i - 1];
    if (!l)
      continue;
    codeblock += i.toString().padEnd(numberLen, " ");
    codeblock += ":  ";
    codeblock += l;
    codeblock += "\n";
    if (i === line) {
      codeblock += " ".repeat(numberLen + column + 2);
      codeblock += "^\n";
    }
  }
  return codeblock;
}
var TomlError = class _TomlError extends Error {
  line;
  column;
  codeblock;
  constructor(message, options) {
    const [line, column] = getLineColFromPtr(options.toml, options.ptr);
    const codeblock = makeCodeBlock(options.toml, line, column);
    super(`Invalid TOML document: ${message}

${codeblock}`, options);
    this.line = line;
    this.column = column;
    this.codeblock = codeblock;
  }
  /** @internal */
  static x(message, ctx, ptr) {
    throw new _TomlError(message, { toml: ctx.s, ptr: ptr ?? ctx.p });
  }
};

// node_modules/smol-toml/dist/primitive.js
function parseString(ctx) {
  let startPtr = ctx.p;
  let c = ctx.s.charCodeAt(ctx.p++);
  let first = c;
  let isLiteral = c === 39;
  let isMultiline = c === ctx.s.charCodeAt(ctx.p) && c === ctx.s.charCodeAt(ctx.p + 1);
  if (isMultiline) {
    if ((c = ctx.s.charCodeAt(ctx.p += 2)) === 10)
      ctx.p++;
    else if (c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10)
      ctx.p += 2;
  }
  let parsed = "";
  let sliceStart = ctx.p;
  let state = 0;
  for (; ctx.p < ctx.s.length; ctx.p++) {
    c = ctx.s.charCodeAt(ctx.p);
    if (isMultiline && (c === 10 || c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10)) {
      state = state && 3;
    } else if (c < 32 && c !== 9 || c === 127) {
      TomlError.x("control characters are not allowed in strings", ctx);
    } else if ((!state || state === 3) && c === first && (!isMultiline || ctx.s.charCodeAt(ctx.p + 1) === first && ctx.s.charCodeAt(ctx.p + 2) === first)) {
      if (isMultiline) {
        if (ctx.s.charCodeAt(ctx.p + 3) === first)
          ctx.p++;
        if (ctx.s.charCodeAt(ctx.p + 3) === first)
          ctx.p++;
      }
      if (!state) {
        let s = ctx.s.slice(sliceStart, ctx.p);
        parsed = parsed ? parsed + s : s;
      }
      ctx.p += isMultiline ? 3 : 1;
      return parsed;
    } else if (!state) {
      if (!isLiteral && c === 92) {
        parsed += ctx.s.slice(sliceStart, sliceStart = ctx.p);
        state = 1;
      }
    } else if (state === 1) {
      if (c === 120 || c === 117 || c === 85) {
        let errPtr = ctx.p++ - 1;
        let value = 0;
        let len = c === 120 ? 2 : c === 117 ? 4 : 8;
        for (let j = 0; j < len; j++, ctx.p++) {
          let hex = ctx.s.charCodeAt(ctx.p);
          let digit = (
            /* 0-9 */
            hex >= 48 && hex <= 57 ? hex - 48 : (
              /* A-F */
              hex >= 65 && hex <= 70 ? hex - 65 + 10 : (
                /* a-f */
                hex >= 97 && hex <= 102 ? hex - 97 + 10 : -1
              )
            )
          );
          if (digit < 0)
            TomlError.x("invalid non-hex character in unicode escape", ctx);
          value = value << 4 | digit;
        }
        if (value < 0 || value > 1114111 || value >= 55296 && value <= 57343) {
          TomlError.x("invalid unicode escape", ctx, errPtr);
        }
        parsed += String.fromCodePoint(value);
        sliceStart = ctx.p--;
        state = 0;
      } else if (isMultiline && (c === 32 || c === 9)) {
        state = 2;
      } else {
        if (c === 98)
          parsed += "\b";
        else if (c === 116)
          parsed += "	";
        else if (c === 110)
          parsed += "\n";
        else if (c === 102)
          parsed += "\f";
        else if (c === 114)
          parsed += "\r";
        else if (c === 101)
          parsed += "\x1B";
        else if (c === 34)
          parsed += '"';
        else if (c === 92)
          parsed += "\\";
        else
          TomlError.x("unrecognised escape sequence", ctx);
        sliceStart = ctx.p + 1;
        state = 0;
      }
    } else if (c !== 32 && c !== 9) {
      if (state === 2)
        TomlError.x("invalid escape: only line-ending whitespace may be escaped", ctx, sliceStart);
      state = !isLiteral && c === 92 ? 1 : 0;
      sliceStart = ctx.p;
    }
  }
  TomlError.x("unfinished string", ctx, startPtr);
}

// node_modules/smol-toml/dist/date.js
var DATE_TIME_RE = /^(\d{4}-\d{2}-\d{2})?[Tt ]?(?:(\d{2}):\d{2}(?::\d{2}(?:\.\d+)?)?)?(Z|z|[-+]\d{2}:\d{2})?$/i;
var TomlDate = class _TomlDate extends Date {
  #hasDate = false;
  #hasTime = false;
  #offset = null;
  constructor(date, fasttype, unsafeDelim) {
    let hasDate = true;
    let hasTime = true;
    let offset = "Z";
    let c;
    if (typeof date === "string") {
      if (fasttype)
        prep: {
          if (fasttype < 3) {
            if (+date.slice(11, 13) > 23) {
              date = "";
              break prep;
            }
            if (fasttype === 2) {
              offset = null;
              date += "Z";
            } else if ((c = date.charCodeAt(date.length - 1)) !== 90 && c !== 122) {
              offset = date.slice(date.length - 6);
            }
            if (unsafeDelim)
              date = date.slice(0, 10) + "T" + date.slice(11);
          } else if (fasttype === 4) {
            date = +date.slice(0, 2) > 23 ? "" : `0000-01-01T${date}Z`;
          }
          hasDate = fasttype !== 4;
          hasTime = fasttype !== 3;
        }
      else {
        let match = date.match(DATE_TIME_RE);
        if (match) {
          if (!match[1]) {
            hasDate = false;
            date = `0000-01-01T${date}`;
          }
          hasTime = !!match[2];
          hasTime && date[10] === " " && (date = date.replace(" ", "T"));
          if (match[2] && +match[2] > 23) {
            date = "";
          } else {
            offset = match[3] || null;
            if (!offset && hasTime)
              date += "Z";
          }
        } else {
          date = "";
        }
      }
    }
    super(date);
    if (!isNaN(this.getTime())) {
      this.#hasDate = hasDate;
      this.#hasTime = hasTime;
      this.#offset = offset;
    }
  }
  isDateTime() {
    return this.#hasDate && this.#hasTime;
  }
  isLocal() {
    return !this.#hasDate || !this.#hasTime || !this.#offset;
  }
  isDate() {
    return this.#hasDate && !this.#hasTime;
  }
  isTime() {
    return this.#hasTime && !this.#hasDate;
  }
  isValid() {
    return this.#hasDate || this.#hasTime;
  }
  toISOString() {
    let iso = super.toISOString();
    if (this.isDate())
      return iso.slice(0, 10);
    if (this.isTime())
      return iso.slice(11, 23);
    if (this.#offset === null)
      return iso.slice(0, -1);
    if (this.#offset === "Z" || this.#offset === "z")
      return iso;
    let offset = +this.#offset.slice(1, 3) * 60 + +this.#offset.slice(4, 6);
    offset = this.#offset[0] === "-" ? offset : -offset;
    let offsetDate = new Date(this.getTime() - offset * 6e4);
    return offsetDate.toISOString().slice(0, -1) + this.#offset;
  }
  static wrapAsOffsetDateTime(jsDate, offset = "Z") {
    let date = new _TomlDate(jsDate);
    date.#offset = offset;
    return date;
  }
  static wrapAsLocalDateTime(jsDate) {
    let date = new _TomlDate(jsDate);
    date.#offset = null;
    return date;
  }
  static wrapAsLocalDate(jsDate) {
    let date = new _TomlDate(jsDate);
    date.#hasTime = false;
    date.#offset = null;
    return date;
  }
  static wrapAsLocalTime(jsDate) {
    let date = new _TomlDate(jsDate);
    date.#hasDate = false;
    date.#offset = null;
    return date;
  }
};

// node_modules/smol-toml/dist/extract.js
function isDigit(char, base = 10) {
  return base === 16 ? char > 47 && char < 58 || char > 64 && char < 71 || char > 96 && char < 103 : char > 47 && char < 48 + base;
}
function isEndOfValue(char, delim) {
  return char === 32 || char === 9 || char === 10 || char === 13 || // Structure end or next value delimiter
  delim && (char === delim || char === 44) || // Comment
  char === 35;
}
function extractValue(ctx, end) {
  let errPtr = ctx.p;
  let c = ctx.s.charCodeAt(ctx.p);
  if (c === 91 || c === 123) {
    ctx.d-- || TomlError.x("document contains excessively nested structures. aborting.", ctx);
    let value = c === 91 ? parseArray(ctx) : parseInlineTable(ctx);
    ctx.d++;
    return value;
  }
  if (c === 34 || c === 39) {
    return parseString(ctx);
  }
  if (c === 116) {
    if (ctx.s.charCodeAt(++ctx.p) !== 114 || ctx.s.charCodeAt(++ctx.p) !== 117 || ctx.s.charCodeAt(++ctx.p) !== 101)
      TomlError.x("invalid value", ctx, errPtr);
    return ctx.p++, true;
  }
  if (c === 102) {
    if (ctx.s.charCodeAt(++ctx.p) !== 97 || ctx.s.charCodeAt(++ctx.p) !== 108 || ctx.s.charCodeAt(++ctx.p) !== 115 || ctx.s.charCodeAt(++ctx.p) !== 101)
      TomlError.x("invalid value", ctx, errPtr);
    return ctx.p++, false;
  }
  if (c === 43 || c === 45) {
    return parseNumber(ctx, ctx.p, ctx.s.charCodeAt(++ctx.p), 44 - c, end);
  }
  if (ctx.s.charCodeAt(ctx.p + 4) === 45 && ctx.s.charCodeAt(ctx.p + 7) === 45) {
    return parseDate(ctx, c, end);
  }
  if (ctx.s.charCodeAt(ctx.p + 2) === 58) {
    return parseTime(ctx, c, end);
  }
  return parseNumber(ctx, ctx.p, c, 0, end);
}
function parseNumber(ctx, startPtr, startChr, sign, endChr) {
  let c = startChr;
  let state = 0;
  let hasUnderscores = false;
  if (c === 105) {
    if (ctx.s.charCodeAt(++ctx.p) !== 110 || ctx.s.charCodeAt(++ctx.p) !== 102)
      TomlError.x("invalid value", ctx, startPtr);
    return ctx.p++, (sign || 1) / 0;
  }
  if (c === 110) {
    if (ctx.s.charCodeAt(++ctx.p) !== 97 || ctx.s.charCodeAt(++ctx.p) !== 110)
      TomlError.x("invalid value", ctx, startPtr);
    return ctx.p++, NaN;
  }
  if (c === 48) {
    if (++ctx.p >= ctx.s.length || isEndOfValue(c = ctx.s.charCodeAt(ctx.p), endChr))
      return ctx.bi === true ? 0n : 0;
    if (!sign) {
      if (c === 120)
        return parseIntegerBaseN(ctx, startPtr, 16, endChr);
      else if (c === 98)
        return parseIntegerBaseN(ctx, startPtr, 2, endChr);
      else if (c === 111)
        return parseIntegerBaseN(ctx, startPtr, 8, endChr);
    }
    if (c === 46)
      state = 2;
    else if (c === 101 || c === 69)
      state = 4;
    else
      TomlError.x("illegal leading zero", ctx, startPtr);
  } else if (!isDigit(c))
    TomlError.x("invalid value", ctx, startPtr);
  while (++ctx.p < ctx.s.length && (c = ctx.s.charCodeAt(ctx.p), !isEndOfValue(c, endChr))) {
    if (!state)
      state = 1;
    if (c === 95) {
      if (!(state & 1))
        TomlError.x("illegal underscore", ctx);
      state += 11;
      hasUnderscores = true;
    } else if (state === 1 && c === 46)
      state = 2;
    else if ((state === 1 || state === 3) && (c === 101 || c === 69))
      state = 4;
    else if (state === 4 && (c === 43 || c === 45)) {
      state = 6;
    } else if (!isDigit(c))
      TomlError.x(`illegal character in numeric literal`, ctx);
    else if (state > 9)
      state -= 11;
    else if (!(state & 1))
      state++;
  }
  if (!state) {
    let val = (startChr - 48) * (sign || 1);
    return ctx.bi === true ? BigInt(val) : val;
  }
  if (!(state & 1))
    TomlError.x("unfinished numeric value", ctx, startPtr);
  let str = ctx.s.slice(startPtr, ctx.p);
  if (hasUnderscores)
    str = str.replaceAll("_", "");
  return state > 1 ? parseFloat(str) : parseInteger(ctx, str, 10, startPtr);
}
function parseIntegerBaseN(ctx, startPtr, base, endChr) {
  let c, underscore = 1;
  while (++ctx.p < ctx.s.length && (c = ctx.s.charCodeAt(ctx.p), !isEndOfValue(c, endChr))) {
    if (c === 95) {
      if (underscore & 1)
        TomlError.x("illegal underscore", ctx);
      underscore = 3;
    } else if (!isDigit(c, base))
      TomlError.x(`illegal character in numeric literal`, ctx);
    else if (underscore & 1)
      underscore--;
  }
  if (underscore & 1)
    TomlError.x("unfinished numeric value", ctx);
  let str = ctx.s.slice(startPtr + 2, ctx.p);
  if (underscore)
    str = str.replaceAll("_", "");
  return parseInteger(ctx, str, base, startPtr);
}
function parseInteger(ctx, str, base, startPtr) {
  if (ctx.bi !== true)
    int: {
      let val = parseInt(str, base);
      if (!Number.isSafeInteger(val)) {
        if (ctx.bi)
          break int;
        TomlError.x("integer value cannot be represented losslessly", ctx, startPtr);
      }
      return val;
    }
  return base === 10 ? BigInt(str) : BigInt((base === 2 ? "0b" : base === 8 ? "0o" : "0x") + str);
}
function parseDate(ctx, c, endChr) {
  let startPtr = ctx.p++, unsafeSeparator;
  if (!isDigit(c) || !isDigit(ctx.s.charCodeAt(ctx.p++)) || !isDigit(ctx.s.charCodeAt(ctx.p++)) || !isDigit(ctx.s.charCodeAt(ctx.p++))) {
    return parseNumber(ctx, ctx.p = startPtr, c, 0, endChr);
  }
  ctx.p += 5;
  if (!isDigit(ctx.s.charCodeAt(ctx.p++)))
    TomlError.x("invalid date-time: date part is malformed", ctx, startPtr);
  if (ctx.p >= ctx.s.length || ((c = ctx.s.charCodeAt(ctx.p)) !== 32 || (unsafeSeparator = true, !isDigit(ctx.s.charCodeAt(ctx.p + 1)))) && c !== 84 && c !== 116) {
    let t2 = ctx.s.slice(startPtr, ctx.p);
    return readDate(ctx, t2, 3, false, startPtr);
  }
  if (ctx.s.charCodeAt(ctx.p += 3) !== 58)
    TomlError.x("invalid date-time: time part is malformed", ctx, startPtr);
  if (ctx.s.charCodeAt(ctx.p += 3) === 58)
    ctx.p += 3;
  if (ctx.s.charCodeAt(ctx.p) === 46)
    while (isDigit(ctx.s.charCodeAt(++ctx.p)))
      ;
  if (c = ctx.s.charCodeAt(ctx.p)) {
    if (c === 90 || c === 122) {
      let t2 = ctx.s.slice(startPtr, ++ctx.p);
      return readDate(ctx, t2, 1, unsafeSeparator, startPtr, "[+00:00]");
    }
    if (c === 43 || c === 45) {
      let t2 = ctx.s.slice(startPtr, ctx.p += 6);
      return readDate(ctx, t2, 1, unsafeSeparator, startPtr, !ctx.ld && "[" + ctx.s.slice(ctx.p - 6, ctx.p) + "]");
    }
  }
  let t = ctx.s.slice(startPtr, ctx.p);
  return readDate(ctx, t, 2, unsafeSeparator, startPtr);
}
function parseTime(ctx, c, endChr) {
  let start = ctx.p;
  if (!isDigit(c) || !isDigit(ctx.s.charCodeAt(++ctx.p))) {
    return parseNumber(ctx, --ctx.p, c, 0, endChr);
  }
  if (ctx.s.charCodeAt(ctx.p += 4) === 58)
    ctx.p += 3;
  if (ctx.s.charCodeAt(ctx.p) === 46)
    while (isDigit(ctx.s.charCodeAt(++ctx.p)))
      ;
  let t = ctx.s.slice(start, ctx.p);
  return readDate(ctx, t, 4, false, start);
}
function readDate(ctx, str, type, unsafeDelim, errPtr, temporalSuffix) {
  if (ctx.ld) {
    let date = new TomlDate(str, type, unsafeDelim);
    if (!date.isValid())
      TomlError.x("invalid date", ctx, errPtr);
    return date;
  }
  try {
    if (temporalSuffix)
      str += temporalSuffix;
    switch (type) {
      case 1:
        return Temporal.ZonedDateTime.from(str);
      case 2:
        return Temporal.PlainDateTime.from(str);
      case 3:
        return Temporal.PlainDate.from(str);
      case 4:
        return Temporal.PlainTime.from(str);
    }
  } catch (e) {
    TomlError.x(e instanceof Error ? e.message : "" + e, ctx, errPtr);
  }
}

// node_modules/smol-toml/dist/util.js
function skipComment(ctx) {
  for (; ctx.p < ctx.s.length; ctx.p++) {
    let c = ctx.s.charCodeAt(ctx.p);
    if (c === 10)
      break;
    if (c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10) {
      ctx.p++;
      break;
    }
    if (c < 32 && c !== 9 || c === 127) {
      TomlError.x("control characters are not allowed in comments", ctx);
    }
  }
}
function skipVoid(ctx, banNewLines, banComments) {
  let c;
  while (ctx.p < ctx.s.length) {
    while (ctx.p < ctx.s.length && ((c = ctx.s.charCodeAt(ctx.p)) === 32 || c === 9 || !banNewLines && (c === 10 || c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10)))
      ctx.p++;
    if (banComments || c !== 35)
      break;
    skipComment(ctx);
  }
}

// node_modules/smol-toml/dist/struct.js
function parseKey(ctx, end = 61) {
  let startPtr;
  let state = 0;
  let parsed = [];
  let sliceStart;
  let c = ctx.s.charCodeAt(startPtr = ctx.p);
  do {
    if (c === end) {
      if (!state)
        TomlError.x("unexpected end of key", ctx);
      if (state === 1)
        parsed.push(ctx.s.slice(sliceStart, ctx.p));
      return ctx.p++, parsed;
    } else if (c === 46) {
      if (!state)
        TomlError.x("illegal empty bare key", ctx);
      if (state === 1)
        parsed.push(ctx.s.slice(sliceStart, ctx.p));
      state = 0;
    } else if (!state && (c === 34 || c === 39)) {
      if (c === ctx.s.charCodeAt(ctx.p + 1) && c === ctx.s.charCodeAt(ctx.p + 2))
        TomlError.x("illegal quoted key: multiline strings are not allowed", ctx);
      parsed.push(parseString(ctx));
      state = 2;
      ctx.p--;
    } else if (c === 32 || c === 9) {
      if (state === 1) {
        parsed.push(ctx.s.slice(sliceStart, ctx.p));
        state = 2;
      }
    } else if (state === 2 || c < 48 && c !== 45 || c > 57 && c < 65 || c > 90 && c < 97 && c !== 95 || c > 122) {
      TomlError.x("illegal character in key", ctx);
    } else if (!state) {
      state = 1;
      sliceStart = ctx.p;
    }
  } while (c = ctx.s.charCodeAt(++ctx.p));
  TomlError.x("incomplete key-value: cannot find end of key", ctx, startPtr);
}
function parseInlineTable(ctx) {
  let startPtr = ctx.p++;
  let res = /* @__PURE__ */ Object.create(null);
  let seen = /* @__PURE__ */ new Set();
  let c;
  while (ctx.p < ctx.s.length) {
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p)) === 125) {
      ctx.p++;
      return res;
    }
    let k;
    let t = res;
    let hasOwn = false;
    let errPtr = ctx.p;
    let key = parseKey(ctx);
    for (let i = 0; i < key.length; i++) {
      if (i)
        t = hasOwn ? t[k] : t[k] = /* @__PURE__ */ Object.create(null);
      k = key[i];
      if ((hasOwn = Object.hasOwn(t, k)) && (typeof t[k] !== "object" || seen.has(t[k]))) {
        TomlError.x("trying to redefine an already defined value", ctx, errPtr);
      }
      let unsafe = k === "__proto__";
      if (ctx.uk && (unsafe || k === "constructor")) {
        t = ctx.uk !== 1 && TomlError.x("document contains an unsafe property", ctx, errPtr);
        break;
      }
      if (!hasOwn && unsafe) {
        Object.defineProperty(t, k, { enumerable: true, configurable: true, writable: true });
      }
    }
    if (hasOwn) {
      TomlError.x("trying to redefine an already defined value", ctx, errPtr);
    }
    skipVoid(ctx, true, true);
    let value = extractValue(
      ctx,
      125
      /* } */
    );
    if (t && typeof (t[k] = value) === "object")
      seen.add(value);
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p++)) === 125) {
      return res;
    }
    if (c !== 44)
      TomlError.x("expected comma or end of structure", ctx, ctx.p - 1);
  }
  TomlError.x("unfinished table", ctx, startPtr);
}
function parseArray(ctx) {
  let startPtr = ctx.p++;
  let res = [];
  let c;
  while (ctx.p < ctx.s.length) {
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p)) === 93) {
      ctx.p++;
      return res;
    }
    res.push(extractValue(
      ctx,
      93
      /* ] */
    ));
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p++)) === 93) {
      return res;
    }
    if (c !== 44)
      TomlError.x("expected comma or end of structure", ctx, ctx.p - 1);
  }
  TomlError.x("unfinished array", ctx, startPtr);
}

// node_modules/smol-toml/dist/parse.js
function peekTable(ctx, key, table, meta, type) {
  let t = table;
  let m = meta;
  let k;
  let hasOwn = false;
  let state;
  for (let i = 0; i < key.length; i++) {
    if (i) {
      t = hasOwn ? t[k] : t[k] = /* @__PURE__ */ Object.create(null);
      m = (state = m[k]).c;
      if (type === 0 && (state.t === 1 || state.t === 2)) {
        return null;
      }
      if (state.t === 2) {
        let l = t.length - 1;
        t = t[l];
        m = m[l].c;
      }
    }
    k = key[i];
    if ((hasOwn = Object.hasOwn(t, k)) && m[k]?.t === 0 && m[k]?.d) {
      return null;
    }
    if (!hasOwn) {
      let unsafe = k === "__proto__";
      if (ctx.uk && (unsafe || k === "constructor"))
        return false;
      if (unsafe) {
        Object.defineProperty(t, k, { enumerable: true, configurable: true, writable: true });
        Object.defineProperty(m, k, { enumerable: true, configurable: true, writable: true });
      }
      m[k] = {
        t: i < key.length - 1 && type === 2 ? 3 : type,
        d: false,
        i: 0,
        c: /* @__PURE__ */ Object.create(null)
      };
    }
  }
  state = m[k];
  if (state.t !== type && !(type === 1 && state.t === 3)) {
    return null;
  }
  if (type === 2) {
    if (!state.d) {
      state.d = true;
      t[k] = [];
    }
    t[k].push(t = /* @__PURE__ */ Object.create(null));
    state.c[state.i++] = state = { t: 1, d: false, i: 0, c: /* @__PURE__ */ Object.create(null) };
  }
  if (state.d) {
    return null;
  }
  state.d = true;
  if (type === 1) {
    t = hasOwn ? t[k] : t[k] = /* @__PURE__ */ Object.create(null);
  } else if (type === 0 && hasOwn) {
    return null;
  }
  return [k, t, state.c];
}
function validateTablePeek(ctx, peek, ptr) {
  if (peek === null || ctx.uk === 2)
    TomlError.x(peek === null ? "trying to redefine an already defined table or value" : "document contains an unsafe property", ctx, ptr);
}
function parse(toml, options = {}) {
  let ctx = {
    s: toml,
    p: 0,
    d: options.maxDepth ?? 1e3,
    bi: options.integersAsBigInt ?? false,
    ld: options.useLegacyDate ?? true,
    uk: options.unsafeKeyBehaviour === "throw" ? 2 : options.unsafeKeyBehaviour === "drop" ? 1 : 0
  };
  let res = /* @__PURE__ */ Object.create(null);
  let meta = /* @__PURE__ */ Object.create(null);
  let tmp;
  let skipping = false;
  let tbl = res;
  let m = meta;
  if (toml.charCodeAt(0) === 65279)
    ctx.p++;
  skipVoid(ctx);
  while (ctx.p < toml.length) {
    if (toml.charCodeAt(ctx.p) === 91) {
      let isTableArray = toml.charCodeAt(++ctx.p) === 91;
      tmp = ctx.p += +isTableArray;
      skipping = false;
      let k = parseKey(
        ctx,
        93
        /* ] */
      );
      if (isTableArray) {
        if (toml.charCodeAt(ctx.p) !== 93) {
          TomlError.x("expected end of table array declaration", ctx);
        }
        ctx.p++;
      }
      let p = peekTable(
        ctx,
        k,
        res,
        meta,
        isTableArray ? 2 : 1
        /* Type.EXPLICIT */
      );
      if (!p) {
        validateTablePeek(ctx, p, tmp);
        skipping = true;
      } else {
        m = p[2];
        tbl = p[1];
      }
    } else {
      tmp = ctx.p;
      let k = parseKey(ctx);
      let p = peekTable(
        ctx,
        k,
        tbl,
        m,
        0
        /* Type.DOTTED */
      );
      if (!p && !skipping)
        validateTablePeek(ctx, p, tmp);
      skipVoid(ctx, true, true);
      let v = extractValue(ctx, void 0);
      if (p && !skipping)
        p[1][p[0]] = v;
    }
    skipVoid(ctx, true);
    if (ctx.p < toml.length && (tmp = toml.charCodeAt(ctx.p)) !== 10 && (tmp !== 13 || toml.charCodeAt(ctx.p + 1) !== 10)) {
      TomlError.x("each key-value declaration must be followed by an end-of-line", ctx);
    }
    skipVoid(ctx);
  }
  return res;
}

// node_modules/smol-toml/dist/stringify.js
var BARE_KEY = /^[a-z0-9-_]+$/i;
var HAS_WELLFORMED = !!"".isWellFormed;
function extendedTypeOf(obj) {
  let type = typeof obj;
  if (type === "object") {
    if (Array.isArray(obj))
      return "array";
    if (typeof obj.getUTCDate === "function" && obj instanceof Date)
      return "date";
    if (globalThis.Temporal) {
      if (obj.until) {
        if (obj instanceof Temporal.ZonedDateTime)
          return "temporal/tz+uc";
        if (obj instanceof Temporal.PlainDateTime || obj instanceof Temporal.PlainDate)
          return "temporal/uc";
        if (obj instanceof Temporal.PlainTime || obj instanceof Temporal.Instant)
          return "temporal";
        if (obj instanceof Temporal.PlainYearMonth)
          return "temporal/x";
      } else if (obj.toPlainDate && obj instanceof Temporal.PlainMonthDay || obj.negated && obj instanceof Temporal.Duration) {
        return "temporal/x";
      }
    }
  }
  return type;
}
function isArrayOfTables(obj) {
  for (let i = 0; i < obj.length; i++) {
    if (extendedTypeOf(obj[i]) !== "object")
      return false;
  }
  return obj.length != 0;
}
function formatWellFormedStringUnchecked(s) {
  return JSON.stringify(s).replaceAll("\x7F", "\\u007f");
}
function formatString(s) {
  return formatWellFormedStringUnchecked(HAS_WELLFORMED ? s.toWellFormed() : s);
}
function formatKey(s) {
  if (BARE_KEY.test(s))
    return s;
  if (HAS_WELLFORMED && !s.isWellFormed())
    throw new RangeError("key contains illegal lone surrogates");
  return formatWellFormedStringUnchecked(s);
}
function stringifyValue(val, type, depth, numberAsFloat, strictTemporal) {
  if (depth === 0) {
    throw new Error("Could not stringify the object: maximum object depth exceeded");
  }
  switch (type) {
    // @ts-expect-error -- intentional fallthrough case
    case "number":
      if (isNaN(val))
        return "nan";
      if (val === Infinity)
        return "inf";
      if (val === -Infinity)
        return "-inf";
      if (Number.isInteger(val) && (numberAsFloat || !Number.isSafeInteger(val)))
        return val.toFixed(1);
    case "bigint":
    case "boolean":
    case "temporal":
      return val.toString();
    case "string":
      return formatString(val);
    case "date":
      if (isNaN(val.getTime()))
        throw new TypeError("cannot serialize invalid date");
      return val.toISOString();
    case "object":
      return stringifyInlineTable(val, depth, numberAsFloat, strictTemporal);
    case "array":
      return stringifyArray(val, depth, numberAsFloat, strictTemporal);
    // @ts-expect-error -- intentional fallthrough case
    case "temporal/tz+uc":
      if (strictTemporal) {
        let tz = val.timeZoneId;
        let tzc = tz.charCodeAt(0);
        if (
          // Classic offset
          tzc !== 43 && tzc !== 45 && // Fast pre-check pass; see below for the actually accepted values
          (tzc !== 85 && tzc !== 71 && tzc !== 90 && tzc !== 69 || // UTC and its aliases; Temporal implementations don't all canonicalise unfortunately
          tz !== "UTC" && tz !== "UCT" && tz !== "Universal" && tz !== "Zulu" && // GMT is a TZ but it's for all intents and purposes equivalent to UTC. Safe to downgrade.
          !tz.startsWith("GMT") && tz !== "Greenwich" && // Etc/* are all safe to downgrade to offset (either UTC, GMT, or offset)
          !tz.startsWith("Etc/"))
        ) {
          throw new TypeError("Temporal objects with an IANA timezone are not allowed in Temporal strict mode");
        }
      }
    case "temporal/uc":
      if (strictTemporal && val.calendarId !== "iso8601")
        throw new TypeError("Temporal objects with a non-default calendar are not allowed in Temporal strict mode");
      return val.toString({
        calendarName: "never",
        timeZoneName: "never"
      });
    case "temporal/x":
      throw new TypeError("Unsupported " + val[Symbol.toStringTag]);
  }
}
function stringifyInlineTable(obj, depth, numberAsFloat, strictTemporal) {
  let keys = Object.keys(obj);
  if (keys.length === 0)
    return "{}";
  let res = "{ ";
  for (let i = 0; i < keys.length; i++) {
    let k = keys[i];
    if (i)
      res += ", ";
    res += formatKey(k) + " = " + stringifyValue(obj[k], extendedTypeOf(obj[k]), depth - 1, numberAsFloat, strictTemporal);
  }
  return res + " }";
}
function stringifyArray(array, depth, numberAsFloat, strictTemporal) {
  if (array.length === 0)
    return "[]";
  let res = "[ ";
  for (let i = 0; i < array.length; i++) {
    if (i)
      res += ", ";
    if (array[i] === null || array[i] === void 0) {
      throw new TypeError("arrays cannot contain null or undefined values");
    }
    res += stringifyValue(array[i], extendedTypeOf(array[i]), depth - 1, numberAsFloat, strictTemporal);
  }
  return res + " ]";
}
function stringifyArrayTable(array, key, depth, numberAsFloat, strictTemporal) {
  if (depth === 0) {
    throw new Error("Could not stringify the object: maximum object depth exceeded");
  }
  let res = "";
  for (let i = 0; i < array.length; i++) {
    res += `${res && "\n"}[[${key}]]
`;
    res += stringifyTable(0, array[i], key, depth, numberAsFloat, strictTemporal);
  }
  return res;
}
function stringifyTable(tableKey, obj, prefix, depth, numberAsFloat, strictTemporal) {
  if (depth === 0) {
    throw new Error("Could not stringify the object: maximum object depth exceeded");
  }
  let preamble = "";
  let tables = "";
  let keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) {
    let k = keys[i];
    if (obj[k] !== null && obj[k] !== void 0) {
      let type = extendedTypeOf(obj[k]);
      if (type === "symbol" || type === "function") {
        throw new TypeError(`cannot serialize values of type '${type}'`);
      }
      let key = formatKey(k);
      if (type === "array" && isArrayOfTables(obj[k])) {
        tables += (tables && "\n") + stringifyArrayTable(obj[k], prefix ? `${prefix}.${key}` : key, depth - 1, numberAsFloat, strictTemporal);
      } else if (type === "object") {
        let tblKey = prefix ? `${prefix}.${key}` : key;
        tables += (tables && "\n") + stringifyTable(tblKey, obj[k], tblKey, depth - 1, numberAsFloat, strictTemporal);
      } else {
        preamble += key;
        preamble += " = ";
        preamble += stringifyValue(obj[k], type, depth, numberAsFloat, strictTemporal);
        preamble += "\n";
      }
    }
  }
  if (tableKey && (preamble || !tables))
    preamble = preamble ? `[${tableKey}]
${preamble}` : `[${tableKey}]`;
  return preamble && tables ? `${preamble}
${tables}` : preamble || tables;
}
function stringify(obj, { maxDepth: maxDepth2 = 1e3, numbersAsFloat = false, strictTemporal = false } = {}) {
  if (extendedTypeOf(obj) !== "object") {
    throw new TypeError("stringify can only be called with an object");
  }
  let str = stringifyTable(0, obj, "", maxDepth2, numbersAsFloat, strictTemporal);
  if (str[str.length - 1] !== "\n")
    return str + "\n";
  return str;
}

// dist/config/paths.js
import { homedir as osHomedir } from "node:os";
import { isAbsolute, join } from "node:path";
function expandHome(path, homedir3) {
  if (path === "~")
    return homedir3;
  if (path.startsWith("~/") || process.platform === "win32" && path.startsWith("~\\")) {
    return join(homedir3, path.slice(2));
  }
  return path;
}
function xdgBase(env, name) {
  const value = env[name];
  return value !== void 0 && value !== "" && isAbsolute(value) ? value : void 0;
}
function configHome(env = process.env, homedir3 = osHomedir()) {
  const base = xdgBase(env, "XDG_CONFIG_HOME");
  return base === void 0 ? expandHome(configDir, homedir3) : join(base, appDirName);
}
function defaultConfigPath(env = process.env, homedir3 = osHomedir()) {
  return join(configHome(env, homedir3), configFileName);
}
function systemdDirectory(env, name) {
  const first = env[name]?.split(":")[0];
  return first !== void 0 && first !== "" && isAbsolute(first) ? first : void 0;
}
function defaultStateDir(env = process.env, homedir3 = osHomedir()) {
  const systemd = systemdDirectory(env, "STATE_DIRECTORY");
  if (systemd !== void 0)
    return systemd;
  const base = xdgBase(env, "XDG_STATE_HOME");
  return base === void 0 ? expandHome(stateDir, homedir3) : join(base, appDirName);
}
function defaultHlsCacheDir(env = process.env, homedir3 = osHomedir()) {
  const systemd = systemdDirectory(env, "CACHE_DIRECTORY");
  if (systemd !== void 0)
    return join(systemd, hlsCacheDirName);
  const base = xdgBase(env, "XDG_CACHE_HOME");
  return base === void 0 ? expandHome(hlsCacheDir, homedir3) : join(base, appDirName, hlsCacheDirName);
}
function defaultDownloadsDir(homedir3 = osHomedir()) {
  return expandHome(downloadsDir, homedir3);
}

// dist/config/schema.js
import { readFileSync } from "node:fs";
import { isIPv4, isIPv6 } from "node:net";
import { userInfo } from "node:os";

// dist/config/section.js
var REQUIRED = /* @__PURE__ */ Symbol("required");
var DocumentReport = class {
  file;
  unknown = [];
  removed = [];
  constructor(file) {
    this.file = file;
  }
  fail(key, expected, value, options = {}) {
    const got = value === void 0 ? "it is missing" : `got ${options.secret === true ? kindOf(value) : describe(value)}`;
    const because = options.because === void 0 ? "" : ` (${options.because})`;
    throw new ConfigError(`Invalid config ${this.file}: ${key} must be ${expected}${because}; ${got}.`, {
      file: this.file,
      key,
      expected
    });
  }
};
function isTable(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype;
}
var bareKey = /^[A-Za-z0-9_-]+$/;
function dotted(prefix, name) {
  const part = bareKey.test(name) ? name : JSON.stringify(name);
  return prefix === "" ? part : `${prefix}.${part}`;
}
var Section = class _Section {
  report;
  raw;
  path;
  seen = /* @__PURE__ */ new Set();
  constructor(report, raw, path) {
    this.report = report;
    this.raw = raw;
    this.path = path;
  }
  key(name) {
    return dotted(this.path, name);
  }
  /** The raw value, marking the key as known. */
  take(name) {
    this.seen.add(name);
    return Object.hasOwn(this.raw, name) ? this.raw[name] : void 0;
  }
  section(name) {
    const value = this.take(name);
    if (value === void 0)
      return new _Section(this.report, /* @__PURE__ */ Object.create(null), this.key(name));
    if (!isTable(value))
      this.report.fail(this.key(name), `a table ([${this.key(name)}])`, value);
    return new _Section(this.report, value, this.key(name));
  }
  read(name, expected, parse2, fallback, options = {}) {
    const value = this.take(name);
    if (value === void 0) {
      if (fallback === REQUIRED)
        return this.report.fail(this.key(name), expected, void 0, options);
      return fallback;
    }
    const parsed = parse2(value);
    if (parsed === void 0)
      return this.report.fail(this.key(name), expected, value, options);
    return parsed;
  }
  /** An array whose items are checked one by one, so the error names `key[index]`. */
  readArray(name, expected, parse2, fallback) {
    const value = this.take(name);
    if (value === void 0)
      return [...fallback];
    if (!Array.isArray(value))
      return this.report.fail(this.key(name), expected.array, value);
    return value.map((item, index) => {
      const parsed = parse2(item);
      if (parsed === void 0)
        return this.report.fail(`${this.key(name)}[${index}]`, expected.item, item);
      return parsed;
    });
  }
  /**
   * Records every key not read so far: names in `removed` as removed settings, the rest as
   * unknown. Call after all reads of this table.
   */
  finish(removed = []) {
    for (const name of Object.keys(this.raw)) {
      if (this.seen.has(name))
        continue;
      if (removed.includes(name))
        this.report.removed.push(this.key(name));
      else
        this.report.unknown.push(this.key(name));
    }
  }
};
var asString = (value) => typeof value === "string" ? value : void 0;
var asNonEmptyString = (value) => typeof value === "string" && value !== "" ? value : void 0;
var asBoolean = (value) => typeof value === "boolean" ? value : void 0;
function asNumber(accept) {
  return (value) => typeof value === "number" && Number.isFinite(value) && accept(value) ? value : void 0;
}
var asPort = asNumber((n) => Number.isInteger(n) && n >= 1 && n <= 65535);
function asEnum(values) {
  return (value) => typeof value === "string" && values.includes(value) ? value : void 0;
}
var asHttpUrl = (value) => {
  if (typeof value !== "string" || value.trim() !== value || value === "")
    return void 0;
  let url;
  try {
    url = new URL(value);
  } catch {
    return void 0;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return void 0;
  if (url.hostname === "" || url.search !== "" || url.hash !== "" || value.includes("#") || value.includes("?"))
    return void 0;
  return url.href.replace(/\/+$/, "");
};
function kindOf(value) {
  if (Array.isArray(value))
    return "an array";
  if (isTable(value))
    return "a table";
  if (value instanceof Date)
    return "a date";
  if (typeof value === "string")
    return value === "" ? "an empty string" : "a string";
  if (typeof value === "number")
    return Number.isInteger(value) ? "an integer" : "a number";
  if (typeof value === "boolean")
    return "a boolean";
  if (typeof value === "object" && value !== null)
    return "a date";
  return typeof value;
}
function describe(value) {
  if (typeof value === "string") {
    if (value === "")
      return "an empty string";
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  return kindOf(value);
}

// dist/config/schema.js
var downlinkModes = ["auto", "sse", "poll"];
var encoders = ["auto", "libx264", "h264_nvenc", "h264_qsv", "h264_videotoolbox", "h264_vaapi"];
var notTimingKeys = ["MiB", "GiB", "adminBodyLimitBytes", "streamServerPort", "hlsCacheSizeGb", "hlsCacheBytesPerGb", "seedRatio", "torrentPort"];
function camelToSnake(name) {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
var testingKeys = new Map(Object.entries(defaults_exports).filter(([name, value]) => typeof value === "number" && !notTimingKeys.includes(name)).map(([name]) => [camelToSnake(name), name]));
function timing(config, key) {
  return config.testing[key] ?? defaults_exports[key];
}
var removedScalars = ["poll_interval", "heartbeat_interval", "ws_url"];
var pathExpected = "a non-empty path string";
function validateConfig(raw, options) {
  const report = new DocumentReport(options.file);
  const root = new Section(report, raw, "");
  const { env, homedir: homedir3 } = options;
  const asPath = (value) => {
    const path = asNonEmptyString(value);
    return path === void 0 ? void 0 : expandHome(path, homedir3);
  };
  const serverTable = root.section("server");
  const required = options.requireServer ? REQUIRED : "";
  const baseUrl = serverTable.read("base_url", 'an http(s) URL such as "https://media.example"', asHttpUrl, required);
  const tokenFile = serverTable.read("access_token_file", pathExpected, asPath, "");
  const external = externalAccessToken(env, tokenFile, options.file);
  const accessToken = serverTable.read(
    // With a token from elsewhere, the fresh-install file's `access_token = ""` is fine.
    "access_token",
    tokenExpected,
    external === void 0 ? asToken : (value) => value === "" ? "" : asToken(value),
    external === void 0 ? required : "",
    { secret: true }
  );
  const mirrors = serverTable.readArray("mirrors", { array: "an array of http(s) URLs", item: "an http(s) URL" }, asHttpUrl, serverMirrors);
  const signingSecret = serverTable.read("signing_secret", "a string", asString, "", { secret: true });
  serverTable.finish(removedScalars);
  const daemonTable = root.section("daemon");
  const downlink = daemonTable.read("downlink", oneOf(downlinkModes), asEnum(downlinkModes), downlinkMode);
  const stateDir2 = daemonTable.read("state_dir", pathExpected, asPath, defaultStateDir(env, homedir3));
  daemonTable.finish(removedScalars);
  const streamTable = root.section("stream");
  const port = streamTable.read("port", "an integer from 1 to 65535", asPort, streamServerPort);
  const upnp = streamTable.read("upnp", "true or false", asBoolean, streamUpnpEnabled);
  const inlineReads = streamTable.read("inline_reads", "true or false", asBoolean, streamInlineReadsEnabled);
  streamTable.finish();
  const adminTable = root.section("admin");
  const listen = readListen(adminTable);
  adminTable.finish();
  const downloadsTable = root.section("downloads");
  const downloadsDir2 = downloadsTable.read("dir", pathExpected, asPath, defaultDownloadsDir(homedir3));
  const seedRatio2 = downloadsTable.read("seed_ratio", "a finite number >= 0", asNumber((n) => n >= 0), seedRatio);
  const cacheTable = downloadsTable.section("hls_cache");
  const hlsCache = {
    enabled: cacheTable.read("enabled", "true or false", asBoolean, hlsCacheEnabled),
    sizeGb: cacheTable.read("size_gb", "a finite number greater than 0", asNumber((n) => n > 0), hlsCacheSizeGb),
    dir: cacheTable.read("dir", pathExpected, asPath, defaultHlsCacheDir(env, homedir3))
  };
  cacheTable.finish();
  const vpnTable = downloadsTable.section("vpn");
  const vpn = { enabled: vpnTable.read("enabled", "true or false", asBoolean, vpnEnabled) };
  vpnTable.finish();
  const torrentTable = downloadsTable.section("torrent");
  const onOff = (key, fallback) => torrentTable.read(key, "true or false", asBoolean, fallback);
  const torrent = {
    dht: onOff("dht", torrentDht),
    lsd: onOff("lsd", torrentLsd),
    pex: onOff("pex", torrentPex),
    utp: onOff("utp", torrentUtp),
    natTraversal: onOff("nat_traversal", torrentNatUpnp && torrentNatPmp),
    port: torrentTable.read("port", "an integer from 0 (any free port) to 65535", asNumber((n) => Number.isInteger(n) && n >= 0 && n <= 65535), torrentPort)
  };
  torrentTable.finish();
  downloadsTable.finish(["webrtc"]);
  const funnelTable = root.section("funnel");
  const funnelDefault = options.freshInstall ? funnelEnabledFreshInstall : funnelEnabledLegacyConfig;
  const funnel = {
    enabled: funnelTable.read("enabled", "true or false", asBoolean, funnelDefault),
    helperPath: expandHome(funnelTable.read("helper_path", "a path string (empty: the managed helper in the state dir)", asString, funnelHelperPath), homedir3),
    helperUrl: funnelTable.read("helper_url", "an http(s) URL, the base the helper asset name is appended to", asHttpUrl, funnelHelperUrlBase)
  };
  funnelTable.finish();
  const transcodeTable = root.section("transcode");
  const encoder = transcodeTable.read("encoder", oneOf(encoders), asEnum(encoders), transcodeEncoder);
  const ffmpegPath2 = transcodeTable.read("ffmpeg_path", "a path string (empty: FFMPEG_PATH, then PATH)", asString, ffmpegPath);
  const ffprobePath2 = transcodeTable.read("ffprobe_path", "a path string (empty: FFPROBE_PATH, then PATH)", asString, ffprobePath);
  transcodeTable.finish();
  const libraryTable = root.section("library");
  const libraryPaths2 = libraryTable.readArray("paths", { array: "an array of non-empty path strings", item: pathExpected }, asPath, libraryPaths);
  const libraryWatch = libraryTable.read("watch", "true or false", asBoolean, libraryWatchEnabled);
  const rescanMinutes = libraryTable.read("rescan_minutes", "a finite number of minutes >= 0 (0: never)", asNumber((n) => n >= 0), libraryRescanMinutes);
  libraryTable.finish();
  const testing = readTesting(root.section("testing"));
  root.finish(removedScalars);
  const server = { baseUrl, accessToken: external?.token ?? accessToken, mirrors };
  if (external !== void 0)
    server.accessTokenSource = external.source;
  if (signingSecret !== "")
    server.signingSecret = signingSecret;
  const config = {
    server,
    daemon: { downlink, stateDir: stateDir2 },
    stream: { port, upnp, inlineReads },
    admin: { listen },
    downloads: { dir: downloadsDir2, seedRatio: seedRatio2, hlsCache, vpn, torrent },
    funnel,
    transcode: {
      encoder,
      ffmpegPath: expandHome(ffmpegPath2 || env.FFMPEG_PATH || "", homedir3),
      ffprobePath: expandHome(ffprobePath2 || env.FFPROBE_PATH || "", homedir3)
    },
    library: { paths: libraryPaths2, watch: libraryWatch, rescanMinutes },
    testing
  };
  return { config, warnings: warningsOf(report, testing) };
}
function warningsOf(report, testing) {
  const warnings = [];
  if (report.removed.length > 0) {
    warnings.push(`${report.file}: ignoring removed settings ${report.removed.join(", ")}; they have no effect any more and can be deleted`);
  }
  for (const key of report.unknown)
    warnings.push(`${report.file}: ignoring unknown key ${key}`);
  const overrides = Object.entries(testing).map(([name, value]) => `${camelToSnake(name)} = ${String(value)}`);
  if (overrides.length > 0)
    warnings.push(`${report.file}: [testing] overrides are in effect (meant for tests only): ${overrides.join(", ")}`);
  return warnings;
}
function oneOf(values) {
  return `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
}
var asToken = (value) => typeof value === "string" && /^[\x21-\x7e]+$/.test(value) ? value : void 0;
var tokenExpected = "a non-empty token of printable ASCII characters without spaces";
function externalAccessToken(env, file, configFile) {
  const fromEnv = env[accessTokenEnvVar];
  if (fromEnv !== void 0 && fromEnv !== "") {
    if (asToken(fromEnv) === void 0) {
      throw new ConfigError(`Invalid ${accessTokenEnvVar} in the environment: it must be ${tokenExpected}; got a string with other characters.`, {
        key: accessTokenEnvVar,
        expected: tokenExpected
      });
    }
    return { token: fromEnv, source: accessTokenEnvVar };
  }
  if (file === "")
    return void 0;
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = err.code;
    const reason = code === "ENOENT" ? "it does not exist" : code === "EACCES" ? `permission denied for ${userName()}` : err.message;
    throw new ConfigError(`Invalid config ${configFile}: server.access_token_file ${file} cannot be read: ${reason}.`, {
      file: configFile,
      key: "server.access_token_file",
      expected: "a readable file holding the access token",
      cause: err
    });
  }
  const token = text.replace(/\r?\n$/, "");
  if (asToken(token) === void 0) {
    throw new ConfigError(`Invalid config ${configFile}: the file ${file} (server.access_token_file) must hold ${tokenExpected} and at most one trailing newline.`, {
      file: configFile,
      key: "server.access_token_file",
      expected: tokenExpected
    });
  }
  return { token, source: file };
}
function userName() {
  try {
    return `user ${userInfo().username} (uid ${process.getuid?.() ?? "?"})`;
  } catch {
    return `uid ${process.getuid?.() ?? "?"}`;
  }
}
var listenExpected = 'a host:port string such as "127.0.0.1:7891" (IPv6 in brackets: "[::1]:7891")';
var loopbackExpected = "a loopback address: 127.0.0.1 (or any 127.x.x.x), [::1] or localhost, with a port from 1 to 65535";
function readListen(table) {
  const text = table.read("listen", listenExpected, asString, adminListen);
  const match = /^(?:\[([^\]]*)\]|([^:[\]\s/]+)):(\d{1,5})$/.exec(text);
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (match === null || host === void 0 || match[1] !== void 0 && !isIPv6(host) || asPort(port) === void 0) {
    return table.report.fail(table.key("listen"), listenExpected, text);
  }
  if (!isLoopback(host)) {
    return table.report.fail(table.key("listen"), loopbackExpected, text, {
      because: "the admin API controls the agent and must bind loopback only"
    });
  }
  return { host, port };
}
function isLoopback(host) {
  if (host.toLowerCase() === "localhost")
    return true;
  if (isIPv4(host))
    return host.startsWith("127.");
  if (isIPv6(host)) {
    let normal;
    try {
      normal = new URL(`http://[${host}]/`).hostname;
    } catch {
      return false;
    }
    return normal === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(normal);
  }
  return false;
}
function readTesting(table) {
  const testing = {};
  for (const name of Object.keys(table.raw)) {
    const key = testingKeys.get(name);
    if (key === void 0)
      continue;
    testing[key] = table.read(name, "a finite number >= 0", asNumber((n) => n >= 0), 0);
  }
  table.finish();
  return testing;
}

// dist/config/load.js
function parseConfigText(text, options) {
  const { file } = options;
  let raw;
  try {
    raw = parse(text);
  } catch (err) {
    throw syntaxError(file, err);
  }
  const { config, warnings } = validateConfig(raw, {
    file,
    env: options.env ?? process.env,
    homedir: options.homedir ?? osHomedir2(),
    freshInstall: options.freshInstall ?? false,
    requireServer: true
  });
  return { config, warnings, source: "file", path: file };
}
async function loadConfig(options = {}) {
  const env = options.env ?? process.env;
  const homedir3 = options.homedir ?? osHomedir2();
  const explicit = options.path !== void 0;
  const file = explicit ? resolve(expandHome(options.path ?? "", homedir3)) : defaultConfigPath(env, homedir3);
  let text;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = err.code;
    if (code === "ENOENT" && !explicit) {
      return { config: embeddedDefaultConfig(env, homedir3), warnings: [], source: "embedded-default", path: file };
    }
    const reason = code === "ENOENT" ? "it does not exist" : err.message;
    throw new ConfigError(`Cannot read config file ${file}: ${reason}.`, { file, expected: "a readable TOML file", cause: err });
  }
  return parseConfigText(text, { file, env, homedir: homedir3, freshInstall: false });
}
function embeddedDefaultConfig(env = process.env, homedir3 = osHomedir2()) {
  return validateConfig(/* @__PURE__ */ Object.create(null), {
    file: "<embedded default>",
    env,
    homedir: homedir3,
    freshInstall: true,
    requireServer: false
  }).config;
}
function syntaxError(file, err) {
  if (err instanceof TomlError) {
    const reason = (err.message.split("\n")[0] ?? "").replace(/^Invalid TOML document:\s*/, "");
    return new ConfigError(`Invalid config ${file}:${err.line}:${err.column}: TOML syntax error: ${reason}.`, {
      file,
      expected: "a valid TOML document",
      cause: err,
      details: { line: err.line, column: err.column }
    });
  }
  return new ConfigError(`Invalid config ${file}: cannot parse it as TOML: ${err instanceof Error ? err.message : String(err)}.`, {
    file,
    expected: "a valid TOML document",
    cause: err
  });
}
function tomlString(value) {
  return stringify({ v: value }).trim().replace(/^v = /, "");
}
function tomlFloat(value) {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}
function renderFreshConfig(overrides = {}) {
  const pad = (line, comment) => `${line.padEnd(28)} # ${comment}`;
  return [
    "# media-agent configuration. Every key is described in docs/configuration.md.",
    "",
    "[server]",
    pad(`base_url = ${tomlString(overrides.baseUrl ?? "")}`, 'required: the web server, e.g. "https://media.example"'),
    pad(`access_token = ${tomlString(overrides.accessToken ?? "")}`, "required: the token the web server issued"),
    `mirrors = [${serverMirrors.map(tomlString).join(", ")}]`,
    '# signing_secret = "<SIGNING_SECRET>"   # overrides the one from register',
    "",
    "[daemon]",
    pad(`downlink = ${tomlString(downlinkMode)}`, downlinkModes.join(" | ")),
    `# state_dir = ${tomlString(stateDir)}   # tasks.json, agent id, admin token; default $XDG_STATE_HOME/${appDirName}`,
    "",
    "[stream]",
    `port = ${streamServerPort}`,
    `upnp = ${String(streamUpnpEnabled)}`,
    "",
    "[admin]",
    pad(`listen = ${tomlString(adminListen)}`, "debug endpoint and the CLI's control API (loopback only)"),
    "",
    "[downloads]",
    `dir = ${tomlString(downloadsDir)}`,
    pad(`seed_ratio = ${tomlFloat(seedRatio)}`, "seed a finished task until this ratio; 0 stops at once"),
    "",
    "[downloads.hls_cache]",
    `enabled = ${String(hlsCacheEnabled)}`,
    `size_gb = ${hlsCacheSizeGb}`,
    `# dir = ${tomlString(hlsCacheDir)}   # default $XDG_CACHE_HOME/${appDirName}/${hlsCacheDirName}`,
    "",
    "[downloads.vpn]",
    `enabled = ${String(vpnEnabled)}`,
    "",
    "[funnel]",
    pad(`enabled = ${String(funnelEnabledFreshInstall)}`, "written by a fresh install; a config without this key is off"),
    "",
    "[transcode]",
    pad(`encoder = ${tomlString(transcodeEncoder)}`, encoders.join(" | ")),
    pad(`ffmpeg_path = ${tomlString(ffmpegPath)}`, "empty: FFMPEG_PATH, then PATH"),
    pad(`ffprobe_path = ${tomlString(ffprobePath)}`, "empty: FFPROBE_PATH, then PATH"),
    "",
    "[library]",
    `paths = [${libraryPaths.map(tomlString).join(", ")}]`,
    ""
  ].join("\n");
}

// dist/cli/load.js
async function loadConfigForCli(path, stderr) {
  try {
    return await loadConfig({ ...path ? { path } : {}, env: process.env });
  } catch (error) {
    if (isAgentError(error)) {
      stderr.write(`media-agent: ${error.message}
`);
      return 78;
    }
    throw error;
  }
}

// dist/services/state/state-dir.js
import { mkdir, readFile as readFile2, chmod } from "node:fs/promises";
import { join as join2 } from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
function openStateDir(path) {
  const adminTokenPath = join2(path, adminTokenFileName);
  return {
    path,
    adminTokenPath: () => adminTokenPath,
    async agentId() {
      const file = join2(path, agentIdFileName);
      try {
        const existing = (await readFile2(file, "utf8")).trim();
        if (/^[0-9a-f-]{36}$/i.test(existing))
          return existing;
      } catch (error) {
        if (error.code !== "ENOENT")
          throw stateError(file, error);
      }
      const id = randomUUID();
      await ensureDir(path);
      await writeFileAtomic(file, `${id}
`).catch((error) => {
        throw stateError(file, error);
      });
      return id;
    },
    async writeAdminToken() {
      await ensureDir(path);
      const token = randomBytes(32).toString("base64url");
      await writeFileAtomic(adminTokenPath, `${token}
`, { mode: 384 }).catch((error) => {
        throw stateError(adminTokenPath, error);
      });
      await chmod(adminTokenPath, 384);
      return token;
    },
    async readAdminToken() {
      try {
        return (await readFile2(adminTokenPath, "utf8")).trim() || void 0;
      } catch (error) {
        if (error.code === "ENOENT")
          return void 0;
        throw stateError(adminTokenPath, error);
      }
    }
  };
  async function ensureDir(dir) {
    await mkdir(dir, { recursive: true, mode: 448 }).catch((error) => {
      throw stateError(dir, error);
    });
  }
}
function stateError(file, cause) {
  const reason = cause?.message ?? String(cause);
  return new StateFileError(`cannot use state file ${file}: ${reason}`, { cause, details: { file } });
}

// dist/server/admin-server.js
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
var { createServer } = process.getBuiltinModule("node:http");
function isLoopbackHost(host) {
  if (host === "localhost")
    return true;
  const bare = host.replace(/^\[|\]$/g, "");
  if (isIP(bare) === 4)
    return bare.startsWith("127.");
  if (isIP(bare) === 6)
    return bare === "::1";
  return false;
}
async function startAdminServer(options) {
  if (!isLoopbackHost(options.host)) {
    throw new AgentError("MA_ERR_CONFIG", `admin listener must bind a loopback address, not ${options.host}`, { details: { key: "admin.listen" } });
  }
  const log = options.logger;
  const expected = digest(options.token);
  const streams = /* @__PURE__ */ new Set();
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      log.error({ err: error }, "admin request failed");
      if (!res.headersSent)
        json(res, 500, { error: "internal" });
      else
        res.destroy();
    });
  });
  async function handle(req, res) {
    if (!authorized(req.headers.authorization)) {
      res.writeHead(401, { "content-type": "application/json", "www-authenticate": "Bearer" });
      res.end('{"error":"unauthorized"}');
      return;
    }
    const url = new URL(req.url ?? "/", "http://admin");
    const route = `${req.method} ${url.pathname}`;
    switch (route) {
      case "GET /debug/actors":
        return json(res, 200, options.source.actorTree());
      case "GET /debug/events":
        return streamEvents(req, res, url);
      case "GET /api/status":
        return json(res, 200, await options.source.status());
      default:
        return partRoute(req, res, url);
    }
  }
  async function partRoute(req, res, url) {
    const route = options.source.routes?.find((candidate) => candidate.method === req.method && candidate.path === url.pathname);
    if (!route)
      return json(res, 404, { error: "not_found" });
    let body = {};
    if (req.method === "POST") {
      const text = await readBody(req);
      if (text === void 0)
        return json(res, 413, { error: "too_large" });
      if (text.trim().length > 0) {
        try {
          body = JSON.parse(text);
        } catch {
          return json(res, 400, { error: "bad_request", message: "the request body is not JSON" });
        }
      }
    }
    const reply = await route.handle({ url, body });
    if ("json" in reply)
      return json(res, reply.status, reply.json);
    res.writeHead(reply.status, { "content-type": reply.contentType, "content-length": Buffer.byteLength(reply.text) });
    res.end(reply.text);
  }
  function authorized(header2) {
    const match = /^Bearer (.+)$/.exec(header2 ?? "");
    if (!match)
      return false;
    return timingSafeEqual(digest(match[1] ?? ""), expected);
  }
  function streamEvents(req, res, url) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" });
    const after = Number(req.headers["last-event-id"] ?? url.searchParams.get("after") ?? 0) || 0;
    const send = (record) => {
      res.write(`id: ${record.seq}
event: ${record.type}
data: ${JSON.stringify(record)}

`);
    };
    for (const record of options.source.inspection.recent(after))
      send(record);
    const unsubscribe = options.source.inspection.subscribe(send);
    const keepAlive = setInterval(() => res.write(": keep-alive\n\n"), options.keepAliveMs ?? adminEventsKeepAliveMs);
    streams.add(res);
    res.on("close", () => {
      unsubscribe();
      clearInterval(keepAlive);
      streams.delete(res);
    });
  }
  await new Promise((resolve5, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve5();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const hostForUrl = options.host.includes(":") && !options.host.startsWith("[") ? `[${options.host}]` : options.host;
  log.info({ url: `http://${hostForUrl}:${port}` }, "admin listener ready");
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    async close() {
      for (const res of streams)
        res.end();
      server.closeAllConnections();
      await new Promise((resolve5) => server.close(() => resolve5()));
    }
  };
}
async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > adminBodyLimitBytes)
      return void 0;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
function digest(value) {
  return createHash("sha256").update(value).digest();
}
function json(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

// dist/system/summarize.js
var secretKey = /secret|token|password|private|presharedkey|authorization|credential/i;
var maxDepth = 3;
var maxEntries = 20;
var maxString = 200;
function summarize(value, depth = 0) {
  if (value === null || value === void 0)
    return value;
  switch (typeof value) {
    case "string":
      return value.length > maxString ? `${value.slice(0, maxString)}\u2026(${value.length} chars)` : value;
    case "number":
    case "boolean":
      return value;
    case "bigint":
      return value.toString();
    case "function":
      return "[function]";
    case "symbol":
      return value.toString();
  }
  if (value instanceof Uint8Array)
    return `[${value.byteLength} bytes]`;
  if (value instanceof Date)
    return value.toISOString();
  if (value instanceof Error)
    return `${value.name}: ${value.message}`;
  if (isActorRef(value))
    return `[actor ${value.id}]`;
  if (depth >= maxDepth)
    return Array.isArray(value) ? `[array(${value.length})]` : "[object]";
  if (Array.isArray(value)) {
    const items = value.slice(0, maxEntries).map((item) => summarize(item, depth + 1));
    return value.length > maxEntries ? [...items, `\u2026(${value.length - maxEntries} more)`] : items;
  }
  if (value instanceof Map)
    return summarize(Object.fromEntries(value), depth);
  if (value instanceof Set)
    return summarize([...value], depth);
  const out = {};
  const entries = Object.entries(value);
  for (const [key, item] of entries.slice(0, maxEntries)) {
    out[key] = secretKey.test(key) ? item === "" || item === void 0 ? item : "[redacted]" : summarize(item, depth + 1);
  }
  if (entries.length > maxEntries)
    out["\u2026"] = `${entries.length - maxEntries} more keys`;
  return out;
}
function isActorRef(value) {
  return typeof value === "object" && value !== null && "sessionId" in value && "send" in value && "id" in value;
}

// dist/system/inspection.js
var InspectionHub = class {
  capacity;
  now;
  ring;
  next = 0;
  seq = 0;
  listeners = /* @__PURE__ */ new Set();
  constructor(capacity, now = Date.now) {
    this.capacity = capacity;
    this.now = now;
    this.ring = new Array(capacity);
  }
  /** The observer handed to createActor({ inspect }). */
  inspect = (event) => {
    const record = this.toRecord(event);
    if (record === void 0)
      return;
    this.ring[this.next] = record;
    this.next = (this.next + 1) % this.capacity;
    for (const listener of this.listeners)
      listener(record);
  };
  /** Buffered records, oldest first; `afterSeq` skips those already seen (SSE Last-Event-ID). */
  recent(afterSeq = 0) {
    const out = [];
    for (let i = 0; i < this.capacity; i++) {
      const record = this.ring[(this.next + i) % this.capacity];
      if (record !== void 0 && record.seq > afterSeq)
        out.push(record);
    }
    return out;
  }
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  toRecord(event) {
    const ref = event.actorRef;
    const base = { seq: ++this.seq, at: this.now(), actorId: ref.id ?? ref.sessionId ?? "?", ...ref.systemId ? { systemId: ref.systemId } : {} };
    switch (event.type) {
      case "@xstate.actor":
        return { ...base, type: "actor" };
      case "@xstate.event": {
        const source = event.sourceRef;
        return { ...base, type: "event", eventType: event.event.type, ...source?.id ? { sourceId: source.id } : {} };
      }
      case "@xstate.snapshot": {
        const snapshot = event.snapshot;
        return { ...base, type: "snapshot", eventType: event.event.type, value: summarize(snapshot.value), ...snapshot.status ? { status: snapshot.status } : {} };
      }
      case "@xstate.action":
        return { ...base, type: "action", action: event.action.type };
      default:
        this.seq--;
        return void 0;
    }
  }
};

// dist/system/actor-tree.js
function describeActorTree(actor) {
  const snapshot = actor.getSnapshot();
  const logic = actor.logic;
  const machineId = logic && "config" in logic ? logic.id : void 0;
  const systemId = actor.systemId;
  const node = {
    id: actor.id,
    ...systemId ? { systemId } : {},
    ...machineId ? { machine: machineId } : {},
    ...snapshot.status ? { status: snapshot.status } : {},
    ...snapshot.value !== void 0 ? { value: summarize(snapshot.value) } : {},
    ...snapshot.context !== void 0 ? { context: summarize(snapshot.context) } : {},
    ...snapshot.error !== void 0 ? { error: String(snapshot.error?.message ?? snapshot.error) } : {},
    children: []
  };
  for (const [key, child2] of Object.entries(snapshot.children ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (child2)
      node.children.push({ ...describeActorTree(child2), id: child2.id ?? key });
  }
  return node;
}

// dist/system/create-system.js
function createSystem(options) {
  const log = options.logger.child({ actor: "agent" });
  const inspection = new InspectionHub(inspectionRingSize);
  const deadlineMs = options.shutdownDeadlineMs ?? shutdownDeadlineMs;
  const { children, closers } = options.parts;
  let pendingCloser;
  const actors = {
    shutdownServices: fromPromise(async () => {
      for (const closer of closers) {
        pendingCloser = closer.name;
        try {
          await closer.close();
        } catch (error) {
          log.warn({ err: error, part: closer.name }, "part failed to close cleanly");
        }
      }
      pendingCloser = void 0;
    })
  };
  if (options.parts.spawnable?.session)
    actors.session = options.parts.spawnable.session;
  const childInputs = {};
  for (const child2 of children) {
    actors[child2.name] = child2.logic;
    if (child2.input !== void 0)
      childInputs[child2.name] = child2.input;
  }
  const machine = agentMachine.provide({
    actors,
    actions: {
      logChildFailure: (_, params) => log.error(params, `${params.child} failed; restarting in ${params.restartInMs} ms`),
      logShutdown: (_, params) => log.info({ phase: params.phase }, params.phase === "begin" ? "shutting down" : "stopped"),
      reportSessionCrash: (_, params) => {
        log.error(params, "stream session actor crashed; reported failed, not restarted");
        options.parts.onSessionCrash?.(params);
      }
    }
  });
  const root = createActor(machine, {
    id: "agent",
    systemId: "agent",
    inspect: inspection.inspect,
    ...options.clock ? { clock: options.clock } : {},
    input: {
      children: children.map((child2) => child2.name),
      childInputs,
      supervisor: options.supervisor ?? { childRestartBaseMs, childRestartMaxMs },
      sessionInput: options.parts.sessionInput ?? { readinessDeadlineMs }
    }
  });
  options.parts.attach?.(root);
  root.start();
  let shuttingDown;
  return {
    root,
    inspection,
    actorTree: () => describeActorTree(root),
    shutdown() {
      shuttingDown ??= (async () => {
        root.send({ type: "agent.shutdown" });
        let timer;
        const deadline = new Promise((resolve5) => {
          timer = setTimeout(() => resolve5("timeout"), deadlineMs);
        });
        const outcome = await Promise.race([toPromise(root).then(() => "done", () => "done"), deadline]);
        clearTimeout(timer);
        if (outcome === "timeout") {
          const pending = pendingCloser ?? "actors";
          log.warn({ err: new ShutdownTimeoutError(`shutdown exceeded ${deadlineMs} ms; still waiting for ${pending}`) }, "shutdown deadline reached");
          root.stop();
          return { clean: false };
        }
        return { clean: true };
      })();
      return shuttingDown;
    }
  };
}

// dist/system/implementations.js
import { hostname } from "node:os";

// dist/system/control-plane-bindings.js
import { hostname as osHostname } from "node:os";

// dist/services/http/node-client.js
var { Agent: HttpAgent, request: httpRequest } = process.getBuiltinModule("node:http");
var { Agent: HttpsAgent, request: httpsRequest } = process.getBuiltinModule("node:https");
function createHttpClient(options = {}) {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? Infinity };
  const agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };
  const inFlight = /* @__PURE__ */ new Set();
  const attempt = (url, request, retried) => new Promise((resolve5, reject) => {
    const secure = url.protocol === "https:";
    if (!secure && url.protocol !== "http:") {
      reject(new TypeError(`unsupported protocol ${url.protocol} in ${url.origin}`));
      return;
    }
    const send = secure ? httpsRequest : httpRequest;
    const req = send(url, { method: request.method, headers: request.headers, agent: secure ? agents.https : agents.http, signal: request.signal });
    inFlight.add(req);
    req.once("close", () => inFlight.delete(req));
    let timer;
    if (request.headersTimeoutMs !== void 0 && request.headersTimeoutMs > 0) {
      const limit = request.headersTimeoutMs;
      timer = setTimeout(() => {
        req.destroy(Object.assign(new Error(`no response headers within ${limit} ms`), { name: "TimeoutError", code: "ETIMEDOUT" }));
      }, limit);
    }
    req.once("response", (response) => {
      clearTimeout(timer);
      resolve5({ statusCode: response.statusCode ?? 0, headers: response.headers, body: response, text: () => readText(response) });
    });
    req.once("error", (error) => {
      clearTimeout(timer);
      if (req.reusedSocket && error.code === "ECONNRESET" && !retried && request.signal?.aborted !== true) {
        attempt(url, request, true).then(resolve5, reject);
        return;
      }
      reject(error);
    });
    req.end(request.body);
  });
  return {
    request: (url, request) => attempt(url, request, false),
    destroy: () => {
      for (const req of inFlight)
        req.destroy();
      inFlight.clear();
      agents.http.destroy();
      agents.https.destroy();
    }
  };
}
async function readText(response) {
  const chunks = [];
  for await (const chunk of response)
    chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

// node_modules/eventsource-parser/dist/errors.js
var ParseError = class extends Error {
  constructor(message, options) {
    super(message);
    this.name = "ParseError";
    this.type = options.type;
    this.field = options.field;
    this.value = options.value;
    this.line = options.line;
  }
};

// node_modules/eventsource-parser/dist/parse.js
var LF = 10;
var CR = 13;
var SPACE = 32;
var MAX_FIELD_PREFIX_LENGTH = 6;
function createParser(config) {
  if (typeof config === "function") {
    throw new TypeError("`config` must be an object, got a function instead. Did you mean `createParser({onEvent: fn})`?");
  }
  const { maxBufferSize, onComment, onError, onEvent, onId, onRetry } = config;
  const pendingFragments = [];
  let pendingFragmentsLength = 0;
  let bomPrefix = "";
  let id;
  let data = "";
  let dataLines = 0;
  let eventType;
  let terminated = false;
  let skippingLine = false;
  let skipNextLineFeed = false;
  function feed(chunk) {
    if (terminated) {
      throw new Error("Cannot feed parser: it was terminated after exceeding the configured max buffer size. Call `reset()` to resume parsing.");
    }
    if (bomPrefix !== void 0) {
      chunk = bomPrefix + chunk;
      if (chunk === "" || chunk === "\xEF" || chunk === "\xEF\xBB") {
        bomPrefix = chunk;
        return;
      }
      bomPrefix = void 0;
      chunk = chunk.replace(/^(?:\uFEFF|\xEF\xBB\xBF)/, "");
    }
    if (skippingLine || skipNextLineFeed) {
      chunk = resumeAfterSkip(chunk);
      if (!chunk) {
        return;
      }
    }
    if (!pendingFragments.length) {
      const trailing = processLines(chunk);
      if (trailing !== "") {
        storeTrailing(trailing);
      }
      checkForBufferOverflow();
      return;
    }
    if (chunk.indexOf("\n") === -1 && chunk.indexOf("\r") === -1) {
      if (pendingFragmentsLength < MAX_FIELD_PREFIX_LENGTH) {
        const head = pendingFragments.join("") + chunk.slice(0, MAX_FIELD_PREFIX_LENGTH - pendingFragmentsLength);
        if (!shouldBufferTrailing(head)) {
          pendingFragments.length = 0;
          pendingFragmentsLength = 0;
          skippingLine = true;
          return;
        }
      }
      pendingFragments.push(chunk);
      pendingFragmentsLength += chunk.length;
      checkForBufferOverflow();
      return;
    }
    pendingFragments.push(chunk);
    const input = pendingFragments.join("");
    pendingFragments.length = 0;
    pendingFragmentsLength = 0;
    storeTrailing(processLines(input));
    checkForBufferOverflow();
  }
  function resumeAfterSkip(chunk) {
    if (chunk.length === 0) {
      return chunk;
    }
    if (skipNextLineFeed) {
      skipNextLineFeed = false;
      return chunk.charCodeAt(0) === LF ? chunk.slice(1) : chunk;
    }
    const crIndex = chunk.indexOf("\r");
    const lfIndex = chunk.indexOf("\n");
    const lineEnd = crIndex === -1 ? lfIndex : lfIndex === -1 ? crIndex : crIndex < lfIndex ? crIndex : lfIndex;
    if (lineEnd === -1) {
      return "";
    }
    if (lineEnd === chunk.length - 1 && chunk.charCodeAt(lineEnd) === CR) {
      skippingLine = false;
      skipNextLineFeed = true;
      return "";
    }
    skippingLine = false;
    return chunk.slice(lineEnd + (chunk.charCodeAt(lineEnd) === CR && chunk.charCodeAt(lineEnd + 1) === LF ? 2 : 1));
  }
  function storeTrailing(trailing) {
    if (!trailing)
      return;
    if (trailing.charCodeAt(trailing.length - 1) === CR) {
      parseLine(trailing, 0, trailing.length - 1);
      if (checkForBufferOverflow())
        return;
      skipNextLineFeed = true;
      return;
    }
    if (shouldBufferTrailing(trailing)) {
      pendingFragments.push(trailing);
      pendingFragmentsLength = trailing.length;
      return;
    }
    skippingLine = true;
  }
  function shouldBufferTrailing(trailing) {
    const firstCharCode = trailing.charCodeAt(0);
    return firstCharCode === 58 && !!onComment || firstCharCode === 100 && isPotentialField(trailing, "data") || firstCharCode === 101 && isPotentialField(trailing, "event") || firstCharCode === 105 && isPotentialField(trailing, "id") || firstCharCode === 114 && isPotentialField(trailing, "retry");
  }
  function checkForBufferOverflow() {
    if (terminated)
      return true;
    if (maxBufferSize === void 0)
      return false;
    if (pendingFragmentsLength + data.length <= maxBufferSize)
      return false;
    terminated = true;
    pendingFragments.length = 0;
    pendingFragmentsLength = 0;
    id = void 0;
    data = "";
    dataLines = 0;
    eventType = void 0;
    skippingLine = false;
    skipNextLineFeed = false;
    onError === null || onError === void 0 ? void 0 : onError(new ParseError(`Buffered data exceeded max buffer size of ${maxBufferSize} characters`, {
      type: "max-buffer-size-exceeded"
    }));
    return true;
  }
  function processLines(chunk) {
    let searchIndex = 0;
    if (chunk.indexOf("\r") === -1) {
      let lfIndex2 = chunk.indexOf("\n", searchIndex);
      while (lfIndex2 !== -1) {
        if (searchIndex === lfIndex2) {
          if (id !== void 0) {
            onId === null || onId === void 0 ? void 0 : onId(id);
          }
          if (dataLines > 0) {
            onEvent === null || onEvent === void 0 ? void 0 : onEvent({ id, event: eventType, data });
          }
          id = void 0;
          data = "";
          dataLines = 0;
          eventType = void 0;
          searchIndex = lfIndex2 + 1;
          lfIndex2 = chunk.indexOf("\n", searchIndex);
          continue;
        }
        const firstCharCode = chunk.charCodeAt(searchIndex);
        if (isDataPrefix(chunk, searchIndex, firstCharCode)) {
          const valueStart = chunk.charCodeAt(searchIndex + 5) === SPACE ? searchIndex + 6 : searchIndex + 5;
          const value = chunk.slice(valueStart, lfIndex2);
          if (dataLines === 0 && chunk.charCodeAt(lfIndex2 + 1) === LF) {
            if (id !== void 0) {
              onId === null || onId === void 0 ? void 0 : onId(id);
            }
            onEvent === null || onEvent === void 0 ? void 0 : onEvent({ id, event: eventType, data: value });
            id = void 0;
            data = "";
            eventType = void 0;
            searchIndex = lfIndex2 + 2;
            lfIndex2 = chunk.indexOf("\n", searchIndex);
            continue;
          }
          data = dataLines === 0 ? value : `${data}
${value}`;
          dataLines++;
        } else if (isEventPrefix(chunk, searchIndex, firstCharCode)) {
          eventType = chunk.slice(chunk.charCodeAt(searchIndex + 6) === SPACE ? searchIndex + 7 : searchIndex + 6, lfIndex2) || void 0;
        } else {
          parseLine(chunk, searchIndex, lfIndex2);
        }
        if (checkForBufferOverflow())
          return "";
        searchIndex = lfIndex2 + 1;
        lfIndex2 = chunk.indexOf("\n", searchIndex);
      }
      return chunk.slice(searchIndex);
    }
    let crIndex = chunk.indexOf("\r", searchIndex);
    let lfIndex = chunk.indexOf("\n", searchIndex);
    while (searchIndex < chunk.length) {
      let lineEnd = -1;
      if (crIndex !== -1 && lfIndex !== -1) {
        lineEnd = crIndex < lfIndex ? crIndex : lfIndex;
      } else if (crIndex !== -1) {
        if (crIndex === chunk.length - 1) {
          lineEnd = -1;
        } else {
          lineEnd = crIndex;
        }
      } else if (lfIndex !== -1) {
        lineEnd = lfIndex;
      }
      if (lineEnd === -1) {
        break;
      }
      parseLine(chunk, searchIndex, lineEnd);
      if (checkForBufferOverflow())
        return "";
      searchIndex = lineEnd + 1;
      if (chunk.charCodeAt(searchIndex - 1) === CR && chunk.charCodeAt(searchIndex) === LF) {
        searchIndex++;
      }
      if (crIndex !== -1 && crIndex < searchIndex) {
        crIndex = chunk.indexOf("\r", searchIndex);
      }
      if (lfIndex !== -1 && lfIndex < searchIndex) {
        lfIndex = chunk.indexOf("\n", searchIndex);
      }
    }
    return chunk.slice(searchIndex);
  }
  function parseLine(chunk, start, end) {
    if (start === end) {
      dispatchEvent();
      return;
    }
    const firstCharCode = chunk.charCodeAt(start);
    if (isDataPrefix(chunk, start, firstCharCode)) {
      const valueStart = chunk.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5;
      const value2 = chunk.slice(valueStart, end);
      data = dataLines === 0 ? value2 : `${data}
${value2}`;
      dataLines++;
      return;
    }
    if (isEventPrefix(chunk, start, firstCharCode)) {
      eventType = chunk.slice(chunk.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end) || void 0;
      return;
    }
    if (firstCharCode === 105 && chunk.charCodeAt(start + 1) === 100 && chunk.charCodeAt(start + 2) === 58) {
      const value2 = chunk.slice(chunk.charCodeAt(start + 3) === SPACE ? start + 4 : start + 3, end);
      if (!value2.includes("\0"))
        id = value2;
      return;
    }
    if (firstCharCode === 58) {
      if (onComment) {
        const line2 = chunk.slice(start, end);
        onComment(line2.slice(chunk.charCodeAt(start + 1) === SPACE ? 2 : 1));
      }
      return;
    }
    const line = chunk.slice(start, end);
    const fieldSeparatorIndex = line.indexOf(":");
    if (fieldSeparatorIndex === -1) {
      processField(line, "", line);
      return;
    }
    const field = line.slice(0, fieldSeparatorIndex);
    const offset = line.charCodeAt(fieldSeparatorIndex + 1) === SPACE ? 2 : 1;
    const value = line.slice(fieldSeparatorIndex + offset);
    processField(field, value, line);
  }
  function processField(field, value, line) {
    switch (field) {
      case "event":
        eventType = value || void 0;
        break;
      case "data":
        data = dataLines === 0 ? value : `${data}
${value}`;
        dataLines++;
        break;
      case "id":
        if (!value.includes("\0"))
          id = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) {
          onRetry === null || onRetry === void 0 ? void 0 : onRetry(parseInt(value, 10));
        } else {
          onError === null || onError === void 0 ? void 0 : onError(new ParseError(`Invalid \`retry\` value: "${value}"`, {
            type: "invalid-retry",
            value,
            line
          }));
        }
        break;
      default:
        onError === null || onError === void 0 ? void 0 : onError(new ParseError(`Unknown field "${field.length > 20 ? `${field.slice(0, 20)}\u2026` : field}"`, { type: "unknown-field", field, value, line }));
        break;
    }
  }
  function dispatchEvent() {
    if (id !== void 0) {
      onId === null || onId === void 0 ? void 0 : onId(id);
    }
    if (dataLines > 0) {
      onEvent === null || onEvent === void 0 ? void 0 : onEvent({
        id,
        event: eventType,
        data
      });
    }
    id = void 0;
    data = "";
    dataLines = 0;
    eventType = void 0;
  }
  function reset(options = {}) {
    if (options.consume && pendingFragments.length > 0) {
      const incompleteLine = pendingFragments.join("");
      parseLine(incompleteLine, 0, incompleteLine.length);
    }
    bomPrefix = "";
    id = void 0;
    data = "";
    dataLines = 0;
    eventType = void 0;
    pendingFragments.length = 0;
    pendingFragmentsLength = 0;
    terminated = false;
    skippingLine = false;
    skipNextLineFeed = false;
  }
  return { feed, reset };
}
function isDataPrefix(chunk, i, firstCharCode) {
  return firstCharCode === 100 && chunk.charCodeAt(i + 1) === 97 && chunk.charCodeAt(i + 2) === 116 && chunk.charCodeAt(i + 3) === 97 && chunk.charCodeAt(i + 4) === 58;
}
function isEventPrefix(chunk, i, firstCharCode) {
  return firstCharCode === 101 && chunk.charCodeAt(i + 1) === 118 && chunk.charCodeAt(i + 2) === 101 && chunk.charCodeAt(i + 3) === 110 && chunk.charCodeAt(i + 4) === 116 && chunk.charCodeAt(i + 5) === 58;
}
function isPotentialField(line, field) {
  let i = 1;
  while (i < line.length && i < field.length) {
    if (line.charCodeAt(i) !== field.charCodeAt(i)) {
      return false;
    }
    i++;
  }
  return line.length <= field.length || line.charCodeAt(field.length) === 58;
}

// dist/services/http/sse-reader.js
var LF2 = 10;
var CR2 = 13;
var COLON = 58;
function createSseReader(options) {
  const maxLineBytes = options.maxLineBytes ?? sseMaxLineBytes;
  const maxEventBytes = options.maxEventBytes ?? sseMaxEventBytes;
  const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  let pieces = [];
  let pendingBytes = 0;
  let eventBytes = 0;
  let skipLeadingLf = false;
  let firstLine = true;
  let failed;
  const parser = createParser({
    onEvent: (message) => {
      const frame = { event: message.event || "message", data: message.data };
      if (message.id !== void 0)
        frame.id = message.id;
      options.onFrame(frame);
    },
    onComment: (comment) => options.onFrame({ event: "ping", data: comment, comment: true }),
    // Unknown fields and bad `retry` values are ignored, as the SSE spec says.
    onError: () => {
    }
  });
  function fail(what, limit) {
    failed = new SseLimitError(what, limit);
    pieces = [];
    pendingBytes = 0;
    eventBytes = 0;
    throw failed;
  }
  function hold(segment) {
    if (segment.length === 0)
      return;
    if (pendingBytes + segment.length > maxLineBytes)
      fail("line", maxLineBytes);
    pieces.push(segment.slice());
    pendingBytes += segment.length;
  }
  function takeLine(last) {
    if (pendingBytes + last.length > maxLineBytes)
      fail("line", maxLineBytes);
    if (pieces.length === 0)
      return last;
    const line = new Uint8Array(pendingBytes + last.length);
    let offset = 0;
    for (const piece of pieces) {
      line.set(piece, offset);
      offset += piece.length;
    }
    line.set(last, offset);
    pieces = [];
    pendingBytes = 0;
    return line;
  }
  function processLine(raw) {
    let line = raw;
    if (firstLine) {
      firstLine = false;
      if (line.length >= 3 && line[0] === 239 && line[1] === 187 && line[2] === 191)
        line = line.subarray(3);
    }
    if (line.length === 0) {
      eventBytes = 0;
      parser.feed("\n");
      return;
    }
    if (line[0] !== COLON) {
      eventBytes += line.length;
      if (eventBytes > maxEventBytes)
        fail("event", maxEventBytes);
    }
    parser.feed(`${decoder.decode(line)}
`);
  }
  return {
    feed(chunk) {
      if (failed)
        throw failed;
      let index = 0;
      const length = chunk.length;
      if (skipLeadingLf && length > 0) {
        skipLeadingLf = false;
        if (chunk[0] === LF2)
          index = 1;
      }
      while (index < length) {
        let end = index;
        while (end < length) {
          const byte = chunk[end];
          if (byte === LF2 || byte === CR2)
            break;
          end++;
        }
        if (end === length) {
          hold(chunk.subarray(index));
          return;
        }
        processLine(takeLine(chunk.subarray(index, end)));
        if (chunk[end] === CR2) {
          if (end + 1 < length)
            index = chunk[end + 1] === LF2 ? end + 2 : end + 1;
          else {
            skipLeadingLf = true;
            index = end + 1;
          }
        } else {
          index = end + 1;
        }
      }
    },
    end() {
      pieces = [];
      pendingBytes = 0;
      eventBytes = 0;
      parser.reset();
    },
    get failed() {
      return failed;
    },
    get bufferedBytes() {
      return pendingBytes + eventBytes;
    }
  };
}

// dist/services/http/server-errors.js
function endpointUrl(baseUrl, path, query) {
  const base = baseUrl.endsWith("/") ? baseUrl.slice(0, -1) : baseUrl;
  const url = new URL(`${base}${path}`);
  for (const [key, value] of Object.entries(query ?? {}))
    url.searchParams.set(key, value);
  return url;
}
function agentRequestHeaders(endpoint, extra = {}) {
  const version = endpoint.version ?? agentVersion;
  return {
    authorization: `Bearer ${endpoint.accessToken}`,
    "user-agent": `media-agent/${version}`,
    "x-agent-version": version,
    ...extra
  };
}
function parseErrorBody(text) {
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object" && typeof value.error === "string")
      return value;
  } catch {
  }
  return void 0;
}
function statusError(endpoint, what, status, bodyText) {
  const body = parseErrorBody(bodyText);
  const serverSays = body?.message ?? body?.error ?? bodyText.slice(0, 200);
  const details = { status, call: what, serverCode: body?.error };
  if (status === 401)
    return new ServerUnauthorizedError(endpoint.baseUrl, { details });
  if (status === 426)
    return new AgentVersionTooOldError(endpoint.version ?? agentVersion, body?.minAgentVersion, { details });
  if (status >= 500)
    return new ServerError(status, `the web server failed ${what} with ${status}: ${serverSays}`, { details });
  return new ServerRequestError(status, body?.error, `the web server refused ${what} with ${status}: ${serverSays}`, { details });
}
function transportError(endpoint, what, error, timeoutMs) {
  if (error instanceof AgentError)
    return error;
  const baseUrl = typeof endpoint === "string" ? endpoint : endpoint.baseUrl;
  const code = error?.code;
  const name = error?.name;
  const timedOut = name === "TimeoutError" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT";
  const causeMessage = describeCause(error);
  const reason = timedOut && timeoutMs !== void 0 ? `${what} timed out after ${timeoutMs} ms` : `${what} failed: ${causeMessage}`;
  return new ServerUnreachableError(baseUrl, reason, { cause: error, details: { call: what, code, timedOut } });
}
function describeCause(error) {
  if (!(error instanceof Error))
    return String(error);
  const cause = error.cause;
  const code = error.code;
  const inner = cause instanceof Error ? ` (${cause.code ?? cause.name}: ${cause.message})` : "";
  return `${code ?? error.name}: ${error.message}${inner}`;
}

// dist/services/http/downlink-transport.js
var gatewayStatuses = /* @__PURE__ */ new Set([502, 503, 504]);
function createDownlinkTransport(options) {
  return new NodeDownlinkTransport(options);
}
var NodeDownlinkTransport = class {
  #options;
  #log;
  #client;
  constructor(options) {
    this.#options = options;
    this.#log = options.logger;
    this.#client = createHttpClient();
  }
  openEvents(handlers) {
    const controller = new AbortController();
    let closed = false;
    const connectTimeoutMs = this.#options.connectTimeoutMs ?? sseConnectTimeoutMs;
    const bases = [this.#options.baseUrl, ...this.#options.mirrors ?? []];
    const run = async () => {
      let firstError;
      for (const baseUrl of bases) {
        if (closed)
          return;
        const endpoint = { ...this.#options, baseUrl };
        let response;
        try {
          response = await this.#client.request(endpointUrl(baseUrl, apiPaths.events), {
            method: "GET",
            headers: agentRequestHeaders(endpoint, { accept: "text/event-stream", "cache-control": "no-cache" }),
            signal: controller.signal,
            headersTimeoutMs: connectTimeoutMs
          });
        } catch (error) {
          if (closed)
            return;
          firstError ??= transportError(baseUrl, "events connect", error, connectTimeoutMs);
          this.#log.debug({ err: error, baseUrl }, "downlink SSE connect failed; trying the next URL");
          continue;
        }
        const contentType = String(response.headers["content-type"] ?? "");
        if (response.statusCode !== 200 || !contentType.toLowerCase().startsWith("text/event-stream")) {
          const text = await response.text().catch(() => "");
          if (closed)
            return;
          firstError ??= response.statusCode !== 200 ? statusError(endpoint, "events", response.statusCode, text) : new ServerResponseError(`events: ${baseUrl} answered 200 with content type "${contentType}", not text/event-stream`);
          this.#log.debug({ baseUrl, status: response.statusCode, contentType }, "downlink SSE connect refused; trying the next URL");
          continue;
        }
        if (closed) {
          response.body.destroy();
          return;
        }
        handlers.onConnected({ baseUrl });
        await this.#pump(response, baseUrl, handlers, () => closed);
        return;
      }
      if (!closed)
        handlers.onFailed(firstError ?? new ServerResponseError("events: no base URL to connect to"));
    };
    void run().catch((error) => {
      if (!closed)
        handlers.onFailed(transportError(this.#options.baseUrl, "events", error));
    });
    return {
      close: () => {
        closed = true;
        controller.abort();
      }
    };
  }
  async #pump(response, baseUrl, handlers, isClosed) {
    const reader = createSseReader({
      maxLineBytes: this.#options.maxLineBytes,
      maxEventBytes: this.#options.maxEventBytes,
      onFrame: (frame) => {
        if (!isClosed())
          handlers.onFrame(frame);
      }
    });
    try {
      for await (const chunk of response.body) {
        if (isClosed())
          break;
        reader.feed(chunk);
      }
    } catch (error) {
      response.body.destroy();
      if (isClosed())
        return;
      if (error instanceof SseLimitError) {
        this.#log.warn({ err: error, baseUrl }, "downlink SSE frame over the limit; closing the stream");
        handlers.onFailed(error);
      } else {
        handlers.onFailed(transportError(baseUrl, "events stream", error));
      }
      return;
    }
    reader.end();
    if (!isClosed())
      handlers.onEnded();
  }
  openWake(handlers) {
    const controller = new AbortController();
    let closed = false;
    const endpoint = this.#options;
    const now = this.#options.now ?? (() => performance.now());
    const heldReconnectMs = this.#options.wakeHeldReconnectMs ?? wakeHeldReconnectMs;
    const startedAt = now();
    const endedByProxy = (why) => {
      const heldMs = Math.round(now() - startedAt);
      if (heldMs < heldReconnectMs)
        return false;
      this.#log.debug({ ...why, heldMs }, "wake hold cut after a long hold (a proxy timeout); reconnecting at once");
      handlers.onEnded();
      return true;
    };
    const run = async () => {
      let response;
      try {
        response = await this.#client.request(endpointUrl(endpoint.baseUrl, apiPaths.wake), {
          method: "GET",
          headers: agentRequestHeaders(endpoint, { accept: "application/json" }),
          signal: controller.signal
        });
      } catch (error) {
        if (!closed && !endedByProxy({ err: error }))
          handlers.onFailed(transportError(endpoint, "wake", error));
        return;
      }
      let text;
      try {
        text = await response.text();
      } catch (error) {
        if (!closed && !endedByProxy({ err: error }))
          handlers.onFailed(transportError(endpoint, "wake", error));
        return;
      }
      if (closed)
        return;
      if (response.statusCode === 204)
        return handlers.onEnded();
      if (response.statusCode !== 200) {
        if (gatewayStatuses.has(response.statusCode) && endedByProxy({ status: response.statusCode }))
          return;
        return handlers.onFailed(statusError(endpoint, "wake", response.statusCode, text));
      }
      handlers.onWake({ reason: wakeReason(text) });
    };
    void run().catch((error) => {
      if (!closed)
        handlers.onFailed(transportError(endpoint, "wake", error));
    });
    return {
      close: () => {
        closed = true;
        controller.abort();
      }
    };
  }
  close() {
    this.#client.destroy();
    return Promise.resolve();
  }
};
function wakeReason(text) {
  try {
    const value = JSON.parse(text);
    if (value && typeof value.reason === "string")
      return value.reason;
  } catch {
  }
  return "wake";
}

// dist/services/http/server-api.js
import { promisify } from "node:util";
import { gzip } from "node:zlib";
var gzipAsync = promisify(gzip);
function createServerApi(options) {
  return new NodeServerApi(options);
}
var NodeServerApi = class {
  #endpoint;
  #log;
  #timeoutMs;
  #libraryTimeoutMs;
  #client;
  #libraryClient;
  constructor(options) {
    this.#endpoint = { baseUrl: options.baseUrl, accessToken: options.accessToken, version: options.version, mirrors: options.mirrors ?? [] };
    this.#log = options.logger;
    this.#timeoutMs = options.requestTimeoutMs ?? httpRequestTimeoutMs;
    this.#libraryTimeoutMs = options.libraryTimeoutMs ?? librarySyncTimeoutMs;
    this.#client = createHttpClient();
    this.#libraryClient = createHttpClient({ maxSockets: 1 });
  }
  async register(body) {
    const text = await this.#call("register", "POST", apiPaths.register, { json: body });
    const value = parseJson(text.body, "register");
    if (typeof value !== "object" || value === null || typeof value.signingSecret !== "string") {
      throw new ServerResponseError("register: the response has no signingSecret");
    }
    return {
      agentId: typeof value.agentId === "string" && value.agentId !== "" ? value.agentId : body.agentId,
      signingSecret: value.signingSecret,
      minAgentVersion: typeof value.minAgentVersion === "string" ? value.minAgentVersion : ""
    };
  }
  async sync(body) {
    const text = await this.#call("sync", "POST", apiPaths.sync, { json: body });
    return normalizeSyncResponse(parseJson(text.body, "sync"));
  }
  async sessionReady(sessionId) {
    await this.#call("session-ready", "POST", apiPaths.sessionReady, { json: { sessionId } });
  }
  async upgradeResult(result) {
    await this.#call("upgrade-result", "POST", apiPaths.upgradeResult, { json: result });
  }
  async vpnConfig(agentId, probe = false) {
    const query = { agent_id: agentId };
    if (probe)
      query.probe = "1";
    const answer = await this.#call("vpn-config", "GET", apiPaths.vpnConfig, {
      query,
      refine: (status, bodyText) => vpnRefusal(status, bodyText)
    });
    const exit = answer.headers[agentHeaders.vpnExitServer];
    return { config: answer.body, exitServer: typeof exit === "string" ? exit : "" };
  }
  async uploadLibrary(body) {
    const compressed = await gzipAsync(Buffer.from(JSON.stringify(body), "utf8"));
    await this.#call("library-sync", "POST", apiPaths.library, {
      raw: compressed,
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      client: this.#libraryClient,
      timeoutMs: this.#libraryTimeoutMs
    });
    return { bytes: compressed.length };
  }
  close() {
    this.#client.destroy();
    this.#libraryClient.destroy();
    return Promise.resolve();
  }
  async #call(what, method, path, options) {
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const url = endpointUrl(this.#endpoint.baseUrl, path, options.query);
    const extra = { ...options.headers };
    let payload;
    if (options.json !== void 0) {
      payload = JSON.stringify(options.json);
      extra["content-type"] = "application/json; charset=utf-8";
    } else if (options.raw) {
      payload = options.raw;
    }
    const signal = AbortSignal.timeout(timeoutMs);
    let status;
    let bodyText;
    let headers;
    try {
      const response = await (options.client ?? this.#client).request(url, {
        method,
        headers: agentRequestHeaders(this.#endpoint, extra),
        body: payload,
        signal
      });
      status = response.statusCode;
      headers = response.headers;
      bodyText = await response.text();
    } catch (error2) {
      const mapped = transportError(this.#endpoint, what, signal.aborted ? Object.assign(new Error("timed out"), { name: "TimeoutError", cause: error2 }) : error2, timeoutMs);
      this.#log.debug({ err: mapped, call: what }, "server call failed");
      throw mapped;
    }
    if (status >= 200 && status < 300)
      return { status, body: bodyText, headers };
    const error = options.refine?.(status, bodyText) ?? statusError(this.#endpoint, what, status, bodyText);
    this.#log.debug({ err: error, call: what, status }, "server call refused");
    throw error;
  }
};
function vpnRefusal(status, bodyText) {
  const code = parseErrorBody(bodyText)?.error;
  if (code && code in vpnConfigErrorStatus)
    return new VpnConfigError(code, { details: { status } });
  for (const [refusal, refusalStatus] of Object.entries(vpnConfigErrorStatus)) {
    if (refusalStatus === status)
      return new VpnConfigError(refusal, { details: { status } });
  }
  return void 0;
}
function parseJson(text, what) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ServerResponseError(`${what}: the response is not JSON`, { cause: error });
  }
}
function normalizeSyncResponse(value) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ServerResponseError("sync: the response is not a JSON object");
  }
  const record = value;
  const list = (key) => {
    const item = record[key];
    if (item === void 0 || item === null)
      return [];
    if (!Array.isArray(item))
      throw new ServerResponseError(`sync: "${key}" is not an array`);
    return item;
  };
  const response = {
    watching: record.watching === true,
    streamSessions: list("streamSessions"),
    actions: list("actions"),
    controls: list("controls"),
    upgradeRequested: record.upgradeRequested === true
  };
  if (typeof record.upgrade === "object" && record.upgrade !== null)
    response.upgrade = record.upgrade;
  return response;
}

// dist/system/control-plane-bindings.js
var settingKeys = [
  "syncIntervalWatchingMs",
  "syncIntervalIdleMs",
  "syncFailureBackoffBaseMs",
  "syncFailureBackoffMaxMs",
  "registerRetryBaseMs",
  "registerRetryMaxMs",
  "unauthorizedRetryMs",
  "versionTooOldRetryMs",
  "backoffJitterRatio",
  "appliedControlMemory",
  "unknownControlKindMemory",
  "livenessTimeoutMs",
  "sseFailuresBeforeFallback",
  "longPollReprobeMs",
  "sseReconnectDelayMs",
  "sseReconnectMaxMs",
  "wakeRetryDelayMs",
  "wakeRetryMaxMs"
];
var defaultControlPlaneSettings = Object.freeze(Object.fromEntries(settingKeys.map((key) => [key, defaults_exports[key]])));
function controlPlaneSettingsFrom(overrides = {}) {
  const settings = { ...defaultControlPlaneSettings };
  for (const key of settingKeys) {
    const value = overrides[key];
    if (typeof value === "number" && Number.isFinite(value) && value >= 0)
      settings[key] = value;
  }
  return settings;
}
function controlPlaneInput(options) {
  return {
    agentId: options.agentId,
    downlinkMode: options.downlinkMode ?? downlinkMode,
    settings: options.settings ?? controlPlaneSettingsFrom()
  };
}
var defaultRegisterSource = {
  collect: () => ({
    hostname: osHostname(),
    platform: { os: process.platform, arch: process.arch, node: process.versions.node, container: false }
  })
};
function guarded(log, what, run) {
  try {
    const result = run();
    if (result && typeof result.then === "function") {
      ;
      result.catch((err) => log.error({ err, ...what }, "control handler failed; acknowledged anyway"));
    }
  } catch (err) {
    log.error({ err, ...what }, "control handler failed; acknowledged anyway");
  }
}
function logAt(log, level, msg, data) {
  log[level](data ?? {}, msg);
}
function createControlPlaneLogic(deps) {
  const log = deps.logger;
  const downlinkLog = log.child({ component: "downlink" });
  const version = deps.version ?? agentVersion;
  const registerSource = deps.registerSource ?? defaultRegisterSource;
  const downlink = downlinkMachine.provide({
    actors: {
      sseStream: fromCallback(({ sendBack }) => {
        const handle = deps.transport.openEvents({
          onConnected: ({ baseUrl }) => sendBack({ type: "downlink.sse.connected", baseUrl }),
          onFrame: (frame) => sendBack({ type: "downlink.sse.frame", frame }),
          onEnded: () => sendBack({ type: "downlink.sse.ended" }),
          onFailed: (error) => sendBack({ type: "downlink.sse.failed", error })
        });
        return () => handle.close();
      }),
      wakeListener: fromCallback(({ sendBack }) => {
        const handle = deps.transport.openWake({
          onWake: ({ reason }) => sendBack({ type: "downlink.wake.woke", reason }),
          onEnded: () => sendBack({ type: "downlink.wake.ended" }),
          onFailed: (error) => sendBack({ type: "downlink.wake.failed", error })
        });
        return () => handle.close();
      })
    },
    actions: {
      log: (_, params) => logAt(downlinkLog, params.level, params.msg, params.data)
    }
  });
  return controlPlaneMachine.provide({
    actors: {
      register: fromPromise(async ({ input }) => {
        const [state, host] = await Promise.all([deps.source.collect(), registerSource.collect()]);
        const body = {
          agentId: input.agentId,
          version,
          hostname: host.hostname,
          platform: host.platform,
          streamServer: state.streamServer,
          FunnelURL: state.FunnelURL,
          VPNActive: state.VPNActive,
          VPNMode: state.VPNMode,
          VPNExitServer: state.VPNExitServer
        };
        if (host.hwAccel)
          body.hwAccel = host.hwAccel;
        return deps.api.register(body);
      }),
      sync: fromPromise(async ({ input }) => {
        const state = await deps.source.collect();
        const response = await deps.api.sync({
          ...state,
          // Always present, never omitted: a downed tunnel frees the slot (contract 2.4).
          VPNActive: state.VPNActive === true,
          agentId: input.agentId,
          version,
          appliedControls: input.appliedControls
        });
        return { response, sessionsLive: state.sessions.some((session) => session.state === "starting" || session.state === "ready") };
      }),
      downlink
    },
    actions: {
      applyControl: (_, { control, origin }) => guarded(log, { controlId: control.id, kind: control.kind, origin }, () => deps.sink.applyControl(control)),
      applyAction: (_, { action, origin }) => guarded(log, { action: action.type, taskId: action.taskId, origin }, () => deps.sink.applyAction(action)),
      deliverStreamSessions: (_, { sessions }) => guarded(log, { what: "streamSessions" }, () => deps.sink.streamSessions(sessions)),
      deliverUpgrade: (_, { requested, offer }) => guarded(log, { what: "upgrade" }, () => deps.sink.upgrade(requested, offer)),
      reportRegistered: (_, response) => guarded(log, { what: "onRegistered" }, () => deps.onRegistered({ agentId: response.agentId, signingSecret: response.signingSecret, minAgentVersion: response.minAgentVersion })),
      log: (_, params) => logAt(log, params.level, params.msg, params.data)
    },
    delays: controlPlaneDelays(deps.random ?? Math.random)
  });
}
function createControlPlanePart(options) {
  const { config } = options;
  const logger = options.logger.child({ component: "controlPlane" });
  const endpoint = { baseUrl: config.server.baseUrl, mirrors: config.server.mirrors, accessToken: config.server.accessToken };
  const api = createServerApi({
    ...endpoint,
    logger: logger.child({ component: "serverApi" }),
    requestTimeoutMs: timing(config, "httpRequestTimeoutMs"),
    libraryTimeoutMs: timing(config, "librarySyncTimeoutMs")
  });
  const transport = createDownlinkTransport({
    ...endpoint,
    logger: logger.child({ component: "downlinkTransport" }),
    connectTimeoutMs: timing(config, "sseConnectTimeoutMs"),
    maxLineBytes: timing(config, "sseMaxLineBytes"),
    maxEventBytes: timing(config, "sseMaxEventBytes"),
    wakeHeldReconnectMs: timing(config, "wakeHeldReconnectMs")
  });
  const settings = controlPlaneSettingsFrom(config.testing);
  const logic = createControlPlaneLogic({
    api,
    transport,
    settings,
    logger,
    source: options.source,
    sink: options.sink,
    onRegistered: options.onRegistered,
    ...options.registerSource ? { registerSource: options.registerSource } : {},
    ...options.random ? { random: options.random } : {}
  });
  return {
    api,
    transport,
    logic,
    input: controlPlaneInput({ agentId: options.agentId, downlinkMode: config.daemon.downlink, settings }),
    closers: [
      { name: "downlinkTransport", close: () => transport.close() },
      { name: "serverApi", close: () => api.close() }
    ]
  };
}

// dist/services/net/container.js
import { existsSync, readFileSync as readFileSync2 } from "node:fs";
function isContainer() {
  if (existsSync("/.dockerenv") || existsSync("/run/.containerenv"))
    return true;
  try {
    return /docker|kubepods|containerd|libpod|lxc/.test(readFileSync2("/proc/1/cgroup", "utf8"));
  } catch {
    return false;
  }
}

// dist/system/tasks-part.js
import { basename } from "node:path";

// dist/services/torrent/lazy-engine.js
function lazyEngine(create) {
  let engine;
  let loading;
  const load = () => loading ??= Promise.resolve().then(create).then((created) => engine = created);
  return {
    get started() {
      return loading !== void 0;
    },
    resolveSource: async (source, options) => (await load()).resolveSource(source, options),
    start: (input, listener) => {
      if (engine)
        return engine.start(input, listener);
      let unsubscribe;
      let cancelled = false;
      load().then((ready) => {
        if (!cancelled)
          unsubscribe = ready.start(input, listener);
      }, (err) => {
        if (!cancelled)
          listener({ type: "error", infoHash: input.infoHash, error: new TorrentEngineError(`the torrent engine could not be loaded: ${toAgentError(err).message}`, { cause: err }) });
      });
      return () => {
        cancelled = true;
        unsubscribe?.();
      };
    },
    pause: async (infoHash) => (await load()).pause(infoHash),
    resume: async (infoHash) => (await load()).resume(infoHash),
    recheck: async (infoHash) => (await load()).recheck(infoHash),
    remove: async (infoHash, options) => (await load()).remove(infoHash, options),
    stats: (infoHash) => engine?.stats(infoHash),
    createReadStream: (infoHash, fileIndex, range) => {
      if (!engine)
        throw new TorrentNotFoundError(`torrent ${infoHash} is not active`);
      return engine.createReadStream(infoHash, fileIndex, range);
    },
    listening: async () => (await load()).listening(),
    close: async () => {
      if (loading)
        await loading.then((ready) => ready.close(), () => void 0);
    }
  };
}

// dist/services/torrent/tasks-store.js
import * as nodeFs from "node:fs/promises";
import { join as join3 } from "node:path";
var taskStates = ["queued", "fetching_metadata", "downloading", "paused", "seeding", "completed", "error"];
var tmpPattern = /^\..+\.\d+\.\d+\.tmp$/;
var FileTasksStore = class {
  #dir;
  #file;
  #metaDir;
  #log;
  #interval;
  #now;
  #fs;
  #tasks = /* @__PURE__ */ new Map();
  #dirty = false;
  #writing = null;
  #timer = null;
  #lastWriteAt = Number.NEGATIVE_INFINITY;
  #wantImmediate = false;
  #tmpSeq = 0;
  #closed = false;
  constructor(options) {
    this.#dir = options.stateDir;
    this.#file = join3(options.stateDir, tasksFileName);
    this.#metaDir = join3(options.stateDir, torrentMetadataDirName);
    this.#log = options.logger;
    this.#interval = options.minWriteIntervalMs ?? tasksJsonMinWriteIntervalMs;
    this.#now = options.now ?? Date.now;
    this.#fs = options.fs ?? nodeFs;
  }
  get path() {
    return this.#file;
  }
  async load() {
    await this.#fs.mkdir(this.#dir, { recursive: true });
    await this.#removeStaleTemps(this.#dir);
    let text;
    try {
      text = await this.#fs.readFile(this.#file, "utf8");
    } catch (err) {
      if (err.code === "ENOENT")
        return [];
      throw new StateFileError(`cannot read ${this.#file}: ${err.message}`, { cause: err });
    }
    let tasks;
    try {
      tasks = parseTasksFile(text);
    } catch (err) {
      const movedTo = `${this.#file}.corrupt-${new Date(this.#now()).toISOString().replace(/[:.]/g, "-")}`;
      await this.#fs.rename(this.#file, movedTo);
      throw new TasksFileCorruptError(`${this.#file} is corrupt (${err.message}); it was moved to ${movedTo} and the agent starts without its tasks`, { cause: err, movedTo });
    }
    this.#tasks.clear();
    for (const task of tasks)
      this.#tasks.set(task.id, task);
    return tasks.map((task) => ({ ...task }));
  }
  put(record, options) {
    this.#tasks.set(record.id, record);
    this.#schedule(options.immediate);
  }
  remove(taskId) {
    if (!this.#tasks.delete(taskId))
      return;
    this.#schedule(true);
  }
  records() {
    return [...this.#tasks.values()];
  }
  async flush() {
    for (let attempts = 0; ; ) {
      if (this.#timer) {
        clearTimeout(this.#timer);
        this.#timer = null;
      }
      if (this.#writing) {
        await this.#writing;
        continue;
      }
      if (!this.#dirty)
        return;
      if (attempts++ >= 1) {
        this.#schedule(false);
        return;
      }
      await this.#startWrite();
    }
  }
  async close() {
    await this.flush();
    this.#closed = true;
  }
  async readMetadata(infoHash) {
    try {
      return new Uint8Array(await this.#fs.readFile(this.#metadataPath(infoHash)));
    } catch (err) {
      if (err.code === "ENOENT")
        return void 0;
      throw new StateFileError(`cannot read torrent metadata of ${infoHash}: ${err.message}`, { cause: err });
    }
  }
  async saveMetadata(infoHash, torrentFile) {
    await this.#fs.mkdir(this.#metaDir, { recursive: true });
    await this.#atomicWrite(this.#metadataPath(infoHash), torrentFile);
  }
  async deleteMetadata(infoHash) {
    await this.#fs.unlink(this.#metadataPath(infoHash)).catch(() => {
    });
  }
  #metadataPath(infoHash) {
    if (!/^[0-9a-f]{40}$/.test(infoHash))
      throw new StateFileError(`not an info hash: ${infoHash}`);
    return join3(this.#metaDir, `${infoHash}.torrent`);
  }
  #schedule(immediate) {
    this.#dirty = true;
    if (this.#closed)
      return;
    if (this.#writing) {
      this.#wantImmediate ||= immediate;
      return;
    }
    const wait = immediate ? 0 : Math.max(0, this.#lastWriteAt + this.#interval - this.#now());
    if (wait === 0) {
      if (this.#timer)
        clearTimeout(this.#timer);
      this.#timer = null;
      void this.#startWrite();
      return;
    }
    if (this.#timer)
      return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#dirty && !this.#writing)
        void this.#startWrite();
    }, wait);
    this.#timer.unref?.();
  }
  #startWrite() {
    this.#dirty = false;
    this.#wantImmediate = false;
    this.#lastWriteAt = this.#now();
    const body = { version: 1, tasks: [...this.#tasks.values()] };
    const write = this.#atomicWrite(this.#file, new TextEncoder().encode(JSON.stringify(body, null, 1) + "\n")).then(() => true, (err) => {
      this.#dirty = true;
      this.#log.warn({ err: new StateFileError(`cannot write ${this.#file}: ${err.message}`, { cause: err }) }, "tasks.json write failed; will retry");
      return false;
    }).then((ok) => {
      this.#writing = null;
      if (this.#dirty && !this.#closed)
        this.#schedule(ok && this.#wantImmediate);
    });
    this.#writing = write;
    return write;
  }
  async #atomicWrite(path, data) {
    const dir = path.slice(0, path.lastIndexOf("/")) || "/";
    const base = path.slice(path.lastIndexOf("/") + 1);
    const tmp = join3(dir, `.${base}.${process.pid}.${++this.#tmpSeq}.tmp`);
    try {
      const handle = await this.#fs.open(tmp, "w", 384);
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.#fs.rename(tmp, path);
    } catch (err) {
      await this.#fs.unlink(tmp).catch(() => {
      });
      throw err;
    }
    const dirHandle = await this.#fs.open(dir, "r");
    try {
      await dirHandle.sync();
    } finally {
      await dirHandle.close();
    }
  }
  async #removeStaleTemps(dir) {
    const names = await this.#fs.readdir(dir).catch(() => []);
    for (const name of names)
      if (tmpPattern.test(name))
        await this.#fs.unlink(join3(dir, name)).catch(() => {
        });
  }
};
function parseTasksFile(text) {
  const data = JSON.parse(text);
  if (!data || typeof data !== "object" || data.version !== 1 || !Array.isArray(data.tasks))
    throw new Error("not a version 1 tasks file");
  const seen = /* @__PURE__ */ new Set();
  return data.tasks.map((task, index) => {
    const t = task;
    if (!t || typeof t.id !== "string" || t.id === "" || typeof t.source !== "string" || !taskStates.includes(t.state)) {
      throw new Error(`task ${index} is malformed`);
    }
    if (seen.has(t.id))
      throw new Error(`task ${t.id} appears twice`);
    seen.add(t.id);
    return {
      id: t.id,
      source: t.source,
      infoHash: typeof t.infoHash === "string" ? t.infoHash : "",
      name: typeof t.name === "string" ? t.name : "",
      state: t.state,
      size: num(t.size),
      downloaded: num(t.downloaded),
      uploaded: num(t.uploaded),
      progress: num(t.progress),
      files: Array.isArray(t.files) ? t.files.filter((f) => f && typeof f.path === "string").map((f) => ({ path: f.path, size: num(f.size), progress: num(f.progress) })) : [],
      ...typeof t.error === "string" ? { error: t.error } : {},
      ...typeof t.errorCode === "string" ? { errorCode: t.errorCode } : {},
      addedAt: num(t.addedAt)
    };
  });
}
function num(value) {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

// dist/system/task-progress-poll.js
var realTimers = {
  setInterval: (fn, ms) => {
    const handle = setInterval(fn, ms);
    handle.unref?.();
    return handle;
  },
  clearInterval: (handle) => clearInterval(handle)
};
function createProgressPoll(options) {
  const timers = options.timers ?? realTimers;
  let handle;
  let last;
  let stopped = false;
  const sample = () => {
    const stats = options.read();
    if (!stats)
      return false;
    const progress = toProgress(stats);
    const key = JSON.stringify(progress);
    const unchanged2 = key === last;
    if (!unchanged2) {
      last = key;
      options.send(progress);
    }
    return unchanged2 && stats.peers === 0;
  };
  const tick = () => {
    if (sample())
      disarm();
  };
  const disarm = () => {
    if (handle === void 0)
      return;
    timers.clearInterval(handle);
    handle = void 0;
  };
  return {
    wake() {
      if (stopped)
        return;
      sample();
      if (handle === void 0)
        handle = timers.setInterval(tick, options.intervalMs);
    },
    get polling() {
      return handle !== void 0;
    },
    stop() {
      stopped = true;
      disarm();
    }
  };
}
function toProgress(stats) {
  return {
    name: stats.name,
    hasMetadata: stats.hasMetadata,
    ready: stats.ready,
    done: stats.done,
    progress: stats.progress,
    size: stats.size,
    downloaded: stats.downloaded,
    uploaded: stats.uploaded,
    downloadSpeed: stats.downloadSpeed,
    uploadSpeed: stats.uploadSpeed,
    peers: stats.peers,
    etaSeconds: stats.etaSeconds,
    files: stats.files.map((f) => ({ path: f.path, size: f.size, progress: f.progress }))
  };
}

// dist/system/task-bindings.js
function taskInputFor(from, seedRatio2, now = Date.now) {
  if ("taskId" in from)
    return { taskId: from.taskId, source: from.source, seedRatio: seedRatio2, addedAt: now() };
  return { taskId: from.id, source: from.source, seedRatio: seedRatio2, addedAt: from.addedAt, restored: from };
}
function createTaskBindings(options) {
  const { engine, store, logger } = options;
  const log = logger;
  const progressIntervalMs = options.progressIntervalMs ?? torrentProgressIntervalMs;
  const claims = /* @__PURE__ */ new Map();
  const pending = /* @__PURE__ */ new Set();
  const track = (promise) => {
    const tracked = promise.finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  const claim = (infoHash, taskId) => {
    const holder = claims.get(infoHash);
    if (holder !== void 0 && holder !== taskId) {
      throw new TorrentDuplicateError(`info hash ${infoHash} is already task ${holder}; this task is a duplicate and downloads nothing`, { infoHash, existingTaskId: holder });
    }
    claims.set(infoHash, taskId);
  };
  const machine = taskMachine.provide({
    actors: {
      resolveSource: fromPromise(async ({ input, signal }) => {
        const resolved = await engine.resolveSource(input.source, { signal });
        if (signal.aborted)
          throw new Error("task left the queue while its source was being resolved");
        claim(resolved.infoHash, input.taskId);
        if (resolved.torrentFile)
          await store.saveMetadata(resolved.infoHash, resolved.torrentFile);
        return { infoHash: resolved.infoHash, name: resolved.name };
      }),
      torrent: fromCallback(({ input, sendBack }) => {
        const { infoHash, taskId } = input;
        let stopped = false;
        let unsubscribe = () => {
        };
        const poll = createProgressPoll({
          intervalMs: progressIntervalMs,
          read: () => engine.stats(infoHash),
          send: (progress) => sendBack({ type: "engine.progress", progress }),
          timers: options.timers
        });
        const tick = () => poll.wake();
        const onEvent = (event) => {
          if (stopped)
            return;
          switch (event.type) {
            case "peer":
              tick();
              break;
            case "metadata":
              track(store.saveMetadata(infoHash, event.torrentFile).catch((err) => log.warn({ err, taskId }, "cannot save torrent metadata")));
              sendBack({ type: "engine.metadata", name: event.name, size: event.size, files: event.files.map((f) => ({ path: f.path, size: f.size, progress: 0 })) });
              tick();
              break;
            case "ready":
              tick();
              break;
            case "done":
              tick();
              sendBack({ type: "engine.done" });
              break;
            case "error":
              log.warn({ err: event.error, taskId, infoHash }, "task failed");
              sendBack({ type: "engine.error", message: event.error.message, code: event.error.code });
              break;
          }
        };
        void (async () => {
          try {
            claim(infoHash, taskId);
            const torrentFile = await store.readMetadata(infoHash);
            if (stopped)
              return;
            const magnetURI = /^magnet:/i.test(input.source) ? input.source : `magnet:?xt=urn:btih:${infoHash}`;
            unsubscribe = engine.start({ infoHash, torrentFile, magnetURI }, onEvent);
            tick();
          } catch (err) {
            const error = toAgentError(err);
            if (!stopped)
              sendBack({ type: "engine.error", message: error.message, code: error.code });
          }
        })();
        return () => {
          stopped = true;
          poll.stop();
          unsubscribe();
          track(engine.pause(infoHash).catch((err) => log.warn({ err, taskId }, "cannot stop torrent")));
        };
      }),
      removeTask: fromPromise(async ({ input }) => {
        const { taskId, infoHash, deleteFiles } = input;
        store.remove(taskId);
        if (infoHash === "" || claims.get(infoHash) !== taskId)
          return;
        claims.delete(infoHash);
        const torrentFile = await store.readMetadata(infoHash).catch(() => void 0);
        try {
          await engine.remove(infoHash, { deleteFiles, torrentFile });
        } finally {
          await store.deleteMetadata(infoHash);
        }
      }),
      recheck: fromPromise(({ input }) => engine.recheck(input.infoHash))
    },
    actions: {
      forgetPieces: (_, { infoHash }) => track(engine.recheck(infoHash).catch((err) => log.warn({ err, infoHash }, "cannot forget the verified-piece map"))),
      persist: ({ context }, params) => store.put(taskRecordOf(context), params),
      reportChange: ({ context }, params) => options.onChange?.({ taskId: context.id, state: params.state })
    }
  });
  return {
    machine,
    claims,
    async settle() {
      while (pending.size > 0)
        await Promise.allSettled([...pending]);
    },
    restore(records) {
      for (const record of records)
        if (record.infoHash !== "" && !claims.has(record.infoHash))
          claims.set(record.infoHash, record.id);
    }
  };
}

// dist/system/tasks-part.js
var activeStates = /* @__PURE__ */ new Set(["queued", "fetching_metadata", "downloading", "seeding"]);
function createTasksPart(options) {
  const log = options.logger.child({ component: "tasks" });
  const peers = options.config.downloads.torrent;
  const engine = lazyEngine(async () => new (await import("./engine-6AOCJHF6.js")).WebTorrentEngine({
    downloadDir: options.config.downloads.dir,
    logger: options.logger.child({ component: "torrent" }),
    dht: peers.dht,
    lsd: peers.lsd,
    pex: peers.pex,
    utp: peers.utp,
    natUpnp: peers.natTraversal,
    natPmp: peers.natTraversal,
    torrentPort: peers.port,
    // Verified-piece maps beside torrents/<infohash>.torrent: a restart seeds without re-hashing.
    stateDir: options.config.daemon.stateDir,
    ...options.engine
  }));
  const store = new FileTasksStore({ stateDir: options.config.daemon.stateDir, logger: options.logger.child({ component: "tasks-store" }) });
  const bindings = createTaskBindings({ engine, store, logger: log, onChange: ({ taskId, state }) => options.changed(`task ${taskId} ${state}`) });
  const logic = tasksMachine.provide({
    actors: {
      task: bindings.machine,
      loadTasks: fromPromise(async ({ input }) => {
        let records = [];
        try {
          records = await store.load();
        } catch (err) {
          log.error({ err }, "tasks.json could not be loaded; starting without the tasks in it");
        }
        bindings.restore(records);
        return records.map((record) => taskInputFor(record, input.seedRatio));
      })
    },
    actions: {
      logUnknownTask: (_, params) => log.info(params, `${params.what} for an unknown task: acknowledged, nothing to do`),
      logTaskCrash: (_, params) => log.error(params, "task actor failed; it resumes from tasks.json at the next start")
    }
  });
  let tasksActor = () => void 0;
  const taskActors = () => {
    const children = tasksActor()?.getSnapshot()?.children ?? {};
    return Object.values(children).filter((child2) => child2 !== void 0 && child2.id.startsWith("task:"));
  };
  const reports = () => taskActors().map((actor) => taskReportOf(actor.getSnapshot())).filter((report) => report !== null);
  const command = (taskId, what, taskCommand) => tasksActor()?.send({ type: "tasks.command", taskId, what, command: taskCommand });
  const recheck = (id) => {
    const all = reports();
    const report = all.find((r) => r.id === id) ?? all.find((r) => r.infoHash !== "" && r.infoHash === id.toLowerCase());
    if (!report)
      return { outcome: "not_found", message: `no task with the id or info hash "${id}"` };
    if (!report.infoHash || report.size === 0 && report.files.length === 0) {
      return { outcome: "no_metadata", taskId: report.id, state: report.state, message: "the task has no metadata yet: there is nothing to check" };
    }
    command(report.id, "recheck", { type: "task.recheck" });
    const later = report.state === "paused" || report.state === "error";
    return { outcome: later ? "next_start" : "checking", taskId: report.id, infoHash: report.infoHash, state: report.state };
  };
  const adminRoutes = [
    {
      method: "POST",
      path: "/api/torrents/recheck",
      handle: ({ body }) => {
        const id = typeof body === "object" && body !== null ? body.task : void 0;
        if (typeof id !== "string" || id === "")
          return { status: 400, json: { error: "bad_request", message: 'body must be {"task": "<taskId or info hash>"}' } };
        return { status: 200, json: recheck(id) };
      }
    }
  ];
  const closers = [
    // Task actors are stopped by then (the root stops its children first); their last state is
    // in tasks.json once pending writes settle.
    { name: "tasks.json", close: async () => {
      await bindings.settle();
      await store.flush();
    } },
    { name: "torrent engine", close: () => engine.close() }
  ];
  return {
    logic,
    input: { seedRatio: options.config.downloads.seedRatio },
    closers,
    adminRoutes,
    engine,
    /** Called once the root exists: how to reach the `tasks` actor. */
    attach(get) {
      tasksActor = get;
    },
    reports,
    activeCount: () => reports().filter((report) => activeStates.has(report.state)).length,
    /** Applies a task action or control; false when the item is not about tasks. */
    apply(item) {
      if ("type" in item) {
        if (item.type === "add_task")
          tasksActor()?.send({ type: "tasks.add", taskId: item.taskId, source: item.source, addedAt: Date.now() });
        else
          command(item.taskId, "delete_task", { type: "task.delete", deleteFiles: item.deleteFiles ?? false });
        return true;
      }
      if (item.kind === "pause_task")
        command(item.taskId, "pause_task", { type: "task.pause" });
      else if (item.kind === "resume_task")
        command(item.taskId, "resume_task", { type: "task.resume" });
      else
        return false;
      return true;
    },
    /**
     * A file of a task still downloading, for direct play and HLS: reads wait for their pieces
     * and move them to the front of the queue. Undefined when no task holds the path or the file
     * is complete (it is then served from disk like any local file).
     */
    inProgressFile(filePath) {
      for (const report of reports()) {
        if (!report.infoHash)
          continue;
        const stats = engine.stats(report.infoHash);
        const fileIndex = stats?.files.findIndex((file2) => file2.path === filePath) ?? -1;
        const file = fileIndex >= 0 ? stats?.files[fileIndex] : void 0;
        if (!file || file.progress >= 1)
          continue;
        const infoHash = report.infoHash;
        return {
          provider: engine,
          infoHash,
          fileIndex,
          size: file.size,
          name: basename(file.path),
          isAvailable: () => engine.stats(infoHash) !== void 0
        };
      }
      return void 0;
    }
  };
}

// dist/services/hls/lazy-engine.js
function lazyHlsEngine(create) {
  let engine;
  let loading;
  const load = () => loading ??= create().then((created) => engine = created);
  return {
    get loaded() {
      return engine !== void 0;
    },
    start(params, events) {
      if (engine)
        return engine.start(params, events);
      let stopped = false;
      const handle = load().then((ready) => stopped ? void 0 : ready.start(params, events), (err) => {
        if (!stopped)
          events.onFailed(err instanceof Error ? err : new Error(String(err)));
        return void 0;
      });
      return {
        stop: async () => {
          stopped = true;
          await (await handle)?.stop();
        }
      };
    },
    routes: async (context) => (engine ?? await load()).routes(context),
    stopAll: async () => {
      if (loading)
        await loading.then((ready) => ready.stopAll(), () => void 0);
    },
    inspect: () => engine?.inspect() ?? []
  };
}

// dist/system/hls-part.js
function createHlsPart(options) {
  const { config } = options;
  const log = options.logger.child({ component: "hls" });
  let ffmpegPath2;
  try {
    ffmpegPath2 = resolveFfmpegBinary("ffmpeg", { configuredPath: config.transcode.ffmpegPath });
  } catch (err) {
    log.warn({ err }, "HLS transcoding is off: ffmpeg not found");
    return { engine: void 0, closers: [] };
  }
  const encoder = config.transcode.encoder === "auto" ? "libx264" : config.transcode.encoder;
  const encoders2 = options.encoders;
  const engine = lazyHlsEngine(async () => (await import("./engine-IMJIUCMI.js")).createHlsEngine({
    ffmpegPath: ffmpegPath2,
    ffprobePath: config.transcode.ffprobePath || void 0,
    // Session directories live beside the segment cache: the disk the user chose for it.
    workDir: config.downloads.hlsCache.dir,
    logger: log,
    encoder,
    ...encoders2 ? { encoderFor: () => encoders2.encoderFor(), onEncoderFailed: (failed, reason) => encoders2.encoderFailed(failed, reason) } : {},
    readinessDeadlineMs: timing(config, "readinessDeadlineMs"),
    // The persistent segment cache (issue 11) when enabled; else plain session directories.
    ...options.store ? { store: options.store } : {},
    ...options.metrics ? { metrics: options.metrics } : {},
    ...options.probe ? { probe: options.probe } : {}
  }));
  return { engine, closers: [{ name: "hls engine", close: () => engine.stopAll() }] };
}

// dist/system/upgrade-part.js
import { rename } from "node:fs/promises";

// dist/services/upgrade/supervisor.js
var supervisorEnvVar = "MEDIA_AGENT_SUPERVISOR";
function detectSupervisor(probe = { env: process.env, isContainer }) {
  const declared = probe.env[supervisorEnvVar]?.trim();
  if (declared === "restart-on-75" || declared === "systemd")
    return "restart";
  if (declared === "container")
    return "container";
  if (declared === "none")
    return "none";
  if (probe.env.INVOCATION_ID || probe.env.NOTIFY_SOCKET)
    return "restart";
  if (probe.isContainer())
    return "container";
  return "none";
}
function unknownSupervisorValue(env) {
  const declared = env[supervisorEnvVar]?.trim();
  if (!declared)
    return void 0;
  return ["restart-on-75", "systemd", "container", "none"].includes(declared) ? void 0 : declared;
}

// dist/system/upgrade-part.js
async function createUpgradePart(options) {
  const log = options.logger.child({ component: "upgrade" });
  const stateDir2 = options.config.daemon.stateDir;
  const currentVersion = options.currentVersion ?? agentVersion;
  const unknown = unknownSupervisorValue(process.env);
  if (unknown !== void 0)
    log.warn({ value: unknown }, `${supervisorEnvVar} is not restart-on-75, systemd, container or none; detecting instead`);
  const supervisor = options.supervisor ?? detectSupervisor();
  const stored = await readOrSetAside(stateDir2, log);
  const input = {
    currentVersion,
    supervisor,
    reported: stored.results.filter((entry) => entry.posted).map((entry) => entry.result.toVersion),
    unposted: stored.results.filter((entry) => !entry.posted).map((entry) => entry.result),
    ...stored.pending?.toVersion === currentVersion ? { justInstalled: { fromVersion: stored.pending.fromVersion, toVersion: currentVersion } } : {}
  };
  if (input.justInstalled)
    log.info(input.justInstalled, "this is the version just installed; success is reported once it has registered");
  let remembered = stored.results.some((entry) => entry.posted);
  let queue = Promise.resolve();
  const change = (fn) => {
    const next = queue.then(() => updateUpgradeState(stateDir2, fn));
    queue = next.catch(() => {
    });
    return next;
  };
  const downloader = options.downloader ?? {
    download: async (offer) => (await import("./artifact-download-3A2NINT4.js")).createArtifactDownloader({
      dir: versionsDir(stateDir2),
      maxBytes: upgradeMaxArtifactBytes,
      timeoutMs: upgradeDownloadTimeoutMs,
      server: { baseUrl: options.config.server.baseUrl, accessToken: options.config.server.accessToken }
    }).download(offer)
  };
  const installer = options.installer ?? {
    install: async (params) => (await import("./installer-HMKC2XF2.js")).createInstaller({
      stateDir: stateDir2,
      extractTimeoutMs: upgradeExtractTimeoutMs,
      smokeTestTimeoutMs: upgradeSmokeTestTimeoutMs
    }).install(params)
  };
  let requestExit;
  const exitRequested = new Promise((resolve5) => {
    requestExit = resolve5;
  });
  const report = async (result) => {
    const remember = (posted) => change((state) => ({
      pending: result.outcome === "success" && state.pending?.toVersion === result.toVersion ? null : state.pending,
      results: [...state.results.filter((entry) => entry.result.toVersion !== result.toVersion), { result, posted }]
    }));
    await remember(false);
    await options.api.upgradeResult(result);
    await remember(true);
    remembered = true;
    log.info({ ...result }, "upgrade result reported");
  };
  const logic = createUpgradeLogic({
    download: ({ offer }) => downloader.download(offer).then((artifactPath) => ({ artifactPath })),
    install: (params) => installer.install(params),
    report,
    exitForRestart: (toVersion) => {
      log.info({ from: currentVersion, to: toVersion, exitCode: upgradeRestartExitCode }, "new version installed; exiting so the supervisor starts it");
      requestExit(upgradeRestartExitCode);
    },
    forgetReported: () => {
      if (!remembered)
        return;
      remembered = false;
      change((state) => ({ ...state, results: state.results.filter((entry) => !entry.posted) })).catch((error) => log.warn({ err: error }, "cannot update upgrade.json"));
    },
    requestSync: () => options.requestSync("update"),
    log: (level, msg, data) => log[level](data ?? {}, msg)
  });
  const snapshot = () => options.actor()?.getSnapshot();
  const adminRoutes = [
    { method: "GET", path: "/api/upgrade", handle: () => ({ status: 200, json: describe2(snapshot()) }) },
    {
      method: "POST",
      path: "/api/upgrade",
      handle: async () => ({ status: 200, json: await runUpdate(options.actor, options.syncCycles, upgradeCommandTimeoutMs) })
    }
  ];
  return { logic, input, exitRequested, adminRoutes, status: () => ({ upgrade: describe2(snapshot()) }) };
}
async function readOrSetAside(stateDir2, log) {
  try {
    return await readUpgradeState(stateDir2);
  } catch (error) {
    const aside = `${upgradeStatePath(stateDir2)}.corrupt-${Date.now()}`;
    await rename(upgradeStatePath(stateDir2), aside).catch(() => {
    });
    log.error({ err: error, movedTo: aside }, "upgrade.json could not be read; moved aside, starting with no upgrade state");
    return emptyUpgradeState();
  }
}
function describe2(snapshot) {
  return snapshot ? upgradeStatusOf(snapshot) : { state: "not running" };
}
async function runUpdate(actor, syncCycles, timeoutMs) {
  const ref = actor();
  const first = ref?.getSnapshot();
  if (!ref || !first || first.status !== "active")
    return { outcome: "failure", error: "the upgrade actor is not running" };
  if (first.value !== "idle")
    return { outcome: "failure", error: `an upgrade is already under way (${JSON.stringify(first.value)}); try again when it is done`, ...upgradeStatusOf(first) };
  const before = first.context.attempts;
  return new Promise((resolve5) => {
    const timer = setTimeout(() => {
      subscription.unsubscribe();
      resolve5({ outcome: "failure", error: `no sync with the server completed within ${Math.round(timeoutMs / 1e3)} s` });
    }, timeoutMs);
    const subscription = ref.subscribe((snapshot) => {
      const last = snapshot.context.last;
      if (!last || last.seq <= before)
        return;
      clearTimeout(timer);
      subscription.unsubscribe();
      resolve5({ ...last, currentVersion: snapshot.context.currentVersion });
    });
    ref.send({ type: "upgrade.manual", afterCycle: syncCycles() });
  });
}
function createUpgradeLogic(bindings) {
  return upgradeMachine.provide({
    actors: {
      download: fromPromise(({ input }) => bindings.download(input)),
      install: fromPromise(({ input }) => bindings.install(input)),
      report: fromPromise(({ input }) => bindings.report(input.result))
    },
    actions: {
      exitForRestart: (_, { toVersion }) => bindings.exitForRestart(toVersion),
      forgetReported: () => bindings.forgetReported(),
      requestSync: () => bindings.requestSync(),
      log: (_, { level, msg, data }) => bindings.log(level, msg, data)
    },
    delays: { reportRetry: bindings.reportRetryMs ?? upgradeReportRetryMs }
  });
}

// dist/services/encoders/host-facts.js
import { readdir, readFile as readFile3, readlink, stat } from "node:fs/promises";
import { basename as basename2, join as join4 } from "node:path";
var gpuModules = ["i915", "xe", "amdgpu", "radeon", "nouveau", "nvidia"];
async function readHostFacts(options = {}) {
  const root = options.root ?? "";
  const identity = options.identity ?? { uid: process.getuid?.() ?? 0, gids: process.getgroups?.() ?? [] };
  const groupName = options.groupName ?? ((gid) => groupNameFrom(join4(root, "/etc/group"), gid));
  const names = async (dir, pattern) => (await readdir(join4(root, dir)).catch(() => [])).filter((name) => pattern.test(name)).sort();
  const devicePaths = [
    ...(await names("/dev/dri", /^renderD\d+$/)).map((name) => `/dev/dri/${name}`),
    ...(await names("/dev", /^nvidia(\d+|ctl|-uvm)$/)).map((name) => `/dev/${name}`)
  ];
  const devices = [];
  for (const path of devicePaths) {
    const driver = path.startsWith("/dev/nvidia") ? "nvidia" : await drmDriver(root, basename2(path));
    const device = { path, driver };
    const problem = await accessProblem(join4(root, path), path, identity, groupName);
    if (problem)
      device.error = problem;
    devices.push(device);
  }
  const drivers = [];
  const nvidia = await readFile3(join4(root, "/proc/driver/nvidia/version"), "utf8").catch(() => void 0);
  const nvidiaVersion = nvidia && /Kernel Module\s+(?:for\s+\S+\s+)?([0-9][\w.]*)/.exec(nvidia)?.[1];
  if (nvidiaVersion)
    drivers.push(`nvidia ${nvidiaVersion}`);
  for (const module of gpuModules) {
    if (module === "nvidia" && nvidiaVersion)
      continue;
    const loaded = await stat(join4(root, "/sys/module", module)).then(() => true, () => false);
    if (!loaded)
      continue;
    const version = (await readFile3(join4(root, "/sys/module", module, "version"), "utf8").catch(() => "")).trim();
    drivers.push(version ? `${module} ${version}` : module);
  }
  return { devices, drivers };
}
async function drmDriver(root, node) {
  const target = await readlink(join4(root, "/sys/class/drm", node, "device/driver")).catch(() => void 0);
  return target ? basename2(target) : "unknown";
}
async function accessProblem(file, path, identity, groupName) {
  let info;
  try {
    info = await stat(file);
  } catch (err) {
    return `cannot stat ${path}: ${err.code ?? String(err)}`;
  }
  if (identity.uid === 0)
    return void 0;
  const rw = (shift) => (info.mode >> shift & 6) === 6;
  if (info.uid === identity.uid ? rw(6) : identity.gids.includes(info.gid) ? rw(3) : rw(0))
    return void 0;
  const group = await groupName(info.gid) ?? `gid ${info.gid}`;
  return `permission denied: ${path} is read-write for group ${group} only, and this user (uid ${identity.uid}) is not in it; add it (usermod -aG ${group} <user>; in a container, --group-add ${info.gid}) and restart the agent`;
}
async function groupNameFrom(file, gid) {
  const text = await readFile3(file, "utf8").catch(() => "");
  for (const line of text.split("\n")) {
    const [name, , id] = line.split(":");
    if (name && id !== void 0 && Number(id) === gid)
      return name;
  }
  return void 0;
}

// dist/services/encoders/detect.js
var knownEncoders = ["libx264", ...hardwareEncoderOrder];
var testEncodeStderrLines = 200;
async function detectHwAccel(options) {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const timeoutMs = options.timeoutMs ?? hwDiagnosticTimeoutMs;
  const start = options.start ?? startWatchedProcess;
  const softwareMaxHeight = options.softwareMaxHeight ?? softwareMaxTranscodeHeightPx;
  const heights = options.testHeights ?? hwTestEncodeHeightsPx;
  const running = /* @__PURE__ */ new Set();
  let timedOut = false;
  const stopAll = () => {
    timedOut = true;
    for (const proc of running)
      proc.kill();
  };
  const timer = setTimeout(stopAll, timeoutMs);
  options.signal?.addEventListener("abort", stopAll, { once: true });
  if (options.signal?.aborted)
    stopAll();
  const finish = (partial, caps2 = {}, warning) => {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", stopAll);
    const hwAccel = { ...partial, probeMs: Math.round(now() - started) };
    return warning === void 0 ? { hwAccel, caps: caps2 } : { hwAccel, caps: caps2, warning };
  };
  const hostFacts = readHostFacts(options.host).catch(() => ({ devices: [], drivers: [] }));
  let ffmpegPath2;
  try {
    ffmpegPath2 = resolveFfmpegBinary("ffmpeg", { configuredPath: options.ffmpegPath, ...options.env ? { env: options.env } : {} });
  } catch (err) {
    const host2 = await hostFacts;
    return finish({ ...failedFfmpeg("", host2), error: err.message });
  }
  const run = async (args, captureStdout) => {
    if (timedOut)
      return { code: null, signal: "SIGKILL", stderrTail: [], timedOut: true };
    const proc = start(ffmpegPath2, args, { captureStdout, tailLines: testEncodeStderrLines });
    running.add(proc);
    const result = await proc.exited;
    running.delete(proc);
    return { ...result, timedOut };
  };
  const [version, listing, host] = await Promise.all([run(["-hide_banner", "-version"], true), run(["-hide_banner", "-encoders"], true), hostFacts]);
  const broken = [version, listing].find((result) => result.code !== 0);
  if (broken) {
    const what = broken === version ? "-version" : "-encoders";
    const error = broken.timedOut ? `${ffmpegPath2} ${what} did not answer within ${timeoutMs} ms; killed` : `${ffmpegPath2} ${what} failed (${broken.signal ?? `exit code ${String(broken.code)}`}): ${errorLines(broken.stderrTail) || "no output"}`;
    return finish({ ...failedFfmpeg(ffmpegPath2, host), ffmpegVersion: parseVersion(version.stdout ?? ""), error });
  }
  const ffmpegVersion = parseVersion(version.stdout ?? "");
  const compiled = parseEncoders(listing.stdout ?? "");
  const drivers = [...host.drivers];
  const deviceProblems = host.devices.filter((device) => device.error !== void 0 && device.path.startsWith("/dev/dri/"));
  const testOne = async (encoder) => {
    const begun = now();
    let cap;
    let error;
    for (const height of heights) {
      const result = await run(buildTestEncodeArgs(encoder, height), false);
      const driver = result.stderrTail.map((line) => /VAAPI driver: (.+?)\.?\s*$/.exec(line)?.[1]).find((found) => found !== void 0);
      if (driver && !drivers.includes(`vaapi: ${driver}`))
        drivers.push(`vaapi: ${driver}`);
      if (result.code === 0) {
        cap = height;
        continue;
      }
      if (cap === void 0) {
        error = result.timedOut ? `test encode (${height}p) did not finish within ${timeoutMs} ms; killed` : errorLines(result.stderrTail) || `test encode (${height}p) exited with ${result.signal ?? `code ${String(result.code)}`}`;
        if (!result.timedOut && encoder !== "h264_nvenc" && encoder !== "h264_videotoolbox" && deviceProblems.length > 0) {
          error += `; ${deviceProblems.map((device) => device.error).join("; ")}`;
        }
      }
      break;
    }
    const ms = Math.round(now() - begun);
    const candidate = cap === void 0 ? { encoder, ok: false, ms, error: error ?? "not tested" } : { encoder, ok: true, ms };
    return cap === void 0 ? { candidate } : { candidate, cap };
  };
  const tested = await Promise.all(hardwareEncoderOrder.filter((encoder) => compiled.includes(encoder)).map(testOne));
  const caps = {};
  for (const { candidate, cap } of tested)
    if (cap !== void 0)
      caps[candidate.encoder] = cap;
  const candidates = tested.map(({ candidate }) => candidate);
  const withCaps = candidates.map((candidate) => caps[candidate.encoder] === void 0 ? candidate : { ...candidate, maxHeight: caps[candidate.encoder] });
  const choice = chooseEncoder(options.preference, withCaps, { softwareMaxHeight });
  return finish({
    ffmpegVersion,
    ffmpegPath: ffmpegPath2,
    encoders: compiled,
    devices: host.devices,
    drivers,
    chosenEncoder: choice.encoder,
    maxTranscodeHeight: choice.maxHeight,
    candidates
  }, caps, choice.warning);
}
function failedFfmpeg(ffmpegPath2, host) {
  return { ffmpegVersion: "", ffmpegPath: ffmpegPath2, encoders: [], devices: host.devices, drivers: host.drivers, chosenEncoder: "none", maxTranscodeHeight: 0, candidates: [] };
}
function parseVersion(stdout) {
  return /^ffmpeg version (\S+)/m.exec(stdout)?.[1] ?? "";
}
function parseEncoders(stdout) {
  const listed = /* @__PURE__ */ new Set();
  for (const line of stdout.split("\n")) {
    const match = /^\s*V[.A-Z]{5}\s+(\S+)/.exec(line);
    if (match)
      listed.add(match[1]);
  }
  return knownEncoders.filter((name) => listed.has(name));
}
function errorLines(stderr) {
  const tagged = stderr.map((line) => /^(?:\[([^\]@]+?)(?: @ [^\]]+)?\] )?\[(error|fatal|panic)\] (.*)$/.exec(line)).filter((match) => match !== null).map((match) => match[1] ? `${match[1]}: ${match[3]}` : match[3]);
  const lines = tagged.length > 0 ? tagged : stderr.filter((line) => !/\[(verbose|info|debug|trace)\]/.test(line)).slice(-3);
  return lines.join("; ").trim();
}

// dist/services/encoders/summary.js
var lineErrorChars = 120;
function summaryLine(detection) {
  const d = detection.hwAccel;
  if (d.error)
    return `[transcode] no usable ffmpeg: ${d.error}`;
  const candidates = d.candidates.length === 0 ? "no hardware encoder compiled in" : d.candidates.map((c) => c.ok ? `${c.encoder} ok` : `${c.encoder} failed (${shorten(c.error ?? "no error text")})`).join(", ");
  const devices = d.devices.length === 0 ? "none" : d.devices.map((device) => `${device.path}${device.error ? " (no access)" : ""}`).join(" ");
  return `[transcode] encoder ${d.chosenEncoder}, cap ${d.maxTranscodeHeight}p; ffmpeg ${d.ffmpegVersion} at ${d.ffmpegPath}; ${candidates}; devices: ${devices}; drivers: ${d.drivers.length === 0 ? "none" : d.drivers.join(", ")}; ${d.probeMs} ms`;
}
function shorten(text) {
  return text.length > lineErrorChars ? `${text.slice(0, lineErrorChars - 1)}\u2026` : text;
}
function diagnosticTable(d, warning) {
  const out = [];
  const row = (label, value) => out.push(`${label.padEnd(16)}${value}`);
  row("ffmpeg", d.ffmpegPath === "" ? "(not found)" : `${d.ffmpegPath} (version ${d.ffmpegVersion || "unknown"})`);
  if (d.error)
    row("error", d.error);
  row("encoders", d.encoders.length === 0 ? "(none)" : d.encoders.join(", "));
  row("devices", d.devices.length === 0 ? "(none)" : d.devices.map((device) => `${device.path} [${device.driver}]`).join(", "));
  for (const device of d.devices)
    if (device.error)
      row("", `${device.path}: ${device.error}`);
  row("drivers", d.drivers.length === 0 ? "(none)" : d.drivers.join(", "));
  out.push("");
  out.push("test encodes (one frame each, with the options a session uses):");
  if (d.candidates.length === 0)
    out.push("  (no hardware encoder compiled into this ffmpeg)");
  for (const candidate of d.candidates) {
    out.push(`  ${candidate.encoder.padEnd(18)}${candidate.ok ? "ok" : "FAILED"}  ${candidate.ms} ms`);
    if (candidate.error)
      out.push(`    ${candidate.error}`);
  }
  out.push("");
  row("chosen encoder", d.chosenEncoder);
  row("resolution cap", d.maxTranscodeHeight > 0 ? `${d.maxTranscodeHeight}p` : "(none)");
  if (warning)
    row("warning", warning);
  row("probe time", `${d.probeMs} ms`);
  return out;
}

// dist/system/encoders-part.js
function createEncodersPart(options) {
  const { config } = options;
  const log = options.logger.child({ component: "encoders" });
  const detect = options.detect ?? detectHwAccel;
  const timeoutMs = timing(config, "hwDiagnosticTimeoutMs");
  const limits = { softwareMaxHeight: softwareMaxTranscodeHeightPx };
  let actor = () => void 0;
  let settle;
  const firstProbe = new Promise((resolve5) => settle = resolve5);
  const settled = async () => {
    let timer;
    const grace = new Promise((resolve5) => timer = setTimeout(resolve5, timeoutMs + hwDiagnosticTimeoutMs / 5));
    await Promise.race([firstProbe, grace]);
    clearTimeout(timer);
  };
  let announced = false;
  const context = () => actor()?.getSnapshot()?.context;
  let registered;
  let lastChange;
  const logic = encodersMachine.provide({
    actors: {
      // The signal aborts when the actor stops (shutdown): every ffmpeg of the probe is killed by PID.
      detect: fromPromise(({ input, signal }) => detect({ preference: input.preference, ffmpegPath: config.transcode.ffmpegPath, timeoutMs, signal }))
    },
    actions: {
      announce: (_, { detection, first }) => {
        settle();
        const line = summaryLine(detection);
        const msg = first && !announced ? line : `re-probe: ${line.replace(/^\[transcode\] /, "")}`;
        announced = true;
        const fields = { hwAccel: detection.hwAccel, ...detection.warning ? { warning: detection.warning } : {} };
        if (detection.warning || detection.hwAccel.error)
          log.warn(fields, detection.warning ? `${msg}; ${detection.warning}` : msg);
        else
          log.info(fields, msg);
        lastChange = registered ? hwAccelChange(registered.hwAccel, detection.hwAccel) : void 0;
        if (lastChange) {
          log.info({ change: lastChange }, `hwAccel changed (${lastChange}); registering again so that the server shows it`);
          options.hwAccelChanged?.(`hwAccel: ${lastChange}`);
        }
      },
      announceProbeError: (_, { error }) => {
        settle();
        lastChange = void 0;
        log.error({ error }, `${announced ? "" : "[transcode] "}hardware detection failed: ${error}; sessions use libx264`);
        announced = true;
      },
      reportUnhealthy: (_, { encoder, reason, unhealthy }) => {
        log.warn({ encoder, reason }, `${encoder} failed in a session; new sessions use ${choiceNow(unhealthy).encoder} until the next probe`);
      }
    }
  });
  const choiceNow = (unhealthy) => {
    const current = context();
    if (!current?.detection)
      return { encoder: "libx264", maxHeight: limits.softwareMaxHeight };
    return effectiveChoice(current.preference, current.detection, limits, unhealthy ?? current.unhealthy);
  };
  return {
    logic,
    input: { preference: config.transcode.encoder, reprobeAfterFailureMs: timing(config, "hwReprobeAfterFailureMs") },
    attach(get) {
      actor = get;
    },
    async hwAccel() {
      if (!context()?.detection)
        await settled();
      const hwAccel = context()?.detection?.hwAccel;
      registered = { hwAccel };
      return hwAccel;
    },
    async encoderFor() {
      if (!context()?.detection)
        await settled();
      return choiceNow();
    },
    encoderFailed(encoder, reason) {
      actor()?.send({ type: "encoders.failed", encoder, reason });
    },
    async reprobe() {
      const ref = actor();
      if (!ref)
        throw new Error("the encoders actor is not running");
      const bound = { timeout: timeoutMs + hwDiagnosticTimeoutMs / 5 };
      await waitFor(ref, (snapshot) => !snapshot.matches("probing"), bound);
      const before = ref.getSnapshot().context.probes;
      ref.send({ type: "encoders.reprobe" });
      await waitFor(ref, (snapshot) => snapshot.context.probes > before, bound);
      return { hwAccel: context()?.detection?.hwAccel, encoder: choiceNow().encoder, reregister: lastChange ?? null };
    }
  };
}

// dist/system/encoders-admin.js
function encodersAdminRoutes(part) {
  return [
    {
      method: "POST",
      path: "/api/encoders/reprobe",
      handle: async () => {
        try {
          return { status: 200, json: await part.reprobe() };
        } catch (error) {
          return { status: 503, json: { error: "probe_unavailable", message: error.message } };
        }
      }
    }
  ];
}

// dist/system/funnel-part.js
import { join as join5 } from "node:path";
function managedHelperPath(stateDir2) {
  return join5(stateDir2, "bin", "cloudflared");
}
function createFunnelPart(options) {
  const { config } = options;
  const log = options.logger.child({ component: "funnel" });
  const helperPath = config.funnel.helperPath || managedHelperPath(config.daemon.stateDir);
  let url = "";
  let actor;
  const running = /* @__PURE__ */ new Set();
  const logic = funnelMachine.provide({
    actors: {
      // Turning the funnel off (or stopping the agent) mid-download aborts the download.
      // The helper's modules (and undici) load on first use: an agent with the funnel off never pays for them.
      ensureHelper: fromPromise(async ({ signal }) => (await import("./helper-download-YR2OQY5F.js")).ensureHelper({
        signal,
        helperPath: config.funnel.helperPath,
        managedPath: managedHelperPath(config.daemon.stateDir),
        urlBase: config.funnel.helperUrl,
        onDownload: (from) => log.info({ url: from, to: helperPath }, "downloading the tunnel helper")
      })),
      helper: fromCallback(({ input: input2, sendBack }) => {
        let live = true;
        let run;
        void import("./helper-process-YFAMNBVC.js").then(({ startHelperRun }) => {
          if (!live)
            return;
          run = startHelperRun({
            helperPath: input2.helperPath,
            streamPort: config.stream.port,
            pollMs: timing(config, "funnelReadyPollMs"),
            // After the cleanup below, a late exit of this run must not count against the next one.
            onEvent: (event) => {
              if (live)
                sendBack(event);
            }
          });
          log.info({ helperPath: input2.helperPath }, "tunnel helper started");
        }, (err) => {
          if (live)
            sendBack({ type: "funnel.helper.exited", code: null, signal: null, rateLimited: false, stderrTail: [String(err?.message ?? err)] });
        });
        return () => {
          live = false;
          if (run === void 0)
            return;
          const stopped = run.stop().catch((err) => log.warn({ err }, "tunnel helper did not stop cleanly"));
          running.add(stopped);
          void stopped.finally(() => running.delete(stopped));
        };
      })
    },
    actions: {
      reportUrl: (_, params) => {
        if (params.url === url)
          return;
        url = params.url;
        log.info({ url }, url ? "public tunnel URL" : "public tunnel URL cleared");
        options.changed(url ? "funnel url" : "funnel url cleared");
      },
      logExit: ({ context }) => {
        const funnel = context;
        log.warn({ error: funnel.lastError, restartInMs: funnelRestartDelayMs(funnel), rateLimited: funnel.rateLimited }, "public tunnel down; restarting with backoff");
      }
    }
  });
  const input = {
    enabled: config.funnel.enabled,
    restartBaseMs: timing(config, "funnelRestartBaseMs"),
    restartMaxMs: timing(config, "funnelRestartMaxMs"),
    rateLimitedRestartMs: timing(config, "funnelRateLimitedRestartMs"),
    healthyResetMs: timing(config, "funnelHealthyResetMs"),
    startTimeoutMs: timing(config, "funnelStartTimeoutMs")
  };
  const status = () => {
    const snapshot = actor?.()?.getSnapshot();
    const context = snapshot?.context;
    return {
      enabled: context?.enabled ?? input.enabled,
      state: snapshot ? funnelStateName(snapshot.value) : "off",
      url,
      restarts: context?.restarts ?? 0,
      helperPath,
      ...context?.lastError ? { error: context.lastError } : {}
    };
  };
  const apply = (enabled) => {
    input.enabled = enabled;
    actor?.()?.send({ type: enabled ? "funnel.enable" : "funnel.disable" });
  };
  const adminRoutes = [
    { method: "GET", path: "/api/funnel", handle: () => ({ status: 200, json: status() }) },
    {
      method: "POST",
      path: "/api/funnel",
      handle: ({ body }) => {
        const enabled = body?.enabled;
        if (typeof enabled !== "boolean")
          return { status: 400, json: { error: "bad_request", message: 'body must be {"enabled": true|false}' } };
        apply(enabled);
        return { status: 200, json: status() };
      }
    }
  ];
  const closers = [{
    name: "funnel helper",
    // The actor's cleanup started the kill; wait until no helper process is left.
    close: async () => {
      await Promise.all([...running]);
    }
  }];
  return {
    logic,
    input,
    adminRoutes,
    closers,
    url: () => url,
    status,
    apply,
    attach: (get) => {
      actor = get;
    }
  };
}

// dist/services/net/addresses.js
import { readFileSync as readFileSync3 } from "node:fs";
import { isIPv4 as isIPv42 } from "node:net";
import { networkInterfaces } from "node:os";
var meshInterface = /^(tailscale|wg|zt)/;
function isMeshInterface(name) {
  return meshInterface.test(name);
}
function isPublicIPv4(ip) {
  if (!isIPv42(ip))
    return false;
  const [a = 0, b = 0, c = 0] = ip.split(".").map(Number);
  if (a === 0 || a === 10 || a === 127 || a >= 224)
    return false;
  if (a === 100 && b >= 64 && b <= 127)
    return false;
  if (a === 169 && b === 254)
    return false;
  if (a === 172 && b >= 16 && b <= 31)
    return false;
  if (a === 192 && b === 168)
    return false;
  if (a === 192 && b === 0 && (c === 0 || c === 2))
    return false;
  if (a === 198 && (b === 18 || b === 19))
    return false;
  if (a === 198 && b === 51 && c === 100)
    return false;
  if (a === 203 && b === 0 && c === 113)
    return false;
  return true;
}
function defaultRouteInterfacesIn(procNetRoute) {
  const routes = [];
  for (const line of procNetRoute.split("\n").slice(1)) {
    const [name, destination, , , , , metric, mask] = line.trim().split(/\s+/);
    if (!name || destination !== "00000000" || mask !== "00000000")
      continue;
    routes.push({ name, metric: Number(metric) || 0 });
  }
  return [...new Set(routes.sort((x, y) => x.metric - y.metric).map((route) => route.name))];
}
function readDefaultRouteInterfaces() {
  try {
    return defaultRouteInterfacesIn(readFileSync3("/proc/net/route", "utf8"));
  } catch {
    return [];
  }
}
function streamServerAddresses(inputs) {
  const addresses = [];
  const url = (ip) => `http://${ip.includes(":") ? `[${ip}]` : ip}:${inputs.port}`;
  if (inputs.upnpPublicIp && isPublicIPv4(inputs.upnpPublicIp))
    addresses.push({ kind: "upnp", url: url(inputs.upnpPublicIp) });
  const interfaces = inputs.interfaces ?? networkInterfaces();
  const ipv4Of = (name) => (interfaces[name] ?? []).filter((info) => !info.internal && info.family === "IPv4").map((info) => info.address);
  const names = Object.keys(interfaces);
  const mesh = names.filter(isMeshInterface).flatMap(ipv4Of);
  const routed = (inputs.defaultRouteInterfaces ?? readDefaultRouteInterfaces()).filter((name) => !isMeshInterface(name) && ipv4Of(name).length > 0);
  const lanNames = routed.length > 0 ? routed : names.filter((name) => !isMeshInterface(name));
  const lan = [...new Set(lanNames.flatMap(ipv4Of))];
  for (const ip of mesh)
    addresses.push({ kind: "mesh", url: url(ip) });
  for (const ip of lan)
    addresses.push({ kind: "lan", url: url(ip) });
  return { port: inputs.port, publicUrl: addresses[0]?.url ?? url("127.0.0.1"), addresses };
}

// dist/system/addresses-part.js
function createAddressesPart(options) {
  const { config } = options;
  const log = options.logger.child({ component: "addresses" });
  const mapper = options.mapper ?? lazyUpnpMapper();
  let upnpIp;
  let failureLogged = false;
  let actor;
  const logic = addressesMachine.provide({
    actors: {
      mapPort: fromPromise(() => mapper.map(config.stream.port))
    },
    actions: {
      reportUpnp: (_, params) => {
        const ip = params.ip !== void 0 && isPublicIPv4(params.ip) ? params.ip : void 0;
        if (params.ip !== void 0 && ip === void 0)
          log.info({ externalIp: params.ip }, "UPnP mapped the stream port, but the router's external IP is not public; not reported");
        if (params.ip !== void 0)
          failureLogged = false;
        if (ip === upnpIp)
          return;
        upnpIp = ip;
        log.info({ externalIp: ip, port: config.stream.port }, ip ? "stream port mapped over UPnP" : "no UPnP mapping of the stream port");
        options.changed("stream server addresses");
      },
      logMappingFailed: (_, params) => {
        const level = failureLogged ? "debug" : "warn";
        failureLogged = true;
        log[level]({ error: params.error, retryInMs: input.retryMs }, "UPnP mapping of the stream port failed; retrying later");
      }
    }
  });
  const input = {
    upnp: config.stream.upnp,
    refreshMs: timing(config, "addressesRefreshMs"),
    retryMs: timing(config, "addressesRetryMs")
  };
  const closers = [{ name: "upnp mapping", close: () => mapper.close() }];
  return {
    logic,
    input,
    closers,
    streamServer: () => streamServerAddresses({ port: config.stream.port, upnpPublicIp: upnpIp }),
    status: () => {
      const context = actor?.()?.getSnapshot().context;
      return { upnp: input.upnp, upnpIp: upnpIp ?? null, ...context?.lastError ? { upnpError: context.lastError } : {} };
    },
    attach: (get) => {
      actor = get;
    }
  };
}
function lazyUpnpMapper() {
  let loaded;
  const load = () => loaded ??= import("./upnp-DNQGL52H.js").then(({ createUpnpMapper }) => createUpnpMapper());
  return {
    map: async (port) => (await load()).map(port),
    close: async () => {
      if (loaded !== void 0)
        await (await loaded).close();
    }
  };
}

// dist/system/cache-part.js
import { randomUUID as randomUUID2 } from "node:crypto";

// dist/services/cache/cache-key.js
import { createHash as createHash2 } from "node:crypto";
import { resolve as resolve2 } from "node:path";
var cacheKeyPattern = /^[0-9a-f]{8}$/;
var isUrl = (source) => /^https?:\/\//i.test(source);
function cacheIdentity(request) {
  let base;
  if (isUrl(request.source)) {
    if (!request.cacheId)
      return void 0;
    base = request.cacheId;
  } else {
    if (!request.source)
      return void 0;
    base = resolve2(request.source);
  }
  const key = createHash2("sha256").update(`${base}|${request.quality}|${request.audioIndex}`).digest("hex").slice(0, 8);
  return { key, source: base };
}

// dist/services/cache/cache-disk.js
import { link, lstat, mkdir as mkdir2, readdir as readdir3, rename as rename2, rm, stat as stat3, unlink as unlink2, utimes, writeFile } from "node:fs/promises";
import { randomBytes as randomBytes3 } from "node:crypto";
import { join as join7 } from "node:path";

// dist/services/cache/writer-lock.js
import { open, readFile as readFile4, unlink } from "node:fs/promises";
import { randomBytes as randomBytes2 } from "node:crypto";
async function processStartTime(pid) {
  try {
    const stat8 = await readFile4(`/proc/${pid}/stat`, "utf8");
    return stat8.slice(stat8.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return void 0;
  }
}
async function isAlive(holder) {
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if (err.code !== "EPERM")
      return false;
  }
  if (holder.startTime === void 0)
    return true;
  const now = await processStartTime(holder.pid);
  return now === void 0 || now === holder.startTime;
}
async function readHolder(path) {
  try {
    const parsed = JSON.parse(await readFile4(path, "utf8"));
    if (typeof parsed.pid !== "number" || typeof parsed.token !== "string")
      return { pid: -1, startTime: void 0, token: "" };
    return { pid: parsed.pid, startTime: typeof parsed.startTime === "string" ? parsed.startTime : void 0, token: parsed.token };
  } catch (err) {
    if (err.code === "ENOENT")
      return void 0;
    return { pid: -1, startTime: void 0, token: "" };
  }
}
var ownStartTime;
async function createExclusive(path) {
  ownStartTime ??= processStartTime(process.pid);
  const holder = { pid: process.pid, startTime: await ownStartTime, token: randomBytes2(8).toString("hex") };
  let handle;
  try {
    handle = await open(path, "wx", 384);
  } catch (err) {
    if (err.code === "EEXIST")
      return void 0;
    throw err;
  }
  try {
    await handle.writeFile(JSON.stringify(holder));
  } finally {
    await handle.close();
  }
  return holder;
}
async function breakIfStale(path, stale) {
  const breaker = `${path}.break`;
  const mine = await createExclusive(breaker);
  if (!mine) {
    const other = await readHolder(breaker);
    if (other && !await isAlive(other))
      await unlink(breaker).catch(() => {
      });
    return;
  }
  try {
    const now = await readHolder(path);
    if (now && now.token === stale.token && now.pid === stale.pid)
      await unlink(path).catch(() => {
      });
  } finally {
    await unlink(breaker).catch(() => {
    });
  }
}
async function acquireWriterLock(path) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const holder = await createExclusive(path);
    if (holder) {
      let released = false;
      return {
        path,
        async release() {
          if (released)
            return;
          released = true;
          const now = await readHolder(path);
          if (now?.token === holder.token)
            await unlink(path).catch(() => {
            });
        }
      };
    }
    const current = await readHolder(path);
    if (current === void 0)
      continue;
    if (await isAlive(current))
      return void 0;
    await breakIfStale(path, current);
  }
  return void 0;
}
async function lockHeld(path) {
  const holder = await readHolder(path);
  return holder !== void 0 && await isAlive(holder);
}

// dist/services/cache/verify-entry.js
import { open as open2, readdir as readdir2, readFile as readFile5, stat as stat2 } from "node:fs/promises";
import { join as join6 } from "node:path";
var entryMetaFile = "entry.json";
var completeMarker = ".complete";
var notCounted = /* @__PURE__ */ new Set([entryMetaFile, completeMarker]);
var segmentFile = /^seg-(\d+)\.m4s$/;
var invalid = (reason) => ({ ok: false, collision: false, reason });
function parseEntryMeta(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return void 0;
  }
  if (typeof value !== "object" || value === null)
    return void 0;
  const meta = value;
  const numbers = ["audioIndex", "durationSeconds", "segmentSeconds", "segments", "bytes"];
  if (typeof meta.source !== "string" || typeof meta.quality !== "string" || typeof meta.agentVersion !== "string")
    return void 0;
  if (numbers.some((name) => typeof meta[name] !== "number" || !Number.isFinite(meta[name]) || meta[name] < 0))
    return void 0;
  if (meta.frameRate !== void 0 && (typeof meta.frameRate !== "number" || !(meta.frameRate > 0)))
    return void 0;
  if (meta.subtitles !== void 0 && (!Array.isArray(meta.subtitles) || !meta.subtitles.every((k) => Number.isInteger(k) && k >= 0)))
    return void 0;
  return meta;
}
function childBoxes(buffer, start, end) {
  const boxes = [];
  let at = start;
  while (at < end) {
    if (end - at < 8)
      return void 0;
    let size = buffer.readUInt32BE(at);
    let header2 = 8;
    if (size === 1) {
      if (end - at < 16)
        return void 0;
      size = Number(buffer.readBigUInt64BE(at + 8));
      header2 = 16;
    } else if (size === 0)
      size = end - at;
    if (size < header2 || at + size > end)
      return void 0;
    boxes.push({ type: buffer.toString("latin1", at + 4, at + 8), start: at, size, header: header2 });
    at += size;
  }
  return boxes;
}
var child = (buffer, box, type) => childBoxes(buffer, box.start + box.header, box.start + box.size)?.find((b) => b.type === type);
function videoTrackOf(init) {
  const moov = childBoxes(init, 0, init.length)?.find((box) => box.type === "moov");
  if (!moov)
    return void 0;
  for (const trak of childBoxes(init, moov.start + 8, moov.start + moov.size) ?? []) {
    if (trak.type !== "trak")
      continue;
    const tkhd = child(init, trak, "tkhd");
    const mdia = child(init, trak, "mdia");
    const hdlr = mdia && child(init, mdia, "hdlr");
    const mdhd = mdia && child(init, mdia, "mdhd");
    if (!tkhd || !hdlr || !mdhd || init.toString("latin1", hdlr.start + 16, hdlr.start + 20) !== "vide")
      continue;
    const tkhdV1 = init[tkhd.start + 8] === 1;
    const mdhdV1 = init[mdhd.start + 8] === 1;
    return {
      trackId: init.readUInt32BE(tkhd.start + (tkhdV1 ? 28 : 20)),
      timescale: init.readUInt32BE(mdhd.start + (mdhdV1 ? 28 : 20))
    };
  }
  return void 0;
}
async function segmentStart(path, trackId) {
  const handle = await open2(path, "r");
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(16);
    let at = 0;
    let moof;
    let mdat = false;
    while (at < size) {
      const { bytesRead } = await handle.read(head, 0, Math.min(16, size - at), at);
      if (bytesRead < 8)
        return { reason: `a box header is cut at byte ${at}` };
      let boxSize = head.readUInt32BE(0);
      const type = head.toString("latin1", 4, 8);
      if (boxSize === 1 && bytesRead >= 16)
        boxSize = Number(head.readBigUInt64BE(8));
      else if (boxSize === 0)
        boxSize = size - at;
      if (boxSize < 8 || at + boxSize > size)
        return { reason: `box ${JSON.stringify(type)} at byte ${at} runs past the end (truncated)` };
      if (type === "moof" && !moof) {
        moof = Buffer.alloc(boxSize);
        await handle.read(moof, 0, boxSize, at);
      }
      if (type === "mdat")
        mdat = true;
      at += boxSize;
    }
    if (!moof || !mdat)
      return { reason: "no moof/mdat pair" };
    for (const traf of childBoxes(moof, 8, moof.length) ?? []) {
      if (traf.type !== "traf")
        continue;
      const tfhd = child(moof, traf, "tfhd");
      const tfdt = child(moof, traf, "tfdt");
      if (!tfhd || !tfdt || moof.readUInt32BE(tfhd.start + 12) !== trackId)
        continue;
      const v1 = moof[tfdt.start + 8] === 1;
      return { ticks: v1 ? Number(moof.readBigUInt64BE(tfdt.start + 12)) : moof.readUInt32BE(tfdt.start + 12) };
    }
    return { reason: "no tfdt for the video track" };
  } finally {
    await handle.close();
  }
}
async function eachLimited(items, limit, work) {
  let next = 0;
  let failure;
  const lane = async () => {
    while (failure === void 0 && next < items.length) {
      const reason = await work(items[next++]);
      if (reason !== void 0)
        failure ??= reason;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return failure;
}
async function verifyEntry(dir, expectedSource, segmentSeconds = 2) {
  let meta;
  try {
    meta = parseEntryMeta(await readFile5(join6(dir, entryMetaFile), "utf8"));
  } catch {
    return invalid("entry.json is missing");
  }
  if (!meta)
    return invalid("entry.json is not a valid entry description");
  if (meta.source !== expectedSource)
    return { ok: false, collision: true, source: meta.source };
  if (meta.segmentSeconds !== segmentSeconds)
    return invalid(`made with ${meta.segmentSeconds} s segments (this version uses ${segmentSeconds} s)`);
  const expected = planSegments(meta.durationSeconds, segmentSeconds, meta.frameRate).count;
  if (meta.segments !== expected)
    return invalid(`${meta.segments} segments where ${meta.durationSeconds} s at ${segmentSeconds} s gives ${expected}`);
  const names = await readdir2(dir);
  const indexes = names.map((name) => segmentFile.exec(name)).filter((m) => m !== null).map((m) => Number(m[1]));
  const highest = indexes.length === 0 ? -1 : Math.max(...indexes);
  if (highest !== expected - 1 || new Set(indexes).size !== expected)
    return invalid(`highest segment is ${highest}, expected ${expected - 1} with none missing`);
  const counted = names.filter((name) => !notCounted.has(name) && !/\.(tmp|part)$/.test(name));
  const sizes = await Promise.all(counted.map(async (name) => {
    const info = await stat2(join6(dir, name));
    return info.isFile() ? info.size : 0;
  }));
  const bytes = sizes.reduce((a, b) => a + b, 0);
  if (bytes !== meta.bytes)
    return invalid(`files hold ${bytes} bytes, entry.json says ${meta.bytes}`);
  let master;
  let track;
  try {
    master = await readFile5(join6(dir, "master.m3u8"), "utf8");
    await stat2(join6(dir, "index.m3u8"));
    track = videoTrackOf(await readFile5(join6(dir, "init.mp4")));
  } catch {
    return invalid("a playlist or init.mp4 is missing");
  }
  if (!track || track.timescale <= 0)
    return invalid("init.mp4 has no video track");
  for (const match of master.matchAll(/URI="sub-(\d+)\.m3u8"/g)) {
    const k = match[1];
    try {
      await stat2(join6(dir, `sub-${k}.m3u8`));
      const vtt = await readFile5(join6(dir, `sub-${k}.vtt`), "latin1");
      if (!vtt.replace(/^\uFEFF|^\xEF\xBB\xBF/, "").startsWith("WEBVTT"))
        return invalid(`sub-${k}.vtt is not WebVTT`);
    } catch {
      return invalid(`subtitle rendition ${k} is incomplete`);
    }
  }
  const tolerance = 1 / (meta.frameRate ?? 24) + 1e-6;
  const { trackId, timescale } = track;
  const failure = await eachLimited(Array.from({ length: expected }, (_, n) => n), 8, async (n) => {
    const start = await segmentStart(join6(dir, `seg-${n}.m4s`), trackId).catch((err) => ({ reason: String(err) }));
    if ("reason" in start)
      return `seg-${n}.m4s: ${start.reason}`;
    const at = start.ticks / timescale;
    if (Math.abs(at - n * segmentSeconds) > tolerance)
      return `seg-${n}.m4s starts at ${at.toFixed(3)} s, not ${n * segmentSeconds} s`;
    return void 0;
  });
  if (failure)
    return invalid(failure);
  return { ok: true, meta };
}

// dist/services/cache/cache-disk.js
var runDir = /^run-\d+$/;
var tempFile = /(\.tmp|\.part)$/;
function createCacheDisk(dir, options = {}) {
  const held = /* @__PURE__ */ new Map();
  const write = options.writeFile ?? writeFile;
  const entryDir = (key) => join7(dir, key);
  const lockPath = (key) => join7(dir, `${key}.lock`);
  const lock = async (key) => {
    if (held.has(key))
      return true;
    await mkdir2(dir, { recursive: true });
    const taken = await acquireWriterLock(lockPath(key));
    if (!taken)
      return false;
    held.set(key, taken);
    return true;
  };
  const unlock = async (key) => {
    const taken = held.get(key);
    held.delete(key);
    await taken?.release();
  };
  const trash = async (path) => {
    const aside = join7(dir, `.trash-${randomBytes3(6).toString("hex")}`);
    try {
      await rename2(path, aside);
    } catch (err) {
      if (err.code === "ENOENT")
        return;
      throw err;
    }
    await rm(aside, { recursive: true, force: true });
  };
  const filesBytes = async (path, names) => {
    let bytes = 0;
    for (const name of names) {
      const info = await lstat(join7(path, name)).catch(() => void 0);
      if (info?.isFile())
        bytes += info.size;
    }
    return bytes;
  };
  return {
    dir,
    entryDir,
    async scan() {
      await mkdir2(dir, { recursive: true });
      const found = [];
      const names = await readdir3(dir);
      for (const name of names) {
        const path = join7(dir, name);
        if (name.startsWith(".trash-")) {
          await rm(path, { recursive: true, force: true });
          continue;
        }
        if (name.endsWith(".lock") || name.endsWith(".lock.break")) {
          const key = name.slice(0, name.indexOf("."));
          if (!names.includes(key) && !await lockHeld(path))
            await unlink2(path).catch(() => {
            });
          continue;
        }
        if (!cacheKeyPattern.test(name))
          continue;
        if (!(await stat3(path).catch(() => void 0))?.isDirectory())
          continue;
        if (!await lock(name))
          continue;
        try {
          const marker = await stat3(join7(path, completeMarker)).catch(() => void 0);
          if (!marker) {
            await trash(path);
            continue;
          }
          const inside2 = await readdir3(path);
          for (const item of inside2) {
            if (runDir.test(item) || tempFile.test(item))
              await rm(join7(path, item), { recursive: true, force: true });
          }
          const kept = inside2.filter((item) => !runDir.test(item) && !tempFile.test(item));
          found.push({ key: name, bytes: await filesBytes(path, kept), lastUsedAt: marker.mtimeMs });
        } finally {
          await unlock(name);
        }
      }
      return found;
    },
    async prepare(key) {
      if (!await lock(key))
        return false;
      try {
        await rm(entryDir(key), { recursive: true, force: true });
        await mkdir2(entryDir(key), { recursive: true });
        return true;
      } catch (err) {
        await unlock(key);
        throw err;
      }
    },
    async commit(key, payload) {
      const path = entryDir(key);
      const made = [];
      try {
        const place = async (from, name) => {
          await rm(join7(path, name), { force: true });
          made.push(name);
          await link(from, join7(path, name));
        };
        await place(payload.initPath, "init.mp4");
        for (const [index, from] of payload.segmentPaths.entries())
          await place(from, `seg-${index}.m4s`);
        const text = async (name, body) => {
          made.push(name);
          await write(join7(path, name), body);
        };
        await text("master.m3u8", payload.master);
        await text("index.m3u8", payload.index);
        for (const subtitle of payload.subtitles)
          await text(`sub-${subtitle.index}.m3u8`, subtitle.playlist);
        const names = (await readdir3(path)).filter((name) => !runDir.test(name) && !tempFile.test(name) && name !== entryMetaFile && name !== completeMarker);
        const meta = {
          source: payload.source,
          quality: payload.quality,
          audioIndex: payload.audioIndex,
          durationSeconds: payload.durationSeconds,
          segmentSeconds: 2,
          segments: payload.segmentPaths.length,
          bytes: await filesBytes(path, names),
          agentVersion,
          ...payload.frameRate === void 0 ? {} : { frameRate: payload.frameRate },
          subtitles: payload.subtitles.map((subtitle) => subtitle.index)
        };
        const metaText = JSON.stringify(meta);
        made.push(entryMetaFile);
        await writeFileAtomic(join7(path, entryMetaFile), metaText);
        made.push(completeMarker);
        await writeFileAtomic(join7(path, completeMarker), "");
        return { bytes: meta.bytes + Buffer.byteLength(metaText) };
      } catch (err) {
        await Promise.all(made.map((name) => rm(join7(path, name), { force: true }).catch(() => {
        })));
        throw err;
      }
    },
    async tidy(key) {
      const path = entryDir(key);
      const inside2 = await readdir3(path).catch(() => []);
      for (const item of inside2)
        if (runDir.test(item) || tempFile.test(item))
          await rm(join7(path, item), { recursive: true, force: true });
      await unlock(key);
    },
    async remove(key) {
      if (!await lock(key))
        return false;
      try {
        await trash(entryDir(key));
        return true;
      } finally {
        await unlock(key);
      }
    },
    verify: (key, source) => verifyEntry(entryDir(key), source),
    async touch(key, atMs) {
      const at = new Date(atMs);
      await utimes(join7(entryDir(key), completeMarker), at, at).catch(() => {
      });
    }
  };
}

// dist/system/cache-part.js
function createCachePart(options) {
  const { config } = options;
  const settings = config.downloads.hlsCache;
  const log = options.logger.child({ component: "hls-cache" });
  const now = options.now ?? Date.now;
  const budgetBytes = Math.floor(settings.sizeGb * hlsCacheBytesPerGb);
  const disk = options.disk ?? createCacheDisk(settings.dir);
  const plain = createDirectorySegmentStore(settings.dir);
  const counters = { hits: 0, misses: 0 };
  const pending = /* @__PURE__ */ new Map();
  const requestKeys = /* @__PURE__ */ new Map();
  let cacheActor = () => void 0;
  const lookup = (hit) => {
    if (hit)
      counters.hits++;
    else
      counters.misses++;
    try {
      options.onLookup?.(hit);
    } catch (err) {
      log.warn({ err }, "cache lookup hook threw");
    }
  };
  const entryLogic = cacheEntryMachine.provide({
    actors: {
      acquire: fromPromise(async ({ input: input2 }) => disk.prepare(input2.key)),
      commit: fromPromise(async ({ input: input2 }) => disk.commit(input2.key, input2.payload)),
      verify: fromPromise(async ({ input: input2 }) => {
        const result = await disk.verify(input2.key, input2.source);
        if (!result.ok)
          return result;
        await disk.touch(input2.key, now());
        return { ok: true, source: input2.source };
      }),
      tidy: fromPromise(async ({ input: input2 }) => disk.tidy(input2.key)),
      remove: fromPromise(async ({ input: input2 }) => disk.remove(input2.key))
    },
    actions: {
      answer: (_, params) => {
        for (const request of params.requests) {
          const resolve5 = pending.get(request.requestId);
          if (resolve5) {
            pending.delete(request.requestId);
            resolve5(params.outcome);
          } else if (params.outcome === "hit" || params.outcome === "write") {
            const key = requestKeys.get(request.requestId);
            requestKeys.delete(request.requestId);
            if (key !== void 0)
              queueMicrotask(() => cacheActor()?.send({ type: "cache.release", key, sessionId: request.sessionId }));
          }
        }
      },
      logInvalid: (_, params) => log.warn(params, `hls cache entry ${params.key} is invalid: ${params.reason}; it is removed and re-encoded`)
    }
  });
  const logic = cacheMachine.provide({
    actors: {
      shard: cacheShardMachine.provide({ actors: { entry: entryLogic } }),
      scan: fromPromise(async () => disk.scan()),
      removeMany: fromPromise(async ({ input: input2 }) => {
        for (const key of input2.keys)
          await disk.remove(key);
        if (input2.keys.length > 0)
          log.info({ entries: input2.keys.length }, "hls cache over its budget at start: least recently used entries removed");
      })
    },
    actions: {
      logStats: (_, params) => log.info({ hits: counters.hits, misses: counters.misses, bytes: params.bytes, entries: params.entries }, `hls cache: ${counters.hits} hits, ${counters.misses} misses, ${params.bytes} bytes in ${params.entries} entries`),
      logEntryCrash: (_, params) => log.error(params, "cache entry actor failed; the entry is rescanned at the next start"),
      logScanFailed: (_, params) => log.error(params, "the cache dir could not be read; running with an empty cache")
    }
  });
  const input = { budgetBytes, statsLogIntervalMs: timing(config, "hlsCacheStatsLogIntervalMs") };
  const entryActors = () => cacheEntryRefs(cacheActor()).map((child2) => child2.getSnapshot()).filter((snapshot) => snapshot.status === "active");
  const status = () => {
    const complete = settings.enabled ? entryActors().filter((snapshot) => snapshot.matches("complete")) : [];
    return {
      enabled: settings.enabled,
      dir: settings.dir,
      budgetBytes,
      sizeBytes: complete.reduce((sum, snapshot) => sum + snapshot.context.bytes, 0),
      entries: complete.length,
      pinned: complete.filter((snapshot) => snapshot.context.pins.length > 0).length,
      hits: counters.hits,
      misses: counters.misses
    };
  };
  const store = {
    async open(request) {
      const identity = cacheIdentity(request);
      const actor = cacheActor();
      if (!identity || !actor)
        return plain.open(request);
      const { key } = identity;
      const requestId = randomUUID2();
      requestKeys.set(requestId, key);
      const outcome = await new Promise((resolve5) => {
        const timer = setTimeout(() => {
          pending.delete(requestId);
          log.warn({ key, sessionId: request.sessionId }, "hls cache did not answer in time; the session transcodes uncached");
          resolve5("bypass");
        }, timing(config, "hlsCacheLookupTimeoutMs"));
        pending.set(requestId, (value) => {
          clearTimeout(timer);
          requestKeys.delete(requestId);
          resolve5(value);
        });
        actor.send({ type: "cache.open", key, request: { requestId, sessionId: request.sessionId, source: identity.source, at: now() } });
      });
      lookup(outcome === "hit");
      log.debug({ key, sessionId: request.sessionId, outcome }, `hls cache ${outcome === "hit" ? "HIT" : "MISS"} (${outcome})`);
      if (outcome !== "hit" && outcome !== "write")
        return plain.open(request);
      let released = false;
      const entry = {
        dir: disk.entryDir(key),
        cacheHit: outcome === "hit",
        async release() {
          if (released)
            return;
          released = true;
          cacheActor()?.send({ type: "cache.release", key, sessionId: request.sessionId });
        }
      };
      if (outcome === "write") {
        entry.commit = (output) => {
          const payload = { ...output, source: identity.source, quality: request.quality, audioIndex: request.audioIndex };
          cacheActor()?.send({ type: "cache.written", key, sessionId: request.sessionId, payload });
        };
      }
      return entry;
    }
  };
  const waitForRemovals = async () => {
    const deadline = Date.now() + hlsCacheClearWaitMs;
    while (Date.now() < deadline && entryActors().some((snapshot) => snapshot.matches("evicting")))
      await new Promise((resolve5) => setTimeout(resolve5, 20));
  };
  const adminRoutes = [
    { method: "GET", path: "/api/cache", handle: () => ({ status: 200, json: status() }) },
    {
      method: "POST",
      path: "/api/cache/clear",
      handle: async () => {
        const before = status();
        if (settings.enabled) {
          cacheActor()?.send({ type: "cache.clear" });
          await waitForRemovals();
        }
        const after = status();
        return { status: 200, json: { ...after, removed: Math.max(0, before.entries - after.entries) } };
      }
    }
  ];
  return {
    enabled: settings.enabled,
    logic,
    input,
    /** undefined when the cache is off: the engine keeps its plain session directories. */
    store: settings.enabled ? store : void 0,
    adminRoutes,
    status,
    /** Called once the root exists: how to reach the `cache` actor. */
    attach(get) {
      cacheActor = get;
    }
  };
}
var childrenOf = (actor) => Object.entries(actor?.getSnapshot()?.children ?? {}).filter((pair) => pair[1] !== void 0);
function cacheEntryRefs(cache) {
  return childrenOf(cache).filter(([id]) => id.startsWith("cacheShard:")).flatMap(([, shard]) => childrenOf(shard).filter(([id]) => id.startsWith("cacheEntry:")).map(([, entry]) => entry));
}

// dist/services/vpn/tunnel-peer-network.js
import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { Duplex } from "node:stream";
import { connect as tlsConnect } from "node:tls";
var requireModule = createRequire(import.meta.url);
var TunnelPeerNetwork = class {
  name = "wireguard";
  peerPort;
  counters = { peerConnections: 0, inboundConnections: 0, trackerConnections: 0, udpDatagrams: 0 };
  #trackerDispatcher;
  #log;
  #connectTimeoutMs;
  #events = new EventEmitter();
  #servers = /* @__PURE__ */ new Set();
  #tunnel;
  #open = false;
  #closed = false;
  constructor(options) {
    this.peerPort = options.peerPort;
    this.#log = options.logger;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? vpnPeerConnectTimeoutMs;
    this.#events.setMaxListeners(0);
  }
  get trackerDispatcher() {
    if (this.#trackerDispatcher !== void 0)
      return this.#trackerDispatcher;
    const { Agent } = requireModule("undici");
    this.#trackerDispatcher = new Agent({
      pipelining: 0,
      connect: (opts, callback) => {
        const port = Number(opts.port) || (opts.protocol === "https:" ? 443 : 80);
        this.counters.trackerConnections++;
        const socket = this.connect(opts.hostname, port);
        const fail = (err) => callback(err, null);
        if (opts.protocol !== "https:") {
          socket.once("error", fail);
          socket.once("connect", () => {
            socket.off("error", fail);
            callback(null, socket);
          });
          return;
        }
        const tls = tlsConnect({ socket, servername: opts.servername ?? opts.hostname, ALPNProtocols: ["http/1.1"] });
        tls.once("error", fail);
        tls.once("secureConnect", () => {
          tls.off("error", fail);
          callback(null, tls);
        });
      }
    });
    return this.#trackerDispatcher;
  }
  /** The tunnel to use now (undefined while none: everything waits). Listeners move to it. */
  setTunnel(tunnel) {
    if (tunnel === this.#tunnel)
      return;
    this.#tunnel = tunnel;
    for (const server of this.#servers)
      server.relisten();
    this.#events.emit("gate");
  }
  get tunnel() {
    return this.#tunnel;
  }
  /** Opens or closes the gate (the vpn actor: open exactly while up). */
  setOpen(open5) {
    if (open5 === this.#open)
      return;
    this.#open = open5;
    this.#log.debug({ open: open5 }, open5 ? "peer traffic may use the tunnel" : "peer traffic waits for the tunnel");
    this.#events.emit("open", open5);
    this.#events.emit("gate");
  }
  isOpen() {
    return this.#open && this.#tunnel !== void 0;
  }
  onOpenChange(listener) {
    this.#events.on("open", listener);
    return () => this.#events.off("open", listener);
  }
  /** Resolves with the tunnel once the gate is open; rejects when the network is closed or `signal` aborts. */
  whenOpen(signal) {
    return new Promise((resolve5, reject) => {
      const check = () => {
        if (this.#closed)
          return finish(new TunnelClosedError("the VPN peer network is closed"));
        if (signal?.aborted)
          return finish(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
        if (this.#open && this.#tunnel)
          return finish(void 0, this.#tunnel);
      };
      const finish = (err, tunnel) => {
        this.#events.off("gate", check);
        signal?.removeEventListener("abort", check);
        if (err)
          reject(err);
        else
          resolve5(tunnel);
      };
      this.#events.on("gate", check);
      signal?.addEventListener("abort", check);
      check();
    });
  }
  connect(host, port) {
    this.counters.peerConnections++;
    const socket = new TunnelSocket(host, port);
    const abort = new AbortController();
    socket.once("close", () => abort.abort(new Error("socket closed")));
    this.whenOpen(abort.signal).then((tunnel) => tunnel.connect(host, port, { timeoutMs: this.#connectTimeoutMs, signal: abort.signal })).then((inner) => socket.attach(inner), (err) => socket.destroy(err));
    return socket;
  }
  createServer() {
    const server = new TunnelPeerServer(this, (socket) => {
      this.counters.inboundConnections++;
      return socket;
    });
    this.#servers.add(server);
    server.once("close", () => this.#servers.delete(server));
    return server;
  }
  createUdpSocket() {
    return new TunnelUdpSocket(this, () => this.counters.udpDatagrams++);
  }
  async close() {
    if (this.#closed)
      return;
    this.#closed = true;
    this.#open = false;
    this.#events.emit("open", false);
    this.#events.emit("gate");
    for (const server of [...this.#servers])
      server.close();
    await this.#trackerDispatcher?.destroy().catch(() => void 0);
  }
};
var TunnelSocket = class extends Duplex {
  remoteAddress;
  remotePort;
  remoteFamily = "IPv4";
  localAddress;
  localPort;
  connecting = true;
  #inner;
  #pending;
  #pendingFinal;
  constructor(host, port) {
    super({ allowHalfOpen: false });
    this.remoteAddress = host;
    this.remotePort = port;
  }
  attach(inner) {
    if (this.destroyed) {
      inner.destroy();
      return;
    }
    this.#inner = inner;
    this.connecting = false;
    this.remoteAddress = inner.remoteAddress ?? this.remoteAddress;
    this.localAddress = inner.localAddress;
    this.localPort = inner.localPort;
    inner.on("data", (chunk) => {
      if (!this.push(chunk))
        inner.pause();
    });
    inner.on("end", () => this.push(null));
    inner.on("error", (err) => this.destroy(err));
    inner.on("close", () => this.destroy());
    const pending = this.#pending;
    this.#pending = void 0;
    if (pending)
      inner.write(pending.chunk, pending.callback);
    if (this.#pendingFinal)
      inner.end(this.#pendingFinal);
    this.emit("connect");
    this.emit("ready");
  }
  _read() {
    this.#inner?.resume();
  }
  _write(chunk, _encoding, callback) {
    if (this.#inner)
      this.#inner.write(chunk, callback);
    else
      this.#pending = { chunk, callback };
  }
  _final(callback) {
    if (this.#inner)
      this.#inner.end(callback);
    else
      this.#pendingFinal = callback;
  }
  _destroy(err, callback) {
    this.#inner?.destroy();
    callback(err);
  }
  // net.Socket methods webtorrent and undici call; the tunnel's TCP has its own timers.
  setTimeout(_ms, _callback) {
    return this;
  }
  setNoDelay(_noDelay) {
    return this;
  }
  setKeepAlive(_enable, _delay) {
    return this;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }
};
var TunnelPeerServer = class extends EventEmitter {
  network;
  accept;
  #port;
  #listener;
  #listenedOn;
  #closed = false;
  constructor(network, accept) {
    super();
    this.network = network;
    this.accept = accept;
  }
  listen(port, callback) {
    this.#port = port || this.network.peerPort;
    this.relisten();
    queueMicrotask(() => {
      this.emit("listening");
      callback?.();
    });
    return this;
  }
  relisten() {
    if (this.#closed || this.#port === void 0)
      return;
    const tunnel = this.network.tunnel;
    if (tunnel === this.#listenedOn)
      return;
    this.#listener?.close();
    this.#listener = void 0;
    this.#listenedOn = tunnel;
    if (!tunnel)
      return;
    try {
      this.#listener = tunnel.listen(this.#port, (socket) => this.emit("connection", this.accept(socket)));
    } catch (err) {
      this.emit("error", err);
    }
  }
  address() {
    if (this.#port === void 0)
      return null;
    return { port: this.#port, family: "IPv4", address: this.network.tunnel?.localAddress ?? "0.0.0.0" };
  }
  close(callback) {
    if (!this.#closed) {
      this.#closed = true;
      this.#listener?.close();
      this.#listener = void 0;
      queueMicrotask(() => this.emit("close"));
    }
    if (callback)
      queueMicrotask(() => callback());
    return this;
  }
};
var TunnelUdpSocket = class extends EventEmitter {
  network;
  counted;
  #inner;
  #innerTunnel;
  #closed = false;
  #abort = new AbortController();
  constructor(network, counted) {
    super();
    this.network = network;
    this.counted = counted;
  }
  send(message, offset, length, port, host) {
    const payload = Buffer.from(message.subarray(offset, offset + length));
    this.network.whenOpen(this.#abort.signal).then(async (tunnel) => {
      const address = await tunnel.resolve(host);
      if (this.#closed)
        return;
      this.#socketOn(tunnel).send(payload, Number(port), address);
      this.counted();
    }).catch((err) => {
      if (!this.#closed)
        this.emit("error", err);
    });
  }
  #socketOn(tunnel) {
    if (this.#inner && this.#innerTunnel === tunnel && !this.#inner.closed)
      return this.#inner;
    this.#inner?.close();
    const inner = tunnel.createUdpSocket();
    inner.on("message", (message, remote) => this.emit("message", message, remote));
    this.#inner = inner;
    this.#innerTunnel = tunnel;
    return inner;
  }
  close() {
    if (this.#closed)
      return;
    this.#closed = true;
    this.#abort.abort(new Error("UDP socket closed"));
    this.#inner?.close();
    queueMicrotask(() => this.emit("close"));
  }
};

// dist/system/vpn-part.js
function vpnSettingsFrom(config) {
  return {
    handshakeMaxAgeMs: timing(config, "vpnHandshakeMaxAgeMs"),
    retryUnansweredMaxMs: timing(config, "vpnRetryUnansweredMaxMs"),
    refetchAfterMs: timing(config, "vpnRefetchAfterMs"),
    retryBaseMs: timing(config, "vpnRetryBaseMs"),
    retryMaxMs: timing(config, "vpnRetryMaxMs"),
    refusalRetryMs: timing(config, "vpnRefusalRetryMs")
  };
}
function createVpnPart(options) {
  const { config } = options;
  const log = options.logger.child({ component: "vpn" });
  const network = new TunnelPeerNetwork({
    peerPort: config.downloads.torrent.port || vpnPeerPortDefault,
    logger: log.child({ component: "vpn-peer-network" })
  });
  const route = createPeerNetworkRoute();
  if (config.downloads.vpn.enabled)
    route.set(network);
  const sampleMs = timing(config, "vpnSampleIntervalMs");
  const kickMs = timing(config, "vpnKickIntervalMs");
  let tunnel;
  const logic = vpnMachine.provide({
    actors: {
      fetchConfig: fromPromise(async ({ input: input2 }) => {
        try {
          const answer = await options.api.vpnConfig(input2.agentId);
          return { privateConfig: answer.config, exitServer: answer.exitServer };
        } catch (err) {
          const failure = err instanceof VpnConfigError ? { refusal: err.reason, message: err.message } : { message: isAgentError(err) ? `${err.message} [${err.code}]` : String(err?.message ?? err) };
          throw failure;
        }
      }),
      tunnel: fromCallback(({ input: input2, sendBack }) => {
        let stopped = false;
        let timer;
        let mine;
        let retryingSince;
        let lastKick = -Infinity;
        const sample = () => {
          if (!mine)
            return;
          const now = systemClock.now();
          const stats = mine.stats();
          const attempts = stats.wireguard.peers.reduce((max, peer) => Math.max(max, peer.handshakeAttempts), 0);
          if (attempts > 0)
            retryingSince ??= now;
          else
            retryingSince = void 0;
          const handshakeAgeMs = stats.lastHandshakeAt === void 0 ? null : now - stats.lastHandshakeAt;
          sendBack({ type: "vpn.sample", handshakeAgeMs, retryingForMs: retryingSince === void 0 ? 0 : now - retryingSince });
          const dns = mine.dnsServers[0];
          if (dns && now - lastKick >= kickMs) {
            lastKick = now;
            mine.ping(dns, kickMs).catch(() => void 0);
          }
        };
        import("./tunnel-OZ2SRPHY.js").then(({ createTunnel }) => createTunnel({ configText: input2.privateConfig, logger: log.child({ component: "tunnel" }), clock: systemClock, ...options.tunnel })).then((created) => {
          if (stopped)
            return created.close();
          mine = created;
          tunnel = created;
          network.setTunnel(created);
          sample();
          timer = setInterval(sample, sampleMs);
          timer.unref();
        }).catch((err) => {
          if (!stopped)
            sendBack({ type: "vpn.tunnelFailed", message: isAgentError(err) ? `${err.message} [${err.code}]` : String(err?.message ?? err) });
        });
        return () => {
          stopped = true;
          clearInterval(timer);
          if (mine) {
            if (tunnel === mine)
              tunnel = void 0;
            network.setTunnel(void 0);
            void mine.close();
          }
        };
      })
    },
    actions: {
      applyRoute: (_, { route: next }) => route.set(next === "tunnel" ? network : void 0),
      setGate: (_, { open: open5 }) => network.setOpen(open5),
      report: (_, params) => log[params.level](params.error ? { error: params.error } : {}, params.msg),
      changed: (_, { reason }) => options.changed(reason)
    }
  });
  let vpnActor = () => void 0;
  const snapshot = () => vpnActor()?.getSnapshot();
  const status = () => {
    const snap = snapshot();
    const state = vpnStateName(snap?.value);
    const context = snap?.context;
    const stats = tunnel?.stats();
    const peers = stats?.wireguard.peers ?? [];
    const inTunnel = context?.route === "tunnel";
    return {
      enabled: context?.enabled ?? config.downloads.vpn.enabled,
      state,
      mode: inTunnel ? "wireguard" : "off",
      exitServer: inTunnel ? context?.exitServer ?? "" : "",
      handshakeAgeSeconds: stats?.lastHandshakeAt === void 0 ? null : Math.round((systemClock.now() - stats.lastHandshakeAt) / 1e3),
      rxBytes: peers.reduce((sum, peer) => sum + peer.rxBytes, 0),
      txBytes: peers.reduce((sum, peer) => sum + peer.txBytes, 0),
      ...context?.error ? { error: context.error } : {}
    };
  };
  const setEnabled = (enabled) => vpnActor()?.send({ type: enabled ? "vpn.enable" : "vpn.disable" });
  const check = async () => {
    try {
      const answer = await options.api.vpnConfig(options.agentId, true);
      return { result: "ok", exitServer: answer.exitServer };
    } catch (err) {
      if (err instanceof VpnConfigError)
        return { result: err.reason };
      return { result: "error", error: isAgentError(err) ? `${err.message} [${err.code}]` : String(err?.message ?? err) };
    }
  };
  const adminRoutes = [
    { method: "GET", path: "/api/vpn", handle: () => ({ status: 200, json: status() }) },
    {
      method: "POST",
      path: "/api/vpn",
      handle: ({ body }) => {
        const enabled = body?.enabled;
        if (typeof enabled !== "boolean")
          return { status: 400, json: { error: "bad_request", message: 'POST /api/vpn needs {"enabled": true|false}' } };
        setEnabled(enabled);
        return { status: 200, json: status() };
      }
    },
    { method: "POST", path: "/api/vpn/check", handle: async () => ({ status: 200, json: await check() }) },
    // What went through the tunnel, by kind (diagnostics; the integration test checks it).
    { method: "GET", path: "/api/vpn/traffic", handle: () => ({ status: 200, json: { ...network.counters } }) }
  ];
  const input = { enabled: config.downloads.vpn.enabled, agentId: options.agentId, settings: vpnSettingsFrom(config) };
  const closers = [{ name: "vpn peer network", close: () => network.close() }];
  return {
    logic,
    input,
    closers,
    adminRoutes,
    /** The torrent engine's route (TorrentEngineOptions.route). */
    route,
    network,
    status,
    /** The VPN fields of every register and sync (never omitted: a downed tunnel frees the slot). */
    syncFields: () => {
      const current = status();
      return { VPNActive: current.state === "up", VPNMode: current.mode, VPNExitServer: current.exitServer };
    },
    /** The `set_vpn` control: applied live (the config file is the user's; `vpn enable|disable` persist). */
    setEnabled,
    attach(get) {
      vpnActor = get;
    }
  };
}

// dist/services/library/diff.js
function fingerprint(item) {
  return JSON.stringify(item);
}
function ackedOf(snapshot) {
  const acked = /* @__PURE__ */ new Map();
  for (const [root, items] of snapshot) {
    const paths = /* @__PURE__ */ new Map();
    for (const [path, item] of items)
      paths.set(path, fingerprint(item));
    acked.set(root, paths);
  }
  return acked;
}
function diffLibrary(acked, current) {
  const libraries = [];
  let itemCount2 = 0;
  let removedCount = 0;
  const roots = /* @__PURE__ */ new Set([...current.keys(), ...acked.keys()]);
  for (const root of roots) {
    const now = current.get(root) ?? /* @__PURE__ */ new Map();
    const before = acked.get(root) ?? /* @__PURE__ */ new Map();
    const items = [];
    const removed = [];
    for (const [path, item] of now) {
      if (before.get(path) !== fingerprint(item))
        items.push(item);
    }
    for (const path of before.keys())
      if (!now.has(path))
        removed.push(path);
    if (items.length === 0 && removed.length === 0)
      continue;
    libraries.push({ root, items, removed });
    itemCount2 += items.length;
    removedCount += removed.length;
  }
  return { libraries, items: itemCount2, removed: removedCount };
}
function itemCount(snapshot) {
  let count = 0;
  for (const items of snapshot.values())
    count += items.size;
  return count;
}
function librarySyncBodies(input) {
  const base = { agentId: input.agentId, scanId: input.scanId, mode: input.mode };
  if (input.mode === "delta")
    return [{ ...base, ...input.baseScanId === void 0 ? {} : { baseScanId: input.baseScanId }, libraries: input.libraries }];
  const total = input.libraries.reduce((sum, library) => sum + library.items.length, 0);
  const max = Math.max(1, input.partMaxItems);
  if (total <= max)
    return [{ ...base, libraries: input.libraries.map(({ root, items }) => ({ root, items })) }];
  const parts = [[]];
  let room = max;
  for (const { root, items } of input.libraries) {
    let offset = 0;
    if (items.length === 0)
      parts[0].push({ root, items: [] });
    while (offset < items.length) {
      if (room === 0) {
        parts.push([]);
        room = max;
      }
      const slice = items.slice(offset, offset + room);
      parts.at(-1).push({ root, items: slice });
      offset += slice.length;
      room -= slice.length;
    }
  }
  return parts.map((libraries, index) => ({ ...base, part: index + 1, parts: parts.length, libraries }));
}
function planUpload(input) {
  const common = { agentId: input.agentId, scanId: input.scanId, partMaxItems: input.partMaxItems };
  if (!input.full && input.baseScanId !== void 0) {
    const delta = diffLibrary(input.acked, input.current);
    if (delta.items + delta.removed <= input.partMaxItems) {
      return { mode: "delta", bodies: librarySyncBodies({ ...common, mode: "delta", baseScanId: input.baseScanId, libraries: delta.libraries }), uploadedItems: delta.items, removed: delta.removed };
    }
  }
  const libraries = [...input.current].map(([root, items]) => ({ root, items: [...items.values()] }));
  return { mode: "full", bodies: librarySyncBodies({ ...common, mode: "full", libraries }), uploadedItems: itemCount(input.current), removed: 0 };
}

// dist/services/library/watcher.js
import { watch } from "node:fs";
import { readFile as readFile6, realpath } from "node:fs/promises";
import { sep } from "node:path";
function isUnwatchableFsType(type) {
  return /^(nfs4?|cifs|smb3?|smbfs|9p|afs|ceph|glusterfs|lustre|gpfs|davfs|fuse(\..*)?|fuseblk|sshfs)$/.test(type);
}
function parseMountInfo(text) {
  const mounts = /* @__PURE__ */ new Map();
  for (const line of text.split("\n")) {
    const [left, right] = line.split(" - ");
    if (left === void 0 || right === void 0)
      continue;
    const mountPoint = left.split(" ")[4];
    const type = right.split(" ")[0];
    if (mountPoint === void 0 || type === void 0)
      continue;
    mounts.set(mountPoint.replace(/\\(\d{3})/g, (_, octal) => String.fromCharCode(parseInt(octal, 8))), type);
  }
  return mounts;
}
function fsTypeOf(path, mounts) {
  let best;
  for (const mountPoint of mounts.keys()) {
    const inside2 = mountPoint === "/" || path === mountPoint || path.startsWith(`${mountPoint}${sep}`);
    if (inside2 && (best === void 0 || mountPoint.length > best.length))
      best = mountPoint;
  }
  return best === void 0 ? void 0 : mounts.get(best);
}
function createLibraryWatcher(options) {
  const log = options.logger;
  const watchers = /* @__PURE__ */ new Map();
  const unreliable = /* @__PURE__ */ new Set();
  let closed = false;
  const rootOf = (dir) => options.roots.find((root) => dir === root || dir.startsWith(`${root}${sep}`)) ?? dir;
  const giveUp = (root, reason) => {
    if (unreliable.has(root))
      return;
    unreliable.add(root);
    for (const [dir, watcher] of watchers) {
      if (rootOf(dir) !== root)
        continue;
      watcher.close();
      watchers.delete(dir);
    }
    log.warn({ root, reason }, "library folder cannot be watched reliably; it is rescanned periodically ([library] rescan_minutes)");
    options.onUnreliable(root, reason);
  };
  void (async () => {
    let mounts;
    try {
      mounts = parseMountInfo(await readFile6(options.mountInfoPath ?? "/proc/self/mountinfo", "utf8"));
    } catch {
      return;
    }
    for (const root of options.roots) {
      const real = await realpath(root).catch(() => root);
      const type = fsTypeOf(real, mounts);
      if (!closed && type !== void 0 && isUnwatchableFsType(type))
        giveUp(root, `${type} mount`);
    }
  })();
  return {
    watched: () => watchers.size,
    async update(dirs) {
      if (closed)
        return;
      const wanted = new Set(dirs.filter((dir) => !unreliable.has(rootOf(dir))));
      for (const [dir, watcher] of watchers) {
        if (wanted.has(dir))
          continue;
        watcher.close();
        watchers.delete(dir);
      }
      let added = 0;
      for (const dir of wanted) {
        if (closed)
          return;
        if (watchers.has(dir))
          continue;
        if (++added % (options.batch ?? 256) === 0)
          await new Promise((resolve5) => setImmediate(resolve5));
        const root = rootOf(dir);
        if (unreliable.has(root))
          continue;
        try {
          const watcher = watch(dir, { persistent: false }, (_event, name) => options.onChange(name ? `${dir}${sep}${String(name)}` : dir));
          watcher.on("error", (err) => {
            watcher.close();
            watchers.delete(dir);
            if (err.code !== "ENOENT" && err.code !== "EPERM")
              giveUp(root, `${err.code ?? "error"}: ${err.message}`);
          });
          watchers.set(dir, watcher);
        } catch (err) {
          const code = err.code;
          if (code !== "ENOENT")
            giveUp(root, `${code ?? "error"}: ${err.message}`);
        }
      }
    },
    close() {
      closed = true;
      for (const watcher of watchers.values())
        watcher.close();
      watchers.clear();
    }
  };
}

// dist/system/library-part.js
function createLibraryPart(options) {
  const { config } = options;
  const log = options.logger.child({ component: "library" });
  const roots = [...new Set(config.library.paths)];
  const probe = options.probe ?? createProbeService({ ffprobePath: config.transcode.ffprobePath || void 0, logger: log.child({ part: "probe" }) });
  let scanner;
  let scannerLoad;
  const loadScanner = () => scannerLoad ??= scannerFor().then((created) => scanner = created);
  const scannerFor = async () => {
    const [{ createLibraryScanner }, { createLibraryIndexStore }] = await Promise.all([import("./scanner-QVLPDBDK.js"), import("./library-index-OKRG22CA.js")]);
    return createLibraryScanner({
      index: createLibraryIndexStore({ stateDir: config.daemon.stateDir, logger: log }),
      inspect: (path, probeOptions) => probe.inspect(path, probeOptions),
      logger: log,
      probeConcurrency: timing(config, "libraryProbeConcurrency"),
      probeNiceness: options.probeNiceness ?? libraryProbeNice,
      fsConcurrency: timing(config, "libraryFsConcurrency"),
      yieldEvery: libraryYieldEveryFiles,
      skipExamples: librarySkipExamples,
      progressLogMs: timing(config, "libraryProgressLogMs"),
      ...options.playbackStarting ? { playbackStarting: options.playbackStarting, pauseMs: timing(config, "libraryPlaybackPauseMs"), pauseMaxMs: timing(config, "readinessDeadlineMs") } : {},
      ...options.onPlaybackStart ? { onPlaybackStart: options.onPlaybackStart } : {}
    });
  };
  let actor = () => void 0;
  const send = (event) => actor()?.send(event);
  const context = () => actor()?.getSnapshot()?.context;
  const stateValue = () => String(actor()?.getSnapshot()?.value ?? "idle");
  let latest;
  let acked = /* @__PURE__ */ new Map();
  let watcher;
  if (roots.length > 0) {
    if (config.library.watch) {
      watcher = createLibraryWatcher({
        roots,
        logger: log,
        batch: libraryYieldEveryFiles,
        onChange: () => send({ type: "library.changed" }),
        onUnreliable: () => send({ type: "library.unreliable" })
      });
    }
  }
  const logic = libraryMachine.provide({
    actors: {
      scan: fromPromise(async ({ input: input2, signal }) => {
        const result = await (await loadScanner()).scan(input2.roots, { signal });
        latest = result;
        await watcher?.update(result.dirs);
        const delta = diffLibrary(acked, result.snapshot);
        return { scanId: result.scanId, files: result.files, probed: result.probed, skipped: result.skipped, items: result.items, changes: delta.items + delta.removed, ms: result.ms };
      }),
      upload: fromPromise(async ({ input: input2 }) => {
        const scan = latest;
        if (!scan || scan.scanId !== input2.scanId)
          throw new Error(`scan ${input2.scanId} is not the newest; nothing to upload`);
        const plan = planUpload({
          agentId: options.agentId,
          scanId: scan.scanId,
          full: input2.full,
          baseScanId: input2.baseScanId,
          acked,
          current: scan.snapshot,
          partMaxItems: timing(config, "libraryPartMaxItems")
        });
        let bytes = 0;
        for (const body of plan.bodies)
          bytes += (await options.api.uploadLibrary(body)).bytes;
        acked = ackedOf(scan.snapshot);
        return { mode: plan.mode, uploadedItems: plan.uploadedItems, removed: plan.removed, parts: plan.bodies.length, bytes };
      })
    },
    actions: {
      logScanned: (_, { output }) => log.info(output, `library scan done: ${output.files} files seen, ${output.probed} probed, ${output.items} media items, ${output.changes} changes`),
      logUploaded: (_, { output, scanId }) => log.info({ scanId, ...output }, `library uploaded (${output.mode}): ${output.uploadedItems} items, ${output.removed} removed`),
      logFailed: ({ context: context2 }, { what }) => {
        const retryInMs = libraryRetryDelayMs(context2);
        log.warn({ what, error: context2.error, retryInMs }, `library ${what} failed; retrying in ${retryInMs} ms`);
      },
      logBaseMismatch: () => log.info("the server does not hold the base of this delta (409 base_mismatch); sending the whole library")
    }
  });
  const rescanMinutes = config.library.rescanMinutes;
  const input = {
    roots,
    debounceMs: timing(config, "libraryDebounceMs"),
    rescanMs: Math.round(rescanMinutes * 6e4),
    // Without watching, the periodic rescan is the only way changes are seen.
    periodic: !config.library.watch,
    retryBaseMs: timing(config, "libraryRetryBaseMs"),
    retryMaxMs: timing(config, "libraryRetryMaxMs")
  };
  const status = () => {
    const ctx = context();
    const scan = ctx?.lastScan;
    const upload = ctx?.lastUpload;
    const progress = scanner?.progress();
    return {
      state: libraryStateOf(stateValue()),
      roots,
      items: latest ? itemCount(latest.snapshot) : 0,
      lastScan: scan ? {
        scanId: scan.scanId,
        mode: upload?.mode ?? "full",
        files: scan.files,
        probed: scan.probed,
        skipped: scan.skipped,
        uploadedItems: upload?.uploadedItems ?? 0,
        ms: scan.ms,
        removed: upload?.removed ?? 0,
        parts: upload?.parts ?? 0,
        bytes: upload?.bytes ?? 0
      } : null,
      ...progress?.running ? { progress: { files: progress.files, probed: progress.probed, toProbe: progress.toProbe } } : {},
      watched: watcher?.watched() ?? 0,
      ...ctx?.error ? { error: ctx.error } : {}
    };
  };
  const outcome = (ticket) => {
    const ctx = context();
    if (!ctx || roots.length === 0)
      return "nothing";
    if (ctx.settledSeq >= ticket)
      return "acknowledged";
    if (ctx.failedSeq >= ticket && stateValue() === "failed")
      return "failed";
    return "pending";
  };
  const waitForOutcome = (ticket, waitMs) => new Promise((resolve5) => {
    const ref = actor();
    const now = outcome(ticket);
    if (now !== "pending" || !ref)
      return resolve5(now);
    const finish = (value) => {
      clearTimeout(timer);
      subscription.unsubscribe();
      resolve5(value);
    };
    const timer = setTimeout(() => finish(outcome(ticket)), waitMs);
    const subscription = ref.subscribe(() => {
      const next = outcome(ticket);
      if (next !== "pending")
        finish(next);
    });
  });
  const requestScan = (full2) => {
    const ticket = (context()?.scanSeq ?? 0) + 1;
    send({ type: "library.scan", full: full2 });
    return ticket;
  };
  const adminRoutes = [
    { method: "GET", path: "/api/library", handle: () => ({ status: 200, json: status() }) },
    {
      method: "POST",
      path: "/api/library/scan",
      handle: ({ body }) => {
        if (roots.length === 0)
          return { status: 200, json: { ticket: 0, outcome: "nothing", message: "no [library] paths are configured" } };
        const full2 = typeof body === "object" && body !== null && body.full === true;
        return { status: 200, json: { ticket: requestScan(full2), outcome: "pending" } };
      }
    },
    {
      method: "GET",
      path: "/api/library/scan",
      handle: async ({ url }) => {
        const ticket = Number(url.searchParams.get("ticket"));
        if (!Number.isInteger(ticket) || ticket < 0)
          return { status: 400, json: { error: "bad_request", message: "ticket must be a non-negative integer" } };
        const result = await waitForOutcome(ticket, timing(config, "libraryScanWaitMs"));
        return { status: 200, json: { ticket, outcome: result, status: status() } };
      }
    }
  ];
  const closers = [{ name: "library watcher", close: async () => watcher?.close() }];
  return {
    logic,
    input,
    closers,
    adminRoutes,
    status,
    /** Called once the root exists: how to reach the `library` actor. */
    attach(get) {
      actor = get;
    },
    /** The `scan_library` control (protocol.md 1, 7.6): `full` asks for a full upload. */
    scan(full2) {
      requestScan(full2);
    },
    /** What `media-agent status` shows: files seen, probed, uploaded. */
    summary() {
      const current = status();
      return {
        state: current.state,
        items: current.items,
        files: current.progress?.files ?? current.lastScan?.files ?? 0,
        probed: current.progress?.probed ?? current.lastScan?.probed ?? 0,
        uploadedItems: current.lastScan?.uploadedItems ?? 0
      };
    }
  };
}

// dist/services/auth/stream-token-verifier.js
function createStreamTokenVerifier(maxEntries2 = streamTokenCacheEntries) {
  const remembered = /* @__PURE__ */ new Map();
  return function verify({ secret, token, scope, nowSeconds, skewSeconds = streamTokenSkewSeconds }) {
    try {
      if (typeof secret !== "string" || typeof scope !== "string")
        return false;
      const parsed = parseStreamToken(token);
      if (parsed === void 0)
        return false;
      const key = `${token} ${scope}`;
      const known = remembered.get(key);
      const hit = known !== void 0 && known.secret === secret;
      const expected = hit ? known.expected : Buffer.from(signStreamToken(secret, parsed.expiry, scope), "utf8");
      if (!signaturesEqual(expected, parsed.signature))
        return false;
      if (!streamTokenUnexpired(parsed.expiry, nowSeconds, skewSeconds)) {
        remembered.delete(key);
        return false;
      }
      if (!hit) {
        remembered.delete(key);
        if (remembered.size >= maxEntries2)
          remembered.delete(remembered.keys().next().value);
        remembered.set(key, { secret, expected });
      }
      return true;
    } catch {
      return false;
    }
  };
}

// dist/services/ffmpeg/thumbnail.js
import { spawn } from "node:child_process";
var demuxers = [
  "mov",
  "mp4",
  "m4a",
  "3gp",
  "3g2",
  "mj2",
  "matroska",
  "webm",
  "avi",
  "mpegts",
  "mpeg",
  "mpegvideo",
  "flv",
  "asf",
  "ogg",
  "rm",
  "m4v",
  "h264",
  "hevc",
  "dv",
  "mxf",
  "wtv",
  "nuv",
  "ivf",
  "yuv4mpegpipe"
].join(",");
function thumbnailArgs(request) {
  return [
    "-hide_banner",
    "-nostdin",
    "-loglevel",
    "error",
    "-protocol_whitelist",
    "file",
    "-format_whitelist",
    demuxers,
    "-ss",
    request.seconds.toFixed(3),
    "-i",
    `file:${request.input}`,
    "-map",
    "0:V:0",
    "-an",
    "-sn",
    "-dn",
    ...request.width === void 0 ? [] : ["-vf", `scale=${request.width}:-2`],
    "-frames:v",
    "1",
    "-f",
    "image2",
    "-c:v",
    "mjpeg",
    "-q:v",
    "3",
    "pipe:1"
  ];
}
function isJpeg(buffer) {
  return buffer.length >= 4 && buffer[0] === 255 && buffer[1] === 216 && buffer[buffer.length - 2] === 255 && buffer[buffer.length - 1] === 217;
}
function createFfmpegThumbnailer(options) {
  const log = options.logger.child({ component: "thumbnail" });
  const timeoutMs = options.timeoutMs ?? thumbnailTimeoutMs;
  const maxBytes = options.maxBytes ?? thumbnailMaxBytes;
  return {
    extract(request) {
      return new Promise((resolve5, reject) => {
        if (request.signal?.aborted === true) {
          reject(new ThumbnailError("aborted", "thumbnail request abandoned"));
          return;
        }
        const child2 = spawn(options.ffmpegPath, thumbnailArgs(request), { stdio: ["ignore", "pipe", "pipe"] });
        const pid = child2.pid;
        const chunks = [];
        let bytes = 0;
        let stderr = "";
        let killedFor;
        const kill = (why) => {
          if (killedFor !== void 0 || pid === void 0)
            return;
          killedFor = why;
          try {
            process.kill(pid, "SIGKILL");
          } catch {
          }
        };
        const timer = setTimeout(() => kill("timeout"), timeoutMs);
        const onAbort = () => kill("aborted");
        request.signal?.addEventListener("abort", onAbort, { once: true });
        if (pid !== void 0)
          options.onSpawn?.(pid);
        child2.stdout.on("data", (chunk) => {
          bytes += chunk.length;
          if (bytes > maxBytes)
            kill("too-large");
          else
            chunks.push(chunk);
        });
        child2.stderr.setEncoding("utf8");
        child2.stderr.on("data", (text) => {
          if (stderr.length < 4096)
            stderr += text;
        });
        child2.on("error", (err) => {
          clearTimeout(timer);
          request.signal?.removeEventListener("abort", onAbort);
          reject(new ThumbnailError("failed", `cannot run ffmpeg: ${err.message}`, { cause: err }));
        });
        child2.on("close", (code, signal) => {
          clearTimeout(timer);
          request.signal?.removeEventListener("abort", onAbort);
          const details = { pid, code, signal, seconds: request.seconds, stderr: stderr.trim().slice(0, 1e3) };
          if (killedFor === "timeout") {
            log.warn(details, "thumbnail timed out; ffmpeg killed");
            reject(new ThumbnailError("timeout", `thumbnail took longer than ${timeoutMs} ms`, { details }));
            return;
          }
          if (killedFor === "aborted") {
            reject(new ThumbnailError("aborted", "thumbnail request abandoned", { details }));
            return;
          }
          if (killedFor === "too-large") {
            reject(new ThumbnailError("failed", `thumbnail larger than ${maxBytes} bytes`, { details }));
            return;
          }
          const image = Buffer.concat(chunks);
          if (isJpeg(image)) {
            resolve5(image);
            return;
          }
          log.debug(details, "ffmpeg produced no frame");
          reject(new ThumbnailError(code === 0 ? "no-frame" : "failed", code === 0 ? "no frame at that timestamp" : `ffmpeg exited with ${code ?? signal}: ${details.stderr}`, { details }));
        });
      });
    }
  };
}

// dist/server/routes/job-queue.js
function createJobQueue({ maxConcurrent, maxQueue }) {
  let running = 0;
  const waiters = [];
  const releaser = () => {
    let released = false;
    return () => {
      if (released)
        return;
      released = true;
      running--;
      const next = waiters.shift();
      if (next !== void 0)
        next.grant();
    };
  };
  return {
    get running() {
      return running;
    },
    get waiting() {
      return waiters.length;
    },
    acquire(signal) {
      if (signal.aborted)
        return Promise.reject(signal.reason);
      if (running < maxConcurrent) {
        running++;
        return Promise.resolve(releaser());
      }
      if (waiters.length >= maxQueue)
        return void 0;
      return new Promise((resolve5, reject) => {
        const waiter = {
          grant: () => {
            signal.removeEventListener("abort", onAbort);
            running++;
            resolve5(releaser());
          }
        };
        const onAbort = () => {
          const index = waiters.indexOf(waiter);
          if (index !== -1)
            waiters.splice(index, 1);
          reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        waiters.push(waiter);
      });
    }
  };
}

// dist/server/routes/request-target.js
function parseRequestTarget(url) {
  if (url === void 0 || !url.startsWith("/"))
    return void 0;
  const queryAt = url.indexOf("?");
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
  const rawQuery = queryAt === -1 ? "" : url.slice(queryAt + 1);
  const segments = [];
  for (const raw of rawPath.slice(1).split("/")) {
    let segment;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return void 0;
    }
    if (segment === "." || segment === ".." || /[/\\\0]/.test(segment))
      return void 0;
    segments.push(segment);
  }
  return { segments, query: new URLSearchParams(rawQuery) };
}
function singleParam(query, name) {
  const values = query.getAll(name);
  return values.length === 1 ? values[0] : void 0;
}

// dist/server/routes/send-source.js
import { randomBytes as randomBytes4 } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

// dist/services/media/byte-source.js
import { extname } from "node:path";
import { createRequire as createRequire2 } from "node:module";
var mimeTypes;
var lookupMime = (ext) => (mimeTypes ??= createRequire2(import.meta.url)("mime-types")).lookup(ext);
function isRecyclableBody(body) {
  return typeof body?.recycle === "function";
}
var contentTypeOverrides = {
  ".m4v": "video/mp4",
  ".mkv": "video/x-matroska",
  ".mk3d": "video/x-matroska",
  ".ts": "video/mp2t"
};
function contentTypeForName(name) {
  const ext = extname(name).toLowerCase();
  if (ext === "")
    return "application/octet-stream";
  const override = contentTypeOverrides[ext];
  if (override !== void 0)
    return override;
  const found = lookupMime(ext);
  return found === false ? "application/octet-stream" : found;
}
function fileEtag(mtimeSeconds, size) {
  return `"${mtimeSeconds.toString(16)}-${size.toString(16)}"`;
}

// dist/services/media/http-date.js
var months = { jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11 };
var imfFixdate = /^[A-Za-z]{3}, (\d{2}) ([A-Za-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
var rfc850 = /^[A-Za-z]{6,9}, (\d{2})-([A-Za-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
var asctime = /^[A-Za-z]{3} ([A-Za-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;
function build(year, month, day, h, m, s) {
  const monthIndex = months[month.toLowerCase()];
  if (monthIndex === void 0 || day < 1 || day > 31 || h > 23 || m > 59 || s > 60)
    return void 0;
  const ms = Date.UTC(year, monthIndex, day, h, m, Math.min(s, 59));
  return Number.isNaN(ms) ? void 0 : new Date(ms);
}
function parseHttpDate(value) {
  if (value === void 0)
    return void 0;
  const text = value.trim();
  let match = imfFixdate.exec(text);
  if (match !== null)
    return build(Number(match[3]), match[2], Number(match[1]), Number(match[4]), Number(match[5]), Number(match[6]));
  match = rfc850.exec(text);
  if (match !== null) {
    const yy = Number(match[3]);
    const year = yy + 2e3 > (/* @__PURE__ */ new Date()).getUTCFullYear() + 50 ? 1900 + yy : 2e3 + yy;
    return build(year, match[2], Number(match[1]), Number(match[4]), Number(match[5]), Number(match[6]));
  }
  match = asctime.exec(text);
  if (match !== null)
    return build(Number(match[6]), match[1], Number(match[2].trim()), Number(match[3]), Number(match[4]), Number(match[5]));
  return void 0;
}
function formatHttpDate(date) {
  return date.toUTCString();
}

// dist/server/routes/conditional.js
function tagList(header2) {
  return header2.split(",").map((tag) => tag.trim()).filter((tag) => tag.length > 0);
}
function opaque(tag) {
  return tag.startsWith("W/") ? tag.slice(2) : tag;
}
function strongMatch(header2, etag) {
  return tagList(header2).some((tag) => tag === "*" || etag !== void 0 && !etag.startsWith("W/") && !tag.startsWith("W/") && tag === etag);
}
function weakMatch(header2, etag) {
  return tagList(header2).some((tag) => tag === "*" || etag !== void 0 && opaque(tag) === opaque(etag));
}
function evaluatePreconditions(method, headers, validators) {
  const { etag, lastModified } = validators;
  if (headers.ifMatch !== void 0) {
    if (!strongMatch(headers.ifMatch, etag))
      return "failed";
  } else if (headers.ifUnmodifiedSince !== void 0 && lastModified !== void 0) {
    const date = parseHttpDate(headers.ifUnmodifiedSince);
    if (date !== void 0 && lastModified.getTime() > date.getTime())
      return "failed";
  }
  const safe = method === "GET" || method === "HEAD";
  if (headers.ifNoneMatch !== void 0) {
    if (weakMatch(headers.ifNoneMatch, etag))
      return safe ? "not-modified" : "failed";
  } else if (safe && headers.ifModifiedSince !== void 0 && lastModified !== void 0) {
    const date = parseHttpDate(headers.ifModifiedSince);
    if (date !== void 0 && lastModified.getTime() <= date.getTime())
      return "not-modified";
  }
  return "proceed";
}

// dist/server/routes/range.js
var full = { kind: "full" };
var unsatisfiable = { kind: "unsatisfiable" };
var maxOffT = 9223372036854775807n;
function decideRange(input) {
  const { range, ifRange } = input;
  if (range === void 0 || range.length < 7 || range.slice(0, 6).toLowerCase() !== "bytes=")
    return full;
  if (ifRange !== void 0 && !ifRangeHolds(ifRange, input.etag, input.lastModified))
    return full;
  return parseByteRanges(range.slice(6), input.size, input.maxRanges);
}
function ifRangeHolds(ifRange, etag, lastModified) {
  if (ifRange.length >= 2 && ifRange.endsWith('"'))
    return etag !== void 0 && etag === ifRange;
  if (lastModified === void 0)
    return false;
  const date = parseHttpDate(ifRange);
  return date !== void 0 && date.getTime() === lastModified.getTime();
}
function isDigit2(code) {
  return code >= 48 && code <= 57;
}
function parseByteRanges(spec, size, maxRanges) {
  const n = spec.length;
  let p = 0;
  const ranges = [];
  let total = 0;
  const skipSpaces = () => {
    while (p < n && spec.charCodeAt(p) === 32)
      p++;
  };
  const number = () => {
    const from = p;
    while (p < n && isDigit2(spec.charCodeAt(p)))
      p++;
    if (p === from)
      return void 0;
    const digits = spec.slice(from, p);
    if (digits.length > 19 || digits.length === 19 && BigInt(digits) > maxOffT)
      return void 0;
    return Number(digits);
  };
  for (; ; ) {
    let start = 0;
    let end;
    skipSpaces();
    if (spec[p] !== "-") {
      const first = number();
      if (first === void 0)
        return unsatisfiable;
      start = first;
      skipSpaces();
      if (spec[p] !== "-")
        return unsatisfiable;
      p++;
      skipSpaces();
      if (p === n || spec[p] === ",") {
        end = size;
      } else {
        const last = number();
        if (last === void 0)
          return unsatisfiable;
        skipSpaces();
        if (p !== n && spec[p] !== ",")
          return unsatisfiable;
        end = last >= size ? size : last + 1;
      }
    } else {
      p++;
      const suffix = number();
      if (suffix === void 0)
        return unsatisfiable;
      skipSpaces();
      if (p !== n && spec[p] !== ",")
        return unsatisfiable;
      start = suffix < size ? size - suffix : 0;
      end = size;
    }
    if (start < end) {
      ranges.push({ start, end: end - 1 });
      total += end - start;
      if (ranges.length > maxRanges)
        return full;
    } else if (start === 0) {
      return full;
    }
    if (p === n)
      break;
    p++;
  }
  if (ranges.length === 0)
    return unsatisfiable;
  if (total > size)
    return full;
  return { kind: "partial", ranges };
}

// dist/services/media/read-buffer-pool.js
var idle = [];
function borrowSlab() {
  return idle.pop() ?? Buffer.allocUnsafeSlow(streamReadPoolSlabBytes);
}
function returnSlab(slab) {
  if (idle.length < streamReadPoolSlabs && slab.length === streamReadPoolSlabBytes)
    idle.push(slab);
}

// dist/server/routes/send-positional.js
function sendPositional(res, readAt, range, head) {
  return new Promise((resolve5, reject) => {
    let position = range.start;
    const end = range.end;
    const slots = [];
    let reading = 0;
    let held = 0;
    let headWritten = false;
    let done = false;
    let pumping = false;
    let again = false;
    let scheduled = false;
    const finish = (err) => {
      if (done)
        return;
      done = true;
      res.off("close", onClose);
      if (err === void 0)
        resolve5();
      else if (!headWritten)
        reject(err);
      else {
        res.destroy();
        resolve5();
      }
    };
    const onClose = () => finish();
    res.once("close", onClose);
    const release2 = (slot) => {
      held--;
      if (slot.pooled)
        returnSlab(slot.buffer);
    };
    const issue = (slot) => {
      reading++;
      readAt(slot.buffer, slot.filled, slot.length - slot.filled, slot.position + slot.filled, (err, bytesRead) => {
        reading--;
        if (done) {
          release2(slot);
          return;
        }
        if (err !== null)
          return finish(err);
        if (bytesRead === 0)
          return finish(new SourceMissingError("the file shrank while it was being served"));
        slot.filled += bytesRead;
        if (slot.filled < slot.length)
          issue(slot);
        else
          pump();
      });
    };
    const write = (slot) => {
      const view = slot.length === slot.buffer.length ? slot.buffer : slot.buffer.subarray(0, slot.length);
      if (!headWritten) {
        headWritten = true;
        head();
      }
      const last = position > end && slots.length === 0;
      if (last) {
        res.once("finish", () => release2(slot));
        res.end(view);
        return;
      }
      res.write(view, (err) => {
        if (err === void 0 || err === null) {
          release2(slot);
          pump();
        }
      });
    };
    const pump = () => {
      if (pumping) {
        again = true;
        return;
      }
      pumping = true;
      try {
        do {
          again = false;
          if (done)
            return;
          let wrote = false;
          while (slots.length > 0 && slots[0].filled === slots[0].length) {
            write(slots.shift());
            wrote = true;
          }
          if (position > end) {
            if (slots.length === 0)
              finish();
            return;
          }
          if (wrote) {
            defer();
            return;
          }
          while (position <= end && reading < streamReadsInFlight && held < streamSendBuffers) {
            const remaining = end - position + 1;
            const length = position === range.start ? Math.min(remaining, streamFirstReadBytes) : remaining <= streamWholeReadBytes ? remaining : Math.min(remaining, streamReadChunkBytes);
            const pooled = length <= streamReadPoolSlabBytes;
            const slot = { buffer: pooled ? borrowSlab() : Buffer.allocUnsafe(length), pooled, length, position, filled: 0 };
            position += length;
            held++;
            slots.push(slot);
            issue(slot);
            if (done || again)
              break;
          }
        } while (again);
      } finally {
        pumping = false;
      }
    };
    const defer = () => {
      if (scheduled)
        return;
      scheduled = true;
      process.nextTick(() => {
        scheduled = false;
        pump();
      });
    };
    pump();
  });
}

// dist/server/routes/send-source.js
function headerValue(req, name) {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}
function validatorHeaders(source) {
  const headers = {};
  if (source.etag !== void 0)
    headers.etag = source.etag;
  if (source.lastModified !== void 0)
    headers["last-modified"] = formatHttpDate(source.lastModified);
  return headers;
}
async function sendSource(req, res, source, options) {
  const { signal } = options;
  const method = req.method ?? "GET";
  const validators = validatorHeaders(source);
  const base = { ...commonHeaders, "cache-control": "private", ...validators };
  const precondition = evaluatePreconditions(method, {
    ifMatch: headerValue(req, "if-match"),
    ifNoneMatch: headerValue(req, "if-none-match"),
    ifModifiedSince: headerValue(req, "if-modified-since"),
    ifUnmodifiedSince: headerValue(req, "if-unmodified-since")
  }, source);
  if (precondition === "not-modified") {
    res.writeHead(304, base);
    res.end();
    return;
  }
  if (precondition === "failed") {
    sendStatus(req, res, 412, "Precondition Failed");
    return;
  }
  const { size, contentType } = source;
  const decision = decideRange({
    range: headerValue(req, "range"),
    ifRange: headerValue(req, "if-range"),
    size,
    etag: source.etag,
    lastModified: source.lastModified,
    maxRanges: options.maxRanges
  });
  const head = method === "HEAD";
  if (decision.kind === "unsatisfiable") {
    sendStatus(req, res, 416, "Range Not Satisfiable", { "content-range": `bytes */${size}` });
    return;
  }
  if (decision.kind === "full" || decision.ranges.length === 1) {
    const range = decision.kind === "full" ? { start: 0, end: size - 1 } : decision.ranges[0];
    const length2 = range.end - range.start + 1;
    const headers2 = { ...base, "accept-ranges": "bytes", "content-type": contentType, "content-length": String(length2) };
    if (decision.kind === "partial")
      headers2["content-range"] = `bytes ${range.start}-${range.end}/${size}`;
    const status = decision.kind === "partial" ? 206 : 200;
    if (head || length2 === 0) {
      res.writeHead(status, headers2);
      res.end();
      return;
    }
    const readAt = source.readAt;
    if (readAt !== void 0 && source.waitsForData !== true) {
      await sendPositional(res, readAt.bind(source), range, () => {
        res.writeHead(status, headers2);
        options.onBody?.();
      });
      return;
    }
    const body = await source.read(range, signal);
    res.writeHead(status, headers2);
    options.onBody?.();
    if (source.waitsForData === true)
      res.flushHeaders();
    if (await pipeOut(body, res) && isRecyclableBody(body))
      body.recycle();
    return;
  }
  const boundary = randomBytes4(12).toString("hex");
  const parts = decision.ranges.map((range) => ({
    range,
    head: Buffer.from(`\r
--${boundary}\r
Content-Type: ${contentType}\r
Content-Range: bytes ${range.start}-${range.end}/${size}\r
\r
`, "latin1")
  }));
  const tail = Buffer.from(`\r
--${boundary}--\r
`, "latin1");
  const length = parts.reduce((sum, part) => sum + part.head.length + part.range.end - part.range.start + 1, tail.length);
  const headers = { ...base, "accept-ranges": "bytes", "content-type": `multipart/byteranges; boundary=${boundary}`, "content-length": String(length) };
  if (head) {
    res.writeHead(206, headers);
    res.end();
    return;
  }
  const first = await source.read(parts[0].range, signal);
  res.writeHead(206, headers);
  options.onBody?.();
  if (source.waitsForData === true)
    res.flushHeaders();
  async function* multipart() {
    for (const [index, part] of parts.entries()) {
      yield part.head;
      const stream = index === 0 ? first : await source.read(part.range, signal);
      try {
        for await (const chunk of stream)
          yield chunk;
      } finally {
        stream.destroy();
      }
    }
    yield tail;
  }
  await pipeOut(Readable.from(multipart(), { objectMode: false }), res, first);
}
async function pipeOut(body, res, alsoDestroy) {
  try {
    await pipeline(body, res);
    return true;
  } catch {
    alsoDestroy?.destroy();
    if (!res.destroyed)
      res.destroy();
    return false;
  }
}

// dist/server/routes/stream.js
function streamScope(sessionId) {
  return `stream:${sessionId}`;
}
var directPlayOnly = (entry) => entry.session.PlayMethod !== "hls";
function createStreamRoute(options) {
  const scope = options.scope ?? streamScope;
  const serves = options.serves ?? directPlayOnly;
  return async function streamRoute(context) {
    const { req, res, target, signal } = context;
    const [, sessionId, fileName, ...rest] = target.segments;
    if (req.method !== "GET" && req.method !== "HEAD")
      return sendNotFound(req, res);
    if (sessionId === void 0 || sessionId === "" || fileName === void 0 || fileName === "" || rest.length > 0)
      return sendNotFound(req, res);
    if (!context.verifyToken(singleParam(target.query, "token"), scope(sessionId)))
      return sendNotFound(req, res);
    const entry = options.sessions.get(sessionId);
    if (entry === void 0 || !serves(entry))
      return sendNotFound(req, res);
    const opened = await entry.source.open(signal);
    try {
      await sendSource(req, res, opened, { maxRanges: options.maxRanges, signal, ...entry.onMedia ? { onBody: entry.onMedia } : {} });
    } finally {
      await opened.close();
    }
  };
}

// dist/server/routes/thumbnail.js
import { createHash as createHash3 } from "node:crypto";

// dist/server/routes/path-clamp.js
import { realpath as realpath2, stat as stat4 } from "node:fs/promises";
import { isAbsolute as isAbsolute2, relative, sep as sep2 } from "node:path";
function inside(root, target) {
  const rel = relative(root, target);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep2}`) && !isAbsolute2(rel);
}
async function resolveClampedFile(requested, roots) {
  if (!isAbsolute2(requested) || requested.includes("\0"))
    return void 0;
  let real;
  try {
    real = await realpath2(requested);
  } catch {
    return void 0;
  }
  let allowed = false;
  for (const root of roots) {
    if (!isAbsolute2(root))
      continue;
    const realRoot = await realpath2(root).catch(() => void 0);
    if (realRoot !== void 0 && inside(realRoot, real)) {
      allowed = true;
      break;
    }
  }
  if (!allowed)
    return void 0;
  const info = await stat4(real).catch(() => void 0);
  return info?.isFile() === true ? real : void 0;
}

// dist/server/routes/thumbnail.js
function thumbScope(path) {
  return `thumb:${createHash3("sha256").update(path, "utf8").digest("hex")}`;
}
var secondsPattern = /^\d{1,7}(\.\d{1,6})?$/;
var widthPattern = /^\d{1,5}$/;
function parseSeconds(value) {
  if (value === void 0 || !secondsPattern.test(value))
    return void 0;
  const seconds = Number(value);
  return seconds <= thumbnailMaxSeekSeconds ? seconds : void 0;
}
function parseWidth(value) {
  if (value === void 0)
    return null;
  if (!widthPattern.test(value))
    return void 0;
  const width = Number(value);
  return width >= thumbnailMinWidth && width <= thumbnailMaxWidth ? width : void 0;
}
function createThumbnailRoute(options) {
  const retryAfter = String(options.retryAfterSeconds ?? thumbnailRetryAfterSeconds);
  return async function thumbnailRoute(context) {
    const { req, res, target, signal, log } = context;
    if (req.method !== "GET" || target.segments.length !== 1)
      return sendNotFound(req, res);
    const path = singleParam(target.query, "path");
    if (path === void 0 || !context.verifyToken(singleParam(target.query, "token"), thumbScope(path)))
      return sendNotFound(req, res);
    const seconds = parseSeconds(singleParam(target.query, "t"));
    const width = parseWidth(target.query.getAll("w").length > 1 ? "x" : singleParam(target.query, "w"));
    if (seconds === void 0 || width === void 0) {
      return sendStatus(req, res, 400, `Bad Request: t must be seconds (0-${thumbnailMaxSeekSeconds}), w an integer width (${thumbnailMinWidth}-${thumbnailMaxWidth})`);
    }
    const input = await resolveClampedFile(path, options.allowedRoots());
    if (input === void 0)
      return sendNotFound(req, res);
    const slot = options.queue.acquire(signal);
    if (slot === void 0) {
      log.debug({ running: options.queue.running, waiting: options.queue.waiting }, "thumbnail queue full");
      return sendStatus(req, res, 503, "Service Unavailable: too many thumbnails in progress", { "retry-after": retryAfter });
    }
    let release2;
    try {
      release2 = await slot;
    } catch {
      return;
    }
    try {
      const image = await options.thumbnailer.extract({ input, seconds, ...width === null ? {} : { width }, signal });
      res.writeHead(200, {
        ...commonHeaders,
        "content-type": "image/jpeg",
        "content-length": String(image.length),
        "cache-control": "private, max-age=3600"
      });
      res.end(image);
    } catch (err) {
      if (!(err instanceof ThumbnailError))
        throw err;
      if (err.reason === "aborted")
        return;
      if (err.reason === "timeout")
        return sendStatus(req, res, 504, "Gateway Timeout: thumbnail took too long");
      if (err.reason === "no-frame")
        return sendStatus(req, res, 422, "Unprocessable Content: no frame at that timestamp");
      log.warn({ err }, "thumbnail failed");
      return sendStatus(req, res, 500, "Internal Server Error: thumbnail failed");
    } finally {
      release2();
    }
  };
}

// dist/server/stream-server.js
var { createServer: createServer2 } = process.getBuiltinModule("node:http");
var responseClosed = new DOMException("The response closed", "AbortError");
var preflightHeaders = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, HEAD",
  "access-control-allow-headers": "Range, If-Range, If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since",
  "access-control-max-age": "600",
  "content-length": "0"
};
function observe(metrics, req, res, route, started) {
  const socket = req.socket;
  const bytesBefore = socket.bytesWritten;
  let firstByteSeconds;
  const writeHead = res.writeHead;
  res.writeHead = function(...args) {
    firstByteSeconds ??= (performance.now() - started) / 1e3;
    return writeHead.apply(this, args);
  };
  res.once("close", () => {
    metrics.streamRequest({ route, status: res.statusCode, bytes: Math.max(0, socket.bytesWritten - bytesBefore), firstByteSeconds });
  });
}
async function createStreamServer(options) {
  const log = options.logger.child({ component: "stream-server" });
  const now = options.now ?? Date.now;
  const host = options.host ?? streamServerHost;
  const thumbnailer = options.thumbnailer ?? (options.ffmpegPath === void 0 ? void 0 : createFfmpegThumbnailer({ ffmpegPath: options.ffmpegPath, logger: log, timeoutMs: options.thumbnailTimeoutMs ?? thumbnailTimeoutMs }));
  const stream = createStreamRoute({ sessions: options.sessions, maxRanges: options.maxRanges ?? streamMaxRanges });
  const thumbnail = thumbnailer === void 0 ? void 0 : createThumbnailRoute({
    thumbnailer,
    queue: createJobQueue({ maxConcurrent: options.thumbnailMaxConcurrent ?? thumbnailMaxConcurrent, maxQueue: options.thumbnailMaxQueue ?? thumbnailMaxQueue }),
    allowedRoots: options.allowedRoots ?? (() => []),
    retryAfterSeconds: options.thumbnailRetryAfterSeconds ?? thumbnailRetryAfterSeconds
  });
  const routes = /* @__PURE__ */ new Map([["stream", stream], ["thumbnail", thumbnail], ["hls", options.routes?.hls], ["source", options.routes?.source]]);
  const routeLoggers = new Map([...routes.keys()].map((route) => [route, log.child({ route })]));
  const verifyStreamToken = createStreamTokenVerifier();
  const verifyToken = (token, scope) => {
    const secret = options.secret();
    if (token === void 0 || secret === void 0 || secret === "")
      return false;
    return verifyStreamToken({ secret, token, scope, nowSeconds: Math.floor(now() / 1e3) });
  };
  const handle = (req, res) => {
    const started = performance.now();
    const controller = new AbortController();
    res.once("close", () => controller.abort(responseClosed));
    const target = parseRequestTarget(req.url);
    const name = target?.segments[0] ?? "";
    const requestLog = routeLoggers.get(name) ?? log;
    if (log.isLevelEnabled("debug")) {
      res.once("finish", () => requestLog.debug({ method: req.method, status: res.statusCode, ms: Math.round(performance.now() - started) }, "answered"));
    }
    if (options.metrics)
      observe(options.metrics, req, res, routes.has(name) ? name : "other", started);
    if (req.method === "OPTIONS" && req.headers.origin !== void 0 && req.headers["access-control-request-method"] !== void 0) {
      res.writeHead(204, preflightHeaders);
      res.end();
      return;
    }
    const route = target === void 0 ? void 0 : routes.get(name);
    if (target === void 0 || route === void 0) {
      sendNotFound(req, res);
      return;
    }
    const context = { req, res, target, signal: controller.signal, log: requestLog, verifyToken };
    route(context).catch((err) => {
      if (controller.signal.aborted)
        return;
      if (err instanceof SourceMissingError) {
        requestLog.debug({ err }, "source missing");
        sendNotFound(req, res);
      } else if (err instanceof UpstreamError) {
        requestLog.warn({ err }, "upstream failed");
        sendStatus(req, res, 502, "Bad Gateway");
      } else {
        requestLog.error({ err }, "stream server route failed");
        sendStatus(req, res, 500, "Internal Server Error");
      }
    });
  };
  const server = createServer2({
    keepAliveTimeout: streamServerKeepAliveTimeoutMs,
    headersTimeout: streamServerHeadersTimeoutMs,
    // A player may hold a paused download open for long; only the request head is timed.
    requestTimeout: 0,
    noDelay: true
  }, handle);
  server.on("clientError", (err, socket) => {
    log.debug({ err: { code: err.code, message: err.message } }, "bad request from client");
    if (socket.writable)
      socket.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    else
      socket.destroy();
  });
  await new Promise((resolve5, reject) => {
    const onError = (err) => {
      reject(new StreamServerListenError(`stream server cannot listen on ${host}:${options.port ?? streamServerPort}: ${err.code ?? err.message}`, { cause: err, details: { host, port: options.port ?? streamServerPort } }));
    };
    server.once("error", onError);
    server.listen(options.port ?? streamServerPort, host, () => {
      server.off("error", onError);
      resolve5();
    });
  });
  server.on("error", (err) => log.error({ err }, "stream server error"));
  const address = server.address();
  const shownHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  log.info({ host, port: address.port }, "stream server listening");
  let closing;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    host,
    close() {
      closing ??= new Promise((resolve5) => {
        server.close(() => resolve5());
        server.closeAllConnections();
      });
      return closing;
    }
  };
}

// dist/services/hls/inputs.js
import { basename as basename4 } from "node:path";

// dist/services/media/in-progress-file-source.js
function createInProgressFileSource(options) {
  const { provider, infoHash, fileIndex, size, name } = options;
  const contentType = contentTypeForName(name);
  const etag = `"${infoHash.toLowerCase()}-${fileIndex.toString(16)}-${size.toString(16)}"`;
  return {
    label: `torrent:${infoHash}/${fileIndex}`,
    open() {
      if (options.isAvailable !== void 0 && !options.isAvailable()) {
        return Promise.reject(new SourceMissingError(`torrent ${infoHash} file ${fileIndex} is no longer available`, { details: { infoHash, fileIndex } }));
      }
      return Promise.resolve({
        size,
        contentType,
        etag,
        waitsForData: true,
        read(range) {
          return Promise.resolve(provider.createReadStream(infoHash, fileIndex, { start: range.start, end: range.end }));
        },
        close: () => Promise.resolve()
      });
    }
  };
}

// dist/services/media/local-file-source.js
import { read, readSync } from "node:fs";
import { open as open3, stat as stat5 } from "node:fs/promises";
import { basename as basename3 } from "node:path";
import { Readable as Readable2 } from "node:stream";

// dist/services/media/local-disk.js
import { statfs } from "node:fs/promises";
var remoteTypes = /* @__PURE__ */ new Set([
  26985,
  // NFS
  20859,
  // SMB
  4283649346,
  // CIFS
  4266872130,
  // SMB2
  1702057286,
  // FUSE
  12805120,
  // Ceph
  16914839,
  // 9p (v9fs)
  1397113167,
  // AFS
  1799439955,
  // kAFS
  1937076805,
  // Coda
  18225520,
  // GFS2
  1952539503,
  // OCFS2
  198183888,
  // Lustre
  1196443219,
  // GPFS
  19993e3,
  // IBRIX
  22092
  // NCP
]);
async function onLocalDisk(path) {
  if (process.platform !== "linux")
    return false;
  try {
    const { type } = await statfs(path);
    return !remoteTypes.has(type >>> 0);
  } catch {
    return false;
  }
}

// dist/services/media/local-file-source.js
async function openFile(path) {
  let handle;
  try {
    handle = await open3(path, "r");
  } catch (err) {
    throw new SourceMissingError(`cannot open ${path}`, { cause: err, details: { path } });
  }
  const [stat8, local] = await Promise.all([handle.stat().catch(async (err) => {
    await handle.close().catch(() => void 0);
    throw new SourceMissingError(`cannot stat ${path}`, { cause: err, details: { path } });
  }), onLocalDisk(path)]);
  if (!stat8.isFile()) {
    await handle.close().catch(() => void 0);
    throw new SourceMissingError(`${path} is not a regular file`, { details: { path } });
  }
  const mtimeSeconds = Math.floor(stat8.mtimeMs / 1e3);
  return {
    handle,
    dev: stat8.dev,
    ino: stat8.ino,
    size: stat8.size,
    mtimeMs: stat8.mtimeMs,
    etag: fileEtag(mtimeSeconds, stat8.size),
    lastModified: new Date(mtimeSeconds * 1e3),
    usedSinceCheck: false,
    inflight: new Inflight(),
    threadPoolUntil: local ? 0 : Number.POSITIVE_INFINITY,
    warm: false,
    users: 0,
    retired: false
  };
}
function unchanged(file, now) {
  return now.isFile() && now.dev === file.dev && now.ino === file.ino && now.size === file.size && now.mtimeMs === file.mtimeMs;
}
function release(file) {
  if (!file.retired || file.users > 0)
    return Promise.resolve();
  file.closing ??= file.inflight.settled().then(() => file.handle.close()).catch(() => void 0);
  return file.closing;
}
function createLocalFileSource(path, options = {}) {
  const contentType = options.contentType ?? contentTypeForName(path);
  const chunkBytes = options.readChunkBytes ?? streamReadChunkBytes;
  const cacheMs = options.openCacheMs ?? streamOpenFileCacheMs;
  const inlineBytes = options.inlineReadBytes ?? streamInlineReadBytes;
  const slowMs = options.inlineReadSlowMs ?? streamInlineReadSlowMs;
  let current;
  let ready;
  const retire = (pending) => {
    if (current === pending) {
      current = void 0;
      ready = void 0;
    }
    void pending.then((file) => {
      file.retired = true;
      return release(file);
    }, () => void 0);
  };
  const acquire = async () => {
    if (cacheMs <= 0) {
      const file = await openFile(path);
      file.retired = true;
      return file;
    }
    if (current === void 0) {
      const pending = openFile(path);
      current = pending;
      pending.then((file) => {
        if (current === pending)
          ready = file;
        revalidateLater(pending, file);
      }, () => {
        if (current === pending)
          current = void 0;
      });
    }
    return current;
  };
  const revalidateLater = (pending, file) => {
    file.usedSinceCheck = false;
    setTimeout(() => {
      if (current !== pending)
        return;
      if (!file.usedSinceCheck)
        return retire(pending);
      stat5(path).then((now) => unchanged(file, now), () => false).then((same) => {
        if (current !== pending)
          return;
        if (same)
          revalidateLater(pending, file);
        else
          retire(pending);
      }, () => void 0);
    }, cacheMs).unref();
  };
  return {
    label: `file:${basename3(path)}`,
    open() {
      return ready !== void 0 ? Promise.resolve(use(ready)) : acquire().then(use);
    }
  };
  function use(file) {
    file.users++;
    file.usedSinceCheck = true;
    let closed = false;
    return {
      size: file.size,
      contentType,
      etag: file.etag,
      lastModified: file.lastModified,
      read(range) {
        return Promise.resolve(new FileRangeStream(file.handle.fd, file.inflight, range, chunkBytes));
      },
      readAt(buffer, offset, length, position, callback) {
        if (file.warm && length <= inlineBytes && performance.now() >= file.threadPoolUntil)
          readInline(file, buffer, offset, length, position, slowMs, callback);
        else
          readInPool(file, buffer, offset, length, position, slowMs, callback);
      },
      async close() {
        if (closed)
          return;
        closed = true;
        file.users--;
        await release(file);
      }
    };
  }
}
var blockInputSample = { blocks: 0, at: Number.NEGATIVE_INFINITY };
function readInline(file, buffer, offset, length, position, slowMs, callback) {
  const started = performance.now();
  if (started - blockInputSample.at >= streamBlockInputSampleMs)
    blockInputSample = { blocks: process.resourceUsage().fsRead, at: started };
  const blocksBefore = blockInputSample.blocks;
  let bytesRead;
  try {
    bytesRead = readSync(file.handle.fd, buffer, offset, length, position);
  } catch (err) {
    callback(err, 0);
    return;
  }
  const finished = performance.now();
  if (finished - started > slowMs && process.resourceUsage().fsRead > blocksBefore)
    file.threadPoolUntil = finished + streamInlineReadCooldownMs;
  callback(null, bytesRead);
}
function readInPool(file, buffer, offset, length, position, slowMs, callback) {
  file.inflight.begin();
  const started = performance.now();
  read(file.handle.fd, buffer, offset, length, position, (err, bytesRead) => {
    file.inflight.end();
    if (!err && performance.now() - started <= slowMs)
      file.warm = true;
    callback(err, bytesRead);
  });
}
var Inflight = class {
  count = 0;
  idle;
  begin() {
    this.count++;
  }
  end() {
    this.count--;
    if (this.count === 0)
      this.idle?.();
  }
  settled() {
    if (this.count === 0)
      return Promise.resolve();
    return new Promise((resolve5) => {
      this.idle = resolve5;
    });
  }
};
var FileRangeStream = class extends Readable2 {
  fd;
  inflight;
  chunkBytes;
  position;
  /** Pooled slabs this stream's buffers are views of; back to the pool on recycle(). */
  leased = [];
  end;
  first = true;
  /** Reads issued and not yet pushed, in file order. */
  slots = [];
  wanted = false;
  constructor(fd, inflight, range, chunkBytes) {
    super({ highWaterMark: chunkBytes });
    this.fd = fd;
    this.inflight = inflight;
    this.chunkBytes = chunkBytes;
    this.position = range.start;
    this.end = range.end;
  }
  _read() {
    this.wanted = true;
    this.flush();
  }
  fill() {
    while (this.slots.length < streamReadsInFlight && this.position <= this.end) {
      const remaining = this.end - this.position + 1;
      const length = this.first ? Math.min(remaining, streamFirstReadBytes) : remaining <= streamWholeReadBytes ? remaining : Math.min(remaining, this.chunkBytes);
      this.first = false;
      const slot = { buffer: this.borrow(length), position: this.position, filled: 0 };
      this.position += length;
      this.slots.push(slot);
      this.issue(slot);
    }
  }
  /**
   * A fresh 1 MiB buffer per read costs page faults and garbage collection (a quarter of the
   * server's time on 1 MiB ranges), so a short range's reads borrow slabs from a small pool.
   */
  borrow(length) {
    if (length > streamReadPoolSlabBytes || this.leased.length >= streamReadPoolSlabsPerResponse)
      return Buffer.allocUnsafe(length);
    const slab = borrowSlab();
    this.leased.push(slab);
    return slab.subarray(0, length);
  }
  /** Only once every pushed byte was consumed; the caller knows they have reached the kernel. */
  recycle() {
    if (!this.readableEnded || this.slots.length > 0)
      return;
    for (const slab of this.leased.splice(0))
      returnSlab(slab);
  }
  issue(slot) {
    this.inflight.begin();
    read(this.fd, slot.buffer, slot.filled, slot.buffer.length - slot.filled, slot.position + slot.filled, (err, bytesRead) => {
      this.inflight.end();
      if (this.destroyed)
        return;
      if (err !== null) {
        this.destroy(err);
        return;
      }
      if (bytesRead === 0) {
        this.destroy(new SourceMissingError("the file shrank while it was being served"));
        return;
      }
      slot.filled += bytesRead;
      if (slot.filled < slot.buffer.length)
        this.issue(slot);
      else
        this.flush();
    });
  }
  /** Pushes the finished reads at the head, in order; issues more while the consumer wants more. */
  flush() {
    while (this.wanted && this.slots.length > 0 && this.slots[0].filled === this.slots[0].buffer.length) {
      const slot = this.slots.shift();
      this.wanted = this.push(slot.buffer);
    }
    if (this.destroyed)
      return;
    if (this.slots.length === 0 && this.position > this.end) {
      this.push(null);
      return;
    }
    if (this.wanted)
      this.fill();
  }
};

// dist/services/sessions/registry.js
function createSessionRegistry() {
  const entries = /* @__PURE__ */ new Map();
  return {
    get: (sessionId) => entries.get(sessionId),
    set: (sessionId, entry) => {
      entries.set(sessionId, entry);
    },
    delete: (sessionId, entry) => {
      if (entry === void 0 || entries.get(sessionId) === entry)
        entries.delete(sessionId);
    },
    get size() {
      return entries.size;
    }
  };
}

// dist/services/hls/inputs.js
function hlsSourceOf(session) {
  return session.DirectURL !== void 0 && session.DirectURL !== "" ? session.DirectURL : session.filePath ?? "";
}
var hlsInputScope = (sessionId) => `source:${sessionId}`;
function createHlsInputs(options) {
  const registry = createSessionRegistry();
  const now = options.now ?? Date.now;
  const ttl = options.tokenTtlSeconds ?? hlsInputTokenTtlSeconds;
  const complete = (filePath) => options.fileComplete?.(filePath) === true;
  const route = createStreamRoute({ sessions: registry, maxRanges: streamMaxRanges, scope: hlsInputScope, serves: () => true });
  const inputSource = (filePath) => {
    const local = createLocalFileSource(filePath, options.localFile);
    return {
      label: `hls-input:${basename4(filePath)}`,
      open(signal) {
        const torrent = options.inProgress?.(filePath);
        if (torrent !== void 0)
          return createInProgressFileSource(torrent).open(signal);
        if (complete(filePath))
          return local.open(signal);
        return Promise.reject(new SourceMissingError(`${basename4(filePath)} is neither downloading nor complete`, { details: { filePath } }));
      }
    };
  };
  return {
    route,
    registry,
    open(session) {
      const fixed = hlsSourceOf(session);
      const filePath = session.filePath;
      const inProgress = session.DirectURL === void 0 || session.DirectURL === "" ? filePath !== void 0 && filePath !== "" ? options.inProgress?.(filePath) : void 0 : void 0;
      if (inProgress === void 0 || filePath === void 0)
        return { source: fixed, release: () => {
        } };
      const { sessionId } = session;
      const secret = options.secret();
      const base = options.baseUrl();
      if (secret === void 0 || secret === "" || base === void 0) {
        throw new InternalError(`cannot serve ${basename4(filePath)} (still downloading) to ffmpeg: the stream server or the signing secret is not there yet`);
      }
      const entry = { session, source: inputSource(filePath) };
      registry.set(sessionId, entry);
      const path = `${base}/source/${encodeURIComponent(sessionId)}/${encodeURIComponent(basename4(filePath))}`;
      return {
        source: {
          id: filePath,
          current: () => {
            if (complete(filePath))
              return filePath;
            const token = mintStreamToken({ secret: options.secret() ?? secret, scope: hlsInputScope(sessionId), expiresAtSeconds: Math.floor(now() / 1e3) + ttl });
            return `${path}?token=${token}`;
          }
        },
        release: () => registry.delete(sessionId, entry)
      };
    }
  };
}
function fileCompleteIn(tasks) {
  return (filePath) => tasks.reports().some((task) => {
    const live = task.infoHash ? tasks.engine.stats(task.infoHash)?.files.find((file2) => file2.path === filePath) : void 0;
    const file = live ?? task.files.find((candidate) => candidate.path === filePath);
    return file !== void 0 && file.progress >= 1;
  });
}

// dist/services/media/direct-url-source.js
import { extname as extname2 } from "node:path";
var otherVideoExtensions = /* @__PURE__ */ new Set([
  ".mkv",
  ".mk3d",
  ".webm",
  ".avi",
  ".mov",
  ".qt",
  ".ts",
  ".m2ts",
  ".mts",
  ".wmv",
  ".asf",
  ".flv",
  ".mpg",
  ".mpeg",
  ".vob",
  ".ogv",
  ".ogm",
  ".3gp",
  ".3g2",
  ".divx",
  ".rm",
  ".rmvb",
  ".iso",
  ".m3u8",
  ".mpd"
]);
var mp4Types = /* @__PURE__ */ new Set(["video/mp4", "video/x-m4v", "video/m4v", "application/mp4"]);
function header(headers, name) {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
function directUrlRejection(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return "DirectURL is not a valid URL";
  }
  if (parsed.protocol !== "https:")
    return `DirectURL must be https, got ${parsed.protocol}`;
  const last = parsed.pathname.split("/").pop() ?? "";
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
  }
  const ext = extname2(name).toLowerCase();
  if (otherVideoExtensions.has(ext))
    return `DirectURL names a ${ext} file; direct play serves mp4/m4v only (use PlayMethod hls)`;
  return void 0;
}
function redactUrl(url) {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/...`;
  } catch {
    return "(invalid url)";
  }
}
async function createDirectUrlSource(options) {
  const { url } = options;
  const log = options.logger.child({ component: "direct-url-source" });
  const rejection = directUrlRejection(url);
  if (rejection !== void 0)
    throw new DirectUrlUnsupportedError(rejection, { details: { url: redactUrl(url) } });
  const { Agent, getGlobalDispatcher, interceptors, request } = await import("./undici-3XR6EART.js");
  const ownAgent = options.ca === void 0 ? void 0 : new Agent({ connect: { ca: options.ca } });
  const base = options.dispatcher ?? ownAgent ?? getGlobalDispatcher();
  const dispatcher = base.compose(interceptors.redirect({ maxRedirections: options.maxRedirections ?? directUrlMaxRedirections }));
  const headersTimeout = options.headersTimeoutMs ?? directUrlHeadersTimeoutMs;
  const bodyTimeout = options.bodyTimeoutMs ?? directUrlBodyTimeoutMs;
  const dispose = async () => {
    await ownAgent?.close().catch(() => void 0);
  };
  let size;
  let etag;
  let lastModified;
  try {
    const headSignal = AbortSignal.any([
      AbortSignal.timeout(options.headTimeoutMs ?? directUrlHeadTimeoutMs),
      ...options.signal === void 0 ? [] : [options.signal]
    ]);
    const head = await request(url, { method: "HEAD", dispatcher, signal: headSignal, headersTimeout, headers: { "accept-encoding": "identity" } });
    await head.body.dump();
    if (head.statusCode < 200 || head.statusCode > 299) {
      throw new UpstreamError(`debrid HEAD answered ${head.statusCode}`, { details: { status: head.statusCode, url: redactUrl(url) } });
    }
    const type = (header(head.headers, "content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (type.startsWith("video/") && !mp4Types.has(type)) {
      throw new DirectUrlUnsupportedError(`the debrid host serves ${type}; direct play serves mp4/m4v only (use PlayMethod hls)`, { details: { url: redactUrl(url), contentType: type } });
    }
    const length = header(head.headers, "content-length");
    if (length === void 0 || !/^\d{1,16}$/.test(length) || !Number.isSafeInteger(Number(length))) {
      throw new UpstreamError("debrid HEAD gave no usable Content-Length", { details: { contentLength: length, url: redactUrl(url) } });
    }
    size = Number(length);
    const upstreamEtag = header(head.headers, "etag");
    etag = upstreamEtag !== void 0 && upstreamEtag.startsWith('"') ? upstreamEtag : void 0;
    lastModified = parseHttpDate(header(head.headers, "last-modified"));
  } catch (err) {
    await dispose();
    if (err instanceof UpstreamError || err instanceof DirectUrlUnsupportedError)
      throw err;
    throw new UpstreamError(`debrid HEAD failed: ${err.message}`, { cause: err, details: { url: redactUrl(url) } });
  }
  log.debug({ size, url: redactUrl(url) }, "direct link registered");
  const read2 = async (range, signal) => {
    let response;
    try {
      response = await request(url, {
        method: "GET",
        dispatcher,
        signal,
        headersTimeout,
        bodyTimeout,
        headers: { range: `bytes=${range.start}-${range.end}`, "accept-encoding": "identity" }
      });
    } catch (err) {
      throw new UpstreamError(`debrid GET failed: ${err.message}`, { cause: err, details: { url: redactUrl(url) } });
    }
    const { statusCode, headers, body } = response;
    const whole = range.start === 0 && range.end === size - 1;
    const expectedRange = `bytes ${range.start}-${range.end}/${size}`;
    const ok = statusCode === 206 ? header(headers, "content-range") === expectedRange : statusCode === 200 && whole && header(headers, "content-length") === String(size);
    if (!ok) {
      body.destroy();
      throw new UpstreamError(`debrid GET answered ${statusCode} ${header(headers, "content-range") ?? ""} for ${expectedRange}`, {
        details: { status: statusCode, contentRange: header(headers, "content-range"), expected: expectedRange, url: redactUrl(url) }
      });
    }
    return body;
  };
  return {
    label: `url:${redactUrl(url)}`,
    size,
    dispose,
    open() {
      return Promise.resolve({
        size,
        // Contract 4.2: video/mp4 whatever the link's name says.
        contentType: "video/mp4",
        ...etag === void 0 ? {} : { etag },
        ...lastModified === void 0 ? {} : { lastModified },
        read: read2,
        close: () => Promise.resolve()
      });
    }
  };
}

// dist/services/media/session-source.js
async function createSessionSource(session, deps) {
  if (session.DirectURL !== void 0 && session.DirectURL !== "") {
    const source2 = await createDirectUrlSource({
      url: session.DirectURL,
      logger: deps.logger,
      ...deps.dispatcher === void 0 ? {} : { dispatcher: deps.dispatcher },
      ...deps.ca === void 0 ? {} : { ca: deps.ca },
      ...deps.signal === void 0 ? {} : { signal: deps.signal }
    });
    return { source: source2, dispose: () => source2.dispose() };
  }
  if (session.filePath === void 0 || session.filePath === "") {
    throw new InternalError(`stream session ${session.sessionId} has neither DirectURL nor filePath`);
  }
  const torrent = deps.inProgress?.(session.filePath);
  const source = torrent === void 0 ? createLocalFileSource(session.filePath, deps.localFile) : createInProgressFileSource(torrent);
  return { source, dispose: () => Promise.resolve() };
}

// dist/services/media/direct-source.js
async function openDirectSource(session, deps, signal) {
  const opened = await createSessionSource(session, { ...deps, signal });
  try {
    const probe = await opened.source.open(signal);
    await probe.close();
  } catch (error) {
    await opened.dispose().catch(() => void 0);
    throw error;
  }
  return opened;
}

// dist/services/sessions/report-ledger.js
function createSessionReportLedger() {
  const entries = /* @__PURE__ */ new Map();
  const startListeners = /* @__PURE__ */ new Set();
  return {
    publish(report) {
      const wasStarting = entries.get(report.sessionId)?.report.state === "starting";
      entries.set(report.sessionId, { report, finalSent: false, crashed: false });
      if (report.state === "starting" && !wasStarting)
        for (const listener of startListeners)
          listener();
    },
    onStarting(listener) {
      startListeners.add(listener);
      return () => startListeners.delete(listener);
    },
    crashed(sessionId, error) {
      const cacheHit = entries.get(sessionId)?.report.cacheHit ?? false;
      entries.set(sessionId, { report: { sessionId, state: "failed", cacheHit, error }, finalSent: false, crashed: true });
    },
    collect() {
      const reports = [];
      for (const entry of entries.values()) {
        if (entry.report.state === "ended")
          entry.finalSent = true;
        reports.push({ ...entry.report });
      }
      return reports;
    },
    anyStarting() {
      for (const entry of entries.values())
        if (entry.report.state === "starting")
          return true;
      return false;
    },
    syncSucceeded(listed) {
      const ids = new Set(listed.map((session) => session.sessionId));
      for (const [sessionId, entry] of entries) {
        if (entry.finalSent)
          entries.delete(sessionId);
        else if (entry.crashed && !ids.has(sessionId)) {
          entries.set(sessionId, { report: { sessionId, state: "ended", cacheHit: entry.report.cacheHit }, finalSent: false, crashed: false });
        }
      }
    }
  };
}

// dist/system/session-bindings.js
function createSessionLogic(deps) {
  const log = deps.logger;
  const pending = /* @__PURE__ */ new Set();
  const running = /* @__PURE__ */ new Map();
  const hold = (sessionId, cleanup) => {
    let done = false;
    const once = () => {
      if (done)
        return;
      done = true;
      if (running.get(sessionId) === once)
        running.delete(sessionId);
      cleanup();
    };
    running.set(sessionId, once);
    return once;
  };
  const track = (promise) => {
    const tracked = promise.catch((err) => log.warn({ err }, "stream session cleanup failed")).finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  const machine = sessionMachine.provide({
    actors: {
      directSource: fromCallback(({ input, sendBack }) => {
        const { session } = input;
        const controller = new AbortController();
        let stopped = false;
        let held;
        const opening = deps.openSource(session, controller.signal).then((source) => {
          if (stopped)
            return source.dispose();
          let playing = false;
          const entry = {
            session,
            source: source.source,
            onMedia: () => {
              if (playing || stopped)
                return;
              playing = true;
              sendBack({ type: "media.fetched" });
            }
          };
          held = { source, entry };
          deps.registry.set(session.sessionId, entry);
          sendBack({ type: "source.opened" });
          return void 0;
        }, (error) => {
          if (!stopped)
            sendBack({ type: "source.failed", error });
        });
        track(opening);
        return hold(session.sessionId, () => {
          stopped = true;
          controller.abort();
          if (held === void 0)
            return;
          deps.registry.delete(session.sessionId, held.entry);
          track(held.source.dispose());
          held = void 0;
        });
      }),
      hlsEngine: fromCallback(({ input, sendBack }) => {
        const { session } = input;
        const engine = deps.hlsEngine;
        if (engine === void 0) {
          sendBack({ type: "engine.failed", error: new HlsUnavailableError("HLS transcoding is not available in this build") });
          return void 0;
        }
        let hlsInput;
        try {
          hlsInput = deps.hlsInput ? deps.hlsInput(session) : { source: hlsSourceOf(session), release: () => {
          } };
        } catch (error) {
          sendBack({ type: "engine.failed", error });
          return void 0;
        }
        let stopped = false;
        let readySent = false;
        let fetched = false;
        let playingSent = false;
        const playing = () => {
          if (playingSent || stopped)
            return;
          playingSent = true;
          sendBack({ type: "media.fetched" });
        };
        let handle;
        try {
          handle = engine.start({ sessionId: session.sessionId, session, source: hlsInput.source }, {
            onReady: (info) => {
              if (stopped)
                return;
              readySent = true;
              sendBack({ type: "engine.ready", cacheHit: info.cacheHit });
              if (fetched)
                playing();
            },
            onMediaFetched: () => {
              fetched = true;
              if (readySent)
                playing();
            },
            onReadinessTimeout: () => {
              if (!stopped)
                sendBack({ type: "engine.readinessTimeout" });
            },
            onFailed: (error) => {
              if (!stopped)
                sendBack({ type: "engine.failed", error });
            }
          });
        } catch (error) {
          hlsInput.release();
          throw error;
        }
        return hold(session.sessionId, () => {
          stopped = true;
          hlsInput.release();
          track(handle.stop());
        });
      }),
      sessionReady: fromPromise(({ input }) => deps.api.sessionReady(input.sessionId))
    },
    actions: {
      // A throw here would crash the session actor: report and carry on instead.
      publish: (_, { report, urgent }) => {
        try {
          deps.ledger.publish(report);
          if (urgent)
            deps.changed(`session ${report.state}`);
        } catch (err) {
          log.error({ err, sessionId: report.sessionId }, "could not publish the session state");
        }
      },
      log: (_, { level, msg, data }) => {
        try {
          log[level](data ?? {}, msg);
        } catch {
        }
      }
    }
  });
  return {
    machine,
    release: (sessionId) => running.get(sessionId)?.(),
    settle: async () => {
      while (pending.size > 0)
        await Promise.all([...pending]);
    }
  };
}
async function startSessionPart(options) {
  const { config } = options;
  const logger = options.logger.child({ component: "sessions" });
  const registry = createSessionRegistry();
  let ffmpegPath2;
  try {
    ffmpegPath2 = resolveFfmpegBinary("ffmpeg", { configuredPath: config.transcode.ffmpegPath });
  } catch (err) {
    logger.warn({ err }, "thumbnails are off: ffmpeg not found");
  }
  const localFile = config.stream.inlineReads ? {} : { inlineReadBytes: 0 };
  const sourceDeps = {
    logger,
    localFile,
    ...options.inProgress ? { inProgress: options.inProgress } : {},
    ...options.ca !== void 0 ? { ca: options.ca } : {},
    ...options.dispatcher ? { dispatcher: options.dispatcher } : {}
  };
  const listening = {};
  const hlsInputs = createHlsInputs({
    localFile,
    ...options.inProgress ? { inProgress: options.inProgress } : {},
    ...options.fileComplete ? { fileComplete: options.fileComplete } : {},
    secret: options.secret,
    // ffmpeg runs on this host: the local URL (0.0.0.0 shown as 127.0.0.1).
    baseUrl: () => listening.server?.url
  });
  const logic = createSessionLogic({
    logger,
    registry,
    ledger: options.ledger,
    api: options.api,
    changed: options.changed,
    openSource: (session, signal) => openDirectSource(session, sourceDeps, signal),
    hlsEngine: options.hlsEngine,
    hlsInput: (session) => hlsInputs.open(session)
  });
  const server = await createStreamServer({
    host: options.streamHost ?? streamServerHost,
    port: config.stream.port,
    logger: options.logger,
    sessions: registry,
    secret: options.secret,
    ...ffmpegPath2 !== void 0 ? { ffmpegPath: ffmpegPath2 } : {},
    allowedRoots: () => [...config.library.paths, config.downloads.dir],
    routes: options.hlsEngine ? { hls: options.hlsEngine.routes, source: hlsInputs.route } : {},
    ...options.metrics ? { metrics: options.metrics } : {}
  });
  listening.server = server;
  return {
    logic: logic.machine,
    release: logic.release,
    sessionInput: { readinessDeadlineMs: timing(config, "readinessDeadlineMs") },
    registry,
    server,
    closers: [
      { name: "streamServer", close: () => server.close() },
      // The session actors have stopped by now; their sources and engines finish stopping here.
      { name: "sessions", close: () => logic.settle() }
    ]
  };
}

// dist/services/metrics/metrics.js
var metricsPrefix = "media_agent_";
var metricsContentType = "text/plain; version=0.0.4; charset=utf-8";
var keyOf = (labels) => JSON.stringify(labels);
var LightCounter = class {
  name;
  help;
  type;
  series = /* @__PURE__ */ new Map();
  constructor(name, help, type = "counter", labelless = true) {
    this.name = name;
    this.help = help;
    this.type = type;
    if (labelless)
      this.series.set(keyOf({}), { labels: {}, value: 0 });
  }
  inc(labels = {}, by = 1) {
    const key = keyOf(labels);
    const entry = this.series.get(key);
    if (entry)
      entry.value += by;
    else
      this.series.set(key, { labels, value: by });
  }
  set(labels, value) {
    this.series.set(keyOf(labels), { labels, value });
  }
  get() {
    return { name: this.name, help: this.help, type: this.type, values: [...this.series.values()], aggregator: "sum" };
  }
};
var LightHistogram = class {
  name;
  help;
  buckets;
  series = /* @__PURE__ */ new Map();
  constructor(name, help, buckets) {
    this.name = name;
    this.help = help;
    this.buckets = buckets;
  }
  observe(labels, value) {
    const key = keyOf(labels);
    let entry = this.series.get(key);
    if (!entry)
      this.series.set(key, entry = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 });
    for (let i = 0; i < this.buckets.length; i++)
      if (value <= this.buckets[i])
        entry.counts[i] += 1;
    entry.sum += value;
    entry.count += 1;
  }
  get() {
    const values = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      this.buckets.forEach((le, i) => values.push({ labels: { ...labels, le: String(le) }, value: counts[i], metricName: `${this.name}_bucket` }));
      values.push({ labels: { ...labels, le: "+Inf" }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: "histogram", values, aggregator: "sum" };
  }
};
var ReadGauge = class {
  name;
  help;
  read;
  constructor(name, help, read2) {
    this.name = name;
    this.help = help;
    this.read = read2;
  }
  get() {
    return { name: this.name, help: this.help, type: "gauge", values: this.read().map((sample) => ({ labels: sample.labels ?? {}, value: sample.value })), aggregator: "sum" };
  }
};
function createMetrics(options = {}) {
  const name = (suffix) => `${metricsPrefix}${suffix}`;
  const instruments = [];
  const add = (instrument) => {
    instruments.push(instrument);
    return instrument;
  };
  const syncCycles = add(new LightCounter(name("sync_cycles_total"), "Sync requests finished, successful or not"));
  const syncFailures = add(new LightCounter(name("sync_failures_total"), "Sync requests that failed (network, 5xx, 401, 404, 426)"));
  const wakeToSync = add(new LightHistogram(name("wake_to_sync_seconds"), "From a downlink wake or SSE sync frame to the end of the sync it caused", metricsLatencyBucketsSeconds));
  const downlinkMode2 = add(new LightCounter(name("downlink_mode"), "The downlink transport in use: 1 for the current mode", "gauge", false));
  const downlinkFallbacks = add(new LightCounter(name("downlink_fallbacks_total"), "Times the downlink fell back from SSE to the wake long-poll"));
  const childRestarts = add(new LightCounter(name("child_restarts_total"), "Failures of a long-lived actor that led to its restart", "counter", false));
  const streamRequests = add(new LightCounter(name("stream_requests_total"), "Requests answered by the stream server", "counter", false));
  const streamBytes = add(new LightCounter(name("stream_bytes_total"), "Bytes the stream server wrote, headers included", "counter", false));
  const streamFirstByte = add(new LightHistogram(name("stream_first_byte_seconds"), "From a stream server request to its response head", metricsLatencyBucketsSeconds));
  const sessionReady = add(new LightHistogram(name("session_ready_seconds"), "From a stream session actor starting to the session being ready", metricsReadyBucketsSeconds));
  const ffmpegRestarts = add(new LightCounter(name("ffmpeg_restarts_total"), "ffmpeg processes restarted after exiting early"));
  const cacheHits = add(new LightCounter(name("cache_hits_total"), "HLS segment cache lookups that found the segment"));
  const cacheMisses = add(new LightCounter(name("cache_misses_total"), "HLS segment cache lookups that did not"));
  const showMode = (mode) => {
    for (const each of ["sse", "poll", "none"])
      downlinkMode2.set({ mode: each }, each === mode ? 1 : 0);
  };
  showMode("none");
  let registry;
  const load = () => registry ??= import("./prom-client-NW72DKBK.js").then((prom) => {
    const created = new prom.Registry();
    if (options.defaultMetrics !== false) {
      prom.collectDefaultMetrics({ register: created, prefix: metricsPrefix, eventLoopMonitoringPrecision: metricsEventLoopResolutionMs });
    }
    for (const instrument of instruments)
      created.registerMetric(instrument);
    return created;
  });
  return {
    syncFinished: (ok) => {
      syncCycles.inc();
      if (!ok)
        syncFailures.inc();
    },
    wakeToSync: (source, seconds) => wakeToSync.observe({ source }, seconds),
    downlinkMode: showMode,
    downlinkFallback: () => downlinkFallbacks.inc(),
    childRestarted: (child2) => childRestarts.inc({ child: child2 }),
    streamRequest: (sample) => {
      streamRequests.inc({ route: sample.route, code: String(sample.status) });
      streamBytes.inc({ route: sample.route }, sample.bytes);
      if (sample.firstByteSeconds !== void 0)
        streamFirstByte.observe({ route: sample.route }, sample.firstByteSeconds);
    },
    sessionReady: (kind, seconds) => sessionReady.observe({ kind }, seconds),
    ffmpegRestarted: () => ffmpegRestarts.inc(),
    cacheLookup: (hit) => (hit ? cacheHits : cacheMisses).inc(),
    gauge: (suffix, help, _labelNames, read2) => {
      const gauge = new ReadGauge(name(suffix), help, read2);
      instruments.push(gauge);
      if (registry)
        void registry.then((created) => created.registerMetric(gauge));
    },
    render: async () => (await load()).metrics(),
    contentType: metricsContentType,
    close: () => {
      void registry?.then((created) => created.clear());
    }
  };
}

// dist/system/metrics-part.js
function createMetricsPart(options) {
  const metrics = createMetrics(options.defaultMetrics === false ? { defaultMetrics: false } : {});
  const now = options.now ?? (() => performance.now());
  let root;
  metrics.gauge("info", "Always 1; the agent version as a label", ["version"], () => [{ labels: { version: agentVersion }, value: 1 }]);
  metrics.gauge("tasks", "Download tasks by state", ["state"], () => [...countBy(options.tasks.reports(), (task) => task.state)].map(([state, value]) => ({ labels: { state }, value })));
  metrics.gauge("task_bytes", "Bytes of all download tasks: downloaded, uploaded, total size", ["kind"], () => {
    const reports = options.tasks.reports();
    const sum = (pick) => reports.reduce((total, task) => total + pick(task), 0);
    return [
      { labels: { kind: "downloaded" }, value: sum((task) => task.downloaded) },
      { labels: { kind: "uploaded" }, value: sum((task) => task.uploaded) },
      { labels: { kind: "size" }, value: sum((task) => task.size) }
    ];
  });
  metrics.gauge("stream_sessions", "Stream sessions by kind (hls, direct) and state", ["kind", "state"], () => {
    const children = Object.entries(root?.getSnapshot().children ?? {});
    const sessions = children.filter(([id, child2]) => id.startsWith("session:") && child2 !== void 0).map(([, child2]) => child2.getSnapshot());
    return [...countBy(sessions, (snapshot) => `${snapshot.context.kind} ${sessionReportOf(snapshot).state}`)].map(([key, value]) => {
      const [kind = "", state = ""] = key.split(" ");
      return { labels: { kind, state }, value };
    });
  });
  const observer = inspectionObserver(metrics, now);
  return {
    metrics,
    adminRoutes: [
      {
        method: "GET",
        path: "/metrics",
        handle: async () => ({ status: 200, text: await metrics.render(), contentType: metrics.contentType })
      }
    ],
    attach(agent) {
      root = agent;
      agent.system.inspect(observer);
    }
  };
}
function countBy(items, key) {
  const counts = /* @__PURE__ */ new Map();
  for (const item of items)
    counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}
function inspectionObserver(metrics, now) {
  let wakeWaiting;
  let wakeInFlight;
  let downlink = "none";
  const sessionsStarted = /* @__PURE__ */ new Map();
  return (event) => {
    const ref = event.actorRef;
    const id = ref.id ?? "";
    switch (event.type) {
      case "@xstate.actor":
        if (id === "sync" && ref._parent?.id === "controlPlane") {
          wakeInFlight = wakeWaiting;
          wakeWaiting = void 0;
        } else if (id.startsWith("session:")) {
          sessionsStarted.set(id, now());
        }
        return;
      case "@xstate.event": {
        if (id !== "controlPlane")
          return;
        const type = event.event.type;
        if (type === "xstate.done.actor.sync" || type === "xstate.error.actor.sync") {
          metrics.syncFinished(type === "xstate.done.actor.sync");
          if (wakeInFlight && type === "xstate.done.actor.sync")
            metrics.wakeToSync(wakeInFlight.source, (now() - wakeInFlight.at) / 1e3);
          wakeInFlight = void 0;
        } else if (type === "downlink.syncRequested") {
          wakeWaiting ??= { source: event.event.source === "sse" ? "sse" : "wake", at: now() };
        }
        return;
      }
      case "@xstate.snapshot": {
        const snapshot = event.snapshot;
        if (id === "downlink") {
          const top = snapshot.status !== "active" ? "none" : typeof snapshot.value === "object" && snapshot.value !== null ? Object.keys(snapshot.value)[0] : snapshot.value;
          const mode = top === "sse" ? "sse" : top === "poll" ? "poll" : "none";
          if (mode === downlink)
            return;
          if (downlink === "sse" && mode === "poll" && snapshot.context?.mode === "auto")
            metrics.downlinkFallback();
          downlink = mode;
          metrics.downlinkMode(mode);
        } else if (id.startsWith("session:")) {
          const started = sessionsStarted.get(id);
          if (started === void 0)
            return;
          const session = snapshot;
          if (snapshot.status !== "active") {
            sessionsStarted.delete(id);
          } else if (session.matches({ hls: "ready" }) || session.matches({ direct: "ready" })) {
            sessionsStarted.delete(id);
            metrics.sessionReady(session.context.kind === "hls" ? "hls" : "direct", (now() - started) / 1e3);
          }
        }
        return;
      }
      case "@xstate.action":
        if (id === "agent" && event.action.type === "logChildFailure") {
          const child2 = event.action.params?.child;
          metrics.childRestarted(typeof child2 === "string" ? child2 : "unknown");
        }
        return;
      default:
    }
  };
}

// dist/system/implementations.js
async function buildSystemParts(deps) {
  const { config, logger } = deps;
  let registeredSecret;
  let upgradeRequested = false;
  let lastUpgradeOffer;
  const notYetAvailable = /* @__PURE__ */ new Set();
  let root;
  const sessionReports = createSessionReportLedger();
  const signingSecret = () => config.server.signingSecret || registeredSecret;
  const post = (deliver) => queueMicrotask(deliver);
  const requestSync = (reason) => post(() => root?.system.get("controlPlane")?.send({ type: "controlPlane.changed", reason }));
  const vpn = createVpnPart({
    config,
    logger,
    agentId: deps.agentId,
    changed: requestSync,
    api: { vpnConfig: (agentId, probe2) => controlPlane.api.vpnConfig(agentId, probe2) },
    ...deps.vpn
  });
  const tasks = createTasksPart({ config, logger, changed: requestSync, ...deps.tasks, engine: { ...deps.tasks?.engine, route: vpn.route } });
  const encoders2 = createEncodersPart({
    config,
    logger,
    // Only the register body carries hwAccel (protocol.md 1): a re-probe that changed it registers again.
    hwAccelChanged: (reason) => post(() => root?.system.get("controlPlane")?.send({ type: "controlPlane.reregister", reason })),
    ...deps.encoders
  });
  const funnel = createFunnelPart({ config, logger, changed: requestSync });
  const addresses = createAddressesPart({ config, logger, changed: requestSync });
  const streamServer = () => addresses.streamServer();
  const metricsPart = createMetricsPart({ tasks });
  const { metrics } = metricsPart;
  const source = {
    collect: () => ({
      tasks: tasks.reports(),
      sessions: sessionReports.collect(),
      FunnelURL: funnel.url(),
      ...vpn.syncFields(),
      streamServer: streamServer()
    })
  };
  let syncCycles = 0;
  const collectSyncState = source.collect.bind(source);
  source.collect = () => {
    syncCycles += 1;
    return collectSyncState();
  };
  const log = logger.child({ component: "controls" });
  const unavailable = (what, detail) => {
    if (notYetAvailable.has(what))
      return;
    notYetAvailable.add(what);
    log.warn(detail, `${what} is not available in this version of media-agent; acknowledged and ignored`);
  };
  const sink = {
    applyAction: (action) => {
      post(() => tasks.apply(action));
    },
    applyControl: (control) => {
      if (control.kind === "pause_task" || control.kind === "resume_task")
        return post(() => tasks.apply(control));
      switch (control.kind) {
        // ---- funnel (issue 14): the server's switch applies live; the file stays the user's ----
        case "set_funnel":
          post(() => funnel.apply(control.enabled));
          return;
        // ---- end funnel ----
        // ---- vpn (issue 13) ----
        case "set_vpn":
          post(() => vpn.setEnabled(control.enabled));
          return;
        // ---- end vpn ----
        case "set_downlink":
          log.info({ mode: control.mode }, "downlink mode set by the server");
          return;
        // ---- sessions (issue 5) ----
        case "stop_session":
          post(() => root?.send({ type: "session.stop", sessionId: control.sessionId }));
          return;
        // ---- end sessions ----
        // ---- library (issue 16): coalesced with a scan under way, so applying it twice is harmless ----
        case "scan_library":
          post(() => library.scan(control.full === true));
          return;
        // ---- end library ----
        default: {
          const kind = control.kind;
          unavailable(kind, { control: kind });
        }
      }
    },
    // ---- sessions (issue 5): only an event; session start never blocks the sync (contract 4.3.7) ----
    streamSessions: (sessions2) => {
      sessionReports.syncSucceeded(sessions2);
      post(() => root?.send({ type: "sessions.update", sessions: sessions2 }));
    },
    // ---- end sessions ----
    upgrade: (requested, offer) => {
      const cycle = syncCycles;
      post(() => root?.system.get("upgrade")?.send({ type: "upgrade.sync", requested, offer, cycle }));
      upgradeRequested = requested;
      lastUpgradeOffer = offer;
    }
  };
  const controlPlane = createControlPlanePart({
    config,
    logger,
    agentId: deps.agentId,
    source,
    sink,
    registerSource: {
      collect: async () => {
        const hwAccel = await encoders2.hwAccel();
        return {
          hostname: hostname(),
          platform: { os: process.platform, arch: process.arch, node: process.versions.node, container: isContainer() },
          ...hwAccel ? { hwAccel } : {}
        };
      }
    },
    onRegistered: (info) => {
      registeredSecret = info.signingSecret;
      post(() => root?.system.get("upgrade")?.send({ type: "upgrade.registered" }));
    }
  });
  const upgrade = await createUpgradePart({ config, logger, api: controlPlane.api, actor: () => root?.system.get("upgrade"), requestSync, syncCycles: () => syncCycles });
  const cache = createCachePart({ config, logger, onLookup: (hit) => metrics.cacheLookup(hit) });
  const probe = createProbeService({ ffprobePath: config.transcode.ffprobePath || void 0, logger: logger.child({ component: "probe" }) });
  const library = createLibraryPart({
    config,
    logger,
    agentId: deps.agentId,
    api: controlPlane.api,
    probe,
    // A scan never costs a starting session its readiness (docs/library.md).
    playbackStarting: () => sessionReports.anyStarting(),
    onPlaybackStart: (listener) => sessionReports.onStarting(listener)
  });
  const hls = deps.sessions?.hlsEngine ? { engine: deps.sessions.hlsEngine, closers: [] } : createHlsPart({ config, logger, encoders: encoders2, store: cache.store, metrics, probe });
  const sessions = await startSessionPart({
    config,
    logger,
    api: controlPlane.api,
    ledger: sessionReports,
    secret: signingSecret,
    changed: requestSync,
    inProgress: tasks.inProgressFile,
    // Issue 6: an HLS input served over loopback while downloading reads the file once complete.
    fileComplete: fileCompleteIn(tasks),
    hlsEngine: hls.engine,
    metrics,
    ...deps.sessions
  });
  return {
    children: [
      { name: "tasks", logic: tasks.logic, input: tasks.input },
      { name: "upgrade", logic: upgrade.logic, input: upgrade.input },
      { name: "encoders", logic: encoders2.logic, input: encoders2.input },
      { name: "addresses", logic: addresses.logic, input: addresses.input },
      { name: "funnel", logic: funnel.logic, input: funnel.input },
      ...cache.enabled ? [{ name: "cache", logic: cache.logic, input: cache.input }] : [],
      { name: "controlPlane", logic: controlPlane.logic, input: controlPlane.input },
      { name: "vpn", logic: vpn.logic, input: vpn.input },
      // issue 13
      // ---- library (issue 16) ----
      { name: "library", logic: library.logic, input: library.input }
    ],
    // ---- sessions and stream server (issue 5): spawnable, sessionInput, attach, closers ----
    spawnable: { session: sessions.logic },
    sessionInput: sessions.sessionInput,
    onSessionCrash: ({ sessionId, error }) => {
      sessions.release(sessionId);
      sessionReports.crashed(sessionId, error);
    },
    attach: (agent) => {
      root = agent;
      tasks.attach(() => agent.system.get("tasks"));
      encoders2.attach(() => agent.system.get("encoders"));
      funnel.attach(() => agent.system.get("funnel"));
      addresses.attach(() => agent.system.get("addresses"));
      cache.attach(() => agent.system.get("cache"));
      vpn.attach(() => agent.system.get("vpn"));
      library.attach(() => agent.system.get("library"));
      metricsPart.attach(agent);
    },
    closers: [...library.closers, ...addresses.closers, ...funnel.closers, ...sessions.closers, ...hls.closers, ...tasks.closers, ...vpn.closers, ...controlPlane.closers],
    // ---- end sessions and stream server ----
    signingSecret,
    adminRoutes: [...upgrade.adminRoutes, ...funnel.adminRoutes, ...cache.adminRoutes, ...vpn.adminRoutes, ...library.adminRoutes, ...metricsPart.adminRoutes, ...encodersAdminRoutes(encoders2), ...tasks.adminRoutes],
    exitRequested: upgrade.exitRequested,
    status: () => ({
      activeTaskCount: tasks.activeCount(),
      tasks: tasks.reports(),
      server: config.server.baseUrl,
      registered: registeredSecret !== void 0,
      upgradeRequested,
      streamServer: sessions.server.url,
      funnel: funnel.status(),
      addresses: { ...addresses.status(), ...streamServer() },
      ...lastUpgradeOffer ? { upgradeOffer: lastUpgradeOffer.targetVersion } : {},
      ...upgrade.status(),
      // ---- library (issue 16): files seen, probed, uploaded ----
      library: library.summary()
    })
  };
}

// dist/system/start-agent.js
async function startAgent(config, logger, options = {}) {
  const stateDir2 = openStateDir(config.daemon.stateDir);
  const agentId = await stateDir2.agentId();
  const startedAt = Date.now();
  const parts = await buildSystemParts({ config, logger, stateDir: stateDir2, agentId, ...options });
  const system = createSystem({ parts, logger });
  const adminToken = await stateDir2.writeAdminToken();
  let admin;
  try {
    admin = await startAdminServer({
      host: config.admin.listen.host,
      port: config.admin.listen.port,
      token: adminToken,
      logger: logger.child({ component: "admin" }),
      source: {
        actorTree: () => system.actorTree(),
        routes: parts.adminRoutes,
        inspection: system.inspection,
        status: () => ({
          version: agentVersion,
          pid: process.pid,
          agentId,
          startedAt: new Date(startedAt).toISOString(),
          uptimeSeconds: Math.round((Date.now() - startedAt) / 1e3),
          ...parts.status()
        })
      }
    });
  } catch (error) {
    await system.shutdown();
    throw error;
  }
  logger.info({ agentId, version: agentVersion, admin: admin.url, stateDir: stateDir2.path }, "media-agent started");
  let stopping;
  return {
    system,
    admin,
    agentId,
    adminTokenPath: stateDir2.adminTokenPath(),
    exitRequested: parts.exitRequested ?? new Promise(() => {
    }),
    stop() {
      stopping ??= system.shutdown().finally(() => admin.close());
      return stopping;
    }
  };
}

// dist/services/upgrade/launcher.js
import { spawn as spawn2 } from "node:child_process";
import { existsSync as existsSync2 } from "node:fs";
import { readlink as readlink2, realpath as realpath3 } from "node:fs/promises";
import { join as join8 } from "node:path";
var delegatedEnvVar = "MEDIA_AGENT_DELEGATED";
async function launchCurrentVersion(options) {
  if (options.env[delegatedEnvVar] === "1")
    return void 0;
  const dir = versionsDir(options.stateDir);
  if (!existsSync2(dir))
    return void 0;
  const log = options.log.child({ component: "launcher" });
  await settlePending(options.stateDir, log);
  const name = await readlink2(join8(dir, upgradeCurrentLinkName)).catch(() => null);
  if (name === null)
    return void 0;
  const root = join8(dir, name);
  const [mine, theirs] = await Promise.all([realpath3(options.ownRoot).catch(() => options.ownRoot), realpath3(root).catch(() => null)]);
  if (theirs === mine)
    return void 0;
  const cli = join8(root, "dist", "cli.js");
  if (theirs === null || !existsSync2(cli)) {
    log.error({ current: root }, "versions/current names a version that is not installed; running this one");
    return void 0;
  }
  log.info({ version: name, cli }, "running the version versions/current names");
  return runDelegate(options, cli, name, log);
}
async function settlePending(stateDir2, log) {
  const dir = versionsDir(stateDir2);
  const state = await readUpgradeState(stateDir2);
  const pending = state.pending;
  if (!pending)
    return;
  const current = await readlink2(join8(dir, upgradeCurrentLinkName)).catch(() => null);
  if (current !== pending.toVersion) {
    await updateUpgradeState(stateDir2, (s) => ({ ...s, pending: null }));
    return;
  }
  if (!pending.launched) {
    await updateUpgradeState(stateDir2, (s) => ({ ...s, pending: s.pending && { ...s.pending, launched: true } }));
    return;
  }
  const reason = `version ${pending.toVersion} did not come up (${pending.exit ?? "it stopped before registering"}); rolled back to ${pending.fromVersion}`;
  log.warn({ from: pending.toVersion, to: pending.fromVersion, previous: pending.previous }, reason);
  await switchCurrent(dir, pending.previous);
  await updateUpgradeState(stateDir2, (s) => ({
    pending: null,
    results: [
      ...s.results.filter((entry) => entry.result.toVersion !== pending.toVersion),
      { result: { outcome: "failure", fromVersion: pending.fromVersion, toVersion: pending.toVersion, error: reason }, posted: false }
    ]
  }));
}
function runDelegate(options, cli, version, log) {
  return new Promise((resolve5) => {
    const memoryFlags = process.execArgv.filter((arg) => arg.startsWith("--max-semi-space-size"));
    const child2 = spawn2(options.nodePath ?? process.execPath, [...memoryFlags, cli, ...options.argv], {
      env: { ...options.env, [delegatedEnvVar]: "1" },
      stdio: "inherit"
    });
    let stopRequested = false;
    const forward = (signal) => () => {
      if (signal !== "SIGHUP")
        stopRequested = true;
      child2.kill(signal);
    };
    const handlers = ["SIGINT", "SIGTERM", "SIGHUP"].map((signal) => [signal, forward(signal)]);
    for (const [signal, handler] of handlers)
      process.on(signal, handler);
    let finished = false;
    const finish = async (code, signal) => {
      if (finished)
        return;
      finished = true;
      for (const [name, handler] of handlers)
        process.off(name, handler);
      let exitCode = code ?? 1;
      try {
        const state = await readUpgradeState(options.stateDir);
        if (state.pending?.toVersion === version && state.pending.launched) {
          const exit = code !== null ? `exited with code ${code}` : `killed by ${signal}`;
          await updateUpgradeState(options.stateDir, (s) => ({ ...s, pending: s.pending && (stopRequested ? { ...s.pending, launched: false } : { ...s.pending, exit }) }));
          if (!stopRequested && exitCode === 0)
            exitCode = 1;
        }
      } catch (error) {
        log.warn({ err: error }, "cannot record how the new version ended");
      }
      resolve5(exitCode);
    };
    child2.once("error", (error) => {
      log.error({ err: error, cli }, "cannot start the version versions/current names");
      void finish(1, null);
    });
    child2.once("exit", (code, signal) => void finish(code, signal));
  });
}

// dist/main.js
async function runDaemon(options) {
  const logger = createRootLogger({ level: options.level });
  const restoreConsole = routeConsoleToLogger(logger);
  const stopFatal = logFatalErrors(logger);
  try {
    return await runWithLogger(options, logger);
  } finally {
    stopFatal();
    restoreConsole();
  }
}
async function runWithLogger(options, logger) {
  let config = options.config;
  if (!config) {
    const loaded = await loadConfigForCli(options.configPath, options.stderr);
    if (typeof loaded === "number")
      return loaded;
    for (const warning of loaded.warnings)
      logger.warn({ file: loaded.path }, warning);
    logger.info({ file: loaded.source === "file" ? loaded.path : "(embedded default)" }, "config loaded");
    config = loaded.config;
    try {
      const delegated = await launchCurrentVersion({ stateDir: config.daemon.stateDir, argv: options.argv ?? process.argv.slice(2), env: process.env, ownRoot: packageRoot, log: logger });
      if (delegated !== void 0) {
        logger.flush();
        return delegated;
      }
    } catch (error) {
      logger.error({ err: error }, "cannot settle a pending upgrade; running this version");
    }
  }
  const signal = waitForSignal();
  let agent;
  try {
    agent = await startAgent(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, "media-agent could not start");
    signal.dispose();
    return 1;
  }
  await options.onStarted?.(agent, logger);
  const received = await Promise.race([signal.promise, agent.exitRequested]);
  if (typeof received === "number")
    logger.info({ exitCode: received }, "stopping to restart into the new version");
  else
    logger.info({ signal: received }, "signal received; stopping");
  const { clean } = await agent.stop();
  logger.info({ clean }, "media-agent stopped");
  logger.flush();
  return typeof received === "number" ? received : 0;
}
function waitForSignal() {
  let resolve5;
  const promise = new Promise((r) => {
    resolve5 = r;
  });
  const handlers = ["SIGINT", "SIGTERM"].map((signal) => {
    const handler = () => resolve5(signal);
    process.once(signal, handler);
    return [signal, handler];
  });
  return {
    promise,
    dispose: () => {
      for (const [signal, handler] of handlers)
        process.off(signal, handler);
    }
  };
}

// dist/cli/commands/daemon.js
var DaemonCommand = class extends AgentCommand {
  static paths = [["daemon"]];
  static usage = import_clipanion2.Command.Usage({
    description: "Run the agent in the foreground until SIGINT or SIGTERM.",
    details: "Loads the config, registers with the web server and keeps in step with it. Stops every part in order and exits 0 on SIGINT/SIGTERM.",
    examples: [["Run with the default config", "$0 daemon"], ["Run with another config", "$0 daemon --config ./config.toml --log-level debug"]]
  });
  async execute() {
    return runDaemon({ configPath: this.configPath, level: this.level(), stdout: this.context.stdout, stderr: this.context.stderr });
  }
};

// dist/cli/commands/status.js
var import_clipanion3 = __toESM(require_advanced(), 1);
import { readFile as readFile8 } from "node:fs/promises";
import { join as join10 } from "node:path";

// dist/cli/admin-client.js
import { join as join9 } from "node:path";
import { readFile as readFile7, stat as stat6 } from "node:fs/promises";
import { userInfo as userInfo2 } from "node:os";
function adminClient(config) {
  const { host, port } = config.admin.listen;
  const base = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const tokenFile = join9(config.daemon.stateDir, adminTokenFileName);
  async function call(path, method, body, timeoutMs = adminRequestTimeoutMs) {
    let token;
    try {
      token = (await readFile7(tokenFile, "utf8")).trim();
    } catch (error) {
      const code = error.code;
      if (code === "EACCES" || code === "EPERM")
        throw await tokenAccessError(tokenFile, error);
      throw new DaemonNotRunningError(`the daemon is not running (no admin token at ${tokenFile})`);
    }
    let response;
    try {
      const { request } = await import("./undici-3XR6EART.js");
      response = await request(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...body === void 0 ? {} : { "content-type": "application/json" } },
        ...body === void 0 ? {} : { body: JSON.stringify(body) },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs
      });
    } catch (error) {
      throw new DaemonNotRunningError(`the daemon is not running (nothing answers at ${base})`, { cause: error });
    }
    if (response.statusCode === 401) {
      await response.body.dump();
      throw new AdminAuthError(`the daemon at ${base} refused the admin token in ${tokenFile}; is another agent using this port?`);
    }
    if (response.statusCode !== 200) {
      const text = await response.body.text();
      throw new DaemonNotRunningError(`the daemon at ${base} answered ${response.statusCode}: ${text.slice(0, 200)}`);
    }
    return response;
  }
  return {
    get: async (path) => await (await call(path, "GET")).body.json(),
    post: async (path, body, options) => await (await call(path, "POST", body ?? {}, options?.timeoutMs)).body.json(),
    getText: async (path) => (await call(path, "GET")).body.text()
  };
}
async function tokenAccessError(tokenFile, cause) {
  const me = `${safeUserName()} (uid ${process.getuid?.() ?? "?"})`;
  const owner = await stat6(tokenFile).then((info) => `uid ${info.uid}, gid ${info.gid}, mode ${(info.mode & 511).toString(8).padStart(4, "0")}`, () => "owner unknown");
  return new AdminTokenAccessError(`permission denied reading the admin token ${tokenFile} (${owner}) as ${me}: the daemon runs as another user. Run this command as that user (e.g. \`sudo -u media-agent media-agent status\`), or pass --config with the config of a daemon you own.`, { cause, details: { file: tokenFile } });
}
function safeUserName() {
  try {
    return userInfo2().username;
  } catch {
    return "this user";
  }
}

// dist/services/torrent/format.js
var barWidth = 20;
function formatTaskLines(tasks) {
  if (tasks.length === 0)
    return ["no download tasks"];
  const lines = [];
  for (const task of tasks) {
    const progress = clamp01(task.progress);
    const filled = Math.round(progress * barWidth);
    const bar = `[${"#".repeat(filled)}${"-".repeat(barWidth - filled)}]`;
    const pct = `${(progress * 100).toFixed(1)}%`.padStart(6);
    const name = task.name || task.infoHash || task.id;
    const parts = [`${bar} ${pct}`, task.state.padEnd(17), name];
    if (task.state === "downloading" || task.state === "seeding" || task.state === "fetching_metadata") {
      parts.push(`down ${formatRate(task.downloadSpeed)}`, `up ${formatRate(task.uploadSpeed)}`, `${task.peers} ${task.peers === 1 ? "peer" : "peers"}`);
      if (task.state === "downloading" && task.etaSeconds !== null)
        parts.push(`eta ${formatDuration(task.etaSeconds)}`);
    }
    if (task.size > 0)
      parts.push(`${formatBytes(task.downloaded)} / ${formatBytes(task.size)}`);
    lines.push(`${task.id}  ${parts.join("  ")}`);
    if (task.state === "error" && task.error)
      lines.push(`    error: ${task.error}`);
  }
  return lines;
}
function formatBytes(bytes) {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = Math.max(0, bytes || 0);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}
function formatRate(bytesPerSecond) {
  return `${formatBytes(Math.round(bytesPerSecond))}/s`;
}
function formatDuration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60)
    return `${s}s`;
  if (s < 3600)
    return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  const h = Math.floor(s / 3600);
  if (h < 48)
    return `${h}h${String(Math.floor(s % 3600 / 60)).padStart(2, "0")}m`;
  return `${Math.floor(h / 24)}d`;
}
function clamp01(value) {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

// dist/cli/commands/status.js
var activeStates2 = /* @__PURE__ */ new Set(["queued", "fetching_metadata", "downloading", "seeding"]);
var StatusCommand = class extends AgentCommand {
  static paths = [["status"]];
  static usage = import_clipanion3.Command.Usage({
    description: "Show the active task count, then each download task and the state of the daemon.",
    details: "Asks the running daemon through its admin listener. With no daemon running it says so (exit code 3) and reads tasks.json from the state dir when there is one.",
    examples: [["Human-readable", "$0 status"], ["For scripts", "$0 status --json"]]
  });
  json = import_clipanion3.Option.Boolean("--json", false, { description: "Print one JSON object" });
  async execute() {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr);
    if (typeof loaded === "number")
      return loaded;
    const { config } = loaded;
    const out = (line) => this.context.stdout.write(`${line}
`);
    try {
      const status = await adminClient(config).get("/api/status");
      if (this.json) {
        out(JSON.stringify({ running: true, ...status }));
        return 0;
      }
      out(`active tasks: ${status.activeTaskCount}`);
      for (const line of formatTaskLines(status.tasks ?? []))
        out(line);
      if (status.library)
        out(`library: ${status.library.state}, ${status.library.items} media items (${status.library.files} files seen, ${status.library.probed} probed, ${status.library.uploadedItems} uploaded)`);
      out(`daemon: running (version ${status.version}, up ${status.uptimeSeconds} s, agent ${status.agentId})`);
      return 0;
    } catch (error) {
      if (!isAgentError(error) || error.code !== "MA_ERR_DAEMON_NOT_RUNNING")
        throw error;
      const tasks = await readTasksFile(join10(config.daemon.stateDir, tasksFileName));
      const active = tasks?.filter((task) => activeStates2.has(task.state)).length ?? 0;
      if (this.json) {
        out(JSON.stringify({ running: false, activeTaskCount: active, tasks: tasks ?? [] }));
        return 3;
      }
      out(`active tasks: ${active}`);
      if (tasks)
        for (const line of formatTaskLines(tasks))
          out(line);
      const why = /^the daemon is not running \((.*)\)$/s.exec(error.message)?.[1] ?? error.message;
      out(`daemon: not running (${why})${tasks ? "; tasks read from tasks.json" : ""}`);
      return 3;
    }
  }
};
async function readTasksFile(path) {
  let text;
  try {
    text = await readFile8(path, "utf8");
  } catch {
    return void 0;
  }
  try {
    return parseTasksFile(text).map((record) => ({
      id: record.id,
      infoHash: record.infoHash,
      name: record.name,
      state: record.state,
      progress: record.progress,
      size: record.size,
      downloaded: record.downloaded,
      uploaded: record.uploaded,
      downloadSpeed: 0,
      uploadSpeed: 0,
      peers: 0,
      etaSeconds: null,
      files: record.files,
      ...record.error ? { error: record.error } : {}
    }));
  } catch {
    return void 0;
  }
}

// dist/cli/commands/start.js
var import_clipanion4 = __toESM(require_advanced(), 1);
import { existsSync as existsSync3 } from "node:fs";
import { homedir } from "node:os";
import { randomBytes as randomBytes5 } from "node:crypto";
var StartCommand = class extends AgentCommand {
  static paths = [["start"]];
  static usage = import_clipanion4.Command.Usage({
    description: "Run the agent: with your config, or the embedded default when you have none.",
    details: `With a config file (--config, or the default path) this is \`media-agent daemon\`. With none, it runs the in-memory reference web server on 127.0.0.1:${embeddedReferenceServerPort} and the daemon against it on loopback, and prints what to open or curl. This is what \`npm start\` runs.`,
    examples: [["Run (what npm start does)", "$0 start"]]
  });
  async execute() {
    const io = { level: this.level(), stdout: this.context.stdout, stderr: this.context.stderr };
    const userConfig = this.configPath ?? defaultConfigPath(process.env, homedir());
    if (this.configPath !== void 0 || existsSync3(userConfig))
      return runDaemon({ ...io, configPath: userConfig });
    const accessToken = randomBytes5(24).toString("base64url");
    const serverLogger = createRootLogger({ level: io.level }).child({ component: "reference-server" });
    let server;
    try {
      const { createReferenceServer } = await import("./reference-server-SDD467PK.js");
      server = await createReferenceServer({ accessToken, host: "127.0.0.1", port: embeddedReferenceServerPort, logger: serverLogger });
    } catch (error) {
      this.context.stderr.write(`media-agent: cannot start the embedded reference server on 127.0.0.1:${embeddedReferenceServerPort}: ${error.message}
`);
      return 1;
    }
    const config = embeddedDefaultConfig(process.env, homedir());
    config.server.baseUrl = server.url;
    config.server.accessToken = accessToken;
    config.stream.upnp = false;
    try {
      return await runDaemon({ ...io, config, onStarted: (agent) => this.printWelcome(server, agent, accessToken) });
    } finally {
      await server.close();
    }
  }
  printWelcome(server, agent, accessToken) {
    const lines = [
      "",
      `  watch a video       ${playerPageUrl(server.url, accessToken)}`,
      "",
      "media-agent is running with the embedded default: no config file was found, so a local",
      `reference web server runs at ${server.url} and the agent is registered with it. The page`,
      "above (the player page) starts a session from a file path or a link, queues magnets and plays.",
      "",
      `  access token        ${accessToken}`,
      `  live actor tree     curl -H "Authorization: Bearer $(cat ${agent.adminTokenPath})" ${agent.admin.url}/debug/actors`,
      `  agent status        media-agent status   (or: node dist/cli.js status)`,
      `  server state        curl -H "Authorization: Bearer ${accessToken}" ${server.url}/api/reference/state`,
      `  queue a download    curl -H "Authorization: Bearer ${accessToken}" -H 'content-type: application/json' -d '{"source":"magnet:?xt=urn:btih:<hash>"}' ${server.url}/api/reference/tasks`,
      "",
      `To use your own web server, write ${defaultConfigPath(process.env, homedir())} (see docs/configuration.md).`,
      "Stop with Ctrl-C.",
      ""
    ];
    this.context.stdout.write(lines.join("\n"));
  }
};

// dist/cli/commands/reference-server.js
var import_clipanion5 = __toESM(require_advanced(), 1);
import { randomBytes as randomBytes6 } from "node:crypto";
var ReferenceServerCommand = class extends import_clipanion5.Command {
  static paths = [["reference-server"]];
  static usage = import_clipanion5.Command.Usage({
    description: "Run the in-memory reference web server that an agent can register and sync with.",
    details: "Everything lives in memory and is gone when it stops. It prints its base URL, the access token to put in the agent config, and curl lines to queue a task or a stream session. See docs/reference-server.md.",
    examples: [["On the default port with a random token", "$0 reference-server"], ["Fixed token and port", "$0 reference-server --port 8780 --access-token secret"]]
  });
  port = import_clipanion5.Option.String("--port", String(referenceServerCliPort), { description: `TCP port (default ${referenceServerCliPort}; 0 picks a free one)` });
  host = import_clipanion5.Option.String("--host", referenceServerHost, { description: `Listen address (default ${referenceServerHost})` });
  accessToken = import_clipanion5.Option.String("--access-token", { description: "Agent access token (default: random, printed)" });
  signingSecret = import_clipanion5.Option.String("--signing-secret", { description: "Signing secret handed out by register (default: random)" });
  minAgentVersion = import_clipanion5.Option.String("--min-agent-version", { description: "Agents below this get 426 (default 0.9.4)" });
  logLevel = import_clipanion5.Option.String("--log-level", { description: `One of ${logLevels.join(", ")} (default: info)` });
  async execute() {
    const port = Number(this.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      this.context.stderr.write(`media-agent: --port must be an integer 0-65535, not "${this.port}"
`);
      return 2;
    }
    const level = this.logLevel ?? "info";
    if (!logLevels.includes(level)) {
      this.context.stderr.write(`media-agent: --log-level must be one of ${logLevels.join(", ")}
`);
      return 2;
    }
    const accessToken = this.accessToken ?? randomBytes6(24).toString("base64url");
    const options = { accessToken, host: this.host, port, logger: createRootLogger({ level }) };
    if (this.signingSecret !== void 0)
      options.signingSecret = this.signingSecret;
    if (this.minAgentVersion !== void 0)
      options.minAgentVersion = this.minAgentVersion;
    const stopped = new Promise((resolve5) => {
      const stop = () => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        resolve5();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    const server = await (await import("./server-BJSP6AH6.js")).createReferenceServer(options);
    const out = this.context.stdout;
    const auth = `-H 'Authorization: Bearer ${accessToken}'`;
    const json2 = `-H 'Content-Type: application/json'`;
    out.write([
      `reference server listening on ${server.url}`,
      `player page:    ${playerPageUrl(server.url, accessToken)}`,
      `access token:   ${accessToken}`,
      `signing secret: ${server.signingSecret}`,
      "",
      "agent config.toml:",
      "  [server]",
      `  base_url = "${server.url}"`,
      `  access_token = "${accessToken}"`,
      "",
      "queue a download task:",
      `  curl -s ${auth} ${json2} -d '{"source":"magnet:?xt=urn:btih:<infohash>"}' ${server.url}/api/reference/tasks`,
      "create an HLS stream session (the reply has the player URLs):",
      `  curl -s ${auth} ${json2} -d '{"filePath":"/abs/path/movie.mkv","PlayMethod":"hls","quality":"720p"}' ${server.url}/api/reference/sessions`,
      "see what the agent reported:",
      `  curl -s ${auth} ${server.url}/api/reference/state`,
      `agent routes live under ${server.url}${apiPaths.sync.replace(/\/sync$/, "")}/; Ctrl-C stops the server.`,
      ""
    ].join("\n"));
    await stopped;
    await server.close();
    out.write("reference server stopped\n");
    return 0;
  }
};

// dist/cli/commands/statecharts.js
var import_clipanion6 = __toESM(require_advanced(), 1);
import { existsSync as existsSync4 } from "node:fs";
import { mkdir as mkdir3, readdir as readdir4, readFile as readFile9, rm as rm2, writeFile as writeFile2 } from "node:fs/promises";
import { dirname, join as join11, relative as relative2, resolve as resolve3 } from "node:path";
import { fileURLToPath } from "node:url";

// dist/system/statecharts.js
function listTransitions(machine) {
  return listStateNodes(machine).flatMap(ownTransitions);
}
function listStateNodes(machine) {
  return allStateNodes(machine.root);
}
function transitionLabel(row) {
  let head;
  if (row.kind === "always")
    head = "always";
  else if (row.kind === "after")
    head = `after ${typeof row.delay === "number" ? `${row.delay}ms` : String(row.delay)}`;
  else
    head = row.event;
  return row.guard ? `${head} [${row.guard}]` : head;
}
function toMermaid(machine) {
  const ids = assignIds(machine.root);
  const out = ["stateDiagram-v2"];
  const rows = listTransitions(machine);
  const internal = /* @__PURE__ */ new Map();
  for (const row of rows) {
    if (row.targets.length > 0)
      continue;
    const list = internal.get(row.source) ?? [];
    list.push(row);
    internal.set(row.source, list);
  }
  const root = machine.root;
  const wrapRoot = root.type !== "compound" || rows.some((row) => row.source === root || row.targets.includes(root)) || extrasOf(root, []).length > 0;
  const write = (depth, line) => out.push(`${"  ".repeat(depth)}${line}`);
  const emitBody = (node, depth) => {
    const children = Object.values(node.states);
    if (node.type === "parallel") {
      children.forEach((child2, i) => {
        if (i > 0)
          write(depth, "--");
        emitState(child2, depth);
      });
      return;
    }
    for (const child2 of children)
      emitState(child2, depth);
    for (const target of node.initial?.target ?? [])
      write(depth, `[*] --> ${ids.get(target)}`);
    for (const child2 of children)
      if (child2.type === "final")
        write(depth, `${ids.get(child2)} --> [*]`);
  };
  const emitState = (node, depth) => {
    const id = ids.get(node);
    const label = escapeText(stateLabel(node));
    const extras = extrasOf(node, internal.get(node) ?? []);
    if (node.type === "compound" || node.type === "parallel") {
      write(depth, `state "${label}" as ${id} {`);
      emitBody(node, depth + 1);
      write(depth, "}");
      if (extras.length > 0) {
        write(depth, `note right of ${id}`);
        for (const extra of extras)
          write(depth + 1, escapeText(extra));
        write(depth, "end note");
      }
    } else {
      write(depth, `state "${label}" as ${id}`);
      for (const extra of extras)
        write(depth, `${id} : ${escapeText(extra)}`);
    }
  };
  if (wrapRoot) {
    emitState(root, 1);
    write(1, `[*] --> ${ids.get(root)}`);
    if (root.type === "final")
      write(1, `${ids.get(root)} --> [*]`);
  } else {
    emitBody(root, 1);
  }
  for (const row of rows) {
    for (const target of row.targets)
      write(1, `${ids.get(row.source)} --> ${ids.get(target)} : ${escapeText(transitionLabel(row))}`);
  }
  return `${out.join("\n")}
`;
}
var generatedMarker = "<!-- Generated by `media-agent statecharts` from src/machines/index.ts. Do not edit by hand. -->";
function renderStatecharts(machines) {
  const names = Object.keys(machines).sort(compareCodeUnits);
  const files = /* @__PURE__ */ new Map();
  const index = [
    generatedMarker,
    "",
    "# Statecharts",
    "",
    "One diagram per machine, generated from the definitions registered in `src/machines/index.ts`.",
    "Regenerate with `media-agent statecharts` (`npm run statecharts`); `npm test` runs",
    "`media-agent statecharts --check`, which fails while these files are stale. See `docs/statecharts.md`.",
    "",
    "| machine | description |",
    "| --- | --- |"
  ];
  const perMachine = /* @__PURE__ */ new Map();
  for (const name of names) {
    const fileName = machineFileName(name);
    if (fileName === "README.md" || perMachine.has(fileName))
      throw new Error(`statecharts: machine name "${name}" gives a clashing file name ${fileName}`);
    perMachine.set(fileName, name);
    const machine = machines[name];
    index.push(`| [${escapeCell(name)}](${fileName}) | ${escapeCell(describeMachine(machine))} |`);
  }
  files.set("README.md", `${index.join("\n")}
`);
  for (const [fileName, name] of perMachine)
    files.set(fileName, renderMachineFile(name, machines[name]));
  return files;
}
function machineFileName(name) {
  return `${name.replace(/[^A-Za-z0-9._-]/g, "-")}.md`;
}
function describeMachine(machine) {
  const description = machine.config.description;
  const text = typeof description === "string" && description.trim() ? description : machine.id;
  return text.replace(/\s+/g, " ").trim();
}
function renderMachineFile(name, machine) {
  const lines = [
    generatedMarker,
    "",
    `# ${name}`,
    "",
    typeof machine.config.description === "string" ? describeMachine(machine) : `Machine id \`${machine.id}\`.`,
    "",
    "```mermaid",
    toMermaid(machine).trimEnd(),
    "```",
    "",
    "## Transitions",
    "",
    "| from | event | guard | to |",
    "| --- | --- | --- | --- |"
  ];
  for (const row of listTransitions(machine)) {
    const event = row.kind === "always" ? "(always)" : row.kind === "after" ? `${row.event} (after ${typeof row.delay === "number" ? `${row.delay}ms` : String(row.delay)})` : row.event;
    const to = row.targets.length ? row.targets.map((target) => `\`${target.id}\``).join(", ") : "(internal)";
    lines.push(`| \`${row.source.id}\` | \`${escapeCell(event)}\` | ${row.guard ? `\`${escapeCell(row.guard)}\`` : ""} | ${to} |`);
  }
  return `${lines.join("\n")}
`;
}
function ownTransitions(node) {
  const rows = [];
  const delays = /* @__PURE__ */ new Map();
  for (const delayed of node.after)
    delays.set(delayed, typeof delayed.delay === "function" ? "inline delay" : delayed.delay);
  const invokeIds = new Set(node.invoke.map((invoke) => invoke.id));
  for (const [descriptor, candidates] of node.transitions) {
    candidates.forEach((definition, index) => {
      const row = { source: node, event: descriptor, kind: "event", targets: [...definition.target ?? []], index, definition };
      const guard = guardName(definition.guard);
      if (guard !== void 0)
        row.guard = guard;
      if (delays.has(definition)) {
        row.kind = "after";
        row.delay = delays.get(definition);
      } else {
        const invoked = /^xstate\.(done|error)\.actor\.(.+)$/.exec(descriptor);
        if (invoked && invokeIds.has(invoked[2])) {
          row.kind = invoked[1] === "done" ? "done" : "error";
          row.invokeId = invoked[2];
        }
      }
      rows.push(row);
    });
  }
  node.always?.forEach((definition, index) => {
    const row = { source: node, event: "", kind: "always", targets: [...definition.target ?? []], index, definition };
    const guard = guardName(definition.guard);
    if (guard !== void 0)
      row.guard = guard;
    rows.push(row);
  });
  return rows;
}
function guardName(guard) {
  if (guard === void 0 || guard === null)
    return void 0;
  if (typeof guard === "string")
    return guard;
  if (typeof guard === "function") {
    const combinator = guard;
    if (Array.isArray(combinator.guards)) {
      const inner = combinator.guards.map((g) => guardName(g) ?? "?");
      return combinator.name === "not" ? `!${inner[0]}` : inner.join(combinator.name === "or" ? " || " : " && ");
    }
    if (combinator.stateValue !== void 0)
      return `in ${typeof combinator.stateValue === "string" ? combinator.stateValue : JSON.stringify(combinator.stateValue)}`;
    return "inline guard";
  }
  if (typeof guard === "object" && typeof guard.type === "string")
    return guard.type;
  return "guard";
}
function actionNames(actions) {
  const names = [];
  for (const action of actions) {
    const name = typeof action === "string" ? action : typeof action === "object" && action !== null ? action.type : void 0;
    if (typeof name === "string" && !name.startsWith("xstate."))
      names.push(name);
  }
  return names;
}
function extrasOf(node, internal) {
  const extras = [];
  const entry = actionNames(node.entry);
  if (entry.length)
    extras.push(`entry / ${entry.join(", ")}`);
  const exit = actionNames(node.exit);
  if (exit.length)
    extras.push(`exit / ${exit.join(", ")}`);
  for (const invoke of node.invoke) {
    const src = typeof invoke.src === "string" && !invoke.src.startsWith("xstate.") ? invoke.src : void 0;
    extras.push(src && src !== invoke.id ? `invoke ${invoke.id} (${src})` : `invoke ${invoke.id}`);
  }
  for (const row of internal)
    extras.push(`${transitionLabel(row)} (internal)`);
  return extras;
}
function stateLabel(node) {
  if (node.type === "history")
    return `${node.key} (${node.history === "deep" ? "H*" : "H"})`;
  return node.key;
}
function allStateNodes(root) {
  const nodes = [root];
  for (const child2 of Object.values(root.states))
    nodes.push(...allStateNodes(child2));
  return nodes;
}
var reservedIds = /* @__PURE__ */ new Set(["default", "click", "href", "state", "note", "class", "classdef", "style", "scale", "direction", "end", "hide", "acctitle", "accdescr", "statediagram", "as", "left", "right", "of"]);
function assignIds(root) {
  const ids = /* @__PURE__ */ new Map();
  const used = /* @__PURE__ */ new Set();
  const visit = (node, path) => {
    let base = (path.length ? path : [node.key]).map((segment) => segment.replace(/[^A-Za-z0-9]/g, "_") || "_").join("__");
    if (/^[0-9]/.test(base) || reservedIds.has(base.toLowerCase()))
      base = `s_${base}`;
    let id = base;
    for (let n = 2; used.has(id); n++)
      id = `${base}_${n}`;
    used.add(id);
    ids.set(node, id);
    for (const child2 of Object.values(node.states))
      visit(child2, [...path, child2.key]);
  };
  visit(root, []);
  return ids;
}
var entityCodes = { "#": "#35;", ";": "#59;", ":": "#58;", '"': "#quot;", "<": "#lt;", ">": "#gt;", "%": "#37;" };
function escapeText(text) {
  return text.replace(/\s+/g, " ").replace(/[#;:"<>%]/g, (ch) => entityCodes[ch]).replace(/^end note\b/i, "end#32;note");
}
function escapeCell(text) {
  return text.replace(/\s+/g, " ").replace(/\|/g, "\\|");
}
function compareCodeUnits(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// dist/cli/commands/statecharts.js
var StatechartsCommand = class extends import_clipanion6.Command {
  static paths = [["statecharts"]];
  static usage = import_clipanion6.Command.Usage({
    category: "Development",
    description: "Generate the Mermaid statecharts of every machine, or check that they are up to date.",
    details: "Writes one Markdown file per machine registered in src/machines/index.ts plus an index README.md, and removes generated files of machines that no longer exist. With --check nothing is written: the command lists the stale, missing and extra files and exits 1, or exits 0 when the directory matches.",
    examples: [["Regenerate", "$0 statecharts"], ["In CI", "$0 statecharts --check"]]
  });
  out = import_clipanion6.Option.String("--out", { description: "Directory of the diagrams (default: statecharts/ in the package root)" });
  check = import_clipanion6.Option.Boolean("--check", false, { description: "Write nothing; exit 1 when the directory is stale" });
  async execute() {
    const { machines } = await import("./machines-E5RX57RF.js");
    const outDir = this.out ? resolve3(this.out) : join11(packageRoot2(), "statecharts");
    const files = renderStatecharts(machines);
    const shown = relative2(process.cwd(), outDir) || ".";
    if (this.check) {
      const drift = await compareStatecharts(outDir, files);
      if (drift.stale.length + drift.missing.length + drift.extra.length === 0) {
        this.context.stdout.write(`statecharts: ${shown} is up to date (${files.size} files)
`);
        return 0;
      }
      for (const name of drift.stale)
        this.context.stderr.write(`stale:   ${join11(shown, name)}
`);
      for (const name of drift.missing)
        this.context.stderr.write(`missing: ${join11(shown, name)}
`);
      for (const name of drift.extra)
        this.context.stderr.write(`extra:   ${join11(shown, name)}
`);
      this.context.stderr.write("statecharts are out of date: run `media-agent statecharts` (npm run statecharts) and commit the result\n");
      return 1;
    }
    const result = await writeStatecharts(outDir, files);
    this.context.stdout.write(`statecharts: ${shown}: ${result.written.length} written, ${result.unchanged.length} unchanged, ${result.removed.length} removed
`);
    return 0;
  }
};
async function compareStatecharts(outDir, files) {
  const drift = { stale: [], missing: [], extra: [] };
  for (const [name, content] of [...files].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) {
    const current = await readIfExists(join11(outDir, name));
    if (current === void 0)
      drift.missing.push(name);
    else if (current !== content)
      drift.stale.push(name);
  }
  drift.extra = (await ownedFiles(outDir)).filter((name) => !files.has(name));
  return drift;
}
async function writeStatecharts(outDir, files) {
  await mkdir3(outDir, { recursive: true });
  const drift = await compareStatecharts(outDir, files);
  const result = { written: [...drift.stale, ...drift.missing].sort(), unchanged: [], removed: drift.extra };
  for (const name of result.written)
    await writeFile2(join11(outDir, name), files.get(name), "utf8");
  for (const name of drift.extra)
    await rm2(join11(outDir, name), { force: true });
  result.unchanged = [...files.keys()].filter((name) => !result.written.includes(name)).sort();
  return result;
}
async function ownedFiles(outDir) {
  let names;
  try {
    names = await readdir4(outDir);
  } catch (error) {
    if (error.code === "ENOENT")
      return [];
    throw error;
  }
  const owned = [];
  for (const name of names.filter((n) => n.endsWith(".md")).sort()) {
    const content = await readIfExists(join11(outDir, name));
    if (content?.startsWith(generatedMarker))
      owned.push(name);
  }
  return owned;
}
async function readIfExists(path) {
  try {
    return await readFile9(path, "utf8");
  } catch (error) {
    const code = error.code;
    if (code === "ENOENT" || code === "EISDIR")
      return void 0;
    throw error;
  }
}
function packageRoot2(from = fileURLToPath(import.meta.url)) {
  let dir = dirname(from);
  for (; ; ) {
    if (existsSync4(join11(dir, "package.json")))
      return dir;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`statecharts: no package.json above ${from}`);
    dir = parent;
  }
}

// dist/cli/commands/update.js
var import_clipanion7 = __toESM(require_advanced(), 1);
var UpdateCommand = class extends AgentCommand {
  static paths = [["update"]];
  static usage = import_clipanion7.Command.Usage({
    description: "Sync with the server now and apply the upgrade it offers.",
    details: "Asks the running daemon (admin API) to sync at once. An offered version is downloaded, checked against its sha256, installed side by side under <state_dir>/versions and started by the supervisor (the daemon exits 75). Exit 0 when one was applied or none is offered, 1 on failure, 3 when no daemon runs. See docs/upgrade.md.",
    examples: [["Upgrade now", "$0 update"], ["For scripts", "$0 update --json"]]
  });
  json = import_clipanion7.Option.Boolean("--json", false, { description: "Print one JSON object" });
  async execute() {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr);
    if (typeof loaded === "number")
      return loaded;
    const out = (line) => this.context.stdout.write(`${line}
`);
    let reply;
    try {
      reply = await adminClient(loaded.config).post("/api/upgrade", {}, { timeoutMs: upgradeCommandTimeoutMs + 3e4 });
    } catch (error) {
      if (!isAgentError(error) || error.code !== "MA_ERR_DAEMON_NOT_RUNNING")
        throw error;
      this.context.stderr.write(`media-agent: ${error.message}
`);
      return 3;
    }
    if (this.json)
      out(JSON.stringify(reply));
    else
      out(describeReply(reply));
    return reply.outcome === "failure" ? 1 : 0;
  }
};
function describeReply(reply) {
  switch (reply.outcome) {
    case "applied":
      return `upgrade applied: ${reply.currentVersion ?? "this version"} -> ${reply.targetVersion}; the daemon exits 75 and its supervisor starts the new version`;
    case "success":
      return `version ${reply.targetVersion} was just installed and is running`;
    case "noop":
      return `no upgrade needed: ${reply.targetVersion} is the running version`;
    case "none":
      return `no upgrade offered (running ${reply.currentVersion ?? "this version"})`;
    case "failure":
      return `upgrade failed${reply.targetVersion ? ` (${reply.targetVersion})` : ""}: ${reply.error ?? "unknown error"}`;
  }
}

// dist/cli/commands/probe-hwaccel.js
var import_clipanion8 = __toESM(require_advanced(), 1);
var ProbeHwaccelCommand = class extends AgentCommand {
  static paths = [["probe-hwaccel"]];
  static usage = import_clipanion8.Command.Usage({
    description: "Detect the hardware encoders and print the diagnostic the agent reports to the server.",
    details: "Finds ffmpeg as the daemon does (`[transcode] ffmpeg_path`, FFMPEG_PATH, PATH), lists its H.264 encoders, the GPU device files and drivers, and test-encodes one frame with each hardware encoder using the options a session uses. `--json` prints exactly the `hwAccel` object of the register request. Bounded by 10 s. Exit code 0 whenever the diagnostic was produced, also when only libx264 works.",
    examples: [["For people", "$0 probe-hwaccel"], ["The register object", "$0 probe-hwaccel --json"]]
  });
  json = import_clipanion8.Option.Boolean("--json", false, { description: "Print the hwAccel object as JSON" });
  async execute() {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr);
    if (typeof loaded === "number")
      return loaded;
    const { config } = loaded;
    const detection = await detectHwAccel({
      preference: config.transcode.encoder,
      ffmpegPath: config.transcode.ffmpegPath,
      timeoutMs: timing(config, "hwDiagnosticTimeoutMs")
    });
    if (this.json) {
      this.context.stdout.write(`${JSON.stringify(detection.hwAccel)}
`);
      if (detection.warning)
        this.context.stderr.write(`media-agent: ${detection.warning}
`);
      return 0;
    }
    for (const line of diagnosticTable(detection.hwAccel, detection.warning))
      this.context.stdout.write(`${line}
`);
    return 0;
  }
};

// dist/cli/commands/funnel.js
var import_clipanion9 = __toESM(require_advanced(), 1);

// dist/config/edit.js
import { readFile as readFile10, stat as stat7 } from "node:fs/promises";
function setConfigValueInText(text, table, key, value) {
  const rendered = `${key} = ${renderScalar(value)}`;
  const lines = text.split("\n");
  const header2 = lines.findIndex((line) => tableHeaderName(line) === table);
  if (header2 === -1) {
    const body = text.length === 0 || text.endsWith("\n") ? text : `${text}
`;
    return `${body}${body.trim().length > 0 ? "\n" : ""}[${table}]
${rendered}
`;
  }
  let end = lines.length;
  for (let i = header2 + 1; i < lines.length; i++) {
    if (tableHeaderName(lines[i] ?? "") !== void 0) {
      end = i;
      break;
    }
  }
  const keyPattern = new RegExp(`^\\s*${escapeRegExp(key)}\\s*=`);
  for (let i = header2 + 1; i < end; i++) {
    if (keyPattern.test(lines[i] ?? "")) {
      const comment = trailingComment(lines[i] ?? "");
      lines[i] = comment ? `${rendered} ${comment}` : rendered;
      return lines.join("\n");
    }
  }
  lines.splice(header2 + 1, 0, rendered);
  return lines.join("\n");
}
async function setConfigValue(file, table, key, value) {
  let text;
  let mode;
  try {
    text = await readFile10(file, "utf8");
    mode = (await stat7(file)).mode & 511;
  } catch (err) {
    throw new ConfigError(`Cannot read config file ${file}: ${err.message}.`, { file, expected: "a readable TOML file", cause: err });
  }
  const next = setConfigValueInText(text, table, key, value);
  try {
    parse(next);
  } catch (err) {
    throw new ConfigError(`Cannot set ${table}.${key} in ${file}: the file would no longer parse (${err.message.split("\n")[0]}); edit it by hand.`, { file, key: `${table}.${key}`, cause: err });
  }
  await writeFileAtomic(file, next, { mode });
}
function tableHeaderName(line) {
  const match = /^\s*\[\s*([A-Za-z0-9_.\- ]+?)\s*\]\s*(#.*)?$/.exec(line);
  return match ? (match[1] ?? "").split(".").map((part) => part.trim()).join(".") : void 0;
}
function trailingComment(line) {
  const match = /^[^"'#]*(?:"[^"]*"|'[^']*')?[^"'#]*(#.*)$/.exec(line);
  return match?.[1];
}
function renderScalar(value) {
  if (typeof value === "string")
    return JSON.stringify(value);
  if (typeof value === "number" && !Number.isFinite(value))
    throw new TypeError("config values must be finite numbers");
  return String(value);
}
function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// dist/cli/config-switch.js
var ConfigSwitchCommand = class extends AgentCommand {
  async execute() {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr);
    if (typeof loaded === "number")
      return loaded;
    const out = (line) => this.context.stdout.write(`${line}
`);
    const setting = `[${this.table}] ${this.key} = ${String(this.enabled)}`;
    if (loaded.source !== "file") {
      this.context.stderr.write(`media-agent: no config file at ${loaded.path} to keep ${setting} in, so nothing changed (a running daemon would go back to the embedded default at its next start). Run \`media-agent init\` to write one, or pass --config FILE.
`);
      return 1;
    }
    await setConfigValue(loaded.path, this.table, this.key, this.enabled);
    out(`${setting} written to ${loaded.path}`);
    let status;
    try {
      status = await adminClient(loaded.config).post(this.route, { enabled: this.enabled });
    } catch (error) {
      if (!(isAgentError(error) && error.code === "MA_ERR_DAEMON_NOT_RUNNING"))
        throw error;
      out(`daemon: ${error.message}; the setting applies when it starts`);
      return 0;
    }
    out("daemon: applied to the running daemon");
    for (const line of this.describe(status))
      out(line);
    return 0;
  }
};

// dist/cli/commands/funnel.js
function describe3(status) {
  return [
    `funnel: ${status.enabled ? "on" : "off"} (${status.state})`,
    `url: ${status.url || "-"}`,
    `restarts: ${status.restarts}`,
    `helper: ${status.helperPath}`,
    ...status.error ? [`last error: ${status.error}`] : []
  ];
}
var notRunning = (error) => isAgentError(error) && error.code === "MA_ERR_DAEMON_NOT_RUNNING";
var FunnelSwitch = class extends ConfigSwitchCommand {
  table = "funnel";
  key = "enabled";
  route = "/api/funnel";
  describe(status) {
    return describe3(status);
  }
};
var FunnelOnCommand = class extends FunnelSwitch {
  static paths = [["funnel", "on"]];
  static usage = import_clipanion9.Command.Usage({
    description: "Turn the public tunnel on: persist `[funnel] enabled = true` and apply it to the running daemon.",
    details: "Writes the key into the config file in use (`--config` or the default path; comments and other lines are kept), then applies it to the running daemon; with no daemon it applies at the next start. With no config file nothing changes (exit 1): `media-agent init` writes one.",
    examples: [["Turn it on", "$0 funnel on"]]
  });
  enabled = true;
};
var FunnelOffCommand = class extends FunnelSwitch {
  static paths = [["funnel", "off"]];
  static usage = import_clipanion9.Command.Usage({
    description: "Turn the public tunnel off: persist `[funnel] enabled = false`, stop the helper and clear FunnelURL.",
    examples: [["Turn it off", "$0 funnel off"]]
  });
  enabled = false;
};
var FunnelStatusCommand = class extends AgentCommand {
  static paths = [["funnel", "status"]];
  static usage = import_clipanion9.Command.Usage({
    description: "Show the public tunnel: on or off, its state, the URL, restarts and the helper path.",
    details: "Asks the running daemon (exit code 3 when none runs). `--json` prints `{ enabled, state, url, restarts, helperPath }` (protocol.md 7.4).",
    examples: [["For people", "$0 funnel status"], ["For scripts", "$0 funnel status --json"]]
  });
  json = import_clipanion9.Option.Boolean("--json", false, { description: "Print one JSON object" });
  async execute() {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr);
    if (typeof loaded === "number")
      return loaded;
    const out = (line) => this.context.stdout.write(`${line}
`);
    try {
      const status = await adminClient(loaded.config).get("/api/funnel");
      if (this.json)
        out(JSON.stringify(status));
      else
        for (const line of describe3(status))
          out(line);
      return 0;
    } catch (error) {
      if (!notRunning(error))
        throw error;
      this.context.stderr.write(`media-agent: ${error.message}
`);
      return 3;
    }
  }
};

// dist/cli/commands/cache.js
var import_clipanion10 = __toESM(require_advanced(), 1);
var megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
function describe4(status) {
  if (!status.enabled)
    return [`hls cache: off ([downloads.hls_cache] enabled = false), dir ${status.dir}`];
  return [
    `hls cache: ${status.dir}`,
    `size: ${megabytes(status.sizeBytes)} of ${megabytes(status.budgetBytes)} in ${status.entries} entries (${status.pinned} playing)`,
    `lookups since start: ${status.hits} hits, ${status.misses} misses`
  ];
}
var CacheCommand = class extends AgentCommand {
  /** Exit 3 with no daemon (like `status`); other failures propagate. */
  async ask(call, print) {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr);
    if (typeof loaded === "number")
      return loaded;
    try {
      print(await call(adminClient(loaded.config)));
      return 0;
    } catch (error) {
      if (!isAgentError(error) || error.code !== "MA_ERR_DAEMON_NOT_RUNNING")
        throw error;
      this.context.stderr.write(`media-agent: ${error.message}
`);
      return 3;
    }
  }
};
var CacheStatusCommand = class extends CacheCommand {
  static paths = [["cache", "status"]];
  static usage = import_clipanion10.Command.Usage({
    description: "Show the HLS segment cache: size against its budget, entries, those playing, hits and misses.",
    details: "Asks the running daemon (exit code 3 when none runs). `--json` prints protocol.md 7.1's object: enabled, dir, budgetBytes, sizeBytes, entries, pinned, hits, misses.",
    examples: [["Human-readable", "$0 cache status"], ["For scripts", "$0 cache status --json"]]
  });
  json = import_clipanion10.Option.Boolean("--json", false, { description: "Print one JSON object" });
  execute() {
    return this.ask((client) => client.get("/api/cache"), (status) => {
      const out = (line) => this.context.stdout.write(`${line}
`);
      if (this.json)
        out(JSON.stringify(status));
      else
        for (const line of describe4(status))
          out(line);
    });
  }
};
var CacheClearCommand = class extends CacheCommand {
  static paths = [["cache", "clear"]];
  static usage = import_clipanion10.Command.Usage({
    description: "Remove every HLS cache entry that is not playing or being written.",
    details: "Entries a session plays (pinned) or writes stay. Asks the running daemon (exit code 3 when none runs).",
    examples: [["Clear the cache", "$0 cache clear"]]
  });
  execute() {
    return this.ask((client) => client.post("/api/cache/clear"), (status) => {
      this.context.stdout.write(`removed ${status.removed ?? 0} entries; ${status.entries} left (${status.pinned} playing or written)
`);
    });
  }
};

// dist/cli/commands/init.js
var import_clipanion11 = __toESM(require_advanced(), 1);
import { mkdir as mkdir4, open as open4 } from "node:fs/promises";
import { homedir as homedir2 } from "node:os";
import { dirname as dirname2, resolve as resolve4 } from "node:path";
var InitCommand = class extends import_clipanion11.Command {
  static paths = [["init"]];
  static usage = import_clipanion11.Command.Usage({
    description: "Write a commented config file with the fresh-install defaults (funnel on).",
    details: "Writes the file with mode 0600 (it holds the access token), making its parent folders. It never overwrites: with a file already there it exits 1 and leaves it untouched. Without --server and --token the two keys are left empty for you to fill in (or set MEDIA_AGENT_ACCESS_TOKEN); `media-agent config check` then tells whether the file is complete.",
    examples: [
      ["At the default path", "$0 init --server https://media.example --token <ACCESS_TOKEN>"],
      ["Somewhere else", "$0 init --config /etc/media-agent/config.toml --server https://media.example"]
    ]
  });
  configPath = import_clipanion11.Option.String("--config", { description: "Where to write (default: $XDG_CONFIG_HOME/media-agent/config.toml)" });
  server = import_clipanion11.Option.String("--server", { description: "The web server URL ([server] base_url)" });
  token = import_clipanion11.Option.String("--token", { description: "The access token the web server issued ([server] access_token)" });
  async execute() {
    const file = this.configPath === void 0 ? defaultConfigPath(process.env, homedir2()) : resolve4(expandHome(this.configPath, homedir2()));
    const text = renderFreshConfig({ ...this.server !== void 0 ? { baseUrl: this.server } : {}, ...this.token !== void 0 ? { accessToken: this.token } : {} });
    if (this.server !== void 0 || this.token !== void 0) {
      const problem = givenValuesProblem(text, file, { server: this.server !== void 0, token: this.token !== void 0 });
      if (problem !== void 0) {
        this.context.stderr.write(`media-agent: ${problem}
`);
        return 2;
      }
    }
    await mkdir4(dirname2(file), { recursive: true, mode: 448 });
    let handle;
    try {
      handle = await open4(file, "wx", 384);
    } catch (error) {
      if (error.code === "EEXIST") {
        this.context.stderr.write(`media-agent: ${file} already exists; init never overwrites a config (check it with \`media-agent config check\`)
`);
        return 1;
      }
      throw error;
    }
    try {
      await handle.writeFile(text, "utf8");
      await handle.chmod(384);
    } finally {
      await handle.close();
    }
    const missing = [this.server === void 0 ? "[server] base_url" : "", this.token === void 0 ? `[server] access_token (or ${accessTokenEnvVar})` : ""].filter(Boolean);
    this.context.stdout.write(`wrote ${file} (mode 0600)
`);
    if (missing.length > 0)
      this.context.stdout.write(`fill in ${missing.join(" and ")}, then run: media-agent config check
`);
    return 0;
  }
};
function givenValuesProblem(text, file, given) {
  try {
    parseConfigText(text, { file, freshInstall: true });
    return void 0;
  } catch (error) {
    if (!isAgentError(error))
      throw error;
    const key = error.details?.key;
    if (key === "server.base_url" && given.server || key === "server.access_token" && given.token) {
      return error.message.replace(/^Invalid config [^:]+: server\.base_url/, "--server").replace(/^Invalid config [^:]+: server\.access_token/, "--token");
    }
    return void 0;
  }
}

// dist/cli/commands/config-check.js
var import_clipanion12 = __toESM(require_advanced(), 1);
var redacted = "[redacted]";
var ConfigCheckCommand = class extends AgentCommand {
  static paths = [["config", "check"]];
  static usage = import_clipanion12.Command.Usage({
    description: "Load the config as the daemon would and print the effective values, secrets redacted.",
    details: "Every default filled in, `~` and the XDG variables expanded, the access token taken from MEDIA_AGENT_ACCESS_TOKEN, [server] access_token_file or [server] access_token (first to last) and shown as [redacted]. Exits 0 when the config is valid; otherwise prints the file, the key and what is expected, and exits 78.",
    examples: [["The default config", "$0 config check"], ["Another file", "$0 config check --config /etc/media-agent/config.toml"]]
  });
  async execute() {
    this.level();
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr);
    if (typeof loaded === "number")
      return loaded;
    for (const warning of loaded.warnings)
      this.context.stderr.write(`media-agent: warning: ${warning}
`);
    const { config } = loaded;
    const header2 = [
      loaded.source === "file" ? `# effective config of ${loaded.path}` : `# no config file at ${loaded.path}: the embedded default (npm start runs a local reference server with it)`,
      `# access token: ${config.server.accessToken === "" ? "none" : `from ${config.server.accessTokenSource ?? "[server] access_token"}`}`
    ];
    this.context.stdout.write(`${header2.join("\n")}
${stringify(effectiveToml(config))}
`);
    return 0;
  }
};
function effectiveToml(config) {
  const { accessTokenSource: _source, ...server } = config.server;
  const { host, port } = config.admin.listen;
  const shaped = { ...config, server, admin: { listen: `${host.includes(":") ? `[${host}]` : host}:${port}` } };
  if (Object.keys(config.testing).length === 0)
    delete shaped.testing;
  return snakeKeys(shaped);
}
var secretKey2 = /(?:token|secret|password|private_key)$/;
function snakeKeys(value, key = "") {
  if (typeof value === "string" && value !== "" && secretKey2.test(key))
    return redacted;
  if (Array.isArray(value))
    return value.map((item) => snakeKeys(item, key));
  if (value === null || typeof value !== "object")
    return value;
  return Object.fromEntries(Object.entries(value).map(([name, inner]) => [camelToSnake(name), snakeKeys(inner, camelToSnake(name))]));
}

// dist/cli/commands/vpn.js
var import_clipanion13 = __toESM(require_advanced(), 1);
var notRunning2 = (error) => isAgentError(error) && error.code === "MA_ERR_DAEMON_NOT_RUNNING";
function describe5(status) {
  return [
    `vpn: ${status.enabled ? "enabled" : "disabled"}, ${status.state}${status.mode === "wireguard" ? ` (wireguard${status.exitServer ? `, exit ${status.exitServer}` : ""})` : ""}`,
    `handshake: ${status.handshakeAgeSeconds === null ? "none yet" : `${status.handshakeAgeSeconds} s ago`}`,
    `bytes: received ${status.rxBytes}, sent ${status.txBytes}`,
    ...status.error ? [`error: ${status.error}`] : []
  ];
}
var VpnStatusCommand = class extends AgentCommand {
  static paths = [["vpn", "status"]];
  static usage = import_clipanion13.Command.Usage({
    description: "Show the managed VPN: state, exit server, handshake age, bytes.",
    details: "Asks the running daemon (exit code 3 when none runs). `--check` asks the web server whether this agent may use the VPN (vpn-config with probe=1, which never claims the slot) and prints `ok`, `disabled`, `not_provisioned` or `slot_on_device`; the exit code is 0 only for `ok`.",
    examples: [["State", "$0 vpn status"], ["For scripts", "$0 vpn status --json"], ["Provisioning", "$0 vpn status --check"]]
  });
  json = import_clipanion13.Option.Boolean("--json", false, { description: "Print one JSON object" });
  check = import_clipanion13.Option.Boolean("--check", false, { description: "Ask the server (probe=1) and print the typed result" });
  async execute() {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr);
    if (typeof loaded === "number")
      return loaded;
    const out = (line) => this.context.stdout.write(`${line}
`);
    const client = adminClient(loaded.config);
    try {
      if (this.check) {
        const reply = await client.post("/api/vpn/check");
        if (this.json)
          out(JSON.stringify(reply));
        else if (reply.result === "error")
          out(`error: ${reply.error}`);
        else
          out(reply.result);
        return reply.result === "ok" ? 0 : 1;
      }
      const status = await client.get("/api/vpn");
      if (this.json) {
        out(JSON.stringify(status));
        return 0;
      }
      for (const line of describe5(status))
        out(line);
      return 0;
    } catch (error) {
      if (!notRunning2(error))
        throw error;
      this.context.stderr.write(`media-agent: ${error.message}
`);
      return 3;
    }
  }
};
var VpnSwitchCommand = class extends ConfigSwitchCommand {
  table = "downloads.vpn";
  key = "enabled";
  route = "/api/vpn";
  describe(status) {
    return describe5(status);
  }
};
var VpnEnableCommand = class extends VpnSwitchCommand {
  static paths = [["vpn", "enable"]];
  static usage = import_clipanion13.Command.Usage({
    description: "Turn the managed VPN on: saved in the config file and applied to the running daemon.",
    details: "Writes `[downloads.vpn] enabled = true` into the config file in use (`--config` or the default path; comments and other lines kept), then applies it to the running daemon; with no daemon it applies at the next start. With no config file nothing changes (exit 1). Torrent peer and tracker traffic then goes through the WireGuard tunnel only; while it connects, torrents wait."
  });
  enabled = true;
};
var VpnDisableCommand = class extends VpnSwitchCommand {
  static paths = [["vpn", "disable"]];
  static usage = import_clipanion13.Command.Usage({
    description: "Turn the managed VPN off: saved in the config file and applied to the running daemon.",
    details: "Writes `[downloads.vpn] enabled = false` (see `vpn enable` for the file and the daemon). Torrents then download in the clear; the tunnel closes and its account slot is freed by the next sync."
  });
  enabled = false;
};

// dist/cli/commands/library.js
var import_clipanion14 = __toESM(require_advanced(), 1);
var notRunning3 = 3;
var LibraryStatusCommand = class extends AgentCommand {
  static paths = [["library", "status"]];
  static usage = import_clipanion14.Command.Usage({
    description: "Show the library sync: state, roots, media items and the last scan.",
    details: "Asks the running daemon through its admin listener; exit code 3 when no daemon runs.",
    examples: [["Human-readable", "$0 library status"], ["For scripts", "$0 library status --json"]]
  });
  json = import_clipanion14.Option.Boolean("--json", false, { description: "Print one JSON object (protocol.md 7.6)" });
  async execute() {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr);
    if (typeof loaded === "number")
      return loaded;
    let status;
    try {
      status = await adminClient(loaded.config).get("/api/library");
    } catch (error) {
      if (!isAgentError(error) || error.code !== "MA_ERR_DAEMON_NOT_RUNNING")
        throw error;
      this.context.stderr.write(`media-agent: ${error.message}
`);
      return notRunning3;
    }
    if (this.json) {
      this.context.stdout.write(`${JSON.stringify(status)}
`);
      return 0;
    }
    for (const line of describeStatus(status))
      this.context.stdout.write(`${line}
`);
    return 0;
  }
};
var LibraryScanCommand = class extends AgentCommand {
  static paths = [["library", "scan"]];
  static usage = import_clipanion14.Command.Usage({
    description: "Scan the library now and wait until the server has the result.",
    details: "Exit 0 once the upload is acknowledged (or there was nothing to upload), 1 when the scan or its upload failed (the daemon keeps retrying with backoff), 3 when no daemon runs.",
    examples: [["Changes since the last upload", "$0 library scan"], ["Send the whole library", "$0 library scan --full"]]
  });
  full = import_clipanion14.Option.Boolean("--full", false, { description: "Upload the whole library, not only what changed" });
  async execute() {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr);
    if (typeof loaded === "number")
      return loaded;
    const client = adminClient(loaded.config);
    const out = (line) => this.context.stdout.write(`${line}
`);
    try {
      const started = await client.post("/api/library/scan", { full: this.full });
      if (started.outcome === "nothing") {
        out(`nothing to scan: ${started.message ?? "no library paths"}`);
        return 0;
      }
      for (; ; ) {
        const reply = await client.get(`/api/library/scan?ticket=${started.ticket}`);
        if (reply.outcome === "pending")
          continue;
        const status = reply.status;
        if (reply.outcome === "failed") {
          this.context.stderr.write(`media-agent: library scan failed: ${status?.error ?? "unknown error"} (the daemon retries with backoff)
`);
          return 1;
        }
        const last = status?.lastScan;
        if (last && last.uploadedItems + last.removed > 0)
          out(`library uploaded (${last.mode}): ${last.uploadedItems} items, ${last.removed} removed; ${last.files} files seen, ${last.probed} probed, scan ${last.ms} ms`);
        else
          out(`library scanned: nothing to upload${last ? ` (${last.files} files seen, ${last.probed} probed, scan ${last.ms} ms)` : ""}`);
        return 0;
      }
    } catch (error) {
      if (!isAgentError(error) || error.code !== "MA_ERR_DAEMON_NOT_RUNNING")
        throw error;
      this.context.stderr.write(`media-agent: ${error.message}
`);
      return notRunning3;
    }
  }
};
function describeStatus(status) {
  const lines = [`library: ${status.state}, ${status.items} media items in ${status.roots.length} folder${status.roots.length === 1 ? "" : "s"}`];
  for (const root of status.roots)
    lines.push(`  ${root}`);
  if (status.progress)
    lines.push(`scanning: ${status.progress.files} files seen, ${status.progress.probed} of ${status.progress.toProbe} probed`);
  const last = status.lastScan;
  if (last)
    lines.push(`last scan ${last.scanId}: ${last.files} files seen, ${last.probed} probed, ${last.skipped} skipped, ${last.uploadedItems} uploaded (${last.mode}), ${last.ms} ms`);
  if (status.error)
    lines.push(`last error: ${status.error}`);
  return lines;
}

// dist/cli/commands/torrent.js
var import_clipanion15 = __toESM(require_advanced(), 1);
var notRunning4 = 3;
var TorrentRecheckCommand = class extends AgentCommand {
  static paths = [["torrent", "recheck"]];
  static usage = import_clipanion15.Command.Usage({
    description: "Hash a task's data again instead of trusting its verified-piece map.",
    details: "A downloading, seeding or completed task is checked now (it reports `downloading` meanwhile and fetches what is missing or damaged); a paused or failed task is checked when it next starts. Exit 0 when asked, 1 for an unknown task or one without metadata, 3 when no daemon runs.",
    examples: [["By task id", "$0 torrent recheck 42"], ["By info hash", "$0 torrent recheck 0123456789abcdef0123456789abcdef01234567"]]
  });
  task = import_clipanion15.Option.String({ name: "taskId|infohash" });
  async execute() {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr);
    if (typeof loaded === "number")
      return loaded;
    let reply;
    try {
      reply = await adminClient(loaded.config).post("/api/torrents/recheck", { task: this.task });
    } catch (error) {
      if (!isAgentError(error) || error.code !== "MA_ERR_DAEMON_NOT_RUNNING")
        throw error;
      this.context.stderr.write(`media-agent: ${error.message}
`);
      return notRunning4;
    }
    switch (reply.outcome) {
      case "checking":
        this.context.stdout.write(`task ${reply.taskId}: checking every piece now (${reply.infoHash})
`);
        return 0;
      case "next_start":
        this.context.stdout.write(`task ${reply.taskId} is ${reply.state}: every piece is checked when it starts again
`);
        return 0;
      default:
        this.context.stderr.write(`media-agent: ${reply.message ?? reply.outcome}
`);
        return 1;
    }
  }
};

// dist/cli/index.js
function buildCli(options = {}) {
  const cli = new import_clipanion16.Cli({ binaryLabel: "media-agent", binaryName: "media-agent", binaryVersion: agentVersion, enableCapture: false, enableColors: options.colors ?? colorWanted(process.stdout) });
  cli.register(import_clipanion16.Builtins.HelpCommand);
  cli.register(import_clipanion16.Builtins.VersionCommand);
  cli.register(DaemonCommand);
  cli.register(StatusCommand);
  cli.register(StartCommand);
  cli.register(ReferenceServerCommand);
  cli.register(StatechartsCommand);
  cli.register(UpdateCommand);
  cli.register(ProbeHwaccelCommand);
  cli.register(FunnelOnCommand);
  cli.register(FunnelOffCommand);
  cli.register(FunnelStatusCommand);
  cli.register(CacheStatusCommand);
  cli.register(CacheClearCommand);
  cli.register(InitCommand);
  cli.register(ConfigCheckCommand);
  cli.register(VpnStatusCommand);
  cli.register(VpnEnableCommand);
  cli.register(VpnDisableCommand);
  cli.register(LibraryStatusCommand);
  cli.register(LibraryScanCommand);
  cli.register(TorrentRecheckCommand);
  return cli;
}
async function runCli(args) {
  const stdout = process.stdout;
  const stderr = process.stderr;
  const cli = buildCli({ colors: colorWanted(stdout) });
  const context = { stdin: process.stdin, stdout, stderr, colorDepth: colorWanted(stdout) ? stdout.getColorDepth?.() ?? 8 : 1 };
  let command;
  try {
    command = cli.process(args, context);
  } catch (error) {
    stderr.write(cli.error(error, { colored: colorWanted(stderr) }));
    return 2;
  }
  const execute = command.execute.bind(command);
  command.execute = async () => {
    try {
      return await execute();
    } catch (error) {
      if (isAgentError(error) && error.userVisible) {
        stderr.write(`media-agent: ${error.message} [${error.code}]
`);
        return 1;
      }
      if (error instanceof import_clipanion16.UsageError) {
        stderr.write(`media-agent: ${error.message}
`);
        return 2;
      }
      stderr.write(`media-agent: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}
`);
      return 1;
    }
  };
  return cli.run(command, context);
}
export {
  buildCli,
  runCli
};
/*! Bundled license information:

smol-toml/dist/error.js:
smol-toml/dist/primitive.js:
smol-toml/dist/date.js:
smol-toml/dist/extract.js:
smol-toml/dist/util.js:
smol-toml/dist/struct.js:
smol-toml/dist/parse.js:
smol-toml/dist/stringify.js:
smol-toml/dist/index.js:
  (*!
   * Copyright (c) Squirrel Chat et al., All rights reserved.
   * SPDX-License-Identifier: BSD-3-Clause
   *
   * Redistribution and use in source and binary forms, with or without
   * modification, are permitted provided that the following conditions are met:
   *
   * 1. Redistributions of source code must retain the above copyright notice, this
   *    list of conditions and the following disclaimer.
   * 2. Redistributions in binary form must reproduce the above copyright notice,
   *    this list of conditions and the following disclaimer in the
   *    documentation and/or other materials provided with the distribution.
   * 3. Neither the name of the copyright holder nor the names of its contributors
   *    may be used to endorse or promote products derived from this software without
   *    specific prior written permission.
   *
   * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND
   * ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED
   * WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
   * DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE
   * FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
   * DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
   * SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
   * CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY,
   * OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
   * OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
   *)
*/

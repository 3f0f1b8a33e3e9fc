import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  __export
} from "./chunk-V4RWK56N.js";

// dist/config/defaults.js
var defaults_exports = {};
__export(defaults_exports, {
  GiB: () => GiB,
  MiB: () => MiB,
  accessTokenEnvVar: () => accessTokenEnvVar,
  addressesRefreshMs: () => addressesRefreshMs,
  addressesRetryMs: () => addressesRetryMs,
  adminBodyLimitBytes: () => adminBodyLimitBytes,
  adminEventsKeepAliveMs: () => adminEventsKeepAliveMs,
  adminListen: () => adminListen,
  adminRequestTimeoutMs: () => adminRequestTimeoutMs,
  adminTokenFileName: () => adminTokenFileName,
  agentIdFileName: () => agentIdFileName,
  appDirName: () => appDirName,
  appliedControlMemory: () => appliedControlMemory,
  backoffJitterRatio: () => backoffJitterRatio,
  childRestartBaseMs: () => childRestartBaseMs,
  childRestartMaxMs: () => childRestartMaxMs,
  configDir: () => configDir,
  configFileName: () => configFileName,
  directUrlBodyTimeoutMs: () => directUrlBodyTimeoutMs,
  directUrlHeadTimeoutMs: () => directUrlHeadTimeoutMs,
  directUrlHeadersTimeoutMs: () => directUrlHeadersTimeoutMs,
  directUrlMaxRedirections: () => directUrlMaxRedirections,
  downlinkMode: () => downlinkMode,
  downloadsDir: () => downloadsDir,
  embeddedReferenceServerPort: () => embeddedReferenceServerPort,
  ffmpegMaxRestarts: () => ffmpegMaxRestarts,
  ffmpegPath: () => ffmpegPath,
  ffmpegStderrTailLines: () => ffmpegStderrTailLines,
  ffprobePath: () => ffprobePath,
  funnelEnabledFreshInstall: () => funnelEnabledFreshInstall,
  funnelEnabledLegacyConfig: () => funnelEnabledLegacyConfig,
  funnelHealthyResetMs: () => funnelHealthyResetMs,
  funnelHelperDownloadTimeoutMs: () => funnelHelperDownloadTimeoutMs,
  funnelHelperMaxBytes: () => funnelHelperMaxBytes,
  funnelHelperMinBytes: () => funnelHelperMinBytes,
  funnelHelperOutputTailLines: () => funnelHelperOutputTailLines,
  funnelHelperPath: () => funnelHelperPath,
  funnelHelperUrlBase: () => funnelHelperUrlBase,
  funnelMetricsRequestTimeoutMs: () => funnelMetricsRequestTimeoutMs,
  funnelRateLimitedRestartMs: () => funnelRateLimitedRestartMs,
  funnelReadyPollMs: () => funnelReadyPollMs,
  funnelRestartBaseMs: () => funnelRestartBaseMs,
  funnelRestartMaxMs: () => funnelRestartMaxMs,
  funnelStartTimeoutMs: () => funnelStartTimeoutMs,
  hlsCacheBytesPerGb: () => hlsCacheBytesPerGb,
  hlsCacheClearWaitMs: () => hlsCacheClearWaitMs,
  hlsCacheDir: () => hlsCacheDir,
  hlsCacheDirName: () => hlsCacheDirName,
  hlsCacheEnabled: () => hlsCacheEnabled,
  hlsCacheLookupTimeoutMs: () => hlsCacheLookupTimeoutMs,
  hlsCacheSizeGb: () => hlsCacheSizeGb,
  hlsCacheStatsLogIntervalMs: () => hlsCacheStatsLogIntervalMs,
  hlsInputTokenTtlSeconds: () => hlsInputTokenTtlSeconds,
  hlsReadChunkBytes: () => hlsReadChunkBytes,
  hlsSeekAheadSegments: () => hlsSeekAheadSegments,
  hlsSeekWarmupFrames: () => hlsSeekWarmupFrames,
  hlsSeekWarmupMaxSegments: () => hlsSeekWarmupMaxSegments,
  hlsSegmentScanMs: () => hlsSegmentScanMs,
  hlsSegmentSeconds: () => hlsSegmentSeconds,
  hlsSegmentWaitMs: () => hlsSegmentWaitMs,
  httpRequestTimeoutMs: () => httpRequestTimeoutMs,
  hwDiagnosticTimeoutMs: () => hwDiagnosticTimeoutMs,
  hwReprobeAfterFailureMs: () => hwReprobeAfterFailureMs,
  hwTestEncodeHeightsPx: () => hwTestEncodeHeightsPx,
  inspectionRingSize: () => inspectionRingSize,
  libraryDebounceMs: () => libraryDebounceMs,
  libraryFsConcurrency: () => libraryFsConcurrency,
  libraryIndexFileName: () => libraryIndexFileName,
  libraryPartMaxItems: () => libraryPartMaxItems,
  libraryPaths: () => libraryPaths,
  libraryPlaybackPauseMs: () => libraryPlaybackPauseMs,
  libraryProbeConcurrency: () => libraryProbeConcurrency,
  libraryProbeNice: () => libraryProbeNice,
  libraryProgressLogMs: () => libraryProgressLogMs,
  libraryRescanMinutes: () => libraryRescanMinutes,
  libraryRetryBaseMs: () => libraryRetryBaseMs,
  libraryRetryMaxMs: () => libraryRetryMaxMs,
  libraryScanWaitMs: () => libraryScanWaitMs,
  librarySkipExamples: () => librarySkipExamples,
  librarySyncTimeoutMs: () => librarySyncTimeoutMs,
  libraryWatchEnabled: () => libraryWatchEnabled,
  libraryYieldEveryFiles: () => libraryYieldEveryFiles,
  livenessTimeoutMs: () => livenessTimeoutMs,
  longPollReprobeMs: () => longPollReprobeMs,
  metricsEventLoopResolutionMs: () => metricsEventLoopResolutionMs,
  metricsLatencyBucketsSeconds: () => metricsLatencyBucketsSeconds,
  metricsReadyBucketsSeconds: () => metricsReadyBucketsSeconds,
  minAgentVersionFloor: () => minAgentVersionFloor,
  netstackDnsQueryAttempts: () => netstackDnsQueryAttempts,
  netstackDnsQueryTimeoutMs: () => netstackDnsQueryTimeoutMs,
  netstackEphemeralPortMax: () => netstackEphemeralPortMax,
  netstackEphemeralPortMin: () => netstackEphemeralPortMin,
  netstackIpTtl: () => netstackIpTtl,
  netstackPingTimeoutMs: () => netstackPingTimeoutMs,
  playerAssetMaxAgeSeconds: () => playerAssetMaxAgeSeconds,
  playerHeadProbeBudgetMs: () => playerHeadProbeBudgetMs,
  playerHeadProbeIntervalMs: () => playerHeadProbeIntervalMs,
  playerReadyGraceMs: () => playerReadyGraceMs,
  playerStatusPollMs: () => playerStatusPollMs,
  probeCacheTtlMs: () => probeCacheTtlMs,
  probeTimeoutMs: () => probeTimeoutMs,
  readinessDeadlineMs: () => readinessDeadlineMs,
  readinessPollMs: () => readinessPollMs,
  referenceFaultStatus: () => referenceFaultStatus,
  referenceMaxBodyBytes: () => referenceMaxBodyBytes,
  referenceServerCliPort: () => referenceServerCliPort,
  referenceServerHost: () => referenceServerHost,
  referenceStreamTokenTtlSeconds: () => referenceStreamTokenTtlSeconds,
  referenceWaitForTimeoutMs: () => referenceWaitForTimeoutMs,
  registerRetryBaseMs: () => registerRetryBaseMs,
  registerRetryMaxMs: () => registerRetryMaxMs,
  seedRatio: () => seedRatio,
  serverHeartbeatMs: () => serverHeartbeatMs,
  serverMirrors: () => serverMirrors,
  shutdownDeadlineMs: () => shutdownDeadlineMs,
  softwareMaxTranscodeHeightPx: () => softwareMaxTranscodeHeightPx,
  sseConnectTimeoutMs: () => sseConnectTimeoutMs,
  sseFailuresBeforeFallback: () => sseFailuresBeforeFallback,
  sseMaxEventBytes: () => sseMaxEventBytes,
  sseMaxLineBytes: () => sseMaxLineBytes,
  sseReconnectDelayMs: () => sseReconnectDelayMs,
  sseReconnectMaxMs: () => sseReconnectMaxMs,
  stateDir: () => stateDir,
  streamBlockInputSampleMs: () => streamBlockInputSampleMs,
  streamFirstReadBytes: () => streamFirstReadBytes,
  streamInlineReadBytes: () => streamInlineReadBytes,
  streamInlineReadCooldownMs: () => streamInlineReadCooldownMs,
  streamInlineReadSlowMs: () => streamInlineReadSlowMs,
  streamInlineReadsEnabled: () => streamInlineReadsEnabled,
  streamMaxRanges: () => streamMaxRanges,
  streamOpenFileCacheMs: () => streamOpenFileCacheMs,
  streamReadChunkBytes: () => streamReadChunkBytes,
  streamReadPoolSlabBytes: () => streamReadPoolSlabBytes,
  streamReadPoolSlabs: () => streamReadPoolSlabs,
  streamReadPoolSlabsPerResponse: () => streamReadPoolSlabsPerResponse,
  streamReadsInFlight: () => streamReadsInFlight,
  streamSendBuffers: () => streamSendBuffers,
  streamServerHeadersTimeoutMs: () => streamServerHeadersTimeoutMs,
  streamServerHost: () => streamServerHost,
  streamServerKeepAliveTimeoutMs: () => streamServerKeepAliveTimeoutMs,
  streamServerPort: () => streamServerPort,
  streamTokenCacheEntries: () => streamTokenCacheEntries,
  streamTokenSkewSeconds: () => streamTokenSkewSeconds,
  streamUpnpEnabled: () => streamUpnpEnabled,
  streamWholeReadBytes: () => streamWholeReadBytes,
  subtitleExtractTimeoutMs: () => subtitleExtractTimeoutMs,
  syncFailureBackoffBaseMs: () => syncFailureBackoffBaseMs,
  syncFailureBackoffMaxMs: () => syncFailureBackoffMaxMs,
  syncIntervalIdleMs: () => syncIntervalIdleMs,
  syncIntervalWatchingMs: () => syncIntervalWatchingMs,
  tasksFileName: () => tasksFileName,
  tasksJsonMinWriteIntervalMs: () => tasksJsonMinWriteIntervalMs,
  tcpDefaultMss: () => tcpDefaultMss,
  tcpDelayedAckMs: () => tcpDelayedAckMs,
  tcpInitialRtoMs: () => tcpInitialRtoMs,
  tcpListenBacklog: () => tcpListenBacklog,
  tcpMaxRetransmits: () => tcpMaxRetransmits,
  tcpMaxRtoMs: () => tcpMaxRtoMs,
  tcpMinRtoMs: () => tcpMinRtoMs,
  tcpPersistMaxMs: () => tcpPersistMaxMs,
  tcpReceiveBufferBytes: () => tcpReceiveBufferBytes,
  tcpSendBufferBytes: () => tcpSendBufferBytes,
  tcpSynRetries: () => tcpSynRetries,
  tcpTimeWaitMs: () => tcpTimeWaitMs,
  tcpTlpDelayedAckMs: () => tcpTlpDelayedAckMs,
  tcpTlpMinMs: () => tcpTlpMinMs,
  thumbnailMaxBytes: () => thumbnailMaxBytes,
  thumbnailMaxConcurrent: () => thumbnailMaxConcurrent,
  thumbnailMaxQueue: () => thumbnailMaxQueue,
  thumbnailMaxSeekSeconds: () => thumbnailMaxSeekSeconds,
  thumbnailMaxWidth: () => thumbnailMaxWidth,
  thumbnailMinWidth: () => thumbnailMinWidth,
  thumbnailRetryAfterSeconds: () => thumbnailRetryAfterSeconds,
  thumbnailTimeoutMs: () => thumbnailTimeoutMs,
  torrentAnnounceJitter: () => torrentAnnounceJitter,
  torrentAnnounceRetryMaxMs: () => torrentAnnounceRetryMaxMs,
  torrentAnnounceRetryMinMs: () => torrentAnnounceRetryMinMs,
  torrentDht: () => torrentDht,
  torrentFetchTimeoutMs: () => torrentFetchTimeoutMs,
  torrentFileMaxBytes: () => torrentFileMaxBytes,
  torrentLsd: () => torrentLsd,
  torrentMaxConns: () => torrentMaxConns,
  torrentMetadataDirName: () => torrentMetadataDirName,
  torrentNatPmp: () => torrentNatPmp,
  torrentNatUpnp: () => torrentNatUpnp,
  torrentPex: () => torrentPex,
  torrentPieceMapWriteIntervalMs: () => torrentPieceMapWriteIntervalMs,
  torrentPort: () => torrentPort,
  torrentProgressIntervalMs: () => torrentProgressIntervalMs,
  torrentStopTimeoutMs: () => torrentStopTimeoutMs,
  torrentStoreMaxOpenFiles: () => torrentStoreMaxOpenFiles,
  torrentStoreReadBudgetBytes: () => torrentStoreReadBudgetBytes,
  torrentUtp: () => torrentUtp,
  torrentUtpFallbackMs: () => torrentUtpFallbackMs,
  transcodeEncoder: () => transcodeEncoder,
  tunnelHandshakeLostInitiations: () => tunnelHandshakeLostInitiations,
  tunnelTcpReceiveBufferBytes: () => tunnelTcpReceiveBufferBytes,
  tunnelTcpSendBufferBytes: () => tunnelTcpSendBufferBytes,
  tunnelWaitUntilUpMs: () => tunnelWaitUntilUpMs,
  unauthorizedRetryMs: () => unauthorizedRetryMs,
  unknownControlKindMemory: () => unknownControlKindMemory,
  upgradeCommandTimeoutMs: () => upgradeCommandTimeoutMs,
  upgradeCurrentLinkName: () => upgradeCurrentLinkName,
  upgradeDownloadTimeoutMs: () => upgradeDownloadTimeoutMs,
  upgradeExtractTimeoutMs: () => upgradeExtractTimeoutMs,
  upgradeMaxArtifactBytes: () => upgradeMaxArtifactBytes,
  upgradeReportRetryMs: () => upgradeReportRetryMs,
  upgradeRestartExitCode: () => upgradeRestartExitCode,
  upgradeSmokeTestTimeoutMs: () => upgradeSmokeTestTimeoutMs,
  upgradeStateFileName: () => upgradeStateFileName,
  upgradeVersionsDirName: () => upgradeVersionsDirName,
  upnpLeaseSeconds: () => upnpLeaseSeconds,
  upnpTimeoutMs: () => upnpTimeoutMs,
  urlSourceRwTimeoutUs: () => urlSourceRwTimeoutUs,
  versionTooOldRetryMs: () => versionTooOldRetryMs,
  vpnEnabled: () => vpnEnabled,
  vpnHandshakeMaxAgeMs: () => vpnHandshakeMaxAgeMs,
  vpnKickIntervalMs: () => vpnKickIntervalMs,
  vpnPeerConnectTimeoutMs: () => vpnPeerConnectTimeoutMs,
  vpnPeerPortDefault: () => vpnPeerPortDefault,
  vpnRefetchAfterMs: () => vpnRefetchAfterMs,
  vpnRefusalRetryMs: () => vpnRefusalRetryMs,
  vpnRetryBaseMs: () => vpnRetryBaseMs,
  vpnRetryMaxMs: () => vpnRetryMaxMs,
  vpnRetryUnansweredMaxMs: () => vpnRetryUnansweredMaxMs,
  vpnSampleIntervalMs: () => vpnSampleIntervalMs,
  wakeHeldReconnectMs: () => wakeHeldReconnectMs,
  wakeRetryDelayMs: () => wakeRetryDelayMs,
  wakeRetryMaxMs: () => wakeRetryMaxMs,
  wakeToSyncLimitMs: () => wakeToSyncLimitMs,
  wgCookieRefreshTimeMs: () => wgCookieRefreshTimeMs,
  wgDefaultMtu: () => wgDefaultMtu,
  wgHandshakeInitiationMinIntervalMs: () => wgHandshakeInitiationMinIntervalMs,
  wgIndexAllocationAttempts: () => wgIndexAllocationAttempts,
  wgKeepaliveTimeoutMs: () => wgKeepaliveTimeoutMs,
  wgMaxHandshakeAttempts: () => wgMaxHandshakeAttempts,
  wgPaddingMultipleBytes: () => wgPaddingMultipleBytes,
  wgRejectAfterMessages: () => wgRejectAfterMessages,
  wgRejectAfterTimeMs: () => wgRejectAfterTimeMs,
  wgRekeyAfterMessages: () => wgRekeyAfterMessages,
  wgRekeyAfterTimeMs: () => wgRekeyAfterTimeMs,
  wgRekeyAttemptTimeMs: () => wgRekeyAttemptTimeMs,
  wgRekeyTimeoutJitterMaxMs: () => wgRekeyTimeoutJitterMaxMs,
  wgRekeyTimeoutMs: () => wgRekeyTimeoutMs,
  wgReplayWindowPackets: () => wgReplayWindowPackets,
  wgStagedPacketsMax: () => wgStagedPacketsMax,
  wgUdpSocketBufferBytes: () => wgUdpSocketBufferBytes,
  wgUnderLoadAfterMs: () => wgUnderLoadAfterMs,
  wgUnderLoadHandshakesPerSecond: () => wgUnderLoadHandshakesPerSecond
});
var MiB = 1024 * 1024;
var GiB = 1024 * MiB;
var streamServerPort = 7890;
var streamServerHost = "0.0.0.0";
var adminListen = "127.0.0.1:7891";
var minAgentVersionFloor = "0.9.4";
var shutdownDeadlineMs = 5e3;
var childRestartBaseMs = 1e3;
var childRestartMaxMs = 6e4;
var inspectionRingSize = 1e3;
var adminEventsKeepAliveMs = 15e3;
var adminRequestTimeoutMs = 5e3;
var adminBodyLimitBytes = 64 * 1024;
var syncIntervalWatchingMs = 3e3;
var syncIntervalIdleMs = 6e4;
var syncFailureBackoffBaseMs = 1e3;
var syncFailureBackoffMaxMs = 6e4;
var unauthorizedRetryMs = 6e4;
var registerRetryBaseMs = 1e3;
var registerRetryMaxMs = 6e4;
var httpRequestTimeoutMs = 3e4;
var appliedControlMemory = 1e3;
var wakeToSyncLimitMs = 100;
var backoffJitterRatio = 0.5;
var versionTooOldRetryMs = 5 * 6e4;
var unknownControlKindMemory = 100;
var downlinkMode = "auto";
var serverHeartbeatMs = 15e3;
var livenessTimeoutMs = 4e4;
var sseMaxLineBytes = 256 * 1024;
var sseMaxEventBytes = 1 * MiB;
var sseFailuresBeforeFallback = 3;
var longPollReprobeMs = 5 * 6e4;
var sseReconnectDelayMs = 1e3;
var wakeRetryDelayMs = 1e3;
var sseReconnectMaxMs = 6e4;
var wakeRetryMaxMs = 6e4;
var sseConnectTimeoutMs = 1e4;
var wakeHeldReconnectMs = 1e4;
var readinessPollMs = 200;
var readinessDeadlineMs = 6e4;
var playerHeadProbeBudgetMs = 3e4;
var hlsSegmentSeconds = 2;
var ffmpegMaxRestarts = 3;
var probeCacheTtlMs = 30 * 6e4;
var hwDiagnosticTimeoutMs = 1e4;
var thumbnailTimeoutMs = 2e4;
var hwTestEncodeHeightsPx = [1080, 2160];
var softwareMaxTranscodeHeightPx = 1080;
var hwReprobeAfterFailureMs = 10 * 6e4;
var thumbnailMaxConcurrent = 2;
var urlSourceRwTimeoutUs = 15e6;
var hlsSegmentWaitMs = 1e4;
var hlsSeekAheadSegments = 1;
var hlsSeekWarmupFrames = 0;
var hlsSeekWarmupMaxSegments = 5;
var hlsSegmentScanMs = 200;
var hlsReadChunkBytes = 1024 * 1024;
var ffmpegStderrTailLines = 20;
var probeTimeoutMs = 3e4;
var subtitleExtractTimeoutMs = 12e4;
var streamMaxRanges = 64;
var streamReadChunkBytes = 512 * 1024;
var streamFirstReadBytes = 64 * 1024;
var streamWholeReadBytes = 1024 * 1024;
var streamReadsInFlight = 2;
var streamReadPoolSlabBytes = 1024 * 1024;
var streamReadPoolSlabs = 16;
var streamReadPoolSlabsPerResponse = 2;
var streamInlineReadBytes = 1024 * 1024;
var streamInlineReadSlowMs = 2;
var streamInlineReadCooldownMs = 1e4;
var streamBlockInputSampleMs = 1e3;
var streamSendBuffers = 3;
var streamOpenFileCacheMs = 5e3;
var streamServerKeepAliveTimeoutMs = 5e3;
var streamServerHeadersTimeoutMs = 2e4;
var directUrlHeadTimeoutMs = 15e3;
var directUrlHeadersTimeoutMs = 15e3;
var directUrlBodyTimeoutMs = 3e4;
var directUrlMaxRedirections = 5;
var thumbnailMaxQueue = 8;
var thumbnailRetryAfterSeconds = 2;
var thumbnailMaxWidth = 1920;
var thumbnailMinWidth = 16;
var thumbnailMaxSeekSeconds = 7 * 24 * 3600;
var thumbnailMaxBytes = 16 * MiB;
var hlsCacheEnabled = true;
var hlsCacheSizeGb = 5;
var hlsCacheDir = "~/.cache/media-agent/hls";
var hlsCacheBytesPerGb = 1e9;
var hlsCacheStatsLogIntervalMs = 24 * 36e5;
var hlsCacheLookupTimeoutMs = 15e3;
var hlsCacheClearWaitMs = 3e4;
var downloadsDir = "~/Downloads/media-agent";
var seedRatio = 1;
var torrentFileMaxBytes = 10 * MiB;
var tasksJsonMinWriteIntervalMs = 1e3;
var torrentFetchTimeoutMs = 3e4;
var torrentProgressIntervalMs = 1e3;
var torrentStopTimeoutMs = 1e4;
var torrentMetadataDirName = "torrents";
var torrentDht = true;
var torrentLsd = true;
var torrentPex = true;
var torrentUtp = true;
var torrentUtpFallbackMs = 1e3;
var torrentNatUpnp = true;
var torrentNatPmp = true;
var torrentPort = 0;
var torrentMaxConns = 55;
var torrentAnnounceRetryMinMs = 2e3;
var torrentAnnounceRetryMaxMs = 3e5;
var torrentStoreMaxOpenFiles = 256;
var torrentStoreReadBudgetBytes = 32 * MiB;
var torrentPieceMapWriteIntervalMs = 5e3;
var torrentAnnounceJitter = 0.1;
var librarySyncTimeoutMs = 10 * 6e4;
var libraryWatchEnabled = true;
var libraryRescanMinutes = 60;
var libraryDebounceMs = 5e3;
var libraryRetryBaseMs = 5e3;
var libraryRetryMaxMs = 10 * 6e4;
var libraryPartMaxItems = 5e3;
var libraryProbeConcurrency = 2;
var libraryPlaybackPauseMs = 200;
var libraryFsConcurrency = 2;
var libraryProbeNice = 19;
var libraryYieldEveryFiles = 256;
var librarySkipExamples = 5;
var libraryProgressLogMs = 1e4;
var libraryScanWaitMs = 4e3;
var libraryIndexFileName = "library-index.json";
var vpnEnabled = false;
var vpnHandshakeMaxAgeMs = 18e4;
var vpnRetryUnansweredMaxMs = 3e4;
var vpnSampleIntervalMs = 1e3;
var vpnKickIntervalMs = 5e3;
var vpnRefetchAfterMs = 12e4;
var vpnRetryBaseMs = 5e3;
var vpnRetryMaxMs = 3e5;
var vpnRefusalRetryMs = 10 * 6e4;
var vpnPeerPortDefault = 51413;
var vpnPeerConnectTimeoutMs = 2e4;
var funnelEnabledFreshInstall = true;
var funnelEnabledLegacyConfig = false;
var funnelRestartBaseMs = 2e3;
var funnelRestartMaxMs = 5 * 6e4;
var upgradeRestartExitCode = 75;
var upgradeMaxArtifactBytes = 256 * 1024 * 1024;
var upgradeDownloadTimeoutMs = 10 * 6e4;
var upgradeSmokeTestTimeoutMs = 3e4;
var upgradeExtractTimeoutMs = 2 * 6e4;
var upgradeReportRetryMs = 15e3;
var upgradeCommandTimeoutMs = 15 * 6e4;
var upgradeStateFileName = "upgrade.json";
var upgradeVersionsDirName = "versions";
var upgradeCurrentLinkName = "current";
var funnelHelperUrlBase = "https://github.com/cloudflare/cloudflared/releases/latest/download/";
var funnelHelperPath = "";
var funnelHelperMinBytes = 5 * MiB;
var funnelHelperMaxBytes = 256 * MiB;
var funnelHelperDownloadTimeoutMs = 5 * 6e4;
var funnelHealthyResetMs = 60 * 6e4;
var funnelRateLimitedRestartMs = 6e4;
var funnelReadyPollMs = 250;
var funnelStartTimeoutMs = 6e4;
var funnelMetricsRequestTimeoutMs = 2e3;
var funnelHelperOutputTailLines = 40;
var upnpTimeoutMs = 5e3;
var upnpLeaseSeconds = 7200;
var addressesRefreshMs = 5 * 6e4;
var addressesRetryMs = 6e4;
var wgRekeyAfterMessages = 2 ** 60;
var wgRejectAfterMessages = Number.MAX_SAFE_INTEGER;
var wgRekeyAfterTimeMs = 12e4;
var wgRejectAfterTimeMs = 18e4;
var wgRekeyAttemptTimeMs = 9e4;
var wgRekeyTimeoutMs = 5e3;
var wgRekeyTimeoutJitterMaxMs = 333;
var wgMaxHandshakeAttempts = 18;
var wgKeepaliveTimeoutMs = 1e4;
var wgCookieRefreshTimeMs = 12e4;
var wgHandshakeInitiationMinIntervalMs = 20;
var wgUnderLoadHandshakesPerSecond = 64;
var wgUnderLoadAfterMs = 1e3;
var wgReplayWindowPackets = 8192;
var wgStagedPacketsMax = 128;
var wgDefaultMtu = 1420;
var wgPaddingMultipleBytes = 16;
var wgIndexAllocationAttempts = 64;
var wgUdpSocketBufferBytes = 4 * MiB;
var netstackIpTtl = 64;
var netstackEphemeralPortMin = 49152;
var netstackEphemeralPortMax = 65535;
var tcpReceiveBufferBytes = 1 * MiB;
var tcpSendBufferBytes = 1 * MiB;
var tcpDefaultMss = 536;
var tcpDelayedAckMs = 40;
var tcpInitialRtoMs = 1e3;
var tcpMinRtoMs = 200;
var tcpMaxRtoMs = 6e4;
var tcpPersistMaxMs = 6e4;
var tcpTlpMinMs = 10;
var tcpTlpDelayedAckMs = 200;
var tcpMaxRetransmits = 12;
var tcpSynRetries = 6;
var tcpTimeWaitMs = 6e4;
var tcpListenBacklog = 128;
var netstackDnsQueryTimeoutMs = 2e3;
var netstackDnsQueryAttempts = 3;
var netstackPingTimeoutMs = 5e3;
var tunnelTcpReceiveBufferBytes = 4 * MiB;
var tunnelTcpSendBufferBytes = 4 * MiB;
var tunnelWaitUntilUpMs = 3e4;
var tunnelHandshakeLostInitiations = 4;
var streamTokenSkewSeconds = 60;
var streamTokenCacheEntries = 256;
var referenceServerHost = "127.0.0.1";
var referenceServerCliPort = 8780;
var referenceStreamTokenTtlSeconds = 6 * 60 * 60;
var referenceWaitForTimeoutMs = 1e4;
var referenceMaxBodyBytes = 64 * MiB;
var referenceFaultStatus = 503;
var playerReadyGraceMs = 5e3;
var playerHeadProbeIntervalMs = 500;
var playerStatusPollMs = 1e3;
var playerAssetMaxAgeSeconds = 24 * 60 * 60;
var stateDir = "~/.local/state/media-agent";
var configFileName = "config.toml";
var adminTokenFileName = "admin.token";
var agentIdFileName = "agent-id";
var tasksFileName = "tasks.json";
var appDirName = "media-agent";
var configDir = "~/.config/media-agent";
var hlsCacheDirName = "hls";
var serverMirrors = [];
var streamUpnpEnabled = true;
var streamInlineReadsEnabled = true;
var transcodeEncoder = "auto";
var ffmpegPath = "";
var ffprobePath = "";
var libraryPaths = [];
var embeddedReferenceServerPort = 7880;
var hlsInputTokenTtlSeconds = 3600;
var metricsEventLoopResolutionMs = 1e3;
var metricsLatencyBucketsSeconds = [5e-3, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
var metricsReadyBucketsSeconds = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];
var accessTokenEnvVar = "MEDIA_AGENT_ACCESS_TOKEN";

export {
  streamServerPort,
  streamServerHost,
  adminListen,
  minAgentVersionFloor,
  shutdownDeadlineMs,
  childRestartBaseMs,
  childRestartMaxMs,
  inspectionRingSize,
  adminEventsKeepAliveMs,
  adminRequestTimeoutMs,
  adminBodyLimitBytes,
  httpRequestTimeoutMs,
  downlinkMode,
  serverHeartbeatMs,
  sseMaxLineBytes,
  sseMaxEventBytes,
  sseConnectTimeoutMs,
  wakeHeldReconnectMs,
  readinessPollMs,
  readinessDeadlineMs,
  playerHeadProbeBudgetMs,
  hlsSegmentSeconds,
  ffmpegMaxRestarts,
  probeCacheTtlMs,
  hwDiagnosticTimeoutMs,
  thumbnailTimeoutMs,
  hwTestEncodeHeightsPx,
  softwareMaxTranscodeHeightPx,
  thumbnailMaxConcurrent,
  urlSourceRwTimeoutUs,
  hlsSegmentWaitMs,
  hlsSeekAheadSegments,
  hlsSeekWarmupFrames,
  hlsSeekWarmupMaxSegments,
  hlsSegmentScanMs,
  hlsReadChunkBytes,
  ffmpegStderrTailLines,
  probeTimeoutMs,
  streamMaxRanges,
  streamReadChunkBytes,
  streamFirstReadBytes,
  streamWholeReadBytes,
  streamReadsInFlight,
  streamReadPoolSlabBytes,
  streamReadPoolSlabs,
  streamReadPoolSlabsPerResponse,
  streamInlineReadBytes,
  streamInlineReadSlowMs,
  streamInlineReadCooldownMs,
  streamBlockInputSampleMs,
  streamSendBuffers,
  streamOpenFileCacheMs,
  streamServerKeepAliveTimeoutMs,
  streamServerHeadersTimeoutMs,
  directUrlHeadTimeoutMs,
  directUrlHeadersTimeoutMs,
  directUrlBodyTimeoutMs,
  directUrlMaxRedirections,
  thumbnailMaxQueue,
  thumbnailRetryAfterSeconds,
  thumbnailMaxWidth,
  thumbnailMinWidth,
  thumbnailMaxSeekSeconds,
  thumbnailMaxBytes,
  hlsCacheEnabled,
  hlsCacheSizeGb,
  hlsCacheDir,
  hlsCacheBytesPerGb,
  hlsCacheClearWaitMs,
  downloadsDir,
  seedRatio,
  torrentFileMaxBytes,
  tasksJsonMinWriteIntervalMs,
  torrentFetchTimeoutMs,
  torrentProgressIntervalMs,
  torrentStopTimeoutMs,
  torrentMetadataDirName,
  torrentDht,
  torrentLsd,
  torrentPex,
  torrentUtp,
  torrentUtpFallbackMs,
  torrentNatUpnp,
  torrentNatPmp,
  torrentPort,
  torrentMaxConns,
  torrentAnnounceRetryMinMs,
  torrentAnnounceRetryMaxMs,
  torrentStoreMaxOpenFiles,
  torrentStoreReadBudgetBytes,
  torrentPieceMapWriteIntervalMs,
  torrentAnnounceJitter,
  librarySyncTimeoutMs,
  libraryWatchEnabled,
  libraryRescanMinutes,
  libraryProbeNice,
  libraryYieldEveryFiles,
  librarySkipExamples,
  libraryIndexFileName,
  vpnEnabled,
  vpnPeerPortDefault,
  vpnPeerConnectTimeoutMs,
  funnelEnabledFreshInstall,
  funnelEnabledLegacyConfig,
  upgradeRestartExitCode,
  upgradeMaxArtifactBytes,
  upgradeDownloadTimeoutMs,
  upgradeSmokeTestTimeoutMs,
  upgradeExtractTimeoutMs,
  upgradeReportRetryMs,
  upgradeCommandTimeoutMs,
  upgradeStateFileName,
  upgradeVersionsDirName,
  upgradeCurrentLinkName,
  funnelHelperUrlBase,
  funnelHelperPath,
  funnelHelperMinBytes,
  funnelHelperMaxBytes,
  funnelHelperDownloadTimeoutMs,
  funnelReadyPollMs,
  funnelMetricsRequestTimeoutMs,
  funnelHelperOutputTailLines,
  upnpTimeoutMs,
  upnpLeaseSeconds,
  wgRekeyAfterMessages,
  wgRejectAfterMessages,
  wgRekeyAfterTimeMs,
  wgRejectAfterTimeMs,
  wgRekeyTimeoutMs,
  wgRekeyTimeoutJitterMaxMs,
  wgMaxHandshakeAttempts,
  wgKeepaliveTimeoutMs,
  wgCookieRefreshTimeMs,
  wgHandshakeInitiationMinIntervalMs,
  wgUnderLoadHandshakesPerSecond,
  wgUnderLoadAfterMs,
  wgReplayWindowPackets,
  wgStagedPacketsMax,
  wgDefaultMtu,
  wgPaddingMultipleBytes,
  wgIndexAllocationAttempts,
  wgUdpSocketBufferBytes,
  netstackIpTtl,
  netstackEphemeralPortMin,
  netstackEphemeralPortMax,
  tcpReceiveBufferBytes,
  tcpSendBufferBytes,
  tcpDefaultMss,
  tcpDelayedAckMs,
  tcpInitialRtoMs,
  tcpMinRtoMs,
  tcpMaxRtoMs,
  tcpPersistMaxMs,
  tcpTlpMinMs,
  tcpTlpDelayedAckMs,
  tcpMaxRetransmits,
  tcpSynRetries,
  tcpTimeWaitMs,
  tcpListenBacklog,
  netstackDnsQueryTimeoutMs,
  netstackDnsQueryAttempts,
  netstackPingTimeoutMs,
  tunnelTcpReceiveBufferBytes,
  tunnelTcpSendBufferBytes,
  tunnelWaitUntilUpMs,
  tunnelHandshakeLostInitiations,
  streamTokenSkewSeconds,
  streamTokenCacheEntries,
  referenceServerHost,
  referenceServerCliPort,
  referenceStreamTokenTtlSeconds,
  referenceWaitForTimeoutMs,
  referenceMaxBodyBytes,
  referenceFaultStatus,
  playerReadyGraceMs,
  playerHeadProbeIntervalMs,
  playerStatusPollMs,
  playerAssetMaxAgeSeconds,
  stateDir,
  configFileName,
  adminTokenFileName,
  agentIdFileName,
  tasksFileName,
  appDirName,
  configDir,
  hlsCacheDirName,
  serverMirrors,
  streamUpnpEnabled,
  streamInlineReadsEnabled,
  transcodeEncoder,
  ffmpegPath,
  ffprobePath,
  libraryPaths,
  embeddedReferenceServerPort,
  hlsInputTokenTtlSeconds,
  metricsEventLoopResolutionMs,
  metricsLatencyBucketsSeconds,
  metricsReadyBucketsSeconds,
  accessTokenEnvVar,
  defaults_exports
};

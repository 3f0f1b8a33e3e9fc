// The only place defaults, timeouts and limits live (design.md house rule 2). Units are in the
// names. Machines receive these as input or named delays; services receive them as options, so
// tests can shrink any of them without touching code.

export const MiB = 1024 * 1024
export const GiB = 1024 * MiB

// ---- identity and listeners (protocol.md section 0, 6) -------------------------------------
export const streamServerPort = 7890
export const streamServerHost = '0.0.0.0'
export const adminListen = '127.0.0.1:7891'
export const minAgentVersionFloor = '0.9.4'

// ---- process lifecycle ----------------------------------------------------------------------
export const shutdownDeadlineMs = 5_000
export const childRestartBaseMs = 1_000
export const childRestartMaxMs = 60_000
export const inspectionRingSize = 1_000
/** After the agent has started, this long before V8's compilers come back and the heap is compacted (issue 18, docs/operations.md "Idle footprint"). */
export const startupMemorySettleMs = 5_000
/** The compilers held off during start-up come back after this long whatever happens to start-up. */
export const startupCompilerHoldMaxMs = 30_000
/**
 * glibc malloc settings the daemon starts with (the CLI's shebang, `npm start`; docs/operations.md
 * "Memory allocator"): buffers of 128 KiB and more are mmapped and so returned to the system when
 * freed (glibc otherwise raises that threshold to the largest buffer freed, and 1 MiB piece
 * buffers then stay in its heap), and two arenas instead of one per thread that ever allocated.
 * Measured with 1,000 torrents gone dormant: 128 MiB RSS instead of 205. Not passed on to ffmpeg,
 * ffprobe and the thumbnailer (runtime/child-env.ts): their threads allocate on their own.
 */
export const daemonMallocEnv: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' }
/** After torrents went dormant, this long without another before one compacting GC gives their heap pages back (memory-settle.ts). */
export const memorySettleQuietMs = 5_000
/** Least time between two of those GCs (each is a full collection: ~10-60 ms on a seedbox's heap). */
export const memorySettleMinIntervalMs = 60_000
/** SSE comment interval on the admin listener's /debug/events. */
export const adminEventsKeepAliveMs = 15_000
/** How long the CLI waits for the daemon's admin listener. */
export const adminRequestTimeoutMs = 5_000
/** Largest admin request body (the CLI's commands are a few bytes of JSON). */
export const adminBodyLimitBytes = 64 * 1024

// ---- control plane (contract 8, protocol.md 1) ----------------------------------------------
export const syncIntervalWatchingMs = 3_000
export const syncIntervalIdleMs = 60_000
export const syncFailureBackoffBaseMs = 1_000
export const syncFailureBackoffMaxMs = 60_000
export const unauthorizedRetryMs = 60_000
export const registerRetryBaseMs = 1_000
export const registerRetryMaxMs = 60_000
export const httpRequestTimeoutMs = 30_000
export const appliedControlMemory = 1_000
export const wakeToSyncLimitMs = 100
/** Backoff delays keep `1 - ratio` of the exponential step and add up to `ratio` of it at random. */
export const backoffJitterRatio = 0.5
/** A sync or register rejected with 426 (agent below the server's floor) is retried this slowly. */
export const versionTooOldRetryMs = 5 * 60_000
/** Unknown control kinds are logged once each; the set of kinds already logged is bounded. */
export const unknownControlKindMemory = 100

// ---- downlink (contract 6.1, 8; protocol.md 3) ----------------------------------------------
export const downlinkMode = 'auto' as const
export const serverHeartbeatMs = 15_000
export const livenessTimeoutMs = 40_000
export const sseMaxLineBytes = 256 * 1024
export const sseMaxEventBytes = 1 * MiB
export const sseFailuresBeforeFallback = 3
export const longPollReprobeMs = 5 * 60_000
export const sseReconnectDelayMs = 1_000
export const wakeRetryDelayMs = 1_000
/** SSE reopen and wake retry delays double per consecutive failure up to these caps. */
export const sseReconnectMaxMs = 60_000
export const wakeRetryMaxMs = 60_000
/** Per-URL wait for the SSE response headers while walking base_url and the mirrors. */
export const sseConnectTimeoutMs = 10_000
/**
 * A wake long-poll held at least this long that then ends in a gateway error (502/503/504) or a
 * cut socket was ended by a proxy's read timeout, not refused: reconnect at once, no backoff.
 */
export const wakeHeldReconnectMs = 10_000

// ---- stream sessions and HLS (contract 3, 4.3, 8) -------------------------------------------
export const readinessPollMs = 200
export const readinessDeadlineMs = 60_000
export const playerHeadProbeBudgetMs = 30_000
export const hlsSegmentSeconds = 2
export const ffmpegMaxRestarts = 3
export const probeCacheTtlMs = 30 * 60_000
export const hwDiagnosticTimeoutMs = 10_000
export const thumbnailTimeoutMs = 20_000
// ---- hardware encoders (issue 12, docs/encoders.md); hwDiagnosticTimeoutMs above bounds the whole detection
/** Test-encode frame heights: the first must pass for a candidate to work, the second raises its cap. */
export const hwTestEncodeHeightsPx: readonly number[] = [1080, 2160]
/** libx264's transcode-resolution cap: real-time superfast above 1080p needs more cores than most hosts have. */
export const softwareMaxTranscodeHeightPx = 1080
/** A hardware encoder that failed in a session stays unhealthy (sessions use the next choice) until this re-probe. */
export const hwReprobeAfterFailureMs = 10 * 60_000
/** Waiters on detection (register, a re-probe request) give the detect actor this long past its own bound before giving up on it. */
export const hwDiagnosticGraceMs = 2_000
export const thumbnailMaxConcurrent = 2
export const urlSourceRwTimeoutUs = 15_000_000
/** HLS engine (issue 6; docs/hls.md): a segment request waits this long for ffmpeg, then 404s (the player retries). */
export const hlsSegmentWaitMs = 10_000
/**
 * A segment more than this many past the encoder's newest closed one (or behind its start)
 * restarts ffmpeg there. 1: waiting costs about one segment's encode per segment ahead, a
 * restart about one segment's encode plus ffmpeg's start (issue 17, docs/hls.md "Seeking").
 */
export const hlsSeekAheadSegments = 1
/**
 * A seek-restart may encode and discard this many frames before the wanted segment (rate-control
 * warm-up, docs/hls.md). 0: a seek starts at the wanted segment, because a warm-up multiplies the
 * wait a person sees after a seek (3 segments at 30 fps) for frame-identity a viewer cannot see.
 */
export const hlsSeekWarmupFrames = 0
/** ...and at most this many segments of warm-up. */
export const hlsSeekWarmupMaxSegments = 5
/**
 * A seek-restart's wanted segment has a keyframe every this many seconds (the boundaries stay the
 * only cuts): the browser decodes from the keyframe before the asked time, so a seek into the
 * middle of a 1080p segment decodes ~13 frames instead of ~30 (issue 17, docs/hls.md "Seeking").
 */
export const hlsSeekKeyframeSeconds = 0.5
/** The audio rate a seek-run's timeline shift assumes when the probe gave none (AAC priming is 1024 samples at it). */
export const hlsAssumedAudioSampleRateHz = 48_000
/**
 * The encoder-delay probe (a seek-run's timeline, docs/hls.md "One timeline for every run"): this
 * many frames of this height through the session's encoder options. One frame shows no delay
 * (libx264 reorders only with frames to reorder); 12 covers any B-frame run an H.264 encoder uses.
 */
export const hlsEncoderDelayProbeFrames = 12
export const hlsEncoderDelayProbeHeightPx = 360
/** The probe's ffmpeg is killed (by its process group) when it has not finished by then: a seek waiting for it is not held longer. */
export const hlsEncoderDelayProbeTimeoutMs = 10_000
/** How often the engine looks for newly written segments of the running ffmpeg. */
export const hlsSegmentScanMs = 200
/**
 * A segment (1-5 MB) is read in chunks this large: one or a few thread-pool reads instead of
 * 64 KiB ones, each of which waits its turn on a busy host (issue 17: ~40-80 ms for a 720p segment).
 */
export const hlsReadChunkBytes = 1024 * 1024
/** Lines of ffmpeg's stderr kept for the error of a session that gave up. */
export const ffmpegStderrTailLines = 20
/** ffprobe gets this long per source before it is killed. */
export const probeTimeoutMs = 30_000
/** Subtitle extraction to WebVTT gets this long per track. */
export const subtitleExtractTimeoutMs = 120_000

// ---- stream server (issue 5; contract 4.2, 5, 8; protocol.md 2; docs/stream-server.md) -------
/** More ranges than this in one Range header: the whole file is served (nginx `max_ranges`). */
export const streamMaxRanges = 64
/** Read size for local files; large reads keep the loopback throughput near nginx's sendfile. */
export const streamReadChunkBytes = 512 * 1024
/** The first read of a body is small, so its first bytes leave sooner. */
export const streamFirstReadBytes = 64 * 1024
/** What is left of a range after its first read is read at once up to this (a player's seek). */
export const streamWholeReadBytes = 1024 * 1024
/** Positional reads in flight per response: each is a thread-pool hop, so they overlap. */
export const streamReadsInFlight = 2
/** Read buffers reused across responses (no page faults, no GC for a seek's 1 MiB): slab size, */
export const streamReadPoolSlabBytes = 1024 * 1024
/** how many idle slabs are kept (16 MiB), */
export const streamReadPoolSlabs = 16
/** and how many one response may borrow (the rest of a long read allocates as before). */
export const streamReadPoolSlabsPerResponse = 2
/** Local-disk file reads up to this size run on the event loop while they hit the page cache (as nginx reads); 0: never. */
export const streamInlineReadBytes = 1024 * 1024
/** An inline read slower than this that counted block input (ru_inblock) came from the disk: */
export const streamInlineReadSlowMs = 2
/** the file's reads then go to the thread pool for this long. */
export const streamInlineReadCooldownMs = 10_000
/** How often the process's block-input count (getrusage) is sampled for that check: ~15 µs a call. */
export const streamBlockInputSampleMs = 1_000
/** Buffers one single-range answer may hold at once, being read or queued on the socket (its backpressure). */
export const streamSendBuffers = 3
/** An open descriptor (with its fstat) is revalidated this often: closed when idle, else kept while the path's stat is unchanged (nginx open_file_cache_valid). */
export const streamOpenFileCacheMs = 5_000
export const streamServerKeepAliveTimeoutMs = 5_000
export const streamServerHeadersTimeoutMs = 20_000
/** Debrid direct links: the one HEAD at session registration, then every ranged GET. */
export const directUrlHeadTimeoutMs = 15_000
export const directUrlHeadersTimeoutMs = 15_000
export const directUrlBodyTimeoutMs = 30_000
export const directUrlMaxRedirections = 5
/** Thumbnail jobs waiting for a slot beyond thumbnailMaxConcurrent; more answer 503. */
export const thumbnailMaxQueue = 8
export const thumbnailRetryAfterSeconds = 2
export const thumbnailMaxWidth = 1920
export const thumbnailMinWidth = 16
export const thumbnailMaxSeekSeconds = 7 * 24 * 3600
export const thumbnailMaxBytes = 16 * MiB

// ---- HLS segment cache (contract 2.6, 2.7) --------------------------------------------------
export const hlsCacheEnabled = true
export const hlsCacheSizeGb = 5
export const hlsCacheDir = '~/.cache/media-agent/hls'
/** `size_gb` is in decimal gigabytes (protocol.md 7.1: `0.05` is 50 MB). */
export const hlsCacheBytesPerGb = 1_000_000_000
/** The one log line with hits, misses, bytes and entries (contract 2.6). */
export const hlsCacheStatsLogIntervalMs = 24 * 3600_000
/** A lookup unanswered this long (the cache actor restarting) transcodes uncached. */
export const hlsCacheLookupTimeoutMs = 15_000
/** `cache clear` waits at most this long for the removals before it answers. */
export const hlsCacheClearWaitMs = 30_000

// ---- torrents ---------------------------------------------------------------------------------
export const downloadsDir = '~/Downloads/media-agent'
export const seedRatio = 1.0
export const torrentFileMaxBytes = 10 * MiB
export const tasksJsonMinWriteIntervalMs = 1_000
export const torrentFetchTimeoutMs = 30_000
export const torrentProgressIntervalMs = 1_000
export const torrentStopTimeoutMs = 10_000
export const torrentMetadataDirName = 'torrents'
// Peer discovery and port mapping of the engine; tests turn off whatever reaches past loopback.
export const torrentDht = true
export const torrentLsd = true
export const torrentPex = true
export const torrentUtp = true
/**
 * With uTP on, an outgoing uTP attempt that has not connected after this is dropped and the
 * address is tried over TCP at once (webtorrent alone waits for four 5 s uTP timeouts).
 */
export const torrentUtpFallbackMs = 1_000
/**
 * With no live torrent the uTP listener is closed (its 20 ms timer wakes the process:
 * services/torrent/utp-listener.ts); its close waits this long at most for the socket's last connections.
 */
export const torrentUtpListenerCloseWaitMs = 30_000
/** The reopened uTP listener's send and receive buffers: what webtorrent's conn-pool gives its own. */
export const torrentUtpListenerBufferBytes = 1024 * 1024
export const torrentNatUpnp = true
export const torrentNatPmp = true
/** 0: a random free port. */
export const torrentPort = 0
export const torrentMaxConns = 55
/** A tracker that has not answered since the torrent started (or finished) is asked again after this, doubling. */
export const torrentAnnounceRetryMinMs = 2_000
export const torrentAnnounceRetryMaxMs = 300_000
// ---- torrent file store and resume (issue 20, docs/torrents.md) ----
/** Open file descriptors the engine's file store keeps for all torrents together (least recently used closed first). */
export const torrentStoreMaxOpenFiles = 256
/** Bytes of piece reads in flight for all torrents together (one buffer each): bounds the memory of verifying many torrents at once. */
export const torrentStoreReadBudgetBytes = 32 * MiB
/** Free piece buffers the engine keeps per piece length for the next pieces (piece-pool.ts): fewer ArrayBuffers to free, fewer full GCs. */
export const torrentPiecePoolMaxFreePerLength = 16
/** Bytes the engine keeps in free piece buffers in all. */
export const torrentPiecePoolMaxFreeBytes = 32 * MiB
/** Free piece buffers are dropped after this long without a piece written (an idle engine keeps none). */
export const torrentPiecePoolIdleEmptyMs = 5_000
/**
 * The file store writes a piece in slices of at most this (one pwrite each, one after another):
 * the kernel sizes page-cache folios by the write, and 1 MiB folios come from the high-order free
 * memory a VM's balloon has handed back to the host, each page then faulted in again (2-4x the
 * kernel CPU of 128 KiB writes on this machine; docs/torrents.md, CPU, File writes).
 */
export const torrentStoreWriteSliceBytes = 128 * 1024
/** At most one verified-piece map write per torrent per this while pieces arrive (each one fdatasyncs the torrent's files). */
export const torrentPieceMapWriteIntervalMs = 5_000
/** Each tracker's re-announce period is shortened by a random fraction up to this, so torrents started together drift apart. */
export const torrentAnnounceJitter = 0.1
// ---- dormant torrents (issue 20, docs/torrents.md Dormant torrents) ----
/** A complete seeding torrent without peers (or readers) for this long keeps only its metadata until a peer or reader wakes it (`[downloads.torrent] idle_grace_s`). */
export const torrentIdleGraceMs = 10 * 60_000
/** A torrent gone (or restored) dormant is first announced at a random time within this: a restart's hundreds do not announce at once. */
export const torrentDormantFirstAnnounceSpreadMs = 60_000
/** How often a dormant torrent is announced when its trackers name no interval (or it has only the DHT). */
export const torrentDormantAnnounceIntervalMs = 30 * 60_000
/** A dormant torrent's one-shot announce gives up on trackers that have not answered by then. */
export const torrentDormantAnnounceTimeoutMs = 20_000
/** Dormant-torrent announces in flight at once; due ones wait for a slot (a restart's hundreds do not open hundreds of sockets). */
export const torrentDormantMaxAnnouncesInFlight = 8
/** Wire messages up to this size sent in one tick leave in one socket write (wire-tuning.ts); a block (16 KiB) never waits. */
export const torrentWireSmallMessageBytes = 256
/**
 * Blocks (16 KiB) the engine asks one peer for at once, at most (libtorrent's max_out_request_queue;
 * 8 MiB in flight): webtorrent's own depth is a second of the peer's speed, unbounded when the
 * peer sends no `reqq` (aria2c: ~5,000-10,000 at 300 MiB/s), and the wire scans it for every block.
 */
export const torrentWireMaxRequests = 500
/**
 * A peer with more than torrentWireMaxRequests minus this many blocks outstanding is not asked for
 * more yet: the next request pass asks for this many at once, in one write, instead of one pass and
 * one small write per block answered (only at rates where webtorrent itself would keep ~500 out).
 */
export const torrentWireRefillBlocks = 64
/**
 * The one buffer every TCP peer socket in the clear reads into (lent-reads.ts): a read takes at
 * most this much. Node's own sockets allocate 64 KiB per read.
 */
export const torrentSocketReadBytes = 64 * 1024

// ---- library-sync (contract 4.1, 8) -----------------------------------------------------------
export const librarySyncTimeoutMs = 10 * 60_000
// ---- library actor (issue 16; protocol.md 7.6; docs/library.md) ----
/** `[library] watch`: file-system watching of the roots. */
export const libraryWatchEnabled = true
/** `[library] rescan_minutes`: periodic rescan of roots that cannot be watched reliably (network, FUSE); 0: never. */
export const libraryRescanMinutes = 60
/** A change seen by the watcher starts a scan once the roots have been quiet this long. */
export const libraryDebounceMs = 5_000
/** A failed scan or upload is retried after this, doubling per consecutive failure, */
export const libraryRetryBaseMs = 5_000
/** up to this. */
export const libraryRetryMaxMs = 10 * 60_000
/** A `full` LibrarySync larger than this goes in parts under one scanId (protocol.md 7.6). */
export const libraryPartMaxItems = 5_000
/** ffprobe processes a scan runs at once (niced): an HLS session's ffmpeg never waits behind more. */
export const libraryProbeConcurrency = 2
/**
 * While a stream session is starting, a scan starts no ffprobe and looks again after this: on a
 * small host even niced process start-ups (~15 a second) cost an HLS session's ffmpeg over half
 * its time to readiness (docs/library.md).
 */
export const libraryPlaybackPauseMs = 200
/** stat/readdir calls a scan keeps in flight: the rest of libuv's 4 threads stay free for the stream server. */
export const libraryFsConcurrency = 2
/** Nice value of a scan's ffprobe processes (19: only idle CPU). */
export const libraryProbeNice = 19
/** A scan gives the event loop back (setImmediate) after this many files of synchronous work. */
export const libraryYieldEveryFiles = 256
/** Each kind of skipped file is logged once per scan, with at most this many example paths. */
export const librarySkipExamples = 5
/** Progress of a running scan is logged at most this often. */
export const libraryProgressLogMs = 10_000
/** How long `GET /api/library/scan?ticket=` holds a request open before answering `pending`. */
export const libraryScanWaitMs = 4_000
export const libraryIndexFileName = 'library-index.json'

// ---- VPN, funnel, upgrade (contract 2.7, 8) -------------------------------------------------
export const vpnEnabled = false
// ---- the vpn actor (issue 13; docs/vpn.md, protocol.md 7.3) ----
/** "Up" needs a handshake younger than this: WireGuard's Reject-After-Time. */
export const vpnHandshakeMaxAgeMs = 180_000
/** "Up" also needs no handshake retry unanswered for longer than this. */
export const vpnRetryUnansweredMaxMs = 30_000
/** How often the vpn actor samples the tunnel (handshake age, retries, bytes). */
export const vpnSampleIntervalMs = 1_000
/** While not up, an ICMP echo this often asks the tunnel for a handshake (WireGuard starts one only for traffic). */
export const vpnKickIntervalMs = 5_000
/** Connecting or down for this long: the config is fetched again (the server may have new keys). */
export const vpnRefetchAfterMs = 120_000
/** A failed vpn-config fetch (network, 5xx, bad config) is retried after this, doubling up to the max. */
export const vpnRetryBaseMs = 5_000
export const vpnRetryMaxMs = 300_000
/** A typed refusal (disabled, not_provisioned, slot_on_device) is asked again after this. */
export const vpnRefusalRetryMs = 10 * 60_000
/** The port listened on inside the tunnel (the one the provider forwards) when `[downloads.torrent] port` is 0. */
export const vpnPeerPortDefault = 51413
/** A peer connection through the tunnel gives up after this (webtorrent's own connect timeout is shorter). */
export const vpnPeerConnectTimeoutMs = 20_000
export const funnelEnabledFreshInstall = true
export const funnelEnabledLegacyConfig = false
export const funnelRestartBaseMs = 2_000
export const funnelRestartMaxMs = 5 * 60_000
// Upgrade (issue 15, protocol.md 7.5, docs/upgrade.md).
/** The exit code that asks the supervisor for a restart into `versions/current` (protocol.md 7.7). */
export const upgradeRestartExitCode = 75
/** A release artifact is ~11 MB (dist and its production dependencies); anything far past that is refused. */
export const upgradeMaxArtifactBytes = 256 * 1024 * 1024
export const upgradeDownloadTimeoutMs = 10 * 60_000
/** The installed version's `--version` must answer within this. */
export const upgradeSmokeTestTimeoutMs = 30_000
/** Extracting the artifact (system tar) must finish within this. */
export const upgradeExtractTimeoutMs = 2 * 60_000
/** A decided result whose post failed is posted again after this. */
export const upgradeReportRetryMs = 15_000
/** `media-agent update` waits this long for the sync and the attempt it starts. */
export const upgradeCommandTimeoutMs = 15 * 60_000
export const upgradeStateFileName = 'upgrade.json'
export const upgradeVersionsDirName = 'versions'
export const upgradeCurrentLinkName = 'current'
// ---- funnel helper and addresses (issue 14; protocol.md 7.4; docs/funnel.md) ----
/** `[funnel] helper_url`: the provider's latest-release download base; the asset name is appended. */
export const funnelHelperUrlBase = 'https://github.com/cloudflare/cloudflared/releases/latest/download/'
/** `[funnel] helper_path`: empty means the managed helper `<state_dir>/bin/cloudflared`. */
export const funnelHelperPath = ''
/** A downloaded helper outside this size window is refused (cloudflared is ~20-40 MB; an error page is a few KB). */
export const funnelHelperMinBytes = 5 * MiB
export const funnelHelperMaxBytes = 256 * MiB
export const funnelHelperDownloadTimeoutMs = 5 * 60_000
/** A running helper counts as healthy after this long up: its restart backoff starts again at the base. */
export const funnelHealthyResetMs = 60 * 60_000
/** The provider refused a quick tunnel (429 / error 1015): wait at least this long before the next try. */
export const funnelRateLimitedRestartMs = 60_000
/** How often the helper's metrics address is polled for /quicktunnel and /ready. */
export const funnelReadyPollMs = 250
/** A helper that has printed no URL or is not ready within this is killed and restarted with backoff. */
export const funnelStartTimeoutMs = 60_000
/** Each GET /quicktunnel or /ready on the helper's loopback metrics address gives up after this. */
export const funnelMetricsRequestTimeoutMs = 2_000
/** Lines of the helper's output kept for the log when it exits. */
export const funnelHelperOutputTailLines = 40
/** UPnP: discovery and each SOAP call give up after this; the mapping is retried after addressesRetryMs. */
export const upnpTimeoutMs = 5_000
/** Lease asked of the router (nat-api's minimum is 20 min; it renews 10 min before the end). */
export const upnpLeaseSeconds = 7_200
/** Interfaces and the UPnP external IP are looked at again this often (a DHCP change, a VPN up). */
export const addressesRefreshMs = 5 * 60_000
/** A failed UPnP mapping is tried again after this. */
export const addressesRetryMs = 60_000

// ---- WireGuard protocol (issue 7; whitepaper section 6 and 5.4.7, wireguard-go constants) ----
export const wgRekeyAfterMessages = 2 ** 60
// The protocol limit is 2^64 - 2^13 - 1; counters are JS numbers, exact up to 2^53 - 1, so the
// device stops there (unreachable in practice: 2^53 packets inside one 180 s session).
export const wgRejectAfterMessages = Number.MAX_SAFE_INTEGER
export const wgRekeyAfterTimeMs = 120_000
export const wgRejectAfterTimeMs = 180_000
export const wgRekeyAttemptTimeMs = 90_000
export const wgRekeyTimeoutMs = 5_000
export const wgRekeyTimeoutJitterMaxMs = 333
export const wgMaxHandshakeAttempts = 18 // wgRekeyAttemptTimeMs / wgRekeyTimeoutMs
export const wgKeepaliveTimeoutMs = 10_000
export const wgCookieRefreshTimeMs = 120_000
export const wgHandshakeInitiationMinIntervalMs = 20 // at most 50 initiations a second per peer
export const wgUnderLoadHandshakesPerSecond = 64
export const wgUnderLoadAfterMs = 1_000
export const wgReplayWindowPackets = 8192 // RFC 6479 bitmap; wireguard-go uses 8192 - 64 usable
export const wgStagedPacketsMax = 128
export const wgDefaultMtu = 1420
export const wgPaddingMultipleBytes = 16
export const wgIndexAllocationAttempts = 64
export const wgUdpSocketBufferBytes = 4 * MiB // SO_RCVBUF/SO_SNDBUF asked for (the kernel caps at net.core.[rw]mem_max)

// ---- userspace TCP/IP stack (issue 7; docs/netstack.md) -------------------------------------
export const netstackIpTtl = 64
export const netstackEphemeralPortMin = 49_152 // RFC 6335 dynamic range
export const netstackEphemeralPortMax = 65_535
export const tcpReceiveBufferBytes = 1 * MiB
export const tcpSendBufferBytes = 1 * MiB
export const tcpDefaultMss = 536 // RFC 9293 3.7.1: when the peer's SYN carries no MSS option
export const tcpDelayedAckMs = 40 // RFC 1122 allows up to 500; Linux's minimum is 40
export const tcpInitialRtoMs = 1_000 // RFC 6298 2.1
export const tcpMinRtoMs = 200 // RFC 6298 2.4 says 1 s; 200 ms like Linux (docs/netstack.md)
export const tcpMaxRtoMs = 60_000 // RFC 6298 2.5
export const tcpPersistMaxMs = 60_000
export const tcpTlpMinMs = 10 // tail loss probe floor (RFC 8985 PTO): above event-loop jitter
export const tcpTlpDelayedAckMs = 200 // RFC 8985 WCDelAckT: the peer's worst-case delayed ACK
export const tcpMaxRetransmits = 12
export const tcpSynRetries = 6 // 1+2+4+8+16+32+64 s: about two minutes to give up on a connect
export const tcpTimeWaitMs = 60_000 // 2 MSL with MSL = 30 s (Linux)
export const tcpListenBacklog = 128
export const netstackDnsQueryTimeoutMs = 2_000
export const netstackDnsQueryAttempts = 3
export const netstackPingTimeoutMs = 5_000

// ---- tunnel = WireGuard device + netstack (issue 7; docs/tunnel.md) --------------------------
export const tunnelTcpReceiveBufferBytes = 4 * MiB // window for one bulk stream at tunnel RTTs
export const tunnelTcpSendBufferBytes = 4 * MiB
export const tunnelWaitUntilUpMs = 30_000
export const tunnelHandshakeLostInitiations = 4 // unanswered in a row (5 s apart): the tunnel is reported down

// ---- stream tokens (protocol.md 2) ----------------------------------------------------------
export const streamTokenSkewSeconds = 60
/** Tokens the stream server remembers as verified (no HMAC per seek; expiry still checked each request). */
export const streamTokenCacheEntries = 256

// ---- reference web server (src/reference-server, docs/reference-server.md) ----------------------
export const referenceServerHost = '127.0.0.1'
/**
 * Records the reference server keeps of each kind (registrations, syncs, upgrade results, library
 * uploads), newest first out: `npm start` runs it for days, and each sync carries every task.
 * The latest register and sync of each agent are kept apart, whatever their age.
 */
export const referenceServerHistoryRecords = 1000
export const referenceServerCliPort = 8780
export const referenceStreamTokenTtlSeconds = 6 * 60 * 60
export const referenceWaitForTimeoutMs = 10_000
export const referenceMaxBodyBytes = 64 * MiB
export const referenceFaultStatus = 503
/**
 * Player page (issue 17, protocol.md 4): with no `ready` on its SSE this long, the page starts
 * HEAD-probing (sooner when the SSE fails or the agent's sync reports the session ready).
 */
export const playerReadyGraceMs = 5_000
/** Player page: one HEAD probe of the playlist (or stream URL) this often while probing (contract 4.2). */
export const playerHeadProbeIntervalMs = 500
/** Player page: the agent's reported state is re-read this often while the page is open. */
export const playerStatusPollMs = 1_000
/** hls.js served from node_modules: browsers may keep it this long (it changes only with the package). */
export const playerAssetMaxAgeSeconds = 24 * 60 * 60

// ---- paths ---------------------------------------------------------------------------------
export const stateDir = '~/.local/state/media-agent'
export const configFileName = 'config.toml'
export const adminTokenFileName = 'admin.token'
export const agentIdFileName = 'agent-id'
export const tasksFileName = 'tasks.json'

// ---- configuration file (protocol.md 5, contract 2.7) -----------------------------------------
export const appDirName = 'media-agent'
export const configDir = '~/.config/media-agent'
export const hlsCacheDirName = 'hls'
export const serverMirrors: readonly string[] = []
export const streamUpnpEnabled = true
/** `[stream] inline_reads`: page-cached local reads on the event loop (false: always the thread pool). */
export const streamInlineReadsEnabled = true
export const transcodeEncoder = 'auto' as const
/** Empty: the FFMPEG_PATH / FFPROBE_PATH environment variable, then a PATH lookup. */
export const ffmpegPath = ''
export const ffprobePath = ''
export const libraryPaths: readonly string[] = []

// ---- `npm start` with no user config: the embedded default (README "Set-up") ------------------
export const embeddedReferenceServerPort = 7880

// ---- HLS from a torrent file still downloading (docs/hls.md) ----------------------------------
//
// Lifetime of one minted input URL. A fresh one is minted for every process (ffprobe, each
// ffmpeg run, subtitle extraction); it must outlast the reconnects of one run (ffmpeg reopens the
// same URL, e.g. after `-rw_timeout` while pieces arrive).
export const hlsInputTokenTtlSeconds = 3600

// ---- operations: metrics, service install (issue 18, docs/operations.md) -------------------------
/** prom-client's event-loop delay monitor samples at this interval (each sample wakes the process). */
export const metricsEventLoopResolutionMs = 1_000
/** Buckets of the wake-to-sync and first-byte histograms (seconds). */
export const metricsLatencyBucketsSeconds: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
/** Buckets of the session-ready histogram (seconds; HLS readiness may take tens of seconds). */
export const metricsReadyBucketsSeconds: readonly number[] = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60]
/** `MEDIA_AGENT_ACCESS_TOKEN`: the access token, before `[server] access_token_file` and `access_token`. */
export const accessTokenEnvVar = 'MEDIA_AGENT_ACCESS_TOKEN'

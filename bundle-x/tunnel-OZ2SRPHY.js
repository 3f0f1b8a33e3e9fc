import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  systemClock
} from "./chunk-UIXNKJUF.js";
import {
  silentLogger
} from "./chunk-ZEVYCYFL.js";
import {
  netstackDnsQueryAttempts,
  netstackDnsQueryTimeoutMs,
  netstackEphemeralPortMax,
  netstackEphemeralPortMin,
  netstackIpTtl,
  netstackPingTimeoutMs,
  tcpDefaultMss,
  tcpDelayedAckMs,
  tcpInitialRtoMs,
  tcpListenBacklog,
  tcpMaxRetransmits,
  tcpMaxRtoMs,
  tcpMinRtoMs,
  tcpPersistMaxMs,
  tcpReceiveBufferBytes,
  tcpSendBufferBytes,
  tcpSynRetries,
  tcpTimeWaitMs,
  tcpTlpDelayedAckMs,
  tcpTlpMinMs,
  tunnelHandshakeLostInitiations,
  tunnelTcpReceiveBufferBytes,
  tunnelTcpSendBufferBytes,
  tunnelWaitUntilUpMs,
  wgCookieRefreshTimeMs,
  wgDefaultMtu,
  wgHandshakeInitiationMinIntervalMs,
  wgIndexAllocationAttempts,
  wgKeepaliveTimeoutMs,
  wgMaxHandshakeAttempts,
  wgPaddingMultipleBytes,
  wgRejectAfterMessages,
  wgRejectAfterTimeMs,
  wgRekeyAfterMessages,
  wgRekeyAfterTimeMs,
  wgRekeyTimeoutJitterMaxMs,
  wgRekeyTimeoutMs,
  wgReplayWindowPackets,
  wgStagedPacketsMax,
  wgUdpSocketBufferBytes,
  wgUnderLoadAfterMs,
  wgUnderLoadHandshakesPerSecond
} from "./chunk-4XQBZWSZ.js";
import {
  DnsResolveError,
  InternalError,
  NetstackAddressInUseError,
  NetstackClosedError,
  NetstackInvalidArgumentError,
  NetstackPingTimeoutError,
  TcpConnectionRefusedError,
  TcpConnectionResetError,
  TcpTimeoutError,
  TunnelClosedError,
  TunnelConfigError,
  TunnelDownError,
  WireGuardConfigError,
  WireGuardHandshakeTimeoutError,
  WireGuardSocketError
} from "./chunk-7UR2AQZP.js";
import "./chunk-V4RWK56N.js";

// dist/services/netstack/checksum.js
function sumWords(data, start, end, initial = 0) {
  let sum = initial;
  let i = start;
  const evenEnd = end - (end - start & 1);
  for (; i < evenEnd; i += 2)
    sum += data[i] << 8 | data[i + 1];
  if (i < end)
    sum += data[i] << 8;
  return sum;
}
function foldChecksum(sum) {
  while (sum > 65535)
    sum = (sum & 65535) + Math.floor(sum / 65536);
  return ~sum & 65535;
}
function internetChecksum(data, start = 0, end = data.length) {
  return foldChecksum(sumWords(data, start, end));
}
function pseudoHeaderSum(src, dst, protocol, length) {
  return (src >>> 16) + (src & 65535) + (dst >>> 16) + (dst & 65535) + protocol + length;
}

// dist/services/netstack/clock.js
import { randomBytes } from "node:crypto";
var systemClock2 = {
  now: () => performance.now(),
  setTimeout: (fn, delayMs) => {
    const timer = setTimeout(fn, delayMs);
    timer.unref();
    return timer;
  },
  clearTimeout: (id) => clearTimeout(id)
};
var pool = Buffer.alloc(0);
var poolOffset = 0;
var cryptoRandomUint32 = () => {
  if (poolOffset + 4 > pool.length) {
    pool = randomBytes(4096);
    poolOffset = 0;
  }
  const value = pool.readUInt32BE(poolOffset);
  poolOffset += 4;
  return value;
};

// dist/services/netstack/ipv4.js
var IP_PROTO_ICMP = 1;
var IP_PROTO_TCP = 6;
var IP_PROTO_UDP = 17;
var IPV4_HEADER_BYTES = 20;
function parseIpv4Address(text) {
  const parts = text.split(".");
  if (parts.length !== 4)
    return void 0;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part))
      return void 0;
    const n = Number(part);
    if (n > 255)
      return void 0;
    value = value * 256 + n;
  }
  return value >>> 0;
}
function formatIpv4Address(value) {
  return `${value >>> 24}.${value >>> 16 & 255}.${value >>> 8 & 255}.${value & 255}`;
}
function parseIpv4(data) {
  if (data.length < IPV4_HEADER_BYTES)
    return { ok: false, reason: "short" };
  if (data[0] >> 4 !== 4)
    return { ok: false, reason: "version" };
  const headerBytes = (data[0] & 15) * 4;
  if (headerBytes < IPV4_HEADER_BYTES || headerBytes > data.length)
    return { ok: false, reason: "header-length" };
  const totalLength = data[2] << 8 | data[3];
  if (totalLength < headerBytes || totalLength > data.length)
    return { ok: false, reason: "total-length" };
  if (internetChecksum(data, 0, headerBytes) !== 0)
    return { ok: false, reason: "checksum" };
  const flagsFragment = data[6] << 8 | data[7];
  const moreFragments = (flagsFragment & 8192) !== 0;
  const fragmentOffset = flagsFragment & 8191;
  if (moreFragments || fragmentOffset !== 0)
    return { ok: false, reason: "fragment" };
  const src = (data[12] << 24 | data[13] << 16 | data[14] << 8 | data[15]) >>> 0;
  const dst = (data[16] << 24 | data[17] << 16 | data[18] << 8 | data[19]) >>> 0;
  return {
    ok: true,
    packet: { src, dst, protocol: data[9], ttl: data[8], payload: data.subarray(headerBytes, totalLength) }
  };
}
function writeIpv4Header(out, fields) {
  const total = IPV4_HEADER_BYTES + fields.payloadLength;
  out[0] = 69;
  out[1] = 0;
  out[2] = total >>> 8;
  out[3] = total & 255;
  out[4] = fields.id >>> 8 & 255;
  out[5] = fields.id & 255;
  out[6] = 64;
  out[7] = 0;
  out[8] = fields.ttl;
  out[9] = fields.protocol;
  out[10] = 0;
  out[11] = 0;
  out[12] = fields.src >>> 24;
  out[13] = fields.src >>> 16 & 255;
  out[14] = fields.src >>> 8 & 255;
  out[15] = fields.src & 255;
  out[16] = fields.dst >>> 24;
  out[17] = fields.dst >>> 16 & 255;
  out[18] = fields.dst >>> 8 & 255;
  out[19] = fields.dst & 255;
  const checksum = internetChecksum(out, 0, IPV4_HEADER_BYTES);
  out[10] = checksum >>> 8;
  out[11] = checksum & 255;
}

// dist/services/netstack/dns.js
var TYPE_A = 1;
var CLASS_IN = 1;
function encodeDnsName(name) {
  const trimmed = name.endsWith(".") ? name.slice(0, -1) : name;
  const labels = trimmed.split(".");
  if (trimmed.length === 0 || trimmed.length > 253 || labels.some((l) => l.length === 0 || l.length > 63 || !/^[\x21-\x7e]+$/.test(l))) {
    throw new NetstackInvalidArgumentError(`not a resolvable host name: ${name}`, { details: { name } });
  }
  const out = [];
  for (const label of labels) {
    out.push(label.length);
    for (let i = 0; i < label.length; i++)
      out.push(label.charCodeAt(i));
  }
  out.push(0);
  return Uint8Array.from(out);
}
function encodeDnsQuery(id, name) {
  const qname = encodeDnsName(name);
  const out = new Uint8Array(12 + qname.length + 4);
  out[0] = id >>> 8 & 255;
  out[1] = id & 255;
  out[2] = 1;
  out[5] = 1;
  out.set(qname, 12);
  const q = 12 + qname.length;
  out[q + 1] = TYPE_A;
  out[q + 3] = CLASS_IN;
  return out;
}
function readName(data, start) {
  const labels = [];
  let offset = start;
  let next;
  for (let jumps = 0; jumps < 64; jumps++) {
    if (offset >= data.length)
      return void 0;
    const len = data[offset];
    if (len === 0)
      return { name: labels.join(".").toLowerCase(), next: next ?? offset + 1 };
    if ((len & 192) === 192) {
      if (offset + 1 >= data.length)
        return void 0;
      next ??= offset + 2;
      offset = (len & 63) << 8 | data[offset + 1];
      continue;
    }
    if (len & 192 || offset + 1 + len > data.length)
      return void 0;
    labels.push(String.fromCharCode(...data.subarray(offset + 1, offset + 1 + len)));
    offset += 1 + len;
  }
  return void 0;
}
function parseDnsResponse(data, id, name) {
  if (data.length < 12)
    return void 0;
  if ((data[0] << 8 | data[1]) !== id || !(data[2] & 128))
    return void 0;
  const rcode = data[3] & 15;
  const truncated = (data[2] & 2) !== 0;
  const qdcount = data[4] << 8 | data[5];
  const ancount = data[6] << 8 | data[7];
  let offset = 12;
  const wanted = (name.endsWith(".") ? name.slice(0, -1) : name).toLowerCase();
  for (let i = 0; i < qdcount; i++) {
    const q = readName(data, offset);
    if (!q || q.next + 4 > data.length)
      return void 0;
    if (i === 0 && q.name !== wanted)
      return void 0;
    offset = q.next + 4;
  }
  const addresses = [];
  for (let i = 0; i < ancount; i++) {
    const rr = readName(data, offset);
    if (!rr || rr.next + 10 > data.length)
      break;
    const o = rr.next;
    const type = data[o] << 8 | data[o + 1];
    const klass = data[o + 2] << 8 | data[o + 3];
    const ttl = (data[o + 4] << 24 | data[o + 5] << 16 | data[o + 6] << 8 | data[o + 7]) >>> 0;
    const rdlength = data[o + 8] << 8 | data[o + 9];
    if (o + 10 + rdlength > data.length)
      break;
    if (type === TYPE_A && klass === CLASS_IN && rdlength === 4) {
      const value = (data[o + 10] << 24 | data[o + 11] << 16 | data[o + 12] << 8 | data[o + 13]) >>> 0;
      addresses.push({ address: formatIpv4Address(value), ttlSeconds: ttl });
    }
    offset = o + 10 + rdlength;
  }
  return { rcode, truncated, addresses };
}
async function resolveA(deps, name) {
  if (parseIpv4Address(name) !== void 0)
    return name;
  if (deps.servers.length === 0)
    throw new DnsResolveError(`no DNS server configured to resolve ${name}`, { retryable: false, details: { name } });
  encodeDnsName(name);
  let lastReason = "timeout";
  for (let attempt = 0; attempt < deps.attempts; attempt++) {
    const server = deps.servers[attempt % deps.servers.length];
    const result = await queryOnce(deps, server, name);
    if (result.kind === "answer") {
      const first = result.answer.addresses[0];
      if (result.answer.rcode === 0 && first)
        return first.address;
      if (result.answer.rcode === 3 || result.answer.rcode === 0 && !result.answer.truncated) {
        throw new DnsResolveError(`${name}: ${result.answer.rcode === 3 ? "no such name" : "no A record"}`, {
          retryable: false,
          details: { name, server, rcode: result.answer.rcode }
        });
      }
      lastReason = `rcode ${result.answer.rcode}`;
    } else {
      lastReason = result.kind;
    }
  }
  throw new DnsResolveError(`${name}: no answer from ${deps.servers.join(", ")} (${lastReason})`, { details: { name, attempts: deps.attempts, reason: lastReason } });
}
function queryOnce(deps, server, name) {
  return new Promise((resolve) => {
    const id = deps.random() & 65535;
    const socket = deps.createSocket();
    const finish = (result) => {
      deps.clock.clearTimeout(timer);
      socket.close();
      resolve(result);
    };
    const timer = deps.clock.setTimeout(() => finish({ kind: "timeout" }), deps.timeoutMs);
    socket.on("message", (message, remote) => {
      if (remote.address !== server || remote.port !== 53)
        return;
      const answer = parseDnsResponse(message, id, name);
      if (answer)
        finish({ kind: "answer", answer });
    });
    try {
      socket.send(encodeDnsQuery(id, name), 53, server);
    } catch {
      finish({ kind: "send-failed" });
    }
  });
}

// dist/services/netstack/seq.js
function seqAdd(a, n) {
  return a + n >>> 0;
}
function seqDiff(a, b) {
  return a - b | 0;
}
function seqLt(a, b) {
  return seqDiff(a, b) < 0;
}
function seqLe(a, b) {
  return seqDiff(a, b) <= 0;
}
function seqGt(a, b) {
  return seqDiff(a, b) > 0;
}
function seqGe(a, b) {
  return seqDiff(a, b) >= 0;
}
function seqMax(a, b) {
  return seqGe(a, b) ? a : b;
}
function seqMin(a, b) {
  return seqLe(a, b) ? a : b;
}
function seqInRange(x, lo, hi) {
  return seqLe(lo, x) && seqLt(x, hi);
}

// dist/services/netstack/tcp-congestion.js
function initialWindow(mss) {
  if (mss > 2190)
    return 2 * mss;
  if (mss > 1095)
    return 3 * mss;
  return 4 * mss;
}
var NewReno = class {
  name = "newreno";
  cwnd;
  ssthresh = 2147483647;
  inRecovery = false;
  #recover;
  #mss;
  #avoidanceBytes = 0;
  constructor(init) {
    this.#mss = init.mss;
    this.cwnd = initialWindow(init.mss);
    this.#recover = init.iss;
  }
  onAck(event) {
    const mss = this.#mss;
    if (this.inRecovery) {
      if (seqGe(event.ack, this.#recover)) {
        const flightAfter = event.flightBefore - event.acked;
        this.cwnd = Math.min(this.ssthresh, Math.max(flightAfter, mss) + mss);
        this.inRecovery = false;
        return "none";
      }
      this.cwnd = Math.max(mss, this.cwnd - event.acked + (event.acked >= mss ? mss : 0));
      return "retransmit";
    }
    if (this.cwnd < this.ssthresh) {
      this.cwnd += Math.min(event.acked, mss);
    } else {
      this.#avoidanceBytes += event.acked;
      if (this.#avoidanceBytes >= this.cwnd) {
        this.#avoidanceBytes -= this.cwnd;
        this.cwnd += mss;
      }
    }
    return "none";
  }
  onDupAck(event) {
    const mss = this.#mss;
    if (this.inRecovery) {
      this.cwnd += mss;
      return "none";
    }
    if (event.dupAcks === 3 && seqGt(event.ack, this.#recover)) {
      this.ssthresh = Math.max(Math.floor(event.flight / 2), 2 * mss);
      this.#recover = event.sndMax;
      this.cwnd = this.ssthresh + 3 * mss;
      this.inRecovery = true;
      return "retransmit";
    }
    return "none";
  }
  onCongestion(event) {
    this.ssthresh = Math.max(Math.floor(event.flight / 2), 2 * this.#mss);
    this.cwnd = this.ssthresh;
    this.#recover = event.sndMax;
    this.#avoidanceBytes = 0;
    this.inRecovery = true;
  }
  undo(prior) {
    this.cwnd = Math.max(this.cwnd, prior.cwnd);
    this.ssthresh = Math.max(this.ssthresh, prior.ssthresh);
    this.inRecovery = false;
    this.#recover = prior.ack - 1 >>> 0;
  }
  onTimeout(event) {
    this.ssthresh = Math.max(Math.floor(event.flight / 2), 2 * this.#mss);
    this.cwnd = this.#mss;
    this.inRecovery = false;
    this.#avoidanceBytes = 0;
    this.#recover = event.sndMax;
  }
};
var newReno = (init) => new NewReno(init);

// dist/services/netstack/byte-queue.js
var ByteQueue = class {
  #chunks = [];
  /** Index of the first live chunk in #chunks. */
  #first = 0;
  /** Bytes already consumed from #chunks[#first]. */
  #head = 0;
  /** Absolute stream offset at which #chunks[#first] starts. */
  #firstStart = 0;
  #length = 0;
  /** Where the last copy ended: chunk index and that chunk's absolute start offset. */
  #cursorIndex = 0;
  #cursorStart = 0;
  get length() {
    return this.#length;
  }
  push(chunk) {
    if (chunk.length === 0)
      return;
    this.#chunks.push(chunk);
    this.#length += chunk.length;
  }
  /** Drops `n` bytes from the front. */
  consume(n) {
    n = Math.min(n, this.#length);
    this.#length -= n;
    while (n > 0) {
      const first = this.#chunks[this.#first];
      const left = first.length - this.#head;
      if (n < left) {
        this.#head += n;
        return;
      }
      n -= left;
      this.#dropFirst();
    }
  }
  /** Copies `length` bytes starting `offset` bytes from the front into `out` at `outOffset`. */
  copyTo(offset, length, out, outOffset) {
    const target = this.#firstStart + this.#head + offset;
    let i = this.#first;
    let start = this.#firstStart;
    if (this.#cursorIndex >= this.#first && this.#cursorIndex < this.#chunks.length && this.#cursorStart <= target) {
      i = this.#cursorIndex;
      start = this.#cursorStart;
    }
    while (i < this.#chunks.length && start + this.#chunks[i].length <= target) {
      start += this.#chunks[i].length;
      i++;
    }
    let skip = target - start;
    let written = 0;
    while (written < length && i < this.#chunks.length) {
      const chunk = this.#chunks[i];
      const take = Math.min(chunk.length - skip, length - written);
      out.set(chunk.subarray(skip, skip + take), outOffset + written);
      written += take;
      if (skip + take < chunk.length)
        break;
      start += chunk.length;
      skip = 0;
      i++;
    }
    this.#cursorIndex = i;
    this.#cursorStart = start;
  }
  /** Removes and returns up to `max` bytes from the front, without copying. */
  shift(max = Infinity) {
    if (this.#length === 0)
      return void 0;
    const first = this.#chunks[this.#first];
    const left = first.length - this.#head;
    if (left <= max) {
      const out2 = this.#head === 0 ? first : first.subarray(this.#head);
      this.#length -= left;
      this.#dropFirst();
      return out2;
    }
    const out = first.subarray(this.#head, this.#head + max);
    this.#head += max;
    this.#length -= max;
    return out;
  }
  #dropFirst() {
    this.#firstStart += this.#chunks[this.#first].length;
    this.#chunks[this.#first] = EMPTY;
    this.#first++;
    this.#head = 0;
    if (this.#first >= 1024 && this.#first * 2 >= this.#chunks.length) {
      this.#chunks = this.#chunks.slice(this.#first);
      this.#cursorIndex -= this.#first;
      this.#first = 0;
    }
    if (this.#first === this.#chunks.length) {
      this.#chunks = [];
      this.#cursorIndex -= this.#first;
      this.#first = 0;
    }
  }
};
var EMPTY = new Uint8Array(0);

// dist/services/netstack/tcp-reassembly.js
var Reassembler = class {
  #next;
  /** Sorted by distance from #next, never overlapping. */
  #pieces = [];
  #buffered = 0;
  /** Sequence numbers of recently received out-of-order segments, newest first. */
  #recent = [];
  constructor(nextSeq) {
    this.#next = nextSeq >>> 0;
  }
  /** RCV.NXT: the first byte not yet delivered in order. */
  get nextSeq() {
    return this.#next;
  }
  /** Bytes held out of order. */
  get bufferedBytes() {
    return this.#buffered;
  }
  /** Takes one segment's data; returns the bytes that became deliverable in order (copies). */
  receive(seq, data) {
    let start = seq >>> 0;
    let bytes = data;
    const offset = seqDiff(start, this.#next);
    if (offset < 0) {
      if (-offset >= bytes.length)
        return [];
      bytes = bytes.subarray(-offset);
      start = this.#next;
    }
    if (bytes.length === 0)
      return [];
    if (start === this.#next) {
      const out = [Uint8Array.from(bytes)];
      this.#next = seqAdd(this.#next, bytes.length);
      this.#drain(out);
      return out;
    }
    this.#insert(start, bytes);
    this.#recent = [start, ...this.#recent.filter((s) => s !== start)].slice(0, 8);
    return [];
  }
  /** Up to `max` SACK blocks as [left, right), most relevant first. */
  sackBlocks(max) {
    if (this.#pieces.length === 0 || max <= 0)
      return [];
    const ranges = [];
    for (const piece of this.#pieces) {
      const end = seqAdd(piece.seq, piece.data.length);
      const last = ranges[ranges.length - 1];
      if (last && last[1] === piece.seq)
        last[1] = end;
      else
        ranges.push([piece.seq, end]);
    }
    const out = [];
    const used = /* @__PURE__ */ new Set();
    const within = (s, r) => seqDiff(s, r[0]) >= 0 && seqDiff(s, r[1]) < 0;
    for (const s of this.#recent) {
      const index = ranges.findIndex((r) => within(s, r));
      if (index >= 0 && !used.has(index)) {
        used.add(index);
        out.push(ranges[index]);
      }
    }
    ranges.forEach((range, index) => {
      if (!used.has(index))
        out.push(range);
    });
    return out.slice(0, max);
  }
  #insert(start, bytes) {
    let parts = [{ seq: start, data: bytes }];
    for (const piece of this.#pieces) {
      const pieceStart = seqDiff(piece.seq, this.#next);
      const pieceEnd = pieceStart + piece.data.length;
      const next = [];
      for (const part of parts) {
        const partStart = seqDiff(part.seq, this.#next);
        const partEnd = partStart + part.data.length;
        if (partEnd <= pieceStart || partStart >= pieceEnd) {
          next.push(part);
          continue;
        }
        if (partStart < pieceStart)
          next.push({ seq: part.seq, data: part.data.subarray(0, pieceStart - partStart) });
        if (partEnd > pieceEnd)
          next.push({ seq: seqAdd(part.seq, pieceEnd - partStart), data: part.data.subarray(pieceEnd - partStart) });
      }
      parts = next;
      if (parts.length === 0)
        return;
    }
    for (const part of parts) {
      this.#pieces.push({ seq: part.seq, data: Uint8Array.from(part.data) });
      this.#buffered += part.data.length;
    }
    this.#pieces.sort((a, b) => seqDiff(a.seq, this.#next) - seqDiff(b.seq, this.#next));
  }
  #drain(out) {
    while (this.#pieces.length > 0) {
      const piece = this.#pieces[0];
      const offset = seqDiff(piece.seq, this.#next);
      if (offset > 0)
        break;
      this.#pieces.shift();
      this.#buffered -= piece.data.length;
      if (-offset < piece.data.length) {
        const rest = piece.data.subarray(-offset);
        out.push(rest);
        this.#next = seqAdd(this.#next, rest.length);
      }
    }
    this.#recent = this.#recent.filter((s) => seqDiff(s, this.#next) > 0);
  }
};

// dist/services/netstack/tcp-rtt.js
var RttEstimator = class {
  srttMs;
  rttvarMs = 0;
  #rto;
  #backoff = 0;
  #options;
  constructor(options) {
    this.#options = options;
    this.#rto = options.initialRtoMs;
  }
  /** The current RTO including backoff. */
  get rtoMs() {
    return Math.min(this.#options.maxRtoMs, this.#rto * 2 ** this.#backoff);
  }
  get backoffCount() {
    return this.#backoff;
  }
  sample(rttMs) {
    const r = Math.max(0, rttMs);
    if (this.srttMs === void 0) {
      this.srttMs = r;
      this.rttvarMs = r / 2;
    } else {
      this.rttvarMs = 0.75 * this.rttvarMs + 0.25 * Math.abs(this.srttMs - r);
      this.srttMs = 0.875 * this.srttMs + 0.125 * r;
    }
    const g = this.#options.granularityMs ?? 1;
    this.#rto = Math.min(this.#options.maxRtoMs, Math.max(this.#options.minRtoMs, this.srttMs + Math.max(g, 4 * this.rttvarMs)));
    this.#backoff = 0;
  }
  /** RFC 6298 5.5: double the RTO after a timeout. */
  backoff() {
    if (this.#rto * 2 ** this.#backoff < this.#options.maxRtoMs)
      this.#backoff++;
  }
};

// dist/services/netstack/tcp-sack-scoreboard.js
var SackScoreboard = class {
  #blocks = [];
  #sackedBytes = 0;
  get sackedBytes() {
    return this.#sackedBytes;
  }
  /** Adds blocks within (una, sndMax]; D-SACK blocks (at or below una) and nonsense are ignored. */
  update(blocks, una, sndMax) {
    for (const [rawStart, rawEnd] of blocks) {
      if (!seqLt(rawStart, rawEnd) || seqGt(rawEnd, sndMax) || !seqGt(rawEnd, una))
        continue;
      this.#insert(seqMax(rawStart, una), rawEnd);
    }
  }
  /** Drops everything at or below the new SND.UNA. */
  prune(una) {
    let i = 0;
    while (i < this.#blocks.length && seqLe(this.#blocks[i].end, una))
      i++;
    if (i > 0)
      this.#blocks.splice(0, i);
    const first = this.#blocks[0];
    if (first && seqLt(first.start, una))
      first.start = una;
    this.#recount();
  }
  clear() {
    this.#blocks = [];
    this.#sackedBytes = 0;
  }
  /** The parts of [start, end), clipped to above `una`, not yet in the board (what a new block adds). */
  uncovered(start, end, una) {
    const out = [];
    let cursor = seqMax(start, una);
    for (const block of this.#blocks) {
      if (!seqLt(cursor, end))
        break;
      if (seqLe(block.end, cursor))
        continue;
      if (seqLt(cursor, block.start))
        out.push([cursor, seqMin(block.start, end)]);
      cursor = seqMax(cursor, block.end);
    }
    if (seqLt(cursor, end))
      out.push([cursor, end]);
    return out;
  }
  #insert(start, end) {
    const merged = { start, end };
    const out = [];
    let placed = false;
    for (const block of this.#blocks) {
      if (seqLt(block.end, merged.start))
        out.push(block);
      else if (seqLt(merged.end, block.start)) {
        if (!placed) {
          out.push(merged);
          placed = true;
        }
        out.push(block);
      } else {
        merged.start = seqMin(merged.start, block.start);
        merged.end = seqMax(merged.end, block.end);
      }
    }
    if (!placed)
      out.push(merged);
    this.#blocks = out;
    this.#recount();
  }
  #recount() {
    let total = 0;
    for (const block of this.#blocks)
      total += seqDiff(block.end, block.start);
    this.#sackedBytes = total;
  }
};

// dist/services/netstack/tcp-rack.js
var REO_WND_MULT_MAX = 64;
var REO_WND_PERSIST = 16;
var DUPTHRESH = 3;
var RackSender = class {
  #segs = [];
  #head = 0;
  #tsHead;
  #tsTail;
  #inFlight = 0;
  #sackedCount = 0;
  #lost = [];
  #board = new SackScoreboard();
  #xmitCount = 0;
  // RACK state (RFC 8985 6.1); the transmission counter stands in for RACK.end_seq as the
  // tie-break: a resend and new data can leave at the same instant in either order.
  rackXmitAt = Number.NEGATIVE_INFINITY;
  #rackOrder = -1;
  rackRttMs = 0;
  /** Highest end sequence delivered so far (RACK.fack). */
  #fack;
  minRttMs = Number.POSITIVE_INFINITY;
  reorderingSeen = false;
  reoWndMult = 1;
  #reoWndPersist = REO_WND_PERSIST;
  /** Bytes sent and neither ACKed, SACKed nor marked lost (RFC 6675 pipe with RACK's marks). */
  get inFlight() {
    return this.#inFlight;
  }
  get sackedBytes() {
    return this.#board.sackedBytes;
  }
  /** Segments marked lost and not yet resent. */
  get lostPending() {
    this.#dropStaleLost();
    return this.#lost.length;
  }
  get outstanding() {
    return this.#segs.length - this.#head;
  }
  /** Records a transmission. New data must extend the record; a retransmission must start where a recorded segment starts. */
  onTransmit(start, end, fin, now) {
    const last = this.#segs[this.#segs.length - 1];
    if (this.outstanding === 0 || last !== void 0 && seqGe(start, last.end)) {
      const seg2 = { start, end, fin, xmitAt: now, xmitOrder: this.#xmitCount++, retransmitted: false, sacked: false, lost: false, prev: void 0, next: void 0, listed: false };
      this.#segs.push(seg2);
      this.#inFlight += seqDiff(end, start);
      this.#append(seg2);
      return;
    }
    const seg = this.#find(start);
    if (seg === void 0)
      return;
    if (seqGt(end, seg.end))
      this.#extend(seg, end, fin);
    if (seg.sacked)
      return;
    if (seg.listed)
      this.#unlink(seg);
    else
      this.#inFlight += seqDiff(seg.end, seg.start);
    seg.lost = false;
    seg.retransmitted = true;
    seg.xmitAt = now;
    seg.xmitOrder = this.#xmitCount++;
    this.#append(seg);
  }
  /** The oldest segment marked lost and not yet resent. */
  nextLost() {
    this.#dropStaleLost();
    return this.#lost[0];
  }
  /** The highest-sequence segment not yet SACKed (what a tail loss probe resends). */
  lastUnsacked() {
    for (let i = this.#segs.length - 1; i >= this.#head; i--)
      if (!this.#segs[i].sacked)
        return this.#segs[i];
    return void 0;
  }
  /**
   * Applies a cumulative ACK and SACK blocks (RFC 8985 6.2 steps 1-3): drops what is ACKed,
   * marks what is SACKed, advances RACK.xmit_ts / end_seq / rtt from the most recently sent
   * delivered segment, and notes reordering (a segment delivered below RACK.fack that was never
   * resent). `sndMax` bounds valid blocks.
   */
  onAck(una, blocks, sndMax, now) {
    const result = { delivered: 0, dsack: void 0, spuriousResends: [] };
    const first = blocks[0];
    if (first !== void 0 && seqLt(first[0], first[1])) {
      const second = blocks[1];
      if (seqLe(first[1], una) || second !== void 0 && seqGe(first[0], second[0]) && seqLe(first[1], second[1])) {
        result.dsack = [first[0], first[1]];
      }
    }
    while (this.#head < this.#segs.length) {
      const seg = this.#segs[this.#head];
      if (seqLe(seg.end, una)) {
        if (!seg.sacked) {
          result.delivered += seqDiff(seg.end, seg.start);
          this.#delivered(seg, now, result);
        } else
          this.#sackedCount--;
        this.#forget(seg);
        this.#head++;
        continue;
      }
      if (seqLt(seg.start, una)) {
        const acked = seqDiff(una, seg.start);
        if (!seg.sacked) {
          result.delivered += acked;
          if (!seg.lost)
            this.#inFlight -= acked;
        }
        seg.start = una;
      }
      break;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#segs.length) {
      this.#segs = this.#segs.slice(this.#head);
      this.#head = 0;
    }
    this.#board.prune(una);
    for (const [start, end] of blocks) {
      if (!seqLt(start, end) || seqGt(end, sndMax) || !seqGt(end, una))
        continue;
      for (const [from, to] of this.#board.uncovered(start, end, una))
        result.delivered += this.#markSacked(from, to, now, result);
      this.#board.update([[start, end]], una, sndMax);
    }
    return result;
  }
  /**
   * RFC 8985 6.2 step 4: the reordering window. Zero while no reordering was seen and either a
   * recovery is on or DupThresh segments are SACKed (then RACK acts like RFC 6675's DupThresh);
   * otherwise reo_wnd_mult x min_RTT / 4, at most SRTT.
   */
  reoWnd(srttMs, inRecovery) {
    if (!this.reorderingSeen && (inRecovery || this.#sackedCount >= DUPTHRESH))
      return 0;
    const minRtt = Number.isFinite(this.minRttMs) ? this.minRttMs : srttMs;
    return Math.min(this.reoWndMult * minRtt / 4, srttMs);
  }
  /** RFC 8985 7.2: a D-SACK widens the window (once per round trip, the caller decides). */
  widenReoWnd() {
    this.reoWndMult = Math.min(REO_WND_MULT_MAX, this.reoWndMult + 1);
    this.#reoWndPersist = REO_WND_PERSIST;
  }
  /** RFC 8985 7.2: called when a recovery ends; after 16 without D-SACK the window resets. */
  recoveryEnded() {
    if (--this.#reoWndPersist <= 0) {
      this.reoWndMult = 1;
      this.#reoWndPersist = REO_WND_PERSIST;
    }
  }
  /**
   * RFC 8985 6.2 step 5: marks lost every segment sent before the RACK segment whose time is up.
   * Returns how many were newly marked and, when some are still within the window, in how many
   * ms to look again (the reorder timer).
   */
  detectLoss(now, reoWndMs) {
    let lost = 0;
    let timeoutMs;
    let seg = this.#tsHead;
    while (seg !== void 0) {
      const next = seg.next;
      if (sentAfter(seg.xmitAt, seg.xmitOrder, this.rackXmitAt, this.#rackOrder))
        break;
      const remaining = seg.xmitAt + this.rackRttMs + reoWndMs - now;
      if (remaining <= 0) {
        this.#markLost(seg);
        lost++;
      } else
        timeoutMs = timeoutMs === void 0 ? remaining : Math.min(timeoutMs, remaining);
      seg = next;
    }
    return { lost, timeoutMs };
  }
  /**
   * RFC 8985 6.3 / RFC 6298 5: after an RTO every segment not SACKed is lost. With `forgetSacks`
   * the SACKed ones too (RFC 6675 5.1: the receiver may have reneged, dropping data it SACKed;
   * the connection calls it for a repeated timeout, so a reneging peer cannot stall it).
   */
  markAllLost(forgetSacks = false) {
    let seg = this.#tsHead;
    while (seg !== void 0) {
      const next = seg.next;
      this.#markLost(seg);
      seg = next;
    }
    if (!forgetSacks)
      return;
    for (let i = this.#head; i < this.#segs.length; i++) {
      const sacked = this.#segs[i];
      if (!sacked.sacked)
        continue;
      sacked.sacked = false;
      this.#sackedCount--;
      this.#inFlight += seqDiff(sacked.end, sacked.start);
      this.#markLost(sacked);
    }
    this.#board.clear();
  }
  clear() {
    this.#segs = [];
    this.#head = 0;
    this.#tsHead = this.#tsTail = void 0;
    this.#inFlight = 0;
    this.#sackedCount = 0;
    this.#lost = [];
    this.#board.clear();
  }
  #delivered(seg, now, result) {
    if (!seg.lost)
      this.#inFlight -= seqDiff(seg.end, seg.start);
    const rtt = now - seg.xmitAt;
    if (seg.retransmitted && rtt < this.minRttMs) {
      result.spuriousResends.push(seg.start);
      return;
    }
    if (!seg.retransmitted)
      this.minRttMs = Math.min(this.minRttMs, rtt);
    if (sentAfter(seg.xmitAt, seg.xmitOrder, this.rackXmitAt, this.#rackOrder)) {
      this.rackRttMs = rtt;
      this.rackXmitAt = seg.xmitAt;
      this.#rackOrder = seg.xmitOrder;
    }
    if (this.#fack !== void 0 && seqLt(seg.end, this.#fack) && !seg.retransmitted)
      this.reorderingSeen = true;
    if (this.#fack === void 0 || seqGt(seg.end, this.#fack))
      this.#fack = seg.end;
  }
  #markSacked(from, to, now, result) {
    let delivered = 0;
    let i = this.#indexAtOrAfter(from);
    for (; i < this.#segs.length; i++) {
      const seg = this.#segs[i];
      if (!seqLt(seg.start, to))
        break;
      if (seg.sacked || seqLt(seg.start, from) || seqGt(seg.end, to))
        continue;
      delivered += seqDiff(seg.end, seg.start);
      this.#delivered(seg, now, result);
      seg.sacked = true;
      seg.lost = false;
      this.#sackedCount++;
      if (seg.listed)
        this.#unlink(seg);
    }
    return delivered;
  }
  #markLost(seg) {
    if (seg.listed)
      this.#unlink(seg);
    seg.lost = true;
    this.#inFlight -= seqDiff(seg.end, seg.start);
    let i = this.#lost.length;
    while (i > 0 && seqGt(this.#lost[i - 1].start, seg.start))
      i--;
    this.#lost.splice(i, 0, seg);
  }
  #forget(seg) {
    if (seg.listed)
      this.#unlink(seg);
  }
  #dropStaleLost() {
    const una = this.#segs[this.#head]?.start;
    while (this.#lost.length > 0) {
      const seg = this.#lost[0];
      if (seg.lost && !seg.sacked && una !== void 0 && seqGe(seg.start, una))
        break;
      this.#lost.shift();
    }
  }
  #find(start) {
    const i = this.#indexAtOrAfter(start);
    const seg = this.#segs[i];
    return seg !== void 0 && seg.start === start ? seg : void 0;
  }
  /** Index of the first segment whose end is above `seq` (binary search in sequence order). */
  #indexAtOrAfter(seq) {
    let lo = this.#head;
    let hi = this.#segs.length;
    while (lo < hi) {
      const mid = lo + hi >> 1;
      if (seqLe(this.#segs[mid].end, seq))
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }
  /** A resend may carry more than the original (e.g. a FIN queued since): the record follows. */
  #extend(seg, end, fin) {
    if (!seg.lost && !seg.sacked)
      this.#inFlight += seqDiff(end, seg.end);
    seg.end = end;
    seg.fin = fin;
  }
  #append(seg) {
    seg.prev = this.#tsTail;
    seg.next = void 0;
    if (this.#tsTail)
      this.#tsTail.next = seg;
    else
      this.#tsHead = seg;
    this.#tsTail = seg;
    seg.listed = true;
  }
  #unlink(seg) {
    if (seg.prev)
      seg.prev.next = seg.next;
    else
      this.#tsHead = seg.next;
    if (seg.next)
      seg.next.prev = seg.prev;
    else
      this.#tsTail = seg.prev;
    seg.prev = seg.next = void 0;
    seg.listed = false;
  }
};
function sentAfter(t1, order1, t2, order2) {
  return t1 > t2 || t1 === t2 && order1 > order2;
}

// dist/services/netstack/tcp-segment.js
var TCP_FIN = 1;
var TCP_SYN = 2;
var TCP_RST = 4;
var TCP_PSH = 8;
var TCP_ACK = 16;
var TCP_HEADER_BYTES = 20;
function segmentLength(segment) {
  return segment.payload.length + (segment.flags & TCP_SYN ? 1 : 0) + (segment.flags & TCP_FIN ? 1 : 0);
}
function optionsLength(options) {
  let n = 0;
  if (options.mss !== void 0)
    n += 4;
  if (options.windowScale !== void 0)
    n += 4;
  if (options.sackPermitted)
    n += 4;
  if (options.sack && options.sack.length > 0)
    n += 4 + 8 * options.sack.length;
  return n;
}
function parseTcp(data, src, dst) {
  if (data.length < TCP_HEADER_BYTES)
    return void 0;
  const headerBytes = (data[12] >> 4) * 4;
  if (headerBytes < TCP_HEADER_BYTES || headerBytes > data.length)
    return void 0;
  const sum = sumWords(data, 0, data.length, pseudoHeaderSum(src, dst, IP_PROTO_TCP, data.length));
  if (foldChecksum(sum) !== 0)
    return void 0;
  const options = {};
  let i = TCP_HEADER_BYTES;
  while (i < headerBytes) {
    const kind = data[i];
    if (kind === 0)
      break;
    if (kind === 1) {
      i++;
      continue;
    }
    if (i + 1 >= headerBytes)
      return void 0;
    const len = data[i + 1];
    if (len < 2 || i + len > headerBytes)
      return void 0;
    if (kind === 2 && len === 4)
      options.mss = data[i + 2] << 8 | data[i + 3];
    else if (kind === 3 && len === 3)
      options.windowScale = data[i + 2];
    else if (kind === 4 && len === 2)
      options.sackPermitted = true;
    else if (kind === 5 && len >= 10 && (len - 2) % 8 === 0) {
      const blocks = [];
      for (let j = i + 2; j < i + len; j += 8)
        blocks.push([readU32(data, j), readU32(data, j + 4)]);
      options.sack = blocks;
    }
    i += len;
  }
  return {
    srcPort: data[0] << 8 | data[1],
    dstPort: data[2] << 8 | data[3],
    seq: readU32(data, 4),
    ack: readU32(data, 8),
    flags: data[13] & 63,
    window: data[14] << 8 | data[15],
    options,
    payload: data.subarray(headerBytes)
  };
}
function writeTcp(out, offset, segment, src, dst) {
  const optLen = optionsLength(segment.options);
  const headerBytes = TCP_HEADER_BYTES + optLen;
  const total = headerBytes + segment.payload.length;
  const o = offset;
  out[o] = segment.srcPort >>> 8;
  out[o + 1] = segment.srcPort & 255;
  out[o + 2] = segment.dstPort >>> 8;
  out[o + 3] = segment.dstPort & 255;
  writeU32(out, o + 4, segment.seq);
  writeU32(out, o + 8, segment.ack);
  out[o + 12] = headerBytes / 4 << 4;
  out[o + 13] = segment.flags;
  out[o + 14] = segment.window >>> 8;
  out[o + 15] = segment.window & 255;
  out[o + 16] = 0;
  out[o + 17] = 0;
  out[o + 18] = 0;
  out[o + 19] = 0;
  let i = o + TCP_HEADER_BYTES;
  const { mss, windowScale, sackPermitted, sack } = segment.options;
  if (mss !== void 0) {
    out[i++] = 2;
    out[i++] = 4;
    out[i++] = mss >>> 8;
    out[i++] = mss & 255;
  }
  if (windowScale !== void 0) {
    out[i++] = 1;
    out[i++] = 3;
    out[i++] = 3;
    out[i++] = windowScale;
  }
  if (sackPermitted) {
    out[i++] = 1;
    out[i++] = 1;
    out[i++] = 4;
    out[i++] = 2;
  }
  if (sack && sack.length > 0) {
    out[i++] = 1;
    out[i++] = 1;
    out[i++] = 5;
    out[i++] = 2 + 8 * sack.length;
    for (const [left, right] of sack) {
      writeU32(out, i, left);
      writeU32(out, i + 4, right);
      i += 8;
    }
  }
  out.set(segment.payload, i);
  const checksum = foldChecksum(sumWords(out, o, o + total, pseudoHeaderSum(src, dst, IP_PROTO_TCP, total)));
  out[o + 16] = checksum >>> 8;
  out[o + 17] = checksum & 255;
  return total;
}
function readU32(data, i) {
  return (data[i] << 24 | data[i + 1] << 16 | data[i + 2] << 8 | data[i + 3]) >>> 0;
}
function writeU32(out, i, value) {
  out[i] = value >>> 24;
  out[i + 1] = value >>> 16 & 255;
  out[i + 2] = value >>> 8 & 255;
  out[i + 3] = value & 255;
}

// dist/services/netstack/tcp-connection.js
var MAX_SACK_BLOCKS = 4;
var TcpConnection = class _TcpConnection {
  state = "CLOSED";
  endpoint;
  handler;
  // Send sequence space (RFC 9293 3.3.1); sndMax is the highest sequence sent (BSD snd_max).
  iss = 0;
  sndUna = 0;
  sndNxt = 0;
  sndMax = 0;
  sndWnd = 0;
  sndWl1 = 0;
  sndWl2 = 0;
  /** Largest window the peer ever offered (sender SWS avoidance). */
  maxSndWnd = 0;
  sndWscale = 0;
  rcvWscale = 0;
  sackPermitted = false;
  /** Effective send MSS after negotiation. */
  sendMss;
  irs = 0;
  cc;
  rtt;
  dupAcks = 0;
  #clock;
  #random;
  #settings;
  #mss;
  #output;
  #counters;
  #sendQueue = new ByteQueue();
  #sendQueueSeq = 0;
  #finQueued = false;
  #finSent = false;
  #recvQueue = new ByteQueue();
  #reassembler;
  #peerFinSeq;
  #finReceived = false;
  #rcvAdvRight;
  #offeredWscale;
  #rttTiming;
  #retransmits = 0;
  #probeEnd;
  #persistBackoff = 0;
  #unansweredProbes = 0;
  #pendingAckSegments = 0;
  #ackNow = false;
  #ackDeferred = false;
  /** What the peer SACKed above SND.UNA, and how far this recovery has resent holes (RFC 6675 HighRxt). */
  /** RACK-TLP state, used when the peer SACKs (see #rackOn). */
  #rack = new RackSender();
  /** Proportional Rate Reduction during a RACK recovery (RFC 6937): what may still be sent. */
  #prr;
  /** After a timeout: segments below this are resent under cwnd (slow start), no fast recovery starts. */
  #rtoRecover;
  /** The tail loss probe in flight: the SND.MAX after it, and whether it resent data. */
  #tlp;
  #tlpDeadline;
  #tlpTimer;
  #rackTimer;
  /** The window before the last reduction, restored when D-SACKs show every resend was a duplicate. */
  #undo;
  #lastWidenAt = Number.NEGATIVE_INFINITY;
  /** A duplicate segment to report in the next ACK's first SACK block (RFC 2883). */
  #dsack;
  #inInput = false;
  #deferred = 0;
  #synTimed = false;
  #rtoTimer;
  #persistTimer;
  #delackTimer;
  #timeWaitTimer;
  constructor(init) {
    this.endpoint = init.endpoint;
    this.handler = init.handler ?? {};
    this.#clock = init.clock;
    this.#random = init.random;
    this.#settings = init.settings;
    this.#mss = init.mss;
    this.sendMss = Math.min(init.mss, init.settings.defaultMss);
    this.#output = init.output;
    this.#counters = init.counters ?? {
      tcpSegmentsRetransmitted: 0,
      tcpSpuriousRetransmits: 0,
      tcpFastRetransmits: 0,
      tcpTimeouts: 0,
      tcpSackRecoveries: 0,
      tcpTailLossProbes: 0,
      tcpRackLost: 0
    };
    this.rtt = new RttEstimator(init.settings);
    let shift = 0;
    while (shift < 14 && init.settings.receiveBufferBytes >> shift > 65535)
      shift++;
    this.#offeredWscale = shift;
  }
  /** Active open: sends a SYN and enters SYN_SENT. */
  static connect(init) {
    const conn = new _TcpConnection(init);
    conn.#initSend();
    conn.#setState("SYN_SENT");
    conn.#sendSyn();
    return conn;
  }
  /** Passive open from a listener's SYN: answers with SYN-ACK and enters SYN_RECEIVED. */
  static accept(init, syn) {
    const conn = new _TcpConnection(init);
    conn.#initSend();
    conn.#takePeerSyn(syn);
    conn.#setState("SYN_RECEIVED");
    conn.#sendSyn();
    return conn;
  }
  // ---- application side ---------------------------------------------------------------------
  /** Bytes that may still be queued before the send buffer is full. */
  get sendBufferFree() {
    return Math.max(0, this.#settings.sendBufferBytes - this.#sendQueue.length);
  }
  get sendQueued() {
    return this.#sendQueue.length;
  }
  /** In-order bytes waiting for read(). */
  get readableBytes() {
    return this.#recvQueue.length;
  }
  /** The peer's FIN arrived (the stream ends once readableBytes reaches 0). */
  get finReceived() {
    return this.#finReceived;
  }
  get finQueued() {
    return this.#finQueued;
  }
  get rcvNxt() {
    return this.#reassembler ? seqAdd(this.#reassembler.nextSeq, this.#finReceived ? 1 : 0) : 0;
  }
  /** Right edge of the receive window as last advertised. */
  get rcvWnd() {
    if (this.#rcvAdvRight === void 0)
      return this.#available();
    return Math.max(0, seqDiff(this.#rcvAdvRight, this.rcvNxt));
  }
  write(data) {
    if (this.#finQueued || this.state === "CLOSED" || this.state === "TIME_WAIT")
      throw new Error("TCP write after end");
    this.#sendQueue.push(data);
    this.#trySend();
  }
  read(max) {
    const chunk = this.#recvQueue.shift(max);
    if (chunk)
      this.#maybeWindowUpdate();
    return chunk;
  }
  /** Half-close: queues a FIN after the data already written (RFC 9293 3.10.4). */
  close() {
    if (this.#finQueued)
      return;
    switch (this.state) {
      case "SYN_SENT":
        this.#enterClosed();
        return;
      case "SYN_RECEIVED":
        this.#finQueued = true;
        return;
      case "ESTABLISHED":
        this.#finQueued = true;
        this.#setState("FIN_WAIT_1");
        break;
      case "CLOSE_WAIT":
        this.#finQueued = true;
        this.#setState("LAST_ACK");
        break;
      default:
        return;
    }
    this.#trySend();
  }
  /** Drops the connection at once, telling the peer with a RST (RFC 9293 3.10.5). */
  abort() {
    if (this.state === "CLOSED")
      return;
    if (this.state !== "SYN_SENT" && this.state !== "TIME_WAIT") {
      this.#emit({ seq: this.sndMax, ack: this.rcvNxt, flags: TCP_RST | TCP_ACK, payload: EMPTY2 });
    }
    this.#enterClosed();
  }
  // ---- segment arrival (RFC 9293 3.10.7) ------------------------------------------------------
  input(seg) {
    if (this.state === "CLOSED" || this.state === "LISTEN")
      return;
    this.#inInput = true;
    try {
      if (this.state === "SYN_SENT")
        this.#inputSynSent(seg);
      else
        this.#inputSynchronized(seg);
    } finally {
      this.#inInput = false;
    }
    if (this.state !== "CLOSED") {
      this.#trySend();
      if (this.#ackNow)
        this.#sendAck();
    }
    const events = this.#deferred;
    this.#deferred = 0;
    if (events & EV_ESTABLISHED)
      this.handler.established?.();
    if (events & EV_READABLE)
      this.handler.readable?.();
    if (events & EV_WRITABLE)
      this.handler.writable?.();
  }
  #notify(event) {
    this.#deferred |= event;
  }
  #inputSynSent(seg) {
    const hasAck = (seg.flags & TCP_ACK) !== 0;
    if (hasAck && (seqLe(seg.ack, this.iss) || seqGt(seg.ack, this.sndMax))) {
      if (!(seg.flags & TCP_RST))
        this.#emitRaw({ seq: seg.ack, ack: 0, flags: TCP_RST, payload: EMPTY2 });
      return;
    }
    if (seg.flags & TCP_RST) {
      if (hasAck)
        this.#enterClosed(new TcpConnectionRefusedError("connection refused by the peer", { details: this.#details() }));
      return;
    }
    if (!(seg.flags & TCP_SYN))
      return;
    this.#takePeerSyn(seg);
    if (hasAck) {
      this.#ackAdvance(seg.ack);
      this.#retransmits = 0;
      this.#stopRto();
      this.sndWnd = seg.window;
      this.maxSndWnd = Math.max(this.maxSndWnd, this.sndWnd);
      this.sndWl1 = seg.seq;
      this.sndWl2 = seg.ack;
      this.#setState("ESTABLISHED");
      this.#ackNow = true;
      this.#notify(EV_ESTABLISHED);
    } else {
      this.#setState("SYN_RECEIVED");
      this.sndNxt = this.iss;
      this.#sendSyn();
    }
  }
  #inputSynchronized(seg) {
    const rcvNxt = this.rcvNxt;
    const segLen = segmentLength(seg);
    const rst = (seg.flags & TCP_RST) !== 0;
    if (this.state === "SYN_RECEIVED" && seg.flags & TCP_SYN && !(seg.flags & TCP_ACK) && seg.seq === this.irs) {
      this.#retransmitAt(this.iss);
      return;
    }
    const wnd = this.rcvWnd;
    let acceptable;
    if (segLen === 0)
      acceptable = seg.seq === rcvNxt || wnd > 0 && seqInRange(seg.seq, rcvNxt, seqAdd(rcvNxt, wnd));
    else if (wnd === 0)
      acceptable = false;
    else
      acceptable = seqInRange(seg.seq, rcvNxt, seqAdd(rcvNxt, wnd)) || seqInRange(seqAdd(seg.seq, segLen - 1), rcvNxt, seqAdd(rcvNxt, wnd));
    const zeroWindowProbe = !acceptable && wnd === 0 && seg.seq === rcvNxt;
    if (!acceptable && !zeroWindowProbe) {
      if (!rst && seg.payload.length > 0 && seqLe(seqAdd(seg.seq, seg.payload.length), rcvNxt))
        this.#dsack = [seg.seq, seqAdd(seg.seq, seg.payload.length)];
      if (!rst) {
        if (this.state === "TIME_WAIT" && seg.flags & TCP_FIN)
          this.#armTimeWait();
        this.#ackNow = true;
      }
      return;
    }
    if (rst) {
      if (seg.seq !== rcvNxt) {
        this.#ackNow = true;
        return;
      }
      const quiet = this.state === "SYN_RECEIVED" || this.state === "CLOSING" || this.state === "LAST_ACK" || this.state === "TIME_WAIT";
      this.#enterClosed(quiet ? void 0 : new TcpConnectionResetError("connection reset by the peer", { details: this.#details() }));
      return;
    }
    if (seg.flags & TCP_SYN) {
      this.#ackNow = true;
      return;
    }
    if (!(seg.flags & TCP_ACK))
      return;
    if (this.state === "SYN_RECEIVED") {
      if (!(seqLt(this.sndUna, seg.ack) && seqLe(seg.ack, this.sndMax))) {
        this.#emitRaw({ seq: seg.ack, ack: 0, flags: TCP_RST, payload: EMPTY2 });
        return;
      }
      this.#setState("ESTABLISHED");
      this.sndWnd = seg.window << this.sndWscale;
      this.maxSndWnd = Math.max(this.maxSndWnd, this.sndWnd);
      this.sndWl1 = seg.seq;
      this.sndWl2 = seg.ack;
      this.#notify(EV_ESTABLISHED);
      if (this.#finQueued)
        this.#setState("FIN_WAIT_1");
    }
    const ackLimit = this.#probeEnd !== void 0 && seqGt(this.#probeEnd, this.sndMax) ? this.#probeEnd : this.sndMax;
    if (seqGt(seg.ack, ackLimit)) {
      this.#ackNow = true;
      return;
    }
    this.#unansweredProbes = 0;
    const window = seg.window << this.sndWscale;
    let rackAck;
    if (this.#rackOn) {
      if (seqGt(this.sndMax, this.sndUna) && seqGe(seg.ack, this.sndUna))
        rackAck = this.#rack.onAck(seg.ack, seg.options.sack ?? [], this.sndMax, this.#clock.now());
    }
    if (seqGt(seg.ack, this.sndUna)) {
      this.#onNewAck(seg.ack);
    } else if (!this.#rackOn && seg.ack === this.sndUna && seg.payload.length === 0 && !(seg.flags & TCP_FIN) && this.sndMax !== this.sndUna && window === this.sndWnd) {
      this.#onDupAck(seg.ack);
    }
    if (rackAck !== void 0)
      this.#rackOnAck(seg.ack, rackAck);
    if (seqGe(seg.ack, this.sndUna) && (seqLt(this.sndWl1, seg.seq) || this.sndWl1 === seg.seq && seqLe(this.sndWl2, seg.ack))) {
      this.sndWnd = window;
      this.maxSndWnd = Math.max(this.maxSndWnd, window);
      this.sndWl1 = seg.seq;
      this.sndWl2 = seg.ack;
      if (window > 0)
        this.#stopPersist();
    }
    if (this.#finSent && seqGt(this.sndUna, this.#finSeq)) {
      if (this.state === "FIN_WAIT_1")
        this.#setState("FIN_WAIT_2");
      else if (this.state === "CLOSING")
        this.#enterTimeWait();
      else if (this.state === "LAST_ACK") {
        this.#enterClosed();
        return;
      }
    }
    let seq = seg.seq;
    let payload = seg.payload;
    let fin = (seg.flags & TCP_FIN) !== 0;
    const front = seqDiff(rcvNxt, seq);
    if (front > 0) {
      if (payload.length > 0)
        this.#dsack = [seq, seqAdd(seq, Math.min(front, payload.length))];
      payload = payload.subarray(Math.min(front, payload.length));
      seq = seqAdd(seq, front);
    }
    const room = Math.max(0, seqDiff(seqAdd(rcvNxt, wnd), seq));
    if (payload.length > room) {
      payload = payload.subarray(0, room);
      fin = false;
    }
    if (zeroWindowProbe && payload.length < seg.payload.length)
      this.#ackNow = true;
    const receiving = this.state === "ESTABLISHED" || this.state === "FIN_WAIT_1" || this.state === "FIN_WAIT_2";
    if (receiving && payload.length > 0 && this.#reassembler) {
      const inOrder = seq === this.#reassembler.nextSeq;
      const heldBefore = this.#reassembler.bufferedBytes;
      const delivered = this.#reassembler.receive(seq, payload);
      for (const chunk of delivered)
        this.#recvQueue.push(chunk);
      if (!inOrder && this.#reassembler.bufferedBytes === heldBefore)
        this.#dsack = [seq, seqAdd(seq, payload.length)];
      if (!inOrder || heldBefore > 0) {
        this.#ackNow = true;
      } else {
        this.#pendingAckSegments++;
        if (this.#pendingAckSegments < 2)
          this.#armDelayedAck();
        else if (this.#settings.deferAck === void 0)
          this.#ackNow = true;
        else if (!this.#ackDeferred) {
          this.#ackDeferred = true;
          this.#settings.deferAck(() => {
            this.#ackDeferred = false;
            if (this.#pendingAckSegments > 0 && this.state !== "CLOSED")
              this.#sendAck();
          });
        }
      }
      if (delivered.length > 0)
        this.#notify(EV_READABLE);
    }
    if (fin && receiving && this.#peerFinSeq === void 0)
      this.#peerFinSeq = seqAdd(seq, payload.length);
    if (this.#peerFinSeq !== void 0 && !this.#finReceived && this.#reassembler && this.#reassembler.nextSeq === this.#peerFinSeq) {
      this.#finReceived = true;
      this.#ackNow = true;
      if (this.state === "ESTABLISHED")
        this.#setState("CLOSE_WAIT");
      else if (this.state === "FIN_WAIT_1")
        this.#setState("CLOSING");
      else if (this.state === "FIN_WAIT_2")
        this.#enterTimeWait();
      this.#notify(EV_READABLE);
    } else if (this.state === "TIME_WAIT" && fin) {
      this.#ackNow = true;
      this.#armTimeWait();
    }
  }
  #onNewAck(ack) {
    const flightBefore = seqDiff(this.sndMax, this.sndUna);
    const acked = seqDiff(ack, this.sndUna) - (this.sndUna === this.iss ? 1 : 0);
    this.#ackAdvance(ack);
    this.#retransmits = 0;
    this.dupAcks = 0;
    if (this.cc && acked > 0) {
      const wasInRecovery = this.cc.inRecovery;
      const action = this.cc.onAck({ acked, ack, flightBefore: Math.max(flightBefore, acked), sndMax: this.sndMax });
      if (this.#rackOn) {
        if (wasInRecovery && !this.cc.inRecovery)
          this.#rackRecoveryEnded();
      } else if (action === "retransmit" && this.sndUna !== this.sndMax) {
        this.#retransmitAt(this.sndUna);
      }
    }
    if (this.#rtoRecover !== void 0 && seqGe(ack, this.#rtoRecover))
      this.#rtoRecover = void 0;
    if (this.sndUna === this.sndMax)
      this.#stopRto();
    else
      this.#restartRto();
    if (this.sendBufferFree > 0)
      this.#notify(EV_WRITABLE);
  }
  // ---- RACK-TLP (RFC 8985) with PRR (RFC 6937), for peers that SACK ------------------------------
  /** SACK gives RACK what it needs to know which later segments were delivered. */
  get #rackOn() {
    return this.sackPermitted;
  }
  /** After the cumulative ACK was applied: D-SACK bookkeeping, the tail loss probe's outcome,
   * RACK loss detection, recovery entry and the PRR send quota. */
  #rackOnAck(ack, result) {
    const cc = this.cc;
    if (cc === void 0)
      return;
    const now = this.#clock.now();
    const srtt = this.rtt.srttMs ?? this.rtt.rtoMs;
    if (result.dsack) {
      if (now - this.#lastWidenAt >= srtt) {
        this.#rack.widenReoWnd();
        this.#lastWidenAt = now;
      }
      const [start, end] = result.dsack;
      if (this.#undo !== void 0) {
        for (const seq of this.#undo.resent)
          if (seqGe(seq, start) && seqLt(seq, end))
            this.#undo.resent.delete(seq);
      }
    }
    if (this.#undo !== void 0)
      for (const seq of result.spuriousResends)
        this.#undo.resent.delete(seq);
    if (this.#undo !== void 0 && this.#undo.resent.size === 0 && this.#undo.sent && this.#prr === void 0 && this.#rtoRecover === void 0)
      this.#undoReduction(ack);
    if (this.#tlp !== void 0) {
      if (result.dsack)
        this.#tlp = void 0;
      else if (seqGe(ack, this.#tlp.endSeq)) {
        if (this.#tlp.resent && !cc.inRecovery)
          cc.onCongestion({ flight: Math.max(seqDiff(this.sndMax, ack), this.sendMss), sndMax: this.sndMax });
        this.#tlp = void 0;
      }
    }
    this.#rackDetect(result.delivered);
  }
  /** RFC 8985 6.2 step 5 and 6.3: marks losses, arms the reorder timer, starts or paces recovery. */
  #rackDetect(delivered) {
    const cc = this.cc;
    const now = this.#clock.now();
    const srtt = this.rtt.srttMs ?? this.rtt.rtoMs;
    const { lost, timeoutMs } = this.#rack.detectLoss(now, this.#rack.reoWnd(srtt, this.#prr !== void 0 || this.#rtoRecover !== void 0));
    this.#counters.tcpRackLost += lost;
    this.#armRackTimer(timeoutMs);
    if (this.#prr === void 0 && this.#rtoRecover === void 0 && this.#rack.lostPending > 0) {
      if (!cc.inRecovery) {
        const flight = seqDiff(this.sndMax, this.sndUna);
        this.#undo = { cwnd: cc.cwnd, ssthresh: cc.ssthresh, resent: /* @__PURE__ */ new Set(), sent: false };
        cc.onCongestion({ flight, sndMax: this.sndMax });
        this.#counters.tcpFastRetransmits++;
        this.#counters.tcpSackRecoveries++;
      }
      this.#prr = { recoverFs: Math.max(seqDiff(this.sndMax, this.sndUna), 1), delivered: 0, out: 0, budget: 0 };
      this.#tlp = void 0;
      this.#stopTlp();
    }
    if (this.#prr !== void 0 && delivered > 0)
      this.#tlp = void 0;
    if (this.#prr !== void 0)
      this.#prrOnAck(delivered);
  }
  /** RFC 6937 3.1, with the slow-start reduction bound (PRR-SSRB). */
  #prrOnAck(delivered) {
    const prr = this.#prr;
    const ssthresh = this.cc.ssthresh;
    prr.delivered += delivered;
    const pipe = this.#rack.inFlight;
    let sndcnt;
    if (pipe > ssthresh)
      sndcnt = Math.ceil(prr.delivered * ssthresh / prr.recoverFs) - prr.out;
    else
      sndcnt = Math.min(ssthresh - pipe, Math.max(prr.delivered - prr.out, delivered) + this.sendMss);
    if (prr.out === 0 && sndcnt < this.sendMss)
      sndcnt = this.sendMss;
    prr.budget = Math.max(0, sndcnt);
  }
  #rackRecoveryEnded() {
    this.#prr = void 0;
    this.#rack.recoveryEnded();
    if (this.#undo !== void 0 && this.#undo.resent.size === 0 && this.#undo.sent)
      this.#undoReduction(this.sndUna);
  }
  /** Every resend of the last reduction came back as a D-SACK or was ACKed too soon: the loss was reordering. */
  #undoReduction(ack) {
    const undo = this.#undo;
    this.#undo = void 0;
    if (undo.resent.size > 0 || !undo.sent || this.cc?.undo === void 0)
      return;
    this.#counters.tcpSpuriousRetransmits++;
    this.cc.undo({ cwnd: undo.cwnd, ssthresh: undo.ssthresh, ack });
  }
  /**
   * Sending with RACK: resend what is marked lost first (lowest sequence first), then new data;
   * the quota is PRR's during a recovery and cwnd - pipe otherwise (also after a timeout, so the
   * resends follow slow start).
   */
  #rackSend() {
    const cc = this.cc;
    for (; ; ) {
      const budget = this.#prr !== void 0 ? this.#prr.budget : cc.cwnd - this.#rack.inFlight;
      if (budget <= 0)
        break;
      const lost = this.#rack.nextLost();
      if (lost !== void 0) {
        const len2 = seqDiff(lost.end, lost.start);
        if (budget < Math.min(len2, this.sendMss))
          break;
        this.#resend(lost);
        this.#spend(len2);
        continue;
      }
      const offset = seqDiff(this.sndNxt, this.#sendQueueSeq);
      const unsent = this.#sendQueue.length - offset;
      const wantFin = this.#finQueued && seqLe(this.sndNxt, this.#finSeq);
      if (unsent <= 0 && !wantFin)
        break;
      const flight = seqDiff(this.sndNxt, this.sndUna);
      const len = Math.max(0, Math.min(unsent, this.sendMss, this.sndWnd - flight, budget));
      if (unsent > 0 && len === 0)
        break;
      if (len < this.sendMss && len < unsent && (flight > 0 || len < this.maxSndWnd / 2))
        break;
      const fin = wantFin && len === unsent;
      if (len === 0 && !fin)
        break;
      this.#sendData(this.sndNxt, len, fin);
      this.sndNxt = seqAdd(this.sndNxt, len + (fin ? 1 : 0));
      this.sndMax = seqMax(this.sndMax, this.sndNxt);
      this.#spend(len + (fin ? 1 : 0));
      if (fin)
        break;
    }
    this.#armTlp();
  }
  #spend(bytes) {
    if (this.#prr === void 0)
      return;
    this.#prr.out += bytes;
    this.#prr.budget -= bytes;
  }
  /** Resends one recorded segment as it was (its FIN too). */
  #resend(seg) {
    const fin = seg.fin;
    this.#sendData(seg.start, seqDiff(seg.end, seg.start) - (fin ? 1 : 0), fin);
    if (this.#undo !== void 0) {
      this.#undo.resent.add(seg.start);
      this.#undo.sent = true;
    }
  }
  #armRackTimer(timeoutMs) {
    if (this.#rackTimer !== void 0) {
      this.#clock.clearTimeout(this.#rackTimer);
      this.#rackTimer = void 0;
    }
    if (timeoutMs === void 0)
      return;
    this.#rackTimer = this.#clock.setTimeout(() => {
      this.#rackTimer = void 0;
      if (this.state === "CLOSED" || this.state === "TIME_WAIT" || this.sndUna === this.sndMax)
        return;
      this.#rackDetect(0);
      this.#trySend();
    }, Math.max(1, Math.ceil(timeoutMs)));
  }
  /**
   * RFC 8985 7.2: with data in flight, a probe after PTO = 2 x SRTT (plus the peer's worst-case
   * delayed ACK when one segment is out), never later than the RTO; every ACK moves the deadline.
   * Its ACK carries the SACK that lets RACK find a lost tail without waiting for the timeout.
   * Not after a timeout (slow start resends then); during a recovery too, see #onTlpTimer.
   */
  #armTlp() {
    if (!this.#rackOn || this.#rtoRecover !== void 0 || this.#tlp !== void 0)
      return;
    if (this.sndUna === this.sndMax || this.rtt.srttMs === void 0 || this.state === "SYN_SENT" || this.state === "SYN_RECEIVED")
      return;
    const srtt = this.rtt.srttMs;
    let pto = 2 * srtt;
    if (this.#rack.outstanding <= 1)
      pto += this.#settings.tlpDelayedAckMs;
    pto = Math.max(this.#settings.tlpMinMs, Math.min(pto, this.rtt.rtoMs));
    const deadline = this.#clock.now() + pto;
    const armedEarlier = this.#tlpTimer !== void 0 && this.#tlpDeadline !== void 0 && this.#tlpDeadline <= deadline;
    this.#tlpDeadline = deadline;
    if (armedEarlier)
      return;
    this.#stopTlpTimer();
    this.#tlpTimer = this.#clock.setTimeout(() => this.#onTlpTimer(), pto);
  }
  #onTlpTimer() {
    this.#tlpTimer = void 0;
    const deadline = this.#tlpDeadline;
    if (deadline === void 0)
      return;
    const now = this.#clock.now();
    if (deadline > now) {
      this.#tlpTimer = this.#clock.setTimeout(() => this.#onTlpTimer(), deadline - now);
      return;
    }
    this.#tlpDeadline = void 0;
    if (this.state === "CLOSED" || this.state === "TIME_WAIT" || this.sndUna === this.sndMax)
      return;
    if (this.#rtoRecover !== void 0 || this.#tlp !== void 0)
      return;
    const offset = seqDiff(this.sndNxt, this.#sendQueueSeq);
    const unsent = this.#sendQueue.length - offset;
    const room = this.sndWnd - seqDiff(this.sndNxt, this.sndUna);
    if (unsent > 0 && room > 0 && this.#prr === void 0) {
      const len = Math.min(unsent, this.sendMss, room);
      const fin = this.#finQueued && len === unsent;
      this.#sendData(this.sndNxt, len, fin);
      this.sndNxt = seqAdd(this.sndNxt, len + (fin ? 1 : 0));
      this.sndMax = seqMax(this.sndMax, this.sndNxt);
      this.#tlp = { endSeq: this.sndMax, resent: false };
    } else {
      const seg = this.#rack.lastUnsacked();
      if (seg === void 0)
        return;
      this.#resend(seg);
      this.#tlp = { endSeq: this.sndMax, resent: true };
    }
    this.#counters.tcpTailLossProbes++;
    this.#restartRto();
  }
  #stopTlpTimer() {
    if (this.#tlpTimer !== void 0)
      this.#clock.clearTimeout(this.#tlpTimer);
    this.#tlpTimer = void 0;
  }
  #stopTlp() {
    this.#stopTlpTimer();
    this.#tlpDeadline = void 0;
  }
  /** Moves SND.UNA to `ack`, dropping acknowledged bytes; samples the RTT (Karn's rule). */
  #ackAdvance(ack) {
    let dataAcked = seqDiff(ack, this.#sendQueueSeq);
    if (this.#finSent && seqGt(ack, this.#finSeq))
      dataAcked--;
    if (dataAcked > 0) {
      this.#sendQueue.consume(dataAcked);
      this.#sendQueueSeq = seqAdd(this.#sendQueueSeq, dataAcked);
    }
    this.sndUna = ack;
    if (seqLt(this.sndNxt, ack))
      this.sndNxt = ack;
    if (seqLt(this.sndMax, ack))
      this.sndMax = ack;
    if (this.#probeEnd !== void 0 && seqGe(ack, this.#probeEnd))
      this.#probeEnd = void 0;
    if (this.#rttTiming && seqGe(ack, this.#rttTiming.seq)) {
      this.rtt.sample(this.#clock.now() - this.#rttTiming.at);
      this.#rttTiming = void 0;
    }
  }
  /** Without SACK: NewReno counts duplicate ACKs (RFC 5681 3.2, RFC 6582). */
  #onDupAck(ack) {
    this.dupAcks++;
    if (!this.cc)
      return;
    const action = this.cc.onDupAck({ dupAcks: this.dupAcks, ack, flight: seqDiff(this.sndMax, this.sndUna), sndMax: this.sndMax });
    if (action === "retransmit") {
      this.#counters.tcpFastRetransmits++;
      this.#retransmitAt(this.sndUna);
    }
  }
  // ---- sending --------------------------------------------------------------------------------
  #initSend() {
    this.iss = this.#random() >>> 0;
    this.sndUna = this.iss;
    this.sndNxt = this.iss;
    this.sndMax = this.iss;
    this.#sendQueueSeq = seqAdd(this.iss, 1);
  }
  #takePeerSyn(syn) {
    this.irs = syn.seq;
    this.#reassembler = new Reassembler(seqAdd(syn.seq, 1));
    this.sendMss = Math.max(64, Math.min(this.#mss, syn.options.mss ?? this.#settings.defaultMss));
    if (syn.options.windowScale !== void 0) {
      this.sndWscale = Math.min(14, syn.options.windowScale);
      this.rcvWscale = this.#offeredWscale;
    } else {
      this.sndWscale = 0;
      this.rcvWscale = 0;
    }
    this.sackPermitted = syn.options.sackPermitted === true;
    this.cc = this.#settings.congestionControl({ mss: this.sendMss, iss: this.iss });
    if (!(syn.flags & TCP_ACK)) {
      this.sndWnd = syn.window;
      this.maxSndWnd = syn.window;
    }
  }
  #sendSyn() {
    const options = { mss: this.#mss, windowScale: this.#offeredWscale, sackPermitted: true };
    if (this.state === "SYN_RECEIVED") {
      if (this.rcvWscale === 0 && this.sndWscale === 0)
        delete options.windowScale;
      if (!this.sackPermitted)
        delete options.sackPermitted;
    }
    const synAck = this.state === "SYN_RECEIVED";
    const window = Math.min(65535, this.#available());
    this.#emitRaw({ seq: this.iss, ack: synAck ? this.rcvNxt : 0, flags: synAck ? TCP_SYN | TCP_ACK : TCP_SYN, window, options, payload: EMPTY2 });
    if (synAck) {
      this.#rcvAdvRight = seqMax(this.#rcvAdvRight ?? this.rcvNxt, seqAdd(this.rcvNxt, window));
      this.#afterAckSent();
    }
    if (this.sndNxt === this.iss) {
      this.sndNxt = seqAdd(this.iss, 1);
      this.sndMax = seqMax(this.sndMax, this.sndNxt);
      if (!this.#synTimed)
        this.#rttTiming = { seq: this.sndNxt, at: this.#clock.now() };
      this.#synTimed = true;
    }
    if (this.#rtoTimer === void 0)
      this.#restartRto();
  }
  #trySend() {
    if (this.#inInput)
      return;
    const s = this.state;
    if (s !== "ESTABLISHED" && s !== "CLOSE_WAIT" && s !== "FIN_WAIT_1" && s !== "LAST_ACK" && s !== "CLOSING")
      return;
    const cc = this.cc;
    if (this.#rackOn) {
      this.#rackSend();
      this.#maybeArmPersist();
      return;
    }
    for (; ; ) {
      const offset = seqDiff(this.sndNxt, this.#sendQueueSeq);
      const unsent = this.#sendQueue.length - offset;
      const wantFin = this.#finQueued && seqLe(this.sndNxt, this.#finSeq);
      if (unsent <= 0 && !wantFin)
        break;
      const flight = seqDiff(this.sndNxt, this.sndUna);
      const usable = Math.min(this.sndWnd, cc.cwnd) - flight;
      let len = Math.max(0, Math.min(unsent, this.sendMss, usable));
      if (unsent > 0 && len === 0)
        break;
      if (len < this.sendMss && len < unsent && (flight > 0 || len < this.maxSndWnd / 2))
        break;
      len = Math.max(0, len);
      const fin = wantFin && len === unsent;
      if (len === 0 && !fin)
        break;
      this.#sendData(this.sndNxt, len, fin);
      const sent = len + (fin ? 1 : 0);
      this.sndNxt = seqAdd(this.sndNxt, sent);
      this.sndMax = seqMax(this.sndMax, this.sndNxt);
      if (fin)
        break;
    }
    this.#maybeArmPersist();
  }
  /** Sends `len` bytes at `seq` (plus FIN) and keeps the RTO and RTT timing in step. */
  #sendData(seq, len, fin) {
    const payload = new Uint8Array(len);
    if (len > 0)
      this.#sendQueue.copyTo(seqDiff(seq, this.#sendQueueSeq), len, payload, 0);
    const endsQueue = seqDiff(seq, this.#sendQueueSeq) + len === this.#sendQueue.length;
    let flags = TCP_ACK;
    if (fin) {
      flags |= TCP_FIN;
      this.#finSent = true;
    }
    if (len > 0 && endsQueue)
      flags |= TCP_PSH;
    this.#emit({ seq, ack: this.rcvNxt, flags, payload });
    if (this.#rackOn && (len > 0 || fin))
      this.#rack.onTransmit(seq, seqAdd(seq, len + (fin ? 1 : 0)), fin, this.#clock.now());
    if (seqLt(seq, this.sndMax)) {
      this.#counters.tcpSegmentsRetransmitted++;
      if (this.#rttTiming && seqLt(seq, this.#rttTiming.seq))
        this.#rttTiming = void 0;
    } else if (!this.#rttTiming && len > 0) {
      this.#rttTiming = { seq: seqAdd(seq, len), at: this.#clock.now() };
    }
    if (this.#rtoTimer === void 0)
      this.#restartRto();
  }
  /** One segment at `seq` (fast retransmit, partial ACK, lost SYN-ACK), SND.NXT unchanged. */
  #retransmitAt(seq) {
    if (this.state === "SYN_RECEIVED" || this.state === "SYN_SENT") {
      if (this.#rttTiming)
        this.#rttTiming = void 0;
      const saved = this.sndNxt;
      this.sndNxt = this.iss;
      this.#sendSyn();
      this.sndNxt = saved;
      return 0;
    }
    const offset = seqDiff(seq, this.#sendQueueSeq);
    const left = this.#sendQueue.length - offset;
    const len = Math.max(0, Math.min(left, this.sendMss));
    const fin = this.#finSent && len === left && seqLe(seqAdd(seq, len), this.#finSeq);
    if (len === 0 && !fin)
      return 0;
    this.#sendData(seq, len, fin);
    return len + (fin ? 1 : 0);
  }
  /** A pure ACK carries SND.MAX, not SND.NXT: after a timeout rewinds SND.NXT the peer may hold
   * more than that, and an ACK below its RCV.NXT would be unacceptable there (BSD tcp_output). */
  #sendAck() {
    this.#emit({ seq: this.sndMax, ack: this.rcvNxt, flags: TCP_ACK, payload: EMPTY2 });
  }
  /** Every segment but the first SYN carries an ACK, so each one settles delayed-ACK debt. */
  #emit(partial) {
    const options = {};
    if (this.sackPermitted && this.#reassembler && (this.#reassembler.bufferedBytes > 0 || this.#dsack !== void 0) && !(partial.flags & TCP_RST)) {
      const fit = Math.min(MAX_SACK_BLOCKS, Math.floor((this.sendMss - partial.payload.length - 4) / 8));
      const dsack = fit > 0 ? this.#dsack : void 0;
      const blocks = this.#reassembler.sackBlocks(fit - (dsack ? 1 : 0));
      if (dsack)
        blocks.unshift(dsack);
      if (blocks.length > 0)
        options.sack = blocks;
    }
    this.#dsack = void 0;
    const window = partial.flags & TCP_RST ? 0 : this.#advertise();
    this.#emitRaw({ ...partial, window, options });
    if (partial.flags & TCP_ACK)
      this.#afterAckSent();
  }
  #emitRaw(partial) {
    this.#output({
      srcPort: this.endpoint.localPort,
      dstPort: this.endpoint.remotePort,
      seq: partial.seq,
      ack: partial.ack,
      flags: partial.flags,
      window: partial.window ?? 0,
      options: partial.options ?? {},
      payload: partial.payload
    });
  }
  #afterAckSent() {
    this.#ackNow = false;
    this.#pendingAckSegments = 0;
    if (this.#delackTimer !== void 0) {
      this.#clock.clearTimeout(this.#delackTimer);
      this.#delackTimer = void 0;
    }
  }
  get #finSeq() {
    return seqAdd(this.#sendQueueSeq, this.#sendQueue.length);
  }
  // ---- receive window -----------------------------------------------------------------------
  #available() {
    return Math.max(0, this.#settings.receiveBufferBytes - this.#recvQueue.length);
  }
  /** The window field to send: never shrinks the right edge; grows it only in steps of
   * min(buffer/2, MSS) (receiver SWS avoidance); rounded up to the scale unit. */
  #advertise() {
    const rcvNxt = this.rcvNxt;
    let right = seqAdd(rcvNxt, this.#available());
    const step = Math.min(Math.floor(this.#settings.receiveBufferBytes / 2), this.#mss);
    if (this.#rcvAdvRight !== void 0 && seqDiff(right, this.#rcvAdvRight) < step)
      right = seqMax(this.#rcvAdvRight, rcvNxt);
    const window = Math.max(0, seqDiff(right, rcvNxt));
    const unit = 2 ** this.rcvWscale;
    const field = Math.min(65535, Math.ceil(window / unit));
    const edge = seqAdd(rcvNxt, field * unit);
    this.#rcvAdvRight = this.#rcvAdvRight === void 0 ? edge : seqMax(this.#rcvAdvRight, edge);
    return field;
  }
  /** After the reader consumed data: tell the peer when the window at least doubled. */
  #maybeWindowUpdate() {
    if (this.state !== "ESTABLISHED" && this.state !== "FIN_WAIT_1" && this.state !== "FIN_WAIT_2")
      return;
    if (this.#rcvAdvRight === void 0)
      return;
    const rcvNxt = this.rcvNxt;
    const oldWindow = Math.max(0, seqDiff(this.#rcvAdvRight, rcvNxt));
    const available = this.#available();
    const growth = seqDiff(seqAdd(rcvNxt, available), this.#rcvAdvRight);
    const step = Math.min(Math.floor(this.#settings.receiveBufferBytes / 2), this.#mss);
    if (growth >= step && available >= 2 * oldWindow)
      this.#sendAck();
  }
  // ---- timers ---------------------------------------------------------------------------------
  #armDelayedAck() {
    if (this.#delackTimer !== void 0)
      return;
    this.#delackTimer = this.#clock.setTimeout(() => {
      this.#delackTimer = void 0;
      if (this.state !== "CLOSED")
        this.#sendAck();
    }, this.#settings.delayedAckMs);
  }
  #restartRto() {
    if (this.#rtoTimer !== void 0)
      this.#clock.clearTimeout(this.#rtoTimer);
    this.#rtoTimer = this.#clock.setTimeout(() => this.#onRto(), this.rtt.rtoMs);
  }
  #stopRto() {
    if (this.#rtoTimer !== void 0)
      this.#clock.clearTimeout(this.#rtoTimer);
    this.#rtoTimer = void 0;
  }
  #onRto() {
    this.#rtoTimer = void 0;
    if (this.state === "CLOSED" || this.state === "TIME_WAIT")
      return;
    if (this.sndUna === this.sndMax)
      return;
    this.#retransmits++;
    const handshake = this.state === "SYN_SENT" || this.state === "SYN_RECEIVED";
    if (this.#retransmits > (handshake ? this.#settings.synRetries : this.#settings.maxRetransmits)) {
      const error = new TcpTimeoutError(handshake ? "connection attempt timed out" : "connection timed out", { details: this.#details() });
      if (handshake && this.state === "SYN_RECEIVED")
        this.abort();
      else
        this.#enterClosed(error);
      return;
    }
    this.rtt.backoff();
    this.#rttTiming = void 0;
    this.dupAcks = 0;
    if (handshake) {
      this.#retransmitAt(this.iss);
      this.#restartRto();
      return;
    }
    this.#counters.tcpTimeouts++;
    if (this.#rackOn) {
      if (this.#prr !== void 0)
        this.#rack.recoveryEnded();
      this.#prr = void 0;
      this.#tlp = void 0;
      this.#stopTlp();
      this.#armRackTimer(void 0);
      this.cc?.onTimeout({ flight: seqDiff(this.sndMax, this.sndUna), sndMax: this.sndMax });
      this.#rack.markAllLost(this.#retransmits > 1);
      this.#rtoRecover = this.sndMax;
      this.#undo = void 0;
      this.#restartRto();
      this.#trySend();
      return;
    }
    this.cc?.onTimeout({ flight: seqDiff(this.sndMax, this.sndUna), sndMax: this.sndMax });
    this.sndNxt = this.sndUna;
    this.#restartRto();
    this.#trySend();
  }
  /** With data waiting and nothing in flight, no ACK will come to clock more out: a zero window
   * needs probing, and a window kept short by SWS avoidance needs the override timeout of
   * RFC 1122 4.2.3.4. One persist timer does both. */
  #maybeArmPersist() {
    if (this.#persistTimer !== void 0)
      return;
    if (this.sndUna !== this.sndMax || this.#rtoTimer !== void 0)
      return;
    if (this.#sendQueue.length - seqDiff(this.sndNxt, this.#sendQueueSeq) <= 0)
      return;
    const delay = Math.min(this.#settings.persistMaxMs, Math.max(this.#settings.minRtoMs, this.rtt.rtoMs) * 2 ** this.#persistBackoff);
    this.#persistTimer = this.#clock.setTimeout(() => this.#onPersist(), delay);
  }
  #stopPersist() {
    if (this.#persistTimer !== void 0)
      this.#clock.clearTimeout(this.#persistTimer);
    this.#persistTimer = void 0;
    this.#persistBackoff = 0;
  }
  #onPersist() {
    this.#persistTimer = void 0;
    if (this.state === "CLOSED" || this.state === "TIME_WAIT")
      return;
    const offset = seqDiff(this.sndNxt, this.#sendQueueSeq);
    const unsent = this.#sendQueue.length - offset;
    if (unsent <= 0 || this.sndUna !== this.sndMax)
      return;
    if (this.sndWnd > 0) {
      const len = Math.min(unsent, this.sndWnd, this.sendMss, this.cc?.cwnd ?? this.sendMss);
      this.#sendData(this.sndNxt, len, false);
      this.sndNxt = seqAdd(this.sndNxt, len);
      this.sndMax = seqMax(this.sndMax, this.sndNxt);
      return;
    }
    if (++this.#unansweredProbes > this.#settings.maxRetransmits) {
      this.#enterClosed(new TcpTimeoutError("peer stopped answering zero-window probes", { details: this.#details() }));
      return;
    }
    const payload = new Uint8Array(1);
    this.#sendQueue.copyTo(offset, 1, payload, 0);
    this.#emit({ seq: this.sndNxt, ack: this.rcvNxt, flags: TCP_ACK, payload });
    this.#probeEnd = seqAdd(this.sndNxt, 1);
    if (this.#persistBackoff < 16)
      this.#persistBackoff++;
    this.#maybeArmPersist();
  }
  #enterTimeWait() {
    this.#setState("TIME_WAIT");
    this.#stopRto();
    this.#stopTlp();
    this.#armRackTimer(void 0);
    this.#stopPersist();
    this.#armTimeWait();
  }
  #armTimeWait() {
    if (this.#timeWaitTimer !== void 0)
      this.#clock.clearTimeout(this.#timeWaitTimer);
    this.#timeWaitTimer = this.#clock.setTimeout(() => {
      this.#timeWaitTimer = void 0;
      this.#enterClosed();
    }, this.#settings.timeWaitMs);
  }
  #enterClosed(error) {
    if (this.state === "CLOSED")
      return;
    this.#setState("CLOSED");
    for (const timer of [this.#rtoTimer, this.#persistTimer, this.#delackTimer, this.#timeWaitTimer, this.#tlpTimer, this.#rackTimer]) {
      if (timer !== void 0)
        this.#clock.clearTimeout(timer);
    }
    this.#rtoTimer = this.#persistTimer = this.#delackTimer = this.#timeWaitTimer = this.#tlpTimer = this.#rackTimer = void 0;
    this.#tlpDeadline = void 0;
    this.handler.closed?.(error);
  }
  #setState(next) {
    const previous = this.state;
    if (previous === next)
      return;
    this.state = next;
    this.handler.stateChange?.(previous, next);
  }
  #details() {
    return { localPort: this.endpoint.localPort, remotePort: this.endpoint.remotePort, state: this.state };
  }
};
var EMPTY2 = new Uint8Array(0);
var EV_ESTABLISHED = 1;
var EV_READABLE = 2;
var EV_WRITABLE = 4;

// dist/services/netstack/tcp-socket.js
import { Duplex } from "node:stream";
var TcpSocket = class extends Duplex {
  localAddress;
  localPort;
  remoteAddress;
  remotePort;
  remoteFamily = "IPv4";
  #conn;
  #wantRead = false;
  #pushedEnd = false;
  #pendingWrite;
  constructor(conn, info) {
    super({ allowHalfOpen: info.allowHalfOpen ?? false, readableHighWaterMark: 64 * 1024, writableHighWaterMark: 64 * 1024 });
    this.#conn = conn;
    this.localAddress = info.localAddress;
    this.localPort = info.localPort;
    this.remoteAddress = info.remoteAddress;
    this.remotePort = info.remotePort;
  }
  /** The TCP state, for diagnostics. */
  get tcpState() {
    return this.#conn.state;
  }
  // net.Socket compatibility for callers that tune sockets; segments already go out at once.
  setNoDelay(_noDelay) {
    return this;
  }
  setKeepAlive(_enable, _initialDelayMs) {
    return this;
  }
  _read() {
    this.#wantRead = true;
    this.#pump();
  }
  _write(chunk, _encoding, callback) {
    const conn = this.#conn;
    if (conn.state === "CLOSED" || conn.finQueued) {
      callback(new NetstackClosedError("TCP connection is closed", { details: { remotePort: this.remotePort } }));
      return;
    }
    conn.write(chunk);
    if (conn.sendBufferFree > 0)
      callback();
    else
      this.#pendingWrite = callback;
  }
  _final(callback) {
    this.#conn.close();
    callback();
  }
  _destroy(error, callback) {
    const conn = this.#conn;
    if (conn.state !== "CLOSED" && (error || !conn.finQueued || !conn.finReceived))
      conn.abort();
    this.#failPendingWrite(error ?? new NetstackClosedError("TCP socket destroyed"));
    callback(error);
  }
  /** The connection has new in-order data or its FIN. */
  onConnectionReadable() {
    this.#pump();
  }
  onConnectionWritable() {
    const callback = this.#pendingWrite;
    if (callback && this.#conn.sendBufferFree > 0) {
      this.#pendingWrite = void 0;
      callback();
    }
  }
  onConnectionClosed(error) {
    if (error) {
      this.destroy(error);
      return;
    }
    this.#failPendingWrite(new NetstackClosedError("TCP connection closed"));
    this.#pump();
  }
  #failPendingWrite(error) {
    const callback = this.#pendingWrite;
    this.#pendingWrite = void 0;
    callback?.(error);
  }
  #pump() {
    while (this.#wantRead) {
      const chunk = this.#conn.read();
      if (!chunk) {
        if (!this.#pushedEnd && this.#conn.finReceived) {
          this.#pushedEnd = true;
          this.#wantRead = false;
          this.push(null);
        }
        return;
      }
      this.#wantRead = this.push(chunk);
    }
  }
};

// dist/services/netstack/udp.js
import { EventEmitter } from "node:events";
var UDP_HEADER_BYTES = 8;
function parseUdp(data, src, dst) {
  if (data.length < UDP_HEADER_BYTES)
    return void 0;
  const length = data[4] << 8 | data[5];
  if (length < UDP_HEADER_BYTES || length > data.length)
    return void 0;
  const checksum = data[6] << 8 | data[7];
  if (checksum !== 0 && foldChecksum(sumWords(data, 0, length, pseudoHeaderSum(src, dst, IP_PROTO_UDP, length))) !== 0)
    return void 0;
  return { srcPort: data[0] << 8 | data[1], dstPort: data[2] << 8 | data[3], payload: data.subarray(UDP_HEADER_BYTES, length) };
}
function writeUdp(out, offset, datagram, src, dst) {
  const length = UDP_HEADER_BYTES + datagram.payload.length;
  out[offset] = datagram.srcPort >>> 8;
  out[offset + 1] = datagram.srcPort & 255;
  out[offset + 2] = datagram.dstPort >>> 8;
  out[offset + 3] = datagram.dstPort & 255;
  out[offset + 4] = length >>> 8;
  out[offset + 5] = length & 255;
  out[offset + 6] = 0;
  out[offset + 7] = 0;
  out.set(datagram.payload, offset + UDP_HEADER_BYTES);
  let checksum = foldChecksum(sumWords(out, offset, offset + length, pseudoHeaderSum(src, dst, IP_PROTO_UDP, length)));
  if (checksum === 0)
    checksum = 65535;
  out[offset + 6] = checksum >>> 8;
  out[offset + 7] = checksum & 255;
  return length;
}
var UdpSocket = class extends EventEmitter {
  port;
  #host;
  #closed = false;
  constructor(host, port) {
    super();
    this.#host = host;
    this.port = port;
  }
  address() {
    return { address: this.#host.localAddress, port: this.port, family: "IPv4" };
  }
  get closed() {
    return this.#closed;
  }
  /** Sends one datagram; it must fit the link MTU (the stack never fragments). */
  send(message, port, address) {
    if (this.#closed)
      throw new NetstackClosedError("UDP socket is closed");
    const payload = typeof message === "string" ? Buffer.from(message) : message;
    const dst = parseIpv4Address(address);
    if (dst === void 0)
      throw new NetstackInvalidArgumentError(`not an IPv4 address: ${address}`, { details: { address } });
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new NetstackInvalidArgumentError(`bad UDP port ${port}`, { details: { port } });
    if (payload.length > this.#host.maxPayloadBytes) {
      throw new NetstackInvalidArgumentError(`datagram of ${payload.length} bytes exceeds ${this.#host.maxPayloadBytes}`, { details: { size: payload.length } });
    }
    this.#host.sendUdp(this.port, dst, port, payload);
  }
  close() {
    if (this.#closed)
      return;
    this.#closed = true;
    this.#host.release(this.port, this);
    this.emit("close");
  }
  /** Called by the stack for each datagram addressed to this port. */
  deliver(src, srcPort, payload) {
    if (this.#closed)
      return;
    const message = Buffer.from(payload);
    this.emit("message", message, { address: formatIpv4Address(src), port: srcPort, family: "IPv4", size: message.length });
  }
};

// dist/services/netstack/netstack.js
function tcpSettingsFromDefaults(overrides = {}, congestionControl = newReno) {
  return {
    receiveBufferBytes: tcpReceiveBufferBytes,
    sendBufferBytes: tcpSendBufferBytes,
    delayedAckMs: tcpDelayedAckMs,
    initialRtoMs: tcpInitialRtoMs,
    minRtoMs: tcpMinRtoMs,
    maxRtoMs: tcpMaxRtoMs,
    persistMaxMs: tcpPersistMaxMs,
    timeWaitMs: tcpTimeWaitMs,
    maxRetransmits: tcpMaxRetransmits,
    synRetries: tcpSynRetries,
    defaultMss: tcpDefaultMss,
    tlpMinMs: tcpTlpMinMs,
    tlpDelayedAckMs: tcpTlpDelayedAckMs,
    congestionControl,
    ...overrides
  };
}
function createNetStack(options) {
  const local = parseIpv4Address(options.localAddress);
  if (local === void 0)
    throw new NetstackInvalidArgumentError(`not an IPv4 address: ${options.localAddress}`);
  const localAddress = formatIpv4Address(local);
  const { link } = options;
  const clock = options.clock ?? systemClock2;
  const random = options.random ?? cryptoRandomUint32;
  const log = options.logger ?? silentLogger();
  const settings = tcpSettingsFromDefaults(options.tcp, options.congestionControl);
  const mtu = link.mtu;
  const mss = mtu - IPV4_HEADER_BYTES - TCP_HEADER_BYTES;
  if (mss < 64)
    throw new NetstackInvalidArgumentError(`link MTU ${mtu} is too small`);
  const backlog = options.listenBacklog ?? tcpListenBacklog;
  const counters = {
    ipReceived: 0,
    ipSent: 0,
    ipDroppedMalformed: 0,
    ipDroppedChecksum: 0,
    ipDroppedFragment: 0,
    ipDroppedNotForUs: 0,
    ipDroppedProtocol: 0,
    icmpEchoReplied: 0,
    tcpDroppedMalformed: 0,
    tcpResetsSent: 0,
    udpDroppedMalformed: 0,
    udpDroppedNoSocket: 0,
    receiveErrors: 0,
    sendErrors: 0,
    tcpSegmentsRetransmitted: 0,
    tcpSpuriousRetransmits: 0,
    tcpFastRetransmits: 0,
    tcpTimeouts: 0,
    tcpSackRecoveries: 0,
    tcpTailLossProbes: 0,
    tcpRackLost: 0
  };
  const connections = /* @__PURE__ */ new Map();
  const listeners = /* @__PURE__ */ new Map();
  const udpSockets = /* @__PURE__ */ new Map();
  const pings = /* @__PURE__ */ new Map();
  let ipId = random() & 65535;
  let pingSeq = 0;
  const pingId = random() & 65535;
  let closed = false;
  const key = (remote, remotePort, localPort) => `${remote}:${remotePort}:${localPort}`;
  function sendIp(dst, protocol, body) {
    writeIpv4Header(body, { src: local, dst, protocol, ttl: netstackIpTtl, id: ipId, payloadLength: body.length - IPV4_HEADER_BYTES });
    ipId = ipId + 1 & 65535;
    counters.ipSent++;
    try {
      link.send(body);
    } catch (err) {
      if (counters.sendErrors++ % 1e3 === 0)
        log.warn({ err, sendErrors: counters.sendErrors }, "link send failed");
    }
  }
  function sendTcp(dst, segment) {
    if (closed && !(segment.flags & TCP_RST))
      return;
    const length = TCP_HEADER_BYTES + optionsLength(segment.options) + segment.payload.length;
    const packet = new Uint8Array(IPV4_HEADER_BYTES + length);
    writeTcp(packet, IPV4_HEADER_BYTES, segment, local, dst);
    sendIp(dst, IP_PROTO_TCP, packet);
  }
  function pickPort(inUse) {
    const min = netstackEphemeralPortMin;
    const span = netstackEphemeralPortMax - min + 1;
    for (let i = 0; i < 64; i++) {
      const port = min + random() % span;
      if (!inUse(port))
        return port;
    }
    const start = random() % span;
    for (let i = 0; i < span; i++) {
      const port = min + (start + i) % span;
      if (!inUse(port))
        return port;
    }
    return void 0;
  }
  function track(remote, entryKey, allowHalfOpen, build, hooks) {
    const entry = { conn: void 0 };
    const handler = {
      established() {
        entry.socket = new TcpSocket(entry.conn, {
          localAddress,
          localPort: entry.conn.endpoint.localPort,
          remoteAddress: formatIpv4Address(remote),
          remotePort: entry.conn.endpoint.remotePort,
          allowHalfOpen
        });
        hooks.established(entry);
      },
      readable: () => entry.socket?.onConnectionReadable(),
      writable: () => entry.socket?.onConnectionWritable(),
      closed(error) {
        if (connections.get(entryKey) === entry)
          connections.delete(entryKey);
        if (entry.socket)
          entry.socket.onConnectionClosed(error);
        else
          hooks.failed(error);
      }
    };
    connections.set(entryKey, entry);
    entry.conn = build(handler);
    return entry;
  }
  function connect(host, port, connectOptions = {}) {
    return (async () => {
      checkOpen();
      checkPort(port);
      const address = await resolve(host);
      checkOpen();
      connectOptions.signal?.throwIfAborted();
      const remote = parseIpv4Address(address);
      const localPort = pickPort((p) => connections.has(key(remote, port, p)) || listeners.has(p));
      if (localPort === void 0)
        throw new NetstackAddressInUseError("no free ephemeral port");
      return await new Promise((resolvePromise, reject) => {
        let timer;
        const onAbort = () => {
          entry.conn.abort();
        };
        const cleanup = () => {
          if (timer !== void 0)
            clock.clearTimeout(timer);
          connectOptions.signal?.removeEventListener("abort", onAbort);
        };
        let timedOut = false;
        const entry = track(remote, key(remote, port, localPort), connectOptions.allowHalfOpen ?? false, (handler) => TcpConnection.connect({
          endpoint: { localPort, remotePort: port },
          clock,
          random,
          mss,
          settings,
          handler,
          counters,
          output: (segment) => sendTcp(remote, segment)
        }), {
          established(e) {
            cleanup();
            resolvePromise(e.socket);
          },
          failed(error) {
            cleanup();
            if (error)
              reject(error);
            else if (timedOut)
              reject(new TcpTimeoutError(`connect to ${address}:${port} timed out`, { details: { address, port } }));
            else if (connectOptions.signal?.aborted)
              reject(connectOptions.signal.reason ?? new NetstackClosedError("connect aborted"));
            else
              reject(new NetstackClosedError("network stack closed"));
          }
        });
        if (connectOptions.timeoutMs !== void 0) {
          timer = clock.setTimeout(() => {
            timedOut = true;
            entry.conn.abort();
          }, connectOptions.timeoutMs);
        }
        if (connectOptions.signal) {
          if (connectOptions.signal.aborted)
            onAbort();
          else
            connectOptions.signal.addEventListener("abort", onAbort, { once: true });
        }
      });
    })();
  }
  function listen(port, onConnection, listenOptions = {}) {
    checkOpen();
    checkPort(port);
    if (listeners.has(port))
      throw new NetstackAddressInUseError(`TCP port ${port} is already listened on`, { details: { port } });
    const entry = { port, onConnection, embryonic: 0, closed: false, allowHalfOpen: listenOptions.allowHalfOpen ?? false };
    listeners.set(port, entry);
    return {
      port,
      close() {
        entry.closed = true;
        if (listeners.get(port) === entry)
          listeners.delete(port);
      }
    };
  }
  function acceptSyn(listener, src, segment) {
    if (listener.embryonic >= backlog)
      return;
    listener.embryonic++;
    let counted = true;
    const release = () => {
      if (counted)
        listener.embryonic--;
      counted = false;
    };
    track(src, key(src, segment.srcPort, segment.dstPort), listener.allowHalfOpen, (handler) => TcpConnection.accept({
      endpoint: { localPort: segment.dstPort, remotePort: segment.srcPort },
      clock,
      random,
      mss,
      settings,
      handler,
      counters,
      output: (out) => sendTcp(src, out)
    }, segment), {
      established(entry) {
        release();
        if (listener.closed)
          entry.conn.abort();
        else
          listener.onConnection(entry.socket);
      },
      failed: release
    });
  }
  function receiveTcp(src, body) {
    const segment = parseTcp(body, src, local);
    if (!segment) {
      counters.tcpDroppedMalformed++;
      return;
    }
    const entry = connections.get(key(src, segment.srcPort, segment.dstPort));
    if (entry) {
      entry.conn.input(segment);
      return;
    }
    if (segment.flags & TCP_RST)
      return;
    const listener = listeners.get(segment.dstPort);
    if (listener && segment.flags & TCP_SYN && !(segment.flags & TCP_ACK)) {
      acceptSyn(listener, src, segment);
      return;
    }
    counters.tcpResetsSent++;
    const reset = segment.flags & TCP_ACK ? { srcPort: segment.dstPort, dstPort: segment.srcPort, seq: segment.ack, ack: 0, flags: TCP_RST, window: 0, options: {}, payload: new Uint8Array(0) } : { srcPort: segment.dstPort, dstPort: segment.srcPort, seq: 0, ack: segment.seq + segmentLength(segment) >>> 0, flags: TCP_RST | TCP_ACK, window: 0, options: {}, payload: new Uint8Array(0) };
    sendTcp(src, reset);
  }
  const udpHost = {
    localAddress,
    maxPayloadBytes: mtu - IPV4_HEADER_BYTES - UDP_HEADER_BYTES,
    sendUdp(srcPort, dst, dstPort, payload) {
      if (closed)
        throw new NetstackClosedError("network stack closed");
      const packet = new Uint8Array(IPV4_HEADER_BYTES + UDP_HEADER_BYTES + payload.length);
      writeUdp(packet, IPV4_HEADER_BYTES, { srcPort, dstPort, payload }, local, dst);
      sendIp(dst, IP_PROTO_UDP, packet);
    },
    release(port, socket) {
      if (udpSockets.get(port) === socket)
        udpSockets.delete(port);
    }
  };
  function createUdpSocket(socketOptions = {}) {
    checkOpen();
    let port = socketOptions.port;
    if (port !== void 0) {
      checkPort(port);
      if (udpSockets.has(port))
        throw new NetstackAddressInUseError(`UDP port ${port} is already bound`, { details: { port } });
    } else {
      port = pickPort((p) => udpSockets.has(p));
      if (port === void 0)
        throw new NetstackAddressInUseError("no free ephemeral UDP port");
    }
    const socket = new UdpSocket(udpHost, port);
    udpSockets.set(port, socket);
    return socket;
  }
  function receiveUdp(src, body) {
    const datagram = parseUdp(body, src, local);
    if (!datagram) {
      counters.udpDroppedMalformed++;
      return;
    }
    const socket = udpSockets.get(datagram.dstPort);
    if (!socket) {
      counters.udpDroppedNoSocket++;
      return;
    }
    socket.deliver(src, datagram.srcPort, datagram.payload);
  }
  function receiveIcmp(src, body) {
    if (body.length < 8 || internetChecksum(body) !== 0) {
      counters.ipDroppedMalformed++;
      return;
    }
    const type = body[0];
    if (type === 8 && body[1] === 0) {
      const packet = new Uint8Array(IPV4_HEADER_BYTES + body.length);
      packet.set(body, IPV4_HEADER_BYTES);
      packet[IPV4_HEADER_BYTES] = 0;
      packet[IPV4_HEADER_BYTES + 2] = 0;
      packet[IPV4_HEADER_BYTES + 3] = 0;
      const checksum = internetChecksum(packet, IPV4_HEADER_BYTES);
      packet[IPV4_HEADER_BYTES + 2] = checksum >>> 8;
      packet[IPV4_HEADER_BYTES + 3] = checksum & 255;
      counters.icmpEchoReplied++;
      sendIp(src, IP_PROTO_ICMP, packet);
    } else if (type === 0 && (body[4] << 8 | body[5]) === pingId) {
      const seq = body[6] << 8 | body[7];
      const waiter = pings.get(seq);
      if (waiter) {
        pings.delete(seq);
        waiter.resolve(clock.now() - waiter.sentAt);
      }
    }
  }
  function ping(address, timeoutMs = netstackPingTimeoutMs) {
    return new Promise((resolvePromise, reject) => {
      checkOpen();
      const dst = parseIpv4Address(address);
      if (dst === void 0)
        throw new NetstackInvalidArgumentError(`not an IPv4 address: ${address}`);
      const seq = pingSeq;
      pingSeq = pingSeq + 1 & 65535;
      const packet = new Uint8Array(IPV4_HEADER_BYTES + 16);
      const icmp = packet.subarray(IPV4_HEADER_BYTES);
      icmp[0] = 8;
      icmp[4] = pingId >>> 8;
      icmp[5] = pingId & 255;
      icmp[6] = seq >>> 8;
      icmp[7] = seq & 255;
      const checksum = internetChecksum(icmp);
      icmp[2] = checksum >>> 8;
      icmp[3] = checksum & 255;
      const timer = clock.setTimeout(() => {
        pings.delete(seq);
        reject(new NetstackPingTimeoutError(`no echo reply from ${address}`, { details: { address } }));
      }, timeoutMs);
      pings.set(seq, { sentAt: clock.now(), resolve: (rtt) => {
        clock.clearTimeout(timer);
        resolvePromise(rtt);
      } });
      sendIp(dst, IP_PROTO_ICMP, packet);
    });
  }
  function receive(packet) {
    if (closed)
      return;
    counters.ipReceived++;
    try {
      const parsed = parseIpv4(packet);
      if (!parsed.ok) {
        if (parsed.reason === "checksum")
          counters.ipDroppedChecksum++;
        else if (parsed.reason === "fragment")
          counters.ipDroppedFragment++;
        else
          counters.ipDroppedMalformed++;
        return;
      }
      const { src, dst, protocol, payload } = parsed.packet;
      if (dst !== local) {
        counters.ipDroppedNotForUs++;
        return;
      }
      if (protocol === IP_PROTO_TCP)
        receiveTcp(src, payload);
      else if (protocol === IP_PROTO_UDP)
        receiveUdp(src, payload);
      else if (protocol === IP_PROTO_ICMP)
        receiveIcmp(src, payload);
      else
        counters.ipDroppedProtocol++;
    } catch (err) {
      counters.receiveErrors++;
      log.error({ err }, "netstack receive path failed");
    }
  }
  link.onPacket(receive);
  function checkOpen() {
    if (closed)
      throw new NetstackClosedError("network stack closed");
  }
  function checkPort(port) {
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new NetstackInvalidArgumentError(`bad port ${port}`, { details: { port } });
  }
  function resolve(name) {
    if (closed)
      return Promise.reject(new NetstackClosedError("network stack closed"));
    return resolveA({
      servers: options.dnsServers ?? [],
      clock,
      random,
      createSocket: () => createUdpSocket(),
      timeoutMs: options.dnsQueryTimeoutMs ?? netstackDnsQueryTimeoutMs,
      attempts: options.dnsQueryAttempts ?? netstackDnsQueryAttempts
    }, name);
  }
  function close() {
    if (closed)
      return;
    for (const listener of listeners.values())
      listener.closed = true;
    listeners.clear();
    for (const entry of [...connections.values()]) {
      entry.conn.abort();
      entry.socket?.destroy(new NetstackClosedError("network stack closed"));
    }
    connections.clear();
    closed = true;
    for (const socket of [...udpSockets.values()])
      socket.close();
    pings.clear();
    log.debug("netstack closed");
  }
  return {
    localAddress,
    mtu,
    connect,
    listen,
    createUdpSocket,
    resolve,
    ping,
    stats: () => ({ ...counters, tcpConnections: connections.size, udpSockets: udpSockets.size }),
    close
  };
}

// dist/services/wireguard/config.js
function parseKey(text) {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/.test(trimmed))
    return void 0;
  const bytes = Buffer.from(trimmed, "base64");
  return bytes.length === 32 ? new Uint8Array(bytes) : void 0;
}
function encodeKey(bytes) {
  return Buffer.from(bytes).toString("base64");
}
function parseIpv42(text) {
  const parts = text.split(".");
  if (parts.length !== 4)
    return void 0;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i];
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part))
      return void 0;
    const n = Number(part);
    if (n > 255)
      return void 0;
    out[i] = n;
  }
  return out;
}
function parseIpv6(text) {
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || text.length > 45)
    return void 0;
  const halves = text.split("::");
  if (halves.length > 2)
    return void 0;
  const groupsOf = (s) => {
    if (s === "")
      return [];
    const out2 = [];
    const pieces = s.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIpv42(piece);
        if (v4 === void 0)
          return void 0;
        out2.push(v4[0] << 8 | v4[1], v4[2] << 8 | v4[3]);
      } else {
        if (!/^[0-9A-Fa-f]{1,4}$/.test(piece))
          return void 0;
        out2.push(parseInt(piece, 16));
      }
    }
    return out2;
  };
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (head === void 0 || tail === void 0)
    return void 0;
  let groups;
  if (halves.length === 2) {
    if (head.length + tail.length > 7)
      return void 0;
    groups = [...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    if (head.length !== 8)
      return void 0;
    groups = head;
  }
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 255;
  });
  return out;
}
function parseIp(text) {
  if (text.includes(":")) {
    const bytes2 = parseIpv6(text);
    return bytes2 === void 0 ? void 0 : { family: 6, bytes: bytes2 };
  }
  const bytes = parseIpv42(text);
  return bytes === void 0 ? void 0 : { family: 4, bytes };
}
function formatIp(bytes) {
  if (bytes.length === 4)
    return bytes.join(".");
  const groups = [];
  for (let i = 0; i < 16; i += 2)
    groups.push((bytes[i] << 8 | bytes[i + 1]).toString(16));
  return groups.join(":").replace(/(^|:)0(:0)+(:|$)/, "::").replace(/:{3,}/, "::");
}
function splitPrefix(text) {
  const trimmed = text.trim();
  const slash = trimmed.indexOf("/");
  const ipText = slash === -1 ? trimmed : trimmed.slice(0, slash);
  const ip = parseIp(ipText);
  if (ip === void 0)
    return void 0;
  const max = ip.family === 4 ? 32 : 128;
  if (slash === -1)
    return { ip, prefix: max };
  const prefixText = trimmed.slice(slash + 1);
  if (!/^(0|[1-9][0-9]{0,2})$/.test(prefixText))
    return void 0;
  const prefix = Number(prefixText);
  if (prefix > max)
    return void 0;
  return { ip, prefix };
}
function parseCidr(text) {
  const parsed = splitPrefix(text);
  if (parsed === void 0)
    return void 0;
  const bytes = maskBytes(parsed.ip.bytes, parsed.prefix);
  return { family: parsed.ip.family, bytes, prefix: parsed.prefix, text: `${formatIp(bytes)}/${parsed.prefix}` };
}
function maskBytes(bytes, prefix) {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < out.length; i++) {
    const bits = Math.max(0, Math.min(8, prefix - i * 8));
    out[i] &= bits === 0 ? 0 : 255 << 8 - bits & 255;
  }
  return out;
}
function cidrContains(cidr, address, offset = 0) {
  const full = cidr.prefix >> 3;
  for (let i = 0; i < full; i++)
    if (address[offset + i] !== cidr.bytes[i])
      return false;
  const rest = cidr.prefix & 7;
  if (rest === 0)
    return true;
  const mask = 255 << 8 - rest & 255;
  return ((address[offset + full] ?? 0) & mask) === cidr.bytes[full];
}
function parseInterfaceAddress(text) {
  const parsed = splitPrefix(text);
  if (parsed === void 0)
    return void 0;
  return { family: parsed.ip.family, bytes: parsed.ip.bytes, prefix: parsed.prefix, text: `${formatIp(parsed.ip.bytes)}/${parsed.prefix}` };
}
function parseEndpoint(text) {
  const trimmed = text.trim();
  let host;
  let portText;
  if (trimmed.startsWith("[")) {
    const close = trimmed.indexOf("]");
    if (close === -1 || trimmed[close + 1] !== ":")
      return void 0;
    host = trimmed.slice(1, close);
    if (parseIp(host)?.family !== 6)
      return void 0;
    portText = trimmed.slice(close + 2);
  } else {
    const colon = trimmed.lastIndexOf(":");
    if (colon <= 0)
      return void 0;
    host = trimmed.slice(0, colon);
    portText = trimmed.slice(colon + 1);
    if (host.includes(":"))
      return void 0;
    if (!/^[A-Za-z0-9.-]+$/.test(host) || host.length > 253)
      return void 0;
    if (/^[0-9.]+$/.test(host) && parseIp(host) === void 0)
      return void 0;
  }
  if (!/^[0-9]{1,5}$/.test(portText))
    return void 0;
  const port = Number(portText);
  if (port < 1 || port > 65535)
    return void 0;
  return { host, port };
}
function fail(line, why) {
  throw new WireGuardConfigError(`WireGuard config line ${line.number} (${JSON.stringify(line.text)}): ${why}`, {
    line: line.number,
    text: line.text.includes("PrivateKey") || line.text.includes("PresharedKey") ? "[redacted]" : line.text
  });
}
function parseInteger(line, value, min, max, what) {
  if (!/^[0-9]{1,6}$/.test(value))
    fail(line, `${what} must be a whole number`);
  const n = Number(value);
  if (n < min || n > max)
    fail(line, `${what} must be between ${min} and ${max}`);
  return n;
}
function list(value) {
  return value.split(",").map((s) => s.trim()).filter((s) => s !== "");
}
function parseWgConfig(text) {
  if (typeof text !== "string")
    throw new WireGuardConfigError("WireGuard config must be text", { line: 0, text: "" });
  const lines = text.split(/\r?\n|\r/);
  let section = "none";
  let interfaceHeader;
  let privateKey;
  const addresses = [];
  const dns = [];
  let mtu;
  let listenPort;
  const peers = [];
  const seen = /* @__PURE__ */ new Set();
  lines.forEach((raw, index) => {
    const line = { number: index + 1, text: raw };
    const hashAt = raw.indexOf("#");
    const content = (hashAt === -1 ? raw : raw.slice(0, hashAt)).trim();
    if (content === "")
      return;
    if (content.startsWith("[")) {
      const name = content.toLowerCase();
      if (name === "[interface]") {
        if (interfaceHeader !== void 0)
          fail(line, "a second [Interface] section");
        interfaceHeader = line;
        section = "interface";
      } else if (name === "[peer]") {
        peers.push({ header: line, allowedIps: [], persistentKeepalive: 0 });
        section = "peer";
      } else {
        fail(line, "unknown section (expected [Interface] or [Peer])");
      }
      seen.clear();
      return;
    }
    const eq = content.indexOf("=");
    if (eq === -1)
      fail(line, 'expected "Key = Value"');
    const key = content.slice(0, eq).trim().toLowerCase();
    const value = content.slice(eq + 1).trim();
    if (section === "none")
      fail(line, "key outside of an [Interface] or [Peer] section");
    const repeatable = key === "address" || key === "dns" || key === "allowedips";
    if (!repeatable && seen.has(key))
      fail(line, `duplicate key ${content.slice(0, eq).trim()}`);
    seen.add(key);
    if (section === "interface") {
      switch (key) {
        case "privatekey":
          privateKey = parseKey(value) ?? fail(line, "PrivateKey must be a base64 32-byte key");
          return;
        case "address":
          for (const item of list(value))
            addresses.push(parseInterfaceAddress(item) ?? fail(line, `bad address ${JSON.stringify(item)}`));
          return;
        case "dns":
          for (const item of list(value))
            dns.push(item);
          return;
        case "mtu":
          mtu = parseInteger(line, value, 576, 65535, "MTU");
          return;
        case "listenport":
          listenPort = parseInteger(line, value, 0, 65535, "ListenPort");
          return;
        // wg-quick keys that do not apply to an in-process tunnel: accepted and ignored.
        case "table":
        case "preup":
        case "postup":
        case "predown":
        case "postdown":
        case "saveconfig":
        case "fwmark":
          return;
        default:
          fail(line, `unknown [Interface] key ${content.slice(0, eq).trim()}`);
      }
    }
    const peer = peers[peers.length - 1];
    switch (key) {
      case "publickey":
        peer.publicKey = parseKey(value) ?? fail(line, "PublicKey must be a base64 32-byte key");
        return;
      case "presharedkey":
        peer.presharedKey = parseKey(value) ?? fail(line, "PresharedKey must be a base64 32-byte key");
        return;
      case "endpoint":
        peer.endpoint = parseEndpoint(value) ?? fail(line, "Endpoint must be host:port or [ipv6]:port");
        return;
      case "allowedips":
        for (const item of list(value))
          peer.allowedIps.push(parseCidr(item) ?? fail(line, `bad CIDR ${JSON.stringify(item)}`));
        return;
      case "persistentkeepalive":
        peer.persistentKeepalive = value.toLowerCase() === "off" ? 0 : parseInteger(line, value, 0, 65535, "PersistentKeepalive");
        return;
      default:
        fail(line, `unknown [Peer] key ${content.slice(0, eq).trim()}`);
    }
  });
  if (interfaceHeader === void 0)
    fail({ number: lines.length, text: lines[lines.length - 1] ?? "" }, "missing [Interface] section");
  if (privateKey === void 0)
    fail(interfaceHeader, "[Interface] has no PrivateKey");
  const keys = /* @__PURE__ */ new Set();
  const done = peers.map((p) => {
    if (p.publicKey === void 0)
      fail(p.header, "[Peer] has no PublicKey");
    const id = encodeKey(p.publicKey);
    if (keys.has(id))
      fail(p.header, "the same PublicKey appears in two [Peer] sections");
    keys.add(id);
    return {
      publicKey: p.publicKey,
      presharedKey: p.presharedKey,
      endpoint: p.endpoint,
      allowedIps: p.allowedIps,
      persistentKeepalive: p.persistentKeepalive
    };
  });
  return { privateKey, addresses, dns, mtu, listenPort, peers: done };
}

// dist/services/wireguard/device.js
import { lookup as dnsLookup } from "node:dns/promises";
import { randomBytes as randomBytes3 } from "node:crypto";

// dist/services/wireguard/allowed-ips.js
var AllowedIps = class {
  v4 = [];
  v6 = [];
  insert(cidr, value) {
    const list2 = cidr.family === 4 ? this.v4 : this.v6;
    const same = list2.findIndex((e) => e.cidr.prefix === cidr.prefix && e.cidr.text === cidr.text);
    if (same !== -1)
      list2.splice(same, 1);
    list2.push({ cidr, value });
    list2.sort((a, b) => b.cidr.prefix - a.cidr.prefix);
  }
  /** The value of the most specific range containing the address at `offset` (4 or 16 bytes). */
  lookup(family, address, offset = 0) {
    const list2 = family === 4 ? this.v4 : this.v6;
    for (const entry of list2)
      if (cidrContains(entry.cidr, address, offset))
        return entry.value;
    return void 0;
  }
};
function innerPacketInfo(packet) {
  if (packet.length < 1)
    return void 0;
  const version = packet[0] >> 4;
  if (version === 4) {
    if (packet.length < 20)
      return void 0;
    const length = packet[2] << 8 | packet[3];
    if (length < 20 || length > packet.length)
      return void 0;
    return { family: 4, length, srcOffset: 12, dstOffset: 16 };
  }
  if (version === 6) {
    if (packet.length < 40)
      return void 0;
    const length = 40 + (packet[4] << 8 | packet[5]);
    if (length > packet.length)
      return void 0;
    return { family: 6, length, srcOffset: 8, dstOffset: 24 };
  }
  return void 0;
}

// dist/services/wireguard/crypto.js
import { createCipheriv, createDecipheriv, createHash, createHmac, createPrivateKey, createPublicKey, createSecretKey, diffieHellman } from "node:crypto";

// node_modules/@noble/hashes/utils.js
function isBytes(a) {
  return a instanceof Uint8Array || ArrayBuffer.isView(a) && a.constructor.name === "Uint8Array" && "BYTES_PER_ELEMENT" in a && a.BYTES_PER_ELEMENT === 1;
}
var atitle = (title) => title ? `"${title}" ` : "";
function anumber(n, title = "") {
  if (typeof n !== "number")
    throw new TypeError(atitle(title) + "expected number, got " + typeof n);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError(atitle(title) + "expected integer >= 0, got " + n);
  return n;
}
function abytes(value, length, title = "") {
  if (isBytes(value) && (length === void 0 || value.length === length))
    return value;
  if (length !== void 0)
    anumber(length, "length");
  const bytes = isBytes(value);
  const ofLen = length !== void 0 ? ` of length ${length}` : "";
  const got = bytes ? `length=${value.length}` : `type=${typeof value}`;
  const message = atitle(title) + "expected Uint8Array" + ofLen + ", got " + got;
  if (!bytes)
    throw new TypeError(message);
  throw new RangeError(message);
}
function copyBytes(bytes) {
  return Uint8Array.from(abytes(bytes));
}
var aobject = (value, label) => {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new TypeError((label === "object" ? "" : `"${label}" `) + "expected object, got type=" + typeof value);
};
var aopts = (value, label) => {
  aobject(value, label);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null)
    throw new TypeError(`"${label}" expected plain object`);
  if (Object.hasOwn(value, "__proto__"))
    throw new TypeError(`"${label}.__proto__" is not allowed`);
};
function aexists(instance, checkFinished = true) {
  if (instance.destroyed)
    throw new Error("hash was destroyed");
  if (checkFinished && instance.finished)
    throw new Error("digest() was already called");
}
function aoutput(out, instance) {
  abytes(out, void 0, "output");
  const min = instance.outputLen;
  if (!(out.length >= min)) {
    throw new RangeError('"output" expected length >= ' + min);
  }
}
function u32(arr) {
  return new Uint32Array(arr.buffer, arr.byteOffset, Math.floor(arr.byteLength / 4));
}
function clean(...arrays) {
  for (let i = 0; i < arrays.length; i++) {
    arrays[i].fill(0);
  }
}
function rotr(word, shift) {
  return word << 32 - shift | word >>> shift;
}
var isLE = /* @__PURE__ */ (() => new Uint8Array(new Uint32Array([287454020]).buffer)[0] === 68)();
function byteSwap(word) {
  return word << 24 & 4278190080 | word << 8 & 16711680 | word >>> 8 & 65280 | word >>> 24 & 255;
}
var swap8IfBE = isLE ? (n) => n : (n) => byteSwap(n) >>> 0;
function byteSwap32(arr) {
  for (let i = 0; i < arr.length; i++) {
    arr[i] = byteSwap(arr[i]);
  }
  return arr;
}
var swap32IfBE = isLE ? (u) => u : byteSwap32;
function checkOpts(defaults, opts, title = "opts") {
  aopts(defaults, "defaults");
  if (opts !== void 0)
    aopts(opts, title);
  const merged = Object.assign(/* @__PURE__ */ Object.create(null), defaults, opts);
  return merged;
}
function createHasher(hashCons, info = {}) {
  if (typeof hashCons !== "function")
    throw new TypeError('"hashCons" expected function, got type=' + typeof hashCons);
  info = checkOpts({}, info, "info");
  const hashC = (msg, opts) => hashCons(opts).update(msg).digest();
  const tmp = hashCons(void 0);
  hashC.outputLen = tmp.outputLen;
  hashC.blockLen = tmp.blockLen;
  hashC.canXOF = tmp.canXOF;
  hashC.create = (opts) => hashCons(opts);
  Object.assign(hashC, info);
  return Object.freeze(hashC);
}

// node_modules/@noble/hashes/_blake.js
var BSIGMA = /* @__PURE__ */ Uint8Array.from([
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
  14,
  10,
  4,
  8,
  9,
  15,
  13,
  6,
  1,
  12,
  0,
  2,
  11,
  7,
  5,
  3,
  11,
  8,
  12,
  0,
  5,
  2,
  15,
  13,
  10,
  14,
  3,
  6,
  7,
  1,
  9,
  4,
  7,
  9,
  3,
  1,
  13,
  12,
  11,
  14,
  2,
  6,
  5,
  10,
  4,
  0,
  15,
  8,
  9,
  0,
  5,
  7,
  2,
  4,
  10,
  15,
  14,
  1,
  11,
  12,
  6,
  8,
  3,
  13,
  2,
  12,
  6,
  10,
  0,
  11,
  8,
  3,
  4,
  13,
  7,
  5,
  15,
  14,
  1,
  9,
  12,
  5,
  1,
  15,
  14,
  13,
  4,
  10,
  0,
  7,
  6,
  3,
  9,
  2,
  8,
  11,
  13,
  11,
  7,
  14,
  12,
  1,
  3,
  9,
  5,
  0,
  15,
  4,
  8,
  6,
  2,
  10,
  6,
  15,
  14,
  9,
  11,
  3,
  0,
  8,
  12,
  2,
  13,
  7,
  1,
  4,
  10,
  5,
  10,
  2,
  8,
  4,
  7,
  6,
  1,
  5,
  15,
  11,
  9,
  14,
  3,
  12,
  13,
  0,
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
  14,
  10,
  4,
  8,
  9,
  15,
  13,
  6,
  1,
  12,
  0,
  2,
  11,
  7,
  5,
  3,
  // Blake1, unused in others
  11,
  8,
  12,
  0,
  5,
  2,
  15,
  13,
  10,
  14,
  3,
  6,
  7,
  1,
  9,
  4,
  7,
  9,
  3,
  1,
  13,
  12,
  11,
  14,
  2,
  6,
  5,
  10,
  4,
  0,
  15,
  8,
  9,
  0,
  5,
  7,
  2,
  4,
  10,
  15,
  14,
  1,
  11,
  12,
  6,
  8,
  3,
  13,
  2,
  12,
  6,
  10,
  0,
  11,
  8,
  3,
  4,
  13,
  7,
  5,
  15,
  14,
  1,
  9
]);
function G1s(a, b, c, d, x) {
  a = a + b + x | 0;
  d = rotr(d ^ a, 16);
  c = c + d | 0;
  b = rotr(b ^ c, 12);
  return { a, b, c, d };
}
function G2s(a, b, c, d, x) {
  a = a + b + x | 0;
  d = rotr(d ^ a, 8);
  c = c + d | 0;
  b = rotr(b ^ c, 7);
  return { a, b, c, d };
}

// node_modules/@noble/hashes/_u64.js
var fromNumH = (n) => n / 2 ** 32 | 0;
var fromNumL = (n) => n >>> 0;

// node_modules/@noble/hashes/_md.js
var SHA256_IV = /* @__PURE__ */ Uint32Array.from([
  1779033703,
  3144134277,
  1013904242,
  2773480762,
  1359893119,
  2600822924,
  528734635,
  1541459225
]);

// node_modules/@noble/hashes/blake2.js
function checkBlake2Opts(outputLen, opts = {}, keyLen, saltLen, persLen) {
  anumber(keyLen);
  if (outputLen <= 0 || outputLen > keyLen)
    throw new Error('"dkLen" must be 1..' + keyLen + ", got " + outputLen);
  const { key, salt, personalization } = opts;
  if (key !== void 0 && (key.length < 1 || key.length > keyLen))
    throw new Error('"key" expected to be undefined or of length=1..' + keyLen);
  if (salt !== void 0)
    abytes(salt, saltLen, "salt");
  if (personalization !== void 0)
    abytes(personalization, persLen, "personalization");
}
var _BLAKE2 = class {
  buffer;
  buffer32;
  finished = false;
  destroyed = false;
  length = 0;
  pos = 0;
  blockLen;
  outputLen;
  canXOF = false;
  constructor(blockLen, outputLen) {
    anumber(blockLen);
    anumber(outputLen);
    this.blockLen = blockLen;
    this.outputLen = outputLen;
    this.buffer = new Uint8Array(blockLen);
    this.buffer32 = u32(this.buffer);
  }
  update(data) {
    aexists(this);
    abytes(data);
    const { blockLen, buffer, buffer32 } = this;
    const len = data.length;
    const offset = data.byteOffset;
    const buf = data.buffer;
    for (let pos = 0; pos < len; ) {
      if (this.pos === blockLen) {
        swap32IfBE(buffer32);
        this.compress(buffer32, 0, false);
        swap32IfBE(buffer32);
        this.pos = 0;
      }
      const take = Math.min(blockLen - this.pos, len - pos);
      const dataOffset = offset + pos;
      if (take === blockLen && !(dataOffset % 4) && pos + take < len) {
        const data32 = new Uint32Array(buf, dataOffset, Math.floor((len - pos) / 4));
        swap32IfBE(data32);
        for (let pos32 = 0; pos + blockLen < len; pos32 += buffer32.length, pos += blockLen) {
          this.length += blockLen;
          this.compress(data32, pos32, false);
        }
        swap32IfBE(data32);
        continue;
      }
      buffer.set(pos === 0 && take === len ? data : data.subarray(pos, pos + take), this.pos);
      this.pos += take;
      this.length += take;
      pos += take;
    }
    return this;
  }
  digestInto(out) {
    aexists(this);
    aoutput(out, this);
    if (out.byteOffset & 3)
      throw new RangeError('"output" expected 4-byte aligned byteOffset, got ' + out.byteOffset);
    const { pos, buffer32 } = this;
    this.finished = true;
    this.buffer.fill(0, pos);
    swap32IfBE(buffer32);
    this.compress(buffer32, 0, true);
    swap32IfBE(buffer32);
    const state = this.get();
    const out32 = out === this.buffer ? buffer32 : u32(out);
    const full = Math.floor(this.outputLen / 4);
    for (let i = 0; i < full; i++)
      out32[i] = swap8IfBE(state[i]);
    const tail = this.outputLen % 4;
    if (!tail)
      return;
    const off = full * 4;
    const word = state[full];
    for (let i = 0; i < tail; i++)
      out[off + i] = word >>> 8 * i;
  }
  digest() {
    const { buffer, outputLen } = this;
    this.digestInto(buffer);
    const res = buffer.slice(0, outputLen);
    this.destroy();
    return res;
  }
  _cloneInto(to) {
    const { buffer, length, finished, destroyed, outputLen, pos } = this;
    to ||= new this.constructor({ dkLen: outputLen });
    to.set(...this.get());
    to.buffer.set(buffer);
    to.destroyed = destroyed;
    to.finished = finished;
    to.length = length;
    to.pos = pos;
    to.outputLen = outputLen;
    return to;
  }
  clone() {
    return this._cloneInto();
  }
};
function _compress(s, offset, msg, rounds, v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15) {
  let j = 0;
  for (let i = 0; i < rounds; i++) {
    ({ a: v0, b: v4, c: v8, d: v12 } = G1s(v0, v4, v8, v12, msg[offset + s[j++]]));
    ({ a: v0, b: v4, c: v8, d: v12 } = G2s(v0, v4, v8, v12, msg[offset + s[j++]]));
    ({ a: v1, b: v5, c: v9, d: v13 } = G1s(v1, v5, v9, v13, msg[offset + s[j++]]));
    ({ a: v1, b: v5, c: v9, d: v13 } = G2s(v1, v5, v9, v13, msg[offset + s[j++]]));
    ({ a: v2, b: v6, c: v10, d: v14 } = G1s(v2, v6, v10, v14, msg[offset + s[j++]]));
    ({ a: v2, b: v6, c: v10, d: v14 } = G2s(v2, v6, v10, v14, msg[offset + s[j++]]));
    ({ a: v3, b: v7, c: v11, d: v15 } = G1s(v3, v7, v11, v15, msg[offset + s[j++]]));
    ({ a: v3, b: v7, c: v11, d: v15 } = G2s(v3, v7, v11, v15, msg[offset + s[j++]]));
    ({ a: v0, b: v5, c: v10, d: v15 } = G1s(v0, v5, v10, v15, msg[offset + s[j++]]));
    ({ a: v0, b: v5, c: v10, d: v15 } = G2s(v0, v5, v10, v15, msg[offset + s[j++]]));
    ({ a: v1, b: v6, c: v11, d: v12 } = G1s(v1, v6, v11, v12, msg[offset + s[j++]]));
    ({ a: v1, b: v6, c: v11, d: v12 } = G2s(v1, v6, v11, v12, msg[offset + s[j++]]));
    ({ a: v2, b: v7, c: v8, d: v13 } = G1s(v2, v7, v8, v13, msg[offset + s[j++]]));
    ({ a: v2, b: v7, c: v8, d: v13 } = G2s(v2, v7, v8, v13, msg[offset + s[j++]]));
    ({ a: v3, b: v4, c: v9, d: v14 } = G1s(v3, v4, v9, v14, msg[offset + s[j++]]));
    ({ a: v3, b: v4, c: v9, d: v14 } = G2s(v3, v4, v9, v14, msg[offset + s[j++]]));
  }
  return { v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15 };
}
var B2S_IV = /* @__PURE__ */ SHA256_IV.slice();
var _BLAKE2s = class extends _BLAKE2 {
  // Internal state, same as SHA-256
  v0 = B2S_IV[0] | 0;
  v1 = B2S_IV[1] | 0;
  v2 = B2S_IV[2] | 0;
  v3 = B2S_IV[3] | 0;
  v4 = B2S_IV[4] | 0;
  v5 = B2S_IV[5] | 0;
  v6 = B2S_IV[6] | 0;
  v7 = B2S_IV[7] | 0;
  constructor(opts = {}) {
    opts = checkOpts({}, opts);
    const olen = opts.dkLen === void 0 ? 32 : opts.dkLen;
    super(64, olen);
    checkBlake2Opts(olen, opts, 32, 8, 8);
    let { key, personalization, salt } = opts;
    let keyLength = 0;
    if (key !== void 0) {
      abytes(key, void 0, "key");
      keyLength = key.length;
    }
    this.v0 ^= this.outputLen | keyLength << 8 | 1 << 16 | 1 << 24;
    if (salt !== void 0) {
      abytes(salt, void 0, "salt");
      const slt = u32(copyBytes(salt));
      this.v4 ^= swap8IfBE(slt[0]);
      this.v5 ^= swap8IfBE(slt[1]);
    }
    if (personalization !== void 0) {
      abytes(personalization, void 0, "personalization");
      const pers = u32(copyBytes(personalization));
      this.v6 ^= swap8IfBE(pers[0]);
      this.v7 ^= swap8IfBE(pers[1]);
    }
    if (key !== void 0) {
      const tmp = new Uint8Array(this.blockLen);
      tmp.set(key);
      this.update(tmp);
      clean(tmp);
    }
  }
  get() {
    const { v0, v1, v2, v3, v4, v5, v6, v7 } = this;
    return [v0, v1, v2, v3, v4, v5, v6, v7];
  }
  // prettier-ignore
  set(v0, v1, v2, v3, v4, v5, v6, v7) {
    this.v0 = v0 | 0;
    this.v1 = v1 | 0;
    this.v2 = v2 | 0;
    this.v3 = v3 | 0;
    this.v4 = v4 | 0;
    this.v5 = v5 | 0;
    this.v6 = v6 | 0;
    this.v7 = v7 | 0;
  }
  compress(msg, offset, isLast) {
    const l = fromNumL(this.length);
    const h = fromNumH(this.length);
    const { v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15 } = _compress(BSIGMA, offset, msg, 10, this.v0, this.v1, this.v2, this.v3, this.v4, this.v5, this.v6, this.v7, B2S_IV[0], B2S_IV[1], B2S_IV[2], B2S_IV[3], l ^ B2S_IV[4], h ^ B2S_IV[5], isLast ? ~B2S_IV[6] : B2S_IV[6], B2S_IV[7]);
    this.v0 ^= v0 ^ v8;
    this.v1 ^= v1 ^ v9;
    this.v2 ^= v2 ^ v10;
    this.v3 ^= v3 ^ v11;
    this.v4 ^= v4 ^ v12;
    this.v5 ^= v5 ^ v13;
    this.v6 ^= v6 ^ v14;
    this.v7 ^= v7 ^ v15;
  }
  destroy() {
    this.destroyed = true;
    clean(this.buffer32);
    this.set(0, 0, 0, 0, 0, 0, 0, 0);
  }
};
var blake2s = /* @__PURE__ */ createHasher((opts) => new _BLAKE2s(opts));

// node_modules/@noble/ciphers/utils.js
function isBytes2(a) {
  return a instanceof Uint8Array || ArrayBuffer.isView(a) && a.constructor.name === "Uint8Array" && "BYTES_PER_ELEMENT" in a && a.BYTES_PER_ELEMENT === 1;
}
var atitle2 = (title) => title ? `"${title}" ` : "";
function abool(value, title = "") {
  if (typeof value !== "boolean")
    throw new TypeError(atitle2(title) + "expected boolean, got type=" + typeof value);
  return value;
}
function anumber2(n, title = "") {
  if (typeof n !== "number")
    throw new TypeError(atitle2(title) + "expected number, got " + typeof n);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError(atitle2(title) + "expected integer >= 0, got " + n);
  return n;
}
function abytes2(value, length, title = "") {
  if (isBytes2(value) && (length === void 0 || value.length === length))
    return value;
  if (length !== void 0)
    anumber2(length, "length");
  const bytes = isBytes2(value);
  const ofLen = length !== void 0 ? ` of length ${length}` : "";
  const got = bytes ? `length=${value.length}` : `type=${typeof value}`;
  const message = atitle2(title) + "expected Uint8Array" + ofLen + ", got " + got;
  if (!bytes)
    throw new TypeError(message);
  throw new RangeError(message);
}
var aobject2 = (value, label) => {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new TypeError(label === "object" ? "expected valid options object" : `"${label}" expected object, got type=${typeof value}`);
};
function aexists2(instance, checkFinished = true) {
  if (instance.destroyed)
    throw new Error("hash was destroyed");
  if (checkFinished && instance.finished)
    throw new Error("digest() was already called");
}
function aoutput2(out, instance) {
  abytes2(out, void 0, "output");
  const min = instance.outputLen;
  if (!(out.length >= min)) {
    throw new RangeError('"output" expected length >= ' + min);
  }
}
function u322(arr) {
  return new Uint32Array(arr.buffer, arr.byteOffset, Math.floor(arr.byteLength / 4));
}
function clean2(...arrays) {
  for (let i = 0; i < arrays.length; i++) {
    arrays[i].fill(0);
  }
}
function createView(arr) {
  return new DataView(arr.buffer, arr.byteOffset, arr.byteLength);
}
var isLE2 = /* @__PURE__ */ (() => new Uint8Array(new Uint32Array([287454020]).buffer)[0] === 68)();
function byteSwap2(word) {
  return word << 24 & 4278190080 | word << 8 & 16711680 | word >>> 8 & 65280 | word >>> 24 & 255;
}
function byteSwap322(arr) {
  for (let i = 0; i < arr.length; i++) {
    arr[i] = byteSwap2(arr[i]);
  }
  return arr;
}
var swap32IfBE2 = isLE2 ? (u) => u : byteSwap322;
function overlapBytes(a, b) {
  if (!a.byteLength || !b.byteLength)
    return false;
  return a.buffer === b.buffer && // best we can do, may fail with an obscure Proxy
  a.byteOffset < b.byteOffset + b.byteLength && // a starts before b end
  b.byteOffset < a.byteOffset + a.byteLength;
}
function complexOverlapBytes(input, output) {
  if (overlapBytes(input, output) && input.byteOffset < output.byteOffset)
    throw new Error("complex overlap of input and output is not supported");
}
function checkOpts2(defaults, opts) {
  aobject2(defaults, "defaults");
  aobject2(opts, "opts");
  const merged = Object.assign(defaults, opts);
  return merged;
}
function equalBytes(a, b) {
  a = abytes2(a);
  b = abytes2(b);
  if (a.length !== b.length)
    return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++)
    diff |= a[i] ^ b[i];
  return diff === 0;
}
function wrapMacConstructor(keyLen, macCons, fromMsg) {
  const mac2 = macCons;
  const getArgs = fromMsg || (() => []);
  const macC = (msg, key) => mac2(key, ...getArgs(msg)).update(msg).digest();
  const tmp = mac2(new Uint8Array(keyLen), ...getArgs(new Uint8Array(0)));
  macC.outputLen = tmp.outputLen;
  macC.blockLen = tmp.blockLen;
  macC.create = (key, ...args) => mac2(key, ...args);
  return macC;
}
var wrapCipher = /* @__NO_SIDE_EFFECTS__ */ (params, constructor) => {
  function wrappedCipher(key, ...args) {
    abytes2(key, void 0, "key");
    if (params.nonceLength !== void 0) {
      const nonce = args[0];
      abytes2(nonce, params.varSizeNonce ? void 0 : params.nonceLength, "nonce");
    }
    const tagl = params.tagLength;
    const aadStart = params.nonceLength !== void 0 ? 1 : 0;
    if (!params.withAAD) {
      for (let i = aadStart; i < args.length; i++)
        if (isBytes2(args[i]))
          throw new Error("AAD not supported");
    }
    if (params.withAAD && args[aadStart] !== void 0)
      abytes2(args[aadStart], void 0, "AAD");
    const cipher = constructor(key, ...args);
    const checkOutput = (fnLength, output) => {
      if (output !== void 0) {
        if (fnLength !== 2)
          throw new Error("cipher output not supported");
        abytes2(output, void 0, "output");
      }
    };
    let called = false;
    const wrCipher = {
      encrypt(data, output) {
        if (called)
          throw new Error("cannot encrypt() twice with same key + nonce");
        called = true;
        abytes2(data, void 0, "data");
        checkOutput(cipher.encrypt.length, output);
        return cipher.encrypt(data, output);
      },
      decrypt(data, output) {
        abytes2(data, void 0, "data");
        if (tagl && data.length < tagl)
          throw new Error('"ciphertext" expected length >= tagLength=' + tagl);
        checkOutput(cipher.decrypt.length, output);
        return cipher.decrypt(data, output);
      }
    };
    return wrCipher;
  }
  Object.assign(wrappedCipher, params);
  return wrappedCipher;
};
function getOutput(expectedLength, out, onlyAligned = true) {
  if (out === void 0)
    return new Uint8Array(expectedLength);
  abytes2(out, expectedLength, "output");
  if (onlyAligned && !isAligned32(out))
    throw new Error("invalid output, must be aligned");
  return out;
}
function u64Lengths(dataLength, aadLength, isLE3) {
  anumber2(dataLength);
  anumber2(aadLength);
  abool(isLE3);
  const num = new Uint8Array(16);
  const view = createView(num);
  view.setBigUint64(0, BigInt(aadLength), isLE3);
  view.setBigUint64(8, BigInt(dataLength), isLE3);
  return num;
}
function isAligned32(bytes) {
  return bytes.byteOffset % 4 === 0;
}
function copyBytes2(bytes) {
  return Uint8Array.from(abytes2(bytes));
}

// node_modules/@noble/ciphers/_arx.js
var encodeStr = (str) => Uint8Array.from(str.split(""), (c) => c.charCodeAt(0));
var sigma16_32 = /* @__PURE__ */ (() => swap32IfBE2(u322(encodeStr("expand 16-byte k"))))();
var sigma32_32 = /* @__PURE__ */ (() => swap32IfBE2(u322(encodeStr("expand 32-byte k"))))();
function rotl(a, b) {
  return a << b | a >>> 32 - b;
}
var BLOCK_LEN = 64;
var BLOCK_LEN32 = 16;
var MAX_COUNTER = /* @__PURE__ */ (() => 2 ** 32 - 1)();
var U32_EMPTY = /* @__PURE__ */ Uint32Array.of();
function runCipher(core, sigma, key, nonce, data, output, counter, rounds) {
  const len = data.length;
  const block = new Uint8Array(BLOCK_LEN);
  const b32 = u322(block);
  const isAligned = isLE2 && isAligned32(data) && isAligned32(output);
  const d32 = isAligned ? u322(data) : U32_EMPTY;
  const o32 = isAligned ? u322(output) : U32_EMPTY;
  if (!isLE2) {
    for (let pos = 0; pos < len; counter++) {
      core(sigma, key, nonce, b32, counter, rounds);
      swap32IfBE2(b32);
      if (counter >= MAX_COUNTER)
        throw new Error("arx: counter overflow");
      const take = Math.min(BLOCK_LEN, len - pos);
      for (let j = 0, posj; j < take; j++) {
        posj = pos + j;
        output[posj] = data[posj] ^ block[j];
      }
      pos += take;
    }
    return;
  }
  for (let pos = 0; pos < len; counter++) {
    core(sigma, key, nonce, b32, counter, rounds);
    if (counter >= MAX_COUNTER)
      throw new Error("arx: counter overflow");
    const take = Math.min(BLOCK_LEN, len - pos);
    if (isAligned && take === BLOCK_LEN) {
      const pos32 = pos / 4;
      if (pos % 4 !== 0)
        throw new Error("arx: invalid block position");
      for (let j = 0, posj; j < BLOCK_LEN32; j++) {
        posj = pos32 + j;
        o32[posj] = d32[posj] ^ b32[j];
      }
      pos += BLOCK_LEN;
      continue;
    }
    for (let j = 0, posj; j < take; j++) {
      posj = pos + j;
      output[posj] = data[posj] ^ block[j];
    }
    pos += take;
  }
}
function createCipher(core, opts) {
  const { allowShortKeys, extendNonceFn, counterLength, counterRight, rounds } = checkOpts2({ allowShortKeys: false, counterLength: 8, counterRight: false, rounds: 20 }, opts);
  if (typeof core !== "function")
    throw new Error("core must be a function");
  anumber2(counterLength);
  anumber2(rounds);
  abool(counterRight);
  abool(allowShortKeys);
  return (key, nonce, data, output, counter = 0) => {
    abytes2(key, void 0, "key");
    abytes2(nonce, void 0, "nonce");
    abytes2(data, void 0, "data");
    const len = data.length;
    const hasOutput = output !== void 0;
    output = getOutput(len, output, false);
    if (hasOutput)
      complexOverlapBytes(data, output);
    anumber2(counter);
    if (counter < 0 || counter >= MAX_COUNTER)
      throw new Error("arx: counter overflow");
    const toClean = [];
    let l = key.length;
    let k;
    let sigma;
    if (l === 32) {
      toClean.push(k = copyBytes2(key));
      sigma = sigma32_32;
    } else if (l === 16 && allowShortKeys) {
      k = new Uint8Array(32);
      k.set(key);
      k.set(key, 16);
      sigma = sigma16_32;
      toClean.push(k);
    } else {
      abytes2(key, 32, "arx key");
      throw new Error("invalid key size");
    }
    if (!isLE2 || !isAligned32(nonce))
      toClean.push(nonce = copyBytes2(nonce));
    let k32 = u322(k);
    if (extendNonceFn) {
      if (nonce.length !== 24)
        throw new Error("arx: extended nonce must be 24 bytes");
      const n16 = nonce.subarray(0, 16);
      if (isLE2)
        extendNonceFn(sigma, k32, u322(n16), k32);
      else {
        const sigmaRaw = swap32IfBE2(Uint32Array.from(sigma));
        extendNonceFn(sigmaRaw, k32, u322(n16), k32);
        clean2(sigmaRaw);
        swap32IfBE2(k32);
      }
      nonce = nonce.subarray(16);
    } else if (!isLE2)
      swap32IfBE2(k32);
    const nonceNcLen = 16 - counterLength;
    if (nonceNcLen !== nonce.length)
      throw new Error(`arx: nonce must be ${nonceNcLen} or 16 bytes`);
    if (nonceNcLen !== 12) {
      const nc = new Uint8Array(12);
      nc.set(nonce, counterRight ? 0 : 12 - nonce.length);
      nonce = nc;
      toClean.push(nonce);
    }
    const n32 = swap32IfBE2(u322(nonce));
    try {
      runCipher(core, sigma, k32, n32, data, output, counter, rounds);
      return output;
    } finally {
      clean2(...toClean);
    }
  };
}

// node_modules/@noble/ciphers/_poly1305.js
function u8to16(a, i) {
  return a[i++] & 255 | (a[i++] & 255) << 8;
}
var Poly1305 = class {
  blockLen = 16;
  outputLen = 16;
  buffer = new Uint8Array(16);
  r = new Uint16Array(10);
  // Allocating 1 array with .subarray() here is slower than 3
  h = new Uint16Array(10);
  pad = new Uint16Array(8);
  pos = 0;
  finished = false;
  destroyed = false;
  // Can be speed-up using BigUint64Array, at the cost of complexity
  constructor(key) {
    key = copyBytes2(abytes2(key, 32, "key"));
    const t0 = u8to16(key, 0);
    const t1 = u8to16(key, 2);
    const t2 = u8to16(key, 4);
    const t3 = u8to16(key, 6);
    const t4 = u8to16(key, 8);
    const t5 = u8to16(key, 10);
    const t6 = u8to16(key, 12);
    const t7 = u8to16(key, 14);
    this.r[0] = t0 & 8191;
    this.r[1] = (t0 >>> 13 | t1 << 3) & 8191;
    this.r[2] = (t1 >>> 10 | t2 << 6) & 7939;
    this.r[3] = (t2 >>> 7 | t3 << 9) & 8191;
    this.r[4] = (t3 >>> 4 | t4 << 12) & 255;
    this.r[5] = t4 >>> 1 & 8190;
    this.r[6] = (t4 >>> 14 | t5 << 2) & 8191;
    this.r[7] = (t5 >>> 11 | t6 << 5) & 8065;
    this.r[8] = (t6 >>> 8 | t7 << 8) & 8191;
    this.r[9] = t7 >>> 5 & 127;
    for (let i = 0; i < 8; i++)
      this.pad[i] = u8to16(key, 16 + 2 * i);
  }
  process(data, offset, isLast = false) {
    const hibit = isLast ? 0 : 1 << 11;
    const { h, r } = this;
    const r0 = r[0];
    const r1 = r[1];
    const r2 = r[2];
    const r3 = r[3];
    const r4 = r[4];
    const r5 = r[5];
    const r6 = r[6];
    const r7 = r[7];
    const r8 = r[8];
    const r9 = r[9];
    const t0 = u8to16(data, offset + 0);
    const t1 = u8to16(data, offset + 2);
    const t2 = u8to16(data, offset + 4);
    const t3 = u8to16(data, offset + 6);
    const t4 = u8to16(data, offset + 8);
    const t5 = u8to16(data, offset + 10);
    const t6 = u8to16(data, offset + 12);
    const t7 = u8to16(data, offset + 14);
    let h0 = h[0] + (t0 & 8191);
    let h1 = h[1] + ((t0 >>> 13 | t1 << 3) & 8191);
    let h2 = h[2] + ((t1 >>> 10 | t2 << 6) & 8191);
    let h3 = h[3] + ((t2 >>> 7 | t3 << 9) & 8191);
    let h4 = h[4] + ((t3 >>> 4 | t4 << 12) & 8191);
    let h5 = h[5] + (t4 >>> 1 & 8191);
    let h6 = h[6] + ((t4 >>> 14 | t5 << 2) & 8191);
    let h7 = h[7] + ((t5 >>> 11 | t6 << 5) & 8191);
    let h8 = h[8] + ((t6 >>> 8 | t7 << 8) & 8191);
    let h9 = h[9] + (t7 >>> 5 | hibit);
    let c = 0;
    let d0 = c + h0 * r0 + h1 * (5 * r9) + h2 * (5 * r8) + h3 * (5 * r7) + h4 * (5 * r6);
    c = d0 >>> 13;
    d0 &= 8191;
    d0 += h5 * (5 * r5) + h6 * (5 * r4) + h7 * (5 * r3) + h8 * (5 * r2) + h9 * (5 * r1);
    c += d0 >>> 13;
    d0 &= 8191;
    let d1 = c + h0 * r1 + h1 * r0 + h2 * (5 * r9) + h3 * (5 * r8) + h4 * (5 * r7);
    c = d1 >>> 13;
    d1 &= 8191;
    d1 += h5 * (5 * r6) + h6 * (5 * r5) + h7 * (5 * r4) + h8 * (5 * r3) + h9 * (5 * r2);
    c += d1 >>> 13;
    d1 &= 8191;
    let d2 = c + h0 * r2 + h1 * r1 + h2 * r0 + h3 * (5 * r9) + h4 * (5 * r8);
    c = d2 >>> 13;
    d2 &= 8191;
    d2 += h5 * (5 * r7) + h6 * (5 * r6) + h7 * (5 * r5) + h8 * (5 * r4) + h9 * (5 * r3);
    c += d2 >>> 13;
    d2 &= 8191;
    let d3 = c + h0 * r3 + h1 * r2 + h2 * r1 + h3 * r0 + h4 * (5 * r9);
    c = d3 >>> 13;
    d3 &= 8191;
    d3 += h5 * (5 * r8) + h6 * (5 * r7) + h7 * (5 * r6) + h8 * (5 * r5) + h9 * (5 * r4);
    c += d3 >>> 13;
    d3 &= 8191;
    let d4 = c + h0 * r4 + h1 * r3 + h2 * r2 + h3 * r1 + h4 * r0;
    c = d4 >>> 13;
    d4 &= 8191;
    d4 += h5 * (5 * r9) + h6 * (5 * r8) + h7 * (5 * r7) + h8 * (5 * r6) + h9 * (5 * r5);
    c += d4 >>> 13;
    d4 &= 8191;
    let d5 = c + h0 * r5 + h1 * r4 + h2 * r3 + h3 * r2 + h4 * r1;
    c = d5 >>> 13;
    d5 &= 8191;
    d5 += h5 * r0 + h6 * (5 * r9) + h7 * (5 * r8) + h8 * (5 * r7) + h9 * (5 * r6);
    c += d5 >>> 13;
    d5 &= 8191;
    let d6 = c + h0 * r6 + h1 * r5 + h2 * r4 + h3 * r3 + h4 * r2;
    c = d6 >>> 13;
    d6 &= 8191;
    d6 += h5 * r1 + h6 * r0 + h7 * (5 * r9) + h8 * (5 * r8) + h9 * (5 * r7);
    c += d6 >>> 13;
    d6 &= 8191;
    let d7 = c + h0 * r7 + h1 * r6 + h2 * r5 + h3 * r4 + h4 * r3;
    c = d7 >>> 13;
    d7 &= 8191;
    d7 += h5 * r2 + h6 * r1 + h7 * r0 + h8 * (5 * r9) + h9 * (5 * r8);
    c += d7 >>> 13;
    d7 &= 8191;
    let d8 = c + h0 * r8 + h1 * r7 + h2 * r6 + h3 * r5 + h4 * r4;
    c = d8 >>> 13;
    d8 &= 8191;
    d8 += h5 * r3 + h6 * r2 + h7 * r1 + h8 * r0 + h9 * (5 * r9);
    c += d8 >>> 13;
    d8 &= 8191;
    let d9 = c + h0 * r9 + h1 * r8 + h2 * r7 + h3 * r6 + h4 * r5;
    c = d9 >>> 13;
    d9 &= 8191;
    d9 += h5 * r4 + h6 * r3 + h7 * r2 + h8 * r1 + h9 * r0;
    c += d9 >>> 13;
    d9 &= 8191;
    c = (c << 2) + c | 0;
    c = c + d0 | 0;
    d0 = c & 8191;
    c = c >>> 13;
    d1 += c;
    h[0] = d0;
    h[1] = d1;
    h[2] = d2;
    h[3] = d3;
    h[4] = d4;
    h[5] = d5;
    h[6] = d6;
    h[7] = d7;
    h[8] = d8;
    h[9] = d9;
  }
  finalize() {
    const { h, pad } = this;
    const g = new Uint16Array(10);
    let c = h[1] >>> 13;
    h[1] &= 8191;
    for (let i = 2; i < 10; i++) {
      h[i] += c;
      c = h[i] >>> 13;
      h[i] &= 8191;
    }
    h[0] += c * 5;
    c = h[0] >>> 13;
    h[0] &= 8191;
    h[1] += c;
    c = h[1] >>> 13;
    h[1] &= 8191;
    h[2] += c;
    g[0] = h[0] + 5;
    c = g[0] >>> 13;
    g[0] &= 8191;
    for (let i = 1; i < 10; i++) {
      g[i] = h[i] + c;
      c = g[i] >>> 13;
      g[i] &= 8191;
    }
    g[9] -= 1 << 13;
    let mask = (c ^ 1) - 1;
    for (let i = 0; i < 10; i++)
      g[i] &= mask;
    mask = ~mask;
    for (let i = 0; i < 10; i++)
      h[i] = h[i] & mask | g[i];
    h[0] = (h[0] | h[1] << 13) & 65535;
    h[1] = (h[1] >>> 3 | h[2] << 10) & 65535;
    h[2] = (h[2] >>> 6 | h[3] << 7) & 65535;
    h[3] = (h[3] >>> 9 | h[4] << 4) & 65535;
    h[4] = (h[4] >>> 12 | h[5] << 1 | h[6] << 14) & 65535;
    h[5] = (h[6] >>> 2 | h[7] << 11) & 65535;
    h[6] = (h[7] >>> 5 | h[8] << 8) & 65535;
    h[7] = (h[8] >>> 8 | h[9] << 5) & 65535;
    let f = h[0] + pad[0];
    h[0] = f & 65535;
    for (let i = 1; i < 8; i++) {
      f = (h[i] + pad[i] | 0) + (f >>> 16) | 0;
      h[i] = f & 65535;
    }
    clean2(g);
  }
  update(data) {
    aexists2(this);
    abytes2(data);
    data = copyBytes2(data);
    const { buffer, blockLen } = this;
    const len = data.length;
    for (let pos = 0; pos < len; ) {
      const take = Math.min(blockLen - this.pos, len - pos);
      if (take === blockLen) {
        for (; blockLen <= len - pos; pos += blockLen)
          this.process(data, pos);
        continue;
      }
      buffer.set(data.subarray(pos, pos + take), this.pos);
      this.pos += take;
      pos += take;
      if (this.pos === blockLen) {
        this.process(buffer, 0, false);
        this.pos = 0;
      }
    }
    return this;
  }
  destroy() {
    this.destroyed = true;
    clean2(this.h, this.r, this.buffer, this.pad);
  }
  digestInto(out) {
    aexists2(this);
    aoutput2(out, this);
    this.finished = true;
    const { buffer, h } = this;
    let { pos } = this;
    if (pos) {
      buffer[pos++] = 1;
      for (; pos < 16; pos++)
        buffer[pos] = 0;
      this.process(buffer, 0, true);
    }
    this.finalize();
    let opos = 0;
    for (let i = 0; i < 8; i++) {
      out[opos++] = h[i] >>> 0;
      out[opos++] = h[i] >>> 8;
    }
  }
  digest() {
    const { buffer, outputLen } = this;
    this.digestInto(buffer);
    const res = buffer.slice(0, outputLen);
    this.destroy();
    return res;
  }
};
var poly1305 = /* @__PURE__ */ wrapMacConstructor(32, (key) => new Poly1305(key));

// node_modules/@noble/ciphers/chacha.js
function chachaCore(s, k, n, out, cnt, rounds = 20) {
  let y00 = s[0], y01 = s[1], y02 = s[2], y03 = s[3], y04 = k[0], y05 = k[1], y06 = k[2], y07 = k[3], y08 = k[4], y09 = k[5], y10 = k[6], y11 = k[7], y12 = cnt, y13 = n[0], y14 = n[1], y15 = n[2];
  let x00 = y00, x01 = y01, x02 = y02, x03 = y03, x04 = y04, x05 = y05, x06 = y06, x07 = y07, x08 = y08, x09 = y09, x10 = y10, x11 = y11, x12 = y12, x13 = y13, x14 = y14, x15 = y15;
  for (let r = 0; r < rounds; r += 2) {
    x00 = x00 + x04 | 0;
    x12 = rotl(x12 ^ x00, 16);
    x08 = x08 + x12 | 0;
    x04 = rotl(x04 ^ x08, 12);
    x00 = x00 + x04 | 0;
    x12 = rotl(x12 ^ x00, 8);
    x08 = x08 + x12 | 0;
    x04 = rotl(x04 ^ x08, 7);
    x01 = x01 + x05 | 0;
    x13 = rotl(x13 ^ x01, 16);
    x09 = x09 + x13 | 0;
    x05 = rotl(x05 ^ x09, 12);
    x01 = x01 + x05 | 0;
    x13 = rotl(x13 ^ x01, 8);
    x09 = x09 + x13 | 0;
    x05 = rotl(x05 ^ x09, 7);
    x02 = x02 + x06 | 0;
    x14 = rotl(x14 ^ x02, 16);
    x10 = x10 + x14 | 0;
    x06 = rotl(x06 ^ x10, 12);
    x02 = x02 + x06 | 0;
    x14 = rotl(x14 ^ x02, 8);
    x10 = x10 + x14 | 0;
    x06 = rotl(x06 ^ x10, 7);
    x03 = x03 + x07 | 0;
    x15 = rotl(x15 ^ x03, 16);
    x11 = x11 + x15 | 0;
    x07 = rotl(x07 ^ x11, 12);
    x03 = x03 + x07 | 0;
    x15 = rotl(x15 ^ x03, 8);
    x11 = x11 + x15 | 0;
    x07 = rotl(x07 ^ x11, 7);
    x00 = x00 + x05 | 0;
    x15 = rotl(x15 ^ x00, 16);
    x10 = x10 + x15 | 0;
    x05 = rotl(x05 ^ x10, 12);
    x00 = x00 + x05 | 0;
    x15 = rotl(x15 ^ x00, 8);
    x10 = x10 + x15 | 0;
    x05 = rotl(x05 ^ x10, 7);
    x01 = x01 + x06 | 0;
    x12 = rotl(x12 ^ x01, 16);
    x11 = x11 + x12 | 0;
    x06 = rotl(x06 ^ x11, 12);
    x01 = x01 + x06 | 0;
    x12 = rotl(x12 ^ x01, 8);
    x11 = x11 + x12 | 0;
    x06 = rotl(x06 ^ x11, 7);
    x02 = x02 + x07 | 0;
    x13 = rotl(x13 ^ x02, 16);
    x08 = x08 + x13 | 0;
    x07 = rotl(x07 ^ x08, 12);
    x02 = x02 + x07 | 0;
    x13 = rotl(x13 ^ x02, 8);
    x08 = x08 + x13 | 0;
    x07 = rotl(x07 ^ x08, 7);
    x03 = x03 + x04 | 0;
    x14 = rotl(x14 ^ x03, 16);
    x09 = x09 + x14 | 0;
    x04 = rotl(x04 ^ x09, 12);
    x03 = x03 + x04 | 0;
    x14 = rotl(x14 ^ x03, 8);
    x09 = x09 + x14 | 0;
    x04 = rotl(x04 ^ x09, 7);
  }
  let oi = 0;
  out[oi++] = y00 + x00 | 0;
  out[oi++] = y01 + x01 | 0;
  out[oi++] = y02 + x02 | 0;
  out[oi++] = y03 + x03 | 0;
  out[oi++] = y04 + x04 | 0;
  out[oi++] = y05 + x05 | 0;
  out[oi++] = y06 + x06 | 0;
  out[oi++] = y07 + x07 | 0;
  out[oi++] = y08 + x08 | 0;
  out[oi++] = y09 + x09 | 0;
  out[oi++] = y10 + x10 | 0;
  out[oi++] = y11 + x11 | 0;
  out[oi++] = y12 + x12 | 0;
  out[oi++] = y13 + x13 | 0;
  out[oi++] = y14 + x14 | 0;
  out[oi++] = y15 + x15 | 0;
}
function hchacha(s, k, i, out) {
  const s2 = isLE2 ? s : swap32IfBE2(s.slice(0, 4));
  const k2 = isLE2 ? k : swap32IfBE2(k.slice(0, 8));
  const i2 = isLE2 ? i : swap32IfBE2(i.slice(0, 4));
  const t = new Uint32Array(16);
  chachaCore(s2, k2, i2.subarray(1), t, i2[0]);
  let oi = 0;
  out[oi++] = t[0] - s2[0] | 0;
  out[oi++] = t[1] - s2[1] | 0;
  out[oi++] = t[2] - s2[2] | 0;
  out[oi++] = t[3] - s2[3] | 0;
  out[oi++] = t[12] - i2[0] | 0;
  out[oi++] = t[13] - i2[1] | 0;
  out[oi++] = t[14] - i2[2] | 0;
  out[oi++] = t[15] - i2[3] | 0;
  swap32IfBE2(out);
  if (!isLE2)
    clean2(s2, k2, i2);
  clean2(t);
}
var xchacha20 = /* @__PURE__ */ createCipher(chachaCore, {
  counterRight: false,
  counterLength: 8,
  extendNonceFn: hchacha,
  allowShortKeys: false
});
var ZEROS16 = /* @__PURE__ */ new Uint8Array(16);
var updatePadded = (h, msg) => {
  h.update(msg);
  const leftover = msg.length % 16;
  if (leftover)
    h.update(ZEROS16.subarray(leftover));
};
var ZEROS32 = /* @__PURE__ */ new Uint8Array(32);
function computeTag(fn, key, nonce, ciphertext, AAD) {
  if (AAD !== void 0)
    abytes2(AAD, void 0, "AAD");
  const authKey = fn(key, nonce, ZEROS32);
  const lengths = u64Lengths(ciphertext.length, AAD ? AAD.length : 0, true);
  const h = poly1305.create(authKey);
  if (AAD)
    updatePadded(h, AAD);
  updatePadded(h, ciphertext);
  h.update(lengths);
  const res = h.digest();
  clean2(authKey, lengths);
  return res;
}
var _poly1305_aead = (xorStream) => (key, nonce, AAD) => {
  const tagLength = 16;
  return {
    encrypt(plaintext, output) {
      const plength = plaintext.length;
      output = getOutput(plength + tagLength, output, false);
      output.set(plaintext);
      const oPlain = output.subarray(0, -tagLength);
      xorStream(key, nonce, oPlain, oPlain, 1);
      const tag = computeTag(xorStream, key, nonce, oPlain, AAD);
      output.set(tag, plength);
      clean2(tag);
      return output;
    },
    decrypt(ciphertext, output) {
      output = getOutput(ciphertext.length - tagLength, output, false);
      const data = ciphertext.subarray(0, -tagLength);
      const passedTag = ciphertext.subarray(-tagLength);
      const tag = computeTag(xorStream, key, nonce, data, AAD);
      if (!equalBytes(passedTag, tag)) {
        clean2(tag);
        throw new Error("invalid tag");
      }
      output.set(ciphertext.subarray(0, -tagLength));
      xorStream(key, nonce, output, output, 1);
      clean2(tag);
      return output;
    }
  };
};
var xchacha20poly1305 = /* @__PURE__ */ wrapCipher(
  { blockSize: 64, nonceLength: 24, tagLength: 16, withAAD: true },
  /* @__PURE__ */ _poly1305_aead(xchacha20)
);

// dist/services/wireguard/crypto.js
var TAG_BYTES = 16;
var MAC_BYTES = 16;
var PKCS8_X25519_PREFIX = Buffer.from("302e020100300506032b656e04220420", "hex");
var SPKI_X25519_PREFIX = Buffer.from("302a300506032b656e032100", "hex");
var EMPTY3 = new Uint8Array(0);
var ZERO_PAD = Buffer.alloc(16);
function hash(...parts) {
  const h = createHash("blake2s256");
  for (const part of parts)
    h.update(part);
  return h.digest();
}
function hmac(key, ...parts) {
  const h = createHmac("blake2s256", key);
  for (const part of parts)
    h.update(part);
  return h.digest();
}
var ONE = Uint8Array.of(1);
var TWO = Uint8Array.of(2);
var THREE = Uint8Array.of(3);
function kdf(n, key, input = EMPTY3) {
  const prk = hmac(key, input);
  const t1 = hmac(prk, ONE);
  if (n === 1)
    return [t1];
  const t2 = hmac(prk, t1, TWO);
  if (n === 2)
    return [t1, t2];
  const t3 = hmac(prk, t2, THREE);
  return [t1, t2, t3];
}
function mac(key, input) {
  return blake2s(input, { key, dkLen: MAC_BYTES });
}
function nonce96(counter, out) {
  out.writeUInt32LE(0, 0);
  out.writeUInt32LE(counter >>> 0, 4);
  out.writeUInt32LE(Math.floor(counter / 4294967296), 8);
  return out;
}
var handshakeNonce = Buffer.alloc(12);
function aeadEncrypt(key, counter, plain, ad) {
  const cipher = createCipheriv("chacha20-poly1305", key, nonce96(counter, handshakeNonce), { authTagLength: TAG_BYTES });
  if (ad.length > 0)
    cipher.setAAD(ad, { plaintextLength: plain.length });
  const body = cipher.update(plain);
  cipher.final();
  return Buffer.concat([body, cipher.getAuthTag()]);
}
function aeadDecrypt(key, counter, sealed, ad) {
  if (sealed.length < TAG_BYTES)
    return void 0;
  try {
    const decipher = createDecipheriv("chacha20-poly1305", key, nonce96(counter, handshakeNonce), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    if (ad.length > 0)
      decipher.setAAD(ad, { plaintextLength: sealed.length - TAG_BYTES });
    const body = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES));
    decipher.final();
    return body;
  } catch {
    return void 0;
  }
}
var TransportCipher = class {
  key;
  nonce = Buffer.alloc(12);
  constructor(rawKey) {
    this.key = createSecretKey(rawKey);
  }
  /**
   * Encrypts `plain` followed by `padding` zero bytes into `out` at `offset`; returns the bytes
   * written (plain.length + padding + 16). Padding is fed from a shared zero buffer, so the
   * packet is never copied just to pad it.
   */
  seal(counter, plain, out, offset, padding = 0) {
    const cipher = createCipheriv("chacha20-poly1305", this.key, nonce96(counter, this.nonce), { authTagLength: TAG_BYTES });
    let at = offset + cipher.update(plain).copy(out, offset);
    if (padding > 0)
      at += cipher.update(ZERO_PAD.subarray(0, padding)).copy(out, at);
    at += cipher.final().copy(out, at);
    at += cipher.getAuthTag().copy(out, at);
    return at - offset;
  }
  /** Returns the plaintext, or undefined when authentication fails. */
  open(counter, sealed) {
    if (sealed.length < TAG_BYTES)
      return void 0;
    try {
      const decipher = createDecipheriv("chacha20-poly1305", this.key, nonce96(counter, this.nonce), { authTagLength: TAG_BYTES });
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      const body = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES));
      decipher.final();
      return body;
    } catch {
      return void 0;
    }
  }
};
function xaeadEncrypt(key, nonce, plain, ad) {
  return xchacha20poly1305(key, nonce, ad).encrypt(plain);
}
function xaeadDecrypt(key, nonce, sealed, ad) {
  try {
    return xchacha20poly1305(key, nonce, ad).decrypt(sealed);
  } catch {
    return void 0;
  }
}
function importPrivateKey(raw) {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_X25519_PREFIX, raw]), format: "der", type: "pkcs8" });
  const spki = createPublicKey(privateKey).export({ format: "der", type: "spki" });
  return { privateKey, publicKey: new Uint8Array(spki.subarray(SPKI_X25519_PREFIX.length)) };
}
function importPublicKey(raw) {
  return createPublicKey({ key: Buffer.concat([SPKI_X25519_PREFIX, raw]), format: "der", type: "spki" });
}
function dh(privateKey, publicKey) {
  try {
    const pub = publicKey instanceof Uint8Array ? importPublicKey(publicKey) : publicKey;
    const shared = diffieHellman({ privateKey, publicKey: pub });
    let acc = 0;
    for (const byte of shared)
      acc |= byte;
    return acc === 0 ? void 0 : shared;
  } catch {
    return void 0;
  }
}
function constantTimeEqual(a, b) {
  if (a.length !== b.length)
    return false;
  let acc = 0;
  for (let i = 0; i < a.length; i++)
    acc |= a[i] ^ b[i];
  return acc === 0;
}

// dist/services/wireguard/messages.js
var MESSAGE_INITIATION = 1;
var MESSAGE_RESPONSE = 2;
var MESSAGE_COOKIE_REPLY = 3;
var MESSAGE_TRANSPORT = 4;
var INITIATION_BYTES = 148;
var RESPONSE_BYTES = 92;
var COOKIE_REPLY_BYTES = 64;
var TRANSPORT_HEADER_BYTES = 16;
var TRANSPORT_MIN_BYTES = 32;
var TRANSPORT_OVERHEAD_BYTES = TRANSPORT_HEADER_BYTES + 16;
var LABEL_MAC1 = new TextEncoder().encode("mac1----");
var LABEL_COOKIE = new TextEncoder().encode("cookie--");
function messageType(packet) {
  if (packet.length < 4)
    return 0;
  if (packet[1] !== 0 || packet[2] !== 0 || packet[3] !== 0)
    return 0;
  return packet[0];
}
function readU322(packet, offset) {
  return (packet[offset] | packet[offset + 1] << 8 | packet[offset + 2] << 16 | packet[offset + 3] << 24) >>> 0;
}
function writeU322(packet, offset, value) {
  packet[offset] = value & 255;
  packet[offset + 1] = value >>> 8 & 255;
  packet[offset + 2] = value >>> 16 & 255;
  packet[offset + 3] = value >>> 24 & 255;
}
function readCounter(packet, offset) {
  const lo = readU322(packet, offset);
  const hi = readU322(packet, offset + 4);
  if (hi >= 2097152)
    return Number.POSITIVE_INFINITY;
  return hi * 4294967296 + lo;
}
function writeCounter(packet, offset, value) {
  writeU322(packet, offset, value >>> 0);
  writeU322(packet, offset + 4, Math.floor(value / 4294967296));
}
function sourceBytes(address, port) {
  const text = new TextEncoder().encode(address);
  const out = new Uint8Array(text.length + 2);
  out.set(text);
  out[text.length] = port >> 8;
  out[text.length + 1] = port & 255;
  return out;
}
var CookieChecker = class {
  random;
  now;
  mac1Key;
  cookieKey;
  secret;
  secretSetAt;
  constructor(localPublic, random, now) {
    this.random = random;
    this.now = now;
    this.mac1Key = hash(LABEL_MAC1, localPublic);
    this.cookieKey = hash(LABEL_COOKIE, localPublic);
    this.secret = random(32);
    this.secretSetAt = now();
  }
  checkMac1(msg) {
    const end = msg.length - 2 * MAC_BYTES;
    return constantTimeEqual(mac(this.mac1Key, msg.subarray(0, end)), msg.subarray(end, end + MAC_BYTES));
  }
  cookieFor(source) {
    if (this.now() - this.secretSetAt >= wgCookieRefreshTimeMs) {
      this.secret = this.random(32);
      this.secretSetAt = this.now();
    }
    return mac(this.secret, source);
  }
  checkMac2(msg, source) {
    const end = msg.length - MAC_BYTES;
    return constantTimeEqual(mac(this.cookieFor(source), msg.subarray(0, end)), msg.subarray(end));
  }
  /** A cookie reply to `msg` (whose sender index is `receiverIndex`) for `source`. */
  createReply(msg, receiverIndex, source) {
    const out = new Uint8Array(COOKIE_REPLY_BYTES);
    out[0] = MESSAGE_COOKIE_REPLY;
    writeU322(out, 4, receiverIndex);
    const nonce = this.random(24);
    out.set(nonce, 8);
    const mac1 = msg.subarray(msg.length - 2 * MAC_BYTES, msg.length - MAC_BYTES);
    out.set(xaeadEncrypt(this.cookieKey, nonce, this.cookieFor(source), mac1), 32);
    return out;
  }
};
var CookieGenerator = class {
  now;
  mac1Key;
  cookieKey;
  cookie;
  cookieAt = 0;
  lastMac1;
  constructor(peerPublic, now) {
    this.now = now;
    this.mac1Key = hash(LABEL_MAC1, peerPublic);
    this.cookieKey = hash(LABEL_COOKIE, peerPublic);
  }
  /** Fills the last 32 bytes (mac1, mac2) of a handshake message in place. */
  addMacs(msg) {
    const mac1At = msg.length - 2 * MAC_BYTES;
    const mac1 = mac(this.mac1Key, msg.subarray(0, mac1At));
    msg.set(mac1, mac1At);
    this.lastMac1 = mac1;
    const mac2At = msg.length - MAC_BYTES;
    if (this.cookie !== void 0 && this.now() - this.cookieAt < wgCookieRefreshTimeMs) {
      msg.set(mac(this.cookie, msg.subarray(0, mac2At)), mac2At);
    } else {
      msg.fill(0, mac2At);
    }
  }
  /** Stores the cookie of a reply to our last handshake message; false when it does not open. */
  consumeReply(reply) {
    if (reply.length !== COOKIE_REPLY_BYTES || this.lastMac1 === void 0)
      return false;
    const cookie = xaeadDecrypt(this.cookieKey, reply.subarray(8, 32), reply.subarray(32), this.lastMac1);
    if (cookie === void 0)
      return false;
    this.cookie = cookie;
    this.cookieAt = this.now();
    return true;
  }
  hasFreshCookie() {
    return this.cookie !== void 0 && this.now() - this.cookieAt < wgCookieRefreshTimeMs;
  }
};

// dist/services/wireguard/noise.js
var CONSTRUCTION = new TextEncoder().encode("Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s");
var IDENTIFIER = new TextEncoder().encode("WireGuard v1 zx2c4 Jason@zx2c4.com");
var wireGuardNoise = { construction: CONSTRUCTION, prologue: IDENTIFIER };
var EMPTY4 = new Uint8Array(0);
function initialState(params, responderStatic) {
  const ck = hash(params.construction);
  const h = hash(hash(ck, params.prologue), responderStatic);
  return { ck, h };
}
function writeInitiation(params, local, remoteStatic, ephemeralPrivate, payload) {
  let { ck, h } = initialState(params, remoteStatic);
  const ephemeral = importPrivateKey(ephemeralPrivate);
  const e = ephemeral.publicKey;
  [ck] = kdf(1, ck, e);
  h = hash(h, e);
  const es = dh(ephemeral.privateKey, remoteStatic);
  if (es === void 0)
    return void 0;
  let key;
  [ck, key] = kdf(2, ck, es);
  const encStatic = aeadEncrypt(key, 0, local.publicKey, h);
  h = hash(h, encStatic);
  const ss = dh(local.privateKey, remoteStatic);
  if (ss === void 0)
    return void 0;
  [ck, key] = kdf(2, ck, ss);
  const encPayload = aeadEncrypt(key, 0, payload, h);
  h = hash(h, encPayload);
  key.fill(0);
  const body = new Uint8Array(32 + encStatic.length + encPayload.length);
  body.set(e, 0);
  body.set(encStatic, 32);
  body.set(encPayload, 32 + encStatic.length);
  return { body, ephemeral, state: { ck, h } };
}
function readInitiation(params, local, body, payloadLength) {
  if (body.length !== 32 + 48 + payloadLength + 16)
    return void 0;
  let { ck, h } = initialState(params, local.publicKey);
  const e = body.slice(0, 32);
  [ck] = kdf(1, ck, e);
  h = hash(h, e);
  const es = dh(local.privateKey, e);
  if (es === void 0)
    return void 0;
  let key;
  [ck, key] = kdf(2, ck, es);
  const encStatic = body.subarray(32, 80);
  const remoteStatic = aeadDecrypt(key, 0, encStatic, h);
  if (remoteStatic === void 0)
    return void 0;
  h = hash(h, encStatic);
  const ss = dh(local.privateKey, remoteStatic);
  if (ss === void 0)
    return void 0;
  [ck, key] = kdf(2, ck, ss);
  const encPayload = body.subarray(80);
  const payload = aeadDecrypt(key, 0, encPayload, h);
  key.fill(0);
  if (payload === void 0)
    return void 0;
  h = hash(h, encPayload);
  return { remoteStatic: new Uint8Array(remoteStatic), remoteEphemeral: e, payload: new Uint8Array(payload), state: { ck, h } };
}
function writeResponse(state, remoteStatic, remoteEphemeral, ephemeralPrivate, psk, payload) {
  let { ck, h } = state;
  const ephemeral = importPrivateKey(ephemeralPrivate);
  const e = ephemeral.publicKey;
  [ck] = kdf(1, ck, e);
  h = hash(h, e);
  const ee = dh(ephemeral.privateKey, remoteEphemeral);
  if (ee === void 0)
    return void 0;
  [ck] = kdf(1, ck, ee);
  const se = dh(ephemeral.privateKey, remoteStatic);
  if (se === void 0)
    return void 0;
  [ck] = kdf(1, ck, se);
  const [ck2, tau, key] = kdf(3, ck, psk);
  ck = ck2;
  h = hash(h, tau);
  const encPayload = aeadEncrypt(key, 0, payload, h);
  h = hash(h, encPayload);
  key.fill(0);
  tau.fill(0);
  const body = new Uint8Array(32 + encPayload.length);
  body.set(e, 0);
  body.set(encPayload, 32);
  return { body, state: { ck, h } };
}
function readResponse(state, local, ephemeral, psk, body, payloadLength) {
  if (body.length !== 32 + payloadLength + 16)
    return void 0;
  let { ck, h } = state;
  const e = body.subarray(0, 32);
  [ck] = kdf(1, ck, e);
  h = hash(h, e);
  const ee = dh(ephemeral.privateKey, e);
  if (ee === void 0)
    return void 0;
  [ck] = kdf(1, ck, ee);
  const se = dh(local.privateKey, e);
  if (se === void 0)
    return void 0;
  [ck] = kdf(1, ck, se);
  const [ck2, tau, key] = kdf(3, ck, psk);
  ck = ck2;
  h = hash(h, tau);
  const encPayload = body.subarray(32);
  const payload = aeadDecrypt(key, 0, encPayload, h);
  key.fill(0);
  tau.fill(0);
  if (payload === void 0)
    return void 0;
  h = hash(h, encPayload);
  return { payload: new Uint8Array(payload), state: { ck, h } };
}
function split(ck) {
  return kdf(2, ck, EMPTY4);
}

// dist/services/wireguard/replay.js
var BITS = 32;
var ReplayWindow = class {
  limit;
  ring;
  blockMask;
  last = 0;
  /** Counters at most this far behind the highest one seen are still accepted once. */
  windowSize;
  constructor(packets = wgReplayWindowPackets, limit = wgRejectAfterMessages) {
    this.limit = limit;
    let blocks = 2;
    while (blocks * BITS < packets)
      blocks *= 2;
    this.ring = new Uint32Array(blocks);
    this.blockMask = blocks - 1;
    this.windowSize = (blocks - 1) * BITS;
  }
  reset() {
    this.ring.fill(0);
    this.last = 0;
  }
  /** Whether `counter` would be accepted, without recording it. */
  check(counter) {
    if (!Number.isSafeInteger(counter) || counter < 0 || counter >= this.limit)
      return false;
    if (counter > this.last)
      return true;
    if (this.last - counter > this.windowSize)
      return false;
    const block = Math.floor(counter / BITS) & this.blockMask;
    return (this.ring[block] & 1 << counter % BITS) === 0;
  }
  /** Accepts `counter` once: false when too old, replayed or beyond the limit. Call after authentication. */
  accept(counter) {
    if (!Number.isSafeInteger(counter) || counter < 0 || counter >= this.limit)
      return false;
    const indexBlock = Math.floor(counter / BITS);
    if (counter > this.last) {
      const current = Math.floor(this.last / BITS);
      const diff = Math.min(indexBlock - current, this.ring.length);
      for (let i = current + 1; i <= current + diff; i++)
        this.ring[i & this.blockMask] = 0;
      this.last = counter;
    } else if (this.last - counter > this.windowSize) {
      return false;
    }
    const block = indexBlock & this.blockMask;
    const bit = 1 << counter % BITS;
    const old = this.ring[block];
    if ((old & bit) !== 0)
      return false;
    this.ring[block] = old | bit;
    return true;
  }
};

// dist/services/wireguard/tai64n.js
var TAI64N_BYTES = 12;
var BASE = 0x400000000000000an;
function tai64n(wallMs) {
  const out = new Uint8Array(TAI64N_BYTES);
  const view = new DataView(out.buffer);
  const seconds = Math.floor(wallMs / 1e3);
  const nanos = Math.floor(wallMs - seconds * 1e3) * 1e6;
  view.setBigUint64(0, BASE + BigInt(seconds));
  view.setUint32(8, nanos);
  return out;
}
function compareTai64n(a, b) {
  for (let i = 0; i < TAI64N_BYTES; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0)
      return d;
  }
  return 0;
}
function nextTai64n(t) {
  const out = new Uint8Array(t);
  for (let i = TAI64N_BYTES - 1; i >= 0; i--) {
    out[i] = out[i] + 1 & 255;
    if (out[i] !== 0)
      break;
  }
  return out;
}

// dist/services/wireguard/device.js
var defaultWireGuardLimits = {
  rekeyAfterMessages: wgRekeyAfterMessages,
  rejectAfterMessages: wgRejectAfterMessages,
  rekeyAfterTimeMs: wgRekeyAfterTimeMs,
  rejectAfterTimeMs: wgRejectAfterTimeMs,
  rekeyTimeoutMs: wgRekeyTimeoutMs,
  rekeyTimeoutJitterMaxMs: wgRekeyTimeoutJitterMaxMs,
  keepaliveTimeoutMs: wgKeepaliveTimeoutMs,
  maxHandshakeAttempts: wgMaxHandshakeAttempts,
  handshakeInitiationMinIntervalMs: wgHandshakeInitiationMinIntervalMs,
  stagedPacketsMax: wgStagedPacketsMax,
  underLoadAfterMs: wgUnderLoadAfterMs
};
var Timer = class {
  clock;
  fire;
  handle = void 0;
  /** When the armed clock timer fires (undefined: none armed). */
  firesAt;
  deadline = 0;
  armed = false;
  constructor(clock, fire) {
    this.clock = clock;
    this.fire = fire;
  }
  get pending() {
    return this.armed;
  }
  mod(delayMs) {
    const now = this.clock.now();
    this.deadline = now + Math.max(0, delayMs);
    this.armed = true;
    if (this.firesAt !== void 0 && this.firesAt <= this.deadline)
      return;
    this.arm(this.deadline - now);
  }
  del() {
    this.armed = false;
  }
  /** Also cancels the clock timer (device close: nothing may stay scheduled). */
  stop() {
    this.armed = false;
    if (this.firesAt !== void 0)
      this.clock.clearTimeout(this.handle);
    this.firesAt = void 0;
  }
  arm(delayMs) {
    if (this.firesAt !== void 0)
      this.clock.clearTimeout(this.handle);
    this.firesAt = this.clock.now() + delayMs;
    this.handle = this.clock.setTimeout(() => {
      this.firesAt = void 0;
      if (!this.armed)
        return;
      const left = this.deadline - this.clock.now();
      if (left > 0) {
        this.arm(left);
        return;
      }
      this.armed = false;
      this.fire();
    }, delayMs);
  }
};
var Peer = class {
  publicKey;
  id;
  endpoint;
  psk;
  persistentKeepaliveMs;
  cookies;
  handshake = { state: "none" };
  lastReceivedTimestamp;
  lastSentTimestamp;
  lastInitiationConsumedAt = Number.NEGATIVE_INFINITY;
  lastSentHandshakeAt = Number.NEGATIVE_INFINITY;
  previous;
  current;
  next;
  handshakeAttempts = 0;
  needAnotherKeepalive = false;
  sentLastMinuteHandshake = false;
  lastHandshakeAt;
  staged = [];
  txBytes = 0;
  rxBytes = 0;
  txPackets = 0;
  rxPackets = 0;
  retransmitHandshake;
  sendKeepalive;
  newHandshake;
  zeroKeyMaterial;
  persistentKeepalive;
  constructor(publicKey, psk, persistentKeepaliveSeconds, clock, handlers) {
    this.publicKey = publicKey;
    this.id = encodeKey(publicKey);
    this.psk = psk ?? new Uint8Array(32);
    this.persistentKeepaliveMs = persistentKeepaliveSeconds * 1e3;
    this.cookies = new CookieGenerator(publicKey, () => clock.now());
    this.retransmitHandshake = new Timer(clock, () => handlers.retransmit(this));
    this.sendKeepalive = new Timer(clock, () => handlers.keepalive(this));
    this.newHandshake = new Timer(clock, () => handlers.newHandshake(this));
    this.zeroKeyMaterial = new Timer(clock, () => handlers.zero(this));
    this.persistentKeepalive = new Timer(clock, () => handlers.persistent(this));
  }
  stopTimers() {
    this.retransmitHandshake.stop();
    this.sendKeepalive.stop();
    this.newHandshake.stop();
    this.zeroKeyMaterial.stop();
    this.persistentKeepalive.stop();
  }
};
var EMPTY5 = new Uint8Array(0);
function createWireGuardDevice(options) {
  const config = typeof options.config === "string" ? parseWgConfig(options.config) : options.config;
  const { udp, clock, logger } = options;
  const wallNow = () => clock.wallNow?.() ?? Date.now();
  const L = { ...defaultWireGuardLimits, ...options.limits };
  const random = options.random ?? ((n) => new Uint8Array(randomBytes3(n)));
  const resolve = options.resolve ?? (async (host) => (await dnsLookup(host, { family: 4 })).address);
  const underLoadThreshold = options.underLoadHandshakesPerSecond ?? wgUnderLoadHandshakesPerSecond;
  const mtu = config.mtu ?? wgDefaultMtu;
  const local = importPrivateKey(config.privateKey);
  const publicKey = encodeKey(local.publicKey);
  const checker = new CookieChecker(local.publicKey, random, () => clock.now());
  const peers = /* @__PURE__ */ new Map();
  const routes = new AllowedIps();
  const sources = /* @__PURE__ */ new Map();
  const indices = /* @__PURE__ */ new Map();
  let ipHandler;
  let eventHandler;
  let started = false;
  let closed = false;
  let listenPort;
  let forcedUnderLoad;
  let handshakeWindowStart = Number.NEGATIVE_INFINITY;
  let handshakesInWindow = 0;
  let underLoadUntil = Number.NEGATIVE_INFINITY;
  let internalErrors = 0;
  const dropped = {
    malformed: 0,
    mac1: 0,
    cookieRequired: 0,
    handshakeInvalid: 0,
    unknownPeer: 0,
    replayedInitiation: 0,
    initiationFlood: 0,
    unknownIndex: 0,
    expiredKey: 0,
    decrypt: 0,
    replay: 0,
    badInnerPacket: 0,
    sourceNotAllowed: 0,
    noRoute: 0,
    noEndpoint: 0,
    stagedOverflow: 0,
    handshakeTimeout: 0,
    sendFailed: 0
  };
  let lastSendError;
  const emit = (event) => {
    try {
      eventHandler?.(event);
    } catch (err) {
      logger.warn({ err }, "wireguard event handler threw");
    }
  };
  function allocateIndex(entry) {
    for (let i = 0; i < wgIndexAllocationAttempts; i++) {
      const bytes = random(4);
      const index = readU322(bytes, 0);
      if (!indices.has(index)) {
        indices.set(index, entry);
        return index;
      }
    }
    logger.error({ err: new InternalError("could not allocate a free WireGuard index") }, "wireguard index table exhausted");
    return void 0;
  }
  function dropKeypair(keypair) {
    if (keypair === void 0)
      return;
    const entry = indices.get(keypair.localIndex);
    if (entry?.keypair === keypair)
      indices.delete(keypair.localIndex);
  }
  function clearHandshake(peer) {
    if (peer.handshake.state === "initiation-sent") {
      const entry = indices.get(peer.handshake.localIndex);
      if (entry !== void 0 && entry.keypair === void 0)
        indices.delete(peer.handshake.localIndex);
      peer.handshake.symmetric.ck.fill(0);
    }
    peer.handshake = { state: "none" };
  }
  function usable(keypair) {
    return keypair !== void 0 && clock.now() - keypair.created < L.rejectAfterTimeMs && keypair.sendNonce < L.rejectAfterMessages;
  }
  function makeKeypair(peer, ck, isInitiator, localIndex, remoteIndex) {
    const [k1, k2] = split(ck);
    const keypair = {
      send: new TransportCipher(isInitiator ? k1 : k2),
      recv: new TransportCipher(isInitiator ? k2 : k1),
      sendNonce: 0,
      replay: new ReplayWindow(wgReplayWindowPackets, L.rejectAfterMessages),
      created: clock.now(),
      isInitiator,
      localIndex,
      remoteIndex
    };
    k1.fill(0);
    k2.fill(0);
    ck.fill(0);
    indices.set(localIndex, { peer, keypair });
    if (isInitiator) {
      if (peer.next !== void 0) {
        dropKeypair(peer.previous);
        peer.previous = peer.next;
        peer.next = void 0;
        dropKeypair(peer.current);
      } else {
        dropKeypair(peer.previous);
        peer.previous = peer.current;
      }
      peer.current = keypair;
    } else {
      dropKeypair(peer.next);
      peer.next = keypair;
      dropKeypair(peer.previous);
      peer.previous = void 0;
    }
    return keypair;
  }
  function receivedWithKeypair(peer, keypair) {
    if (peer.next !== keypair)
      return false;
    dropKeypair(peer.previous);
    peer.previous = peer.current;
    peer.current = keypair;
    peer.next = void 0;
    return true;
  }
  let jitterPool = new Uint8Array(0);
  let jitterAt = 0;
  const jitter = () => {
    if (jitterAt + 2 > jitterPool.length) {
      jitterPool = random(256);
      jitterAt = 0;
    }
    const value = jitterPool[jitterAt] << 8 | jitterPool[jitterAt + 1];
    jitterAt += 2;
    return value % (L.rekeyTimeoutJitterMaxMs + 1);
  };
  function timersDataSent(peer) {
    if (!peer.newHandshake.pending)
      peer.newHandshake.mod(L.keepaliveTimeoutMs + L.rekeyTimeoutMs + jitter());
  }
  function timersDataReceived(peer) {
    if (!peer.sendKeepalive.pending)
      peer.sendKeepalive.mod(L.keepaliveTimeoutMs);
    else
      peer.needAnotherKeepalive = true;
  }
  function timersAnyAuthenticatedPacketSent(peer) {
    peer.sendKeepalive.del();
  }
  function timersAnyAuthenticatedPacketReceived(peer) {
    peer.newHandshake.del();
  }
  function timersHandshakeInitiated(peer) {
    peer.retransmitHandshake.mod(L.rekeyTimeoutMs + jitter());
  }
  function timersHandshakeComplete(peer, role) {
    peer.retransmitHandshake.del();
    peer.handshakeAttempts = 0;
    peer.sentLastMinuteHandshake = false;
    peer.lastHandshakeAt = wallNow();
    lastSendError = void 0;
    emit({ type: "handshake-complete", peer: peer.id, role, endpoint: peer.endpoint });
  }
  function timersSessionDerived(peer) {
    peer.zeroKeyMaterial.mod(L.rejectAfterTimeMs * 3);
  }
  function timersAnyAuthenticatedPacketTraversal(peer) {
    if (peer.persistentKeepaliveMs > 0)
      peer.persistentKeepalive.mod(peer.persistentKeepaliveMs);
  }
  function expiredRetransmitHandshake(peer) {
    if (peer.handshakeAttempts >= L.maxHandshakeAttempts) {
      const error = new WireGuardHandshakeTimeoutError(`no WireGuard handshake with peer ${peer.id} after ${peer.handshakeAttempts + 1} attempts`, { details: { peer: peer.id, endpoint: peer.endpoint } });
      logger.warn({ peer: peer.id, attempts: peer.handshakeAttempts + 1 }, "wireguard handshake gave up");
      peer.sendKeepalive.del();
      dropped.handshakeTimeout += peer.staged.length;
      peer.staged = [];
      clearHandshake(peer);
      if (!peer.newHandshake.pending)
        peer.zeroKeyMaterial.mod(L.rejectAfterTimeMs * 3);
      emit({ type: "handshake-timeout", peer: peer.id, error });
      return;
    }
    peer.handshakeAttempts++;
    logger.debug({ peer: peer.id, attempt: peer.handshakeAttempts + 1 }, "wireguard handshake retransmit");
    sendInitiation(peer, true);
  }
  function expiredSendKeepalive(peer) {
    sendKeepalive(peer);
    if (peer.needAnotherKeepalive) {
      peer.needAnotherKeepalive = false;
      peer.sendKeepalive.mod(L.keepaliveTimeoutMs);
    }
  }
  function expiredNewHandshake(peer) {
    logger.debug({ peer: peer.id }, "wireguard: no reply to data, new handshake");
    sendInitiation(peer, false);
  }
  function expiredZeroKeyMaterial(peer) {
    zeroKeys(peer);
    emit({ type: "keys-zeroed", peer: peer.id });
  }
  function expiredPersistentKeepalive(peer) {
    if (peer.persistentKeepaliveMs > 0)
      sendKeepalive(peer);
  }
  function zeroKeys(peer) {
    dropKeypair(peer.previous);
    dropKeypair(peer.current);
    dropKeypair(peer.next);
    peer.previous = peer.current = peer.next = void 0;
    clearHandshake(peer);
  }
  function sendRaw(peer, data) {
    if (peer.endpoint === void 0) {
      dropped.noEndpoint++;
      return false;
    }
    try {
      udp.send(data, peer.endpoint.port, peer.endpoint.address);
    } catch (err) {
      sendFailed(err, peer.endpoint);
    }
    return true;
  }
  function sendFailed(err, to) {
    dropped.sendFailed++;
    const code = err?.code ?? "ERROR";
    const text = `${code}: ${err instanceof Error ? err.message : String(err)}`;
    if (lastSendError === void 0 || !lastSendError.startsWith(`${code}:`)) {
      logger.warn({ err, endpoint: to }, `wireguard: the socket refused a datagram (${code}); counted as lost, the handshake timers go on`);
    }
    lastSendError = text;
  }
  function sendInitiation(peer, isRetry) {
    if (closed)
      return;
    if (!isRetry)
      peer.handshakeAttempts = 0;
    if (clock.now() - peer.lastSentHandshakeAt < L.rekeyTimeoutMs)
      return;
    peer.lastSentHandshakeAt = clock.now();
    clearHandshake(peer);
    let timestamp = tai64n(wallNow());
    if (peer.lastSentTimestamp !== void 0 && compareTai64n(timestamp, peer.lastSentTimestamp) <= 0)
      timestamp = nextTai64n(peer.lastSentTimestamp);
    peer.lastSentTimestamp = timestamp;
    const out = writeInitiation(wireGuardNoise, local, peer.publicKey, random(32), timestamp);
    if (out === void 0) {
      logger.warn({ peer: peer.id }, "wireguard: peer public key gives an unusable shared secret");
      return;
    }
    const localIndex = allocateIndex({ peer, keypair: void 0 });
    if (localIndex === void 0)
      return;
    peer.handshake = { state: "initiation-sent", localIndex, ephemeral: out.ephemeral, symmetric: out.state };
    const msg = new Uint8Array(INITIATION_BYTES);
    msg[0] = MESSAGE_INITIATION;
    writeU322(msg, 4, localIndex);
    msg.set(out.body, 8);
    peer.cookies.addMacs(msg);
    emit({ type: "handshake-initiated", peer: peer.id, attempt: peer.handshakeAttempts + 1 });
    timersAnyAuthenticatedPacketTraversal(peer);
    timersAnyAuthenticatedPacketSent(peer);
    timersHandshakeInitiated(peer);
    sendRaw(peer, msg);
  }
  function sendResponse(peer, remoteIndex, remoteEphemeral, symmetric) {
    const out = writeResponse(symmetric, peer.publicKey, remoteEphemeral, random(32), peer.psk, EMPTY5);
    if (out === void 0) {
      dropped.handshakeInvalid++;
      return;
    }
    clearHandshake(peer);
    const localIndex = allocateIndex({ peer, keypair: void 0 });
    if (localIndex === void 0)
      return;
    const msg = new Uint8Array(RESPONSE_BYTES);
    msg[0] = MESSAGE_RESPONSE;
    writeU322(msg, 4, localIndex);
    writeU322(msg, 8, remoteIndex);
    msg.set(out.body, 12);
    peer.cookies.addMacs(msg);
    makeKeypair(peer, out.state.ck, false, localIndex, remoteIndex);
    timersSessionDerived(peer);
    timersAnyAuthenticatedPacketTraversal(peer);
    timersAnyAuthenticatedPacketSent(peer);
    sendRaw(peer, msg);
  }
  function encryptAndSend(peer, keypair, packet) {
    const counter = keypair.sendNonce++;
    let padded = packet.length;
    if (padded % wgPaddingMultipleBytes !== 0)
      padded = Math.min(padded + wgPaddingMultipleBytes - padded % wgPaddingMultipleBytes, Math.max(mtu, packet.length));
    const out = Buffer.allocUnsafe(TRANSPORT_HEADER_BYTES + padded + 16);
    out.writeUInt32LE(MESSAGE_TRANSPORT, 0);
    out.writeUInt32LE(keypair.remoteIndex, 4);
    writeCounter(out, 8, counter);
    keypair.send.seal(counter, packet, out, TRANSPORT_HEADER_BYTES, padded - packet.length);
    if (!sendRaw(peer, out))
      return;
    peer.txBytes += out.length;
    peer.txPackets++;
    timersAnyAuthenticatedPacketTraversal(peer);
    timersAnyAuthenticatedPacketSent(peer);
    if (packet.length > 0)
      timersDataSent(peer);
  }
  function keepKeyFreshSending(peer) {
    const keypair = peer.current;
    if (keypair === void 0)
      return;
    if (keypair.sendNonce > L.rekeyAfterMessages || keypair.isInitiator && clock.now() - keypair.created > L.rekeyAfterTimeMs) {
      sendInitiation(peer, false);
    }
  }
  function keepKeyFreshReceiving(peer) {
    if (peer.sentLastMinuteHandshake)
      return;
    const keypair = peer.current;
    if (keypair === void 0 || !keypair.isInitiator)
      return;
    if (clock.now() - keypair.created > L.rejectAfterTimeMs - L.keepaliveTimeoutMs - L.rekeyTimeoutMs) {
      peer.sentLastMinuteHandshake = true;
      sendInitiation(peer, false);
    }
  }
  function sendStaged(peer) {
    const keypair = peer.current;
    if (!usable(keypair)) {
      sendInitiation(peer, false);
      return;
    }
    const staged = peer.staged;
    peer.staged = [];
    for (let i = 0; i < staged.length; i++) {
      if (!usable(keypair)) {
        peer.staged = staged.slice(i);
        sendInitiation(peer, false);
        return;
      }
      encryptAndSend(peer, keypair, staged[i]);
    }
    keepKeyFreshSending(peer);
  }
  function stage(peer, packet) {
    if (peer.staged.length >= L.stagedPacketsMax) {
      peer.staged.shift();
      dropped.stagedOverflow++;
    }
    peer.staged.push(packet);
  }
  function sendKeepalive(peer) {
    if (peer.staged.length === 0)
      stage(peer, EMPTY5);
    sendStaged(peer);
  }
  function sendToPeer(peer, packet) {
    const keypair = peer.current;
    if (peer.staged.length === 0 && usable(keypair)) {
      encryptAndSend(peer, keypair, packet);
      keepKeyFreshSending(peer);
      return;
    }
    stage(peer, new Uint8Array(packet));
    sendStaged(peer);
  }
  function underLoad() {
    if (forcedUnderLoad !== void 0)
      return forcedUnderLoad;
    return clock.now() < underLoadUntil;
  }
  function countHandshake() {
    const now = clock.now();
    if (now - handshakeWindowStart >= 1e3) {
      handshakeWindowStart = now;
      handshakesInWindow = 0;
    }
    handshakesInWindow++;
    if (handshakesInWindow > underLoadThreshold)
      underLoadUntil = now + L.underLoadAfterMs;
  }
  function admitHandshake(msg, from, senderIndex) {
    if (!checker.checkMac1(msg)) {
      dropped.mac1++;
      return false;
    }
    const loaded = underLoad();
    countHandshake();
    if (!loaded)
      return true;
    const source = sourceBytes(from.address, from.port);
    if (checker.checkMac2(msg, source))
      return true;
    dropped.cookieRequired++;
    udp.send(checker.createReply(msg, senderIndex, source), from.port, from.address);
    return false;
  }
  function roam(peer, from) {
    const current = peer.endpoint;
    if (current !== void 0 && current.address === from.address && current.port === from.port)
      return;
    peer.endpoint = { address: from.address, port: from.port };
    emit({ type: "endpoint-changed", peer: peer.id, endpoint: peer.endpoint });
  }
  function handleInitiation(msg, from) {
    if (msg.length !== INITIATION_BYTES)
      return void dropped.malformed++;
    const senderIndex = readU322(msg, 4);
    if (!admitHandshake(msg, from, senderIndex))
      return;
    const read = readInitiation(wireGuardNoise, local, msg.subarray(8, 116), TAI64N_BYTES);
    if (read === void 0)
      return void dropped.handshakeInvalid++;
    const peer = peers.get(encodeKey(read.remoteStatic));
    if (peer === void 0)
      return void dropped.unknownPeer++;
    if (peer.lastReceivedTimestamp !== void 0 && compareTai64n(read.payload, peer.lastReceivedTimestamp) <= 0)
      return void dropped.replayedInitiation++;
    if (clock.now() - peer.lastInitiationConsumedAt < L.handshakeInitiationMinIntervalMs)
      return void dropped.initiationFlood++;
    peer.lastReceivedTimestamp = read.payload;
    peer.lastInitiationConsumedAt = clock.now();
    roam(peer, from);
    timersAnyAuthenticatedPacketTraversal(peer);
    timersAnyAuthenticatedPacketReceived(peer);
    sendResponse(peer, senderIndex, read.remoteEphemeral, read.state);
  }
  function handleResponse(msg, from) {
    if (msg.length !== RESPONSE_BYTES)
      return void dropped.malformed++;
    const senderIndex = readU322(msg, 4);
    if (!admitHandshake(msg, from, senderIndex))
      return;
    const receiverIndex = readU322(msg, 8);
    const entry = indices.get(receiverIndex);
    if (entry === void 0 || entry.keypair !== void 0)
      return void dropped.unknownIndex++;
    const peer = entry.peer;
    const hs = peer.handshake;
    if (hs.state !== "initiation-sent" || hs.localIndex !== receiverIndex)
      return void dropped.unknownIndex++;
    const read = readResponse(hs.symmetric, local, hs.ephemeral, peer.psk, msg.subarray(12, 60), 0);
    if (read === void 0)
      return void dropped.handshakeInvalid++;
    peer.handshake = { state: "none" };
    roam(peer, from);
    timersAnyAuthenticatedPacketTraversal(peer);
    timersAnyAuthenticatedPacketReceived(peer);
    makeKeypair(peer, read.state.ck, true, receiverIndex, senderIndex);
    timersSessionDerived(peer);
    timersHandshakeComplete(peer, "initiator");
    sendKeepalive(peer);
  }
  function handleCookieReply(msg) {
    if (msg.length !== COOKIE_REPLY_BYTES)
      return void dropped.malformed++;
    const entry = indices.get(readU322(msg, 4));
    if (entry === void 0)
      return void dropped.unknownIndex++;
    if (!entry.peer.cookies.consumeReply(msg))
      return void dropped.handshakeInvalid++;
    emit({ type: "cookie-received", peer: entry.peer.id });
  }
  function handleTransport(msg, from) {
    if (msg.length < TRANSPORT_MIN_BYTES)
      return void dropped.malformed++;
    const entry = indices.get(readU322(msg, 4));
    const keypair = entry?.keypair;
    if (entry === void 0 || keypair === void 0)
      return void dropped.unknownIndex++;
    const peer = entry.peer;
    if (clock.now() - keypair.created >= L.rejectAfterTimeMs)
      return void dropped.expiredKey++;
    const counter = readCounter(msg, 8);
    if (!keypair.replay.check(counter))
      return void dropped.replay++;
    const plain = keypair.recv.open(counter, msg.subarray(TRANSPORT_HEADER_BYTES));
    if (plain === void 0)
      return void dropped.decrypt++;
    if (!keypair.replay.accept(counter))
      return void dropped.replay++;
    peer.rxBytes += msg.length;
    peer.rxPackets++;
    roam(peer, from);
    if (receivedWithKeypair(peer, keypair)) {
      timersHandshakeComplete(peer, "responder");
      sendStaged(peer);
    }
    keepKeyFreshReceiving(peer);
    timersAnyAuthenticatedPacketTraversal(peer);
    timersAnyAuthenticatedPacketReceived(peer);
    if (plain.length === 0)
      return;
    timersDataReceived(peer);
    const info = innerPacketInfo(plain);
    if (info === void 0)
      return void dropped.badInnerPacket++;
    const allowed = sources.get(peer)?.lookup(info.family, plain, info.srcOffset);
    if (allowed === void 0)
      return void dropped.sourceNotAllowed++;
    const packet = info.length === plain.length ? plain : plain.subarray(0, info.length);
    try {
      ipHandler?.(packet);
    } catch (err) {
      logger.warn({ err }, "wireguard onIp handler threw");
    }
  }
  function receive(data, from) {
    if (closed)
      return;
    try {
      switch (messageType(data)) {
        case MESSAGE_INITIATION:
          return handleInitiation(data, from);
        case MESSAGE_RESPONSE:
          return handleResponse(data, from);
        case MESSAGE_COOKIE_REPLY:
          return handleCookieReply(data);
        case MESSAGE_TRANSPORT:
          return handleTransport(data, from);
        default:
          dropped.malformed++;
      }
    } catch (err) {
      internalErrors++;
      logger.error({ err }, "wireguard receive path failed (bug)");
    }
  }
  for (const pc of config.peers) {
    const peer = new Peer(pc.publicKey, pc.presharedKey, pc.persistentKeepalive, clock, {
      retransmit: expiredRetransmitHandshake,
      keepalive: expiredSendKeepalive,
      newHandshake: expiredNewHandshake,
      zero: expiredZeroKeyMaterial,
      persistent: expiredPersistentKeepalive
    });
    peers.set(peer.id, peer);
    const allowed = new AllowedIps();
    for (const cidr of pc.allowedIps) {
      routes.insert(cidr, peer);
      allowed.insert(cidr, true);
    }
    sources.set(peer, allowed);
  }
  return {
    publicKey,
    mtu,
    async start() {
      if (started)
        return;
      started = true;
      udp.onMessage(receive);
      udp.onSendError?.((err, to) => sendFailed(err, to));
      try {
        const bound = await udp.bind(config.listenPort ?? 0, options.bindAddress);
        listenPort = bound.port;
      } catch (err) {
        started = false;
        throw err instanceof WireGuardSocketError ? err : new WireGuardSocketError(`WireGuard UDP socket could not bind: ${String(err)}`, { cause: err });
      }
      for (const pc of config.peers) {
        if (pc.endpoint === void 0)
          continue;
        const peer = peers.get(encodeKey(pc.publicKey));
        let address = pc.endpoint.host;
        if (parseIp(address) === void 0) {
          try {
            address = await resolve(address);
          } catch (err) {
            throw new WireGuardSocketError(`WireGuard endpoint ${pc.endpoint.host} did not resolve`, { cause: err });
          }
        }
        peer.endpoint ??= { address, port: pc.endpoint.port };
        if (peer.persistentKeepaliveMs > 0)
          sendKeepalive(peer);
      }
      logger.info({ publicKey, listenPort, peers: peers.size }, "wireguard device started");
    },
    async close() {
      if (closed)
        return;
      closed = true;
      for (const peer of peers.values()) {
        peer.stopTimers();
        zeroKeys(peer);
        peer.staged = [];
      }
      indices.clear();
      await udp.close();
    },
    sendIp(packet) {
      if (closed)
        return;
      const info = innerPacketInfo(packet);
      if (info === void 0)
        return void dropped.badInnerPacket++;
      const peer = routes.lookup(info.family, packet, info.dstOffset);
      if (peer === void 0)
        return void dropped.noRoute++;
      sendToPeer(peer, packet);
    },
    onIp(handler) {
      ipHandler = handler;
    },
    onEvent(handler) {
      eventHandler = handler;
    },
    setUnderLoad(forced) {
      forcedUnderLoad = forced;
    },
    stats() {
      return {
        listenPort,
        underLoad: underLoad(),
        internalErrors,
        lastSendError,
        dropped: { ...dropped },
        peers: [...peers.values()].map((p) => ({
          publicKey: p.id,
          endpoint: p.endpoint,
          lastHandshakeAt: p.lastHandshakeAt,
          handshakeAttempts: p.handshakeAttempts,
          hasSession: usable(p.current),
          txBytes: p.txBytes,
          rxBytes: p.rxBytes,
          txPackets: p.txPackets,
          rxPackets: p.rxPackets
        }))
      };
    }
  };
}

// dist/services/wireguard/link.js
function wireGuardLink(device) {
  return {
    send: (packet) => device.sendIp(packet),
    onPacket: (handler) => device.onIp(handler),
    mtu: device.mtu
  };
}

// dist/services/wireguard/udp.js
import { createSocket } from "node:dgram";
function createNodeUdpSocket(type = "udp4", bufferBytes = wgUdpSocketBufferBytes) {
  let socket;
  let handler;
  let sendErrorHandler;
  const sent = (err) => {
    if (!err)
      return;
    const at = err;
    sendErrorHandler?.(err, at.address !== void 0 && at.port !== void 0 ? { address: at.address, port: at.port } : void 0);
  };
  return {
    bind(port = 0, address) {
      return new Promise((resolve, reject) => {
        const s = createSocket({ type, reuseAddr: false });
        socket = s;
        s.once("error", (err) => reject(new WireGuardSocketError(`WireGuard UDP socket could not bind: ${err.message}`, { cause: err })));
        s.on("message", (msg, rinfo) => handler?.(msg, { address: rinfo.address, port: rinfo.port }));
        s.bind(port, address, () => {
          s.removeAllListeners("error");
          s.on("error", () => void 0);
          for (const set of [(n) => s.setRecvBufferSize(n), (n) => s.setSendBufferSize(n)]) {
            try {
              if (bufferBytes > 0)
                set(bufferBytes);
            } catch {
            }
          }
          const a = s.address();
          resolve({ address: a.address, port: a.port });
        });
      });
    },
    send(data, port, address) {
      socket?.send(data, port, address, sent);
    },
    onSendError(h) {
      sendErrorHandler = h;
    },
    onMessage(h) {
      handler = h;
    },
    close() {
      return new Promise((resolve) => {
        if (socket === void 0)
          return resolve();
        const s = socket;
        socket = void 0;
        try {
          s.close(() => resolve());
        } catch {
          resolve();
        }
      });
    }
  };
}

// dist/services/tunnel/tunnel.js
function endOfTurnBatcher() {
  let queue = [];
  let scheduled = false;
  const run = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    for (const flush of batch)
      flush();
  };
  return (flush) => {
    queue.push(flush);
    if (!scheduled) {
      scheduled = true;
      setImmediate(run);
    }
  };
}
function tunnelParameters(config) {
  const v4 = config.addresses.find((a) => a.family === 4);
  if (v4 === void 0) {
    throw new TunnelConfigError("the WireGuard config has no IPv4 Address (the tunnel stack speaks IPv4 only)", {
      details: { addresses: config.addresses.map((a) => a.text) }
    });
  }
  if (config.peers.length === 0)
    throw new TunnelConfigError("the WireGuard config has no [Peer]");
  if (!config.peers.some((p) => p.endpoint !== void 0)) {
    throw new TunnelConfigError("no [Peer] in the WireGuard config has an Endpoint: the tunnel cannot reach its server");
  }
  const dnsServers = config.dns.filter((entry) => parseIp(entry)?.family === 4);
  return { localAddress: formatIp(v4.bytes), dnsServers };
}
async function createTunnel(options) {
  let config;
  if (options.config !== void 0)
    config = options.config;
  else if (options.configText !== void 0)
    config = parseWgConfig(options.configText);
  else
    throw new TunnelConfigError("createTunnel needs configText or config");
  const { localAddress, dnsServers } = tunnelParameters(config);
  const log = options.logger;
  const clock = options.clock ?? systemClock;
  const firstEndpoint = config.peers.find((p) => p.endpoint !== void 0)?.endpoint;
  const udp = options.udp ?? createNodeUdpSocket(firstEndpoint !== void 0 && firstEndpoint.host.includes(":") ? "udp6" : "udp4");
  const device = createWireGuardDevice({
    config,
    udp,
    clock,
    logger: log.child({ component: "wireguard" }),
    ...options.randomBytes ? { random: options.randomBytes } : {},
    ...options.resolveEndpoint ? { resolve: options.resolveEndpoint } : {},
    ...options.bindAddress !== void 0 ? { bindAddress: options.bindAddress } : {},
    ...options.limits ? { limits: options.limits } : {}
  });
  let status = "connecting";
  let handshakes = 0;
  let unansweredInitiations = 0;
  let lastHandshakeAt;
  const handlers = /* @__PURE__ */ new Set();
  const emit = (event) => {
    for (const handler of [...handlers]) {
      try {
        handler(event);
      } catch (err) {
        log.warn({ err, event: event.type }, "tunnel event handler threw");
      }
    }
  };
  device.onEvent((event) => {
    if (status === "closed")
      return;
    switch (event.type) {
      case "handshake-complete": {
        const restored = status !== "up";
        status = "up";
        handshakes++;
        unansweredInitiations = 0;
        lastHandshakeAt = clock.now();
        if (restored)
          log.info({ peer: event.peer, role: event.role }, "tunnel up");
        emit({ type: "handshake-ok", peer: event.peer, role: event.role, restored });
        break;
      }
      case "handshake-timeout":
      case "keys-zeroed": {
        if (status === "up" || event.type === "handshake-timeout") {
          status = "down";
          const error = event.type === "handshake-timeout" ? event.error : void 0;
          if (event.type === "handshake-timeout")
            log.warn({ peer: event.peer, err: error }, "tunnel handshake lost");
          emit({ type: "handshake-lost", peer: event.peer, reason: event.type, ...error ? { error } : {} });
        }
        break;
      }
      case "handshake-initiated":
        if (++unansweredInitiations >= tunnelHandshakeLostInitiations && status === "up") {
          status = "down";
          log.warn({ peer: event.peer, initiations: unansweredInitiations }, "tunnel handshake unanswered");
          emit({ type: "handshake-lost", peer: event.peer, reason: "unanswered" });
        }
        break;
      case "endpoint-changed":
        emit({ type: "endpoint-changed", peer: event.peer, endpoint: event.endpoint });
        break;
      default:
        break;
    }
  });
  try {
    await device.start();
  } catch (err) {
    await device.close().catch(() => void 0);
    throw err;
  }
  let stack;
  try {
    stack = createNetStack({
      link: wireGuardLink(device),
      localAddress,
      dnsServers,
      clock,
      logger: log.child({ component: "netstack" }),
      tcp: {
        receiveBufferBytes: tunnelTcpReceiveBufferBytes,
        sendBufferBytes: tunnelTcpSendBufferBytes,
        ...options.ackBatching ?? options.clock === void 0 ? { deferAck: endOfTurnBatcher() } : {},
        ...options.tcp
      },
      ...options.congestionControl ? { congestionControl: options.congestionControl } : {},
      ...options.randomUint32 ? { random: options.randomUint32 } : {}
    });
  } catch (err) {
    await device.close();
    throw err;
  }
  log.info({ localAddress, dnsServers, mtu: device.mtu, listenPort: device.stats().listenPort }, "tunnel started");
  let closing;
  const closedError = (what) => new TunnelClosedError(`the tunnel is closed (${what})`);
  const translate = (err, what) => status === "closed" && err instanceof NetstackClosedError ? closedError(what) : err;
  const tunnel = {
    localAddress,
    dnsServers,
    mtu: device.mtu,
    publicKey: device.publicKey,
    get status() {
      return status;
    },
    async connect(host, port, connectOptions) {
      if (status === "closed")
        throw closedError("connect");
      try {
        return await stack.connect(host, port, connectOptions);
      } catch (err) {
        throw translate(err, "connect");
      }
    },
    listen(port, onConnection, listenOptions) {
      if (status === "closed")
        throw closedError("listen");
      return stack.listen(port, onConnection, listenOptions);
    },
    createUdpSocket(socketOptions) {
      if (status === "closed")
        throw closedError("createUdpSocket");
      return stack.createUdpSocket(socketOptions);
    },
    async resolve(name) {
      if (status === "closed")
        throw closedError("resolve");
      try {
        return await stack.resolve(name);
      } catch (err) {
        throw translate(err, "resolve");
      }
    },
    async ping(address, timeoutMs) {
      if (status === "closed")
        throw closedError("ping");
      return stack.ping(address, timeoutMs);
    },
    stats() {
      const wireguard = device.stats();
      return { status, localAddress, listenPort: wireguard.listenPort, handshakes, lastHandshakeAt, wireguard, netstack: stack.stats() };
    },
    onEvent(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    waitUntilUp(timeoutMs = tunnelWaitUntilUpMs) {
      if (status === "up")
        return Promise.resolve();
      if (status === "closed")
        return Promise.reject(closedError("waitUntilUp"));
      return new Promise((resolve, reject) => {
        const timer = clock.setTimeout(() => {
          off();
          reject(new TunnelDownError(`no WireGuard handshake completed within ${timeoutMs} ms`, { details: { timeoutMs } }));
        }, timeoutMs);
        const off = tunnel.onEvent((event) => {
          if (event.type === "handshake-ok") {
            off();
            clock.clearTimeout(timer);
            resolve();
          } else if (event.type === "closed") {
            off();
            clock.clearTimeout(timer);
            reject(closedError("waitUntilUp"));
          }
        });
      });
    },
    close() {
      closing ??= (async () => {
        status = "closed";
        stack.close();
        try {
          await device.close();
        } catch (err) {
          log.warn({ err }, "closing the WireGuard device failed");
        }
        emit({ type: "closed" });
        handlers.clear();
        log.info("tunnel closed");
      })();
      return closing;
    }
  };
  return tunnel;
}
export {
  createTunnel
};
/*! Bundled license information:

@noble/ciphers/utils.js:
  (*! noble-ciphers - MIT License (c) 2023 Paul Miller (paulmillr.com) *)
*/

// The reference server's player page (issue 17, protocol.md 4), plain browser JavaScript served
// by src/reference-server/player-page.ts. One document holds two views: the list at `/` (sessions,
// tasks, forms) and the player at `/play/<sessionId>` (one session: hls.js where MediaSource
// works, else native HLS; a plain <video> for direct play). Moving between them stays in the page
// (history.pushState; "Views" below). Readiness comes from the `ready` event of the player SSE; when that
// stream fails, says nothing for a grace period, or the agent's sync already reports the session
// ready (its session-ready call is only best effort, contract 4.1), the page HEAD-probes the
// playlist or stream URL for up to 30 s (contract 4.2, 6.4). `window.maPlayer` exposes what a test or benchmark needs to observe.
/* global Hls */
'use strict'

const settings = JSON.parse(document.getElementById('ma-settings').textContent)
const tokenKey = 'media-agent.access-token'

// ---- access token: from the URL fragment (never sent to a server), kept in localStorage ------

function takeToken() {
  const fragment = new URLSearchParams(location.hash.slice(1))
  const given = fragment.get('token')
  if (given) {
    localStorage.setItem(tokenKey, given)
    history.replaceState(null, '', location.pathname + location.search)
  }
  return localStorage.getItem(tokenKey)
}

class ApiError extends Error {
  constructor(status, message) {
    super(message)
    this.status = status
  }
}

async function api(path, options = {}) {
  const token = takeToken()
  if (!token) {
    askForToken()
    throw new ApiError(401, 'no access token')
  }
  const headers = { authorization: 'Bearer ' + token }
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(path, { method: options.method || 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), cache: 'no-store' })
  if (response.status === 401) {
    askForToken()
    throw new ApiError(401, 'the access token was refused')
  }
  const text = await response.text()
  const json = text === '' ? null : JSON.parse(text)
  if (!response.ok) throw new ApiError(response.status, (json && (json.message || json.error)) || response.statusText)
  return json
}

function askForToken() {
  const form = document.getElementById('token-form')
  if (!form.hidden) return
  form.hidden = false
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    localStorage.setItem(tokenKey, new FormData(form).get('token').trim())
    location.reload()
  }, { once: true })
}

// ---- small helpers ---------------------------------------------------------------------------

const $ = (id) => document.getElementById(id)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value)
    else node.setAttribute(name, value)
  }
  for (const child of children) node.append(child)
  return node
}

function showError(id, message) {
  const node = $(id)
  node.textContent = message
  node.hidden = !message
}

function clock(seconds) {
  if (!Number.isFinite(seconds)) return '0:00'
  const whole = Math.max(0, Math.floor(seconds))
  const h = Math.floor(whole / 3600)
  const m = Math.floor((whole % 3600) / 60)
  const s = String(whole % 60).padStart(2, '0')
  return h > 0 ? h + ':' + String(m).padStart(2, '0') + ':' + s : m + ':' + s
}

function baseName(path) {
  const parts = String(path || '').split(/[\\/]/)
  return parts[parts.length - 1] || path
}

// ---- index page ------------------------------------------------------------------------------

async function createSession(source, method, quality) {
  const body = { PlayMethod: method, quality }
  if (/^https?:\/\//i.test(source)) body.DirectURL = source
  else body.filePath = source
  const view = await api('/api/reference/sessions', { method: 'POST', body })
  navigate('/play/' + encodeURIComponent(view.sessionId))
}

let indexWired = false
let indexRefreshing = false

/** The list view: its forms wired once, its tables refreshed while it is shown. */
function showIndex() {
  document.title = 'media-agent'
  if (!indexWired) wireIndex()
  indexWired = true
  if (!indexRefreshing) void refreshLoop()
}

function wireIndex() {
  const playForm = $('play-form')
  playForm.addEventListener('submit', async (event) => {
    event.preventDefault()
    const data = new FormData(playForm)
    showError('play-error', '')
    try {
      await createSession(String(data.get('source')).trim(), data.get('method'), data.get('quality'))
    } catch (error) {
      showError('play-error', 'Could not start the session: ' + error.message)
    }
  })
  const taskForm = $('task-form')
  taskForm.addEventListener('submit', async (event) => {
    event.preventDefault()
    showError('task-error', '')
    try {
      await api('/api/reference/tasks', { method: 'POST', body: { source: String(new FormData(taskForm).get('source')).trim() } })
      taskForm.reset()
      await refreshIndex()
    } catch (error) {
      showError('task-error', 'Could not queue the download: ' + error.message)
    }
  })
}

async function refreshLoop() {
  indexRefreshing = true
  try {
    while (document.body.dataset.page === 'index') {
      try {
        await refreshIndex()
      } catch (error) {
        if (error.status === 401) return
        $('agent-line').textContent = 'Cannot reach the reference server: ' + error.message
      }
      await sleep(settings.statusPollMs)
    }
  } finally {
    indexRefreshing = false
  }
}

async function refreshIndex() {
  const state = await api('/api/reference/state')
  const reports = new Map()
  const taskReports = new Map()
  if (state.lastSync) {
    for (const report of state.lastSync.request.sessions) reports.set(report.sessionId, report)
    for (const report of state.lastSync.request.tasks) taskReports.set(report.id, report)
  }
  const live = state.sessions.filter((view) => !view.removedAt).reverse()
  const sessionRows = live.map((view) => {
    const report = reports.get(view.sessionId)
    const source = view.session.filePath || view.session.DirectURL || ''
    const method = view.session.PlayMethod === 'hls' ? 'HLS ' + view.session.quality : 'direct'
    const agentState = report ? report.state + (report.error ? ': ' + report.error : '') : view.readyAt ? 'ready' : 'not picked up yet'
    return el('tr', {},
      el('td', { class: 'muted', title: view.sessionId, text: view.sessionId.slice(0, 8) }),
      el('td', { title: source }, el('a', { href: '/play/' + encodeURIComponent(view.sessionId), text: '▶ ' + baseName(source) })),
      el('td', { text: method }),
      el('td', { class: 'state-' + (report ? report.state : 'starting'), text: agentState }),
      el('td', {}, el('button', { type: 'button', class: 'small', text: 'Remove', onclick: () => api('/api/reference/sessions/' + encodeURIComponent(view.sessionId), { method: 'DELETE' }).then(refreshIndex, () => {}) })))
  })
  $('sessions').tBodies[0].replaceChildren(...sessionRows)
  $('sessions-empty').hidden = sessionRows.length > 0

  const taskRows = state.tasks.filter((task) => task.add !== 'withdrawn' && task.add !== 'none').reverse().map((task) => {
    const report = taskReports.get(task.taskId)
    const files = report ? report.files.map((file) => el('div', { class: 'file' },
      el('span', { title: file.path, text: baseName(file.path) + ' (' + Math.floor(file.progress * 100) + '%)' }),
      el('button', { type: 'button', class: 'small', text: 'Play', 'data-path': file.path, onclick: () => playFile(file.path) }))) : []
    return el('tr', {},
      el('td', { title: task.source, text: report && report.name ? report.name : magnetName(task.source) }),
      el('td', { text: report ? report.state + (report.error ? ': ' + report.error : '') : task.add === 'pending' ? 'queued' : task.add }),
      el('td', { text: report ? Math.floor(report.progress * 100) + '%' + (report.peers ? ' · ' + report.peers + ' peers' : '') : '' }),
      el('td', {}, ...files))
  })
  $('tasks').tBodies[0].replaceChildren(...taskRows)
  $('tasks-empty').hidden = taskRows.length > 0
  $('agent-line').textContent = state.agents.length === 0 ? 'No agent has registered yet.' : 'Agent: ' + state.agents.join(', ') + (state.lastSync ? ' · last sync ' + new Date(state.lastSync.at).toLocaleTimeString() : '')
}

/** The display name a magnet carries (`dn`), else the start of the source. */
function magnetName(source) {
  try {
    if (source.startsWith('magnet:')) {
      const name = new URLSearchParams(source.slice(source.indexOf('?') + 1)).get('dn')
      if (name) return name
    }
  } catch {
    // not a URL: shown as it is
  }
  return source.length > 60 ? source.slice(0, 57) + '…' : source
}

function playFile(path) {
  const data = new FormData($('play-form'))
  createSession(path, data.get('method'), data.get('quality')).catch((error) => showError('play-error', 'Could not start the session: ' + error.message))
}

// ---- play page -------------------------------------------------------------------------------

/** The open session's state, `window.maPlayer` (what a test or benchmark observes): one per session. */
function newPlayer(sessionId) {
  return {
    phase: 'loading', // loading | waiting | ready | playing | failed | ended
    readyVia: null, // already | sse | probe
    probes: 0,
    sessionId,
    playMethod: null,
    quality: null,
    createdAtMs: null,
    readyKnownAtMs: null,
    firstFrameAtMs: null,
    errors: [],
    fatalErrors: [],
    lastSeekMs: null,
    // Epoch ms of the first occurrence of each step from readiness to the first frame (the browser benchmark reports them).
    marks: {},
    fragments: [],
    seek: (seconds) => seekTo(seconds),
  }
}

let player = newPlayer(null)
window.maPlayer = player

let video
let hls
let probeNow = () => {}
// The server already has the session's readiness (a poll's view shows `readyAt`): no probe needed.
let readyKnownNow = () => {}
// Ends everything the open session started (listeners, loops, requests, its SSE) when the page
// leaves it: closeSession().
let sessionAbort
const epochNow = () => performance.timeOrigin + performance.now()
const mark = (name) => { player.marks[name] ??= epochNow() }
// The last fragment requests and arrivals with their times (a benchmark reads where a seek waited).
const fragLog = (entry, owner = player) => {
  owner.fragments.push({ ...entry, at: Math.round(performance.now()) })
  if (owner.fragments.length > 50) owner.fragments.shift()
}

// The overlay says how long the wait has lasted, once a second, over a still ring: a spinning one
// repaints many times a second (measured: ~0.1 s of Chromium's CPU per second, even stepped to 8
// frames), which a small host takes from the agent's encoder while a person waits for it.
let overlayTicker
function overlayText(text, counting) {
  clearInterval(overlayTicker)
  $('overlay-text').textContent = text
  if (!counting) return
  const since = performance.now()
  overlayTicker = setInterval(() => {
    if ($('overlay').hidden) clearInterval(overlayTicker)
    else $('overlay-text').textContent = text + ' ' + Math.round((performance.now() - since) / 1000) + ' s'
  }, 1000)
}

function setPhase(phase, text) {
  player.phase = phase
  const overlay = $('overlay')
  overlay.hidden = phase === 'playing' || phase === 'ready'
  overlay.classList.toggle('failed', phase === 'failed' || phase === 'ended')
  if (text) overlayText(text, phase === 'waiting')
}

function fail(message) {
  player.fatalErrors.push(message)
  setPhase('failed', message)
  showError('player-error', message)
}

async function loadView(sessionId, signal) {
  for (;;) {
    const view = await api('/api/reference/sessions/' + encodeURIComponent(sessionId))
    if (view.removedAt) throw new ApiError(410, 'this session was removed')
    // stream/hls URLs are unknown until the agent has told the server its address.
    if (view.urls.stream && view.urls.hls) return view
    if (signal.aborted) return view
    setPhase('waiting', 'Waiting for an agent to pick up the session…')
    await sleep(settings.statusPollMs)
  }
}

/** 'already' | 'sse' | 'probe'; 'left' when the page left the session first. */
function waitForReadiness(view, probeUrl, signal) {
  if (view.readyAt) return Promise.resolve('already')
  return new Promise((resolve) => {
    let done = false
    let probing = false
    const events = new EventSource(view.paths.playerEvents)
    const finish = (via) => {
      if (done) return
      done = true
      clearTimeout(grace)
      events.close()
      resolve(via)
    }
    signal.addEventListener('abort', () => finish('left'), { once: true })
    events.addEventListener('ready', () => finish('sse'))
    // CLOSED means the server refused the stream (EventSource only reconnects after a drop).
    events.addEventListener('error', () => {
      if (events.readyState === EventSource.CLOSED) startProbing()
    })
    const grace = setTimeout(startProbing, settings.readyGraceMs)
    // The agent's sync says ready but no notice came (its session-ready call failed): probe now.
    probeNow = startProbing
    readyKnownNow = () => finish('already')
    async function startProbing() {
      if (probing || done) return
      probing = true
      const deadline = performance.now() + settings.headProbeBudgetMs
      while (!done && performance.now() < deadline) {
        player.probes++
        try {
          const answer = await fetch(probeUrl, { method: 'HEAD', cache: 'no-store' })
          if (answer.ok) return finish('probe')
        } catch {
          // the agent is unreachable for the moment: keep probing within the budget
        }
        await sleep(settings.headProbeIntervalMs)
      }
      if (!done) $('readiness').textContent = 'not ready after ' + settings.headProbeBudgetMs / 1000 + ' s of probing; still listening for the agent'
    }
  })
}

function watchFrames(signal) {
  // This session's state, not whichever is open when a late callback comes.
  const watched = player
  if (!('requestVideoFrameCallback' in HTMLVideoElement.prototype)) {
    video.addEventListener('loadeddata', () => { watched.firstFrameAtMs ??= epochNow() }, { once: true, signal })
    return
  }
  for (const name of ['loadedmetadata', 'loadeddata', 'canplay', 'playing']) video.addEventListener(name, () => mark(name), { once: true, signal })
  video.requestVideoFrameCallback((now) => {
    if (signal.aborted) return
    watched.firstFrameAtMs = performance.timeOrigin + now
    showQuality()
  })
}

function showQuality() {
  const size = video.videoWidth ? video.videoWidth + '×' + video.videoHeight : '…'
  $('quality').textContent = (player.playMethod === 'hls' ? player.quality : 'direct play') + ' · ' + size
}

// ---- prefetch: the first requests of an HLS session at once, not one after the other ---------
//
// hls.js asks for master.m3u8, then index.m3u8, then init.mp4, then seg-0.m4s, each after the one
// before has arrived and been parsed: four round trips after readiness. Their names are fixed by
// the protocol (protocol.md 2), so the page asks for all four at once when it learns readiness, and
// hls.js's loader takes the answers from here instead of the network (issue 17, docs/hls.md
// "Browser benchmark"). A prefetch that failed is asked again by hls.js as usual.
const prefetched = new Map()

function prefetch(url) {
  if (prefetched.has(url) || !sessionAbort) return
  const startedAt = performance.now()
  // Aborted with the session: a held request (up to 10 s at the agent) must not keep one of the
  // browser's six connections to the agent busy for the next session.
  const pending = fetch(url, { cache: 'no-store', signal: sessionAbort.signal }).then(async (response) => {
    if (!response.ok) return null
    const firstAt = performance.now()
    const data = await response.arrayBuffer()
    return { url: response.url || url, data, startedAt, firstAt, endAt: performance.now() }
  }, () => null)
  prefetched.set(url, pending)
  const name = url.slice(url.lastIndexOf('/') + 1)
  fragLog({ prefetching: name })
  // Into this session's log: one aborted by leaving settles after the next session has opened.
  const owner = player
  void pending.then((got) => fragLog({ prefetched: name, ok: Boolean(got) }, owner))
  // A miss is forgotten, so asking again (at readiness, or hls.js itself) goes to the network.
  void pending.then((got) => { if (!got && prefetched.get(url) === pending) prefetched.delete(url) })
}

function prefetchFirstRequests(masterUrl) {
  for (const name of ['master.m3u8', 'index.m3u8', 'init.mp4', 'seg-0.m4s']) prefetch(new URL(name, masterUrl).href)
}

// Before readiness, once an agent has the session: init.mp4 and seg-0 are asked for already. The
// agent holds such requests until the segment is closed (up to 10 s, docs/hls.md "Seeking"), so
// the first segment travels while the readiness notice does. Playlists are not: they answer 404
// until the session is ready.
let prefetchFirstMedia = () => {}

/** hls.js's own loader, answering from `prefetched` when the URL is there (once), else as usual. */
function prefetchingLoader(Base) {
  return class PrefetchingLoader extends Base {
    load(context, config, callbacks) {
      const taken = context.rangeEnd ? undefined : prefetched.get(context.url)
      if (!taken) return super.load(context, config, callbacks)
      prefetched.delete(context.url)
      this.context = context
      this.stats.loading.start = performance.now()
      taken.then((got) => {
        if (this.prefetchAborted || !this.stats) return
        if (!got) {
          this.stats.loading.start = 0
          return super.load(context, config, callbacks)
        }
        const stats = this.stats
        stats.loading.start = Math.min(stats.loading.start, got.startedAt)
        stats.loading.first = got.firstAt
        stats.loading.end = Math.max(got.endAt, got.firstAt)
        stats.loaded = stats.total = got.data.byteLength
        stats.bwEstimate = (stats.total * 8000) / Math.max(1, stats.loading.end - stats.loading.first)
        const data = context.responseType === 'arraybuffer' ? got.data : new TextDecoder().decode(got.data)
        callbacks.onProgress?.(stats, context, data, null)
        callbacks.onSuccess({ url: got.url, data, code: 200 }, stats, context, null)
      })
    }

    abort() {
      this.prefetchAborted = true
      super.abort()
    }
  }
}

function attachHls() {
  hls = new Hls({
    loader: prefetchingLoader(Hls.DefaultConfig.loader),
    // The agent's segments are fMP4, which hls.js passes through with little work. Its worker would
    // be made when the first fragment arrives, by compiling hls.js again from a blob URL (tens of
    // ms of CPU, after readiness, on the path to the first frame); on the main thread it costs less.
    enableWorker: false,
    // The agent's segments are 2 s; a modest forward buffer keeps a seek from queueing behind
    // segments the player does not need yet, and the session's encoder is not asked far ahead.
    maxBufferLength: 12,
    maxMaxBufferLength: 30,
    backBufferLength: 30,
    // A segment past the encoder waits on the agent (up to 10 s) and may then 404 once.
    fragLoadPolicy: { default: { maxTimeToFirstByteMs: 20000, maxLoadTimeMs: 60000, timeoutRetry: { maxNumRetry: 4, retryDelayMs: 0, maxRetryDelayMs: 0 }, errorRetry: { maxNumRetry: 6, retryDelayMs: 500, maxRetryDelayMs: 4000 } } },
  })
  hls.on(Hls.Events.MANIFEST_PARSED, () => mark('manifestParsed'))
  hls.on(Hls.Events.LEVEL_LOADED, () => mark('levelLoaded'))
  hls.on(Hls.Events.FRAG_LOADED, (_event, data) => {
    mark('fragLoaded')
    fragLog({ loaded: data.frag.sn })
  })
  hls.on(Hls.Events.FRAG_LOADING, (_event, data) => fragLog({ loading: data.frag.sn }))
  hls.on(Hls.Events.FRAG_LOADED, (_event, data) => { if (data.frag.sn === 'initSegment') fragLog({ loaded: 'init' }) })
  hls.on(Hls.Events.BUFFER_APPENDED, (_event, data) => {
    mark('bufferAppended')
    if (data.type !== 'audio') fragLog({ appended: data.frag?.sn })
  })
  hls.on(Hls.Events.ERROR, (_event, data) => {
    player.errors.push({ type: data.type, details: data.details, fatal: data.fatal })
    if (!data.fatal) return
    if (data.type === Hls.ErrorTypes.MEDIA_ERROR && player.errors.filter((e) => e.fatal).length < 3) {
      hls.recoverMediaError()
      return
    }
    fail('The player stopped: ' + data.details)
    hls.destroy()
  })
  hls.attachMedia(video)
}

const scripts = new Map()

/** Loads a script once for the life of the page (hls.js serves every session the page opens). */
function loadScript(src) {
  let loading = scripts.get(src)
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      const script = el('script', { src })
      script.addEventListener('load', resolve)
      script.addEventListener('error', () => {
        scripts.delete(src)
        script.remove()
        reject(new Error('cannot load ' + src))
      })
      document.head.append(script)
    })
    scripts.set(src, loading)
  }
  return loading
}

async function startPlayback() {
  try {
    await video.play()
  } catch (error) {
    if (error.name !== 'NotAllowedError') throw error
    // Autoplay with sound needs a gesture on this origin; start muted and offer Unmute.
    video.muted = true
    await video.play()
  }
}

/** The player view on a fresh <video> and cleared controls, for a session the page opens. */
function resetPlayView() {
  const fresh = el('video', { id: 'video', playsinline: '', preload: 'auto' })
  $('video').replaceWith(fresh)
  video = fresh
  document.title = 'media-agent player'
  for (const [id, text] of [['title', ''], ['quality', '…'], ['readiness', 'waiting for the agent'], ['agent-state', '…'], ['source', '…'], ['time', '0:00'], ['duration', '0:00']]) $(id).textContent = text
  $('source').title = ''
  showError('player-error', '')
  const toggle = $('toggle')
  toggle.disabled = true
  toggle.textContent = 'Play'
  const seek = $('seek')
  seek.disabled = true
  seek.max = '0'
  seek.value = '0'
  setPhase('loading', 'Loading…')
}

/** Ends what the open session started, so that the next one (or the list) starts clean. */
function closeSession() {
  if (!sessionAbort) return
  sessionAbort.abort()
  sessionAbort = undefined
  clearInterval(overlayTicker)
  if (hls) hls.destroy()
  hls = undefined
  // Releases the decoder and the agent's connection at once, not when the element is collected.
  if (video) {
    video.pause()
    video.removeAttribute('src')
    video.load()
  }
  prefetched.clear()
  probeNow = () => {}
  readyKnownNow = () => {}
  prefetchFirstMedia = () => {}
}

async function openSession(sessionId) {
  closeSession()
  sessionAbort = new AbortController()
  const signal = sessionAbort.signal
  player = newPlayer(sessionId)
  window.maPlayer = player
  resetPlayView()
  let view
  try {
    view = await loadView(sessionId, signal)
  } catch (error) {
    if (!signal.aborted) fail(error.status === 404 ? 'No such session.' : 'Cannot load the session: ' + error.message)
    return
  }
  if (signal.aborted) return
  player.playMethod = view.session.PlayMethod === 'hls' ? 'hls' : 'direct'
  player.quality = view.session.quality
  player.createdAtMs = Date.parse(view.createdAt)
  const source = view.session.filePath || view.session.DirectURL || ''
  $('source').textContent = baseName(source)
  $('source').title = source
  document.title = baseName(source) + ' · media-agent'
  $('title').textContent = baseName(source)
  showQuality()
  wireControls(signal)
  void pollAgentState(sessionId, signal)

  // hls.js (600 KB) only for HLS, loaded while the agent transcodes (once for the page's life);
  // direct play never waits for it.
  if (player.playMethod === 'hls') await loadScript('/player/hls.min.js').catch(() => {})
  if (signal.aborted) return
  const useHlsJs = player.playMethod === 'hls' && typeof Hls !== 'undefined' && Hls.isSupported()
  if (player.playMethod === 'hls' && !useHlsJs && !video.canPlayType('application/vnd.apple.mpegurl')) {
    fail('This browser can play neither HLS through MediaSource nor natively.')
    return
  }
  const url = player.playMethod === 'hls' ? view.urls.hls : view.urls.stream
  // Everything that does not need the media is set up while the agent works.
  // CORS mode (the stream server allows any origin), so the picture can be read back (tests do).
  video.crossOrigin = 'anonymous'
  watchFrames(signal)
  if (useHlsJs) {
    attachHls()
    prefetchFirstMedia = () => {
      if (player.phase === 'waiting') for (const name of ['init.mp4', 'seg-0.m4s']) prefetch(new URL(name, url).href)
    }
  }
  setPhase('waiting', player.playMethod === 'hls' ? 'The agent is transcoding the first segment…' : 'The agent is opening the file…')
  // `agentId` is set once a sync response has handed the session to an agent.
  if (view.agentId) prefetchFirstMedia()
  else if (!view.readyAt) void api('/api/reference/sessions/' + encodeURIComponent(sessionId)).then((fresh) => { if (fresh.agentId) prefetchFirstMedia() }, () => {})
  const via = await waitForReadiness(view, url, signal)
  if (signal.aborted || player.phase === 'failed') return
  player.readyVia = via
  player.readyKnownAtMs = epochNow()
  mark('readyKnown')
  $('readiness').textContent = via === 'probe' ? 'ready (found by HEAD probe)' : via === 'sse' ? 'ready (notified by the server)' : 'ready'
  setPhase('ready')
  if (useHlsJs) prefetchFirstRequests(url)
  if (useHlsJs) hls.loadSource(url)
  else video.src = url
  try {
    await startPlayback()
  } catch (error) {
    if (!signal.aborted) fail('Playback did not start: ' + error.message)
  }
}

async function pollAgentState(sessionId, signal) {
  while (player.phase !== 'ended' && !signal.aborted) {
    try {
      const view = await api('/api/reference/sessions/' + encodeURIComponent(sessionId))
      if (signal.aborted) return
      const report = view.report
      $('agent-state').textContent = view.removedAt ? 'session removed' : report ? report.state + (report.cacheHit ? ' (cache hit)' : '') : 'not picked up yet'
      if (view.removedAt) {
        if (hls) hls.destroy()
        video.removeAttribute('src')
        setPhase('ended', 'The session was removed.')
        return
      }
      if (report && report.state === 'failed' && player.phase !== 'failed') fail('The agent could not play this: ' + (report.error || 'failed'))
      // The server knows readiness (its notice may still be on its way): take it. Only the agent
      // saying ready while the server does not (its session-ready call failed) needs a probe.
      if (view.readyAt && player.phase === 'waiting') readyKnownNow()
      else if (report && report.state === 'ready' && player.phase === 'waiting') probeNow()
      if (view.agentId) prefetchFirstMedia()
    } catch {
      // the next poll tries again
    }
    await sleep(settings.statusPollMs)
  }
}

/** The controls and the <video>'s listeners, removed with the session (`signal`). */
function wireControls(signal) {
  const toggle = $('toggle')
  const seek = $('seek')
  const mute = $('mute')
  const on = (target, name, handler) => target.addEventListener(name, handler, { signal })
  let dragging = false
  on(video, 'timeupdate', () => {
    $('time').textContent = clock(video.currentTime)
    if (!dragging) seek.value = String(video.currentTime)
  })
  on(video, 'durationchange', () => {
    seek.max = String(video.duration || 0)
    $('duration').textContent = clock(video.duration)
  })
  on(video, 'loadedmetadata', showQuality)
  on(video, 'resize', showQuality)
  on(video, 'playing', () => {
    if (player.phase !== 'failed') setPhase('playing')
    toggle.disabled = false
    seek.disabled = false
  })
  on(video, 'waiting', () => {
    if (player.phase === 'playing') {
      $('overlay').hidden = false
      overlayText('Buffering…', true)
    }
  })
  on(video, 'play', () => { toggle.textContent = 'Pause' })
  on(video, 'pause', () => { toggle.textContent = 'Play' })
  const showMute = () => { mute.textContent = video.muted ? 'Unmute' : 'Mute' }
  showMute()
  on(video, 'volumechange', showMute)
  on(video, 'error', () => {
    const error = video.error
    if (error) fail('The video element failed: ' + (error.message || 'code ' + error.code))
  })
  on(toggle, 'click', () => { if (video.paused) void video.play(); else video.pause() })
  on(mute, 'click', () => { video.muted = !video.muted })
  on(seek, 'input', () => {
    dragging = true
    $('time').textContent = clock(Number(seek.value))
  })
  on(seek, 'change', () => {
    dragging = false
    void seekTo(Number(seek.value))
  })
}

/** Seeks and resolves with the milliseconds until a frame at the new position is shown while playing. */
function seekTo(seconds) {
  const asked = performance.now()
  // This session's element and state: a seek still waiting when the page leaves the session
  // must not land in the next one.
  const sought = video
  const seeking = player
  return new Promise((resolve) => {
    const target = Math.max(0, seconds - 0.05)
    const onFrame = (now, metadata) => {
      if (metadata.mediaTime >= target && !sought.paused && !sought.seeking) {
        seeking.lastSeekMs = now - asked
        resolve(seeking.lastSeekMs)
      } else sought.requestVideoFrameCallback(onFrame)
    }
    fragLog({ seek: seconds })
    sought.currentTime = seconds
    if (sought.paused) void sought.play().catch(() => {})
    sought.requestVideoFrameCallback(onFrame)
  })
}

// ---- views: one document, the list and the player, switched in the page ----------------------
//
// `/` and `/play/<sessionId>` serve the same document (the other view hidden). Moving between them
// with history.pushState keeps the page, and hls.js with it: a session started from the list, or
// opened from it, reaches its first frame without a page load, which on a small host running the
// agent beside the browser also took ~0.1 s of CPU from the encoder of the session it waited for
// (docs/hls.md "Browser benchmark"). Links to either view open in the page; the browser's back and
// forward buttons move between them; a link opened in a new tab loads the document as usual.

function sessionIdOfPath(pathname) {
  const match = /^\/play\/([^/]+)$/.exec(pathname)
  return match ? decodeURIComponent(match[1]) : null
}

function navigate(path) {
  if (location.pathname + location.search !== path) history.pushState(null, '', path)
  route()
}

function route() {
  const sessionId = sessionIdOfPath(location.pathname)
  const page = sessionId === null ? 'index' : 'play'
  document.body.dataset.page = page
  $('index-view').hidden = page !== 'index'
  $('play-view').hidden = page !== 'play'
  if (page === 'play') {
    void openSession(sessionId)
    return
  }
  closeSession()
  showIndex()
}

document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null
  if (!link || link.target || link.origin !== location.origin) return
  if (link.pathname !== '/' && sessionIdOfPath(link.pathname) === null) return
  event.preventDefault()
  navigate(link.pathname)
})
window.addEventListener('popstate', route)
// What a web app's own code would call to open a session's player in the page (the browser benchmark does).
window.maPage = { navigate }

route()

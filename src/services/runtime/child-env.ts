import * as defaults from '../../config/defaults.js'

// The environment of the media tools the daemon runs (ffmpeg, ffprobe, the thumbnailer): the
// daemon's own, less the malloc settings its start line adds for itself (defaults.daemonMallocEnv):
// two arenas and mmapped buffers suit one JavaScript thread that frees 1 MiB buffers, not an
// encoder whose threads allocate frames side by side. A value the operator set otherwise (the
// systemd unit, the shell) is theirs and stays.

export function mediaToolEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = { ...env }
  for (const [name, value] of Object.entries(defaults.daemonMallocEnv)) {
    if (result[name] === value) delete result[name]
  }
  return result
}

// A real nginx serving a directory on a loopback port, as a child process (`daemon off`), with
// its prefix, config, pid file and logs in a temp dir. Used by the range conformance test and
// bench/stream.ts as the reference implementation of static-file Range handling.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, watch } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './ports.js'

export interface NginxOptions {
  /** Directory served at `/`. */
  root: string
  /** Extra directives inside `http { }`. */
  httpDirectives?: string
  binary?: string
}

export interface RunningNginx {
  url: string
  port: number
  pid: number
  dir: string
  stop(): Promise<void>
}

function nginxBinary(): string {
  for (const candidate of [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx']) {
    if (candidate !== undefined && candidate !== '' && existsSync(candidate)) return candidate
  }
  return 'nginx'
}

function config(dir: string, root: string, port: number, extra: string): string {
  // `user root` only matters when the master runs as root (workers would else be `nobody`, who
  // cannot enter a 0700 temp dir); as another user nginx ignores it with a warning.
  return `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  types {
    video/mp4 mp4 m4v;
    video/x-matroska mkv;
    video/webm webm;
  }
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  ${extra}
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { }
  }
}
`
}

/** The pid file appears after the listening socket is bound and listening (ngx_init_cycle). */
function waitForFile(dir: string, name: string, child: ChildProcess, stderr: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dir)
    const finish = (err?: Error): void => {
      watcher.close()
      child.off('exit', onExit)
      if (err === undefined) resolve()
      else reject(err)
    }
    const onExit = (code: number | null): void => finish(new Error(`nginx exited with ${code}: ${stderr()}`))
    watcher.on('change', () => {
      if (existsSync(join(dir, name))) finish()
    })
    child.once('exit', onExit)
    if (existsSync(join(dir, name))) finish()
  })
}

export async function startNginx(options: NginxOptions): Promise<RunningNginx> {
  const binary = options.binary ?? nginxBinary()
  let lastError: unknown
  // The port is picked free, then handed to nginx: another process may take it in between.
  for (let attempt = 0; attempt < 3; attempt++) {
    const dir = await mkdtemp(join(tmpdir(), 'ma-nginx-'))
    await mkdir(join(dir, 'tmp'))
    const port = await freePort()
    const conf = join(dir, 'nginx.conf')
    await writeFile(conf, config(dir, options.root, port, options.httpDirectives ?? ''))
    const child = spawn(binary, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log'), '-g', `daemon off; pid ${dir}/nginx.pid;`], { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      stderr += text
    })
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    try {
      await waitForFile(dir, 'nginx.pid', child, () => stderr)
    } catch (err) {
      lastError = err
      await rm(dir, { recursive: true, force: true })
      continue
    }
    // With `daemon off` the child is the master; the pid file may still be half written here.
    const fromFile = Number((await readFile(join(dir, 'nginx.pid'), 'utf8')).trim())
    const pid = Number.isSafeInteger(fromFile) && fromFile > 0 ? fromFile : child.pid!
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      pid,
      dir,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          try {
            process.kill(pid, 'SIGTERM')
          } catch {
            // already gone
          }
          await exited
        }
        await rm(dir, { recursive: true, force: true })
      },
    }
  }
  throw lastError instanceof Error ? lastError : new Error('nginx did not start')
}

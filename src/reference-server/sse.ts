// SSE framing shared by the agent downlink and the player readiness stream.
import type { ServerResponse } from 'node:http'

export function sseHeaders(accelBufferingHeader: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
  }
  // Tells nginx not to buffer the stream; the buffering test runs without it.
  if (accelBufferingHeader) headers['x-accel-buffering'] = 'no'
  return headers
}

export function eventFrame(event: string, data: unknown): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data)
  return `event: ${event}\n${text.split('\n').map((line) => `data: ${line}`).join('\n')}\n\n`
}

export function commentFrame(text: string): string {
  return `: ${text}\n\n`
}

export function writeFrame(res: ServerResponse, frame: string): boolean {
  if (res.writableEnded || res.destroyed) return false
  res.write(frame)
  return true
}

/** Ends the connection without the terminating chunk: the client sees the stream drop. */
export function dropConnection(res: ServerResponse): void {
  const socket = res.socket
  if (!socket || socket.destroyed) return
  socket.end(() => socket.destroy())
}

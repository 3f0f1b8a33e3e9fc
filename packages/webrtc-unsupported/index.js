'use strict'
// WebRTC is a removed feature of media-agent (contract 1.10). webtorrent imports these names
// at load time, so they must exist; constructing any of them fails loudly instead.
function unsupported (name) {
  return class {
    constructor () { throw new Error(`WebRTC is not supported (${name})`) }
  }
}
const names = ['RTCPeerConnection', 'RTCSessionDescription', 'RTCIceCandidate', 'RTCDataChannel', 'MediaStream', 'MediaStreamTrack']
for (const name of names) module.exports[name] = unsupported(name)
module.exports.default = module.exports

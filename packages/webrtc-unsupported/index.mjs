import cjs from './index.js'
export const { RTCPeerConnection, RTCSessionDescription, RTCIceCandidate, RTCDataChannel, MediaStream, MediaStreamTrack } = cjs
export default cjs

import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  addressesMachine,
  agentMachine,
  cacheEntryMachine,
  cacheMachine,
  cacheShardMachine,
  controlPlaneMachine,
  downlinkMachine,
  encodersMachine,
  funnelMachine,
  libraryMachine,
  sessionMachine,
  taskMachine,
  tasksMachine,
  upgradeMachine,
  vpnMachine
} from "./chunk-S6V5EAOF.js";
import {
  hlsTranscodeMachine
} from "./chunk-TPZOLGKQ.js";
import "./chunk-OFW74AZP.js";
import "./chunk-V4RWK56N.js";

// dist/machines/index.js
var machines = {
  addresses: addressesMachine,
  agent: agentMachine,
  cache: cacheMachine,
  cacheEntry: cacheEntryMachine,
  cacheShard: cacheShardMachine,
  controlPlane: controlPlaneMachine,
  downlink: downlinkMachine,
  encoders: encodersMachine,
  funnel: funnelMachine,
  hlsTranscode: hlsTranscodeMachine,
  library: libraryMachine,
  session: sessionMachine,
  task: taskMachine,
  tasks: tasksMachine,
  upgrade: upgradeMachine,
  vpn: vpnMachine
};
export {
  machines
};

// Every machine of the agent, for the statechart generator (`media-agent statecharts`) and the
// property tests. A new machine file adds itself here.
import type { AnyStateMachine } from 'xstate'
import { addressesMachine } from './addresses.machine.js'
import { agentMachine } from './agent.machine.js'
import { cacheMachine } from './cache.machine.js'
import { cacheEntryMachine } from './cache-entry.machine.js'
import { cacheShardMachine } from './cache-shard.machine.js'
import { controlPlaneMachine } from './control-plane.machine.js'
import { downlinkMachine } from './downlink.machine.js'
import { encodersMachine } from './encoders.machine.js'
import { funnelMachine } from './funnel.machine.js'
import { hlsTranscodeMachine } from './hls-transcode.machine.js'
import { libraryMachine } from './library.machine.js'
import { sessionMachine } from './session.machine.js'
import { taskMachine } from './task.machine.js'
import { taskShardMachine } from './task-shard.machine.js'
import { tasksMachine } from './tasks.machine.js'
import { upgradeMachine } from './upgrade.machine.js'
import { vpnMachine } from './vpn.machine.js'

export const machines: Record<string, AnyStateMachine> = {
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
  taskShard: taskShardMachine,
  tasks: tasksMachine,
  upgrade: upgradeMachine,
  vpn: vpnMachine,
}

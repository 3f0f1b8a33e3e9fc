// Every machine of the agent, for the statechart generator (`media-agent statecharts`) and the
// property tests. A new machine file adds itself here.
import type { AnyStateMachine } from 'xstate'
import { agentMachine } from './agent.machine.js'
import { controlPlaneMachine } from './control-plane.machine.js'
import { downlinkMachine } from './downlink.machine.js'
import { hlsTranscodeMachine } from './hls-transcode.machine.js'
import { libraryMachine } from './library.machine.js'
import { sessionMachine } from './session.machine.js'
import { taskMachine } from './task.machine.js'
import { tasksMachine } from './tasks.machine.js'

export const machines: Record<string, AnyStateMachine> = {
  agent: agentMachine,
  controlPlane: controlPlaneMachine,
  downlink: downlinkMachine,
  hlsTranscode: hlsTranscodeMachine,
  library: libraryMachine,
  session: sessionMachine,
  task: taskMachine,
  tasks: tasksMachine,
}

// Every machine of the agent, for the statechart generator (`media-agent statecharts`) and the
// property tests. A new machine file adds itself here.
import type { AnyStateMachine } from 'xstate'
import { agentMachine } from './agent.machine.js'
import { controlPlaneMachine } from './control-plane.machine.js'
import { downlinkMachine } from './downlink.machine.js'

export const machines: Record<string, AnyStateMachine> = {
  agent: agentMachine,
  controlPlane: controlPlaneMachine,
  downlink: downlinkMachine,
}

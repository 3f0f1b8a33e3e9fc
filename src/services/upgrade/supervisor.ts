import type { UpgradeSupervisor } from '../../machines/upgrade.machine.js'
import { isContainer } from '../net/container.js'

// Who brings the agent back after it exits with 75 (docs/upgrade.md "Supervisors"):
// - MEDIA_AGENT_SUPERVISOR, when set, says it outright: `restart-on-75` for runit, s6,
//   supervisord or a shell loop that restart on that code, `container` or `none`;
// - systemd sets INVOCATION_ID (and NOTIFY_SOCKET for Type=notify) in every service it starts:
//   the unit restarts on 75 (RestartForceExitStatus=75 or Restart=on-failure). It wins over the
//   container check, since systemd may itself run inside a container;
// - in a container the image is the unit of upgrade: swapping files inside it would be lost
//   with the container, so the upgrade is reported as failed, "managed externally";
// - otherwise nothing would restart the process: the upgrade fails rather than leave no agent.

export interface SupervisorProbe {
  env: NodeJS.ProcessEnv
  isContainer: () => boolean
}

export const supervisorEnvVar = 'MEDIA_AGENT_SUPERVISOR'

export function detectSupervisor(probe: SupervisorProbe = { env: process.env, isContainer }): UpgradeSupervisor {
  const declared = probe.env[supervisorEnvVar]?.trim()
  if (declared === 'restart-on-75' || declared === 'systemd') return 'restart'
  if (declared === 'container') return 'container'
  if (declared === 'none') return 'none'
  if (probe.env.INVOCATION_ID || probe.env.NOTIFY_SOCKET) return 'restart'
  if (probe.isContainer()) return 'container'
  return 'none'
}

/** A value of MEDIA_AGENT_SUPERVISOR this version does not know (logged once at start). */
export function unknownSupervisorValue(env: NodeJS.ProcessEnv): string | undefined {
  const declared = env[supervisorEnvVar]?.trim()
  if (!declared) return undefined
  return ['restart-on-75', 'systemd', 'container', 'none'].includes(declared) ? undefined : declared
}

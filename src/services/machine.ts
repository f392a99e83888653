/** What Node's os module knows of the machine on every platform; each platform adds its OS name and model. */
import os from 'node:os';
import type { SystemInfo } from './types.js';

export type MachineFacts = Omit<SystemInfo, 'os' | 'model'>;

/** `cpuModel` names the processor when os.cpus() does not (some ARM boards and virtual machines). */
export async function machineFacts(cpuModel: () => Promise<string | undefined>): Promise<MachineFacts> {
  const cpus = os.cpus();
  const named = cpus[0]?.model.trim();
  const cpu = named && named !== 'unknown' ? named : ((await cpuModel()) ?? 'unknown');
  return {
    kernel: `${os.type()} ${os.release()}`,
    cpu,
    cpuCores: cpus.length || os.availableParallelism(),
    arch: os.machine(),
    memoryBytes: os.totalmem(),
    hostname: os.hostname(),
    uptimeSeconds: Math.round(os.uptime()),
  };
}

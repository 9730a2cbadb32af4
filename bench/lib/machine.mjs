import os from "node:os";

/**
 * The machine a results file was measured on: other work shows in the 1-minute load average at
 * the start and at the end (2 means both cores busy).
 */
export function machineFacts(loadAtStart) {
  return {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? "unknown",
    memory_total_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    load_average_at_start: loadAtStart,
    load_average_at_end: os.loadavg()[0],
  };
}

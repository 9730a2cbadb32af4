import { type SimulatorOptions, startSimulator } from "../sim/index.js";

/** `zoo-usage sim`: serves the local Zoo API until the process is stopped. */
export async function runSimulator(
  options: SimulatorOptions,
  stdout: (text: string) => void,
): Promise<() => Promise<void>> {
  const simulator = await startSimulator(options);
  const running = options.wallClock !== undefined;
  const lines = [
    `Zoo API simulator listening on ${simulator.url}`,
    `  simulated now: ${simulator.clock.now().toISOString()} (POST ${simulator.url}/_sim/clock {"advance_ms": N} moves it${running ? " further; it also runs with the machine's clock" : ""})`,
    "  users (each sees only its own calls and operations; an org admin also its org's, with --scope org):",
    ...simulator.users.map(
      (user, index) =>
        `    user ${index}: id ${user.id}  token ${user.token}${user.orgRole === null ? "" : `  (org ${user.orgRole})`}`,
    ),
    "  billing: credits first (monthly $10 = 1,205 s, then stable), invoices bill the rest at month end (docs/simulator-billing.md)",
    "Try:",
    `  ZOO_HOST=${simulator.url} ZOO_API_TOKEN=${simulator.users[0]?.token ?? "<token>"} zoo-usage export`,
  ];
  stdout(lines.join("\n"));
  return () => simulator.close();
}

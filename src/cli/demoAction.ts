import { ExitCode, type ExitCodeValue } from "../errors.js";
import { startSimulator } from "../sim/index.js";
import { exportAction } from "./exportAction.js";

/**
 * `npm start`: the export on the built-in demo. A seeded simulator runs in-process (about 50k calls
 * over 90 days, no account, no network) and the export writes ./zoo-usage/ as a real run would.
 * Running it again shows an incremental run with nothing new.
 */
export async function demoAction(options: {
  flags: { debug?: boolean; json?: boolean; db?: string; out?: string; calls?: number };
  stdout: (text: string) => void;
}): Promise<ExitCodeValue> {
  const simulator = await startSimulator({
    seed: 1,
    calls: options.flags.calls ?? 50_000,
    days: 90,
    // One user, so the export holds the whole demo history.
    users: 1,
    // The history ends at the start of today (UTC): near the export's clock, so the operations
    // window covers its last days as it would a real account's, and the same all day, so a second
    // demo run finds nothing new, as the quick start says.
    now: startOfUtcDay(new Date()),
  });
  try {
    const user = simulator.users[0];
    if (user === undefined) return ExitCode.internal;
    options.stdout(`demo: simulated Zoo API at ${simulator.url}, exporting the calls of user ${user.id}`);
    return await exportAction({
      flags: { ...options.flags, baseUrl: simulator.url },
      // The simulator's own credential, handed over in-process; the real environment is not read.
      env: { ZOO_API_TOKEN: user.token },
      stdout: options.stdout,
    });
  } finally {
    await simulator.close();
  }
}

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

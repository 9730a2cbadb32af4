import { readFileSync } from "node:fs";

/** Clock ticks a second in /proc (USER_HZ, 100 on Linux everywhere that matters). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time of this process's main thread so far, in microseconds (10 ms resolution), from
 * /proc/self/task/<pid>/stat: unlike process.cpuUsage it leaves out the other threads (DuckDB's,
 * libuv's pool, V8's helpers), and unlike a profile's busy samples it does not count the time the
 * thread waited for a core on a loaded machine. Undefined where /proc is not there.
 */
export function mainThreadCpuUs() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) in parentheses: utime and stime are
    // the 14th and 15th of the whole line, the 12th and 13th after the closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

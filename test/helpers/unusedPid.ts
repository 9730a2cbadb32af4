/**
 * A process id no process has: what a killed run leaves in its temporaries' names. Found by asking
 * the kernel (signal 0), so no process has to be started and waited for.
 */
export function unusedPid(): number {
  for (let pid = 4_194_000; pid > 1; pid--) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") return pid;
    }
  }
  throw new Error("every process id is in use");
}

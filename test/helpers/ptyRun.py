"""Runs a command in a pseudo-terminal of 24 rows and COLUMNS columns; copies what it writes to stdout.

Usage: python3 ptyRun.py COLUMNS COMMAND [ARG...]. Exits with the command's exit code.
"""

import fcntl
import os
import pty
import struct
import sys
import termios

columns = int(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    # The size is set on the terminal before the command starts, so its first look sees it.
    fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    os.execvp(sys.argv[2], sys.argv[2:])
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        # EIO: every process holding the terminal has closed it.
        break
    if not chunk:
        break
    sys.stdout.buffer.write(chunk)
    sys.stdout.buffer.flush()
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))

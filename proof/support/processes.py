"""Child processes started and stopped by PID, with their standard output read line by line.

Every wait is bounded; `stop()` sends SIGTERM to the child's PID, waits, then SIGKILL. Standard error goes to
a log file beside the run's other files, so a failure can show it.
"""

import os
import signal
import subprocess
import threading
import time


class ManagedProcess:
    """A child process whose standard output lines are kept (in order) for the test to wait on."""

    def __init__(self, label, argv, log_folder, env=None, cwd=None):
        self.label = label
        self.stderr_path = os.path.join(log_folder, label + ".stderr")
        self._stderr = open(self.stderr_path, "wb")
        self.process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self._stderr, env=env, cwd=cwd,
            start_new_session=True,
        )
        self.pid = self.process.pid
        self.lines = []
        self._condition = threading.Condition()
        self._closed = False
        self._reader = threading.Thread(target=self._read, name=label + "-stdout", daemon=True)
        self._reader.start()

    def _read(self):
        for raw in self.process.stdout:
            with self._condition:
                self.lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self._condition.notify_all()
        with self._condition:
            self._closed = True
            self._condition.notify_all()

    def wait_for(self, predicate, start=0, timeout=30.0):
        """The index of the first line at or after `start` for which `predicate` holds, or None after `timeout`."""
        deadline = time.monotonic() + timeout
        index = start
        with self._condition:
            while True:
                while index < len(self.lines):
                    if predicate(self.lines[index]):
                        return index
                    index += 1
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._closed:
                    return None
                self._condition.wait(min(remaining, 0.5))

    def port(self, timeout=60.0):
        """The port from the first `PORT n` line (the backends print one once they listen)."""
        index = self.wait_for(lambda line: line.startswith("PORT "), timeout=timeout)
        if index is None:
            raise RuntimeError("%s printed no PORT line within %ss; stderr:\n%s" % (self.label, timeout, self.stderr()))
        return int(self.lines[index].split()[1])

    def stderr(self):
        self._stderr.flush()
        with open(self.stderr_path, "rb") as handle:
            return handle.read()[-4000:].decode("utf-8", "replace")

    def alive(self):
        return self.process.poll() is None

    def stop(self, timeout=15.0):
        """SIGTERM by PID, then SIGKILL if it is still running after `timeout`; returns the exit status."""
        if self.process.poll() is None:
            os.kill(self.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.kill(self.pid, signal.SIGKILL)
                self.process.wait(10)
        self._reader.join(5)
        self._stderr.close()
        return self.process.returncode

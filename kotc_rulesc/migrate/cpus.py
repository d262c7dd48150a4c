"""The processors ``migrate --jobs`` may use: those this process may run on, and of those the ones
other programs leave idle.

A worker process gets a processor's time only where one is idle: on a machine that other programs
keep busy, the scheduler shares the processors between groups of processes (a login session, a
service, a container) rather than between processes, so that more workers add their cost and no
speed.  :func:`usable` counts the processors of the CPU affinity, within a container's CPU quota;
:func:`spare` measures how many of them were idle since :func:`mark` (the command's start), from
the kernel's counters of idle time (``/proc/stat``), with no need to wait where the rules took long
enough to load; while the workers run, a :class:`Meter` keeps measuring, so that fewer of them work
when other programs come to keep the machine busy.  Where the kernel gives no such counters, every
usable processor counts as idle.
"""

from __future__ import annotations

import math
import os
import time

__all__ = ["usable", "default_jobs", "mark", "spare", "Meter"]

#: the shortest stretch of time over which idle processors are measured (seconds)
LEAST = 0.05


def usable() -> int:
    """The processors this process may run on: its CPU affinity, within its cgroup's CPU quota."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cpus = os.cpu_count() or 1
    quota = _cgroup_quota()
    return max(1, min(cpus, quota)) if quota is not None else cpus


def default_jobs() -> int:
    """``--jobs 0``: one worker per usable processor."""
    return usable()


def _cgroup_quota(proc: str = "/proc/self/cgroup", root: str = "/sys/fs/cgroup") -> int | None:
    """The CPU quota of this process's cgroup and of the cgroups above it, in whole processors
    (rounded up): cgroup v2 ``cpu.max``, or v1 ``cpu.cfs_quota_us`` and ``cpu.cfs_period_us``.
    None where there is none (or no cgroup file system)."""
    try:
        with open(proc, encoding="ascii") as f:
            lines = [line.rstrip("\n").split(":", 2) for line in f]
    except OSError:
        return None
    quota = None
    for _, controllers, path in (entry for entry in lines if len(entry) == 3):
        if controllers == "":  # v2
            where, files = root, ("cpu.max",)
        elif "cpu" in controllers.split(","):  # v1
            where, files = os.path.join(root, controllers), ("cpu.cfs_quota_us", "cpu.cfs_period_us")
        else:
            continue
        while True:
            try:
                values = []
                for name in files:
                    with open(os.path.join(where, path.strip("/"), name), encoding="ascii") as f:
                        values.extend(f.read().split())
                limit, period = values[:2]
                if limit not in ("max", "-1"):
                    cpus = max(1, math.ceil(int(limit) / int(period)))
                    quota = cpus if quota is None else min(quota, cpus)
            except (OSError, ValueError):
                pass
            if path.strip("/") == "":
                break
            path = os.path.dirname(path.rstrip("/"))
    return quota


# --------------------------------------------------------------------------- idle processors

_MARK: tuple[float, float, tuple[int, int]] | None = None  # (time, this process's CPU time, idle and all ticks)


def _idle_ticks(stat: str = "/proc/stat") -> tuple[int, int] | None:
    """(idle, all) clock ticks of every processor so far: idle counts waiting for I/O too."""
    try:
        with open(stat, encoding="ascii") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if len(fields) < 5 or fields[0] != "cpu":
        return None
    ticks = [int(v) for v in fields[1:9]]  # user nice system idle iowait irq softirq steal
    return ticks[3] + ticks[4], sum(ticks)


def mark() -> None:
    """Start measuring idle processors (at the start of a command, before the rules are loaded)."""
    global _MARK
    ticks = _idle_ticks()
    _MARK = (time.monotonic(), time.process_time(), ticks) if ticks is not None else None


def spare() -> float | None:
    """How many processors this process could have had since :func:`mark`: those that were idle, and
    the time it ran itself (measured now over :data:`LEAST` seconds where no mark was taken or it is
    too recent); None where the kernel does not say."""
    if _MARK is None:
        mark()
        if _MARK is None:
            return None
    wait = LEAST - (time.monotonic() - _MARK[0])
    if wait > 0:
        time.sleep(wait)
    ticks = _idle_ticks()
    if ticks is None:
        return None
    idle, total = ticks[0] - _MARK[2][0], ticks[1] - _MARK[2][1]
    if total <= 0:
        return None
    elapsed = time.monotonic() - _MARK[0]
    own = (time.process_time() - _MARK[1]) / elapsed if elapsed > 0 else 0.0
    return idle / total * (os.cpu_count() or 1) + own


def _process_ticks(pid: int | None = None) -> int | None:
    """The clock ticks a process has run so far (user and system), by ``/proc/PID/stat``."""
    try:
        with open(f"/proc/{pid if pid is not None else 'self'}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return None


class Meter:
    """How many processors a run's own processes (this one and ``pids``) could have had lately: the
    idle ones, and those they used themselves — measured anew at every call to :meth:`available`."""

    def __init__(self, pids: list[int]):
        self.pids = pids
        self.last = self._read()

    def _read(self) -> tuple[int, int, int] | None:
        ticks = _idle_ticks()
        ours = [_process_ticks(pid) for pid in (None, *self.pids)]
        if ticks is None or None in ours:
            return None
        return ticks[0], ticks[1], sum(ours)  # type: ignore[arg-type]

    def available(self) -> float | None:
        """Processors idle or used by this run since the last call; None where the kernel does not say."""
        now = self._read()
        last, self.last = self.last, now
        if now is None or last is None or now[1] <= last[1]:
            return None
        return (now[0] - last[0] + now[2] - last[2]) / (now[1] - last[1]) * (os.cpu_count() or 1)

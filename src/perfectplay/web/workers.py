"""Thinking in worker processes: a slow analysis (a chess position searched for 60 s) runs
in a process of its own, so it holds no lock the server's other requests need (CPython's
GIL) and cannot raise their latency much beyond sharing the CPU.

A bounded pool of long-lived processes (each a fresh ``python -m perfectplay.web.workers``,
so no lock a server thread holds is copied into them and no script that made the server is
run again), talking over a socket pair, each running one
:class:`~perfectplay.web.thinking.Thinker` at a time. A job is sent as its recipe (game
name, options, start text, moves), never as objects: the worker builds the game and position
through its own catalog, and sends back every :class:`~perfectplay.web.thinking.Progress`
(the analysis, pickled), which the server keeps in its memory of analyses and passes to the
page's stream. The page closing its stream sends the worker a stop message, and its search
stops within its polling interval. Workers run at a lower priority than the server
(os.nice), so that on a busy machine the server's quick answers come first; the computer's
own moves, which a person waits for, have a pool of their own at normal priority.

A thinker with no recipe (a user's game file, whose objects need not pickle) runs in a
thread, as every thinker did before.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from perfectplay.web.thinking import MAX_THINKERS, Progress, Thinker

# Each worker's own memory of analyses (exact answers its searches found along the way).
WORKER_MEMORY_BYTES = 32 * 1024 * 1024
# How long a start waits for a worker that was asked to stop; a worker that does not stop
# by then is ended and replaced.
FREE_WAIT_S = 5.0
# Analysis workers run at this lower priority (os.nice): the server's own process, which
# answers every other request, takes the CPU first.
WORKER_NICENESS = 10


def _worker_main(connection: Any, database: str | None, niceness: int = WORKER_NICENESS) -> None:
    """A worker process: run each job sent, reporting every depth; a ``("stop", number)``
    message stops job ``number`` if it is still running. Ends when the pipe closes."""
    import os
    import queue
    if niceness:
        os.nice(niceness)  # the server's own requests come first on a busy machine
    jobs: queue.Queue[Any] = queue.Queue()
    current: list[Any] = [None, None]  # the running job's number and thinker
    stopped: set[int] = set()  # jobs stopped before they began

    def receive() -> None:
        while True:
            try:
                message = connection.recv()
            except (EOFError, OSError):
                message = None
            if message is None:
                jobs.put(None)
                if current[1] is not None:
                    current[1].cancel()
                return
            if message[0] == "stop":
                if current[0] == message[1] and current[1] is not None:
                    current[1].cancel()
                else:
                    stopped.add(message[1])
            else:
                jobs.put(message)

    threading.Thread(target=receive, daemon=True).start()
    try:
        _run_jobs(connection, jobs, current, stopped, database)
    except (OSError, KeyboardInterrupt):
        return  # the server went away mid-report


def _run_jobs(connection: Any, jobs: Any, current: list[Any], stopped: set[int],
              database: str | None) -> None:
    import perfectplay.engine.core  # noqa: F401  (loaded before the first job, not during it)
    from perfectplay.web.catalog import builtin_catalog
    from perfectplay.web.positions import Analyses, replay
    catalog = builtin_catalog()
    memory = Analyses(WORKER_MEMORY_BYTES, database=database)
    while True:
        job = jobs.get()
        if job is None:
            return
        _, number, (name, options, start_text, moves), seconds, lines = job
        try:
            _source, (game, start) = catalog.load(name, options, start_text)
            position, _ = replay(game, start, moves)
        except Exception as error:  # checked by the server already: a worker never dies of it
            connection.send((number, Progress(0, None, 0.0, True, f"error: {error}")))
            continue

        def report(progress: Progress, number: int = number) -> None:
            connection.send((number, progress))

        thinker = Thinker(game, position, memory, seconds, report, lines=lines)
        current[:] = [number, thinker]
        if number in stopped:  # stopped while it waited (the receiving thread saw it first)
            stopped.discard(number)
            thinker.cancel()
        thinker.run()
        current[:] = [None, None]


@dataclass
class Worker:
    process: Any
    connection: Any
    job: Thinker | None = None
    number: int = 0
    finished: threading.Event = field(default_factory=threading.Event)


@dataclass
class Handle:
    """What start returns: join() waits for the thinking to end."""

    done: threading.Event

    def join(self, timeout: float | None = None) -> None:
        self.done.wait(timeout)


class ProcessThinkers:
    """At most ``limit`` thinkings at once, each in a worker process (a thread for a user's
    game); a new one beyond the bound stops the oldest first."""

    def __init__(self, limit: int = MAX_THINKERS, database: str | None = None,
                 niceness: int = WORKER_NICENESS) -> None:
        self.limit = limit
        self.database = database
        self.niceness = niceness
        self._running: list[Thinker] = []
        self._workers: list[Worker] = []
        self._done: dict[int, threading.Event] = {}
        self._jobs = 0
        self._lock = threading.Condition()

    def prestart(self) -> None:
        """Spawn the workers now (each imports perfectplay: about a second) rather than at
        the first thinking."""
        with self._lock:
            while len(self._workers) < self.limit:
                self._workers.append(self._spawn())

    def start(self, thinker: Thinker) -> Handle:
        """Start ``thinker``; blocks while a worker stops for it (call from a thread)."""
        done = threading.Event()
        if thinker.recipe is None:
            return self._in_thread(thinker, done)
        with self._lock:
            worker = self._free_worker()
            self._jobs += 1
            worker.number, worker.job = self._jobs, thinker
            worker.finished = done
            self._running.append(thinker)
            worker.connection.send(("think", worker.number, thinker.recipe, thinker.seconds, thinker.lines))
        original_cancel = thinker.cancel

        def cancel() -> None:
            original_cancel()
            with self._lock:
                if worker.job is thinker:
                    self._stop(worker)
        thinker.cancel = cancel  # type: ignore[method-assign]
        return Handle(done)

    def cancel_all(self) -> None:
        with self._lock:
            for thinker in list(self._running):
                thinker.budget.stop.set()
            for worker in self._workers:
                if worker.job is not None:
                    self._stop(worker)

    def close(self) -> None:
        """End every worker process (the server is stopping)."""
        self.cancel_all()
        with self._lock:
            workers, self._workers = self._workers, []
        for worker in workers:
            with contextlib.suppress(OSError):
                worker.connection.send(None)
            try:
                worker.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                worker.process.terminate()
                worker.process.wait(timeout=2)

    # -- inside ----------------------------------------------------------------------------
    def _free_worker(self) -> Worker:
        """An idle worker (spawned if the pool is not full); else the oldest thinking is
        stopped and its worker awaited. Called with the lock held."""
        while True:
            for worker in self._workers:
                if worker.job is None and worker.process.poll() is None:
                    return worker
            self._workers = [worker for worker in self._workers if worker.process.poll() is None]
            if len(self._workers) < self.limit:
                worker = self._spawn()
                self._workers.append(worker)
                return worker
            oldest = min((worker for worker in self._workers if worker.job is not None),
                         key=lambda worker: worker.number)
            self._stop(oldest)
            # wait_for calls the predicate before the loop goes on: no late binding.
            if not self._lock.wait_for(lambda: oldest.job is None, timeout=FREE_WAIT_S):  # noqa: B023
                oldest.process.terminate()  # the reader thread sees the pipe close

    def _stop(self, worker: Worker) -> None:
        with contextlib.suppress(OSError):  # the worker is gone: its reader reports the end
            worker.connection.send(("stop", worker.number))

    def _spawn(self) -> Worker:
        ours, theirs = socket.socketpair()
        command = [sys.executable, "-m", "perfectplay.web.workers", str(theirs.fileno()), str(self.niceness)]
        if self.database is not None:
            command.append(self.database)
        process = subprocess.Popen(command, pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL)
        theirs.close()
        worker = Worker(process, Connection(ours.detach()))
        threading.Thread(target=self._read, args=(worker,), name="perfectplay-thinking-reader",
                         daemon=True).start()
        return worker

    def _read(self, worker: Worker) -> None:
        """Pass every progress of ``worker``'s jobs on, in the server's process."""
        while True:
            try:
                number, progress = worker.connection.recv()
            except (EOFError, OSError):
                self._worker_ended(worker)
                return
            with self._lock:
                thinker = worker.job if worker.number == number else None
            if thinker is None:
                continue  # a job already given up
            if progress.known is not None:
                thinker.memory.put(thinker.game, thinker.position, progress.known)
            try:
                thinker.report(progress)
            finally:
                if progress.done:
                    self._finish(worker, thinker)

    def _finish(self, worker: Worker, thinker: Thinker) -> None:
        with self._lock:
            if worker.job is thinker:
                worker.job = None
            if thinker in self._running:
                self._running.remove(thinker)
            worker.finished.set()
            self._lock.notify_all()

    def _worker_ended(self, worker: Worker) -> None:
        with self._lock:
            thinker = worker.job
            if worker in self._workers:
                self._workers.remove(worker)
        if thinker is not None:
            thinker.report(Progress(0, None, thinker.budget.elapsed(), True,
                                    "error: the thinking process ended"))
            self._finish(worker, thinker)

    def _in_thread(self, thinker: Thinker, done: threading.Event) -> Handle:
        with self._lock:
            self._running.append(thinker)
            if len(self._running) > self.limit:
                self._running[0].cancel()

        def target() -> None:
            try:
                thinker.run()
            finally:
                with self._lock:
                    if thinker in self._running:
                        self._running.remove(thinker)
                    done.set()
                    self._lock.notify_all()

        threading.Thread(target=target, name="perfectplay-thinker", daemon=True).start()
        return Handle(done)


if __name__ == "__main__":
    # python -m perfectplay.web.workers FD NICENESS [DATABASE]: a worker on the socket FD.
    _worker_main(Connection(int(sys.argv[1])), sys.argv[3] if len(sys.argv) > 3 else None, int(sys.argv[2]))

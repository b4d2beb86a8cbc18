"""Where a build's units of work run: this process, local processes, or a Ray cluster.

Every backend offers the same two things: ``share(obj)`` (send a large object, such as the
values of a tier, once; units then carry a small handle) and ``map(function, units)``
(results in the order of the units, so batches are committed in the same order however
many workers run: the finished database does not depend on the backend).
"""

from __future__ import annotations

import os
import pickle
import socket
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from perfectplay.errors import BadOption, PerfectPlayError
from perfectplay.store.records import BACKENDS
from perfectplay.store.work import FileShare, resolve

RAY_CONNECT_SECONDS = 5.0


class Backend:
    """Runs units in this process: the reference every other backend must agree with."""

    name = "serial"
    workers = 1
    # Whether units can read files in the coordinator's work directory (not so for Ray,
    # whose workers may be on other machines).
    local_files = True

    def share(self, obj: Any) -> Any:
        return obj

    def map(self, function: Callable[..., Any], units: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
        for unit in units:
            yield function(*(resolve(arg) for arg in unit))

    def submit(self, function: Callable[..., Any], *unit: Any) -> Future[Any]:
        """Start one unit; its result (or its exception) comes from ``result``. Here the
        unit runs at once."""
        future: Future[Any] = Future()
        future.set_result(function(*(resolve(arg) for arg in unit)))
        return future

    def result(self, future: Future[Any]) -> Any:
        with _worker_errors():
            return future.result()

    def close(self) -> None:
        pass


class LocalProcesses(Backend):
    """N local processes (concurrent.futures). Shared objects go through a pickle file in
    ``workdir`` that each process reads once."""

    name = "local"

    def __init__(self, workers: int, workdir: str) -> None:
        import multiprocessing

        self.workers = workers
        self.workdir = workdir
        # spawn, not fork: the coordinator holds an open SQLite connection.
        self.pool: Executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                                  initializer=_watch_parent, initargs=(os.getpid(),))
        self.shared = 0

    def share(self, obj: Any) -> Any:
        self.shared += 1
        handle, path = tempfile.mkstemp(prefix=f"shared-{self.shared}-", suffix=".pkl", dir=self.workdir)
        with os.fdopen(handle, "wb") as out:
            pickle.dump(obj, out, protocol=pickle.HIGHEST_PROTOCOL)
        newest = os.path.basename(path)  # by name: mkstemp's path is absolute, workdir may not be
        for old in os.listdir(self.workdir):  # keep only the newest shared file
            if old.startswith("shared-") and old != newest:
                os.unlink(os.path.join(self.workdir, old))
        return FileShare(path)

    def map(self, function: Callable[..., Any], units: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
        units = list(units)
        with _worker_errors():
            yield from self.pool.map(function, *zip(*units, strict=True)) if units else iter(())

    def submit(self, function: Callable[..., Any], *unit: Any) -> Future[Any]:
        with _worker_errors():
            return self.pool.submit(function, *unit)

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)


PARENT_CHECK_SECONDS = 0.5


def _watch_parent(parent: int) -> None:
    """In a worker: exit when the coordinator is gone (killed with SIGKILL, it cannot shut
    its pool down, and idle workers would wait for work for ever; a busy one would go on
    writing files that the next run writes too)."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


@contextmanager
def _worker_errors() -> Iterator[None]:
    """A unit that cannot be sent, or a worker that died, in one line."""
    try:
        yield
    except pickle.PicklingError as error:
        raise PerfectPlayError(f"this game cannot be sent to worker processes ({error}); "
                               "use --workers 1") from None
    except BrokenProcessPool:
        raise PerfectPlayError("a worker process died (out of memory, or killed); what was "
                               "committed is kept: run the same command to resume") from None


class RayCluster(Backend):
    """Ray tasks on a local Ray instance or the cluster at ``address``. Shared objects go
    into Ray's object store once (ray.put); units are coarse, one per slice of a tier."""

    name = "ray"
    local_files = False

    def __init__(self, workers: int, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise BadOption("--backend ray needs Ray: pip install 'perfectplay[ray]'") from None
        if address is not None:
            _check_reachable(address)
        if not ray.is_initialized():
            if address is None:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                         configure_logging=False)
            else:
                _join(ray, address)
        self.ray = ray
        self.workers = workers
        self.remote = ray.remote(_call)

    def share(self, obj: Any) -> Any:
        return self.ray.put(obj)

    def map(self, function: Callable[..., Any], units: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
        refs = [self.remote.remote(function, *unit) for unit in units]
        for ref in refs:
            yield self.ray.get(ref)

    def close(self) -> None:
        self.ray.shutdown()


def _join(ray: Any, address: str) -> None:
    """Connect to the cluster at ``address``; Ray's refusal (a port that is not Ray, or a
    cluster that wants an authentication token) becomes one line."""
    try:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    except (ConnectionError, RuntimeError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise BadOption(f"--address {address!r}: Ray did not accept the connection ({reason}); "
                        "a cluster with token authentication needs RAY_AUTH_MODE=token and its "
                        "token in this environment") from None


def _call(function: Callable[..., Any], *args: Any) -> Any:
    return function(*args)


def _check_reachable(address: str) -> None:
    """Fail in seconds with one line, rather than waiting on Ray's own long retries."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise BadOption(f"--address {address!r}: write HOST:PORT, e.g. 10.0.0.5:6379")
    try:
        with socket.create_connection((host, int(port)), timeout=RAY_CONNECT_SECONDS):
            pass
    except OSError as error:
        raise BadOption(f"--address {address!r}: cannot reach a Ray cluster there ({error})") from None


def check_choice(name: str, workers: int, address: str | None) -> None:
    """Reject bad backend options before anything is written."""
    if workers < 1:
        raise BadOption(f"--workers {workers}: at least 1")
    if name not in BACKENDS:
        raise BadOption(f"--backend {name!r}: choose one of {', '.join(BACKENDS)}")
    if address is not None and name != "ray":
        raise BadOption("--address joins a Ray cluster; add --backend ray")


def make_backend(name: str, workers: int, address: str | None, workdir: str) -> Backend:
    check_choice(name, workers, address)
    if name == "ray":
        return RayCluster(workers, address)
    return Backend() if workers == 1 else LocalProcesses(workers, workdir)


def chunks(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]

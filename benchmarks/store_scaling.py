"""Scaling figures for `perfectplay db build`: wall time of the forward and backward passes
with 1 and 2 workers, and the peak memory of the whole build (the coordinator and its
worker processes together) against --memory. Each build runs in a fresh process, as a user
runs it; the load average is printed before and after, because the machine is shared.

    nice -n -5 python benchmarks/store_scaling.py --game c4-5x4 --workers 1,2
    nice -n -5 python benchmarks/store_scaling.py --game c4-5x4 --workers 1 --memory 32MB,256MB

Files are written under --dir (default: a temporary directory), never into the repository.
Every build of one run must commit the same batches with the same checksums (checked).
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

GAMES = {
    "c4-4x4": ["connect4", "--width", "4", "--height", "4"],
    "c4-5x4": ["connect4", "--width", "5", "--height", "4"],
    "c4-6x4": ["connect4", "--width", "6", "--height", "4"],
    "c4-5x5": ["connect4", "--width", "5", "--height", "5"],
    "ttt": ["tictactoe"],
}
PAGE = os.sysconf("SC_PAGE_SIZE")


TICKS = os.sysconf("SC_CLK_TCK")


def tree_usage(root: int) -> tuple[int, float, float]:
    """Resident bytes of ``root`` and every process below it, their CPU seconds (user +
    system) so far, and ``root``'s own CPU seconds, from /proc."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        rss[int(entry)] = int(fields[21]) * PAGE
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / TICKS
    wanted = {root}
    changed = True
    while changed:  # every descendant of root
        changed = False
        for pid, parent in parents.items():
            if parent in wanted and pid not in wanted:
                wanted.add(pid)
                changed = True
    return (sum(rss.get(pid, 0) for pid in wanted), sum(cpu.get(pid, 0.0) for pid in wanted),
            cpu.get(root, 0.0))


def run_build(game: list[str], path: Path, workers: int, memory: str | None, batch: int,
              builder: str) -> dict:
    for stale in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        stale.unlink(missing_ok=True)
    command = [sys.executable, "-m", "perfectplay", "db", "build", *game, "--db", str(path),
               "--workers", str(workers), "--batch", str(batch), "--builder", builder]
    if memory is not None:
        command += ["--memory", memory]
    started = time.perf_counter()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = [0]
    # CPU seconds of the whole build and of its coordinator alone, when last sampled; the
    # whole build's at the end of the forward pass.
    usage = {"tree": 0.0, "coordinator": 0.0, "forward": 0.0}

    def sample() -> None:
        while process.poll() is None:
            rss, tree, own = tree_usage(process.pid)
            peak[0] = max(peak[0], rss)
            if tree:
                usage["tree"], usage["coordinator"] = tree, own
            time.sleep(0.2)

    sampler = threading.Thread(target=sample)
    sampler.start()
    forward_done = started
    assert process.stderr is not None
    for line in process.stderr:  # progress lines, one per tier and pass
        if "forward:" in line:
            forward_done = time.perf_counter()
            usage["forward"] = tree_usage(process.pid)[1]
    out = process.stdout.read() if process.stdout else ""
    process.wait()
    sampler.join()
    total = time.perf_counter() - started
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the build and its workers
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    if process.returncode != 0:
        raise SystemExit(f"build failed: {' '.join(command)}")
    with sqlite3.connect(path) as connection:
        batches = connection.execute("SELECT tier, part, count, checksum FROM batches ORDER BY id").fetchall()
    # What an idle machine would take, from the CPU figures: the forward pass split evenly
    # among the workers (hash shards), the backward pass among the cores (two here) unless
    # the coordinator's own share (committing) is longer. Samples are 0.2 s apart.
    backward_cpu = max(0.0, cpu - usage["forward"])
    coordinator_backward = usage["coordinator"] - (usage["forward"] if workers == 1 else 0.0)
    cores = min(workers + 1, os.cpu_count() or 1)
    idle = (cpu if workers == 1 else
            usage["forward"] / min(workers, cores) + max(backward_cpu / cores, coordinator_backward))
    return {"forward": forward_done - started, "backward": total - (forward_done - started),
            "total": total, "cpu": cpu, "forward_cpu": usage["forward"], "backward_cpu": backward_cpu,
            "coordinator_cpu": usage["coordinator"], "idle": idle,
            "peak": peak[0], "batches": batches, "summary": out.strip()}


def schedule(game_args: list[str], where: Path, batch: int) -> None:
    """The forward and backward passes' units of a two-shard build, run one after another
    in this process with the CPU seconds of each, then laid out on two idle cores: each
    tier's units list-scheduled on two workers (a tier waits for the one before it), the
    coordinator's commits beside them. What that leaves out: process start-up and the
    traffic between processes, which the whole-build rows above include."""
    from perfectplay import registry
    from perfectplay.store import backends, shards
    from perfectplay.store import build as build_module

    options = {flag.removeprefix("--"): int(number)
               for flag, number in zip(game_args[1::2], game_args[2::2], strict=False)}
    game, root = registry.load(game_args[0], options)
    units: list[tuple[str, int, float]] = []
    commits: list[float] = []

    def timed(kind: str, function: Any) -> Any:
        def run(*args: Any) -> Any:
            started = time.process_time()
            result = function(*args)
            units.append((kind, args[2], time.process_time() - started))
            return result
        return run

    shards.shard_tier = timed("forward", shards.shard_tier)
    shards.value_part = timed("backward", shards.value_part)
    commit = build_module._Job.commit

    def timed_commit(self: Any, *args: Any, **kwargs: Any) -> None:
        started = time.process_time()
        commit(self, *args, **kwargs)
        commits.append(time.process_time() - started)

    build_module._Job.commit = timed_commit  # type: ignore[method-assign]

    class TwoShards(backends.Backend):
        workers = 2

    build_module.make_backend = lambda *args: TwoShards()
    started = time.process_time()
    build_module.build(game, root, where / "schedule.db", batch_size=batch, workers=2)
    total = time.process_time() - started

    def makespan(costs: list[float]) -> float:
        free = [0.0, 0.0]
        for cost in costs:
            free[free.index(min(free))] += cost
        return max(free)

    spans, sums = {}, {}
    for kind in ("forward", "backward"):
        tiers = {tier for k, tier, _ in units if k == kind}
        spans[kind] = sum(makespan([c for k, t, c in units if k == kind and t == tier]) for tier in tiers)
        sums[kind] = sum(c for k, _, c in units if k == kind)
    committing = sum(commits)
    rest = total - sums["forward"] - sums["backward"] - committing
    backward = max(spans["backward"] + committing / 2, (sums["backward"] + committing) / 2, committing)
    print(f"in one process: {total:.1f} CPU s: forward units {sums['forward']:.1f}, backward units "
          f"{sums['backward']:.1f}, commits {committing:.1f}, the rest {rest:.1f}")
    print(f"on two workers, tier by tier: forward {spans['forward']:.1f} s (an even split: "
          f"{sums['forward'] / 2:.1f}), backward {spans['backward']:.1f} s ({sums['backward'] / 2:.1f})")
    print(f"estimate on two idle cores: {spans['forward'] + backward + rest:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="c4-4x4", choices=sorted(GAMES))
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--memory", default="", help="--memory values, comma-separated ('' = default)")
    parser.add_argument("--batch", type=int, default=20_000)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--builder", default="python", choices=("python", "auto"),
                        help="python (default): the builder that --workers runs; auto: the "
                             "compiled builder for one worker, where the game has one")
    parser.add_argument("--schedule", action="store_true",
                        help="instead: time each unit of a two-shard build in this process and "
                             "lay them out on two idle cores")
    args = parser.parse_args()
    where = Path(args.dir or tempfile.mkdtemp(prefix="perfectplay-scaling-"))
    where.mkdir(parents=True, exist_ok=True)
    if args.schedule:
        schedule(GAMES[args.game], where, args.batch)
        return
    memories = [m or None for m in args.memory.split(",")]
    print(f"{args.game}, batch {args.batch}, builder {args.builder}, niceness {os.nice(0)}, "
          f"files in {where}")
    print("| workers | --memory | forward s | backward s | total s | CPU s (all processes) "
          "| forward CPU s | backward CPU s | coordinator CPU s | idle estimate s "
          "| peak RSS of the build (MB) | load average before / after | summary |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    reference = None
    for workers in (int(w) for w in args.workers.split(",")):
        for memory in memories:
            before = os.getloadavg()[0]
            found = run_build(GAMES[args.game], where / f"w{workers}-{memory or 'default'}.db", workers,
                              memory, args.batch, args.builder)
            after = os.getloadavg()[0]
            reference = reference or found["batches"]
            assert found["batches"] == reference, "builds disagree"
            print(f"| {workers} | {memory or 'default'} | {found['forward']:.1f} | {found['backward']:.1f} "
                  f"| {found['total']:.1f} | {found['cpu']:.1f} | {found['forward_cpu']:.1f} "
                  f"| {found['backward_cpu']:.1f} | {found['coordinator_cpu']:.1f} | {found['idle']:.1f} "
                  f"| {found['peak'] / 1e6:,.0f} "
                  f"| {before:.1f} / {after:.1f} "
                  f"| {found['summary'].split(': ', 1)[1]} |", flush=True)
    print("every build committed the same batches with the same checksums")


if __name__ == "__main__":
    main()

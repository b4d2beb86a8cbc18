"""A database build on a real multi-node Ray cluster on this one machine:
a head node with no CPUs (so every task runs on a worker node) and two worker nodes, each
its own raylet and object store, started by ray.cluster_utils.Cluster.

1. A build with ``backend="ray"`` at the cluster's address must equal a serial build.
2. A second build is started, and once some batches are committed one worker node is
   removed (its raylet and workers killed). Ray retries the tasks that were running there
   on the surviving node; the build must finish with identical content.

    python benchmarks/ray_cluster.py [--width 4 --height 4] [--batch 4000]

Takes a minute or two (starting three raylets); it is a benchmark, not a test, for that.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

from perfectplay import registry
from perfectplay.store.build import build


def stored(path: Path) -> tuple[list, list]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT id, key, value FROM positions ORDER BY id").fetchall()
        batches = connection.execute("SELECT tier, part, first_id, last_id, count, checksum "
                                     "FROM batches ORDER BY id").fetchall()
    return rows, batches


def committed_batches(path: Path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            return connection.execute("SELECT COUNT(*) FROM batches").fetchone()[0]
    except sqlite3.Error:
        return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--height", type=int, default=4)
    parser.add_argument("--batch", type=int, default=4000)
    parser.add_argument("--kill-after", type=int, default=5, help="batches committed before a node dies")
    args = parser.parse_args()
    from ray.cluster_utils import Cluster

    game, root = registry.load("connect4", {"width": args.width, "height": args.height})
    folder = Path(tempfile.mkdtemp(prefix="ray-cluster-"))
    started = time.perf_counter()
    build(game, root, folder / "serial.db", batch_size=args.batch, builder="python")
    print(f"serial build: {time.perf_counter() - started:.1f} s")

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    nodes = [cluster.add_node(num_cpus=1) for _ in range(2)]
    cluster.wait_for_nodes()
    print(f"cluster at {cluster.address}: a head without CPUs and {len(nodes)} worker nodes")
    try:
        started = time.perf_counter()
        build(game, root, folder / "ray.db", batch_size=args.batch, backend="ray",
              address=cluster.address, workers=2)
        same = stored(folder / "ray.db") == stored(folder / "serial.db")
        print(f"two-node build: {time.perf_counter() - started:.1f} s, identical to serial: {same}")

        killed = folder / "killed.db"
        removed: list[float] = []

        def kill_a_node() -> None:
            while committed_batches(killed) < args.kill_after:
                time.sleep(0.05)
            cluster.remove_node(nodes[0], allow_graceful=False)
            removed.append(time.perf_counter())

        killer = threading.Thread(target=kill_a_node, daemon=True)
        killer.start()
        started = time.perf_counter()
        build(game, root, killed, batch_size=args.batch, backend="ray", address=cluster.address,
              workers=2)
        killer.join(timeout=5)
        survived = stored(killed) == stored(folder / "serial.db")
        when = f"{removed[0] - started:.1f} s in" if removed else "never (the build ended first)"
        print(f"build with a node killed ({when}): {time.perf_counter() - started:.1f} s, "
              f"identical to serial: {survived}")
        return 0 if same and survived and removed else 1
    finally:
        cluster.shutdown()


if __name__ == "__main__":
    sys.exit(main())

"""Solved knowledge that lasts: databases of strongly solved positions.

* perfectplay.store.database: the SQLite store (one file, WAL, checksummed batches).
* perfectplay.store.dense: the dense 16-bit record file for games with a perfect index.
* perfectplay.store.build: ``db build``, tier by tier, resumable, over local processes or Ray.
* perfectplay.store.lookup: answers from a database (``--db``), and the library API
  ``perfectplay.store.lookup.solve`` / ``analyze``.

Nothing is imported here, so ``import perfectplay.store`` stays light.
"""

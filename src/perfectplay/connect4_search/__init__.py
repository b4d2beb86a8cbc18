"""Connect Four's exact search in pure Python: the compiled kernel's tree, node for node.

* ``negamax``: the search (the kernel's steps, in plain Python ints);
* ``engine``: it as a score engine, under a perfectplay Budget;
* ``answers``: value, every optimal move, the line and every move's value from any score
  engine (this one and the compiled kernel's);
* ``method``: registers ``null-window``, what ``auto`` runs for Connect Four when the kernel
  does not (docs/connect4_python.md).
"""

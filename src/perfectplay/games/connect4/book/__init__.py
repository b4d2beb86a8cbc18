"""The Connect Four opening book: exact scores of every position up to K stones.

* ``positions``: keys, mirror folding, the positions of each level;
* ``storage``: batch files and the book file, each with a checksum;
* ``build``: frontier solves in resumable batches over worker processes, then the back-up;
* ``lookup``: reading a book (the shipped one is package data, ``data/``);
* ``verify``: structure checks and re-solving samples with the kernel.

Only ``build`` and ``verify`` run the compiled kernel, and they import it (and numba) inside
the functions that need it. docs/book.md says what is shipped and how to rebuild it.
"""

# cython: language_level=3
"""Compiled kernel of :class:`carromlab.match.RandomPolicy`: uniform draws from many
generators, one row per generator, each read straight from its bit generator.

Row ``k`` holds the numbers ``rngs[k].random(m)`` gives (each ``next_double`` of the
generator's bit generator, as :meth:`numpy.random.Generator.random` fills its array),
without building an array per generator.
"""

import numpy as np

from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t


def uniforms(list rngs, int m):
    """``m`` uniform numbers in [0, 1) from each generator, in order.

    Parameters
    ----------
    rngs : list of numpy.random.Generator
        The generators; each advances by ``m`` draws, holding its bit generator's lock.
    m : int
        Numbers per generator.

    Returns
    -------
    numpy.ndarray of float64, shape (len(rngs), m)
        Row ``k``: ``rngs[k].random(m)``.
    """
    cdef Py_ssize_t k, j
    cdef bitgen_t* bitgen
    out = np.empty((len(rngs), m))
    cdef double[:, ::1] u = out
    for k in range(len(rngs)):
        bit_generator = rngs[k].bit_generator
        bitgen = <bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
        with bit_generator.lock:
            for j in range(m):
                u[k, j] = bitgen.next_double(bitgen.state)
    return out

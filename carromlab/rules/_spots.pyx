# cython: language_level=3
"""Compiled scan of :func:`carromlab.rules.spots.nearest_free_spots`: the first free
spot of each target's window, its grid's spots taken nearest first.

The tests are those of the array code, with its arithmetic (``hypot`` from the C
library, as NumPy's; no fused multiply-adds without ``-march``): the same spots.
"""

import numpy as np

from libc.math cimport hypot

from carromlab.equipment._marks cimport on_surface


def first_free(const double[::1] tx, const double[::1] ty, const Py_ssize_t[::1] first,
               const Py_ssize_t[::1] ix, const Py_ssize_t[::1] iy, double step, double radius,
               const double[:, ::1] disc_x, const double[:, ::1] disc_y, const double[:, ::1] disc_r,
               const double[::1] hole_x, const double[::1] hole_y, const double[::1] hole_r,
               bint square, double half_size, const double[::1] within):
    """Index of the first free spot of each target's window grid, from ``first[q]`` on.

    Spot ``a`` of target ``q`` is ``(tx[q] + ix[a] * step, ty[q] + iy[a] * step)`` (m).
    It is free when a disc of ``radius`` (m) centred there lies on the board
    (``on_surface``, the test of :meth:`Board.contains
    <carromlab.equipment.board.Board.contains>`), at least the two radii from every disc ``k`` of its target
    (``disc_x[q, k]``, ``disc_y[q, k]``, ``disc_r[q, k]``; unused: ``x = inf``) and from
    every hole's centre less the hole's radius, and at most ``within[q]`` (m) from the
    target.

    Returns
    -------
    numpy.ndarray of intp, shape (Q,)
        The spots' indices; -1 where the window holds none.
    """
    cdef Py_ssize_t q, a, k, n = ix.shape[0]
    cdef double gx, gy
    cdef bint ok
    out = np.full(tx.shape[0], -1, dtype=np.intp)
    cdef Py_ssize_t[::1] at = out
    with nogil:
        for q in range(tx.shape[0]):
            for a in range(first[q], n):
                gx, gy = tx[q] + ix[a] * step, ty[q] + iy[a] * step
                ok = on_surface(gx, gy, radius, square, half_size)
                k = 0
                while ok and k < disc_x.shape[1]:
                    ok = hypot(gx - disc_x[q, k], gy - disc_y[q, k]) >= disc_r[q, k] + radius
                    k += 1
                k = 0
                while ok and k < hole_x.shape[0]:
                    ok = hypot(gx - hole_x[k], gy - hole_y[k]) >= hole_r[k] + radius
                    k += 1
                if ok and hypot(gx - tx[q], gy - ty[q]) <= within[q]:
                    at[q] = a
                    break
    return out

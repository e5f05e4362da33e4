# cython: language_level=3
"""The nearest clear candidate of a striker placement (compiled; called by
:func:`carromlab.rules.placement._nearest_clear`).

The candidates of an area, sorted along one axis, are scanned outward from each centre,
the nearer side first, until the offset along the axis alone exceeds the squared
distance of the best clear candidate found (every candidate beyond is farther). Only a
candidate that would beat the best is tested against the centre's discs. The arithmetic
is NumPy's, operation for operation (squares as products, sums left to right; the
package is built without ``-march``, so without fused multiply-adds): the same candidate
as a test of every one.
"""

import numpy as np

cimport cython
from libc.math cimport INFINITY


cdef inline bint _blocked(double x, double y, Py_ssize_t q, const double[:, ::1] disc_x, const double[:, ::1] disc_y,
                          const double[:, ::1] reach2) noexcept nogil:
    """Whether the candidate (x, y) lies within the reach of some disc of centre q (to 1e-15 m^2)."""
    cdef Py_ssize_t k
    for k in range(disc_x.shape[1]):
        if (x - disc_x[q, k]) * (x - disc_x[q, k]) + (y - disc_y[q, k]) * (y - disc_y[q, k]) - reach2[q, k] < 1e-15:
            return True
    return False


def nearest_clear(const double[::1] cx, const double[::1] cy, const double[::1] key, const Py_ssize_t[::1] order,
                  const double[::1] qx, const double[::1] qy, const double[::1] qkey,
                  const double[:, ::1] disc_x, const double[:, ::1] disc_y, const double[:, ::1] reach2):
    """Index of the candidate nearest each centre among those clearing its discs.

    Parameters
    ----------
    cx, cy : numpy.ndarray of float64, shape (C,)
        The candidates, m.
    key : numpy.ndarray of float64, shape (C,)
        Their coordinate along the sweep axis (``cx`` or ``cy``), sorted, m.
    order : numpy.ndarray of intp, shape (C,)
        The candidate of each entry of ``key``.
    qx, qy : numpy.ndarray of float64, shape (Q,)
        The centres, m.
    qkey : numpy.ndarray of float64, shape (Q,)
        Their coordinate along the sweep axis, m.
    disc_x, disc_y : numpy.ndarray of float64, shape (Q, K)
        Centres of the discs each centre's candidate must clear, m (unused: ``x = inf``).
    reach2 : numpy.ndarray of float64, shape (Q, K)
        Squared distance a candidate must keep from each disc's centre, m^2: a candidate
        nearer than that, to 1e-15 m^2, is blocked.

    Returns
    -------
    best : numpy.ndarray of intp, shape (Q,)
        The nearest clear candidate of each centre (squared distance
        ``(cx - qx)**2 + (cy - qy)**2``; ties to the lowest index); 0 where none is clear.
    found : numpy.ndarray of bool, shape (Q,)
        Whether any candidate is clear.
    """
    cdef Py_ssize_t n = key.shape[0], q, lo, hi, i, pos
    cdef double d2, best_d2, lo_off, hi_off
    best_arr = np.zeros(qx.shape[0], dtype=np.intp)
    found_arr = np.zeros(qx.shape[0], dtype=bool)
    cdef Py_ssize_t[::1] best = best_arr
    cdef cython.uchar[::1] found = found_arr.view(np.uint8)
    with nogil:
        for q in range(qx.shape[0]):
            best_d2, best[q] = INFINITY, n
            # first entry with key >= qkey: lo walks down from the one before, hi up
            lo, hi = 0, n
            while lo < hi:
                i = (lo + hi) // 2
                if key[i] < qkey[q]:
                    lo = i + 1
                else:
                    hi = i
            lo, hi = lo - 1, lo
            while lo >= 0 or hi < n:
                lo_off = (key[lo] - qkey[q]) * (key[lo] - qkey[q]) if lo >= 0 else INFINITY
                hi_off = (key[hi] - qkey[q]) * (key[hi] - qkey[q]) if hi < n else INFINITY
                if not min(lo_off, hi_off) <= best_d2:  # every candidate left is farther
                    break
                if lo_off <= hi_off:
                    pos, lo = lo, lo - 1
                else:
                    pos, hi = hi, hi + 1
                i = order[pos]
                d2 = (cx[i] - qx[q]) * (cx[i] - qx[q]) + (cy[i] - qy[q]) * (cy[i] - qy[q])
                if (d2 < best_d2 or (d2 == best_d2 and i < best[q])) and not _blocked(cx[i], cy[i], q, disc_x, disc_y, reach2):
                    best_d2, best[q] = d2, i
            found[q] = best[q] < n
            if not found[q]:
                best[q] = 0
    return best_arr, found_arr

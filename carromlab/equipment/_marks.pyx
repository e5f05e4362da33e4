# cython: language_level=3
"""Compiled geometry tests of a board (called by :mod:`carromlab.equipment.board`): the
distance from points to the segments of its lines, the ICF baseline test of a striker's
centre (:meth:`Baseline.striker_allowed
<carromlab.equipment.board.Baseline.striker_allowed>`) point by point, and whether discs
lie on the playing surface (:meth:`Board.contains
<carromlab.equipment.board.Board.contains>`; its test ``on_surface`` and the distance
``segment_distance`` are in ``_marks.pxd``).

A segment is given as :func:`carromlab.equipment.board._segment_rows` gives it: its start
(x0, y0), its direction (dx, dy) to the end, its squared length ``ll`` (1 where it is
zero) and whether it is zero (``flat``). The arithmetic is NumPy's, operation for
operation (``hypot`` from the C library, as NumPy's; the package is built without
``-march``, so without fused multiply-adds): the same distances as array code would give.
"""

import numpy as np

cimport cython


def distances(const double[::1] px, const double[::1] py, const double[::1] x0, const double[::1] y0,
              const double[::1] dx, const double[::1] dy, const double[::1] ll, const cython.uchar[::1] flat):
    """Shortest distance from each point to each segment.

    Parameters
    ----------
    px, py : numpy.ndarray of float64, shape (M,)
        The points, m.
    x0, y0, dx, dy, ll, flat : numpy.ndarray, shape (S,)
        The segments (see the module notes; ``flat`` as uint8), m and m^2.

    Returns
    -------
    numpy.ndarray of float64, shape (S, M)
        Distance of point ``m`` from segment ``s``, m.
    """
    cdef Py_ssize_t s, m
    out_arr = np.empty((x0.shape[0], px.shape[0]))
    cdef double[:, ::1] out = out_arr
    with nogil:
        for s in range(x0.shape[0]):
            for m in range(px.shape[0]):
                out[s, m] = segment_distance(px[m], py[m], x0[s], y0[s], dx[s], dy[s], ll[s], flat[s])
    return out_arr


def striker_allowed(const double[::1] px, const double[::1] py, const double[::1] x0, const double[::1] y0,
                    const double[::1] dx, const double[::1] dy, const double[::1] ll, const cython.uchar[::1] flat,
                    const double[::1] cx, const double[::1] cy, const double[::1] cr, double r, double eps):
    """Whether a striker of radius ``r`` centred at each point is legally placed on one
    side's baselines (rule ICF-3, as :meth:`Baseline.striker_allowed
    <carromlab.equipment.board.Baseline.striker_allowed>` reads it; the test
    ``striker_fits`` of ``_marks.pxd``, point by point).

    Parameters
    ----------
    px, py : numpy.ndarray of float64, shape (M,)
        The striker's centres, m.
    x0, y0, dx, dy, ll, flat : numpy.ndarray, shape (4,)
        The outer and the inner baseline, which the striker touches (distance
        ``<= r + eps``), and the two arrows, which it does not (distance ``> r``).
    cx, cy, cr : numpy.ndarray of float64, shape (2,)
        The base circles' centres and radii, m: each covered (centre distance
        ``c + cr <= r + eps``) or clear of the striker (``c >= cr + r - eps``).
    r : float
        Striker radius, m.
    eps : float
        Slack for round-off, m.

    Returns
    -------
    numpy.ndarray of bool, shape (M,)
    """
    cdef Py_ssize_t m
    out_arr = np.empty(px.shape[0], dtype=bool)
    cdef cython.uchar[::1] out = out_arr.view(np.uint8)
    with nogil:
        for m in range(px.shape[0]):
            out[m] = striker_fits(px[m], py[m], &x0[0], &y0[0], &dx[0], &dy[0], &ll[0], &flat[0], &cx[0], &cy[0], &cr[0], r, eps)
    return out_arr


def contains(const double[::1] px, const double[::1] py, const double[::1] r, bint square, double h):
    """Whether discs lie on the playing surface (``on_surface``), point by point.

    Parameters
    ----------
    px, py, r : numpy.ndarray of float64, shape (M,)
        The discs' centres and radii, m.
    square : bool
        A square board (else round).
    h : float
        Half the side (square) or the radius (round) of the surface, m.

    Returns
    -------
    numpy.ndarray of bool, shape (M,)
    """
    cdef Py_ssize_t m
    out_arr = np.empty(px.shape[0], dtype=bool)
    cdef cython.uchar[::1] out = out_arr.view(np.uint8)
    with nogil:
        for m in range(px.shape[0]):
            out[m] = on_surface(px[m], py[m], r[m], square, h)
    return out_arr

# cython: language_level=3
"""The tests shared by the compiled kernels, each defined once: the board-surface test
(``_marks.contains``, which :meth:`Board.contains <carromlab.equipment.board.Board.contains>`
calls, and ``carromlab.rules._spots``) and the distance from a point to a segment
(``_marks``' distance tests and ``carromlab.rules._placement``'s bisection)."""

from libc.math cimport fabs, hypot


cdef inline bint on_surface(double x, double y, double r, bint square, double h) noexcept nogil:
    """Whether a disc of radius r (m) centred at (x, y) lies on a board of half-size h (m):
    square, wholly inside the cushions (|x|, |y| <= h - r); round, its centre within h (a
    disc whose centre passes the edge falls into the ditch). NaN is not on it."""
    if square:
        return fabs(x) <= h - r and fabs(y) <= h - r
    return hypot(x, y) <= h


cdef inline double segment_distance(double px, double py, double x0, double y0, double dx, double dy, double ll,
                                    bint flat) noexcept nogil:
    """Shortest distance from (px, py) to a segment, m: to its point ``(x0, y0) + t (dx, dy)``,
    ``t`` the projection clipped to [0, 1] (NaN stays NaN; 0 on a zero-length segment)."""
    cdef double t = 0.0
    if not flat:
        t = ((px - x0) * dx + (py - y0) * dy) / ll
        if t < 0.0:
            t = 0.0
        if t > 1.0:
            t = 1.0
    return hypot(px - (x0 + t * dx), py - (y0 + t * dy))

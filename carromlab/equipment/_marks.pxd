# cython: language_level=3
"""The tests shared by the compiled kernels, each defined once: the board-surface test
(``_marks.contains``, which :meth:`Board.contains <carromlab.equipment.board.Board.contains>`
calls, and ``carromlab.rules._spots``), the distance from a point to a segment
(``_marks``' distance tests and ``carromlab.rules._placement``'s bisection) and the ICF
baseline test of a striker's centre (``_marks.striker_allowed`` and the bisection)."""

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


cdef inline bint striker_fits(double x, double y, const double* x0, const double* y0, const double* dx, const double* dy,
                              const double* ll, const unsigned char* flat, const double* cx, const double* cy,
                              const double* cr, double r, double eps) noexcept nogil:
    """Whether a striker of radius r (m) centred at (x, y) is legally placed on one side's
    baselines (rule ICF-3, as :meth:`Baseline.striker_allowed
    <carromlab.equipment.board.Baseline.striker_allowed>` reads it): it touches the outer
    and the inner baseline (segments 0 and 1 of x0 .. flat, distance ``<= r + eps``), not
    the two arrows (segments 2 and 3, distance ``> r``), and covers each base circle
    (centres cx, cy, radii cr; centre distance ``c + cr <= r + eps``) or keeps clear of it
    (``c >= cr + r - eps``)."""
    cdef double c
    cdef Py_ssize_t k
    if not (segment_distance(x, y, x0[0], y0[0], dx[0], dy[0], ll[0], flat[0]) <= r + eps
            and segment_distance(x, y, x0[1], y0[1], dx[1], dy[1], ll[1], flat[1]) <= r + eps
            and segment_distance(x, y, x0[2], y0[2], dx[2], dy[2], ll[2], flat[2]) > r
            and segment_distance(x, y, x0[3], y0[3], dx[3], dy[3], ll[3], flat[3]) > r):
        return False
    for k in range(2):
        c = hypot(x - cx[k], y - cy[k])
        if not (c + cr[k] <= r + eps or c >= cr[k] + r - eps):
            return False
    return True

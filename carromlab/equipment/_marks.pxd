# cython: language_level=3
"""The board-surface test shared by the compiled kernels (``_marks.contains``, which
:meth:`Board.contains <carromlab.equipment.board.Board.contains>` calls, and
``carromlab.rules._spots``): its one definition."""

from libc.math cimport fabs, hypot


cdef inline bint on_surface(double x, double y, double r, bint square, double h) noexcept nogil:
    """Whether a disc of radius r (m) centred at (x, y) lies on a board of half-size h (m):
    square, wholly inside the cushions (|x|, |y| <= h - r); round, its centre within h (a
    disc whose centre passes the edge falls into the ditch). NaN is not on it."""
    if square:
        return fabs(x) <= h - r and fabs(y) <= h - r
    return hypot(x, y) <= h

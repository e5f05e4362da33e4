# cython: language_level=3
"""Compiled kernels of the striker placement search (called by
:mod:`carromlab.rules.placement`): whether centres clear their regions' discs, the
nearest clear candidate of each centre, and the bisection towards it: for an area whose
constraints are compiled (a segment's neighbourhood, :meth:`Area.near_segment
<carromlab.rules.placement.Area.near_segment>`, and the ICF baselines) all its steps in
one call (:func:`bisect`), else the array work around the area's constraints (evaluated
in Python between the two bisection kernels).

The arithmetic is NumPy's, operation for operation (squares as products, sums left to
right, ``hypot`` from the C library as NumPy's; the package is built without
``-march``, so without fused multiply-adds): the same spots as the array code.

The nearest clear candidate: the candidates of an area, sorted along one axis (runs
of candidates at one coordinate on it, each sorted along the other axis), are scanned run
by run outward from each centre, the nearer side first, until the offset along the axis
alone exceeds the squared distance of the best clear candidate found (every candidate
beyond is farther). Within a run the squared distance grows with the offset along the
other axis, so each run is walked outward from the centre on both sides until a
candidate is farther than the best; the candidates nearer the centre than its lower
bound (:func:`carromlab.rules.spots.clear_distance`: all blocked) are stepped over.
Only a candidate that would beat the best is tested against the centre's discs.
"""

import numpy as np

cimport cython
from libc.math cimport INFINITY, fabs, hypot, sqrt

from carromlab.equipment._marks cimport segment_distance, striker_fits


cdef inline bint _blocked(double x, double y, Py_ssize_t q, const double[:, ::1] disc_x, const double[:, ::1] disc_y,
                          const double[:, ::1] reach2) noexcept nogil:
    """Whether the candidate (x, y) lies within the reach of some disc of centre q (to 1e-15 m^2)."""
    cdef Py_ssize_t k
    for k in range(disc_x.shape[1]):
        if (x - disc_x[q, k]) * (x - disc_x[q, k]) + (y - disc_y[q, k]) * (y - disc_y[q, k]) - reach2[q, k] < 1e-15:
            return True
    return False


cdef inline bint _apart(double dx, double dy, double reach) noexcept nogil:
    """Whether a point at offset (dx, dy) (m) from a disc's centre lies at least ``reach``
    (m) from it, by :func:`~carromlab.rules.spots.clear_of`'s comparison (``hypot``):
    farther than the reach along an axis (with room for hypot's round-off) is apart
    without the hypot (most discs, and the padding at infinity)."""
    if fabs(dx) > reach * (1.0 + 1e-6) or fabs(dy) > reach * (1.0 + 1e-6):
        return True
    return hypot(dx, dy) >= reach


cdef inline bint _keeps_reach(double x, double y, Py_ssize_t q, const double[:, ::1] disc_x, const double[:, ::1] disc_y,
                              const double[:, ::1] reach) noexcept nogil:
    """Whether the point (x, y) lies at least ``reach[q, k]`` (m) from every disc
    ``(disc_x[q, k], disc_y[q, k])`` of centre q (unused: ``x = inf``): the bisection's
    test of the discs (:func:`_apart`)."""
    cdef Py_ssize_t k
    for k in range(disc_x.shape[1]):
        if not _apart(x - disc_x[q, k], y - disc_y[q, k], reach[q, k]):
            return False
    return True


cdef inline Py_ssize_t _first_at_least(const double[::1] values, Py_ssize_t lo, Py_ssize_t hi, double v,
                                      bint strict) noexcept nogil:
    """The first index in [lo, hi) of the sorted ``values`` at least ``v`` (more than
    ``v`` when ``strict``); ``hi`` if none."""
    cdef Py_ssize_t i
    while lo < hi:
        i = (lo + hi) // 2
        if values[i] < v or (strict and values[i] == v):
            lo = i + 1
        else:
            hi = i
    return lo


def nearest_clear(const double[::1] key, const double[::1] other, const Py_ssize_t[::1] order,
                  const Py_ssize_t[::1] runs, bint swept_x, const double[::1] qx,
                  const double[::1] qy, const double[::1] qkey, const double[::1] qother, const double[::1] bound,
                  const double[:, ::1] disc_x, const double[:, ::1] disc_y, const double[:, ::1] reach2):
    """Index of the candidate nearest each centre among those clearing its discs.

    Parameters
    ----------
    key, other : numpy.ndarray of float64, shape (C,)
        The candidates' coordinates along the sweep axis and along the other axis,
        sorted by ``key`` then ``other``, m (the walk reads ``other`` in order and a
        run's one ``key``, and ``order`` only for a candidate that beats the best).
    order : numpy.ndarray of intp, shape (C,)
        The candidate of each entry of ``key``.
    runs : numpy.ndarray of intp, shape (R + 1,)
        Where each run of equal ``key`` starts, and C.
    swept_x : bool
        Whether ``key`` is x (else y).
    qx, qy : numpy.ndarray of float64, shape (Q,)
        The centres, m.
    qkey, qother : numpy.ndarray of float64, shape (Q,)
        Their coordinates along the sweep axis and the other, m.
    bound : numpy.ndarray of float64, shape (Q,)
        Distance within which every candidate of each centre is blocked, m (a lower
        bound of the nearest clear one's, less round-off; <= 0: none skipped).
    disc_x, disc_y : numpy.ndarray of float64, shape (Q, K)
        Centres of the discs each centre's candidate must clear, m (unused: ``x = inf``).
    reach2 : numpy.ndarray of float64, shape (Q, K)
        Squared distance a candidate must keep from each disc's centre, m^2: a candidate
        nearer than that, to 1e-15 m^2, is blocked.

    Returns
    -------
    best : numpy.ndarray of intp, shape (Q,)
        The nearest clear candidate of each centre (squared distance
        ``(x - qx)**2 + (y - qy)**2``; ties to the lowest index); 0 where none is clear.
    found : numpy.ndarray of bool, shape (Q,)
        Whether any candidate is clear.
    """
    cdef Py_ssize_t n = key.shape[0], n_runs = runs.shape[0] - 1, q, lo, hi, r, s, e, up, down, pos, step
    cdef double best_d2, lo_off, hi_off, off, gap, d2, x, y
    best_arr = np.zeros(qx.shape[0], dtype=np.intp)
    found_arr = np.zeros(qx.shape[0], dtype=bool)
    cdef Py_ssize_t[::1] best = best_arr
    cdef cython.uchar[::1] found = found_arr.view(np.uint8)
    with nogil:
        for q in range(qx.shape[0]):
            best_d2, best[q] = INFINITY, n
            # first run with key >= qkey: lo walks down from the one before, hi up
            lo, hi = 0, n_runs
            while lo < hi:
                r = (lo + hi) // 2
                if key[runs[r]] < qkey[q]:
                    lo = r + 1
                else:
                    hi = r
            lo, hi = lo - 1, lo
            while lo >= 0 or hi < n_runs:
                lo_off = (key[runs[lo]] - qkey[q]) * (key[runs[lo]] - qkey[q]) if lo >= 0 else INFINITY
                hi_off = (key[runs[hi]] - qkey[q]) * (key[runs[hi]] - qkey[q]) if hi < n_runs else INFINITY
                if not min(lo_off, hi_off) <= best_d2:  # every candidate left is farther
                    break
                if lo_off <= hi_off:
                    r, off, lo = lo, lo_off, lo - 1
                else:
                    r, off, hi = hi, hi_off, hi + 1
                s, e = runs[r], runs[r + 1]
                # the walks start at the first entries past the blocked stretch around the centre
                gap = sqrt(bound[q] * bound[q] - off) if bound[q] > 0.0 and bound[q] * bound[q] > off else 0.0
                if gap > 0.0:
                    down = _first_at_least(other, s, e, qother[q] - gap, True) - 1
                    up = _first_at_least(other, s, e, qother[q] + gap, False)
                else:
                    up = _first_at_least(other, s, e, qother[q], False)
                    down = up - 1
                for step in range(-1, 2, 2):  # down the run, then up it
                    pos = down if step < 0 else up
                    while s <= pos < e:
                        # the candidate (x, y): the run's key (one value) and its other coordinate
                        if swept_x:
                            x, y = key[s], other[pos]
                        else:
                            x, y = other[pos], key[s]
                        d2 = (x - qx[q]) * (x - qx[q]) + (y - qy[q]) * (y - qy[q])
                        if d2 > best_d2:  # and every entry beyond it
                            break
                        if (d2 < best_d2 or (d2 == best_d2 and order[pos] < best[q])) and not _blocked(x, y, q, disc_x, disc_y, reach2):
                            best_d2, best[q] = d2, order[pos]
                        pos += step
            found[q] = best[q] < n
            if not found[q]:
                best[q] = 0
    return best_arr, found_arr


def clear(const double[::1] x, const double[::1] y, const Py_ssize_t[::1] which, const double[:, :, ::1] discs,
          const double[::1] radius):
    """Whether each centre (x[q], y[q]) (m) keeps clear of the discs of its region
    ``which[q]``: at least ``discs[w, k, 2] + radius[q] + discs[w, k, 3]`` (m) from each
    disc's centre ``discs[w, k, :2]`` (rows as in ``Regions.discs``; unused: ``x = inf``),
    by :func:`~carromlab.rules.spots.clear_of`'s comparison (:func:`_apart`). Returns
    bool, shape (Q,)."""
    cdef Py_ssize_t q, k, w
    out = np.ones(x.shape[0], dtype=bool)
    cdef cython.uchar[::1] ok = out.view(np.uint8)
    with nogil:
        for q in range(x.shape[0]):
            w = which[q]
            for k in range(discs.shape[1]):
                if not _apart(x[q] - discs[w, k, 0], y[q] - discs[w, k, 1], discs[w, k, 2] + radius[q] + discs[w, k, 3]):
                    ok[q] = 0
                    break
    return out


def reaching(const double[:, :, ::1] discs, const Py_ssize_t[::1] which, double radius, double x0, double x1,
             double y0, double y1):
    """The discs of each centre's region that a disc of ``radius`` (m) inside the box
    [x0, x1] x [y0, y1] (m) may overlap: those whose reach (radius, ``radius`` and
    margin, m) extends into it, strictly.

    Parameters
    ----------
    discs : numpy.ndarray of float64, shape (R, K, 4)
        The regions' discs, rows ``x``, ``y``, ``radius``, ``margin`` (m, as
        ``Regions.discs``; unused rows at ``x = inf``).
    which : numpy.ndarray of intp, shape (Q,)
        The region of each centre.
    radius : float
        Radius of the disc placed, m.
    x0, x1, y0, y1 : float
        The box, m.

    Returns
    -------
    disc_x, disc_y, reach : numpy.ndarray of float64, shape (Q, J)
        Each centre's reaching discs in their order (J the most of any centre), their
        centres and reaches (m); the rows past a centre's own at ``x = inf`` (``y`` and
        ``reach`` those of its next discs that do not reach, in order).
    centres : numpy.ndarray of float64, shape (Q, J, 2)
        ``disc_x`` and ``disc_y`` stacked.
    """
    cdef Py_ssize_t n = which.shape[0], k = discs.shape[1], q, i, j, w, most = 0
    cdef double reach
    near_arr = np.zeros((n, k), dtype=np.uint8)
    cdef unsigned char[:, ::1] near = near_arr
    with nogil:
        for q in range(n):
            w, j = which[q], 0
            for i in range(k):
                reach = discs[w, i, 2] + radius + discs[w, i, 3]
                near[q, i] = (discs[w, i, 0] > x0 - reach and discs[w, i, 0] < x1 + reach
                              and discs[w, i, 1] > y0 - reach and discs[w, i, 1] < y1 + reach)
                j += near[q, i]
            if j > most:
                most = j
    centres_arr = np.empty((n, most, 2))
    disc_x_arr, disc_y_arr, reach_arr = np.empty((n, most)), np.empty((n, most)), np.empty((n, most))
    cdef double[:, :, ::1] centres = centres_arr
    cdef double[:, ::1] disc_x = disc_x_arr, disc_y = disc_y_arr, reach_out = reach_arr
    cdef int side
    with nogil:
        for q in range(n):
            w, j = which[q], 0
            for side in range(1, -1, -1):  # the reaching discs, then the others as padding
                for i in range(k):
                    if near[q, i] == side and j < most:
                        disc_x[q, j] = discs[w, i, 0] if side else INFINITY
                        disc_y[q, j] = discs[w, i, 1]
                        reach_out[q, j] = discs[w, i, 2] + radius + discs[w, i, 3]
                        centres[q, j, 0], centres[q, j, 1] = disc_x[q, j], disc_y[q, j]
                        j += 1
    return disc_x_arr, disc_y_arr, reach_arr, centres_arr


def midpoints(const double[::1] bx, const double[::1] by, const double[::1] dx, const double[::1] dy,
              const double[::1] lo, double width, int steps, double[::1] px, double[::1] py):
    """The midpoints the next ``steps`` bisection steps of each centre may test, into
    ``px``, ``py`` (m): entry ``q * (2**steps - 1) + j - 1`` is the point a fraction
    ``lo[q] + width * j / 2**steps`` of the way from ``(bx[q], by[q])`` along
    ``(dx[q], dy[q])``, j = 1 .. 2**steps - 1 (dyadic fractions: exact)."""
    cdef Py_ssize_t q, j, m = (1 << steps) - 1
    cdef double mid
    with nogil:
        for q in range(bx.shape[0]):
            for j in range(1, m + 1):
                mid = lo[q] + width * (<double> j / <double> (m + 1))
                px[q * m + j - 1] = bx[q] + mid * dx[q]
                py[q * m + j - 1] = by[q] + mid * dy[q]


def advance(const unsigned char[::1] legal, const double[::1] px, const double[::1] py,
            const double[:, ::1] disc_x, const double[:, ::1] disc_y, const double[:, ::1] reach,
            double[::1] lo, double width, int steps):
    """Take ``steps`` bisection steps of each centre through its midpoints
    (:func:`midpoints`): a midpoint is good where it meets the area's constraints
    (``legal``, one per midpoint) and lies at least ``reach[q, k]`` (m) from every disc
    ``(disc_x[q, k], disc_y[q, k])`` of its centre (unused: ``x = inf``); the lower end
    ``lo`` (fractions, updated in place) moves up to each good midpoint on the path.
    Returns the interval's new width, ``width / 2**steps``."""
    cdef Py_ssize_t q, e, half, j, m = (1 << steps) - 1
    with nogil:
        for q in range(lo.shape[0]):
            j, half = 0, (m + 1) // 2
            while half:
                e = q * m + j + half - 1
                if legal[e] and _keeps_reach(px[e], py[e], q, disc_x, disc_y, reach):
                    j += half
                half //= 2
            lo[q] = lo[q] + width / (m + 1) * j
    return width / (m + 1)


def bisect(const double[::1] bx, const double[::1] by, const double[::1] dx, const double[::1] dy,
           const double[:, ::1] disc_x, const double[:, ::1] disc_y, const double[:, ::1] reach, tuple near,
           tuple baseline, int steps):
    """``steps`` bisection steps of each centre, one at a time, in an area whose
    constraints are compiled (:attr:`Area.compiled <carromlab.rules.placement.Area.compiled>`):
    the midpoints of :func:`midpoints` and the tests of :func:`advance` (the fractions are
    dyadic, so the same steps as taken there any number at a time), the constraints by the
    tests of ``carromlab.equipment._marks`` (``segment_distance``, as ``Segment.distance``;
    ``striker_fits``, as ``Baseline.striker_allowed``).

    Parameters
    ----------
    bx, by, dx, dy : numpy.ndarray of float64, shape (Q,)
        Each centre's legal end and its offset to the centre, m.
    disc_x, disc_y, reach : numpy.ndarray of float64, shape (Q, K)
        The discs of each centre and the distance to keep from them, m (unused: ``x = inf``).
    near : tuple
        ``()``, or a largest distance from a segment: the segment as
        :attr:`Segment.kernel_row <carromlab.equipment.board.Segment.kernel_row>` gives it
        (start, direction, squared length, m and m^2, and whether it is a point), then the
        distance, m.
    baseline : tuple
        ``()``, or a striker legally on a side's baselines, as
        :meth:`Baseline.striker_kernel <carromlab.equipment.board.Baseline.striker_kernel>`
        gives it.
    steps : int
        The bisection steps.

    Returns
    -------
    numpy.ndarray of float64, shape (Q,)
        The lower ends, fractions of the way to each centre.
    """
    cdef Py_ssize_t q, i
    cdef double lo, width, mid, px, py
    cdef double x0 = 0.0, y0 = 0.0, sx = 0.0, sy = 0.0, ll = 1.0, limit = 0.0, r = 0.0, eps = 0.0
    cdef bint flat = False, has_near = len(near) > 0, has_baseline = len(baseline) > 0
    cdef const double[::1] lx0, ly0, ldx, ldy, lll, cx, cy, cr
    cdef const unsigned char[::1] lflat
    if has_near:
        x0, y0, sx, sy, ll, flat, limit = near
    if has_baseline:
        lx0, ly0, ldx, ldy, lll, lflat, cx, cy, cr, r, eps = baseline
    lo_arr = np.zeros(bx.shape[0])
    cdef double[::1] out = lo_arr
    with nogil:
        for q in range(bx.shape[0]):
            lo, width = 0.0, 1.0
            for i in range(steps):
                mid = lo + width * 0.5
                px = bx[q] + mid * dx[q]
                py = by[q] + mid * dy[q]
                width = width * 0.5
                if ((not has_near or segment_distance(px, py, x0, y0, sx, sy, ll, flat) <= limit)
                        and (not has_baseline or striker_fits(px, py, &lx0[0], &ly0[0], &ldx[0], &ldy[0], &lll[0], &lflat[0],
                                                              &cx[0], &cy[0], &cr[0], r, eps))
                        and _keeps_reach(px, py, q, disc_x, disc_y, reach)):
                    lo = lo + width
            out[q] = lo
    return lo_arr

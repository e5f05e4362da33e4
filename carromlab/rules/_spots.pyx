# cython: language_level=3
"""Compiled kernels of :func:`carromlab.rules.spots.nearest_free_spots_in_turn` (and so of
:func:`~carromlab.rules.spots.nearest_free_spots`): the whole search of every piece put
back, window after window (in each, the discs reaching into it, the lower bound
:func:`clear_distance` of where a free spot can be, and the scan of the window's grid
nearest first).

The scan's tests are those of :func:`carromlab.rules.spots.clear_of` and
:meth:`Board.contains <carromlab.equipment.board.Board.contains>`, with their arithmetic
(``hypot`` from the C library, as NumPy's; no fused multiply-adds without ``-march``).
"""

import numpy as np

from libc.math cimport hypot, sqrt, fabs, ceil, isfinite, INFINITY
from libc.stdlib cimport malloc, free

from carromlab.equipment._marks cimport on_surface


cdef double clear_bound(double tx, double ty, const double* cx, const double* cy, const double* rho,
                        int k, int* use) noexcept nogil:
    """How far the target (tx, ty) must move for a disc centred there to be at least
    rho[i] from every centre (cx[i], cy[i]), i < k (m; 0 for a target already clear): the
    distance to the nearest such point of the plane, found among its candidates (see
    :func:`clear_distance`). Circles farther than twice the largest reach beyond the
    target are left out: that only lowers the bound. ``use`` is scratch room for k ints."""
    cdef int i, j, m, sgn, kk = 0
    cdef double big = 0.0, dist, best = INFINITY, px, py, d, a, h, ux, uy, ri, rj
    cdef bint inside = 0
    for i in range(k):
        if rho[i] > big:
            big = rho[i]
    for i in range(k):
        dist = hypot(cx[i] - tx, cy[i] - ty)
        if dist < rho[i]:
            inside = 1
        if rho[i] - dist > -2.0 * big:
            use[kk] = i
            kk += 1
    if not inside:
        return 0.0
    for m in range(kk):
        # the point of circle i nearest the target (any point for a target at its centre)
        i = use[m]
        dist = hypot(tx - cx[i], ty - cy[i])
        ux, uy = ((tx - cx[i]) / dist, (ty - cy[i]) / dist) if dist > 0.0 else (1.0, 0.0)
        best = nearer_if_clear(best, cx[i] + rho[i] * ux, cy[i] + rho[i] * uy, tx, ty, cx, cy, rho, use, kk)
        # the crossings of circles i and j: a along the line i -> j, h to either side
        for j in use[m + 1:kk]:
            ri, rj = rho[i], rho[j]
            d = hypot(cx[j] - cx[i], cy[j] - cy[i])
            if not (d > 0.0 and d <= ri + rj and d >= fabs(ri - rj)):
                continue
            a = (ri * ri - rj * rj + d * d) / (2.0 * d)
            ux, uy = (cx[j] - cx[i]) / d, (cy[j] - cy[i]) / d
            h = sqrt(ri * ri - a * a) if ri * ri > a * a else 0.0
            for sgn in range(-1, 2, 2):
                px, py = cx[i] + a * ux - sgn * uy * h, cy[i] + a * uy + sgn * ux * h
                best = nearer_if_clear(best, px, py, tx, ty, cx, cy, rho, use, kk)
    return best


cdef inline double nearer_if_clear(double best, double px, double py, double tx, double ty, const double* cx,
                                  const double* cy, const double* rho, const int* use, int kk) noexcept nogil:
    """The smaller of ``best`` and the distance from the target (tx, ty) to the candidate
    (px, py), if the candidate is at least rho from every circle used, to round-off
    (1e-12 m: a candidate lies on one or two of them; taking a blocked one for clear only
    lowers the bound)."""
    cdef int m
    cdef double far
    for m in range(kk):
        if hypot(px - cx[use[m]], py - cy[use[m]]) - rho[use[m]] < -1e-12:
            return best
    far = hypot(px - tx, py - ty)
    return far if far < best else best


cdef int scratch(Py_ssize_t k, double** buf, int** use) except -1:
    """Scratch room for k circles (3 k doubles: centres x, y and reaches) and for
    :func:`clear_bound` (k ints); free both with ``free``."""
    buf[0] = <double*> malloc(3 * k * sizeof(double) + 1)
    use[0] = <int*> malloc(k * sizeof(int) + 1)
    if buf[0] == NULL or use[0] == NULL:
        free(buf[0])
        free(use[0])
        raise MemoryError()
    return 0


def clear_distance(const double[:, ::1] target, const double[:, :, ::1] centres, const double[:, ::1] reach):
    """:func:`carromlab.rules.spots.clear_distance` on C-ordered arrays: target (Q, 2),
    centres (Q, K, 2) (unused rows at ``x = inf``), reach (Q, K), all m. Returns (Q,)."""
    cdef Py_ssize_t q, i, n_q = target.shape[0], k = centres.shape[1]
    cdef int kk
    out = np.zeros(n_q)
    cdef double[::1] res = out
    cdef double* buf
    cdef int* use
    scratch(k, &buf, &use)
    with nogil:
        for q in range(n_q):
            kk = 0
            for i in range(k):
                if isfinite(centres[q, i, 0]):
                    buf[kk], buf[k + kk], buf[2 * k + kk] = centres[q, i, 0], centres[q, i, 1], reach[q, i]
                    kk += 1
            res[q] = clear_bound(target[q, 0], target[q, 1], buf, buf + k, buf + 2 * k, kk, use)
    free(buf)
    free(use)
    return out


cdef enum:
    # Windows have at most 201 grid steps each side of their target (past 200 steps the
    # spacing grows with the window; one more for round-off): the scan order is made for
    # that many at least, once.
    MIN_HALF = 201


cdef class ScanOrder:
    """The offsets (i, j) of the square grid -half..half (steps), ordered by distance
    from the centre (ties in row order), and their distances in steps. Those of a smaller
    grid -n..n are the same points in the same order with the others left out (a stable
    sort of the same keys), so one order serves every window."""
    cdef readonly Py_ssize_t half
    cdef readonly object ix, iy, rings
    cdef const Py_ssize_t* pix
    cdef const Py_ssize_t* piy
    cdef const double* prings
    cdef Py_ssize_t n

    def __init__(self, Py_ssize_t half):
        j, i = np.meshgrid(np.arange(-half, half + 1), np.arange(-half, half + 1))
        order = np.argsort(i * i + j * j, axis=None, kind="stable")
        self.half = half
        self.ix = np.ascontiguousarray(j.ravel()[order], dtype=np.intp)
        self.iy = np.ascontiguousarray(i.ravel()[order], dtype=np.intp)
        self.rings = np.sqrt(self.ix * self.ix + self.iy * self.iy)
        cdef const Py_ssize_t[::1] vx = self.ix
        cdef const Py_ssize_t[::1] vy = self.iy
        cdef const double[::1] vr = self.rings
        self.pix, self.piy, self.prings, self.n = &vx[0], &vy[0], &vr[0], vr.shape[0]


cdef ScanOrder _ORDER = None


cdef ScanOrder scan_order(Py_ssize_t half):
    """The scan order of the grids up to ``half`` steps each side (made when first needed)."""
    global _ORDER
    if _ORDER is None or _ORDER.half < half:
        _ORDER = ScanOrder(max(half, MIN_HALF))
    return _ORDER


cdef struct Surface:
    # the board (size, shape, holes: centres and radii, m) and the search's settings
    double size, half_size, grid_step, overlap
    bint square
    Py_ssize_t n_holes
    const double* holes  # rows x, y, radius


cdef int window(const Surface* b, ScanOrder order, double tx, double ty, double radius, const double* xy,
                const double* piece_r, Py_ssize_t n_k, double within, double span, double step, Py_ssize_t half,
                double* cx, double* cy, double* cr, int* use, double* spot) noexcept:
    """One window of the search (half-width ``span``, grid ``step``, m; ``half`` steps each
    side) around the target (tx, ty): 1 if its nearest free point was found (in ``spot``),
    else 0. Only the discs reaching into the window can block a point (those of centres
    ``xy[2 k]``, ``xy[2 k + 1]`` and radii ``piece_r[k]`` less the overlap allowed, k <
    n_k; NaN or inf: none), and every grid point nearer the target than its
    :func:`clear_distance` (less 1e-9 m) is blocked: the scan starts past them. A point is
    free when a disc of ``radius`` (m) there lies on the board (``on_surface``), at least
    the two radii from every disc and from every hole's centre less the hole's radius, and
    at most ``within`` (m) from the target. A free point in the window's corners (farther
    than ``span``) is only taken when the window covers everything allowed (``span`` at
    least ``within``, or the board's size where that is infinite): a point just outside
    the window could beat it. ``cx``, ``cy``, ``cr``, ``use``: scratch room for n_k discs."""
    cdef Py_ssize_t a, k, lo, hi, mid, i, j
    cdef Py_ssize_t reach2 = 2 * half * half
    cdef int kk = 0
    cdef double reach, dr, gx, gy, far, first_d, lim
    cdef bint ok
    for k in range(n_k):
        dr = piece_r[k] - b.overlap
        reach = half * step + dr + radius
        if fabs(xy[2 * k] - tx) < reach and fabs(xy[2 * k + 1] - ty) < reach:
            cx[kk], cy[kk], cr[kk] = xy[2 * k], xy[2 * k + 1], dr + radius
            kk += 1
    first_d = clear_bound(tx, ty, cx, cy, cr, kk, use) - 1e-9
    lo, hi = 0, order.n   # the first a with rings[a] * step >= first_d
    while lo < hi:
        mid = (lo + hi) // 2
        if order.prings[mid] * step < first_d:
            lo = mid + 1
        else:
            hi = mid
    lim = within if isfinite(within) else b.size
    for a in range(lo, order.n):
        i, j = order.pix[a], order.piy[a]
        if i * i + j * j > reach2:  # past the window's corners
            break
        if i > half or i < -half or j > half or j < -half:  # (a point of a wider grid)
            continue
        gx, gy = tx + i * step, ty + j * step
        ok = on_surface(gx, gy, radius, b.square, b.half_size)
        k = 0
        while ok and k < kk:
            ok = hypot(gx - cx[k], gy - cy[k]) >= cr[k]
            k += 1
        k = 0
        while ok and k < b.n_holes:
            ok = hypot(gx - b.holes[3 * k], gy - b.holes[3 * k + 1]) >= b.holes[3 * k + 2] + radius
            k += 1
        if not ok:
            continue
        far = hypot(gx - tx, gy - ty)
        if far <= within:
            if far <= span or span >= lim:
                spot[0], spot[1] = gx, gy
                return 1
        return 0
    return 0


cdef int search(const Surface* b, double tx, double ty, double radius, const double* xy, const double* piece_r,
                Py_ssize_t n_k, double within, double* cx, double* cy, double* cr, int* use, double* spot) except -1:
    """The nearest free spot to (tx, ty) of a disc of ``radius`` (m), at most ``within``
    from it (m): 1 if found (in ``spot``), else 0. Windows (:func:`window`) of half-width
    4 radii, doubled until a spot is found or the window reaches ``within`` (the board's
    size where that is infinite); spacing ``grid_step``, or the window's half-width over
    200 if more."""
    cdef double span = 4.0 * radius, step, lim = within if isfinite(within) else b.size
    cdef Py_ssize_t half
    while True:
        step = span / 200.0
        if not step > b.grid_step:
            step = b.grid_step
        half = <Py_ssize_t> ceil(span / step)
        if window(b, scan_order(half), tx, ty, radius, xy, piece_r, n_k, within, span, step, half, cx, cy, cr, use,
                  spot):
            return 1
        if not span < lim:  # none within the limit
            return 0
        span = 2.0 * span if 2.0 * span < lim else lim


def spots_in_turn(const double[:, ::1] target, const double[:, ::1] piece_r, double[:, :, ::1] xy,
                  const Py_ssize_t[:, ::1] order, const double[::1] within, const double[:, ::1] far, double overlap,
                  double grid_step, double size, bint square, double half_size, const double[:, ::1] holes):
    """:func:`carromlab.rules.spots.nearest_free_spots_in_turn` on C-ordered arrays, for
    N boards of K pieces: in each board g, the pieces ``order[g, 0]``, ``order[g, 1]``, ...
    (until -1) are put back in turn at the nearest free spot to ``target[g]`` at most
    ``within[g]`` from it (m; inf: anywhere), or failing that (when ``far`` has N rows)
    at the nearest free spot to ``far[g]``, anywhere; clear of the pieces of known
    position (``xy[g, k]``, radius ``piece_r[g, k]``, m; NaN: none), less the ``overlap``
    allowed (m), including those put back before. ``xy`` is updated with the spots.
    Board: ``size`` (m), square or round of half-size ``half_size`` (m), holes in rows
    x, y, radius (m); ``grid_step``: the finest spacing of the grids (m).

    Returns
    -------
    numpy.ndarray, shape (N, Q, 2)
        The spots, m, in ``order``'s places; NaN where none was found or none was asked.
    """
    cdef Py_ssize_t g, q, p, n_g = xy.shape[0], n_k = xy.shape[1], n_q = order.shape[1]
    cdef bint fallback = far.shape[0] > 0
    cdef Surface b
    b.size, b.half_size, b.grid_step, b.overlap, b.square = size, half_size, grid_step, overlap, square
    b.n_holes = holes.shape[0]
    if b.n_holes:
        b.holes = &holes[0, 0]
    spots = np.full((n_g, n_q, 2), np.nan)
    cdef double[:, :, ::1] sp = spots
    cdef double spot[2]
    cdef int found
    cdef double* buf
    cdef int* use
    if n_k == 0:  # (a board of no pieces has none to put back)
        return spots
    scratch(n_k, &buf, &use)
    try:
        for g in range(n_g):
            for q in range(n_q):
                p = order[g, q]
                if p < 0:
                    break
                found = search(&b, target[g, 0], target[g, 1], piece_r[g, p], &xy[g, 0, 0], &piece_r[g, 0], n_k, within[g],
                               buf, buf + n_k, buf + 2 * n_k, use, spot)
                if not found and fallback:
                    found = search(&b, far[g, 0], far[g, 1], piece_r[g, p], &xy[g, 0, 0], &piece_r[g, 0], n_k, INFINITY,
                                   buf, buf + n_k, buf + 2 * n_k, use, spot)
                if found:
                    xy[g, p, 0], xy[g, p, 1] = spot[0], spot[1]
                    sp[g, q, 0], sp[g, q, 1] = spot[0], spot[1]
    finally:
        free(buf)
        free(use)
    return spots

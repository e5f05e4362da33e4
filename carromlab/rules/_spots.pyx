# cython: language_level=3
"""Compiled kernels of :func:`carromlab.rules.spots.nearest_free_spots`: one window of
the search for every target (its discs, the lower bound :func:`clear_distance` of where
a free spot can be, and the scan of the window's grid nearest first).

The scan's tests are those of :func:`carromlab.rules.spots.clear_of` and
:meth:`Board.contains <carromlab.equipment.board.Board.contains>`, with their arithmetic
(``hypot`` from the C library, as NumPy's; no fused multiply-adds without ``-march``).
"""

import numpy as np

from libc.math cimport hypot, sqrt, fabs, isfinite, INFINITY
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


def window_spots(const double[::1] tx, const double[::1] ty, double radius, const double[:, ::1] disc_x,
                 const double[:, ::1] disc_y, const double[:, ::1] disc_r, const double[::1] within, double limit_size,
                 double span, double step, Py_ssize_t half, const Py_ssize_t[::1] ix, const Py_ssize_t[::1] iy,
                 const double[::1] rings, const double[::1] hole_x, const double[::1] hole_y,
                 const double[::1] hole_r, bint square, double half_size):
    """One window of :func:`carromlab.rules.spots.nearest_free_spots` (half-width
    ``span``, grid ``step``, m) around each target (tx[q], ty[q]).

    The window's grid points are ``(tx[q] + ix[a] * step, ty[q] + iy[a] * step)``,
    offsets -``half`` .. ``half`` steps on each axis, in
    order of their distance ``rings[a]`` (in steps) from the target. Only the discs
    reaching into the window can block one (``disc_x[q, k]``, ``disc_y[q, k]``,
    ``disc_r[q, k]``; unused: ``x = inf``), and every grid point nearer the target than
    its :func:`clear_distance` (less 1e-9 m) is blocked: the scan starts past them. A
    point is free when a disc of ``radius`` (m) there lies on the board (``on_surface``),
    at least the two radii from every disc and from every hole's centre less the hole's
    radius, and at most ``within[q]`` (m) from the target. A free point in the window's
    corners (farther than ``span``) is only taken when the window covers everything
    allowed (``span`` at least ``within[q]``, or ``limit_size`` where that is infinite):
    a point just outside the window could beat it.

    Returns
    -------
    found : numpy.ndarray of bool, shape (Q,)
    spots : numpy.ndarray, shape (Q, 2)
        The spots, m; NaN where none was found.
    """
    cdef Py_ssize_t q, a, k, lo, hi, mid, n = ix.shape[0], n_q = tx.shape[0], n_k = disc_x.shape[1]
    cdef int kk
    cdef double reach, gx, gy, far, first_d, lim
    cdef bint ok
    found = np.zeros(n_q, dtype=bool)
    spots = np.full((n_q, 2), np.nan)
    cdef unsigned char[::1] fd = found.view(np.uint8)
    cdef double[:, ::1] sp = spots
    cdef double* buf
    cdef int* use
    scratch(n_k, &buf, &use)
    cdef double* cx = buf
    cdef double* cy = buf + n_k
    cdef double* cr = buf + 2 * n_k
    with nogil:
        for q in range(n_q):
            kk = 0
            for k in range(n_k):
                reach = half * step + disc_r[q, k] + radius
                if fabs(disc_x[q, k] - tx[q]) < reach and fabs(disc_y[q, k] - ty[q]) < reach:
                    cx[kk], cy[kk], cr[kk] = disc_x[q, k], disc_y[q, k], disc_r[q, k] + radius
                    kk += 1
            first_d = clear_bound(tx[q], ty[q], cx, cy, cr, kk, use) - 1e-9
            lo, hi = 0, n   # the first a with rings[a] * step >= first_d
            while lo < hi:
                mid = (lo + hi) // 2
                if rings[mid] * step < first_d:
                    lo = mid + 1
                else:
                    hi = mid
            lim = within[q] if isfinite(within[q]) else limit_size
            for a in range(lo, n):
                gx, gy = tx[q] + ix[a] * step, ty[q] + iy[a] * step
                ok = on_surface(gx, gy, radius, square, half_size)
                k = 0
                while ok and k < kk:
                    ok = hypot(gx - cx[k], gy - cy[k]) >= cr[k]
                    k += 1
                k = 0
                while ok and k < hole_x.shape[0]:
                    ok = hypot(gx - hole_x[k], gy - hole_y[k]) >= hole_r[k] + radius
                    k += 1
                if not ok:
                    continue
                far = hypot(gx - tx[q], gy - ty[q])
                if far <= within[q]:
                    if far <= span or span >= lim:
                        fd[q] = 1
                        sp[q, 0], sp[q, 1] = gx, gy
                    break
    free(buf)
    free(use)
    return found, spots

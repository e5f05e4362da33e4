# cython: language_level=3
"""Friction-law kinematics of one sliding disc (compiled; used by the event engine).

Every law keeps a disc on a straight line; what differs is how speed v and spin w evolve:

    dv/dt = -g mu(v) F(eps) - drag v^2,   dw/dt = -(2 g mu(v) / R) T(eps),  eps = v / (R w)

with F = 1 and the spin decaying on its own at (4/3) g mu / R when slide and spin are not
coupled. F and T are the closed forms of Farkas, Bartels, Unger & Wolf, Phys. Rev. Lett.
90, 248302 (2003), evaluated with complete elliptic integrals computed by the
arithmetic-geometric mean (exact to rounding, no tabulation). mu(v) is constant, linear
(mu + mu_v v) or a Stribeck curve (mu + (mu_s - mu) exp(-(v/v_s)^2); Armstrong-Helouvry,
Dupont & Canudas de Wit, Automatica 30, 1083, 1994). A segment is integrated once, at the
event that starts it, by the Dormand-Prince 5(4) method (rtol 1e-11) up to the exact stop,
and stored as knots; positions, speeds and spins between knots are cubic Hermite
interpolants (documented and tested error below 1e-9 m).
"""

from libc.math cimport sqrt, fabs, exp, pow, M_PI
from libc.stdlib cimport realloc, free

DEF RTOL = 1e-10
DEF ATOL_S = 1e-13
DEF ATOL_V = 1e-13
DEF ATOL_W = 1e-10
DEF MAX_STEPS = 100000


cdef void agm_KE(double k, double* K, double* E) noexcept nogil:
    """Complete elliptic integrals K(k), E(k) of modulus k < 1 (Gauss-Legendre AGM)."""
    cdef double a = 1.0, b = sqrt((1.0 - k) * (1.0 + k)), c = k, an
    cdef double s = 0.5 * k * k, p = 0.5
    cdef int it
    for it in range(60):
        if fabs(c) <= 1e-15 * a:
            break
        an = 0.5 * (a + b)
        c = 0.5 * (a - b)
        b = sqrt(a * b)
        a = an
        p *= 2.0
        s += p * c * c
    K[0] = M_PI / (2.0 * a)
    E[0] = K[0] * (1.0 - s)


cdef void farkas(double eps, double* F, double* T) noexcept nogil:
    """Friction force F(eps) and torque T(eps) factors of a uniform-pressure disc."""
    cdef double K, E, e2, k, k2
    if eps < 0.01:
        e2 = eps * eps
        F[0] = eps * (1.0 - e2 / 8.0 - e2 * e2 / 64.0)
        agm_KE(eps, &K, &E)
        T[0] = 4.0 * ((4.0 - 2.0 * e2) * E + (e2 - 1.0) * K) / (9.0 * M_PI)
        return
    if fabs(eps - 1.0) < 1e-13:
        F[0] = 8.0 / (3.0 * M_PI)
        T[0] = 8.0 / (9.0 * M_PI)
        return
    if eps <= 1.0:
        e2 = eps * eps
        agm_KE(eps, &K, &E)
        F[0] = 4.0 * ((1.0 + e2) * E - (1.0 - e2) * K) / (3.0 * M_PI * eps)
        T[0] = 4.0 * ((4.0 - 2.0 * e2) * E + (e2 - 1.0) * K) / (9.0 * M_PI)
        return
    k = 1.0 / eps
    k2 = k * k
    e2 = eps * eps
    if eps <= 20.0:
        agm_KE(k, &K, &E)
        F[0] = 4.0 * ((1.0 + e2) * E - (e2 - 1.0) * K) / (3.0 * M_PI)
        T[0] = 4.0 * eps * ((4.0 - 2.0 * e2) * E + (2.0 * e2 - 5.0 + 3.0 * k2) * K) / (9.0 * M_PI)
        return
    # series in 1/eps: the closed forms lose about eps^4 to cancellation out here
    T[0] = k / 4.0 + k * k2 / 48.0 + 3.0 * k * k2 * k2 / 512.0
    if eps > 100.0:
        F[0] = 1.0 - k2 / 8.0 - k2 * k2 / 64.0
    else:
        agm_KE(k, &K, &E)
        F[0] = 4.0 * ((1.0 + e2) * E - (e2 - 1.0) * K) / (3.0 * M_PI)


cdef double mu_of_v(const LawParams* lp, double v) noexcept nogil:
    if lp.mu_kind == MU_LINEAR:
        return lp.mu + lp.mu_v * v
    if lp.mu_kind == MU_STRIBECK:
        return lp.mu + (lp.mu_s - lp.mu) * exp(-(v / lp.v_s) * (v / lp.v_s))
    return lp.mu


cdef inline void rhs(const LawParams* lp, double R, double v, double w, double* dv, double* dw) noexcept nogil:
    cdef double mu, F = 1.0, T = 0.0
    if v < 0.0:
        v = 0.0
    if w < 0.0:
        w = 0.0
    mu = mu_of_v(lp, v)
    if lp.slide_spin and w > 0.0:
        farkas(v / (R * w), &F, &T)
        dw[0] = -2.0 * lp.g * mu * T / R
    else:
        dw[0] = 0.0
    dv[0] = -lp.g * mu * F - lp.drag * v * v if v > 0.0 else 0.0


cdef double decel(const LawParams* lp, double R, double v, double w) noexcept nogil:
    """Current sliding deceleration, m/s^2."""
    cdef double dv, dw
    rhs(lp, R, v, w, &dv, &dw)
    return -dv


cdef double decel_bound(const LawParams* lp, double v) noexcept nogil:
    """Upper bound of the deceleration from now on, for a disc now at speed v."""
    cdef double mu = lp.mu
    if lp.mu_kind == MU_LINEAR:
        mu = lp.mu + (lp.mu_v * v if lp.mu_v > 0.0 else 0.0)
    elif lp.mu_kind == MU_STRIBECK and lp.mu_s > mu:
        mu = lp.mu_s
    return lp.g * mu + lp.drag * v * v


cdef double spin_decel(const LawParams* lp, double R) noexcept nogil:
    """Spin deceleration of a disc spinning in place (eps = 0: T = 2/3), rad/s^2."""
    return 4.0 * lp.g * mu_of_v(lp, 0.0) / (3.0 * R)


cdef int grow(double** p, int cap) noexcept nogil:
    cdef double* q = <double*> realloc(p[0], cap * sizeof(double))
    if q == NULL:
        return -1
    p[0] = q
    return 0


cdef int push(Table* tb, double t, double s, double v, double w, double dv, double dw) noexcept nogil:
    cdef int k = tb.n
    if k == tb.cap:
        tb.cap = 2 * tb.cap + 32
        if (grow(&tb.t, tb.cap) < 0 or grow(&tb.s, tb.cap) < 0 or grow(&tb.v, tb.cap) < 0
                or grow(&tb.w, tb.cap) < 0 or grow(&tb.dv, tb.cap) < 0 or grow(&tb.dw, tb.cap) < 0):
            return -1
    tb.t[k] = t
    tb.s[k] = s
    tb.v[k] = v
    tb.w[k] = w
    tb.dv[k] = dv
    tb.dw[k] = dw
    tb.n = k + 1
    return 0


cdef void dp_step(const LawParams* lp, double R, double v, double w, double h,
                  double dv1, double dw1, double* out) noexcept nogil:
    """One Dormand-Prince 5(4) step of (s, v, w) from s = 0; out = s, v, w (order 5) and
    the error estimates of s, v, w."""
    cdef double kv[7]
    cdef double kw[7]
    cdef double ks[7]
    cdef double vv, ww
    kv[0] = dv1
    kw[0] = dw1
    ks[0] = v
    vv = v + h * (0.2 * kv[0])
    ww = w + h * (0.2 * kw[0])
    ks[1] = vv
    rhs(lp, R, vv, ww, &kv[1], &kw[1])
    vv = v + h * (3.0 / 40.0 * kv[0] + 9.0 / 40.0 * kv[1])
    ww = w + h * (3.0 / 40.0 * kw[0] + 9.0 / 40.0 * kw[1])
    ks[2] = vv
    rhs(lp, R, vv, ww, &kv[2], &kw[2])
    vv = v + h * (44.0 / 45.0 * kv[0] - 56.0 / 15.0 * kv[1] + 32.0 / 9.0 * kv[2])
    ww = w + h * (44.0 / 45.0 * kw[0] - 56.0 / 15.0 * kw[1] + 32.0 / 9.0 * kw[2])
    ks[3] = vv
    rhs(lp, R, vv, ww, &kv[3], &kw[3])
    vv = v + h * (19372.0 / 6561.0 * kv[0] - 25360.0 / 2187.0 * kv[1] + 64448.0 / 6561.0 * kv[2]
                  - 212.0 / 729.0 * kv[3])
    ww = w + h * (19372.0 / 6561.0 * kw[0] - 25360.0 / 2187.0 * kw[1] + 64448.0 / 6561.0 * kw[2]
                  - 212.0 / 729.0 * kw[3])
    ks[4] = vv
    rhs(lp, R, vv, ww, &kv[4], &kw[4])
    vv = v + h * (9017.0 / 3168.0 * kv[0] - 355.0 / 33.0 * kv[1] + 46732.0 / 5247.0 * kv[2]
                  + 49.0 / 176.0 * kv[3] - 5103.0 / 18656.0 * kv[4])
    ww = w + h * (9017.0 / 3168.0 * kw[0] - 355.0 / 33.0 * kw[1] + 46732.0 / 5247.0 * kw[2]
                  + 49.0 / 176.0 * kw[3] - 5103.0 / 18656.0 * kw[4])
    ks[5] = vv
    rhs(lp, R, vv, ww, &kv[5], &kw[5])
    out[0] = h * (35.0 / 384.0 * ks[0] + 500.0 / 1113.0 * ks[2] + 125.0 / 192.0 * ks[3]
                  - 2187.0 / 6784.0 * ks[4] + 11.0 / 84.0 * ks[5])
    out[1] = v + h * (35.0 / 384.0 * kv[0] + 500.0 / 1113.0 * kv[2] + 125.0 / 192.0 * kv[3]
                      - 2187.0 / 6784.0 * kv[4] + 11.0 / 84.0 * kv[5])
    out[2] = w + h * (35.0 / 384.0 * kw[0] + 500.0 / 1113.0 * kw[2] + 125.0 / 192.0 * kw[3]
                      - 2187.0 / 6784.0 * kw[4] + 11.0 / 84.0 * kw[5])
    ks[6] = out[1]
    rhs(lp, R, out[1], out[2], &kv[6], &kw[6])
    # difference between the 5th- and 4th-order solutions
    out[3] = h * (71.0 / 57600.0 * ks[0] - 71.0 / 16695.0 * ks[2] + 71.0 / 1920.0 * ks[3]
                  - 17253.0 / 339200.0 * ks[4] + 22.0 / 525.0 * ks[5] - 1.0 / 40.0 * ks[6])
    out[4] = h * (71.0 / 57600.0 * kv[0] - 71.0 / 16695.0 * kv[2] + 71.0 / 1920.0 * kv[3]
                  - 17253.0 / 339200.0 * kv[4] + 22.0 / 525.0 * kv[5] - 1.0 / 40.0 * kv[6])
    out[5] = h * (71.0 / 57600.0 * kw[0] - 71.0 / 16695.0 * kw[2] + 71.0 / 1920.0 * kw[3]
                  - 17253.0 / 339200.0 * kw[4] + 22.0 / 525.0 * kw[5] - 1.0 / 40.0 * kw[6])


cdef int integrate(const LawParams* lp, double R, double v0, double w0, Table* tb) noexcept nogil:
    """Integrate a sliding segment from speed v0 (m/s) and spin magnitude w0 (rad/s) to
    the stop; returns 0, or -1 when out of memory."""
    cdef double t = 0.0, s = 0.0, v = v0, w = w0, dv, dw, h, err, sc, fac, hs
    cdef double out[6]
    cdef int steps = 0
    tb.n = 0
    rhs(lp, R, v, w, &dv, &dw)
    if push(tb, t, s, v, w, dv, dw) < 0:
        return -1
    if v <= 0.0:
        tb.t_stop = 0.0
        tb.s_stop = 0.0
        tb.w_stop = w
        return 0
    h = 0.05 * v / (-dv)
    while steps < MAX_STEPS:
        steps += 1
        hs = v / (-dv)
        if v <= 1e-9 * v0 or steps == MAX_STEPS:
            # the last nanometres: the deceleration is constant to rounding here
            t += hs
            s += 0.5 * v * hs
            w = w + dw * hs if w + dw * hs > 0.0 else 0.0
            rhs(lp, R, 0.0, w, &dv, &dw)
            if push(tb, t, s, 0.0, w, -decel_bound(lp, 0.0) if dv == 0.0 else dv, dw) < 0:
                return -1
            break
        # never step onto the stop itself: friction is discontinuous there
        if h > 0.9 * hs:
            h = 0.9 * hs
        dp_step(lp, R, v, w, h, dv, dw, out)
        sc = ATOL_S + RTOL * fabs(s + out[0])
        err = fabs(out[3]) / sc
        sc = ATOL_V + RTOL * fabs(v)
        err = max(err, fabs(out[4]) / sc)
        sc = ATOL_W + RTOL * fabs(w)
        err = max(err, fabs(out[5]) / sc)
        if err > 1.0 or out[1] <= 0.0:
            h *= max(0.2, 0.9 * pow(err, -0.2)) if out[1] > 0.0 else 0.5
            continue
        t += h
        s += out[0]
        v = out[1]
        w = out[2] if out[2] > 0.0 else 0.0
        rhs(lp, R, v, w, &dv, &dw)
        if push(tb, t, s, v, w, dv, dw) < 0:
            return -1
        fac = 0.9 * pow(err, -0.2) if err > 1e-10 else 5.0
        h *= min(5.0, max(0.2, fac))
    tb.t_stop = tb.t[tb.n - 1]
    tb.s_stop = tb.s[tb.n - 1]
    tb.w_stop = tb.w[tb.n - 1]
    return 0


cdef inline int knot(const Table* tb, double tau) noexcept nogil:
    """Index k with t[k] <= tau < t[k+1] (binary search)."""
    cdef int lo = 0, hi = tb.n - 1, mid
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if tb.t[mid] <= tau:
            lo = mid
        else:
            hi = mid
    return lo


cdef inline double hermite(double y0, double y1, double d0, double d1, double h, double x) noexcept nogil:
    cdef double u = x / h
    cdef double u2 = u * u, u3 = u2 * u
    return ((2.0 * u3 - 3.0 * u2 + 1.0) * y0 + (u3 - 2.0 * u2 + u) * h * d0
            + (-2.0 * u3 + 3.0 * u2) * y1 + (u3 - u2) * h * d1)


cdef inline double dhermite(double y0, double y1, double d0, double d1, double h, double x) noexcept nogil:
    cdef double u = x / h
    cdef double u2 = u * u
    return ((6.0 * u2 - 6.0 * u) * y0 / h + (3.0 * u2 - 4.0 * u + 1.0) * d0
            + (-6.0 * u2 + 6.0 * u) * y1 / h + (3.0 * u2 - 2.0 * u) * d1)


cdef void evaluate(const LawParams* lp, double R, const Table* tb, double tau,
                   double* sd, double* v, double* w) noexcept nogil:
    """Distance slid (m), speed (m/s) and spin magnitude (rad/s) at tau (s) into the segment."""
    cdef int k
    cdef double h, x, ww
    if tau >= tb.t_stop:
        sd[0] = tb.s_stop
        v[0] = 0.0
        ww = tb.w_stop - spin_decel(lp, R) * (tau - tb.t_stop)
        w[0] = ww if ww > 0.0 else 0.0
        return
    if tau <= 0.0:
        sd[0] = 0.0
        v[0] = tb.v[0]
        w[0] = tb.w[0]
        return
    k = knot(tb, tau)
    h = tb.t[k + 1] - tb.t[k]
    x = tau - tb.t[k]
    sd[0] = hermite(tb.s[k], tb.s[k + 1], tb.v[k], tb.v[k + 1], h, x)
    v[0] = hermite(tb.v[k], tb.v[k + 1], tb.dv[k], tb.dv[k + 1], h, x)
    if v[0] < 0.0:
        v[0] = 0.0
    w[0] = hermite(tb.w[k], tb.w[k + 1], tb.dw[k], tb.dw[k + 1], h, x)
    if w[0] < 0.0:
        w[0] = 0.0


cdef double time_at_distance(const Table* tb, double sd) noexcept nogil:
    """Time (s) into the segment at which the disc has slid sd (m); the stop time if never."""
    cdef int lo = 0, hi = tb.n - 1, mid, it
    cdef double h, a, b, x, f, df
    if sd <= 0.0:
        return 0.0
    if sd >= tb.s_stop:
        return tb.t_stop
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if tb.s[mid] <= sd:
            lo = mid
        else:
            hi = mid
    h = tb.t[hi] - tb.t[lo]
    a = 0.0
    b = h
    x = h * (sd - tb.s[lo]) / (tb.s[hi] - tb.s[lo])
    for it in range(100):
        f = hermite(tb.s[lo], tb.s[hi], tb.v[lo], tb.v[hi], h, x) - sd
        if f > 0.0:
            b = x
        else:
            a = x
        if b - a <= 1e-15 * (1.0 + tb.t[hi]):
            break
        df = dhermite(tb.s[lo], tb.s[hi], tb.v[lo], tb.v[hi], h, x)
        x = x - f / df if df > 0.0 else 0.5 * (a + b)
        if not (x > a and x < b):
            x = 0.5 * (a + b)
    return tb.t[lo] + x


cdef void table_init(Table* tb) noexcept nogil:
    tb.n = 0
    tb.cap = 0
    tb.t = NULL
    tb.s = NULL
    tb.v = NULL
    tb.w = NULL
    tb.dv = NULL
    tb.dw = NULL


cdef void table_free(Table* tb) noexcept nogil:
    free(tb.t)
    free(tb.s)
    free(tb.v)
    free(tb.w)
    free(tb.dv)
    free(tb.dw)
    table_init(tb)


# ----------------------------------------------------------------------------------
# Python access, for tests, fitting and plots
# ----------------------------------------------------------------------------------

def farkas_FT(double[::1] eps):
    """F(eps) and T(eps) of the slide-spin law for an array of eps >= 0."""
    import numpy as np
    F = np.empty(eps.shape[0])
    T = np.empty(eps.shape[0])
    cdef double f, t
    cdef Py_ssize_t i
    for i in range(eps.shape[0]):
        farkas(eps[i], &f, &t)
        F[i] = f
        T[i] = t
    return F, T


def kinematics(dict law, double radius, double v0, double w0, double[::1] tau):
    """Distance (m), speed (m/s) and spin magnitude (rad/s) at times tau (s) of a disc
    starting at speed v0 and spin magnitude w0, under the law described by ``law``
    (keys: slide_spin, mu_kind, g, mu, mu_v, mu_s, v_s, drag). Also returns the stop time
    and the number of knots of the integrated segment."""
    import numpy as np
    cdef LawParams lp
    cdef Table tb
    cdef Py_ssize_t i
    cdef double a, b, c
    lp.numeric = 1
    lp.slide_spin = law["slide_spin"]
    lp.mu_kind = law["mu_kind"]
    lp.g = law["g"]
    lp.mu = law["mu"]
    lp.mu_v = law["mu_v"]
    lp.mu_s = law["mu_s"]
    lp.v_s = law["v_s"]
    lp.drag = law["drag"]
    table_init(&tb)
    s_out = np.empty(tau.shape[0])
    v_out = np.empty(tau.shape[0])
    w_out = np.empty(tau.shape[0])
    try:
        if integrate(&lp, radius, v0, w0, &tb) < 0:
            raise MemoryError("carromlab: out of memory integrating a segment")
        for i in range(tau.shape[0]):
            evaluate(&lp, radius, &tb, tau[i], &a, &b, &c)
            if not lp.slide_spin:
                c = w0 - spin_decel(&lp, radius) * tau[i]
                c = c if c > 0.0 else 0.0
            s_out[i] = a
            v_out[i] = b
            w_out[i] = c
        return s_out, v_out, w_out, tb.t_stop, tb.n
    finally:
        table_free(&tb)

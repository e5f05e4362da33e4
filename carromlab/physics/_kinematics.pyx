# cython: language_level=3
"""Friction-law kinematics of one sliding disc (compiled; cimported by the event engine).

Every law keeps a disc on a straight line; what differs is how speed v and spin w evolve:

    dv/dt = -g mu(v) F(eps) - drag v^2,   dw/dt = -(2 g mu(v) / R) T(eps),  eps = v / (R w)

with F = 1 and the spin decaying on its own at (4/3) g mu(0) / R when slide and spin are
not coupled. F and T are the closed forms of Farkas, Bartels, Unger & Wolf, Phys. Rev.
Lett. 90, 248302 (2003), evaluated with complete elliptic integrals computed by the
arithmetic-geometric mean. mu(v) is constant, linear (mu + mu_v v) or a Stribeck curve
(mu + (mu_s - mu) exp(-(v/v_s)^2); Armstrong-Helouvry, Dupont & Canudas de Wit,
Automatica 30, 1083, 1994).

A segment (``Seg``, fixed size) starts at an event and runs to the stop. Four ways:

* constant deceleration (Coulomb, or a slide-spin disc without spin): closed form;
* slide-spin with constant mu and no drag: the equations are homogeneous of degree 0 in
  (v, w), so every trajectory on one side of the attractor eps* = 0.6530 is a scaled copy
  of one universal trajectory. With the remaining time rho (in units of mu g = 1: r),
  x = ln r, a = v / (mu g rho) and q = (distance to go) / (mu g rho^2), the system
  eps' = eps G(eps) / a, a' = F - a, q' = a - 2 q (G = F - 2 eps T, ' = d/dx) is
  autonomous in x. It is integrated once at import on each side of eps* (Dormand-Prince 5
  with 4 substeps per node), from the linearised solution at |eps - eps*| = 1e-9 (r = 1)
  to eps = 1e7 (above) or 1e-7 (below), with the power-law asymptotes beyond, at the nodes
  r = 2^e (1 + j / 128): the bits of r, read as an integer, give the node and the offset in
  its cell without a logarithm. Between nodes eps, a, q are cubic Hermite interpolants in
  x with the exact derivatives (the offset ln(1 + z), z < 1/128, by a short series). A
  segment is then one inverse look-up (eps0 -> r0) at its start and one look-up per
  evaluation: rho = t_stop - tau, r = rs rho with rs = r0 / t_stop, v = mu g a rho,
  distance to go = mu g q rho^2, w = v / (R eps); the time at a distance is the inverse
  look-up of the distance to go (P = q r^2). The inverse look-ups find the node by a
  coarse index on the bits of the key and invert the cubic piece by Newton from the
  cubic Hermite interpolant of the inverse piece (usually one step). Relative error of
  v, s, t_stop below 1e-12 (tests/physics/test_kinematics.py);
* speed-only laws (mu(v), Stribeck, any drag, spin decaying on its own): dv/dt = -f(v) is
  autonomous in v, so the speed V and the distance to go D are tabulated once per law as
  functions of the remaining time rho (uniform step 2.5e-4 s, same integrator) up to
  25 m/s; a segment is a look-up;
* slide-spin with mu(v) or drag (no universal form), and speeds above a speed table:
  Dormand-Prince 5(4) per segment, its error measured as positions (``extend``), stored as
  knots with quintic Hermite interpolation of the distance (from s, v, dv/dt) and the
  spin (from w, dw/dt, d^2w/dt^2: ``rhs_aw``), the slower path (error below 2e-8 m).
  Integrated lazily (one step, then 2, 4, ... more when the engine reaches the last knot:
  ``seg_extend``), with F, T and dT/deps from a module table of polynomial pieces
  (``farkas_tab``). With constant mu the integration ends once
  drag v^4 / deceleration^2 < 3e-10 m (the order of the distance the drag would still
  take off); the rest (about 0.1 mm here) is the closed form or the universal slide-spin
  trajectory.
"""

from libc.math cimport sqrt, fabs, exp, log, log1p, cos, M_PI, INFINITY
from libc.stdlib cimport malloc, realloc, free
from libc.stdint cimport int64_t
from libc.string cimport memcpy

DEF RTOL = 1e-9          # per step: error of the position (see extend) / (distance slid + v hs / 2)
DEF ATOL_S = 1e-13       # m
DEF RTOL_W = 3e-8        # per step: spin error / spin
DEF ATOL_W = 3e-7        # rad/s (R ATOL_W = 5e-9 m/s: the spin near the stop is held to a rim speed, not to a
                         # fraction of a vanishing w)
DEF CROSS_TIGHT = 10.0   # error factor of steps within BAND of eps = 1 (K's log singularity)
DEF MAX_STEPS = 100000
DEF TAIL_S = 3e-10       # m, drag v^4 / deceleration^2 below which a segment ends in closed form
DEF NEWTON_DONE = 1e-9   # relative Newton step after which a table inversion has converged
DEF BAND = 0.05          # |eps - 1| within which every stage takes F, T from the AGM
DEF CHUNK0 = 1           # accepted steps of an integrated segment's first chunk (then doubling)
DEF SAFETY = 0.8         # step-size controller: h *= SAFETY err^(-1/5), within [0.2, 5]
DEF H_FIRST = 0.05       # first step / time to stop at the initial deceleration


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


# ----------------------------------------------------------------------------------
# F and T of the integrated segments: a module table of polynomial pieces
# ----------------------------------------------------------------------------------

DEF FT_DEG = 6            # degree of the polynomial of F (and of T) on one cell
DEF FT_NW = 14            # coefficients per cell: 2 (FT_DEG + 1), F's then T's
DEF FT_FRAC = 46          # 52 - 6: 64 cells per octave of eps
DEF FT_NC = 1024          # cells: 16 octaves, eps in [2^-8, 2^8)
DEF FT_NEAR_FRAC = 49     # 52 - 3: 8 cells per octave of d = |eps - 1|
DEF FT_NEAR_NC = 208      # cells per side of eps = 1: 26 octaves, d in [2^-30, 2^-4)
cdef int64_t FT_BASE = (<int64_t> (1023 - 8)) << 52        # the bits of 2^-8
cdef int64_t FT_NEAR_BASE = (<int64_t> (1023 - 30)) << 52  # the bits of 2^-30
cdef int64_t FT_MANT = ((<int64_t> 1) << 52) - 1
cdef int64_t FT_ONE = (<int64_t> 1023) << 52                # the bits of 1.0
cdef double ft_tab[FT_NC * FT_NW]
cdef double ft_near[2 * FT_NEAR_NC * FT_NW]   # below eps = 1, then above
cdef double ft_P[FT_DEG + 1][FT_DEG + 1]      # ft_P[k][i]: coefficient of x^i in Chebyshev T_k


cdef void ft_fit(double e0, double de, double* cf) noexcept nogil:
    """Chebyshev interpolants of degree FT_DEG of F and T (``farkas``) on eps = e0 + de (1 + x),
    x in [-1, 1], as monomials in x: F's coefficients cf[0:FT_DEG+1], then T's."""
    cdef double fv[FT_DEG + 1]
    cdef double tv[FT_DEG + 1]
    cdef double th, ck, dk
    cdef int k, i, n = FT_DEG + 1
    for i in range(n):
        farkas(e0 + de * (1.0 + cos(M_PI * (i + 0.5) / n)), &fv[i], &tv[i])
    for i in range(FT_NW):
        cf[i] = 0.0
    for k in range(n):
        ck = 0.0
        dk = 0.0
        for i in range(n):
            th = cos(k * M_PI * (i + 0.5) / n) * (2.0 if k > 0 else 1.0) / n
            ck += th * fv[i]
            dk += th * tv[i]
        for i in range(n):
            cf[i] += ck * ft_P[k][i]
            cf[n + i] += dk * ft_P[k][i]


cdef void ft_build() noexcept nogil:
    """The cells of ``farkas_tab``: [2^o (1 + m/64), 2^o (1 + (m+1)/64)) of eps, and, for
    |eps - 1| < 1/16, where F and T have a term (eps - 1) ln|eps - 1|, cells of
    d = |eps - 1| shrinking geometrically towards 1 (8 per octave of d) on each side."""
    cdef double base, sgn
    cdef int j, k, i, side, n = FT_DEG + 1
    for k in range(n):
        for i in range(n):
            ft_P[k][i] = 0.0
    ft_P[0][0] = 1.0
    ft_P[1][1] = 1.0
    for k in range(2, n):
        for i in range(n):
            ft_P[k][i] = -ft_P[k - 2][i] + (2.0 * ft_P[k - 1][i - 1] if i > 0 else 0.0)
    for j in range(FT_NC):
        base = 2.0 ** ((j >> 6) - 8)
        ft_fit(base * (1.0 + (j & 63) / 64.0), base / 128.0, &ft_tab[FT_NW * j])
    for side in range(2):
        sgn = -1.0 if side == 0 else 1.0
        for j in range(FT_NEAR_NC):
            base = 2.0 ** ((j >> 3) - 30)
            ft_fit(1.0 + sgn * base * (1.0 + (j & 7) / 8.0), sgn * base / 16.0,
                   &ft_near[FT_NW * (side * FT_NEAR_NC + j)])


ft_build()


cdef inline void ft_poly(const double* cf, double x, double* F, double* T, double* dT) noexcept nogil:
    """F, T and dT/dx of one cell at x (Horner)."""
    cdef double f = cf[FT_DEG], t = cf[FT_NW - 1], dt = 0.0
    cdef int i
    for i in range(FT_DEG - 1, -1, -1):
        dt = dt * x + t
        f = f * x + cf[i]
        t = t * x + cf[FT_DEG + 1 + i]
    F[0] = f
    T[0] = t
    dT[0] = dt


cdef inline void farkas_tab(double eps, double* F, double* T, double* dT) noexcept nogil:
    """F(eps), T(eps) and, unless dT is NULL, dT/deps from polynomial pieces (error about
    1e-13, below that of ``farkas`` itself) for 2^-8 <= eps < 2^8, |eps - 1| >= 2^-30; else
    by ``farkas`` (dT by a central difference). A cell's index and x are read from the
    bits of eps (or of |eps - 1|): no logarithm."""
    cdef int64_t b, j
    cdef double m1, x, d, dt, Fp, Tp, Tm
    d = eps - 1.0       # exact near 1
    if fabs(d) < 0.0625:
        x = fabs(d)
        memcpy(&b, &x, sizeof(double))
        j = (b - FT_NEAR_BASE) >> FT_NEAR_FRAC
        if j >= 0:
            b = (b & FT_MANT) | FT_ONE
            memcpy(&m1, &b, sizeof(double))      # |eps - 1| / 2^octave, in [1, 2)
            ft_poly(&ft_near[FT_NW * ((FT_NEAR_NC if d > 0.0 else 0) + j)],
                    16.0 * m1 - 17.0 - 2.0 * (j & 7), F, T, &dt)
            if dT != NULL:
                dT[0] = dt * 16.0 * m1 / d
            return
    else:
        memcpy(&b, &eps, sizeof(double))
        j = (b - FT_BASE) >> FT_FRAC
        if eps > 0.0 and j >= 0 and j < FT_NC:
            b = (b & FT_MANT) | FT_ONE
            memcpy(&m1, &b, sizeof(double))      # eps / 2^octave, in [1, 2)
            ft_poly(&ft_tab[FT_NW * j], 128.0 * m1 - 129.0 - 2.0 * (j & 63), F, T, &dt)
            if dT != NULL:
                dT[0] = dt * 128.0 * m1 / eps
            return
    farkas(eps, F, T)
    if dT != NULL:
        x = 1e-5 * eps
        farkas(eps + x, &Fp, &Tp)
        farkas(eps - x, &Fp, &Tm)
        dT[0] = (Tp - Tm) / (2.0 * x)


cdef inline void rhs(const LawParams* lp, double R, double v, double w, double* dv, double* dw) noexcept nogil:
    cdef double mu, F = 1.0, T = 0.0
    if v < 0.0:
        v = 0.0
    if w < 0.0:
        w = 0.0
    mu = mu_of_v(lp, v)
    if lp.slide_spin and w > 0.0:
        farkas_tab(v / (R * w), &F, &T, NULL)
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


cdef int push(Table* tb, double t, double s, double v, double w, double dv, double dw, double aw) noexcept nogil:
    cdef int k = tb.n
    if k == tb.cap:
        tb.cap = 2 * tb.cap + 32
        if (grow(&tb.t, tb.cap) < 0 or grow(&tb.s, tb.cap) < 0 or grow(&tb.v, tb.cap) < 0
                or grow(&tb.w, tb.cap) < 0 or grow(&tb.dv, tb.cap) < 0 or grow(&tb.dw, tb.cap) < 0
                or grow(&tb.aw, tb.cap) < 0):
            return -1
    tb.t[k] = t
    tb.s[k] = s
    tb.v[k] = v
    tb.w[k] = w
    tb.dv[k] = dv
    tb.dw[k] = dw
    tb.aw[k] = aw
    tb.n = k + 1
    return 0


DEF NY = 2                # integrated state: v, w


cdef void dp_step(const LawParams* lp, double R, const double* y0, const double* d0, double h,
                  double* out, double* y1, double* d1) noexcept nogil:
    """One Dormand-Prince 5(4) step of h (s) from y0 = (v, w) with derivatives d0 (``rhs``):
    out = distance slid (m, order 5) and the error estimates of the distance, v and w; y1,
    d1 = the state (order 5) and its derivatives at the new point (the last stage), d1[2] =
    d^2 w / dt^2 there (``rhs_aw``). The Butcher coefficients are literals (the zero
    weights of the second stage left out), each sum accumulated in stage order."""
    cdef double k1v = d0[0], k1w = d0[1], k2v, k2w, k3v, k3w, k4v, k4w, k5v, k5w, k6v, k6w
    cdef double k7v, k7w, aw
    cdef double s1 = y0[0], s2, s3, s4, s5, s6, s7
    s2 = y0[0] + h * ((1.0 / 5.0) * k1v)
    rhs(lp, R, s2, y0[1] + h * ((1.0 / 5.0) * k1w), &k2v, &k2w)
    s3 = y0[0] + h * ((3.0 / 40.0) * k1v + (9.0 / 40.0) * k2v)
    rhs(lp, R, s3, y0[1] + h * ((3.0 / 40.0) * k1w + (9.0 / 40.0) * k2w), &k3v, &k3w)
    s4 = y0[0] + h * ((44.0 / 45.0) * k1v + (-56.0 / 15.0) * k2v + (32.0 / 9.0) * k3v)
    rhs(lp, R, s4, y0[1] + h * ((44.0 / 45.0) * k1w + (-56.0 / 15.0) * k2w + (32.0 / 9.0) * k3w),
        &k4v, &k4w)
    s5 = y0[0] + h * ((19372.0 / 6561.0) * k1v + (-25360.0 / 2187.0) * k2v
                      + (64448.0 / 6561.0) * k3v + (-212.0 / 729.0) * k4v)
    rhs(lp, R, s5, y0[1] + h * ((19372.0 / 6561.0) * k1w + (-25360.0 / 2187.0) * k2w
                                + (64448.0 / 6561.0) * k3w + (-212.0 / 729.0) * k4w), &k5v, &k5w)
    s6 = y0[0] + h * ((9017.0 / 3168.0) * k1v + (-355.0 / 33.0) * k2v + (46732.0 / 5247.0) * k3v
                      + (49.0 / 176.0) * k4v + (-5103.0 / 18656.0) * k5v)
    rhs(lp, R, s6, y0[1] + h * ((9017.0 / 3168.0) * k1w + (-355.0 / 33.0) * k2w
                                + (46732.0 / 5247.0) * k3w + (49.0 / 176.0) * k4w
                                + (-5103.0 / 18656.0) * k5w), &k6v, &k6w)
    out[0] = h * ((35.0 / 384.0) * s1 + (500.0 / 1113.0) * s3 + (125.0 / 192.0) * s4
                  + (-2187.0 / 6784.0) * s5 + (11.0 / 84.0) * s6)
    s7 = y0[0] + h * ((35.0 / 384.0) * k1v + (500.0 / 1113.0) * k3v + (125.0 / 192.0) * k4v
                      + (-2187.0 / 6784.0) * k5v + (11.0 / 84.0) * k6v)
    y1[0] = s7
    y1[1] = y0[1] + h * ((35.0 / 384.0) * k1w + (500.0 / 1113.0) * k3w + (125.0 / 192.0) * k4w
                         + (-2187.0 / 6784.0) * k5w + (11.0 / 84.0) * k6w)
    rhs_aw(lp, R, y1[0], y1[1], &k7v, &k7w, &aw)
    d1[0] = k7v
    d1[1] = k7w
    d1[2] = aw
    out[1] = h * ((71.0 / 57600.0) * s1 + (-71.0 / 16695.0) * s3 + (71.0 / 1920.0) * s4
                  + (-17253.0 / 339200.0) * s5 + (22.0 / 525.0) * s6 + (-1.0 / 40.0) * s7)
    out[2] = h * ((71.0 / 57600.0) * k1v + (-71.0 / 16695.0) * k3v + (71.0 / 1920.0) * k4v
                  + (-17253.0 / 339200.0) * k5v + (22.0 / 525.0) * k6v + (-1.0 / 40.0) * k7v)
    out[3] = h * ((71.0 / 57600.0) * k1w + (-71.0 / 16695.0) * k3w + (71.0 / 1920.0) * k4w
                  + (-17253.0 / 339200.0) * k5w + (22.0 / 525.0) * k6w + (-1.0 / 40.0) * k7w)


cdef inline double dmu_dv(const LawParams* lp, double v) noexcept nogil:
    """d mu / dv (s/m) of the law's mu(v)."""
    cdef double z
    if lp.mu_kind == MU_LINEAR:
        return lp.mu_v
    if lp.mu_kind == MU_STRIBECK:
        z = v / lp.v_s
        return -2.0 * z / lp.v_s * (lp.mu_s - lp.mu) * exp(-z * z)
    return 0.0


cdef void rhs_aw(const LawParams* lp, double R, double v, double w, double* dv, double* dw,
                 double* aw) noexcept nogil:
    """``rhs`` and d^2 w / dt^2 (rad/s^3) at speed v, spin w, through dT/deps from the same
    look-up (``farkas_tab``)."""
    cdef double mu, F = 1.0, T = 0.0, dT, eps
    if v < 0.0:
        v = 0.0
    if w < 0.0:
        w = 0.0
    mu = mu_of_v(lp, v)
    aw[0] = 0.0
    if lp.slide_spin and w > 0.0:
        eps = v / (R * w)
        farkas_tab(eps, &F, &T, &dT)
        dw[0] = -2.0 * lp.g * mu * T / R
    else:
        dw[0] = 0.0
    dv[0] = -lp.g * mu * F - lp.drag * v * v if v > 0.0 else 0.0
    if lp.slide_spin and v > 0.0 and w > 0.0:
        aw[0] = -2.0 * lp.g * (dmu_dv(lp, v) * dv[0] * T + mu * dT * (eps * (dv[0] / v - dw[0] / w))) / R


cdef inline double inv_fifth_root(double x) noexcept nogil:
    """x^(-1/5) for x > 0 (relative error below 2e-4), the step-size factor of a
    fifth-order error estimate: the bits of x, read as an integer, scaled by -1/5 about
    those of 1.0 (within 10 %), then two Newton steps on x y^5 = 1 (libm's pow costs
    about 140 instructions, as much as a tenth of a step)."""
    cdef int64_t b
    cdef double y, y5
    cdef int it
    memcpy(&b, &x, sizeof(double))
    b = FT_ONE - (b - FT_ONE) // 5
    memcpy(&y, &b, sizeof(double))
    for it in range(2):
        y5 = y * y
        y5 = y5 * y5 * y
        y = y * (0.8 + 0.2 / (x * y5))
    return y


cdef int integrate(const LawParams* lp, double R, double v0, double w0, Table* tb) noexcept nogil:
    """Start the table of a sliding segment from speed v0 (m/s) and spin magnitude w0
    (rad/s) and integrate its first chunk of steps; 0, or -1 when out of memory."""
    cdef double d[NY + 1]
    tb.n = 0
    tb.tail = SEG_REST
    tb.steps = 0
    tb.chunk = CHUNK0
    tb.open = 0
    rhs_aw(lp, R, v0, w0, &d[0], &d[1], &d[2])
    if push(tb, 0.0, 0.0, v0, w0, d[0], d[1], d[2]) < 0:
        return -1
    if v0 <= 0.0:
        tb.t_stop = 0.0
        tb.s_stop = 0.0
        tb.w_stop = w0
        return 0
    tb.h = H_FIRST * v0 / (-d[0])
    tb.open = 1
    return extend(lp, R, tb)


cdef int extend(const LawParams* lp, double R, Table* tb) noexcept nogil:
    """Continue an open table by tb.chunk accepted steps, or to the stop, and double the
    next chunk; 0, or -1 when out of memory. The steps are those of one integration to the
    stop, whatever the chunks."""
    cdef int k = tb.n - 1, done = 0, c, rejected = 0
    cdef double t = tb.t[k], s = tb.s[k], v0 = tb.v[0], h = tb.h, err, fac, hs, dv, dw, w, e0, e1
    cdef double y[NY]
    cdef double d[NY + 1]
    cdef double y1[NY]
    cdef double d1[NY + 1]
    cdef double out[4]
    y[0] = tb.v[k]
    y[1] = tb.w[k]
    d[0] = tb.dv[k]
    d[1] = tb.dw[k]
    while True:
        if done == tb.chunk:
            tb.h = h
            tb.chunk *= 2
            tb.t_stop = t
            tb.s_stop = s
            tb.w_stop = y[1]
            return 0
        tb.steps += 1
        hs = y[0] / (-d[0])
        if y[0] <= 1e-9 * v0 or tb.steps >= MAX_STEPS:
            # the last nanometres: the deceleration is constant to rounding here
            t += hs
            s += 0.5 * y[0] * hs
            w = y[1] + d[1] * hs if y[1] + d[1] * hs > 0.0 else 0.0
            rhs(lp, R, 0.0, w, &dv, &dw)
            if push(tb, t, s, 0.0, w, -decel_bound(lp, 0.0) if dv == 0.0 else dv, dw, 0.0) < 0:
                return -1
            break
        # never step onto the stop itself: friction is discontinuous there
        if h > 0.9 * hs:
            h = 0.9 * hs
        dp_step(lp, R, y, d, h, out, y1, d1)
        # errors as positions: of the distance, of the speed carried to the stop (hs) and
        # of the spin through F (a relative error of w changes F by as much below eps = 1,
        # by under 1/eps^2 of it above), relative to the distance slid plus the distance
        # still to go at the current deceleration (v hs / 2: the segment's length scale
        # from the first step on, so that the first steps are not held to a fraction of
        # their own tiny distance)
        err = max(fabs(out[1]), fabs(out[2]) * hs)
        if lp.slide_spin and y[1] > 0.0:
            e0 = y[0] / (R * y[1])
            err = max(err, fabs(out[3]) / y[1] * y[0] * hs * (1.0 if e0 < 1.0 else 1.0 / (e0 * e0)))
        err = max(err / (ATOL_S + RTOL * (s + 0.5 * y[0] * hs)), fabs(out[3]) / (ATOL_W + RTOL_W * y[1]))
        if lp.slide_spin and y[1] > 0.0 and y1[1] > 0.0:
            # F and T are not smooth at eps = 1, where the error estimate falls short
            e0 = y[0] / (R * y[1]) - 1.0
            e1 = y1[0] / (R * y1[1]) - 1.0
            if fabs(e0) < BAND or fabs(e1) < BAND or e0 * e1 <= 0.0:
                err *= CROSS_TIGHT
        if err > 1.0 or y1[0] <= 0.0:
            h *= max(0.2, SAFETY * inv_fifth_root(err)) if y1[0] > 0.0 else 0.5
            rejected = 1
            continue
        t += h
        s += out[0]
        if y1[1] < 0.0:
            y1[1] = 0.0
        for c in range(NY):
            y[c] = y1[c]
            d[c] = d1[c]
        done += 1
        if push(tb, t, s, y[0], y[1], d[0], d[1], d1[2]) < 0:
            return -1
        if lp.mu_kind == MU_CONSTANT and lp.drag * y[0] * y[0] * y[0] * y[0] <= TAIL_S * d[0] * d[0]:
            tb.open = 0
            tail_start(lp, R, y[0], y[1], tb)
            return 0
        fac = SAFETY * inv_fifth_root(err) if err > 1e-10 else 5.0
        h *= min(1.0 if rejected else 5.0, max(0.2, fac))   # no growth right after a rejection
        rejected = 0
    tb.open = 0
    tb.t_stop = tb.t[tb.n - 1]
    tb.s_stop = tb.s[tb.n - 1]
    tb.w_stop = tb.w[tb.n - 1]
    return 0


cdef int closed_start(const LawParams* lp, double R, double v, double w, int* side, double* rs,
                      double* rho, double* s_left) noexcept nogil:
    """Start of a constant-mu, drag-free slide at speed v > 0 (m/s) and spin magnitude w
    (rad/s): the universal slide-spin tables when the law couples slide and spin and w > 0
    (returns SEG_SLIDE_SPIN, sets side and rs), else the constant deceleration mu g
    (returns SEG_COULOMB). Sets the time rho (s) and the distance s_left (m) still to slide."""
    cdef double gm = lp.g * lp.mu, e, a, q, r
    if lp.slide_spin and w > 0.0:
        e = v / (R * w)
        side[0] = 1 if e < ss_eps else 0
        r = ss_r_of(side[0], e, &a, &q)
        rho[0] = v / (gm * a)
        rs[0] = r / rho[0]
        s_left[0] = gm * q * rho[0] * rho[0]
        return SEG_SLIDE_SPIN
    rho[0] = v / gm
    s_left[0] = 0.5 * v * rho[0]
    return SEG_COULOMB


cdef void tail_start(const LawParams* lp, double R, double v, double w, Table* tb) noexcept nogil:
    """End the table at speed v, spin w with the closed-form or universal slide-spin
    tail, once the drag's effect on the distance to go, about drag v^4 / deceleration^2,
    is below TAIL_S."""
    tb.tail = closed_start(lp, R, v, w, &tb.side, &tb.rs, &tb.rho, &tb.s_tail)
    tb.w_stop = w if tb.tail == SEG_COULOMB and not lp.slide_spin else 0.0
    tb.t_stop = tb.t[tb.n - 1] + tb.rho
    tb.s_stop = tb.s[tb.n - 1] + tb.s_tail


cdef void tail_seg(const Table* tb, Seg* sg) noexcept nogil:
    """The tail of a table as a segment of its own, starting at the last knot."""
    cdef int k = tb.n - 1
    sg.mode = tb.tail
    sg.side = tb.side
    sg.rs = tb.rs
    sg.v0 = tb.v[k]
    sg.w0 = tb.w[k]
    sg.t_stop = tb.rho
    sg.s_stop = tb.s_tail
    sg.w_stop = tb.w_stop
    sg.a0 = tb.v[k] / tb.rho
    sg.open = 0
    table_init(&sg.tb)


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


cdef inline double quintic(double y0, double y1, double d0, double d1, double a0, double a1,
                           double h, double x, double* dy) noexcept nogil:
    """Quintic Hermite interpolant at x in [0, h] of the values y, first derivatives d and
    second derivatives a at both ends (error O(h^6)); dy = its derivative (O(h^5))."""
    cdef double u = x / h, hd0 = h * d0, ha0 = h * h * a0
    cdef double A = y1 - y0 - hd0 - 0.5 * ha0, B = h * d1 - hd0 - ha0, C = h * h * a1 - ha0
    cdef double c3 = 10.0 * A - 4.0 * B + 0.5 * C, c4 = -15.0 * A + 7.0 * B - C
    cdef double c5 = 6.0 * A - 3.0 * B + 0.5 * C
    dy[0] = (hd0 + u * (ha0 + u * (3.0 * c3 + u * (4.0 * c4 + u * 5.0 * c5)))) / h
    return y0 + u * (hd0 + u * (0.5 * ha0 + u * (c3 + u * (c4 + u * c5))))


cdef void evaluate(const LawParams* lp, double R, const Table* tb, double tau,
                   double* sd, double* v, double* w) noexcept nogil:
    """Distance slid (m), speed (m/s) and spin magnitude (rad/s) at tau (s) into the segment."""
    cdef int k
    cdef double h, x, ww
    if tb.open and tau > tb.t_stop:
        tau = tb.t_stop     # not integrated further yet: the state at the last knot
    elif tau >= tb.t_stop:
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
    sd[0] = quintic(tb.s[k], tb.s[k + 1], tb.v[k], tb.v[k + 1], tb.dv[k], tb.dv[k + 1], h, x, v)
    if v[0] < 0.0:
        v[0] = 0.0
    w[0] = quintic(tb.w[k], tb.w[k + 1], tb.dw[k], tb.dw[k + 1], tb.aw[k], tb.aw[k + 1], h, x, &ww)
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
        f = quintic(tb.s[lo], tb.s[hi], tb.v[lo], tb.v[hi], tb.dv[lo], tb.dv[hi], h, x, &df) - sd
        if f > 0.0:
            b = x
        else:
            a = x
        if b - a <= 1e-15 * (1.0 + tb.t[hi]):
            break
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
    tb.aw = NULL


cdef void table_free(Table* tb) noexcept nogil:
    free(tb.t)
    free(tb.s)
    free(tb.v)
    free(tb.w)
    free(tb.dv)
    free(tb.dw)
    free(tb.aw)
    table_init(tb)


# ----------------------------------------------------------------------------------
# Fixed-step Dormand-Prince 5 (building the tables)
# ----------------------------------------------------------------------------------

ctypedef void (*ode_fn)(const LawParams* lp, const double* y, double* dy) noexcept nogil

cdef double DPA[6][5]
cdef double DPB[6]
DPA[1][0] = 1.0 / 5.0
DPA[2][0] = 3.0 / 40.0
DPA[2][1] = 9.0 / 40.0
DPA[3][0] = 44.0 / 45.0
DPA[3][1] = -56.0 / 15.0
DPA[3][2] = 32.0 / 9.0
DPA[4][0] = 19372.0 / 6561.0
DPA[4][1] = -25360.0 / 2187.0
DPA[4][2] = 64448.0 / 6561.0
DPA[4][3] = -212.0 / 729.0
DPA[5][0] = 9017.0 / 3168.0
DPA[5][1] = -355.0 / 33.0
DPA[5][2] = 46732.0 / 5247.0
DPA[5][3] = 49.0 / 176.0
DPA[5][4] = -5103.0 / 18656.0
DPB[0] = 35.0 / 384.0
DPB[1] = 0.0
DPB[2] = 500.0 / 1113.0
DPB[3] = 125.0 / 192.0
DPB[4] = -2187.0 / 6784.0
DPB[5] = 11.0 / 84.0


cdef void rk5(ode_fn f, const LawParams* lp, double* y, int n, double h) noexcept nogil:
    """One fifth-order Dormand-Prince step of the n <= 3 equations y' = f(y), in place."""
    cdef double k[6][3]
    cdef double z[3]
    cdef int st, q, c
    for st in range(6):
        for c in range(n):
            z[c] = y[c]
            for q in range(st):
                z[c] += h * DPA[st][q] * k[q][c]
        f(lp, z, k[st])
    for c in range(n):
        for q in range(6):
            y[c] += h * DPB[q] * k[q][c]


cdef inline double hermite_at(const double* y, const double* d, int k, double h, double x) noexcept nogil:
    return hermite(y[k], y[k + 1], d[k], d[k + 1], h, x)


cdef inline double hermite1(double y0, double y1, double d0, double d1, double t, double* dy) noexcept nogil:
    """The cubic Hermite piece on [0, 1] from (y0, slope d0) to (y1, slope d1) at t, and
    its slope dy there (power form)."""
    cdef double c2 = 3.0 * (y1 - y0) - 2.0 * d0 - d1, c3 = d0 + d1 - 2.0 * (y1 - y0)
    dy[0] = d0 + t * (2.0 * c2 + 3.0 * c3 * t)
    return y0 + t * (d0 + t * (c2 + t * c3))


# ----------------------------------------------------------------------------------
# Slide-spin: the universal trajectory on each side of eps* (module tables)
# ----------------------------------------------------------------------------------

DEF SS_LOG2N = 7           # table nodes per octave of r: 2^SS_LOG2N
DEF SS_N = 128            # 2^SS_LOG2N
DEF SS_FRAC = 45          # 52 - SS_LOG2N: mantissa bits of r within one cell
DEF SS_SUB = 4            # integrator substeps per node
DEF SS_D0 = 1e-9          # |eps - eps*| at the first node (r = 1)
DEF SS_EPS_HI = 1e7       # last node above eps*
DEF SS_EPS_LO = 1e-7      # last node below eps*
DEF SS_CAP = 40000
DEF SS_W = 9             # values per node: eps, a, q and their x-derivatives times the
                         # x-width of the cell to the right, then of the cell to the left
cdef double ss_eps          # attractor eps*: F(eps*) = 2 eps* T(eps*)
cdef double ss_F            # F(eps*)
cdef double ss_k            # growth rate of |eps - eps*| with x = ln r near the stop
cdef double ss_ca, ss_cq    # a = F* + ss_ca (eps - eps*), q = F*/2 + ss_cq (eps - eps*)
cdef int ss_n[2]            # nodes per side (0: eps > eps*, 1: eps < eps*)
cdef double ss_rlast[2]     # r at the last node of each side
cdef double ss_Plast[2]     # the distance-to-go key q r^2 there (ss_node_P)
cdef double* ss_tab[2]      # per side n nodes of SS_W values (one node's in one place)
# Coarse indices of the inverse look-ups: the bits of a positive key, read as an integer,
# are monotone in it and about 2^52 log2 of it; for keys increasing along the nodes, cell
# c = (bits - base) >> shift of an Index holds the node range [lo[c], hi[c]] that brackets
# every key of the cell. Keys: of eps, eps - eps* above and eps*/eps - 1 below (ss_eidx,
# segment starts; 256 cells per octave of the key, about one node each); of the distance
# to go, P = q r^2 (ss_pidx: the distance to go in units of the tables, mu g = 1, for the
# time at which a distance is reached; 64 cells per octave, one or two nodes each).
DEF SS_STEP_DONE = 1e-7   # Newton step (of a cell) after which an inversion on the tables has
                          # converged: the next would be below 1e-16 of the cell (y''/y' of
                          # the inverted pieces is below 0.02 per cell: 0.005 for eps, 2 dx
                          # for the distance to go)
cdef struct Index:
    int64_t base
    int shift            # 52 - log2(cells per octave of the key)
    int nc
    int* lo
    int* hi
cdef Index ss_eidx[2]
cdef Index ss_pidx[2]
cdef int64_t SS_ONE_BITS = (<int64_t> 1023) << 52   # the bits of 1.0
cdef double ss_dx[SS_N]     # x-width ln(1 + 1 / (SS_N + j)) of a cell starting at j = k mod SS_N
cdef double ss_idx[SS_N]    # 1 / ss_dx


cdef inline double ss_node_r(int k) noexcept nogil:
    """r at node k: 2^e (1 + j / SS_N) for k = e SS_N + j (the bits of r, read as an
    integer, are SS_ONE_BITS + k << SS_FRAC)."""
    cdef int64_t b = SS_ONE_BITS + ((<int64_t> k) << SS_FRAC)
    cdef double r
    memcpy(&r, &b, sizeof(double))
    return r


cdef void ss_rhs(const LawParams* lp, const double* y, double* dy) noexcept nogil:
    cdef double F, T
    farkas(y[0], &F, &T)
    dy[0] = y[0] * (F - 2.0 * y[0] * T) / y[1]
    dy[1] = F - y[1]
    dy[2] = y[1] - 2.0 * y[2]


cdef double ss_G(double e) noexcept nogil:
    cdef double F, T
    farkas(e, &F, &T)
    return F - 2.0 * e * T


cdef int ss_build() noexcept nogil:
    """Find eps*, linearise there and integrate both universal trajectories."""
    global ss_eps, ss_F, ss_k, ss_ca, ss_cq
    cdef double lo = 0.5, hi = 0.8, mid, F, T, Fp, Fm, dG, hs, d
    cdef double y[3]
    cdef double dy[3]
    cdef double* tb
    cdef double* keys
    cdef int side, n, it, c, j
    for it in range(200):
        mid = 0.5 * (lo + hi)
        if ss_G(mid) < 0.0:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-17:
            break
    ss_eps = 0.5 * (lo + hi)
    farkas(ss_eps, &F, &T)
    ss_F = F
    dG = (ss_G(ss_eps + 1e-5) - ss_G(ss_eps - 1e-5)) / 2e-5
    farkas(ss_eps + 1e-5, &Fp, &T)
    farkas(ss_eps - 1e-5, &Fm, &T)
    ss_k = ss_eps * dG / ss_F
    ss_ca = (Fp - Fm) / 2e-5 / (ss_k + 1.0)
    ss_cq = ss_ca / (ss_k + 2.0)
    for j in range(SS_N):
        ss_dx[j] = log1p(1.0 / (SS_N + j))
        ss_idx[j] = 1.0 / ss_dx[j]
    for side in range(2):
        tb = <double*> malloc(SS_W * SS_CAP * sizeof(double))
        if tb == NULL:
            return -1
        d = SS_D0 if side == 0 else -SS_D0
        y[0] = ss_eps + d
        y[1] = ss_F + ss_ca * d
        y[2] = 0.5 * ss_F + ss_cq * d
        n = 0
        while n < SS_CAP:
            ss_rhs(NULL, y, dy)
            j = n % SS_N
            for c in range(3):
                tb[SS_W * n + c] = y[c]
                tb[SS_W * n + 3 + c] = dy[c] * ss_dx[j]
                tb[SS_W * n + 6 + c] = dy[c] * ss_dx[(j + SS_N - 1) % SS_N]
            n += 1
            if (side == 0 and y[0] > SS_EPS_HI) or (side == 1 and y[0] < SS_EPS_LO):
                break
            hs = ss_dx[j] / SS_SUB
            for it in range(SS_SUB):
                rk5(ss_rhs, NULL, y, 3, hs)
        ss_n[side] = n
        ss_rlast[side] = ss_node_r(n - 1)
        ss_tab[side] = tb
        ss_Plast[side] = ss_node_P(side, n - 1)
        keys = <double*> malloc(n * sizeof(double))
        if keys == NULL:
            return -1
        for j in range(n):
            keys[j] = ss_ekey(side, tb[SS_W * j])
        c = index_build(&ss_eidx[side], keys, n, 44)
        for j in range(n):
            keys[j] = ss_node_P(side, j)
        c = min(c, index_build(&ss_pidx[side], keys, n, 46))
        free(keys)
        if c < 0:
            return -1
    return 0


cdef inline int64_t key_bits(double key) noexcept nogil:
    """The bits of a double, read as an integer (monotone in a positive key)."""
    cdef int64_t b
    memcpy(&b, &key, sizeof(double))
    return b


cdef inline double ss_ekey(int side, double e) noexcept nogil:
    """The index key of eps = e on one side (ss_eidx), increasing along the nodes."""
    return e - ss_eps if side == 0 else ss_eps / e - 1.0


cdef inline double ss_node_P(int side, int k) noexcept nogil:
    """The distance-to-go key P = q r^2 at node k of one side (ss_pidx)."""
    cdef double r = ss_node_r(k)
    return ss_tab[side][SS_W * k + 2] * r * r


cdef int index_build(Index* ix, const double* keys, int n, int shift) noexcept nogil:
    """Build the coarse index of n positive keys increasing along the nodes: nodes of a
    lower cell lie before every key of cell c and nodes of a higher cell after it, so the
    last node of a lower cell and the first of a higher one bracket the look-up; 0, or -1
    when out of memory."""
    cdef int k, c, nc
    ix.base = key_bits(keys[0])
    ix.shift = shift
    nc = <int> ((key_bits(keys[n - 1]) - ix.base) >> shift) + 1
    ix.nc = nc
    ix.lo = <int*> malloc(nc * sizeof(int))
    ix.hi = <int*> malloc(nc * sizeof(int))
    if ix.lo == NULL or ix.hi == NULL:
        return -1
    for c in range(nc):
        ix.lo[c] = 0
        ix.hi[c] = n - 1
    for k in range(n):
        c = <int> ((key_bits(keys[k]) - ix.base) >> shift)
        if c + 1 < nc and k > ix.lo[c + 1]:
            ix.lo[c + 1] = k
        if c > 0 and k < ix.hi[c - 1]:
            ix.hi[c - 1] = k
    for c in range(1, nc):      # a cell without nodes inherits the bracket of the one below
        if ix.lo[c] < ix.lo[c - 1]:
            ix.lo[c] = ix.lo[c - 1]
    for c in range(nc - 2, -1, -1):
        if ix.hi[c] > ix.hi[c + 1]:
            ix.hi[c] = ix.hi[c + 1]
    return 0


cdef inline void index_bracket(const Index* ix, double key, int* lo, int* hi) noexcept nogil:
    """Nodes lo < hi whose keys bracket key (those of the first or last cell outside)."""
    cdef int64_t c = (key_bits(key) - ix.base) >> ix.shift
    if c < 0:
        c = 0
    elif c >= ix.nc:
        c = ix.nc - 1
    lo[0] = ix.lo[c]
    hi[0] = ix.hi[c]


cdef inline void ss_piece(const double* tb, double t, double* eps, double* a, double* q) noexcept nogil:
    """eps, a, q on the cubic Hermite piece of the node at tb, at t in [0, 1] of its cell
    (in x = ln r)."""
    cdef double tm = 1.0 - t
    cdef double h10 = t * tm * tm, h11 = -t * t * tm, h01 = t * t * (3.0 - 2.0 * t)
    cdef double h00 = 1.0 - h01
    eps[0] = h00 * tb[0] + h01 * tb[SS_W] + h10 * tb[3] + h11 * tb[SS_W + 6]
    a[0] = h00 * tb[1] + h01 * tb[SS_W + 1] + h10 * tb[4] + h11 * tb[SS_W + 7]
    q[0] = h00 * tb[2] + h01 * tb[SS_W + 2] + h10 * tb[5] + h11 * tb[SS_W + 8]


cdef inline void ss_near(int side, double r, double* eps, double* a, double* q) noexcept nogil:
    """eps, a, q at r <= 1 (before the first node): the linearisation at eps*."""
    cdef double d = SS_D0 * exp(ss_k * log(r)) if r > 0.0 else 0.0
    if side:
        d = -d
    eps[0] = ss_eps + d
    a[0] = ss_F + ss_ca * d
    q[0] = 0.5 * ss_F + ss_cq * d


cdef void ss_ends(int side, double r, double* eps, double* a, double* q) noexcept nogil:
    """eps, a, q of the universal trajectory of one side beyond its nodes: the
    linearisation at eps* for r <= 1, the power-law asymptotes from the last node on
    (eps ~ r^(1/2), a -> 1, q -> 1/2 above; eps, a, q ~ r^(-1/4) below)."""
    cdef const double* tb = ss_tab[side] + SS_W * (ss_n[side] - 1)
    cdef double f
    if not (r > 1.0):
        ss_near(side, r, eps, a, q)
    elif side == 0:
        eps[0] = tb[0] * sqrt(r / ss_rlast[0])
        a[0] = tb[1]
        q[0] = tb[2]
    else:
        f = 1.0 / sqrt(sqrt(r / ss_rlast[1]))
        eps[0] = tb[0] * f
        a[0] = tb[1] * f
        q[0] = tb[2] * f


cdef inline void ss_at(int side, double r, double* eps, double* a, double* q) noexcept nogil:
    """eps, a, q of the universal trajectory of one side at the remaining time r (in units
    of the tables, mu g = 1). The node k and z = r / r_k - 1 are read off the bits of r;
    cubic Hermite in x = ln r, whose offset ln(1 + z) (z < 1/128) is a short series
    (``ss_ends`` beyond the nodes)."""
    cdef const double* tb = ss_tab[side]
    cdef int64_t b
    cdef int k, j
    cdef double d, z
    if not (r > 1.0 and r < ss_rlast[side]):
        ss_ends(side, r, eps, a, q)
        return
    memcpy(&b, &r, sizeof(double))
    b -= SS_ONE_BITS
    k = <int> (b >> SS_FRAC)
    j = k & (SS_N - 1)
    z = <double> (b & ((<int64_t> 1 << SS_FRAC) - 1)) * (1.0 / (<int64_t> 1 << SS_FRAC)) / (SS_N + j)
    # ln(1 + z) = 2 atanh(z / (2 + z)); the series to the 7th power is exact to 1e-20
    z = z / (2.0 + z)
    d = z * z
    ss_piece(tb + SS_W * k, 2.0 * z * (1.0 + d * (1.0 / 3.0 + d * (0.2 + d * (1.0 / 7.0)))) * ss_idx[j],
             eps, a, q)


cdef inline double hermite_guess(double y0, double y1, double d0, double d1, double h,
                                double target) noexcept nogil:
    """x in (0, h) near where the monotone cubic Hermite piece from (y0, slope d0) to (y1,
    slope d1) equals target: the cubic Hermite interpolant of the inverse piece (x(y), with
    slopes 1/d0 and 1/d1 at the ends), within O(h^4) of the root (on the slide-spin tables
    median 2e-10 h); the chord, or the middle, where that falls outside (0, h)."""
    cdef double m = (y1 - y0) / h, u = (target - y0) / (y1 - y0)
    cdef double x = h * (u + u * (1.0 - u) * ((1.0 - u) * (m / d0 - 1.0) - u * (m / d1 - 1.0)))
    if not (x > 0.0 and x < h):
        x = h * u
        if not (x > 0.0 and x < h):
            x = 0.5 * h
    return x


cdef inline double invert_hermite(double y0, double y1, double d0, double d1, double h, double target) noexcept nogil:
    """x in [0, h] where the monotone Hermite piece from (y0, slope d0) to (y1, slope d1)
    equals target (Newton in a bracket)."""
    cdef double lo = 0.0, hi = h, x, f, df
    cdef bint inc = y1 > y0
    cdef int it
    x = h * (target - y0) / (y1 - y0)
    if not (x > 0.0 and x < h):
        x = 0.5 * h
    for it in range(60):
        f = hermite(y0, y1, d0, d1, h, x) - target
        if fabs(f) <= 1e-16 * fabs(target):
            break
        if (f < 0.0) == inc:
            lo = x
        else:
            hi = x
        if hi - lo <= 1e-16 * h:
            break
        df = dhermite(y0, y1, d0, d1, h, x)
        if df != 0.0 and x - f / df > lo and x - f / df < hi:
            x = x - f / df
            if fabs(f) <= NEWTON_DONE * fabs(df) * h:
                break   # quadratic convergence: the next step would be below rounding
        else:
            x = 0.5 * (lo + hi)
    return x


cdef double ss_r_of(int side, double e, double* a, double* q) noexcept nogil:
    """The remaining time r of the universal trajectory of one side where eps = e, with a
    and q there (from the same Hermite piece). The coarse index and a bisection find the
    node; Newton on the piece from ``hermite_guess`` (one step, mostly) inverts it."""
    cdef const double* tb = ss_tab[side]
    cdef int n = ss_n[side], lo, hi, mid, it
    cdef double d = e - ss_eps, r, t, ee, f, df
    if side == 1:
        d = -d
    if d <= SS_D0:
        r = exp(log(d / SS_D0) / ss_k) if d > 0.0 else 0.0
    elif side == 0 and e >= tb[SS_W * (n - 1)]:
        r = e / tb[SS_W * (n - 1)]
        r = ss_rlast[0] * r * r
    elif side == 1 and e <= tb[SS_W * (n - 1)]:
        r = tb[SS_W * (n - 1)] / e
        r = ss_rlast[1] * (r * r) * (r * r)
    else:
        index_bracket(&ss_eidx[side], ss_ekey(side, e), &lo, &hi)
        while hi - lo > 1:
            mid = (lo + hi) >> 1
            if (tb[SS_W * mid] <= e) == (side == 0):
                lo = mid
            else:
                hi = mid
        tb += SS_W * lo
        # Newton on the piece from hermite_guess; a residual at rounding ends it where eps
        # is flat (near eps*, where r is fixed by eps only to that rounding)
        t = hermite_guess(tb[0], tb[SS_W], tb[3], tb[SS_W + 6], 1.0, e)
        for it in range(8):
            f = hermite1(tb[0], tb[SS_W], tb[3], tb[SS_W + 6], t, &df) - e
            if fabs(f) <= 1e-16 * e:
                break
            f /= df
            t -= f
            if fabs(f) <= SS_STEP_DONE:
                break
        ss_piece(tb, t, &ee, a, q)
        # r = r_lo e^d with e^d - 1 by its series (d < 1/128: exact to 1e-19)
        r = ss_node_r(lo)
        return r + r * expm1_small(ss_dx[lo & (SS_N - 1)] * t)
    ss_at(side, r, &ee, a, q)
    return r


cdef inline double expm1_small(double d) noexcept nogil:
    """e^d - 1 for |d| < 1/128, by its series (exact to 1e-19)."""
    return d * (1.0 + d * (0.5 + d * (1.0 / 6.0 + d * (1.0 / 24.0 + d * (1.0 / 120.0 + d * (
        1.0 / 720.0 + d * (1.0 / 5040.0)))))))


cdef double ss_r_of_P(int side, double P) noexcept nogil:
    """The remaining time r of the universal trajectory of one side where the distance to
    go in units of the tables, P = q r^2, has a given value; -1 beyond the nodes. The
    coarse index and a bisection find the node; in its cell, P(t) = q(t) r_k^2 e^(2 dx t)
    (q cubic Hermite, dP/dt = a r^2 dx at the nodes: q' = a - 2 q) is inverted by Newton
    from ``hermite_guess``: a step below SS_STEP_DONE of the cell leaves an error below
    1e-16 of it (P''/P' is about 2 dx there)."""
    cdef const double* tb = ss_tab[side]
    cdef int lo, hi, mid, it
    cdef double r0, r1, dx, t, e, e2, q, dq, step
    if not (P >= tb[2] and P < ss_Plast[side]):
        return -1.0
    index_bracket(&ss_pidx[side], P, &lo, &hi)
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if ss_node_P(side, mid) <= P:
            lo = mid
        else:
            hi = mid
    tb += SS_W * lo
    dx = ss_dx[lo & (SS_N - 1)]
    r0 = ss_node_r(lo)
    r1 = ss_node_r(lo + 1)
    t = hermite_guess(tb[2] * r0 * r0, tb[SS_W + 2] * r1 * r1, tb[1] * r0 * r0 * dx,
                      tb[SS_W + 1] * r1 * r1 * dx, 1.0, P)
    for it in range(8):
        e = expm1_small(dx * t)
        e2 = r0 * r0 * (1.0 + e) * (1.0 + e)
        q = hermite1(tb[2], tb[SS_W + 2], tb[5], tb[SS_W + 8], t, &dq)
        step = (q * e2 - P) / (e2 * (dq + 2.0 * dx * q))
        t -= step
        if fabs(step) <= SS_STEP_DONE:
            break
    # the last step is below SS_STEP_DONE (P rises through the cell, P'/P about 2 dx, from
    # within it): e^(dx (t - step)) = e^(dx t) (1 - dx step) to (dx step)^2 / 2 < 1e-19
    return r0 + r0 * (e - (1.0 + e) * dx * step)


if ss_build() < 0:
    raise MemoryError("carromlab: out of memory building the slide-spin tables")


# ----------------------------------------------------------------------------------
# Speed-only laws: V(rho) and D(rho) tables (one per CompiledLaw)
# ----------------------------------------------------------------------------------

DEF SP_H = 2.5e-4         # s, step of the remaining time
DEF SP_SUB = 2
DEF SP_VMAX = 25.0        # m/s
DEF SP_CAP = 262144


cdef inline double speed_f(const LawParams* lp, double v) noexcept nogil:
    return lp.g * mu_of_v(lp, v) + lp.drag * v * v


cdef void sp_rhs(const LawParams* lp, const double* y, double* dy) noexcept nogil:
    dy[0] = speed_f(lp, y[0])
    dy[1] = y[0]


cdef void sp_at(const LawParams* lp, double rho, double* v, double* d) noexcept nogil:
    cdef const double* V = lp.sp
    cdef const double* D = lp.sp + lp.n_sp
    cdef const double* fV = lp.sp + 2 * lp.n_sp
    cdef int k = <int> (rho / lp.h_sp)
    cdef double u
    if k > lp.n_sp - 2:
        k = lp.n_sp - 2
    if k < 0:
        k = 0
    u = rho - k * lp.h_sp
    v[0] = hermite_at(V, fV, k, lp.h_sp, u)
    d[0] = hermite_at(D, V, k, lp.h_sp, u)


cdef double sp_rho_of(const LawParams* lp, double v) noexcept nogil:
    """Remaining time (s) of a disc at speed v <= v_max."""
    cdef const double* V = lp.sp
    cdef const double* fV = lp.sp + 2 * lp.n_sp
    cdef int lo = 0, hi = lp.n_sp - 1, mid
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if V[mid] <= v:
            lo = mid
        else:
            hi = mid
    return lo * lp.h_sp + invert_hermite(V[lo], V[lo + 1], fV[lo], fV[lo + 1], lp.h_sp, v)


# ----------------------------------------------------------------------------------
# Segments
# ----------------------------------------------------------------------------------

cdef void seg_init(Seg* sg) noexcept nogil:
    sg.mode = SEG_REST
    sg.v0 = 0.0
    sg.w0 = 0.0
    sg.t_stop = 0.0
    sg.s_stop = 0.0
    sg.w_stop = 0.0
    sg.a_lo = 0.0
    sg.a_hi = 0.0
    sg.open = 0
    table_init(&sg.tb)


cdef void seg_free(Seg* sg) noexcept nogil:
    table_free(&sg.tb)


DEF DECEL_MARGIN = 1e-9  # relative widening of the deceleration bounds (table and rounding errors)


cdef void seg_bounds(const LawParams* lp, double R, Seg* sg) noexcept nogil:
    """Set sg.a_lo <= sg.a_hi, bounds (m/s^2) of the deceleration over the whole segment,
    for the contact solver of the engine. Exact for a constant deceleration. Slide-spin
    with constant mu: eps moves monotonically to eps* and F increases with eps, so the
    deceleration lies between its start value and mu g F(eps*). Speed-only laws: mu(v) is
    monotone in v and the drag grows with v. Integrated segments: [0, decel_bound]."""
    cdef double lo, hi, m0, m1, e
    if sg.mode == SEG_REST:
        lo = 0.0
        hi = 0.0
    elif sg.mode == SEG_COULOMB:
        lo = sg.a0
        hi = sg.a0
    elif sg.mode == SEG_SLIDE_SPIN:
        # F < 1, and F(eps) / eps falls from 1 to F* / eps* on [0, eps*]
        e = sg.v0 / (R * sg.w0)
        lo = lp.g * lp.mu * (ss_F if sg.side == 0 else ss_F * e / ss_eps)
        hi = lp.g * lp.mu * (1.0 if sg.side == 0 else ss_F)
    elif sg.mode == SEG_SPEED:
        m0 = mu_of_v(lp, 0.0)
        m1 = mu_of_v(lp, sg.v0)
        lo = lp.g * min(m0, m1)
        hi = lp.g * max(m0, m1) + lp.drag * sg.v0 * sg.v0
    else:
        lo = 0.0
        hi = decel_bound(lp, sg.v0)
    sg.a_lo = lo * (1.0 - DECEL_MARGIN)
    sg.a_hi = hi * (1.0 + DECEL_MARGIN)


cdef inline double ss_node_F(int side, int k) noexcept nogil:
    """F at node k of one side: a + da/dx there (a' = F - a)."""
    cdef const double* tb = ss_tab[side] + SS_W * k
    return tb[1] + tb[4] * ss_idx[k & (SS_N - 1)]


cdef inline double ss_F_end(int side, double r, int up) noexcept nogil:
    """A value of F at a node beyond r along the universal trajectory of one side (towards
    larger r if up, else smaller; F is monotone along it): F* below the first node, 1 (or
    -1: none) beyond the last."""
    cdef int64_t b
    cdef int k
    if not (r > 1.0):
        return ss_node_F(side, 0) if up else ss_F
    if r >= ss_rlast[side]:
        if not up:
            return ss_node_F(side, ss_n[side] - 1)
        return 1.0 if side == 0 else -1.0
    memcpy(&b, &r, sizeof(double))
    k = <int> ((b - SS_ONE_BITS) >> SS_FRAC)
    return ss_node_F(side, k + 1 if up else k)


cdef void seg_decel_range(const LawParams* lp, double R, const Seg* sg, double tau_a, double tau_b,
                          double* lo, double* hi) noexcept nogil:
    """Bounds lo <= hi (m/s^2) of the deceleration from tau_a to tau_b (s, tau_a <= tau_b)
    into a segment: those of the whole segment (seg_bounds), narrowed on the universal
    slide-spin tables, where F moves monotonically along the trajectory and so lies between
    its values at the nodes enclosing the two ends (exact to the tables' error)."""
    cdef double ra, rb, fa, fb
    lo[0] = sg.a_lo
    hi[0] = sg.a_hi
    if sg.mode != SEG_SLIDE_SPIN:
        return
    ra = sg.rs * (sg.t_stop - tau_a)
    rb = sg.rs * (sg.t_stop - tau_b)
    fa = ss_F_end(sg.side, ra, 1)
    fb = ss_F_end(sg.side, rb, 0)
    if fa < 0.0:
        return
    if fb > fa:
        fa, fb = fb, fa
    fa *= lp.g * lp.mu * (1.0 + DECEL_MARGIN)
    fb *= lp.g * lp.mu * (1.0 - DECEL_MARGIN)
    if fb > lo[0]:
        lo[0] = fb
    if fa < hi[0]:
        hi[0] = fa


cdef int seg_start(const LawParams* lp, double R, double v0, double w0, Seg* sg) noexcept nogil:
    """Start a segment at speed v0 (m/s) and spin magnitude w0 (rad/s); 0, or -1 when out
    of memory."""
    cdef double gm = lp.g * lp.mu, e
    sg.v0 = v0
    sg.w0 = w0
    sg.w_stop = w0
    sg.t_stop = 0.0
    sg.s_stop = 0.0
    sg.open = 0
    if v0 <= 0.0:
        sg.mode = SEG_REST
        seg_bounds(lp, R, sg)
        return 0
    if lp.kind == KIND_COULOMB or lp.kind == KIND_SLIDE_SPIN:
        sg.mode = closed_start(lp, R, v0, w0, &sg.side, &sg.rs, &sg.t_stop, &sg.s_stop)
        sg.a0 = gm
        sg.w_stop = 0.0 if lp.slide_spin else w0 - spin_decel(lp, R) * sg.t_stop
    elif lp.kind == KIND_SPEED and v0 <= lp.v_max:
        sg.mode = SEG_SPEED
        sg.t_stop = sp_rho_of(lp, v0)
        sp_at(lp, sg.t_stop, &e, &sg.s_stop)
        sg.w_stop = w0 - spin_decel(lp, R) * sg.t_stop
    else:
        sg.mode = SEG_INTEGRATED
        if integrate(lp, R, v0, w0, &sg.tb) < 0:
            return -1
        seg_from_table(sg)
    if sg.w_stop < 0.0:
        sg.w_stop = 0.0
    seg_bounds(lp, R, sg)
    return 0


cdef inline void seg_from_table(Seg* sg) noexcept nogil:
    sg.open = sg.tb.open
    sg.t_stop = sg.tb.t_stop
    sg.s_stop = sg.tb.s_stop
    sg.w_stop = sg.tb.w_stop if sg.tb.w_stop > 0.0 else 0.0


cdef int seg_extend(const LawParams* lp, double R, Seg* sg) noexcept nogil:
    """Integrate an open segment further (its next chunk of steps, or to the stop): the
    motion up to the old horizon is unchanged; 0, or -1 when out of memory."""
    if not sg.open:
        return 0
    if extend(lp, R, &sg.tb) < 0:
        return -1
    seg_from_table(sg)
    return 0


cdef int seg_full(const LawParams* lp, double R, double v0, double w0, Seg* sg) noexcept nogil:
    """seg_start integrated to the stop (the Python access below)."""
    if seg_start(lp, R, v0, w0, sg) < 0:
        return -1
    while sg.open:
        if seg_extend(lp, R, sg) < 0:
            return -1
    return 0


cdef inline void seg_rho(const LawParams* lp, double R, const Seg* sg, double rho,
                         double* rem, double* v, double* eps) noexcept nogil:
    """Distance to go (m), speed (m/s) and eps at remaining time rho (s), for the closed
    form and tabulated modes."""
    cdef double gm = lp.g * lp.mu, a, q
    if sg.mode == SEG_COULOMB:
        v[0] = sg.a0 * rho
        rem[0] = 0.5 * sg.a0 * rho * rho
    elif sg.mode == SEG_SLIDE_SPIN:
        ss_at(sg.side, sg.rs * rho, eps, &a, &q)
        v[0] = gm * a * rho
        rem[0] = gm * q * rho * rho
    else:
        sp_at(lp, rho, v, rem)


cdef void seg_eval(const LawParams* lp, double R, const Seg* sg, double tau,
                   double* sd, double* v, double* w) noexcept nogil:
    """Distance slid (m), speed (m/s) and spin magnitude (rad/s) at tau (s) into the segment."""
    cdef double rem, eps = 0.0, ww, rho, a, q
    if tau <= 0.0:
        sd[0] = 0.0
        v[0] = sg.v0
        w[0] = sg.w0
        return
    if sg.mode == SEG_SLIDE_SPIN and tau < sg.t_stop:
        rho = sg.t_stop - tau
        ss_at(sg.side, sg.rs * rho, &eps, &a, &q)
        v[0] = lp.g * lp.mu * a * rho
        rem = lp.g * lp.mu * q * rho * rho
        sd[0] = sg.s_stop - rem if rem < sg.s_stop else 0.0
        w[0] = v[0] / (R * eps)
        return
    if tau >= sg.t_stop and not sg.open:
        sd[0] = sg.s_stop
        v[0] = 0.0
        ww = sg.w_stop - spin_decel(lp, R) * (tau - sg.t_stop)
        w[0] = ww if ww > 0.0 else 0.0
        return
    cdef Seg tl
    if sg.mode == SEG_INTEGRATED and sg.tb.tail != SEG_REST and tau > sg.tb.t[sg.tb.n - 1]:
        tail_seg(&sg.tb, &tl)
        seg_eval(lp, R, &tl, tau - sg.tb.t[sg.tb.n - 1], sd, v, w)
        sd[0] += sg.tb.s[sg.tb.n - 1]
        if not lp.slide_spin:
            ww = sg.w0 - spin_decel(lp, R) * tau
            w[0] = ww if ww > 0.0 else 0.0
        return
    if sg.mode == SEG_INTEGRATED:
        evaluate(lp, R, &sg.tb, tau, sd, v, w)
        if not lp.slide_spin:
            ww = sg.w0 - spin_decel(lp, R) * tau
            w[0] = ww if ww > 0.0 else 0.0
        return
    seg_rho(lp, R, sg, sg.t_stop - tau, &rem, v, &eps)
    sd[0] = sg.s_stop - rem
    if sd[0] < 0.0:
        sd[0] = 0.0
    if lp.slide_spin:
        w[0] = 0.0
    else:
        ww = sg.w0 - spin_decel(lp, R) * tau
        w[0] = ww if ww > 0.0 else 0.0


cdef double seg_time_at(const LawParams* lp, double R, const Seg* sg, double sd) noexcept nogil:
    """Time (s) into the segment at which the disc has slid sd (m); the stop time if never.
    On the slide-spin tables the inverse look-up of the distance to go (``ss_r_of_P``),
    else Newton on sqrt(distance to go) in the remaining time, kept in a bracket."""
    cdef double target, lo = 0.0, hi, rho, rem, v, eps, f, df, r
    cdef int it
    if sd <= 0.0:
        return 0.0
    if sd >= sg.s_stop:
        return sg.t_stop
    cdef Seg tl
    if sg.mode == SEG_INTEGRATED and sg.tb.tail != SEG_REST and sd > sg.tb.s[sg.tb.n - 1]:
        tail_seg(&sg.tb, &tl)
        return sg.tb.t[sg.tb.n - 1] + seg_time_at(lp, R, &tl, sd - sg.tb.s[sg.tb.n - 1])
    if sg.mode == SEG_INTEGRATED:
        return time_at_distance(&sg.tb, sd)
    if sg.mode == SEG_SLIDE_SPIN:
        r = ss_r_of_P(sg.side, (sg.s_stop - sd) * sg.rs * sg.rs / (lp.g * lp.mu))
        if r > 0.0:
            # never before the start: a distance of a rounding error there (a touching
            # partner) maps to 0 exactly, as for the other modes (bracketed in [0, t_stop])
            rho = r / sg.rs
            return sg.t_stop - rho if rho < sg.t_stop else 0.0
    target = sqrt(sg.s_stop - sd)
    hi = sg.t_stop
    if sg.mode == SEG_COULOMB:
        return sg.t_stop - target * sqrt(2.0 / sg.a0)
    rho = sg.t_stop * target / sqrt(sg.s_stop)
    for it in range(60):
        seg_rho(lp, R, sg, rho, &rem, &v, &eps)
        r = sqrt(rem) if rem > 0.0 else 0.0
        f = r - target
        if fabs(f) <= 1e-16 * target:
            break
        if f < 0.0:
            lo = rho
        else:
            hi = rho
        if hi - lo <= 2e-16 * sg.t_stop:
            break
        df = 0.5 * v / r if r > 0.0 else 0.0
        if df > 0.0 and rho - f / df > lo and rho - f / df < hi:
            rho = rho - f / df
            if fabs(f) <= NEWTON_DONE * df * rho:
                break   # quadratic convergence: the next step would be below rounding
        else:
            rho = 0.5 * (lo + hi)
    return sg.t_stop - rho


# ----------------------------------------------------------------------------------
# Compiled laws (one per parameter set, cached) and Python access for tests and fitting
# ----------------------------------------------------------------------------------

cdef class CompiledLaw:
    """The compiled kinematics of one friction law and parameter set (with its speed
    table when the law has one)."""

    def __init__(self, dict law):
        cdef LawParams* lp = &self.lp
        cdef double y[2]
        cdef double hs = SP_H / SP_SUB
        cdef double* buf
        cdef int n = 0, it
        lp.numeric = law["numeric"]
        lp.slide_spin = law["slide_spin"]
        lp.mu_kind = law["mu_kind"]
        lp.g = law["g"]
        lp.mu = law["mu"]
        lp.mu_v = law["mu_v"]
        lp.mu_s = law["mu_s"]
        lp.v_s = law["v_s"]
        lp.drag = law["drag"]
        lp.n_sp = 0
        lp.h_sp = SP_H
        lp.v_max = 0.0
        lp.sp = NULL
        if not lp.numeric:
            lp.kind = KIND_COULOMB
        elif lp.slide_spin:
            lp.kind = KIND_SLIDE_SPIN if lp.mu_kind == MU_CONSTANT and lp.drag == 0.0 else KIND_INTEGRATED
        else:
            lp.kind = KIND_SPEED
        if lp.kind != KIND_SPEED:
            return
        import numpy as np
        full = np.empty((3, SP_CAP))
        self.buf = full.ravel()
        buf = &self.buf[0]
        y[0] = 0.0
        y[1] = 0.0
        with nogil:
            while n < SP_CAP:
                buf[n] = y[0]
                buf[SP_CAP + n] = y[1]
                buf[2 * SP_CAP + n] = speed_f(lp, y[0])
                n += 1
                if y[0] >= SP_VMAX:
                    break
                for it in range(SP_SUB):
                    rk5(sp_rhs, lp, y, 2, hs)
        self.buf = np.ascontiguousarray(full[:, :n]).ravel()
        lp.n_sp = n
        lp.v_max = self.buf[n - 1]
        lp.sp = &self.buf[0]

    @property
    def speed_table(self):
        """(remaining time s, speed m/s, distance to go m) at the nodes of the speed table,
        or None for a law without one."""
        import numpy as np
        if self.lp.n_sp == 0:
            return None
        b = np.asarray(self.buf).reshape(3, -1)
        return np.arange(self.lp.n_sp) * self.lp.h_sp, b[0].copy(), b[1].copy()


_CACHE: dict = {}


def compiled_law(dict law):
    """The :class:`CompiledLaw` of ``law`` (keys: numeric, slide_spin, mu_kind, g, mu, mu_v,
    mu_s, v_s, drag), built once per parameter set and cached."""
    key = tuple(sorted(law.items()))
    got = _CACHE.get(key)
    if got is None:
        if len(_CACHE) >= 64:
            _CACHE.clear()
        got = _CACHE[key] = CompiledLaw(law)
    return got


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


def farkas_table_FT(double[::1] eps):
    """F(eps), T(eps) and dT/deps of the integrated segments' pieces (``farkas_tab``)."""
    import numpy as np
    out = np.empty((3, eps.shape[0]))
    cdef double f, t, dt
    cdef Py_ssize_t i
    for i in range(eps.shape[0]):
        farkas_tab(eps[i], &f, &t, &dt)
        out[0, i] = f
        out[1, i] = t
        out[2, i] = dt
    return out


def slide_spin_constants():
    """eps*, F(eps*), the near-stop growth rate k of |eps - eps*| per unit ln(rho), and the
    number of table nodes above and below eps*."""
    return {"eps_star": ss_eps, "F_star": ss_F, "k": ss_k, "nodes_above": ss_n[0], "nodes_below": ss_n[1]}


def kinematics(dict law, double radius, double v0, double w0, double[::1] tau):
    """Distance (m), speed (m/s) and spin magnitude (rad/s) at times tau (s) of a disc
    starting at speed v0 and spin magnitude w0, under the law described by ``law``
    (see :func:`compiled_law`). Also returns the stop time (s) and the segment mode
    (0 rest, 1 closed form, 2 slide-spin table, 3 speed table, 4 integrated)."""
    import numpy as np
    cdef CompiledLaw cl = compiled_law(law)
    cdef Seg sg
    cdef Py_ssize_t i
    cdef double a, b, c
    seg_init(&sg)
    s_out = np.empty(tau.shape[0])
    v_out = np.empty(tau.shape[0])
    w_out = np.empty(tau.shape[0])
    try:
        if seg_full(&cl.lp, radius, v0, w0, &sg) < 0:
            raise MemoryError("carromlab: out of memory integrating a segment")
        for i in range(tau.shape[0]):
            seg_eval(&cl.lp, radius, &sg, tau[i], &a, &b, &c)
            s_out[i] = a
            v_out[i] = b
            w_out[i] = c
        return s_out, v_out, w_out, sg.t_stop, sg.mode
    finally:
        seg_free(&sg)


def time_at(dict law, double radius, double v0, double w0, double[::1] sd):
    """Times (s) at which a disc starting at (v0, w0) has slid the distances sd (m)."""
    import numpy as np
    cdef CompiledLaw cl = compiled_law(law)
    cdef Seg sg
    cdef Py_ssize_t i
    seg_init(&sg)
    out = np.empty(sd.shape[0])
    try:
        if seg_full(&cl.lp, radius, v0, w0, &sg) < 0:
            raise MemoryError("carromlab: out of memory integrating a segment")
        for i in range(sd.shape[0]):
            out[i] = seg_time_at(&cl.lp, radius, &sg, sd[i])
        return out
    finally:
        seg_free(&sg)


def slide_spin_universal(int side, double[::1] x):
    """eps, a = v / (mu g rho) and q = (distance to go) / (mu g rho^2) of the universal
    slide-spin trajectory above (side 0) or below (side 1) eps*, at x = ln(mu g rho) for
    rho the remaining time; and the inverse look-up x(eps) of the returned eps."""
    import numpy as np
    out = np.empty((4, x.shape[0]))
    cdef double e, a, q, ai, qi
    cdef Py_ssize_t i
    for i in range(x.shape[0]):
        ss_at(side, exp(x[i]), &e, &a, &q)
        out[0, i] = e
        out[1, i] = a
        out[2, i] = q
        out[3, i] = log(ss_r_of(side, e, &ai, &qi))
    return out


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
* slide-spin with drag (no universal form), and speeds above a speed table: variation of
  constants (the osculating elements of celestial mechanics: Brouwer & Clemence, Methods
  of Celestial Mechanics, Academic Press 1961, ch. XI). Without the perturbation of dv/dt (-drag v^2; or g (mu - mu(v)) - drag v^2 on
  the constant deceleration g mu of a speed-only law or a slide without spin) the motion
  is the drag-free one, fixed by three constants y: its stop time theta, its stop
  distance and sigma = +-SS_D0 rs^k (+ above eps*, - below; k = ss_k), smooth where the
  drag pushes eps across eps* (rs = r / rho, and |eps - eps*| = |sigma| rho^k near eps*).
  The drag moves them (``knot_rates``): per second theta by -K rho^2 P1, the stop distance
  by -K g mu rho^3 P2 and sigma by -K k rho sigma P3 (K = drag g mu), where the drag
  factors P1 = A (A - u) / G, P2 = A (A^2 - 2 Q u) / G, P3 = A u / G (u = 2 eps T,
  G = F - u, A, Q the a, q above) are functions of the position r on the universal
  trajectory, tabulated on its nodes (``ps_factors``, ``ps_at``). The constants are
  integrated with Dormand-Prince 5(4) (Dormand & Prince, J. Comput. Appl. Math. 6, 19,
  1980; ``dp_step``), each step's error estimate measured as
  the errors it puts into the distance and the rim speed (``extend``), and stored at
  knots with their first and second time derivatives: between knots the constants are
  quintic Hermite interpolants, the state (distance, speed, spin) that of the drag-free
  trajectory of the interpolated constants (error below 2e-8 m and 5e-8 m/s). Integrated
  lazily (one step, then 2, 4, ... more when the engine reaches the last knot:
  ``seg_extend``). Once the drag's third-order effect on the rest of the motion is below
  3e-10 m (``table_done``) the integration ends on the first two: the rates integrated
  along the last knot's drag-free trajectory, and for theta and the stop distance the
  first-order drift's change of the rates integrated along it too, closed forms in
  tabulated integrals of the drag factors (``js_at``, ``ns_at``, ``tail_state``; of first
  order only, and ending at the second order's criterion, within TAIL_EPS of eps*); a
  speed-only law ends on its speed table. The distance slid is not the stop distance less the distance to go (for a
  fast disc with drag the drag-free stop is tens of metres away, and their difference
  carries its rounding, 7e-15 m, into a touching pack's contacts): within TAYLOR_DT of the
  reference stop time after a knot it is the knot's Taylor polynomial (``near_knot``);
  within TOGO_DR of the remaining time, the knot's distance plus the change of the stop
  distance less that of the distance to go, computed from the changes of the constants
  (``togo_change``); beyond, the distance to go is differenced directly; each knot's
  distance accumulates the step's unrounded change.
"""

from libc.math cimport sqrt, fabs, exp, expm1, log, log1p, cos, M_PI, INFINITY
from libc.stdlib cimport malloc, realloc, free
from libc.stdint cimport int64_t
from libc.string cimport memcpy

DEF RTOL = 1e-9          # per step: error of the distance (see extend) / (distance slid + to go)
DEF ATOL_S = 1e-13       # m
DEF RTOL_T = 1e-9        # per step: error of the stop time theta / theta
DEF RTOL_W = 3e-8        # per step: error of the spin / spin
DEF ATOL_W = 3e-7        # rad/s (R ATOL_W = 5e-9 m/s: the spin near the stop is held to a rim speed, not to a
                         # fraction of a vanishing w)
DEF MAX_STEPS = 100000
DEF TAIL_S = 3e-10       # m, the drag's effect beyond the tail's order below which a segment ends on it
DEF TAIL_T = 2e-9        # and on the stop time, relative, below which it may (``table_done``)
DEF PS_NEAR_EPS = 1e-5   # |eps - eps*| below which the x-derivatives of the drag factors are the linearisation's
DEF TAIL_EPS = 1e-3      # |eps - eps*| at the end below which the tail is of first order (``ss_r2``)
DEF NEWTON_DONE = 1e-9   # relative Newton step after which a table inversion has converged
DEF NEWTON_NEAR = 1e-7   # (``time_at_distance``: or after which its next step is below rounding)
DEF CHUNK0 = 1           # accepted steps of an integrated segment's first chunk (then doubling)
DEF SAFETY = 0.8         # step-size controller: h *= SAFETY err^(-1/5), within [0.2, 5]
# First step of a segment with a speed-dependent mu or a strong drag: H_FIRST of the shorter
# of its drag-free time to stop rho and the drag's 1 / (drag v0). The first chunk is one
# step, so its end is the segment's first horizon (an EV_HORIZON of the engine, which
# re-predicts the disc): a longer first step puts that horizon beyond more of the segments
# that end earlier (callgrind, slide-spin with drag 0.03 1/m, 100 varied ICF breaks:
# 1,470,737 instructions per break at 0.05 rho, 1,380,704 at 0.2; 91 and 69 horizons per
# break). A step of 0.1 rho or more where drag v0 rho greatly exceeds 1 (mu 1e-6, drag 1 1/m,
# v0 2 mm/s, w0 564 rad/s) passed the error estimate and put the stop time 1.2e-6 of itself
# off; the drag's time scale keeps it 4e-14 (and 0.02 of it put the distance 7e-8 m off
# between knots at mu 1e-6, drag 0.59 1/m, v0 0.59 m/s, w0 0.59 rad/s).
DEF H_FIRST = 0.2
# With a constant mu (``first_step``) the error estimate of a first step grows as h^5 and,
# with the drag's strength dvr = drag v0 rho, as (dvr (1 + DVR_GROW dvr))^2, beyond dvr = 1
# by a further dvr (18,579 first steps of 200 varied ICF breaks, slide-spin with drag
# 0.03 1/m: at H_DRAG the log10 of the estimate -0.2 +- 0.1 from dvr = 0.003 to 3); and it is
# larger where the slide starts near eps = 1, whose (eps - 1) ln|eps - 1| in F and T the
# steps resolve slowly (NEAR_*; at the full step 86 % of the first steps from eps 0.79 to
# 1 were rejected, 33 % from 1.26 to 2). Until 2026-12-07 the step was 0.035 rho dvr^(-2/5),
# and 0.2 / (drag v0) beyond dvr = 1: 17 % of the first tries were rejected (every one
# beyond dvr = 0.3, those beyond dvr = 1 twice), 7 % now.
DEF H_DRAG = 0.045       # h = H_DRAG rho (dvr (1 + DVR_GROW dvr))^(-2/5) (times dvr^(-1/5) beyond dvr = 1),
DEF DVR_GROW = 5.0
DEF FIRST_CAP = 0.4      # at most FIRST_CAP rho (GUARD rho below dvr = DVR_WEAK)
DEF NEAR_LO = 0.79       # and NEAR_BELOW of it from eps NEAR_LO to 1, NEAR_ABOVE from 1 to NEAR_HI
DEF NEAR_HI = 2.0
DEF NEAR_BELOW = 0.72
DEF NEAR_ABOVE = 0.89
DEF DVR_WEAK = 1e-3
DEF GUARD = 0.5
DEF BAND = 0.05          # |eps - 1| within which steps count their error estimate CROSS_TIGHT times
DEF CROSS_TIGHT = 10.0
DEF DRAG_S = 10.0        # drag v^2 / (g mu F) at a knot beyond which the next step integrates the distance slid
DEF TOGO_DR = 0.03125     # relative change of the remaining time from a knot beyond which the distance to go
                         # is differenced directly (``togo_change``)
DEF TAYLOR_DT = 1e-6     # time after a knot / its reference time to stop within which the distance is its
                         # Taylor polynomial (``near_knot``)


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


cdef double decel(const LawParams* lp, double R, double v, double w) noexcept nogil:
    """Current sliding deceleration (m/s^2) at speed v (m/s) and spin magnitude w (rad/s)."""
    cdef double F = 1.0, T
    if v <= 0.0:
        return 0.0
    if lp.slide_spin and w > 0.0:
        farkas(v / (R * w), &F, &T)
    return lp.g * mu_of_v(lp, v) * F + lp.drag * v * v


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
DEF PS_W = 12           # values per cell of ps_cf: the cubic coefficients in t of P1, P2, P3
cdef double ps_end[2][2][3]  # per side P1, P2, P3 at the first and the last node
cdef double ps_rnear         # r of |eps - eps*| = PS_NEAR_EPS (linearisation): below it ``ps_near_d``
cdef double ps_slope[2]      # dP1/d eps, dP2/d eps at eps* (across both sides' nodes at ps_rnear)
cdef double ps_lim[2]        # per side the limit of P3 + P3' / k at eps*
cdef double* ps_cf[2]       # per side and cell (nodes k, k + 1) the drag factors P1, P2, P3 (``ps_factors``):
                            # the cubic Hermite pieces in t of the cell (as ss_piece), as power series
cdef double* js_tab[2]      # per side their integrals J1, J2, J3 (``js_at``) at the same nodes, as ss_tab
cdef double* ns_tab[2]      # per side the second-order integrals N1, N2 (``ns_build``) at the same nodes, as ss_tab
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
cdef double ss_inv[SS_N]    # 1 / (SS_N + j)


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
    """Find eps*, linearise there and integrate both universal trajectories; tabulate
    their drag factors."""
    global ss_eps, ss_F, ss_k, ss_ca, ss_cq, ss_r2, ps_rnear
    cdef double lo = 0.5, hi = 0.8, mid, F, T, Fp, Fm, dG, hs, d
    cdef double y[3]
    cdef double dy[3]
    cdef double dP[3]
    cdef double* tb
    cdef double* keys
    cdef int side, n, it, c, j, k
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
        ss_inv[j] = 1.0 / (SS_N + j)
    rs_b[0] = 1.0
    ss_r2 = exp(log(TAIL_EPS / SS_D0) / ss_k)
    for j in range(1, 8):
        rs_b[j] = rs_b[j - 1] * (1.0 / ss_k - (j - 1)) / j
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
        ps_cf[side] = <double*> malloc(PS_W * (n - 1) * sizeof(double))
        if ps_cf[side] == NULL:
            return -1
        for k in range(n):
            ss_rhs(NULL, ss_tab[side] + SS_W * k, dy)
            ps_factors(ss_tab[side] + SS_W * k, dy, y, dP)
            for c in range(3):
                # the cubic through (P, dP/dx dx) at the cell's ends: y0 + m0 t + A t^2 + B t^3
                if k > 0:
                    hs = 1.0 / (SS_N + 1 + ((k - 1) & (SS_N - 1)))
                    ps_cf[side][PS_W * (k - 1) + 4 * c + 2] += 3.0 * y[c] - hs * dP[c]
                    ps_cf[side][PS_W * (k - 1) + 4 * c + 3] += -2.0 * y[c] + hs * dP[c]
                if k < n - 1:
                    hs = ss_inv[k & (SS_N - 1)]
                    ps_cf[side][PS_W * k + 4 * c] = y[c]
                    ps_cf[side][PS_W * k + 4 * c + 1] = hs * dP[c]
                    ps_cf[side][PS_W * k + 4 * c + 2] = -3.0 * y[c] - 2.0 * hs * dP[c]
                    ps_cf[side][PS_W * k + 4 * c + 3] = 2.0 * y[c] + hs * dP[c]
        for c in range(3):
            ps_end[side][0][c] = ps_node(side, 0, c)
            ps_end[side][1][c] = ps_node(side, n - 1, c)
        if js_build(side) < 0 or ns_build(side) < 0:
            return -1
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
    # the drag factors' slopes at eps*: the difference across the two sides' nodes at ps_rnear
    # (|eps - eps*| about PS_NEAR_EPS: their rounding, about 2e-15 / |eps - eps*|, is 1e-5 of it)
    ps_rnear = exp(log(PS_NEAR_EPS / SS_D0) / ss_k)
    k = ss_locate(ps_rnear, &d)
    for c in range(2):
        ps_slope[c] = (ps_node(0, k, c) - ps_node(1, k, c)) / (ss_tab[0][SS_W * k] - ss_tab[1][SS_W * k])
    for side in range(2):
        ps_lim[side] = ps_cf[side][PS_W * k + 8] + ps_cf[side][PS_W * k + 9] * (SS_N + (k & (SS_N - 1))) / ss_k
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


cdef inline double ss_far(int side, double r) noexcept nogil:
    """Beyond the last node of one side, at the remaining time r (units of the tables), the
    factor of the quantities that fall as r^(-1/4) below eps* (eps, a, q and the drag
    factors and integrals built on them): (r / r_last)^(-1/4) on side 1, 1 on side 0."""
    return 1.0 if side == 0 else 1.0 / sqrt(sqrt(r / ss_rlast[1]))


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
        f = ss_far(1, r)
        eps[0] = tb[0] * f
        a[0] = tb[1] * f
        q[0] = tb[2] * f


cdef inline int ss_locate(double r, double* t) noexcept nogil:
    """The node k with r_k <= r < r_k+1 of a remaining time 1 < r (in units of the tables),
    and t in [0, 1), the offset of r in its cell in x = ln r. k and z = r / r_k - 1 are read
    off the bits of r; ln(1 + z) (z < 1/128) is a short series."""
    cdef int64_t b
    cdef int k, j
    cdef double d, z
    memcpy(&b, &r, sizeof(double))
    b -= SS_ONE_BITS
    k = <int> (b >> SS_FRAC)
    j = k & (SS_N - 1)
    z = <double> (b & ((<int64_t> 1 << SS_FRAC) - 1)) * ((1.0 / (<int64_t> 1 << SS_FRAC)) * ss_inv[j])
    # ln(1 + z) = 2 atanh(z / (2 + z)); the series to the 5th power is exact to 1e-17
    z = z / (2.0 + z)
    d = z * z
    t[0] = 2.0 * z * (1.0 + d * (1.0 / 3.0 + d * 0.2)) * ss_idx[j]
    return k


cdef inline void ss_at(int side, double r, double* eps, double* a, double* q) noexcept nogil:
    """eps, a, q of the universal trajectory of one side at the remaining time r (in units
    of the tables, mu g = 1): cubic Hermite in x = ln r (``ss_locate``; ``ss_ends`` beyond
    the nodes)."""
    cdef double t
    cdef int k
    if not (r > 1.0 and r < ss_rlast[side]):
        ss_ends(side, r, eps, a, q)
        return
    k = ss_locate(r, &t)
    ss_piece(ss_tab[side] + SS_W * k, t, eps, a, q)


cdef inline double ps_node(int side, int k, int c) noexcept nogil:
    """The drag factor P1, P2 or P3 (c = 0, 1, 2) at node k of one side."""
    cdef const double* cf
    if k < ss_n[side] - 1:
        return ps_cf[side][PS_W * k + 4 * c]
    cf = ps_cf[side] + PS_W * (k - 1) + 4 * c
    return cf[0] + cf[1] + cf[2] + cf[3]


cdef void ps_near_d(int side, double r, double sig, const double* p, double* px) noexcept nogil:
    """px of ``ps_at`` within PS_NEAR_EPS of eps* (r below ps_rnear), from the linearisation:
    P1' = k (eps - eps*) dP1/d eps (likewise P2), P3 (eps - eps*) = F* eps* / k, P3 + P3' / k
    its limit at eps*. The tables' P1, P2 carry there a rounding of about 2e-15 / |eps - eps*|
    (G = F - 2 eps T vanishes at eps*), and their x-derivatives, times the rate of x = ln r
    (about the drift of eps over k |eps - eps*|, 1e7 /s where the drag pushes eps across eps*),
    made a knot's second derivatives of the constants, hence the quintic between knots, wrong
    (0.13 m on the distance at mu 0.05, drag 0.05 1/m, v0 4 m/s, eps0 1e-8 above eps*)."""
    cdef double e = ss_k * SS_D0 * exp(ss_k * log(r)) if r > 0.0 else 0.0, p3e = ss_F * ss_eps
    if side:
        e = -e
    px[0] = ps_slope[0] * e
    px[1] = ps_slope[1] * e
    px[2] = ps_slope[0] * p3e
    px[3] = ps_slope[1] * p3e
    px[5] = ps_lim[side]
    px[4] = ss_k * (sig * px[5] - p[2])


cdef void ps_ends(int side, double r, double rho, double sig, double* p, double* px,
                  double* eaq) noexcept nogil:
    """``ps_at`` off the table: at r <= 1 (|eps - eps*| <= SS_D0) P1, P2 of the first node
    and, from the linearisation, sig P3 = F* eps* / (k rho^k), P3 ~ r^-k (px: ``ps_near_d``);
    beyond the last node the asymptotes: P1, P2, P3 -> 1 above, ~ r^(-1/4), r^(-1/2), r^(-1/4) below."""
    cdef double f, p3
    if eaq != NULL:
        ss_at(side, r, &eaq[0], &eaq[1], &eaq[2])
    if not (r > 1.0):
        p[0] = ps_end[side][0][0]
        p[1] = ps_end[side][0][1]
        p[2] = ss_F * ss_eps / (ss_k * exp(ss_k * log(rho)))
        if px != NULL:
            ps_near_d(side, r, sig, p, px)
        return
    f = ss_far(side, r)
    p[0] = ps_end[side][1][0] * f
    p[1] = ps_end[side][1][1] * f * f
    p3 = ps_end[side][1][2] * f
    p[2] = sig * p3
    if px != NULL:
        f = 0.0 if side == 0 else -0.25
        px[0] = f * p[0]
        px[1] = 2.0 * f * p[1]
        px[2] = p3 * px[0]
        px[3] = p3 * px[1]
        px[4] = f * p[2]
        px[5] = p3 * (1.0 + f / ss_k)


cdef inline void ps_at(int side, double r, double rho, double sig, double* p, double* px,
                       double* eaq) noexcept nogil:
    """The drag factors p = (P1, P2, sig P3) (``ps_factors``) of the universal trajectory of
    one side at the remaining time r (units of the tables), for a segment of sigma sig, rho
    (s) from its stop; unless px is NULL, px = (P1', P2', P3 P1', P3 P2', sig P3',
    P3 + P3' / k) (' = d/dx, x = ln r; each finite at eps*; at r <= 1 ``ps_near_d``, which
    ``knot_rates`` applies up to ps_rnear); unless eaq is NULL, eaq = eps,
    a, q there (``ss_at``, from the same look-up); off the table ``ps_ends``. The cell and
    the offset u in it are the bits of r."""
    cdef const double* cf
    cdef double f, p3, d3, u, t
    cdef int64_t b
    cdef int k
    if not (r > 1.0 and r < ss_rlast[side]):
        ps_ends(side, r, rho, sig, p, px, eaq)
        return
    memcpy(&b, &r, sizeof(double))
    b -= SS_ONE_BITS
    k = <int> (b >> SS_FRAC)
    u = <double> (b & ((<int64_t> 1 << SS_FRAC) - 1)) * (1.0 / (<int64_t> 1 << SS_FRAC))
    if eaq != NULL:
        ss_locate(r, &t)
        ss_piece(ss_tab[side] + SS_W * k, t, &eaq[0], &eaq[1], &eaq[2])
    cf = ps_cf[side] + PS_W * k
    p[0] = cf[0] + u * (cf[1] + u * (cf[2] + u * cf[3]))
    p[1] = cf[4] + u * (cf[5] + u * (cf[6] + u * cf[7]))
    p3 = cf[8] + u * (cf[9] + u * (cf[10] + u * cf[11]))
    p[2] = sig * p3
    if px != NULL:
        f = SS_N + (k & (SS_N - 1)) + u    # dx/du = 1 / f
        px[0] = (cf[1] + u * (2.0 * cf[2] + 3.0 * u * cf[3])) * f
        px[1] = (cf[5] + u * (2.0 * cf[6] + 3.0 * u * cf[7])) * f
        d3 = (cf[9] + u * (2.0 * cf[10] + 3.0 * u * cf[11])) * f
        px[2] = p3 * px[0]
        px[3] = p3 * px[1]
        px[4] = sig * d3
        px[5] = p3 + d3 / ss_k


cdef int js_build(int side) noexcept nogil:
    """The integrals of the drag factors along one universal trajectory, normalised:
    J1 = r^-3 int_0^r u^2 P1 du, J2 = r^-4 int_0^r u^3 P2 du, J3 = r^-2 int_0^r u P3 du
    (dJ/dx = P - (n + 1) J), at the nodes of the tables: Simpson's rule on each cell (the
    midpoint from the cubic piece of P), from the linearisation at r = 1 (P1, P2 constant,
    P3 ~ r^-k there)."""
    cdef int n = ss_n[side], k, c, j
    cdef double* tb = <double*> malloc(SS_W * n * sizeof(double))
    cdef const double* cf
    cdef double dx, w, pm, dJ
    cdef int m[3]
    if tb == NULL:
        return -1
    m[0] = 3
    m[1] = 4
    m[2] = 2
    tb[0] = ps_node(side, 0, 0) / 3.0
    tb[1] = ps_node(side, 0, 1) / 4.0
    tb[2] = ps_node(side, 0, 2) / (2.0 - ss_k)
    for k in range(1, n):
        dx = ss_dx[(k - 1) & (SS_N - 1)]
        for c in range(3):
            cf = ps_cf[side] + PS_W * (k - 1) + 4 * c
            w = (SS_N + ((k - 1) & (SS_N - 1))) * expm1(0.5 * dx)   # u at the cell's midpoint in x
            pm = cf[0] + w * (cf[1] + w * (cf[2] + w * cf[3]))
            w = exp(-0.5 * m[c] * dx)
            tb[SS_W * k + c] = (tb[SS_W * (k - 1) + c] * w * w
                                + dx / 6.0 * (cf[0] * w * w + 4.0 * pm * w + ps_node(side, k, c)))
    for k in range(n):
        j = k & (SS_N - 1)
        for c in range(3):
            dJ = ps_node(side, k, c) - m[c] * tb[SS_W * k + c]
            tb[SS_W * k + 3 + c] = dJ * ss_dx[j]
            tb[SS_W * k + 6 + c] = dJ * ss_dx[(j + SS_N - 1) & (SS_N - 1)]
    js_tab[side] = tb
    return 0


cdef inline void js_at(int side, double r, double rho, double sig, double* j) noexcept nogil:
    """j = (J1, J2, sig J3) (``js_build``) of one side at the remaining time r (units of the
    tables), for a segment of sigma sig, rho (s) from its stop: at r <= 1 from the
    linearisation (sig J3 = sig P3 / (2 - k), ``ps_at``), beyond the last node the
    asymptotes of P."""
    cdef const double* tb = js_tab[side]
    cdef double f, t, j3
    cdef int k
    if not (r > 1.0):
        j[0] = tb[0]
        j[1] = tb[1]
        j[2] = ss_F * ss_eps / (ss_k * (2.0 - ss_k) * exp(ss_k * log(rho)))
        return
    if r >= ss_rlast[side]:
        tb += SS_W * (ss_n[side] - 1)
        f = ss_far(side, r)
        j[0] = tb[0] * f
        j[1] = tb[1] * f * f
        j[2] = sig * tb[2] * f
        return
    k = ss_locate(r, &t)
    ss_piece(tb + SS_W * k, t, &j[0], &j[1], &j3)
    j[2] = sig * j3


cdef inline void ps_node_d(int side, int k, double* p, double* dp) noexcept nogil:
    """P1, P2 (p) and their x-derivatives (dp) at node k of one side, from its cubic pieces."""
    cdef const double* cf
    cdef double f
    cdef int c
    if k < ss_n[side] - 1:
        cf = ps_cf[side] + PS_W * k
        f = SS_N + (k & (SS_N - 1))
        for c in range(2):
            p[c] = cf[4 * c]
            dp[c] = cf[4 * c + 1] * f
        return
    cf = ps_cf[side] + PS_W * (k - 1)
    f = SS_N + ((k - 1) & (SS_N - 1)) + 1.0
    for c in range(2):
        p[c] = cf[4 * c] + cf[4 * c + 1] + cf[4 * c + 2] + cf[4 * c + 3]
        dp[c] = (cf[4 * c + 1] + 2.0 * cf[4 * c + 2] + 3.0 * cf[4 * c + 3]) * f


cdef inline void ns_rates(const double* p, const double* dp, const double* j, double* g) noexcept nogil:
    """The integrands g of N1 and N2 (``ns_build``) from P1, P2 (p), their x-derivatives
    (dp) and J1, J2, J3 (j, J3 without sigma)."""
    g[0] = (2.0 * p[0] + dp[0]) * j[0] + dp[0] * j[2]
    g[1] = (3.0 * p[1] + dp[1]) * j[0] + dp[1] * j[2]


cdef int ns_build(int side) noexcept nogil:
    """The integrals of the drag's second order along one universal trajectory, normalised:
    N1 = r^-5 int_0^r u^4 ((2 P1 + P1') J1 + P1' J3) du and
    N2 = r^-6 int_0^r u^5 ((3 P2 + P2') J1 + P2' J3) du (' = d/dx, dN/dx = g - m N, m = 5, 6;
    ``tail_state``), at the nodes of the tables: Simpson's rule on each cell as ``js_build``,
    from their integrands taken constant below r = 1 (P1, P2, J1 and P' J3 are)."""
    cdef int n = ss_n[side], k, c, j
    cdef double* tb = <double*> malloc(SS_W * n * sizeof(double))
    cdef const double* cf
    cdef double dx, w, u, f, dN
    cdef double p[2]
    cdef double dp[2]
    cdef double jm[3]
    cdef double g0[2]
    cdef double gm[2]
    cdef double g1[2]
    cdef int m[2]
    if tb == NULL:
        return -1
    m[0] = 5
    m[1] = 6
    ps_node_d(side, 0, p, dp)
    ns_rates(p, dp, js_tab[side], g0)
    for c in range(2):
        tb[c] = g0[c] / m[c]
    tb[2] = 0.0
    for k in range(1, n):
        j = (k - 1) & (SS_N - 1)
        dx = ss_dx[j]
        # the cell's midpoint in x: P from its cubic piece in u, J from its Hermite piece
        u = (SS_N + j) * expm1(0.5 * dx)
        f = SS_N + j + u
        cf = ps_cf[side] + PS_W * (k - 1)
        for c in range(2):
            p[c] = cf[4 * c] + u * (cf[4 * c + 1] + u * (cf[4 * c + 2] + u * cf[4 * c + 3]))
            dp[c] = (cf[4 * c + 1] + u * (2.0 * cf[4 * c + 2] + 3.0 * u * cf[4 * c + 3])) * f
        ss_piece(js_tab[side] + SS_W * (k - 1), 0.5, &jm[0], &jm[1], &jm[2])
        ns_rates(p, dp, jm, gm)
        ps_node_d(side, k, p, dp)
        ns_rates(p, dp, js_tab[side] + SS_W * k, g1)
        for c in range(2):
            w = exp(-0.5 * m[c] * dx)
            tb[SS_W * k + c] = tb[SS_W * (k - 1) + c] * w * w + dx / 6.0 * (g0[c] * w * w + 4.0 * gm[c] * w + g1[c])
            g0[c] = g1[c]
        tb[SS_W * k + 2] = 0.0
    for k in range(n):
        j = k & (SS_N - 1)
        ps_node_d(side, k, p, dp)
        ns_rates(p, dp, js_tab[side] + SS_W * k, g1)
        for c in range(2):
            dN = g1[c] - m[c] * tb[SS_W * k + c]
            tb[SS_W * k + 3 + c] = dN * ss_dx[j]
            tb[SS_W * k + 6 + c] = dN * ss_dx[(j + SS_N - 1) & (SS_N - 1)]
        tb[SS_W * k + 5] = 0.0
        tb[SS_W * k + 8] = 0.0
    ns_tab[side] = tb
    return 0


cdef inline void ns_at(int side, double r, double* nn) noexcept nogil:
    """nn = (N1, N2) (``ns_build``) of one side at the remaining time r (units of the
    tables): constant at r <= 1, beyond the last node the asymptotes of P and J (N1 ~ P1 J1,
    N2 ~ P2 J1)."""
    cdef const double* tb = ns_tab[side]
    cdef double f, t, z
    cdef int k
    if not (r > 1.0):
        nn[0] = tb[0]
        nn[1] = tb[1]
        return
    if r >= ss_rlast[side]:
        tb += SS_W * (ss_n[side] - 1)
        f = ss_far(side, r)
        nn[0] = tb[0] * f * f
        nn[1] = tb[1] * f * f * f
        return
    k = ss_locate(r, &t)
    ss_piece(tb + SS_W * k, t, &nn[0], &nn[1], &z)


cdef void farkas_d(double e, double* dF, double* dT) noexcept nogil:
    """dF/deps and dT/deps at eps = e: central differences extrapolated to h -> 0
    (Richardson), the step 1e-3 of the smaller of eps and |eps - 1| (where F and T have
    a term (eps - 1) ln|eps - 1|)."""
    cdef double h = 1e-3 * min(e, fabs(e - 1.0)), Fp, Fm, Tp, Tm, d1F, d1T
    cdef int i
    if not (h > 1e-15):
        h = 1e-15
    for i in range(2):
        farkas(e + h, &Fp, &Tp)
        farkas(e - h, &Fm, &Tm)
        if i == 0:
            d1F = (Fp - Fm) / (2.0 * h)
            d1T = (Tp - Tm) / (2.0 * h)
            h *= 0.5
    dF[0] = (4.0 * (Fp - Fm) / (2.0 * h) - d1F) / 3.0
    dT[0] = (4.0 * (Tp - Tm) / (2.0 * h) - d1T) / 3.0


cdef void ps_factors(const double* y, const double* dy, double* P, double* dP) noexcept nogil:
    """The drag factors P1 = A (A - u) / G, P2 = A (A^2 - 2 Q u) / G, P3 = A u / G (u = 2 eps T,
    G = F - u: see ``drag_rates``) at the point y = (eps, A, Q) of a universal trajectory,
    and their x-derivatives along it (dy = d(eps, A, Q)/dx)."""
    cdef double E = y[0], A = y[1], Q = y[2], F, T, dF, dT, u, G, du, dG
    farkas(E, &F, &T)
    farkas_d(E, &dF, &dT)
    u = 2.0 * E * T
    G = F - u
    du = 2.0 * T + 2.0 * E * dT
    dG = dF - du
    P[0] = A * (A - u) / G
    P[1] = A * (A * A - 2.0 * Q * u) / G
    P[2] = A * u / G
    dP[0] = dy[1] * (2.0 * A - u) / G + dy[0] * (-A * du - P[0] * dG) / G
    dP[1] = dy[1] * (3.0 * A * A - 2.0 * Q * u) / G - dy[2] * 2.0 * A * u / G + dy[0] * (-2.0 * A * Q * du - P[1] * dG) / G
    dP[2] = dy[1] * u / G + dy[0] * (A * du - P[2] * dG) / G


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
# Integrated segments: the constants of the drag-free trajectory, varied by the drag
# ----------------------------------------------------------------------------------

DEF NK = 29               # doubles per knot of an integrated segment's table:
DEF K_T = 0               # time into the segment (s),
DEF K_C = 1               # the constants y = (stop time theta (s), stop distance (m), sigma),
DEF K_RS = 4              # rs (1/s) of sigma,
DEF K_F = 5               # dy/dt,
DEF K_A = 8               # d^2y/dt^2,
DEF K_S = 11              # distance slid (m), speed (m/s) and spin (rad/s)
DEF K_V = 12
DEF K_W = 13
DEF K_Q = 14              # the quintic in u of the step to here, per constant: its u^3, u^4, u^5 coefficients
DEF K_D = 23              # deceleration (m/s^2)
DEF K_DY = 24             # the step's changes of the constants (before their rounding into y)
DEF K_G = 27              # distance to go (m) of the reference trajectory
DEF K_E = 28              # the distance slid integrated less that of the reference trajectories (m; ``at_time``)


cdef double rs_b[8]   # binomial coefficients of (1 + z)^(1 / ss_k)
cdef double ss_r2     # r of |eps - eps*| = TAIL_EPS: below it the tail's second order loses its digits


cdef inline double rs_near(double sig, double isig0, double rs0) noexcept nogil:
    """rs = (|sig| / SS_D0)^(1 / ss_k) (1/s): from rs0 of a nearby sigma0 (isig0 = 1 / sigma0)
    by the binomial series of (sig / sigma0)^(1 / ss_k) (exact to 1e-16 for
    |sig / sigma0 - 1| < 1/64), else by exp and log."""
    cdef double z = sig * isig0 - 1.0
    if fabs(z) < 0.015625:
        return rs0 + rs0 * z * (rs_b[1] + z * (rs_b[2] + z * (rs_b[3] + z * (rs_b[4] + z * (rs_b[5] + z * (rs_b[6] + z * rs_b[7]))))))
    if sig == 0.0:
        return 0.0
    return exp(log(fabs(sig) / SS_D0) / ss_k)


cdef inline double dmu_dv(const LawParams* lp, double v) noexcept nogil:
    """d mu / dv (s/m) of the law's mu(v)."""
    cdef double z
    if lp.mu_kind == MU_LINEAR:
        return lp.mu_v
    if lp.mu_kind == MU_STRIBECK:
        z = v / lp.v_s
        return -2.0 * z / lp.v_s * (lp.mu_s - lp.mu) * exp(-z * z)
    return 0.0


cdef void coulomb_rates(const LawParams* lp, double rho, double* f, double* a) noexcept nogil:
    """f = dy/dt (theta, stop distance, sigma) on the constant deceleration g mu, rho (s) from
    its stop: v = g mu rho, and a perturbation dl(v) of dv/dt moves theta by dl / (g mu), the
    stop distance by rho dl; a = d^2y/dt^2 unless NULL."""
    cdef double gm = lp.g * lp.mu, v = gm * rho, dl, ddl
    dl = -lp.g * (mu_of_v(lp, v) - lp.mu) - lp.drag * v * v
    f[0] = dl / gm
    f[1] = rho * dl
    f[2] = 0.0
    if a != NULL:
        ddl = (-lp.g * dmu_dv(lp, v) - 2.0 * lp.drag * v) * (dl - gm)
        a[0] = ddl / gm
        a[1] = (f[0] - 1.0) * dl + rho * ddl
        a[2] = 0.0


cdef inline void drag_rates(const LawParams* lp, int ref, double tau, const double* y, double rs,
                            double* f) noexcept nogil:
    """f = dy/dt of the constants y = (theta, stop distance, sigma) of the reference
    trajectory (``ref``) at tau (s): their derivatives with respect to the speed at fixed
    time, distance and spin, times the perturbation of dv/dt (``knot_rates``)."""
    cdef double gm = lp.g * lp.mu, rho = y[0] - tau, dl
    cdef double p[3]
    if not (rho > 0.0):
        f[0] = 0.0
        f[1] = 0.0
        f[2] = 0.0
        return
    if ref == SEG_COULOMB:
        coulomb_rates(lp, rho, f, NULL)
        return
    ps_at(1 if y[2] < 0.0 else 0, rs * rho, rho, y[2], p, NULL, NULL)
    dl = lp.drag * gm * rho
    f[0] = -dl * rho * p[0]
    f[1] = -dl * gm * rho * rho * p[1]
    f[2] = -dl * ss_k * p[2]


cdef double ref_speed(const LawParams* lp, int ref, double tau, const double* y, double rs) noexcept nogil:
    """The speed (m/s) of the reference trajectory (``ref``) of constants y at tau (s), the
    rate of the distance slid."""
    cdef double gm = lp.g * lp.mu, rho = y[0] - tau, e, a, q
    if not (rho > 0.0):
        return 0.0
    if ref == SEG_COULOMB:
        return gm * rho
    ss_at(1 if y[2] < 0.0 else 0, rs * rho, &e, &a, &q)
    return gm * a * rho


cdef void knot_rates(const LawParams* lp, double R, int ref, double tau, const double* y, double rs,
                     double* f, double* a, double* st) noexcept nogil:
    """At a knot: f = dy/dt (``drag_rates``), a = d^2y/dt^2 along the motion and, unless st
    is NULL, the state st = distance slid (m), speed (m/s), spin (rad/s), distance to go (m),
    q, P1, P2, sigma P3 (on the constant deceleration the spin 0 and P = 1).

    On the universal trajectory (side by the sign of sigma) v = g mu A rho, distance to go
    g mu Q rho^2, w = v / (R eps), A, Q, eps at r = rs rho, rs = (|sigma| / SS_D0)^(1/k); the
    drag -drag v^2 moves theta by -drag g mu rho^2 P1, the stop distance by
    -drag (g mu)^2 rho^3 P2 and sigma by -drag g mu k rho sigma P3 per second (P from
    ``ps_at``). On the constant deceleration g mu, v = g mu rho and a perturbation dl(v)
    moves theta by dl / (g mu), the stop distance by rho dl."""
    cdef double gm = lp.g * lp.mu, rho = y[0] - tau, K, rp, dp3
    cdef double px[6]
    cdef double p[3]
    cdef double eaq[3]
    cdef int k
    for k in range(3):
        f[k] = 0.0
        a[k] = 0.0
    if st != NULL:
        st[4] = 0.5
        st[5] = 1.0
        st[6] = 1.0
        st[7] = 1.0
    if not (rho > 0.0):
        if st != NULL:
            st[0] = y[1]
            st[1] = 0.0
            st[2] = 0.0
            st[3] = 0.0
        return
    if ref == SEG_COULOMB:
        coulomb_rates(lp, rho, f, a)
        if st != NULL:
            st[1] = gm * rho
            st[2] = 0.0
            st[3] = 0.5 * st[1] * rho
            st[0] = y[1] - st[3]
        return
    ps_at(1 if y[2] < 0.0 else 0, rs * rho, rho, y[2], p, px, NULL if st == NULL else eaq)
    if rs * rho > 1.0 and rs * rho < ps_rnear:   # (at r <= 1 ps_at's own)
        ps_near_d(1 if y[2] < 0.0 else 0, rs * rho, y[2], p, px)
    K = lp.drag * gm
    f[0] = -K * rho * rho * p[0]
    f[1] = -K * gm * rho * rho * rho * p[1]
    f[2] = -K * ss_k * rho * p[2]
    # d/dt of the factors: x = ln r moves by d ln rs/dt + d ln rho/dt = -K rho P3 + rp / rho
    rp = f[0] - 1.0
    a[0] = -K * (2.0 * rho * rp * p[0] + rho * (rp * px[0] - K * rho * rho * px[2]))
    a[1] = -K * gm * (3.0 * rho * rho * rp * p[1] + rho * rho * (rp * px[1] - K * rho * rho * px[3]))
    dp3 = f[2] * px[5] + px[4] * rp / rho
    a[2] = -K * ss_k * (rp * p[2] + rho * dp3)
    if st != NULL:
        st[1] = gm * eaq[1] * rho
        st[2] = st[1] / (R * eaq[0])
        st[3] = gm * eaq[2] * rho * rho
        st[0] = y[1] - st[3]
        st[4] = eaq[2]
        st[5] = p[0]
        st[6] = p[1]
        st[7] = p[2]


cdef inline void ref_state(const LawParams* lp, double R, int ref, double tau, const double* y, double rs,
                           double* st) noexcept nogil:
    """The reference trajectory of constants y at tau (s): st = distance slid (m), speed (m/s),
    spin (rad/s; 0 on the constant deceleration), distance to go (m), q and the universal
    coordinate r (0 on the constant deceleration)."""
    cdef double gm = lp.g * lp.mu, rho = y[0] - tau, e, a, q
    if not (rho > 0.0):
        st[0] = y[1]
        st[1] = 0.0
        st[2] = 0.0
        st[3] = 0.0
        st[4] = 0.5
        st[5] = 0.0
        return
    st[5] = 0.0
    if ref == SEG_COULOMB:
        a = 1.0
        q = 0.5
        st[2] = 0.0
    else:
        st[5] = rs * rho
        ss_at(1 if y[2] < 0.0 else 0, st[5], &e, &a, &q)
        st[2] = gm * a * rho / (R * e)
    st[1] = gm * a * rho
    st[3] = gm * q * rho * rho
    st[0] = y[1] - st[3]
    st[4] = q


cdef inline double dp_stage(const LawParams* lp, int ref, double tau, const double* z, double is0, double rs0,
                           double* k, bint sv) noexcept nogil:
    """One stage of ``dp_step``: the rates k of the constants z at tau (s), and k[3], the
    reference speed, if sv; returns z's reference stop time less tau (the step leaves the
    domain of the constants where it is not positive)."""
    cdef double rz = rs_near(z[2], is0, rs0)
    drag_rates(lp, ref, tau, z, rz, k)
    if sv:
        k[3] = ref_speed(lp, ref, tau, z, rz)
    return z[0] - tau


cdef bint dp_step(const LawParams* lp, int ref, double t, const double* y0, const double* f0, double rs0,
                  double h, double* y1, double* dy, double* rs1, double* err, bint sv) noexcept nogil:
    """One Dormand-Prince 5(4) step of h (s) from the constants y0 (rates f0, rs0) at t:
    y1, rs1 at t + h (order 5), dy = y1 - y0 before rounding, and err, the embedded error
    estimate without its last stage's term (-h/40 times the rates at t + h); if sv, also
    f0[3], dy[3] and err[3] of the distance slid, whose rate is the reference speed,
    integrated along. The Butcher coefficients are literals,
    each sum accumulated in stage order. False when a stage or the end leaves the domain of
    the constants (their reference stop theta not after the stage's time: the drag moved
    theta back by more than the step, so the step is far too long and is to be rejected;
    a disc whose drag dominates its friction, whose drag-free stop is far away)."""
    cdef double k2[4]
    cdef double k3[4]
    cdef double k4[4]
    cdef double k5[4]
    cdef double k6[4]
    cdef double z[3]
    cdef double is0 = 1.0 / y0[2] if y0[2] != 0.0 else 0.0, out = INFINITY
    cdef int c
    for c in range(3):
        z[c] = y0[c] + h * ((1.0 / 5.0) * f0[c])
    out = min(out, dp_stage(lp, ref, t + 0.2 * h, z, is0, rs0, k2, sv))
    for c in range(3):
        z[c] = y0[c] + h * ((3.0 / 40.0) * f0[c] + (9.0 / 40.0) * k2[c])
    out = min(out, dp_stage(lp, ref, t + 0.3 * h, z, is0, rs0, k3, sv))
    for c in range(3):
        z[c] = y0[c] + h * ((44.0 / 45.0) * f0[c] + (-56.0 / 15.0) * k2[c] + (32.0 / 9.0) * k3[c])
    out = min(out, dp_stage(lp, ref, t + 0.8 * h, z, is0, rs0, k4, sv))
    for c in range(3):
        z[c] = y0[c] + h * ((19372.0 / 6561.0) * f0[c] + (-25360.0 / 2187.0) * k2[c]
                            + (64448.0 / 6561.0) * k3[c] + (-212.0 / 729.0) * k4[c])
    out = min(out, dp_stage(lp, ref, t + (8.0 / 9.0) * h, z, is0, rs0, k5, sv))
    for c in range(3):
        z[c] = y0[c] + h * ((9017.0 / 3168.0) * f0[c] + (-355.0 / 33.0) * k2[c] + (46732.0 / 5247.0) * k3[c]
                            + (49.0 / 176.0) * k4[c] + (-5103.0 / 18656.0) * k5[c])
    out = min(out, dp_stage(lp, ref, t + h, z, is0, rs0, k6, sv))
    for c in range(4 if sv else 3):
        dy[c] = h * ((35.0 / 384.0) * f0[c] + (500.0 / 1113.0) * k3[c] + (125.0 / 192.0) * k4[c]
                     + (-2187.0 / 6784.0) * k5[c] + (11.0 / 84.0) * k6[c])
        err[c] = h * ((71.0 / 57600.0) * f0[c] + (-71.0 / 16695.0) * k3[c] + (71.0 / 1920.0) * k4[c]
                      + (-17253.0 / 339200.0) * k5[c] + (22.0 / 525.0) * k6[c])
    for c in range(3):
        y1[c] = y0[c] + dy[c]
    rs1[0] = rs_near(y1[2], is0, rs0)
    return out > 0.0 and y1[0] - (t + h) > 0.0


cdef inline double inv_fifth_root(double x) noexcept nogil:
    """x^(-1/5) for x > 0 (relative error below 2e-4), the step-size factor of a
    fifth-order error estimate: the bits of x, read as an integer, scaled by -1/5 about
    those of 1.0 (within 10 %), then two Newton steps on x y^5 = 1 (libm's pow costs
    about 140 instructions)."""
    cdef int64_t b
    cdef double y, y5
    cdef int it
    memcpy(&b, &x, sizeof(double))
    b = SS_ONE_BITS - (b - SS_ONE_BITS) // 5
    memcpy(&y, &b, sizeof(double))
    for it in range(2):
        y5 = y * y
        y5 = y5 * y5 * y
        y = y * (0.8 + 0.2 / (x * y5))
    return y


cdef inline double knot_decel(const LawParams* lp, int ref, double rho, double sig, const double* st) noexcept nogil:
    """The deceleration (m/s^2) at a knot, from its state st (``knot_rates``) at remaining
    reference time rho (s): g mu F + drag v^2 on the universal trajectory (F = A (A + P3) /
    (P1 + P3), A = v / (g mu rho), sigma the third constant), g mu(v) + drag v^2 on the
    constant deceleration."""
    cdef double gm = lp.g * lp.mu, v = st[1], A
    if not (rho > 0.0 and v > 0.0):
        return 0.0
    if ref == SEG_SLIDE_SPIN:
        A = v / (gm * rho)
        return gm * A * (sig * A + st[7]) / (sig * st[5] + st[7]) + lp.drag * v * v
    return lp.g * mu_of_v(lp, v) + lp.drag * v * v


cdef int push(Table* tb, double t, const double* y, double rs, const double* f, const double* a,
              const double* st, double dec, const double* dy, double de) noexcept nogil:
    """Append a knot (time t, constants y, rs, their first and second time derivatives f
    and a, distance, speed, spin and reference distance to go st, deceleration dec, the
    step's changes dy of the constants, the distance slid integrated less that from the
    changes of the reference trajectory, de); 0, or -1 when out of memory."""
    cdef double* q
    cdef int c
    if tb.n + 1 >= tb.cap:   # one knot's room left after it, for ``close_table``
        q = <double*> realloc(tb.kn, (2 * tb.cap + 16) * NK * sizeof(double))
        if q == NULL:
            return -1
        tb.kn = q
        tb.cap = 2 * tb.cap + 16
    q = tb.kn + NK * tb.n
    q[K_T] = t
    q[K_RS] = rs
    q[K_D] = dec
    q[K_G] = st[3]
    q[K_E] = de
    for c in range(3):
        q[K_C + c] = y[c]
        q[K_F + c] = f[c]
        q[K_A + c] = a[c]
        q[K_S + c] = st[c]
        q[K_DY + c] = dy[c]
    if tb.n > 0:
        quintic_coefficients(q - NK, q)
    tb.n += 1
    return 0


cdef inline void quintic_top(double A, double B, double C, double* q) noexcept nogil:
    """q = the u^3, u^4, u^5 coefficients of the quintic Hermite piece in u in [0, 1] whose
    lower ones y_0, h y'_0, h^2 y''_0 / 2 miss, at u = 1, the end's value by A, its h y' by B
    and its h^2 y'' by C."""
    q[0] = 10.0 * A - 4.0 * B + 0.5 * C
    q[1] = -15.0 * A + 7.0 * B - C
    q[2] = 6.0 * A - 3.0 * B + 0.5 * C


cdef inline void quintic_coefficients(const double* a, double* b) noexcept nogil:
    """The u^3, u^4, u^5 coefficients, into knot b, of the quintic Hermite interpolant in
    u = (tau - t_a) / h on the step from knot a to knot b of each constant's value (its change
    dy before rounding) and first and second derivatives at both ends (error O(h^6)); its
    lower ones are y_a, h f_a, h^2 a_a / 2."""
    cdef double h = b[K_T] - a[K_T], hd0, ha0
    cdef int c
    for c in range(3):
        hd0 = h * a[K_F + c]
        ha0 = h * h * a[K_A + c]
        quintic_top(b[K_DY + c] - hd0 - 0.5 * ha0, h * b[K_F + c] - hd0 - ha0, h * h * b[K_A + c] - ha0,
                    b + K_Q + 3 * c)


cdef void close_table(const LawParams* lp, double R, Table* tb) noexcept nogil:
    """End the table at its last knot: on the speed table of a speed-only law, else on the
    reference trajectory of the last constants moved by the drag (``tail_state``), whose
    second-order terms (``tail_second``) go to the room after the last knot (``push``)."""
    cdef const double* kn = tb.kn + NK * (tb.n - 1)
    cdef double* t2 = tb.kn + NK * tb.n
    cdef double v, K = lp.drag * lp.g * lp.mu, rho = kn[K_C] - kn[K_T]
    tb.open = 0
    if lp.kind == KIND_SPEED:
        tb.tail = SEG_SPEED
        tb.rho = sp_rho_of(lp, kn[K_V])
        sp_at(lp, tb.rho, &v, &tb.s_tail)
        tb.w_stop = tb.kn[K_W] - spin_decel(lp, R) * (kn[K_T] + tb.rho)
        tb.t_stop = kn[K_T] + tb.rho
        tb.s_stop = kn[K_S] + tb.s_tail
        return
    tb.tail = tb.ref
    tb.side = 1 if kn[K_C + 2] < 0.0 else 0
    tb.rs = kn[K_RS]
    tb.rho = rho
    tail_integrals(tb, rho, tb.tj)
    t2[2] = rho * rho * rho * tb.tj[0]
    t2[3] = rho * rho * tb.tj[2] / kn[K_C + 2] if kn[K_C + 2] != 0.0 else 0.0
    tail_second(tb, rho, tb.tj, t2)
    tb.w_stop = 0.0
    tb.t_stop = kn[K_C] - K * rho * rho * rho * tb.tj[0] + K * K * t2[0]
    tb.s_stop = kn[K_S] + kn[K_G] - K * lp.g * lp.mu * (rho * rho * rho * rho * tb.tj[1] - K * t2[1])


cdef inline void tail_integrals(const Table* tb, double rho, double* j) noexcept nogil:
    """J1, J2, sigma J3 (``js_at``) of the closed table's reference trajectory at rho (s)
    from the stop of its last constants (P = 1 on the constant deceleration)."""
    if tb.ref == SEG_COULOMB:
        j[0] = 1.0 / 3.0
        j[1] = 0.25
        j[2] = 0.0
    else:
        js_at(tb.side, tb.rs * rho, rho, tb.kn[NK * (tb.n - 1) + K_C + 2], j)


cdef inline void tail_second(const Table* tb, double rho, const double* j, double* o) noexcept nogil:
    """The parts at rho (s) from the stop of the closed table's reference trajectory of the
    drag's second-order changes of theta and the stop distance (``tail_state``): o[0] =
    A rho^2 P1 + B rho^3 (P1 - 3 J1) - rho^5 N1, o[1] = A rho^3 P2 + B rho^4 (P2 - 4 J2) -
    rho^6 N2 (A = rho_k^3 J1_k, B = rho_k^2 J3_k of the last knot, stored after it, with o at
    rho_k; j = J1, J2
    at rho; ``ps_at``, ``ns_at``; P = 1, N1 = 2/15, N2 = 1/6 on the constant deceleration)."""
    cdef double r2 = rho * rho, r3 = r2 * rho
    cdef double p[3]
    cdef double nn[2]
    if not second_order(tb.ref, tb.rs * tb.rho):
        o[0] = 0.0
        o[1] = 0.0
        return
    if tb.ref == SEG_COULOMB:
        p[0] = 1.0
        p[1] = 1.0
        nn[0] = 2.0 / 15.0
        nn[1] = 1.0 / 6.0
    else:
        ps_at(tb.side, tb.rs * rho, rho, 1.0, p, NULL, NULL)
        ns_at(tb.side, tb.rs * rho, nn)
    o[0] = r2 * (tb.kn[NK * tb.n + 2] * p[0] + tb.kn[NK * tb.n + 3] * rho * (p[0] - 3.0 * j[0]) - r3 * nn[0])
    o[1] = r3 * (tb.kn[NK * tb.n + 2] * p[1] + tb.kn[NK * tb.n + 3] * rho * (p[1] - 4.0 * j[1]) - r3 * nn[1])


cdef void tail_state(const LawParams* lp, double R, const Table* tb, double tau, double* st) noexcept nogil:
    """The state st (``ref_state``) at tau (s) after the last knot k of a closed table: the
    constants y_k moved by the drag along the reference trajectory of y_k, to first order,
    theta by -K (rho_k^3 J1_k - rho^3 J1), the stop distance by -K g mu (rho_k^4 J2_k -
    rho^4 J2) and sigma by -K k (rho_k^2 sigma J3_k - rho^2 sigma J3) (K = drag g mu, rho
    = theta_k - tau; the integrals of ``drag_rates`` along that trajectory, ``js_at``);
    theta and the stop distance also to second order, by K^2 and K^2 g mu times the change
    of ``tail_second`` from rho to rho_k."""
    cdef const double* kn = tb.kn + NK * (tb.n - 1)
    cdef double K = lp.drag * lp.g * lp.mu, rho = kn[K_C] - tau, r0 = tb.rho, sig = kn[K_C + 2]
    cdef double j[3]
    cdef double y[3]
    cdef double dy[3]
    cdef double o[2]
    cdef int c
    cdef double dd
    tail_integrals(tb, rho, j)
    tail_second(tb, rho, j, o)
    dy[0] = -K * (r0 * r0 * r0 * tb.tj[0] - rho * rho * rho * j[0] - K * (tb.kn[NK * tb.n + 0] - o[0]))
    dy[1] = -K * lp.g * lp.mu * (r0 * r0 * r0 * r0 * tb.tj[1] - rho * rho * rho * rho * j[1] - K * (tb.kn[NK * tb.n + 1] - o[1]))
    dy[2] = -K * ss_k * (r0 * r0 * tb.tj[2] - rho * rho * j[2])
    for c in range(3):
        y[c] = kn[K_C + c] + dy[c]
    ref_state(lp, R, tb.ref, tau, y, rs_near(y[2], 1.0 / sig if sig != 0.0 else 0.0, kn[K_RS]), st)
    if not (st[1] > 0.0 and togo_change(lp, tb.ref, kn, dy, tau - kn[K_T], st[5], &dd)):
        dd = st[3] - kn[K_G]
    st[0] = kn[K_S] + (dy[1] - dd)


cdef inline bint second_order(int ref, double r) noexcept nogil:
    """Whether the tail from a knot at r (units of the tables) on the reference trajectory
    ``ref`` is of second order in the drag (``tail_second``): on the constant deceleration,
    or |eps - eps*| at least TAIL_EPS there (nearer, the terms B (P1 - 3 J1) and P' J3 of
    ``tail_second`` and ``ns_build`` are differences of tabulated values about 1 / |eps - eps*|
    times larger than themselves)."""
    return ref == SEG_COULOMB or r >= ss_r2


cdef inline bint table_done(const LawParams* lp, double v, double rho, double t, bint second) noexcept nogil:
    """Whether the integration can end at speed v (m/s), remaining reference time rho (s):
    a speed-only law back on its speed table, or, with constant mu, the drag's effect over
    the rest of the motion beyond the tail's order (``second``: second, else first),
    about 0.5 (drag v rho)^n v rho on the distance (n = 3, else 2; the first-order change
    of the stop distance, about drag v^2 rho^2, times powers of the relative change of the
    remaining time, about drag v rho: Coulomb's exact series has (drag v rho)^n v rho / (2n + 2)),
    below TAIL_S (``tail_state``), and on the stop time about 0.2 (drag v rho)^n rho
    (Coulomb's 1 / (2n + 1)), below TAIL_T of the stop time (t the knot's time)."""
    if lp.kind == KIND_SPEED:
        return v <= lp.v_max
    cdef double dvr = lp.drag * v * rho, d2 = dvr * dvr * (dvr if second else 1.0)
    return (lp.mu_kind == MU_CONSTANT and 0.5 * d2 * v * rho <= TAIL_S
            and 0.2 * d2 * rho <= TAIL_T * (t + rho))


cdef inline double first_step(const LawParams* lp, double v0, double rho, double eps0) noexcept nogil:
    """The first step (s) of a segment from speed v0 (m/s) and eps0 = v0 / (R w0) (INFINITY
    off the slide-spin reference trajectory) with drag-free time to stop rho (s): with a
    constant mu, the step whose error estimate the drag's strength drag v0 rho and eps0
    predict below the tolerance (H_DRAG, DVR_GROW, NEAR_*: a rejected first step costs a
    whole step, and a shorter one an earlier horizon), at most H_FIRST of the drag's
    1 / (drag v0); else H_FIRST of the shorter of rho and 1 / (drag v0)."""
    cdef double dvr = lp.drag * v0 * rho, g, h
    if lp.mu_kind != MU_CONSTANT or not (dvr > 0.0):
        if dvr > 1.0:
            return H_FIRST / (lp.drag * v0)
        return H_FIRST * rho
    if dvr < DVR_WEAK:
        return GUARD * rho
    g = dvr * (1.0 + DVR_GROW * dvr)
    if dvr > 1.0:
        g *= sqrt(dvr)
    h = min(FIRST_CAP, H_DRAG * inv_fifth_root(g * g), H_FIRST / dvr) * rho
    if eps0 > NEAR_LO and eps0 < NEAR_HI:
        h *= NEAR_BELOW if eps0 < 1.0 else NEAR_ABOVE
    return h


cdef int integrate(const LawParams* lp, double R, double v0, double w0, int ref, double rs, double rho,
                   double d, int side, Table* tb) noexcept nogil:
    """Start the table of a sliding segment from speed v0 > 0 (m/s) and spin magnitude w0
    (rad/s) on its reference trajectory (``closed_start``: ref, rs, remaining time rho,
    distance to go d, side) and integrate its first chunk of steps; 0, or -1 when out of
    memory."""
    cdef double y[3]
    cdef double f[3]
    cdef double a[3]
    cdef double st[8]
    cdef double e[3]
    cdef double dec
    tb.n = 0
    tb.tail = SEG_REST
    tb.steps = 0
    tb.chunk = CHUNK0
    if ref == SEG_SLIDE_SPIN and not (rs < INFINITY):
        # eps so large that r overflows (R w below 1e-300 v): a pure slide
        ref = SEG_COULOMB
        rho = v0 / (lp.g * lp.mu)
        d = 0.5 * v0 * rho
    tb.ref = ref
    y[0] = rho
    y[1] = d
    y[2] = 0.0
    if ref == SEG_SLIDE_SPIN and rs > 0.0:
        y[2] = SS_D0 * exp(ss_k * log(rs))
        if side:
            y[2] = -y[2]
    knot_rates(lp, R, ref, 0.0, y, rs, f, a, st)
    dec = knot_decel(lp, ref, rho, y[2], st)
    st[0] = 0.0
    st[1] = v0
    st[2] = w0
    st[3] = d
    e[0] = 0.0
    e[1] = 0.0
    e[2] = 0.0
    if push(tb, 0.0, y, rs, f, a, st, dec, e, 0.0) < 0:
        return -1
    tb.h = first_step(lp, v0, rho, v0 / (R * w0) if ref == SEG_SLIDE_SPIN and w0 > 0.0 else INFINITY)
    tb.open = 1
    if table_done(lp, v0, rho, 0.0, second_order(ref, rs * rho)):
        close_table(lp, R, tb)
        return 0
    return extend(lp, R, tb)


cdef int extend(const LawParams* lp, double R, Table* tb) noexcept nogil:
    """Continue an open table by tb.chunk accepted steps, or to its end, and double the next
    chunk; 0, or -1 when out of memory. The steps are those of one integration to the end,
    whatever the chunks. Each step's error estimate is measured as the errors it puts into
    the distance (through the stop distance, theta times the speed and sigma times the
    sensitivity of the distance to go) and into the rim speed R w (``knot_rates``: with
    sigma P1 + sigma P3 = sigma A^2 / G > 0, the distance to go moves with ln rs by
    g mu rho^2 (A - 2 Q) = g mu rho^2 (P2 - 2 Q P1) / (P1 + P3), ln(R w) with ln rs by
    -P1 / (P1 + P3) and with theta by P3 / ((P1 + P3) rho))."""
    cdef const double* kn = tb.kn + NK * (tb.n - 1)
    cdef double t = kn[K_T], h = tb.h, rs = kn[K_RS], rs1, err, ew, den = 1.0, rho, fac, e0, e1, fa, ds, sd
    cdef double gm = lp.g * lp.mu
    cdef double y[3]
    cdef double f[4]
    cdef double y1[3]
    cdef double dy1[4]
    cdef double f1[3]
    cdef double a1[3]
    cdef double e[4]
    cdef double st[8]
    cdef int done = 0, rejected = 0, c
    cdef bint sv
    cdef double ye[3]
    cdef double ev = 0.0
    for c in range(3):
        y[c] = kn[K_C + c]
        f[c] = kn[K_F + c]
    f[3] = kn[K_V]
    while True:
        if done == tb.chunk:
            tb.h = h
            tb.chunk *= 2
            kn = tb.kn + NK * (tb.n - 1)
            tb.t_stop = kn[K_T]
            tb.s_stop = kn[K_S]
            tb.w_stop = kn[K_W]
            return 0
        if tb.steps >= MAX_STEPS:
            close_table(lp, R, tb)
            return 0
        tb.steps += 1
        rho = y[0] - t
        if h > GUARD * rho:
            h = GUARD * rho
        kn = tb.kn + NK * (tb.n - 1)
        # the distance slid integrated along where drag v^2 / (g mu F) exceeds DRAG_S
        sv = lp.drag * kn[K_V] * kn[K_V] > DRAG_S * (kn[K_D] - lp.drag * kn[K_V] * kn[K_V])
        if not dp_step(lp, tb.ref, t, y, f, rs, h, y1, dy1, &rs1, e, sv):
            h *= 0.2
            rejected = 1
            continue
        knot_rates(lp, R, tb.ref, t + h, y1, rs1, f1, a1, st)
        for c in range(3):
            e[c] -= h * (1.0 / 40.0) * f1[c]
        e[3] -= h * (1.0 / 40.0) * st[1]
        rho = y1[0] - t - h
        err = fabs(e[1]) + st[1] * fabs(e[0])
        if sv:
            err += fabs(e[3])
            # and the error of the speed (with the spin far above v / R its sensitivity to
            # sigma is not in the distance's and the rim speed's)
            for c in range(3):
                ye[c] = y1[c] - e[c]
            ev = fabs(ref_speed(lp, tb.ref, t + h, ye, rs_near(ye[2], 1.0 / y1[2] if y1[2] != 0.0 else 0.0, rs1))
                      - st[1])
        ew = 0.0
        if tb.ref == SEG_SLIDE_SPIN:
            den = y1[2] * st[5] + st[7]
            err += gm * rho * rho * fabs((st[6] - 2.0 * st[4] * st[5]) * e[2]) / (ss_k * den)
            ew = R * st[2] * fabs(st[7] * e[0] / rho - st[5] * e[2] / ss_k) / den
        # the distance scale: slid plus to go at the current deceleration g mu F + drag v^2
        # (F = A (A + P3) / (P1 + P3), A = v / (g mu rho); 1 on the constant deceleration)
        fa = st[1] / (gm * rho) if rho > 0.0 else 1.0
        if tb.ref == SEG_SLIDE_SPIN:
            fa = fa * (y1[2] * fa + st[7]) / den
        err = max(err / (ATOL_S + RTOL * (st[0] + 0.5 * st[1] * st[1] / (gm * fa + lp.drag * st[1] * st[1]))),
                  ew / (R * ATOL_W + RTOL_W * R * st[2]))
        if sv:
            err = max(err, ev / (R * ATOL_W + RTOL_W * st[1]))
        # and of the stop time theta, which the distance weighs by the speed: where the drag
        # dominates the friction the speed is small for most of the motion
        err = max(err, fabs(e[0]) / (RTOL_T * y1[0]))
        if tb.ref == SEG_SLIDE_SPIN:
            # F and T are not smooth at eps = 1, where the error estimate falls short
            kn = tb.kn + NK * (tb.n - 1)
            e0 = kn[K_V] / (R * kn[K_W]) - 1.0 if kn[K_W] > 0.0 else 1e300
            e1 = st[1] / (R * st[2]) - 1.0 if st[2] > 0.0 else 1e300
            if fabs(e0) < BAND or fabs(e1) < BAND or e0 * e1 <= 0.0:
                err *= CROSS_TIGHT
        if not (err <= 1.0):
            h *= max(0.2, SAFETY * inv_fifth_root(err)) if err < 1e30 else 0.2
            rejected = 1
            continue
        # the distance slid from the last knot's by the changes of the reference trajectory
        # (``togo_change``); where the drag dominates, integrated (dy1[3]): the changes then
        # carry the error of the tables' q, 1e-13, times the change of the distance to go,
        # drag v^2 / (g mu F) times the distance
        kn = tb.kn + NK * (tb.n - 1)
        if togo_change(lp, tb.ref, kn, dy1, h, rs1 * rho, &ds):
            sd = kn[K_S] + (dy1[1] - ds)
        else:
            sd = kn[K_S] + (dy1[1] - (st[3] - kn[K_G]))
        st[0] = kn[K_S] + dy1[3] if sv else sd
        t += h
        rs = rs1
        for c in range(3):
            y[c] = y1[c]
            f[c] = f1[c]
        f[3] = st[1]
        done += 1
        if push(tb, t, y, rs, f, a1, st, knot_decel(lp, tb.ref, rho, y[2], st), dy1, st[0] - sd) < 0:
            return -1
        if table_done(lp, st[1], rho, t, second_order(tb.ref, rs * rho)):
            close_table(lp, R, tb)
            return 0
        fac = SAFETY * inv_fifth_root(err) if err > 1e-10 else 5.0
        h *= min(1.0 if rejected else 5.0, max(0.2, fac))   # no growth right after a rejection
        rejected = 0


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


cdef void tail_seg(const Table* tb, Seg* sg) noexcept nogil:
    """The tail of a closed table as a segment of its own, starting at the last knot."""
    cdef const double* kn = tb.kn + NK * (tb.n - 1)
    sg.mode = tb.tail
    sg.side = tb.side
    sg.rs = tb.rs
    sg.v0 = kn[K_V]
    sg.w0 = kn[K_W]
    sg.t_stop = tb.rho
    sg.s_stop = tb.s_tail
    sg.w_stop = tb.w_stop
    sg.a0 = kn[K_V] / tb.rho
    sg.open = 0
    table_init(&sg.tb)


cdef inline int knot(const Table* tb, double tau) noexcept nogil:
    """Index k with t[k] <= tau < t[k+1] (binary search), or the last knot."""
    cdef int lo = 0, hi = tb.n - 1, mid
    if tau >= tb.kn[NK * hi + K_T]:
        return hi
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if tb.kn[NK * mid + K_T] <= tau:
            lo = mid
        else:
            hi = mid
    return lo


cdef inline void at_time(const LawParams* lp, double R, const Table* tb, int k, double tau,
                         double* st) noexcept nogil:
    """The state st (``ref_state``) at tau (s) within the step from knot k: the constants
    by quintic Hermite interpolation (``quintic_coefficients``), on the reference
    trajectory; the distance slid plus (3 - 2 u) u^2 of the difference at knot k + 1 between
    the distance integrated and that of the reference trajectories (u = (tau - t_k) / h),
    which then meets both knots' integrated distances."""
    cdef const double* a = tb.kn + NK * k
    cdef const double* b = a + NK
    cdef const double* q
    cdef double h = b[K_T] - a[K_T], u = (tau - a[K_T]) / h, dd
    cdef double y[3]
    cdef double dy[3]
    cdef int c
    for c in range(3):
        q = b + K_Q + 3 * c
        dy[c] = u * (h * a[K_F + c] + u * (0.5 * h * h * a[K_A + c] + u * (q[0] + u * (q[1] + u * q[2]))))
        y[c] = a[K_C + c] + dy[c]
    ref_state(lp, R, tb.ref, tau, y, rs_near(y[2], 1.0 / a[K_C + 2] if a[K_C + 2] != 0.0 else 0.0, a[K_RS]), st)
    if not togo_change(lp, tb.ref, a, dy, tau - a[K_T], st[5], &dd):
        dd = st[3] - a[K_G]
    st[0] = a[K_S] + ((dy[1] - dd) + b[K_E] * (u * u * (3.0 - 2.0 * u)))


cdef inline double ln1p(double z) noexcept nogil:
    """ln(1 + z): for |z| < 1/32 the series of 2 atanh(z / (2 + z)) to the 11th power (exact to
    1e-19), else log1p."""
    cdef double w, w2
    if fabs(z) < 0.03125:
        w = z / (2.0 + z)
        w2 = w * w
        return 2.0 * w * (1.0 + w2 * (1.0 / 3.0 + w2 * (0.2 + w2 * (1.0 / 7.0 + w2 * (1.0 / 9.0 + w2 * (1.0 / 11.0))))))
    return log1p(z)


cdef inline double piece_q_change(const double* tb, double t0, double t1) noexcept nogil:
    """q(t1) - q(t0) on the cubic Hermite piece of the node at tb (``ss_piece``), as
    (t1 - t0) times the divided differences of its basis: no cancellation."""
    cdef double S = t0 + t1, P = t0 * t0 + t0 * t1 + t1 * t1
    return (t1 - t0) * ((tb[SS_W + 2] - tb[2]) * (3.0 * S - 2.0 * P) + tb[5] * (1.0 - 2.0 * S + P)
                        + tb[SS_W + 8] * (P - S))


cdef bint togo_change(const LawParams* lp, int ref, const double* a, const double* dy, double dt,
                      double r, double* dd) noexcept nogil:
    """dd: the change (m) of the reference distance to go from knot a to dt (s) after it,
    the constants moved by dy there, computed from the changes themselves (the remaining
    time by dy[0] - dt, x = ln r by ln(1 + dy[2] / sigma) / k + ln(rho / rho_a), q on the
    pieces of the two cells, whose node values and positions differ exactly; r, the
    universal coordinate there, only finds its cell): the distance slid is then
    the knot's plus dy[1] - dd, with the rounding of these changes instead of that of the
    stop distance (tens of metres for a fast disc with drag, whose drag-free stop is far).
    False where this does not apply (sigma through 0, beyond the nodes of the tables)."""
    cdef double gm = lp.g * lp.mu, rho_a = a[K_C] - a[K_T], drho = dy[0] - dt, sig = a[K_C + 2]
    cdef double x, ra, ta, t, rk, xn, dq, dr, dqr
    cdef const double* tp
    cdef const double* tq
    cdef int side, k, kt, c
    if not (rho_a > 0.0):
        return 0
    dr = drho / rho_a
    if ref == SEG_COULOMB:
        dd[0] = a[K_G] * dr * (2.0 + dr)
        return 1
    if fabs(dr) > TOGO_DR or sig == 0.0 or not ((sig + dy[2]) * sig > 0.0):
        return 0
    side = 1 if sig < 0.0 else 0
    ra = a[K_RS] * rho_a
    if not (r > 1.0 and r < ss_rlast[side] and ra > 1.0 and ra < ss_rlast[side]):
        return 0
    k = ss_locate(ra, &ta)
    tp = ss_tab[side] + SS_W * k
    x = ln1p(dy[2] / sig) / ss_k + ln1p(dr)
    kt = ss_locate(r, &t)
    if kt == k:
        dq = piece_q_change(tp, ta, ta + x * ss_idx[k & (SS_N - 1)])
    else:
        if kt >= ss_n[side] - 1:
            return 0
        # x of node kt less that of node k: the cell widths between, or ln(r_kt / r_k)
        if kt > k and kt - k <= 6:
            xn = 0.0
            for c in range(k, kt):
                xn += ss_dx[c & (SS_N - 1)]
        elif kt < k and k - kt <= 6:
            xn = 0.0
            for c in range(kt, k):
                xn -= ss_dx[c & (SS_N - 1)]
        else:
            rk = ss_node_r(k)
            xn = log1p((ss_node_r(kt) - rk) / rk)
        t = (x - xn + ta * ss_dx[k & (SS_N - 1)]) * ss_idx[kt & (SS_N - 1)]
        tq = ss_tab[side] + SS_W * kt
        dq = piece_q_change(tq, 0.0, t) + (tq[2] - tp[2]) + piece_q_change(tp, ta, 0.0)
    dqr = dr * (2.0 + dr)
    dd[0] = gm * rho_a * rho_a * dq * (1.0 + dqr) + a[K_G] * dqr
    return 1


cdef inline double near_knot(const double* kn, double dt, double sd) noexcept nogil:
    """The distance slid (m) dt (s) after knot kn: within TAYLOR_DT of its reference time to
    stop and of v / dec, its time scale at its deceleration (far shorter when the drag
    dominates the friction, the drag-free stop then far away), its Taylor polynomial
    s + v dt - dec dt^2 / 2 (error about (TAYLOR_DT)^3 of the distance to go, with the
    relative accuracy of the knot's speed right after the knot), else sd, that of the reference trajectory: stop distance less distance to go, whose
    rounding (about 1e-16 of the stop distance) would otherwise be all of a distance of
    1e-16 m, that of a touching partner."""
    if dt <= TAYLOR_DT * (kn[K_C] - kn[K_T]) and dt * kn[K_D] <= TAYLOR_DT * kn[K_V]:
        return kn[K_S] + dt * (kn[K_V] - 0.5 * kn[K_D] * dt)
    return sd


cdef inline double near_knot_time(const double* kn, double ds) noexcept nogil:
    """The time (s) after knot kn at which the disc has slid ds (m) further, when within
    the Taylor polynomial of ``near_knot``, else -1."""
    cdef double h = TAYLOR_DT * (kn[K_C] - kn[K_T]), v = kn[K_V], dec = kn[K_D]
    if h * dec > TAYLOR_DT * v:
        h = TAYLOR_DT * v / dec
    if ds <= h * (v - 0.5 * dec * h) and v > 0.0:
        return 2.0 * ds / (v + sqrt(v * v - 2.0 * dec * ds))
    return -1.0


cdef void evaluate(const LawParams* lp, double R, const Table* tb, double tau,
                   double* sd, double* v, double* w) noexcept nogil:
    """Distance slid (m), speed (m/s) and spin magnitude (rad/s) at tau (s), 0 < tau < the
    stop: between knots, or on the tail of a closed table (an open table's last knot
    beyond its horizon)."""
    cdef int k = knot(tb, tau)
    cdef const double* kn = tb.kn + NK * k
    cdef double st[6]
    if tau == kn[K_T] or (k == tb.n - 1 and tb.open):
        sd[0] = kn[K_S]
        v[0] = kn[K_V]
        w[0] = kn[K_W]
        return
    if k == tb.n - 1:
        tail_state(lp, R, tb, tau, st)
    else:
        at_time(lp, R, tb, k, tau, st)
    sd[0] = near_knot(kn, tau - kn[K_T], st[0])
    v[0] = st[1]
    w[0] = st[2]


cdef double time_at_distance(const LawParams* lp, double R, const Table* tb, double sd) noexcept nogil:
    """Time (s) into the segment at which the disc has slid sd (m), 0 < sd < the distance
    at the stop (or at the last knot of an open table): Newton in time on the distance (its
    derivative the speed) between two knots, from the inverse of the quintic Hermite piece
    (``quintic_top``) of the knots' distances, speeds and decelerations, stopped once the
    next Newton step would be below rounding; on the tail of a closed table Newton on the
    square root of the distance to go, about linear in the time to go there."""
    cdef int lo = 0, hi = tb.n - 1, mid, it
    cdef double a, b, x, dx, h, u, c, d, g, T, rem, dg
    cdef double q[3]
    cdef double st[6]
    cdef const double* k0
    cdef const double* k1
    if sd >= tb.kn[NK * hi + K_S]:
        # the tail: rho = t_stop - tau from the drag-free guess rem ~ rho^2
        k0 = tb.kn + NK * hi
        x = near_knot_time(k0, sd - k0[K_S])
        if x >= 0.0:
            return k0[K_T] + x
        T = tb.t_stop
        b = T - k0[K_T]
        c = sqrt(tb.s_stop - sd)
        x = b * c / sqrt(tb.s_stop - k0[K_S])
        a = 0.0
        for it in range(60):
            tail_state(lp, R, tb, T - x, st)
            rem = tb.s_stop - st[0]
            g = sqrt(rem) if rem > 0.0 else 0.0
            if g > c:
                b = x
            else:
                a = x
            if not (st[1] > 0.0 and g > 0.0):
                x = 0.5 * (a + b)
                continue
            dx = (g - c) * 2.0 * g / st[1]
            if x - dx > a and x - dx < b:
                x -= dx
                if fabs(dx) <= NEWTON_DONE * x:
                    break   # quadratic convergence: the next step would be below rounding
            else:
                x = 0.5 * (a + b)
            if b - a <= 1e-15 * T:
                break
        return T - x
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if tb.kn[NK * mid + K_S] <= sd:
            lo = mid
        else:
            hi = mid
    k0 = tb.kn + NK * lo
    k1 = k0 + NK
    x = near_knot_time(k0, sd - k0[K_S])
    if x >= 0.0:
        return k0[K_T] + x
    a = k0[K_T]
    b = k1[K_T]
    h = b - a
    # the quintic Hermite piece of (s, v, -deceleration) on the step, inverted by Newton in
    # u = (tau - a) / h: s - s_a = u (h v_a + u (-h^2 dec_a / 2 + u (c3 + u (c4 + u c5))))
    d = (sd - k0[K_S]) / (k1[K_S] - k0[K_S])
    c = -0.5 * h * h * k0[K_D]
    quintic_top((k1[K_S] - k0[K_S]) - h * k0[K_V] - c, h * (k1[K_V] - k0[K_V]) - 2.0 * c,
                h * h * (k0[K_D] - k1[K_D]), q)
    u = d
    for it in range(3):
        g = u * (h * k0[K_V] + u * (c + u * (q[0] + u * (q[1] + u * q[2])))) - (sd - k0[K_S])
        dg = h * k0[K_V] + u * (2.0 * c + u * (3.0 * q[0] + u * (4.0 * q[1] + u * 5.0 * q[2])))
        if dg > 0.0:
            u -= g / dg
    x = a + h * u
    if not (x > a and x < b):
        x = a + h * d
    for it in range(60):
        at_time(lp, R, tb, lo, x, st)
        if st[0] > sd:
            b = x
        else:
            a = x
        if not (st[1] > 0.0):
            x = 0.5 * (a + b)
            continue
        dx = (st[0] - sd) / st[1]
        if x - dx > a and x - dx < b:
            x -= dx
            # quadratic convergence: the next step, about dec dx^2 / (2 v), would be below
            # rounding (half an ulp of x; dx at most NEWTON_NEAR of the step, as the speed
            # matches the slope of the interpolated distance to about 1e-9)
            if fabs(dx) <= NEWTON_DONE * h or (fabs(dx) <= NEWTON_NEAR * h
                                               and dx * dx * k0[K_D] <= 2.2e-16 * st[1] * x):
                break
        else:
            x = 0.5 * (a + b)
        if b - a <= 1e-15 * b:
            break
    return x


cdef void table_init(Table* tb) noexcept nogil:
    tb.n = 0
    tb.cap = 0
    tb.kn = NULL


cdef void table_free(Table* tb) noexcept nogil:
    free(tb.kn)
    table_init(tb)


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
    if lp.kind == KIND_SPEED and v0 <= lp.v_max:
        sg.mode = SEG_SPEED
        sg.t_stop = sp_rho_of(lp, v0)
        sp_at(lp, sg.t_stop, &e, &sg.s_stop)
        sg.w_stop = w0 - spin_decel(lp, R) * sg.t_stop
    else:
        sg.mode = closed_start(lp, R, v0, w0, &sg.side, &sg.rs, &sg.t_stop, &sg.s_stop)
        sg.a0 = gm
        sg.w_stop = 0.0 if lp.slide_spin else w0 - spin_decel(lp, R) * sg.t_stop
        if lp.kind == KIND_SPEED or (lp.kind == KIND_INTEGRATED and (
                sg.mode == SEG_COULOMB or sg.side == 0 or sg.rs < INFINITY)):
            # the drag (or mu(v)) moves the constants of this drag-free start (but for a spin
            # in place, v below about 1e-80 R w, whose universal coordinate overflows)
            if integrate(lp, R, v0, w0, sg.mode, sg.rs, sg.t_stop, sg.s_stop, sg.side, &sg.tb) < 0:
                return -1
            sg.mode = SEG_INTEGRATED
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
    if sg.mode == SEG_INTEGRATED and sg.tb.tail == SEG_SPEED and tau > sg.tb.kn[NK * (sg.tb.n - 1) + K_T]:
        tail_seg(&sg.tb, &tl)
        seg_eval(lp, R, &tl, tau - sg.tb.kn[NK * (sg.tb.n - 1) + K_T], sd, v, w)
        sd[0] += sg.tb.kn[NK * (sg.tb.n - 1) + K_S]
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
    if sg.mode == SEG_INTEGRATED and sg.tb.tail == SEG_SPEED and sd > sg.tb.kn[NK * (sg.tb.n - 1) + K_S]:
        tail_seg(&sg.tb, &tl)
        return sg.tb.kn[NK * (sg.tb.n - 1) + K_T] + seg_time_at(lp, R, &tl, sd - sg.tb.kn[NK * (sg.tb.n - 1) + K_S])
    if sg.mode == SEG_INTEGRATED:
        return time_at_distance(lp, R, &sg.tb, sd)
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


def slide_spin_drag_factors(int side, double[::1] x):
    """The drag factors P1, P2, P3 of the integrated segments (slide-spin with drag) and
    their normalised integrals J1, J2, J3 along the universal slide-spin trajectory above
    (side 0) or below (side 1) eps*, at x = ln(mu g rho) > 0 (``slide_spin_universal``)."""
    import numpy as np
    out = np.empty((6, x.shape[0]))
    cdef double p[3]
    cdef double j[3]
    cdef Py_ssize_t i
    cdef int c
    for i in range(x.shape[0]):
        ps_at(side, exp(x[i]), 1.0, 1.0, p, NULL, NULL)
        js_at(side, exp(x[i]), 1.0, 1.0, j)
        for c in range(3):
            out[c, i] = p[c]
            out[3 + c, i] = j[c]
    return out

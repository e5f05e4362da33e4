# C declarations of the friction-law kinematics of one sliding disc (carromlab.physics),
# cimported by the compiled engine (carromlab.engine._core).

cdef enum:
    MU_CONSTANT = 0
    MU_LINEAR = 1
    MU_STRIBECK = 2

# How the segments of a law are computed (LawParams.kind).
cdef enum:
    KIND_COULOMB = 0     # constant deceleration: closed form
    KIND_SLIDE_SPIN = 1  # Farkas slide-spin, constant mu, no drag: universal tables
    KIND_SPEED = 2       # dv/dt = -f(v), spin decaying on its own: per-law speed table
    KIND_INTEGRATED = 3  # slide-spin with drag: Dormand-Prince per segment

# How one segment is evaluated (Seg.mode).
cdef enum:
    SEG_REST = 0
    SEG_COULOMB = 1
    SEG_SLIDE_SPIN = 2
    SEG_SPEED = 3
    SEG_INTEGRATED = 4

cdef struct LawParams:
    int numeric          # 0: constant Coulomb solved in closed form by the engine; 1: segments
    int kind             # KIND_*
    int slide_spin       # couple slide and spin (Farkas et al. 2003)
    int mu_kind          # MU_CONSTANT, MU_LINEAR, MU_STRIBECK
    double g             # m/s^2
    double mu            # kinetic (or mu_0) friction coefficient
    double mu_v          # s/m, linear speed dependence
    double mu_s          # static (low-speed) coefficient of the Stribeck curve
    double v_s           # m/s, Stribeck speed
    double drag          # 1/m, quadratic air drag: dv/dt -= drag v^2
    # speed table of KIND_SPEED (owned by a CompiledLaw): nodes k h, k = 0 .. n - 1, of the
    # time-to-stop rho; speed V(rho) and distance-to-stop D(rho), with dV/drho = f(V)
    int n_sp
    double h_sp          # s
    double v_max         # m/s, V at the last node (faster segments are integrated)
    const double* sp     # 3 n_sp values: V, D, f(V) at each node

cdef struct Table:
    # Dense output of one integrated segment: the constants of its drag-free reference
    # trajectory (ref: SEG_SLIDE_SPIN, the universal slide-spin tables, or SEG_COULOMB) at
    # knots from tau = 0, NK doubles per knot (see _kinematics.pyx); integrated lazily, a
    # chunk of steps at a time (open: not yet to its end, t_stop and s_stop are those of
    # the last knot).
    int n
    int cap
    int open
    int chunk            # accepted steps of the next extension
    int steps            # steps tried so far (bounded by MAX_STEPS)
    int ref              # SEG_SLIDE_SPIN or SEG_COULOMB
    double h             # s, next step size
    double* kn
    double t_stop
    double s_stop
    double w_stop
    # tail after the last knot (closed tables): the reference trajectory of the last
    # constants moved by the drag to second order (tail = ref: side, rs, tj = J1, J2, sigma J3
    # at the last knot, which is rho from the reference's stop; the second-order terms in
    # kn after the last knot), or a speed table (SEG_SPEED, lasting rho and sliding s_tail)
    int tail
    int side
    double rs
    double rho
    double s_tail
    double tj[3]

cdef struct Seg:
    # One sliding segment from speed v0 and spin magnitude w0 (fixed size; a heap table
    # only for SEG_INTEGRATED).
    int mode             # SEG_*
    int side             # slide-spin: +1 above the attractor eps*, -1 below
    double v0, w0        # m/s, rad/s
    double t_stop        # s (the remaining time rho0 at the start)
    double s_stop        # m
    double w_stop        # rad/s, spin when the sliding stops
    double rs            # slide-spin: universal remaining time per remaining second, 1/s
    double a0            # SEG_COULOMB: deceleration, m/s^2
    double a_lo, a_hi    # m/s^2, bounds of the deceleration from the start to the stop
    int open             # 1: known only up to t_stop, s_stop (the horizon, the disc still
                         # moving there); seg_extend integrates further
    Table tb

cdef void farkas(double eps, double* F, double* T) noexcept nogil
cdef double mu_of_v(const LawParams* lp, double v) noexcept nogil
cdef double decel(const LawParams* lp, double R, double v, double w) noexcept nogil
cdef double decel_bound(const LawParams* lp, double v) noexcept nogil
cdef double spin_decel(const LawParams* lp, double R) noexcept nogil
cdef void seg_init(Seg* sg) noexcept nogil
cdef void seg_free(Seg* sg) noexcept nogil
cdef int seg_start(const LawParams* lp, double R, double v0, double w0, Seg* sg) noexcept nogil
cdef int seg_extend(const LawParams* lp, double R, Seg* sg) noexcept nogil
cdef void seg_eval(const LawParams* lp, double R, const Seg* sg, double tau,
                   double* sd, double* v, double* w) noexcept nogil
cdef void seg_decel_range(const LawParams* lp, double R, const Seg* sg, double tau_a, double tau_b,
                          double* lo, double* hi) noexcept nogil
cdef double seg_time_at(const LawParams* lp, double R, const Seg* sg, double sd) noexcept nogil

cdef class CompiledLaw:
    cdef LawParams lp
    cdef double[::1] buf

# C declarations of the friction-law kinematics shared by the compiled engine.

cdef enum:
    MU_CONSTANT = 0
    MU_LINEAR = 1
    MU_STRIBECK = 2

cdef struct LawParams:
    int numeric          # 0: constant Coulomb in closed form; 1: integrated segments
    int slide_spin       # couple slide and spin (Farkas et al. 2003)
    int mu_kind          # MU_CONSTANT, MU_LINEAR, MU_STRIBECK
    double g             # m/s^2
    double mu            # kinetic (or mu_0) friction coefficient
    double mu_v          # s/m, linear speed dependence
    double mu_s          # static (low-speed) coefficient of the Stribeck curve
    double v_s           # m/s, Stribeck speed
    double drag          # 1/m, quadratic air drag: dv/dt -= drag v^2

cdef struct Table:
    # Dense output of one sliding segment, from tau = 0 to the stop, at accepted steps.
    int n
    int cap
    double* t
    double* s
    double* v
    double* w            # spin magnitude (the sign is the segment's)
    double* dv
    double* dw
    double t_stop
    double s_stop
    double w_stop

cdef void farkas(double eps, double* F, double* T) noexcept nogil
cdef double mu_of_v(const LawParams* lp, double v) noexcept nogil
cdef double decel(const LawParams* lp, double R, double v, double w) noexcept nogil
cdef double decel_bound(const LawParams* lp, double v) noexcept nogil
cdef double spin_decel(const LawParams* lp, double R) noexcept nogil
cdef int integrate(const LawParams* lp, double R, double v0, double w0, Table* tb) noexcept nogil
cdef void evaluate(const LawParams* lp, double R, const Table* tb, double tau,
                   double* sd, double* v, double* w) noexcept nogil
cdef double time_at_distance(const Table* tb, double sd) noexcept nogil
cdef void table_init(Table* tb) noexcept nogil
cdef void table_free(Table* tb) noexcept nogil

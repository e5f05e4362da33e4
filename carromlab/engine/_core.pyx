# cython: language_level=3
"""Event-driven engine for discs sliding with Coulomb friction (compiled core).

The model is specified in docs/physics.md, how it is solved in docs/engine.md. Between
events every disc moves on a straight line with constant deceleration ``a = mu g``; every
event time is found in closed form or by a bracketed root finder on a monotone piece of a
polynomial, so no contact is missed.
The flat arrays of per-disc next events follow Marin, Risso & Cordero, J. Comput. Phys.
109, 306 (1993): after an event only the discs whose motion changed (the two involved and
any disc moved by a cluster merge) and the discs whose next event involves one of them are
re-predicted. A grid of the discs' swept capsules limits a prediction to the discs that can
meet (and the capsules' bounding boxes reject most of those at once), a tournament tree
gives the next event and per-disc partner lists the discs to re-predict, so the cost of an
event grows little with the number of discs (docs/engine.md).
Impacts follow Walton's model with the TC model of Luding & McNamara (Granular Matter 1,
113, 1998) against inelastic collapse.

Everything below ``run_sim`` works without the GIL so that batches run on all cores.
"""

import numpy as np
cimport numpy as cnp
from libc.math cimport sqrt, ceil, fabs, fmin, hypot, INFINITY, isfinite, cos as cos_, sin as sin_
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset

cdef extern from *:
    int __builtin_ctzll(unsigned long long x) nogil

from carromlab.physics._kinematics cimport (CompiledLaw, LawParams, Seg, decel, seg_eval,
                                            seg_decel_range, seg_extend, seg_free, seg_init,
                                            seg_start, seg_time_at)
from carromlab.physics._kinematics import compiled_law
from carromlab.equipment._marks cimport on_surface

cnp.import_array()

# Event kinds (mirrored in carromlab/engine/_kinds.py).
DEF EV_NONE = 0
DEF EV_STOP = 1
DEF EV_CUSHION = 2
DEF EV_HOLE = 3
DEF EV_PEG = 4
DEF EV_DITCH = 5
DEF EV_DISC = 6
DEF EV_PASS = 7      # crossing a capture circle too fast to fall
DEF EV_HORIZON = 8   # end of the integrated part of a lazy segment (internal, never logged)
DEF EV_RECHECK = 9   # a disc's deferred re-prediction (``renew``; internal, never logged)

# Disc status.
DEF ST_BOARD = 0
DEF ST_HOLE = 1
DEF ST_DITCH = 2
DEF ST_ABSENT = 3     # not on the board when the shot starts (a many-scene batch's masked piece)

# Touching tolerance (m) and the approach speed below which a touching pair is not an
# impact unless it is pressed together (m/s). Both far below the physics scales.
DEF TOUCH = 1e-10
DEF V_EPS = 1e-9
# Least margin of a conservative-advancement step below the current distance (m), for a
# pair already at the floor sigma - TOUCH / 2 (advance_contact): far below TOUCH.
DEF FLOOR_SLACK = 1e-13
# A conservative-advancement step may end this far (m) short of its bound's root.
DEF STEP_SHORT = 1e-12
# Newton steps of a conservative-advancement step on a convex piece before its minimum is
# bracketed instead (convex_entry).
DEF CONVEX_STEPS = 8
# Thickening of the swept capsules of the neighbour grid beyond the disc radius (m): far
# above TOUCH and rounding, far below a band of the grid.
DEF GRID_MARGIN = 1e-6
# Grid band width: at least GRID_CELL largest disc radii, and at most GRID_DENSITY sqrt(n)
# rows and columns for n discs, at most GRID_MAX. A disc is registered in the rows and
# the columns its capsule's box covers; coarse bands (8 rows and 8 columns on the ICF
# board) cost about the least: the extra candidates are rejected by the box test of
# ``predict`` after four comparisons (callgrind, slide-spin, 2026-12-03, instructions per
# varied ICF break and per event with 10 / 63 random coins: 2 radii 1,167,553 and 4,212 /
# 7,074; 4.5 radii 1,158,835 and 4,163 / 7,106; 6 radii 1,156,135 and 4,146 / 7,142).
DEF GRID_CELL = 4.5
# Packed boxes of the candidate test (``box_code``): coordinates as levels 0 .. QMAX - 1
# in 16-bit lanes with the top bit free (``box_meets``); QMAX marks an empty box.
DEF QMAX = 32767
DEF LANES = 0x0001000100010001   # 1 in each lane
DEF GRID_DENSITY = 4.0
DEF GRID_MAX = 64

cdef struct Board:
    int round_board
    double h                 # half side (square) or surface radius (round), m
    int nholes
    double* hx
    double* hy
    double* hr
    double* hv               # fastest crossing that falls into the hole, m/s
    int npegs
    double* px
    double* py
    double* pr

cdef struct Params:
    double e_disc, mu_disc, beta_disc
    double e_cush, mu_cush, beta_cush
    double e_peg, mu_peg, beta_peg
    double plastic
    double tc                # contact duration of the TC model, s
    double vcap
    int max_events

cdef struct Rec:
    # Growable event and segment logs (only when recording).
    int nev, cap_ev
    double* ev_f             # per event: t, vn, then (x, y, vx, vy, w) of i and of j
    int* ev_i                # per event: kind, i, j, detail
    int nseg, cap_seg
    double* seg_f            # per segment: t0, x0, y0, vx, vy, w0
    int* seg_i               # per segment: disc, status

cdef struct Now:
    # Last evaluated state of a disc (numeric laws): at time T of the segment started at t0.
    double T, t0, x, y, v, d, w

cdef struct Here:
    # State of the disc being predicted at the current time (``state_ex``): position (m),
    # speed (m/s) and distance slid in its segment (m).
    double x, y, v, d

cdef struct Cap:
    # The swept capsule of one disc registered in the neighbour grid (``grid_set``), with
    # the motion it was swept from: the fields the candidate tests of ``predict`` read
    # after the box test, in one record per disc (its box is in ``Sim.box``). A disc's
    # motion (x0, y0, ux, uy, v0, t0) changes only in an event, after which ``run_sim``
    # registers it again before any prediction, so the record mirrors the disc's current
    # segment whenever a prediction reads it.
    double x0, y0, ux, uy        # start (m) and unit direction of the segment
    double len                   # length of the registered part of the segment from (x0, y0), m
    double v0, t0                # speed at the start (m/s) and start time (s) of the segment
    double rr                    # thickness: the disc radius plus GRID_MARGIN, m


cdef struct Pending:
    # an impact pending at this instant (``settle``): discs k < l, the order key (s/m) of
    # ``delay`` and the sum of the two centres' coordinates (twice their midpoint, m)
    int k, l
    double key, sx, sy


cdef struct Sim:
    int n
    double* R
    double* m
    double* inertia
    double* a                # sliding deceleration, m/s^2
    double* alpha            # spin deceleration, rad/s^2
    double* t0
    double* x0
    double* y0
    double* ux
    double* uy
    double* v0
    double* w0
    int* status
    int* hole
    double* tcap
    double* tlast            # time of the disc's last impact, s (TC model)
    int* plast               # what it hit then: disc j, or -2 - cushion, or -6 - peg; -1 none
    int* skip
    double* tn               # per disc its next event's time (and tn[n] = INF, the queue's sentinel)
    int* kind
    int* partner
    int* stale
    int* stack
    int nmoved
    double t
    int n_events
    int truncated
    int striker
    int first_contact
    int sfirst               # first impact of the striker: 0 none, then an EV_* kind
    double fx, fy            # shooter's forward direction
    double reach             # furthest forward the striker's centre went, m
    cnp.uint64_t own         # discs that pass a hit on (crokinole: the shooter's colour)
    cnp.uint64_t carriers    # the striker and the own discs it reached
    cnp.uint64_t struck      # discs struck by a carrier (crokinole rule CRK-3)
    cnp.uint64_t touched     # discs the striker hit directly (bit i = disc i < 64)
    double frame_reach       # forward coordinate beyond which a cushion hit ends the direct hits
    int framed               # the striker has hit a cushion beyond frame_reach
    cnp.uint64_t direct      # discs the striker hit before that cushion (rule HIK-9)
    Board* b
    Params* p
    LawParams* lp
    Seg* seg                 # per-disc segments (numeric friction laws only)
    Now* now                 # per-disc cache of the last state_ex (numeric laws only)
    # neighbour grid (predict): gn rows and gn columns over [-glo, glo]^2, each a mask of
    # gw 64-bit words of the discs whose capsule box covers it (word w of row r at
    # cells[2 w gn + r], of column c at cells[(2 w + 1) gn + c])
    int gn, gw
    double glo, gcs          # half-size of the grid and band width, m
    double gcs_inv           # 1 / gcs, 1/m
    double glim              # half-size of the square where contacts can happen, m
    double rmax              # largest disc radius, m
    cnp.uint64_t* cells
    cnp.uint64_t* cand       # gw words: candidates of the disc being predicted
    Cap* cap                 # per disc its registered capsule
    double qlo, qscale       # packed boxes: coordinate of level 0 (m) and levels per m
    cnp.uint64_t* qbox       # per disc its box packed (``box_code``)
    double* box              # per disc 4 doubles: its capsule's bounding box x_lo, y_lo, x_hi, y_hi,
                             # m (empty: the lows INF, the highs -INF); the candidates' boxes are
                             # tested packed (``qbox``)
    int* span                # per disc 4 ints: its rows r0..r1 and its columns c0..c1 (empty: r1 < r0)
    # event queue: tournament tree over tn (leaves tp .. tp + n - 1, then the sentinel n,
    # with tn[n] = INF, in the padding leaves; lowest index wins ties)
    int tp
    int* tree
    int* dirty               # per disc: 1 when its time changed since the last queue_sync
    int* tdirty              # those discs (ndirty of them)
    int ndirty
    # discs whose scheduled EV_DISC event names disc d: list whead[d], links wnext/wprev,
    # wof[k] the list disc k is on (-1 for none)
    int* whead
    int* wnext
    int* wprev
    int* wof
    int* slist               # discs to re-predict after an event
    # impacts at one instant (``settle``): the discs whose motion changed at it (nchg of
    # them, in order), per disc the stamp of the instant it was listed at and its row
    # (gw words: the discs it touches, made when the instant is scanned)
    int* chg
    int nchg
    int* mark
    int inst
    int* hit                 # per disc the event count at its last change
    cnp.uint64_t* touch
    Pending* pend            # pending impacts at this instant (npend of at most cpend)
    int npend, cpend
    int* offk                # predict: discs offered an impact, and its time (s)
    double* offt
    cnp.uint64_t* apart      # per disc k gw words: the discs whose prediction in this event found
                             # no contact with k before k's own prediction (k stale)
    int oom
    int touch_hit            # a prediction since the last ``renew`` found a touching pair approaching
    int keep                 # the shot starts from the pieces of the shot before (``sim_reset``):
                             # the pieces that did not move in it keep their segments and grid rows
    int record
    Rec rec


# ----------------------------------------------------------------------------------
# Motion of one disc: constant Coulomb law in closed form, other laws from a segment table
# ----------------------------------------------------------------------------------

cdef inline void state_ex(Sim* s, int i, double T, double* x, double* y, double* v, double* d) noexcept nogil:
    """Position, speed and distance slid in the current segment of disc i at time T."""
    cdef double tau = T - s.t0[i]
    cdef double ts, w
    if s.v0[i] <= 0.0 or tau <= 0.0:
        x[0] = s.x0[i]
        y[0] = s.y0[i]
        v[0] = s.v0[i] if tau <= 0.0 else 0.0
        d[0] = 0.0
        return
    if s.lp.numeric:
        # every prediction after an event evaluates the same discs at the same time
        if s.now[i].T == T and s.now[i].t0 == s.t0[i]:
            x[0] = s.now[i].x
            y[0] = s.now[i].y
            v[0] = s.now[i].v
            d[0] = s.now[i].d
            return
        seg_eval(s.lp, s.R[i], &s.seg[i], tau, d, v, &w)
        s.now[i].T = T
        s.now[i].t0 = s.t0[i]
        s.now[i].x = s.x0[i] + s.ux[i] * d[0]
        s.now[i].y = s.y0[i] + s.uy[i] * d[0]
        s.now[i].v = v[0]
        s.now[i].d = d[0]
        s.now[i].w = w
        x[0] = s.now[i].x
        y[0] = s.now[i].y
        return
    else:
        ts = s.v0[i] / s.a[i]
        if tau >= ts:
            tau = ts
            v[0] = 0.0
        else:
            v[0] = s.v0[i] - s.a[i] * tau
        d[0] = tau * (s.v0[i] - 0.5 * s.a[i] * tau)
    x[0] = s.x0[i] + s.ux[i] * d[0]
    y[0] = s.y0[i] + s.uy[i] * d[0]


cdef inline void state_at(Sim* s, int i, double T, double* x, double* y, double* v) noexcept nogil:
    """Position and speed of disc i at absolute time T (lazy evaluation of its segment)."""
    cdef double d
    state_ex(s, i, T, x, y, v, &d)


cdef inline double spin_at(Sim* s, int i, double T) noexcept nogil:
    cdef double w = s.w0[i], d, v, mag
    cdef double tau = T - s.t0[i]
    cdef double dw = s.alpha[i] * tau
    if tau <= 0.0:
        return w
    if s.lp.slide_spin and s.v0[i] > 0.0:
        if s.now[i].T == T and s.now[i].t0 == s.t0[i]:
            mag = s.now[i].w
        else:
            seg_eval(s.lp, s.R[i], &s.seg[i], tau, &d, &v, &mag)
        return mag if w >= 0.0 else -mag
    if w > 0.0:
        return w - dw if w > dw else 0.0
    if w < 0.0:
        return w + dw if -w > dw else 0.0
    return 0.0


cdef inline double tau_of_s(double v, double a, double sd) noexcept nogil:
    """Time to slide a distance sd from speed v at deceleration a (no cancellation)."""
    cdef double disc = v * v - 2.0 * a * sd
    if disc < 0.0:
        disc = 0.0
    return 2.0 * sd / (v + sqrt(disc))


cdef inline void motion_left(Sim* s, int i, double v, double d, double* smax, double* tstop) noexcept nogil:
    """Distance still to slide (m) and absolute stop time (s) of disc i, now at speed v
    having slid d in its segment."""
    if s.lp.numeric:
        smax[0] = s.seg[i].s_stop - d
        tstop[0] = s.t0[i] + s.seg[i].t_stop
    else:
        smax[0] = v * v / (2.0 * s.a[i])
        tstop[0] = s.t + v / s.a[i]


cdef inline double travel(Sim* s, int i, double v, double d, double sd) noexcept nogil:
    """Time from now (s) for disc i, now at speed v having slid d, to slide sd more."""
    if s.lp.numeric:
        return s.t0[i] + seg_time_at(s.lp, s.R[i], &s.seg[i], d + sd) - s.t
    return tau_of_s(v, s.a[i], sd)


cdef inline double accel_now(Sim* s, int i) noexcept nogil:
    """Current sliding deceleration of disc i at the start of its segment, m/s^2."""
    if s.v0[i] <= 0.0:
        return 0.0
    if s.lp.numeric:
        return decel(s.lp, s.R[i], s.v0[i], fabs(s.w0[i]))
    return s.a[i]


cdef void rebase(Sim* s, int i) noexcept nogil:
    """Start a new segment of disc i at the current time (call restart once its
    velocity and spin are final)."""
    cdef double x, y, v
    state_at(s, i, s.t, &x, &y, &v)
    s.w0[i] = spin_at(s, i, s.t)
    s.x0[i] = x
    s.y0[i] = y
    s.v0[i] = v
    s.t0[i] = s.t
    if v <= 0.0:
        s.ux[i] = 0.0
        s.uy[i] = 0.0


cdef void restart(Sim* s, int i) noexcept nogil:
    """Start the segment of disc i from its current velocity and spin."""
    if not s.lp.numeric:
        return
    s.now[i].T = -INFINITY
    if seg_start(s.lp, s.R[i], s.v0[i] if s.status[i] == ST_BOARD else 0.0, fabs(s.w0[i]), &s.seg[i]) < 0:
        s.oom = 1


cdef void set_velocity(Sim* s, int i, double vx, double vy) noexcept nogil:
    cdef double v = sqrt(vx * vx + vy * vy)
    s.v0[i] = v
    if v > 0.0:
        s.ux[i] = vx / v
        s.uy[i] = vy / v
    else:
        s.ux[i] = 0.0
        s.uy[i] = 0.0


# ----------------------------------------------------------------------------------
# Event prediction
# ----------------------------------------------------------------------------------

cdef inline cnp.uint64_t box_code(Sim* s, const double* b, bint reach) noexcept nogil:
    """The box b (x_lo, y_lo, x_hi, y_hi, m), inside the square of half-size -s.qlo, packed
    in four 16-bit lanes of levels (l(x) = floor((x - qlo) qscale), 0 .. QMAX - 1): for a
    disc's box (reach false) the levels of its lows and QMAX minus those of its highs, for
    the reach box of ``predict`` (reach true) the levels of its highs and QMAX minus those
    of its lows. l never decreases with x, so two boxes that meet give no lane of the
    first above that of the second (``box_meets``)."""
    cdef cnp.uint64_t x0 = <cnp.uint64_t> <cnp.int64_t> ((b[0] - s.qlo) * s.qscale)
    cdef cnp.uint64_t y0 = <cnp.uint64_t> <cnp.int64_t> ((b[1] - s.qlo) * s.qscale)
    cdef cnp.uint64_t x1 = <cnp.uint64_t> <cnp.int64_t> ((b[2] - s.qlo) * s.qscale)
    cdef cnp.uint64_t y1 = <cnp.uint64_t> <cnp.int64_t> ((b[3] - s.qlo) * s.qscale)
    if reach:
        return x1 | (y1 << 16) | ((QMAX - x0) << 32) | ((QMAX - y0) << 48)
    return x0 | (y0 << 16) | ((QMAX - x1) << 32) | ((QMAX - y1) << 48)


cdef inline cnp.uint64_t box_meets(cnp.uint64_t disc, cnp.uint64_t reach) noexcept nogil:
    """1 when no lane of the packed disc box exceeds that of the packed reach box, given
    with the top bit of each lane set (``box_code``), else 0: each lane of the difference
    keeps that bit exactly when it does not, and borrows nothing from the next. A box test
    in four integer operations that never rejects two boxes that meet."""
    cdef cnp.uint64_t high = (<cnp.uint64_t> LANES) << 15
    return ((reach - disc) & high) == high


cdef inline double circle_entry(double dx, double dy, double ux, double uy, double rho) noexcept nogil:
    """Path length at which a point moving from offset (dx, dy) along u first reaches
    distance rho of the circle centre; 0 if already within and approaching; INF if never."""
    cdef double b = dx * ux + dy * uy
    cdef double cc = dx * dx + dy * dy - rho * rho
    cdef double disc
    if b >= 0.0:
        return INFINITY
    if cc <= 0.0:
        return 0.0
    disc = b * b - cc
    if disc < 0.0:
        return INFINITY
    return cc / (-b + sqrt(disc))


cdef inline bint paths_apart(double rx, double ry, double ux, double uy, double la, double wx,
                             double wy, double lb, double lim) noexcept nogil:
    """Whether the segments P(a) = p + a u, a in [0, la], and Q(b) = q + b w, b in [0, lb]
    (u, w unit vectors or zero with a zero length; r = p - q, m) stay farther apart than
    lim (m): their closest points by the clamped normal equations (Ericson, Real-Time
    Collision Detection, 2005, section 5.1.9), unless the starts are farther apart than
    la + lb + lim (no two points of the segments are closer than that less la + lb); the
    relative margin of 1e-9 on that square covers the rounding of the closest points, so
    the answer is the one they give."""
    cdef double bb, c, f, den, a = 0.0, b, dx, dy, r2 = rx * rx + ry * ry, far = la + lb + lim
    if r2 <= lim * lim:
        return 0   # the starts are that close (touching pairs: half the tests of a break)
    if r2 > far * far * (1.0 + 1e-9):
        return 1   # the starts farther apart than both lengths and lim (a margin for rounding)
    bb = ux * wx + uy * wy
    c = ux * rx + uy * ry
    f = wx * rx + wy * ry
    den = 1.0 - bb * bb
    if den > 1e-12:
        a = (bb * f - c) / den
        a = 0.0 if a < 0.0 else (la if a > la else a)
    b = bb * a + f
    if b < 0.0:
        b = 0.0
        a = -c
        a = 0.0 if a < 0.0 else (la if a > la else a)
    elif b > lb:
        b = lb
        a = bb * lb - c
        a = 0.0 if a < 0.0 else (la if a > la else a)
    dx = rx + a * ux - b * wx
    dy = ry + a * uy - b * wy
    return dx * dx + dy * dy > lim * lim


cdef inline void keep(double tc, int k, int part, double* best, int* bk, int* bp) noexcept nogil:
    if tc < best[0]:
        best[0] = tc
        bk[0] = k
        bp[0] = part


cdef inline void keep_sd(double sd, int k, int part, double* sbest, int* kbest, int* pbest) noexcept nogil:
    if sd < sbest[0]:
        sbest[0] = sd
        kbest[0] = k
        pbest[0] = part


cdef inline void cushion_ahead(double hr, double x, double ux, int k, double smax, double* sbest,
                               int* kbest, int* pbest) noexcept nogil:
    """Keep the path length to the cushion ahead on one axis, where the centre is at x
    moving with direction component ux != 0 and meets a cushion at +-hr: cushion k if
    ux > 0, else k + 1."""
    cdef double sd = (hr - x) / ux if ux > 0.0 else (hr + x) / -ux
    if sd < 0.0:
        sd = 0.0
    if sd <= smax:
        keep_sd(sd, EV_CUSHION, k if ux > 0.0 else k + 1, sbest, kbest, pbest)


cdef void single_events(Sim* s, int i, const Here* hi, double* best, int* bk, int* bp) noexcept nogil:
    """Stop, cushions, holes, pegs and the board edge for disc i, now in state hi. The
    candidates are compared as path lengths; only the shortest is converted to a time."""
    cdef Board* b = s.b
    cdef double x = hi.x, y = hi.y, v = hi.v, d = hi.d, ux, uy, smax, tstop, sd, r, h, rho, cc, bb
    cdef double sbest = INFINITY
    cdef int k, kbest = -1, pbest = -1
    if v <= 0.0:
        return
    ux = s.ux[i]
    uy = s.uy[i]
    r = s.R[i]
    h = b.h
    motion_left(s, i, v, d, &smax, &tstop)
    keep(tstop, EV_HORIZON if s.lp.numeric and s.seg[i].open else EV_STOP, -1, best, bk, bp)
    if not b.round_board:
        # cushions 0: +x, 1: -x, 2: +y, 3: -y (the outward normal of each): the one ahead
        # along each axis
        if ux != 0.0:
            cushion_ahead(h - r, x, ux, 0, smax, &sbest, &kbest, &pbest)
        if uy != 0.0:
            cushion_ahead(h - r, y, uy, 2, smax, &sbest, &kbest, &pbest)
    else:
        # first crossing of the surface edge (the centre leaves radius h)
        bb = x * ux + y * uy
        cc = x * x + y * y - h * h
        if cc >= 0.0:
            sd = 0.0
        elif bb > 0.0:
            sd = -cc / (bb + sqrt(bb * bb - cc))
        else:
            sd = -bb + sqrt(bb * bb - cc)
        if sd <= smax:
            keep_sd(sd, EV_DITCH, -1, &sbest, &kbest, &pbest)
    for k in range(b.nholes):
        if k == s.skip[i] or b.hr[k] <= r or (x - b.hx[k]) * ux + (y - b.hy[k]) * uy >= 0.0:
            continue  # or not heading towards it (``circle_entry``: none)
        rho = sqrt(b.hr[k] * b.hr[k] - r * r)
        cc = (x - b.hx[k]) * (x - b.hx[k]) + (y - b.hy[k]) * (y - b.hy[k]) - rho * rho
        if cc <= 0.0:
            continue  # already inside: it falls if it stops there
        sd = circle_entry(x - b.hx[k], y - b.hy[k], ux, uy, rho)
        if sd <= smax:
            keep_sd(sd, EV_HOLE, k, &sbest, &kbest, &pbest)
    for k in range(b.npegs):
        sd = circle_entry(x - b.px[k], y - b.py[k], ux, uy, r + b.pr[k])
        if sd <= smax:
            keep_sd(sd, EV_PEG, k, &sbest, &kbest, &pbest)
    if kbest >= 0:
        keep(s.t + travel(s, i, v, d, sbest), kbest, pbest, best, bk, bp)


cdef inline double poly(double* c, double t) noexcept nogil:
    return (((c[4] * t + c[3]) * t + c[2]) * t + c[1]) * t + c[0]


cdef inline double dpoly(double* c, double t) noexcept nogil:
    return ((4.0 * c[4] * t + 3.0 * c[3]) * t + 2.0 * c[2]) * t + c[1]


cdef double bracket_root(double* c, int deriv, double lo, double hi, double flo, double ftol) noexcept nogil:
    """Root of the quartic (deriv=0) or of its derivative (deriv=1) in [lo, hi], given a
    sign change (flo: the function's value at lo); Newton steps kept inside the shrinking
    bracket, else the chord of the bracket once f is known at both its ends (a root next
    to an end of a long bracket, where Newton from the middle overshoots, is then found at
    once instead of by halving down to it), else bisection.
    With ftol > 0 (deriv=0, f > 0 at lo), the first point found with 0 < f <= ftol is
    returned: the Newton steps then aim at f = ftol / 2, the middle of that band, so that
    an iterate within ftol / 2 of it ends the search from either side (aimed at f = 0,
    iterates converging from the f < 0 side had to reach the root to rounding first)."""
    cdef double x = 0.5 * (lo + hi), fl = flo, fh = 0.0
    cdef double fx, dfx, xn
    cdef int it
    cdef bint have_fh = 0
    for it in range(100):
        if deriv == 0:
            fx = poly(c, x)
            dfx = dpoly(c, x)
        else:
            fx = dpoly(c, x)
            dfx = (12.0 * c[4] * x + 6.0 * c[3]) * x + 2.0 * c[2]
        if fx == 0.0 or (fx > 0.0 and fx <= ftol):
            return x
        if (fx < 0.0) == (flo < 0.0):
            lo = x
            fl = fx
        else:
            hi = x
            fh = fx
            have_fh = 1
        if hi - lo <= 1e-15 * (1.0 + hi):
            break
        xn = x - (fx - 0.5 * ftol) / dfx if dfx != 0.0 else lo
        if not (xn > lo and xn < hi) and have_fh:
            xn = lo + (hi - lo) * (fl - 0.5 * ftol) / (fl - fh)   # the chord of the bracket
        if not (xn > lo and xn < hi):
            xn = 0.5 * (lo + hi)
        x = xn
    # return the end of the bracket on the entering side (f > 0 side) for deriv 0
    if deriv == 0:
        return lo if (flo > 0.0) else hi
    return 0.5 * (lo + hi)


cdef inline void gap_quartic(double dx, double dy, double wx, double wy, double qx, double qy,
                             double dist, double sigma, double* c) noexcept nogil:
    """Coefficients c[0..4] of f(t) = |D(t)|^2 - sigma^2 for the offset D = d + w t + q t^2
    (d = (dx, dy) at distance dist, relative velocity w, half relative acceleration q)."""
    c[4] = qx * qx + qy * qy
    c[3] = 2.0 * (wx * qx + wy * qy)
    c[2] = wx * wx + wy * wy + 2.0 * (dx * qx + dy * qy)
    c[1] = 2.0 * (dx * wx + dy * wy)
    c[0] = (dist - sigma) * (dist + sigma)


cdef inline int stays_above(double* c, double T, double level) noexcept nogil:
    """True when every Bernstein coefficient of the quartic f on [0, T] exceeds level, so
    that f > level on all of [0, T] (f is a convex combination of them)."""
    cdef double a1 = c[1] * T, a2 = c[2] * T * T, a3 = c[3] * T * T * T, a4 = c[4] * T * T * T * T
    return (c[0] > level and c[0] + 0.25 * a1 > level and c[0] + 0.5 * a1 + a2 / 6.0 > level
            and c[0] + 0.75 * a1 + 0.5 * a2 + 0.25 * a3 > level and c[0] + a1 + a2 + a3 + a4 > level)


cdef inline int rising(double* c, double T) noexcept nogil:
    """True when every Bernstein coefficient of the cubic f' on [0, T] is positive, so
    that the quartic f increases on all of [0, T] (a pair separating throughout)."""
    cdef double a1 = 2.0 * c[2] * T, a2 = 3.0 * c[3] * T * T, a3 = 4.0 * c[4] * T * T * T
    return (c[1] > 0.0 and c[1] + a1 / 3.0 > 0.0 and c[1] + 2.0 * a1 / 3.0 + a2 / 3.0 > 0.0
            and c[1] + a1 + a2 + a3 > 0.0)


cdef inline int inflections(double* c, double T, double* pts) noexcept nogil:
    """Split [0, T] at the real roots of f'' (a quadratic), so that the quartic f is convex
    or concave between consecutive points of ``pts`` (0, then the roots in (0, T), then T;
    at most 4); return the number of points."""
    cdef int npts = 0
    cdef double A = 12.0 * c[4], B = 6.0 * c[3], C = 2.0 * c[2]
    cdef double disc, q, r1, r2, tmp
    pts[npts] = 0.0
    npts += 1
    if A != 0.0:
        disc = B * B - 4.0 * A * C
        if disc > 0.0:
            q = -0.5 * (B + (sqrt(disc) if B >= 0.0 else -sqrt(disc)))
            r1 = q / A
            r2 = C / q if q != 0.0 else r1
            if r1 > r2:
                tmp = r1
                r1 = r2
                r2 = tmp
            if r1 > 0.0 and r1 < T:
                pts[npts] = r1
                npts += 1
            if r2 > 0.0 and r2 < T and r2 != r1:
                pts[npts] = r2
                npts += 1
    elif B != 0.0:
        r1 = -C / B
        if r1 > 0.0 and r1 < T:
            pts[npts] = r1
            npts += 1
    pts[npts] = T
    return npts + 1


cdef int monotone_pieces(double* c, double T, double* crit) noexcept nogil:
    """Split [0, T] at the real roots of f'' (``inflections``) and then of f' (on each
    piece f' is monotone), so that the quartic f is monotone between consecutive points of
    ``crit`` (at most 8); return the number of points."""
    cdef double pts[4]
    cdef int npts = inflections(c, T, pts), ncrit = 0, k
    cdef double lo, hi, flo, fhi
    # roots of f' on each piece where it is monotone
    crit[ncrit] = 0.0
    ncrit += 1
    for k in range(npts - 1):
        lo = pts[k]
        hi = pts[k + 1]
        flo = dpoly(c, lo)
        fhi = dpoly(c, hi)
        if (flo < 0.0 and fhi > 0.0) or (flo > 0.0 and fhi < 0.0):
            crit[ncrit] = bracket_root(c, 1, lo, hi, flo, 0.0)
            ncrit += 1
    crit[ncrit] = T
    ncrit += 1
    return ncrit


cdef inline int closing(double* c, double hi, double sigma) noexcept nogil:
    """True when a touching pair whose f = |D|^2 - sigma^2 decreases on [0, hi] (a monotone
    piece) is an impact now: it approaches faster than V_EPS, or it would sink deeper
    than TOUCH within the piece (pressed together, to any order in time)."""
    return -c[1] > 2.0 * sigma * V_EPS or poly(c, hi) < -2.0 * sigma * TOUCH


cdef double first_contact_quartic(double* c, double T, double sigma) noexcept nogil:
    """First time in [0, T] at which f = |D|^2 - sigma^2 reaches 0 while decreasing.

    f is monotone on every piece of ``monotone_pieces``, so the first contact is
    bracketed exactly; grazing contacts are not missed. A pair whose gap stays above the
    touching tolerance on [0, T] (``stays_above``, most pairs) is rejected at once, and so
    is a pair that only separates (``rising``: touching pairs after their impact).
    """
    cdef double crit[8]
    cdef int ncrit, k
    cdef double lo, hi, fa, fb
    if stays_above(c, T, 2.0 * sigma * TOUCH):
        return INFINITY
    if not (T > 0.0) or rising(c, T):
        return INFINITY   # no decreasing piece
    ncrit = monotone_pieces(c, T, crit)
    # first monotone decreasing piece that reaches f <= 0
    for k in range(ncrit - 1):
        lo = crit[k]
        hi = crit[k + 1]
        if hi <= lo:
            continue
        fa = poly(c, lo)
        fb = poly(c, hi)
        if fb >= fa:
            continue
        if fa <= 2.0 * sigma * TOUCH:
            if lo > 0.0:
                return lo
            # touching at the start: an impact only if really approaching or pressed
            if closing(c, hi, sigma):
                return 0.0
            continue
        if fb <= 0.0:
            return bracket_root(c, 0, lo, hi, fa, 0.0)
    return INFINITY


cdef double convex_entry(double* c, double lo, double hi, double ftol) noexcept nogil:
    """A time in (lo, hi] with 0 < f <= ftol before the first root of the quartic f,
    convex on [lo, hi] and positive at lo, or INF if f stays positive there; -1 if
    undecided after CONVEX_STEPS steps (a dip that only grazes 0, where Newton slows
    down) or if f(lo) <= ftol / 2 already. Newton steps from lo aimed at f = ftol / 2: a
    convex f lies above its tangents, so f > ftol / 2 up to every step's end, which never
    passes the root; f rising at a step's start, or the step ending beyond hi, means no
    root."""
    cdef double x = lo, fx = poly(c, lo), dx = dpoly(c, lo), xn
    cdef int it
    for it in range(CONVEX_STEPS):
        if dx >= 0.0:
            return INFINITY
        xn = x - (fx - 0.5 * ftol) / dx
        if not (xn < hi):
            return INFINITY
        if not (xn > x):
            return -1.0
        x = xn
        fx = poly(c, x)
        if fx <= ftol:
            return x
        dx = dpoly(c, x)
    return -1.0


cdef double first_entry_quartic(double* c, double T, double ftol) noexcept nogil:
    """First time in [0, T] at which the quartic f, positive at 0, reaches 0 (INF if it
    stays positive), for an f that ``stays_above`` does not reject (the caller's test).
    The convex and concave pieces of f (``inflections``) are visited in order, f > 0 at
    the start of each. On a convex piece, Newton steps from its start (``convex_entry``);
    a concave piece stays above its chord, so it holds a root only where f <= 0 at its
    end, and then one (f > 0 on an interval from its start), bracketed there. Where
    Newton stays undecided, the monotone pieces of f decide (``monotone_pieces``, as the
    Coulomb solver does). Any time with 0 < f <= ftol before the root will do (the first
    found)."""
    cdef double pts[4]
    cdef double crit[8]
    cdef int npts = inflections(c, T, pts), k
    cdef double lo, hi, x
    for k in range(npts - 1):
        lo = pts[k]
        hi = pts[k + 1]
        if not (hi > lo):
            continue
        x = 0.5 * (lo + hi)
        if (12.0 * c[4] * x + 6.0 * c[3]) * x + 2.0 * c[2] > 0.0:
            x = convex_entry(c, lo, hi, ftol)
            if x < 0.0:
                break
            if x < INFINITY:
                return x
        elif poly(c, hi) <= 0.0:
            return bracket_root(c, 0, lo, hi, poly(c, lo), ftol)
    else:
        return INFINITY
    npts = monotone_pieces(c, T, crit)
    for k in range(npts - 1):
        if crit[k + 1] > crit[k] and poly(c, crit[k + 1]) <= 0.0:
            return bracket_root(c, 0, crit[k], crit[k + 1], poly(c, crit[k]), ftol)
    return INFINITY


cdef inline void position_at(Sim* s, int i, double T, double* x, double* y, double* v) noexcept nogil:
    """Position and speed of disc i at time T inside its current segment (numeric laws),
    without touching the cache of the current state (``state_ex``)."""
    cdef double sd, w
    seg_eval(s.lp, s.R[i], &s.seg[i], T - s.t0[i], &sd, v, &w)
    x[0] = s.x0[i] + s.ux[i] * sd
    y[0] = s.y0[i] + s.uy[i] * sd


cdef void pair_gap(Sim* s, int i, int j, double T, double sigma, double* gap, double* gdot) noexcept nogil:
    """Gap (m) and its rate (m/s) of two discs at time T inside their current segments."""
    cdef double xi, yi, vi, xj, yj, vj, dx, dy, dist
    position_at(s, i, T, &xi, &yi, &vi)
    position_at(s, j, T, &xj, &yj, &vj)
    dx = xi - xj
    dy = yi - yj
    dist = sqrt(dx * dx + dy * dy)
    gap[0] = dist - sigma
    gdot[0] = (dx * (vi * s.ux[i] - vj * s.ux[j]) + dy * (vi * s.uy[i] - vj * s.uy[j])) / dist


cdef double turn_back(Sim* s, int i, int j, double lo, double hi, double sigma) noexcept nogil:
    """Time in [lo, hi] at which a pair separating at lo and approaching at hi turns back
    (bisection on the exact gap rate; the end where it does not yet approach), or -1 if the
    gap there exceeds TOUCH."""
    cdef double gap, gdot, mid
    cdef int it
    for it in range(200):
        mid = 0.5 * (lo + hi)
        if not (mid > lo and mid < hi):
            break
        pair_gap(s, i, j, mid, sigma, &gap, &gdot)
        if gdot >= 0.0:
            lo = mid
        else:
            hi = mid
    pair_gap(s, i, j, lo, sigma, &gap, &gdot)
    return lo if gap <= TOUCH else -1.0


cdef inline double bound_floor(double dist, double sigma) noexcept nogil:
    """The floor of the lower bound of a pair at centre distance dist (``advance_contact``):
    sigma - TOUCH / 2, fixed whatever the pair's current depth (a floor below the current
    distance let a pair chattering inside the touching band sink TOUCH / 2 deeper at every
    impact); a pair already that deep (rounding) may sink FLOOR_SLACK more per step."""
    cdef double se = sigma - 0.5 * TOUCH
    return se if dist - FLOOR_SLACK >= se else dist - FLOOR_SLACK


cdef inline double mid_range(double li, double hi, double lj, double hj, double* ai, double* aj) noexcept nogil:
    """The mid-range decelerations ai, aj of the bounds [li, hi] of disc i and [lj, hj] of
    disc j; returns E, a quarter of the sum of the ranges (``advance_contact``)."""
    ai[0] = 0.5 * (li + hi)
    aj[0] = 0.5 * (lj + hj)
    return 0.25 * (hi - li + hj - lj)


cdef inline int bound_clear(Sim* s, int i, int j, double ai, double aj, double E, double dx,
                            double dy, double wx, double wy, double dist, double se, double T,
                            double* c) noexcept nogil:
    """Set c to the quartic |D_q|^2 - (se + E t^2)^2 of ``advance_contact`` for discs i and
    j now at offset (dx, dy), distance dist, relative velocity (wx, wy), with D_q at the
    decelerations ai and aj; true when it stays positive on [0, T] (``stays_above``): no
    contact within T."""
    gap_quartic(dx, dy, wx, wy, -0.5 * (ai * s.ux[i] - aj * s.ux[j]), -0.5 * (ai * s.uy[i] - aj * s.uy[j]),
                dist, se, c)
    c[4] -= E * E
    c[2] -= 2.0 * se * E
    return stays_above(c, T, 0.0)


cdef double advance_contact(Sim* s, int i, int j, double xi, double yi, double vi, double xj,
                            double yj, double vj, double dist, double T, double sigma) noexcept nogil:
    """First contact of two moving discs, now at (xi, yi) with speed vi and at (xj, yj)
    with speed vj (``state_ex``) at centre distance dist (m), within T (s from now) for
    the friction laws without a closed-form contact time.

    Each disc slides on a straight line, its deceleration within the bounds [a_lo, a_hi]
    of its segment (``seg_bounds``). With the mid-range decelerations the offset D of the
    pair is the quartic-gap offset D_q = d + w t + q t^2 of the Coulomb solver, up to
    |D - D_q| <= E t^2 (E the sum of the two half-ranges, halved), so the gap exceeds
    |D_q| - E t^2 - sigma. Conservative advancement on the exact positions: each step goes
    to the first root of this lower bound reduced by TOUCH / 2 (``bound_floor``), a quartic
    solved exactly (``first_entry_quartic``): no contact is missed and an overlap can never
    exceed TOUCH / 2 (a step may end up to STEP_SHORT before that root: the root is not
    polished further). The error of the bound is E t^2 from the last exact state, so near
    a transversal contact the steps converge quadratically, and a pair whose lower bound
    never closes within T is rejected before the first step (tested before the steps'
    set-up). Most pairs are rejected before that, by a cheaper bound: |d + w t| is at
    least dist + gdot t (gdot the gap's rate now), and the decelerations, between 0 and
    a_hi, move each disc back from its linear path by at most a_hi t^2 / 2, so the
    centre distance exceeds dist + gdot t - (a_hi,i + a_hi,j) t^2 / 2, a concave
    quadratic: above the floor at T, above it on all of [0, T]. A pair that the bounds
    of the whole segments do not reject is tested again with the bounds over the window
    [now, now + T] only
    (``seg_decel_range``: the deceleration is monotone along a segment, so on the
    slide-spin tables they are those of the nodes enclosing the window's ends, far
    narrower), which then serve every step (``advance_steps``)."""
    cdef double dx = xi - xj, dy = yi - yj, wx = vi * s.ux[i] - vj * s.ux[j]
    cdef double wy = vi * s.uy[i] - vj * s.uy[j], gdot = (dx * wx + dy * wy) / dist, ai, aj, E, g2, se
    cdef double c[5]
    if dist - sigma <= TOUCH:
        if gdot < -V_EPS:
            return s.t   # touching and approaching: an impact now
        if gdot <= V_EPS:
            ai = decel(s.lp, s.R[i], vi, fabs(spin_at(s, i, s.t))) if vi > 0.0 else 0.0
            aj = decel(s.lp, s.R[j], vj, fabs(spin_at(s, j, s.t))) if vj > 0.0 else 0.0
            g2 = (wx * wx + wy * wy - gdot * gdot - dx * (ai * s.ux[i] - aj * s.ux[j])
                  - dy * (ai * s.uy[i] - aj * s.uy[j])) / dist
            if g2 < -V_EPS:
                return s.t   # pressed together
    se = bound_floor(dist, sigma)
    if dist - se + T * (gdot - 0.5 * (s.seg[i].a_hi + s.seg[j].a_hi) * T) > 0.0:
        return INFINITY   # most pairs end here: apart at the gap's rate now and the largest decelerations
    E = mid_range(s.seg[i].a_lo, s.seg[i].a_hi, s.seg[j].a_lo, s.seg[j].a_hi, &ai, &aj)
    if bound_clear(s, i, j, ai, aj, E, dx, dy, wx, wy, dist, se, T, c):
        return INFINITY
    return advance_steps(s, i, j, dx, dy, wx, wy, gdot, dist, T, sigma)


cdef double advance_steps(Sim* s, int i, int j, double dx, double dy, double wx, double wy,
                          double gdot, double dist, double T, double sigma) noexcept nogil:
    """The conservative-advancement steps of ``advance_contact`` for a pair that the bounds
    of the whole segments do not reject, now at offset (dx, dy), distance dist, relative
    velocity (wx, wy) and gap rate gdot. The contact time found is polished by a Newton
    step on the exact gap (velocities from the segments)."""
    cdef Seg* gi = &s.seg[i]
    cdef Seg* gj = &s.seg[j]
    cdef double tc = s.t, tend = s.t + T, gap = dist - sigma, se = bound_floor(dist, sigma)
    cdef double xi, yi, vi, xj, yj, vj, h, tprev, gprev, gdprev, li, hi_, lj, hj, ai, aj, E
    cdef double c[5]
    cdef int it
    seg_decel_range(s.lp, s.R[i], gi, tc - s.t0[i], tend - s.t0[i], &li, &hi_)
    seg_decel_range(s.lp, s.R[j], gj, tc - s.t0[j], tend - s.t0[j], &lj, &hj)
    E = mid_range(li, hi_, lj, hj, &ai, &aj)
    if bound_clear(s, i, j, ai, aj, E, dx, dy, wx, wy, dist, se, T, c):
        return INFINITY
    if (s.t0[i] == s.t0[j] and s.v0[i] == s.v0[j] and s.ux[i] == s.ux[j] and s.uy[i] == s.uy[j]
            and (not s.lp.slide_spin or (fabs(s.w0[i]) == fabs(s.w0[j]) and s.R[i] == s.R[j]))):
        # same motion (the spin moves a disc only under slide-spin): a fixed offset, which
        # the widened bound would approach step by step (tested here, where few pairs come)
        return INFINITY
    for it in range(100000):
        h = first_entry_quartic(c, tend - tc, 2.0 * se * STEP_SHORT)
        if not (h < INFINITY):
            return INFINITY
        tprev = tc
        gprev = gap
        gdprev = gdot
        tc += h
        if tc >= tend:
            return INFINITY
        position_at(s, i, tc, &xi, &yi, &vi)
        position_at(s, j, tc, &xj, &yj, &vj)
        dx = xi - xj
        dy = yi - yj
        dist = sqrt(dx * dx + dy * dy)
        gap = dist - sigma
        wx = vi * s.ux[i] - vj * s.ux[j]
        wy = vi * s.uy[i] - vj * s.uy[j]
        gdot = (dx * wx + dy * wy) / dist
        if gap <= TOUCH and gdot < 0.0:
            # reached by stepping, any approach is an impact (else the steps shrink to 0)
            if gprev <= TOUCH and (gdprev > V_EPS or (tprev > s.t and gdprev >= 0.0)):
                # it separated and turned back without leaving the touching band: the
                # contact goes on, an impact at the turn (as the Coulomb solver's at the
                # start of a decreasing piece), where the pair is merged if pressed (not
                # from a turn at the start, which is this impact's own turn)
                h = turn_back(s, i, j, tprev, tc, sigma)
                if h >= 0.0:
                    return h
            # Newton on the exact gap, kept when its curvature error is negligible
            h = -gap / gdot
            if ((wx * wx + wy * wy) / dist + gi.a_hi + gj.a_hi) * h * h <= 0.01 * TOUCH:
                tc += h
            return tc if tc > s.t else s.t
        se = bound_floor(dist, sigma)
        if bound_clear(s, i, j, ai, aj, E, dx, dy, wx, wy, dist, se, tend - tc, c):
            return INFINITY
    return INFINITY


# advance_contact is called through a pointer, so that the compiler keeps it out of
# ``predict`` (inlined there, the numeric laws' contact search made the Coulomb prediction
# 1 to 2 % costlier in instructions, through the register allocation of the larger function)
ctypedef double (*contact_fn)(Sim*, int, int, double, double, double, double, double, double, double,
                              double, double) noexcept nogil
cdef contact_fn numeric_contact = advance_contact


cdef inline double contact_at(Sim* s, double tc, double gap) noexcept nogil:
    """tc (s, INF for none), flagging ``s.touch_hit`` when the pair, now ``gap`` (m)
    apart, is touching (gap at most TOUCH) and meets at tc."""
    if tc < INFINITY and gap <= TOUCH:
        s.touch_hit = 1
    return tc


cdef double pair_time(Sim* s, int i, const Here* hi, int j, double horizon) noexcept nogil:
    """Absolute time of the next contact of discs i (now in state hi) and j, not both at
    rest at the start of their segments, before ``horizon`` (else INF)."""
    cdef double xi = hi.x, yi = hi.y, vi = hi.v, di = hi.d, xj, yj, vj, dj, dx, dy, sigma, dist, T
    cdef double sd, ti, tj, smax, tstop, wx, wy, qx, qy
    cdef double c[5]
    state_ex(s, j, s.t, &xj, &yj, &vj, &dj)
    if vi <= 0.0 and vj <= 0.0:
        return INFINITY
    sigma = s.R[i] + s.R[j]
    dx = xi - xj
    dy = yi - yj
    T = horizon - s.t
    if T < 0.0:
        return INFINITY
    dist = sqrt(dx * dx + dy * dy)
    if isfinite(T) and dist - sigma > (vi + vj) * T:
        return INFINITY   # cannot close the gap before the horizon
    if vj <= 0.0 or vi <= 0.0:
        # one disc at rest: a circle entry in the path length of the moving one
        if vi > 0.0:
            sd = circle_entry(dx, dy, s.ux[i], s.uy[i], sigma)
            motion_left(s, i, vi, di, &smax, &tstop)
            if sd > smax:
                return INFINITY
            # a touching, barely approaching pair is not an impact (see V_EPS)
            if sd == 0.0 and -(dx * s.ux[i] + dy * s.uy[i]) * vi < V_EPS * dist:
                return INFINITY
            if sd > vi * T:
                return INFINITY   # slower than v from now on: not before the horizon
            ti = travel(s, i, vi, di, sd)
        else:
            sd = circle_entry(-dx, -dy, s.ux[j], s.uy[j], sigma)
            motion_left(s, j, vj, dj, &smax, &tstop)
            if sd > smax:
                return INFINITY
            if sd == 0.0 and ((dx * s.ux[j] + dy * s.uy[j]) * vj < V_EPS * dist):
                return INFINITY
            if sd > vj * T:
                return INFINITY
            ti = travel(s, j, vj, dj, sd)
        return contact_at(s, s.t + ti if ti <= T else INFINITY, dist - sigma)
    motion_left(s, i, vi, di, &smax, &tstop)
    if tstop - s.t < T:
        T = tstop - s.t
    motion_left(s, j, vj, dj, &smax, &tstop)
    if tstop - s.t < T:
        T = tstop - s.t
    if s.lp.numeric:
        return contact_at(s, numeric_contact(s, i, j, xi, yi, vi, xj, yj, vj, dist, T, sigma), dist - sigma)
    wx = vi * s.ux[i] - vj * s.ux[j]
    wy = vi * s.uy[i] - vj * s.uy[j]
    qx = -0.5 * (s.a[i] * s.ux[i] - s.a[j] * s.ux[j])
    qy = -0.5 * (s.a[i] * s.uy[i] - s.a[j] * s.uy[j])
    gap_quartic(dx, dy, wx, wy, qx, qy, dist, sigma, c)
    sd = first_contact_quartic(c, T, sigma)
    return contact_at(s, s.t + sd if sd <= T else INFINITY, dist - sigma)


# ----------------------------------------------------------------------------------
# Event queue and neighbour grid
# ----------------------------------------------------------------------------------

cdef inline int queue_better(Sim* s, int a, int b) noexcept nogil:
    """The earlier of the queue entries a and b, b on the right of a: a wins ties, so the
    lowest disc index wins among equal times (the padding leaves, all on the right, hold
    the sentinel n, whose time is INF)."""
    return b if s.tn[b] < s.tn[a] else a


cdef void queue_init(Sim* s) noexcept nogil:
    """Build the tournament tree over the discs' next-event times tn."""
    cdef int v
    s.tn[s.n] = INFINITY
    for v in range(s.tp):
        s.tree[s.tp + v] = v if v < s.n else s.n
    for v in range(s.tp - 1, 0, -1):
        s.tree[v] = queue_better(s, s.tree[2 * v], s.tree[2 * v + 1])
    for v in range(s.ndirty):
        s.dirty[s.tdirty[v]] = 0
    s.ndirty = 0


cdef inline void set_tn(Sim* s, int k, double t) noexcept nogil:
    """Set disc k's next-event time; its path of the tournament tree is replayed by the
    next ``queue_sync`` (an event sets a disc's time several times: INF, then its new
    event, then maybe an earlier impact offered by a partner's prediction)."""
    s.tn[k] = t
    if not s.dirty[k]:
        s.dirty[k] = 1
        s.tdirty[s.ndirty] = k
        s.ndirty += 1


cdef void queue_sync(Sim* s) noexcept nogil:
    """Replay the tree paths of the discs whose time changed since the last call, each
    from its leaf up to the first node whose winner neither changes nor is that disc: the
    nodes above it keep their winners (a disc whose path stopped lower cannot win there,
    and a winner whose time changed replays its own path)."""
    cdef int q, k, v, w
    for q in range(s.ndirty):
        k = s.tdirty[q]
        s.dirty[k] = 0
        v = (s.tp + k) >> 1
        while v >= 1:
            w = queue_better(s, s.tree[2 * v], s.tree[2 * v + 1])
            if w == s.tree[v] and w != k:
                break
            s.tree[v] = w
            v >>= 1
    s.ndirty = 0


cdef inline void unlink(Sim* s, int k) noexcept nogil:
    """Take disc k off the partner list of disc ``s.wof[k]`` (>= 0), where its
    scheduled impact put it."""
    if s.wprev[k] >= 0:
        s.wnext[s.wprev[k]] = s.wnext[k]
    else:
        s.whead[s.wof[k]] = s.wnext[k]
    if s.wnext[k] >= 0:
        s.wprev[s.wnext[k]] = s.wprev[k]


cdef inline void set_event(Sim* s, int k, double t, int kind, int part) noexcept nogil:
    """Schedule disc k's next event, keeping the partner lists in step."""
    cdef int d = part if kind == EV_DISC else -1
    if s.wof[k] != d:
        if s.wof[k] >= 0:
            unlink(s, k)
        if d >= 0:
            s.wprev[k] = -1
            s.wnext[k] = s.whead[d]
            if s.whead[d] >= 0:
                s.wprev[s.whead[d]] = k
            s.whead[d] = k
        s.wof[k] = d
    s.kind[k] = kind
    s.partner[k] = part
    set_tn(s, k, t)


cdef inline void recheck(Sim* s, int k) noexcept nogil:
    """Turn disc k's scheduled impact into a re-prediction at the same time (EV_RECHECK),
    taking k off its partner's list (``set_event`` without the queue: the time stays)."""
    unlink(s, k)
    s.wof[k] = -1
    s.kind[k] = EV_RECHECK
    s.partner[k] = -1


cdef inline void sort_ints(int* a, int m) noexcept nogil:
    """Insertion sort of a[0:m] (short lists)."""
    cdef int q, r, v
    for q in range(1, m):
        v = a[q]
        r = q - 1
        while r >= 0 and a[r] > v:
            a[r + 1] = a[r]
            r -= 1
        a[r + 1] = v


cdef inline int grid_index(Sim* s, double x) noexcept nogil:
    """Cell row or column of coordinate x (m), clamped to the grid."""
    cdef double f = (x + s.glo) * s.gcs_inv
    if not (f >= 1.0):
        return 0
    if f >= s.gn - 1:
        return s.gn - 1
    return <int> f


cdef inline void grid_run(cnp.uint64_t* band, int* run, int c0, int c1, cnp.uint64_t bit) noexcept nogil:
    """Move the bit of one disc in one array of bands (the rows or the columns of the
    grid) from its registered run of bands run[0]..run[1] to c0..c1 (either may be empty:
    an end below the start)."""
    cdef int c
    if c0 == run[0] and c1 == run[1]:
        return
    for c in range(run[0], run[1] + 1):
        band[c] &= ~bit
    for c in range(c0, c1 + 1):
        band[c] |= bit
    run[0] = c0
    run[1] = c1


cdef void capsule_set(Sim* s, int i) noexcept nogil:
    """Sweep the capsule record of disc i from its current segment: from the start to the
    stop point (``motion_left``), clipped to the square where contacts can happen; empty
    for a disc not on the board."""
    cdef Cap* cp = &s.cap[i]
    cdef double* box = s.box + 4 * i
    cdef double x0 = s.x0[i], y0 = s.y0[i], ux = s.ux[i], uy = s.uy[i], rr = s.R[i] + GRID_MARGIN
    cdef double s1 = 0.0, smax, tstop, xb, yb
    cp.x0 = x0
    cp.y0 = y0
    cp.ux = ux
    cp.uy = uy
    cp.v0 = s.v0[i]
    cp.t0 = s.t0[i]
    cp.rr = rr
    if s.status[i] != ST_BOARD:
        box[0] = INFINITY   # an empty box
        box[1] = INFINITY
        box[2] = -INFINITY
        box[3] = -INFINITY
        s.qbox[i] = (<cnp.uint64_t> LANES) * QMAX   # above the lanes of every reach box
        cp.len = 0.0
        return
    if s.v0[i] > 0.0:
        motion_left(s, i, s.v0[i], 0.0, &smax, &tstop)
        s1 = smax
        if ux > 0.0 and (s.glim - x0) / ux < s1:
            s1 = (s.glim - x0) / ux
        elif ux < 0.0 and (-s.glim - x0) / ux < s1:
            s1 = (-s.glim - x0) / ux
        if uy > 0.0 and (s.glim - y0) / uy < s1:
            s1 = (s.glim - y0) / uy
        elif uy < 0.0 and (-s.glim - y0) / uy < s1:
            s1 = (-s.glim - y0) / uy
        if not (s1 > 0.0):
            s1 = 0.0
    cp.len = s1
    xb = x0 + ux * s1
    yb = y0 + uy * s1
    box[0] = (x0 if x0 < xb else xb) - rr
    box[1] = (y0 if y0 < yb else yb) - rr
    box[2] = (xb if x0 < xb else x0) + rr
    box[3] = (yb if y0 < yb else y0) + rr
    s.qbox[i] = box_code(s, box, 0)


cdef void grid_set(Sim* s, int i) noexcept nogil:
    """Register disc i in the rows and the columns of the grid covered by the bounding box
    of its swept capsule (``capsule_set``): its current segment, thickened by its radius
    and GRID_MARGIN. A disc not on the board leaves the grid.

    Every contact that ``pair_time`` can report lies on both discs' segments, with the
    centre of the disc being predicted inside the box of half-size ``glim - 2 rmax``
    (it is before its own cushion or ditch event), so both centres are inside the clip
    square and the touching point lies in both capsules: in a row and in a column of
    both boxes.

    The grid is stored as gw pairs of arrays of gn words, the rows then the columns,
    each word the mask of 64 discs whose box covers that row or column, so that disc
    i's bit lives in one word per row and per column. ``s.span`` keeps disc i's runs
    (rows sp[0]..sp[1], columns sp[2]..sp[3]), so that an unchanged run is not touched.
    """
    cdef int* sp = s.span + 4 * i
    cdef cnp.uint64_t* rows = s.cells + 2 * (i >> 6) * s.gn
    cdef cnp.uint64_t bit = (<cnp.uint64_t> 1) << (i & 63)
    cdef double* box = s.box + 4 * i
    capsule_set(s, i)
    if s.status[i] == ST_BOARD:
        grid_run(rows, sp, grid_index(s, box[1]), grid_index(s, box[3]), bit)
        grid_run(rows + s.gn, sp + 2, grid_index(s, box[0]), grid_index(s, box[2]), bit)
    else:
        grid_run(rows, sp, 0, -1, bit)
        grid_run(rows + s.gn, sp + 2, 0, -1, bit)


cdef void grid_candidates(Sim* s, int i) noexcept nogil:
    """s.cand = the discs other than i registered in a row and in a column of disc i's
    capsule box."""
    cdef int* sp = s.span + 4 * i
    cdef int w, c, gn = s.gn
    cdef cnp.uint64_t racc, cacc
    cdef cnp.uint64_t* rows
    for w in range(s.gw):
        rows = s.cells + 2 * w * gn
        racc = 0
        for c in range(sp[0], sp[1] + 1):
            racc |= rows[c]
        cacc = 0
        for c in range(gn + sp[2], gn + sp[3] + 1):
            cacc |= rows[c]
        s.cand[w] = racc & cacc
    s.cand[i >> 6] &= ~((<cnp.uint64_t> 1) << (i & 63))


cdef inline void reach_box(Sim* s, int i, const Here* hi, double horizon, double* rb) noexcept nogil:
    """rb = the box (x_lo, y_lo, x_hi, y_hi, m) that disc i, now in state hi, covers before
    ``horizon``: the part of its registered capsule (``s.cap``) within the distance v T it
    can slide in the time T left (its speed never rises), widened by its radius; rb[4] =
    the length of its path from hi in that part, m.

    A disc j whose capsule box misses it cannot come within R_i + R_j + GRID_MARGIN of
    disc i before the horizon, so ``pair_time`` would report no contact: four comparisons
    replace its evaluation of j's state for most candidates."""
    cdef Cap* ci = &s.cap[i]
    cdef double* box = s.box + 4 * i
    cdef double L = hi.v * (horizon - s.t) if hi.v > 0.0 else 0.0
    cdef double rr = ci.rr
    rb[0] = box[0] if box[0] > hi.x - L - rr else hi.x - L - rr
    rb[1] = box[1] if box[1] > hi.y - L - rr else hi.y - L - rr
    rb[2] = box[2] if box[2] < hi.x + L + rr else hi.x + L + rr
    rb[3] = box[3] if box[3] < hi.y + L + rr else hi.y + L + rr
    rb[4] = ci.len - hi.d if ci.len - hi.d < L else L
    if not (rb[4] > 0.0):
        rb[4] = 0.0


cdef inline void note_apart(Sim* s, int k, int i) noexcept nogil:
    """Record that disc i's prediction found no contact of i with disc k, still to be
    predicted in this event."""
    s.apart[k * s.gw + (i >> 6)] |= (<cnp.uint64_t> 1) << (i & 63)


cdef void predict(Sim* s, int i) noexcept nogil:
    """Full re-prediction of disc i's next event; pair events are offered to partners.

    Only discs sharing a grid row and a grid column with i can meet it
    (``grid_candidates``); they are visited in increasing index order, as a scan of all
    discs would, so the horizons and hence the results are those of the all-pairs scan. A
    pair that the prediction of the other disc found without a contact earlier in this
    event (``s.apart``) is skipped: that test ran to a horizon at least as late (the other
    disc's best time then, which only falls), with the same motions.
    """
    cdef double best = INFINITY
    cdef int bk = EV_NONE, bp = -1, j, w, q, noff = 0
    cdef bint shrunk, apart
    cdef cnp.uint64_t keep
    cdef double tc, hz, la, lb, uxi, uyi, rri, ri
    cdef cnp.uint64_t bits
    cdef Here hi
    cdef double rb[5]
    cdef Cap* cj
    cdef cnp.uint64_t rq
    cdef const cnp.uint64_t* qw
    cdef Py_ssize_t k
    if s.status[i] != ST_BOARD:
        set_event(s, i, INFINITY, EV_NONE, -1)
        for w in range(s.gw):
            s.apart[i * s.gw + w] = 0
        return
    state_ex(s, i, s.t, &hi.x, &hi.y, &hi.v, &hi.d)
    single_events(s, i, &hi, &best, &bk, &bp)
    grid_candidates(s, i)
    reach_box(s, i, &hi, best, rb)
    rq = box_code(s, rb, 1) | ((<cnp.uint64_t> LANES) << 15)
    uxi = s.cap[i].ux
    uyi = s.cap[i].uy
    rri = s.cap[i].rr
    ri = s.R[i]
    for w in range(s.gw):
        # the box test first for every candidate of the word, without a branch (most fail,
        # unpredictably), then again where the box shrank since (a better event found)
        bits = s.cand[w] & ~s.apart[i * s.gw + w]
        s.apart[i * s.gw + w] = 0
        qw = s.qbox + 64 * w
        keep = 0
        while bits:
            k = __builtin_ctzll(bits)
            bits &= bits - 1
            keep |= box_meets(qw[k], rq) << k
        bits = keep
        shrunk = 0
        while bits:
            j = 64 * w + __builtin_ctzll(bits)
            bits &= bits - 1
            cj = &s.cap[j]
            if shrunk and not box_meets(s.qbox[j], rq):
                continue   # pair_time would find no contact
            hz = best if best < s.tn[j] else s.tn[j]   # best for a stale j (time INF)
            if cj.v0 <= 0.0:
                if hi.v <= 0.0:
                    continue   # both at rest
                # j at rest (i moves): pair_time's own test, no circle entry within the
                # distance v T that i can slide before hz
                apart = not (circle_entry(hi.x - cj.x0, hi.y - cj.y0, uxi, uyi, ri + s.R[j])
                             <= hi.v * (hz - s.t))
            else:
                # nor when the paths the two can slide before hz miss each other (neither
                # speeds up within a segment); 0 x INF for a disc at rest keeps its length
                la = hi.v * (hz - s.t)
                if not (la < rb[4]):
                    la = rb[4]
                lb = cj.v0 * (hz - cj.t0)
                if not (lb < cj.len):
                    lb = cj.len
                apart = paths_apart(hi.x - cj.x0, hi.y - cj.y0, uxi, uyi, la, cj.ux, cj.uy, lb, rri + cj.rr)
            if apart:
                if s.stale[j] == 1:
                    note_apart(s, j, i)
                continue
            tc = pair_time(s, i, &hi, j, hz)
            if tc < best:
                best = tc
                bk = EV_DISC
                bp = j
                reach_box(s, i, &hi, best, rb)
                rq = box_code(s, rb, 1) | ((<cnp.uint64_t> LANES) << 15)
                shrunk = 1
            if tc < s.tn[j] and not s.stale[j]:
                s.offk[noff] = j
                s.offt[noff] = tc
                noff += 1
            elif s.stale[j] == 1 and not (tc < INFINITY):
                note_apart(s, j, i)
    for q in range(noff):
        j = s.offk[q]
        if s.offt[q] <= best and s.offt[q] < s.tn[j]:
            set_event(s, j, s.offt[q], EV_DISC, i)
    set_event(s, i, best, bk, bp)


# ----------------------------------------------------------------------------------
# Impacts (Walton's model; docs/physics.md)
# ----------------------------------------------------------------------------------

cdef void walton(double* vi, double* wi, double mi_inv, double Ri, double Ii_inv,
                 double* vj, double* wj, double mj_inv, double Rj, double Ij_inv,
                 double nx, double ny, double e, double mu_c, double beta0) noexcept nogil:
    """Resolve an impact along n (from i to j) with normal restitution e. j may be fixed
    (mj_inv = Ij_inv = 0)."""
    cdef double tx = -ny, ty = nx
    cdef double vn = (vi[0] - vj[0]) * nx + (vi[1] - vj[1]) * ny
    cdef double cc, Wn, Wt, Jn, Jt, beta
    if vn <= 0.0:
        return
    cc = (vi[0] - vj[0]) * tx + (vi[1] - vj[1]) * ty + Ri * wi[0] + Rj * wj[0]
    Wn = mi_inv + mj_inv
    Wt = Wn + Ri * Ri * Ii_inv + Rj * Rj * Ij_inv
    Jn = (1.0 + e) * vn / Wn
    Jt = 0.0
    if cc != 0.0:
        beta = -1.0 + mu_c * (1.0 + e) * vn * Wt / (Wn * fabs(cc))
        if beta > beta0:
            beta = beta0
        Jt = (1.0 + beta) * cc / Wt
    vi[0] -= (Jn * nx + Jt * tx) * mi_inv
    vi[1] -= (Jn * ny + Jt * ty) * mi_inv
    wi[0] -= Ri * Jt * Ii_inv
    vj[0] += (Jn * nx + Jt * tx) * mj_inv
    vj[1] += (Jn * ny + Jt * ty) * mj_inv
    wj[0] -= Rj * Jt * Ij_inv


cdef inline void leave_obstacle(double* vi, double nx, double ny) noexcept nogil:
    """Remove what rounding leaves of the velocity into a fixed obstacle of normal n after
    an impact with it: a plastic impact (e = 0) can leave 1e-17 m/s into a cushion, which
    would be a second impact at the same instant."""
    cdef double vin = vi[0] * nx + vi[1] * ny
    if vin > 0.0:
        vi[0] -= vin * nx
        vi[1] -= vin * ny


cdef inline int again(Sim* s, int i, int other) noexcept nogil:
    """True when disc i meets ``other`` (a disc, or -2 - cushion, -6 - peg) again less than
    the contact duration after its previous impact, which was with ``other`` too: one
    continuing contact (the partner's previous impact must have been with i as well)."""
    return s.t - s.tlast[i] < s.p.tc and s.plast[i] == other and (other < 0 or s.plast[other] == i)


cdef double restitution(Sim* s, int i, int j, double e, double vn, int cont) noexcept nogil:
    """Normal restitution of an impact of disc i with disc j (j = -1: a fixed obstacle) at
    normal speed vn (docs/physics.md): 0 for a continuing contact (``cont``); else 1 while
    either disc's previous impact is less than the contact duration ago (TC model); else 0
    below the plastic speed; else e."""
    if cont:
        return 0.0
    if s.t - s.tlast[i] < s.p.tc or (j >= 0 and s.t - s.tlast[j] < s.p.tc):
        return 1.0
    if vn < s.p.plastic:
        return 0.0
    return e


cdef inline void remember(Sim* s, int i, int other, double vn) noexcept nogil:
    """Record an impact (vn > 0) of disc i with ``other`` now, for the TC model."""
    if vn > 0.0:
        s.tlast[i] = s.t
        s.plast[i] = other


cdef void merge_cluster(Sim* s, int i, int j, double nx, double ny) noexcept nogil:
    """Give the pressed cluster containing i and j its centre-of-mass velocity.

    The cluster grows over discs touching a member and not separating from it, so that
    trains of pushing discs slide, and stop, together (docs/physics.md, sustained contact).
    With j = -1 the cluster is pressed by disc i against a fixed obstacle of normal n:
    the common velocity then loses its component into the obstacle (a plastic impact of
    the whole cluster).
    """
    cdef int top = 0, k, q, l
    cdef double px = 0.0, py = 0.0, mt = 0.0, xk, yk, vk, xl, yl, vl, dx, dy, d, rel
    for k in range(s.n):
        s.stale[k] = 0
    s.stack[top] = i
    top += 1
    s.stale[i] = 2
    if j >= 0:
        s.stack[top] = j
        top += 1
        s.stale[j] = 2
    q = 0
    while q < top:
        k = s.stack[q]
        q += 1
        state_at(s, k, s.t, &xk, &yk, &vk)
        for l in range(s.n):
            if s.stale[l] or s.status[l] != ST_BOARD:
                continue
            state_at(s, l, s.t, &xl, &yl, &vl)
            dx = xl - xk
            dy = yl - yk
            d = sqrt(dx * dx + dy * dy)
            if d - s.R[k] - s.R[l] > TOUCH:
                continue
            rel = ((vl * s.ux[l] - vk * s.ux[k]) * dx + (vl * s.uy[l] - vk * s.uy[k]) * dy) / d
            if rel > V_EPS:
                continue  # separating
            s.stale[l] = 2
            s.stack[top] = l
            top += 1
    for q in range(top):
        k = s.stack[q]
        rebase(s, k)
        px += s.m[k] * s.v0[k] * s.ux[k]
        py += s.m[k] * s.v0[k] * s.uy[k]
        mt += s.m[k]
    px /= mt
    py /= mt
    if j < 0 and px * nx + py * ny > 0.0:
        rel = px * nx + py * ny
        px -= rel * nx
        py -= rel * ny
    for q in range(top):
        set_velocity(s, s.stack[q], px, py)
        s.stale[s.stack[q]] = 0
        if s.lp.slide_spin:
            # pressed discs stop spinning: with a common velocity and no spin they feel
            # the same deceleration, so they slide on together (docs/physics.md)
            s.w0[s.stack[q]] = 0.0
    s.nmoved = top


cdef int pressed(Sim* s, int i, int j) noexcept nogil:
    """True when touching discs i, j (rebased to now) do not separate and friction pushes
    them together: their squared distance has a negative second derivative, or it
    decreases on its first monotone piece and sinks deeper than TOUCH there (the test
    ``first_contact_quartic`` applies, so a pair it would meet again at once is merged).
    The quartic uses the current decelerations; it holds until the first disc stops."""
    cdef double ai, aj, T = 1.0
    cdef double dx = s.x0[i] - s.x0[j], dy = s.y0[i] - s.y0[j]
    cdef double d = sqrt(dx * dx + dy * dy)
    cdef double wx = s.v0[i] * s.ux[i] - s.v0[j] * s.ux[j], wy = s.v0[i] * s.uy[i] - s.v0[j] * s.uy[j]
    cdef double c[5]
    cdef double crit[8]
    if 2.0 * (dx * wx + dy * wy) > 2.0 * d * V_EPS:
        return 0   # separating (the decelerations, costly under slide-spin, are not needed)
    ai = accel_now(s, i)
    aj = accel_now(s, j)
    gap_quartic(dx, dy, wx, wy, -0.5 * (ai * s.ux[i] - aj * s.ux[j]), -0.5 * (ai * s.uy[i] - aj * s.uy[j]),
                d, s.R[i] + s.R[j], c)
    if c[2] < 0.0:
        return 1
    if ai > 0.0 and s.v0[i] / ai < T:
        T = s.v0[i] / ai
    if aj > 0.0 and s.v0[j] / aj < T:
        T = s.v0[j] / aj
    monotone_pieces(c, T, crit)
    return poly(c, crit[1]) < c[0] and closing(c, crit[1], s.R[i] + s.R[j])


# ----------------------------------------------------------------------------------
# Recording
# ----------------------------------------------------------------------------------

cdef int rec_segment(Sim* s, int i) noexcept nogil:
    cdef Rec* r = &s.rec
    cdef int k
    if r.nseg == r.cap_seg:
        r.cap_seg = 2 * r.cap_seg + 64
        r.seg_f = <double*> realloc(r.seg_f, r.cap_seg * 6 * sizeof(double))
        r.seg_i = <int*> realloc(r.seg_i, r.cap_seg * 2 * sizeof(int))
        if r.seg_f == NULL or r.seg_i == NULL:
            return -1
    k = r.nseg
    r.seg_f[6 * k] = s.t0[i]
    r.seg_f[6 * k + 1] = s.x0[i]
    r.seg_f[6 * k + 2] = s.y0[i]
    r.seg_f[6 * k + 3] = s.v0[i] * s.ux[i]
    r.seg_f[6 * k + 4] = s.v0[i] * s.uy[i]
    r.seg_f[6 * k + 5] = s.w0[i]
    r.seg_i[2 * k] = i
    r.seg_i[2 * k + 1] = s.status[i]
    r.nseg += 1
    return 0


cdef int rec_event(Sim* s, int kind, int i, int j, int detail, double vn) noexcept nogil:
    cdef Rec* r = &s.rec
    cdef int k, q, d
    if r.nev == r.cap_ev:
        r.cap_ev = 2 * r.cap_ev + 64
        r.ev_f = <double*> realloc(r.ev_f, r.cap_ev * 12 * sizeof(double))
        r.ev_i = <int*> realloc(r.ev_i, r.cap_ev * 4 * sizeof(int))
        if r.ev_f == NULL or r.ev_i == NULL:
            return -1
    k = r.nev
    r.ev_f[12 * k] = s.t
    r.ev_f[12 * k + 1] = vn
    for q in range(2):
        d = i if q == 0 else j
        if d >= 0:
            r.ev_f[12 * k + 2 + 5 * q] = s.x0[d]
            r.ev_f[12 * k + 3 + 5 * q] = s.y0[d]
            r.ev_f[12 * k + 4 + 5 * q] = s.v0[d] * s.ux[d]
            r.ev_f[12 * k + 5 + 5 * q] = s.v0[d] * s.uy[d]
            r.ev_f[12 * k + 6 + 5 * q] = s.w0[d]
        else:
            for d in range(5):
                r.ev_f[12 * k + 2 + 5 * q + d] = 0.0
    r.ev_i[4 * k] = kind
    r.ev_i[4 * k + 1] = i
    r.ev_i[4 * k + 2] = j
    r.ev_i[4 * k + 3] = detail
    r.nev += 1
    return 0


# ----------------------------------------------------------------------------------
# Event processing
# ----------------------------------------------------------------------------------

cdef void capture_if_inside(Sim* s, int i) noexcept nogil:
    """Disc i, if on the board and at rest inside a capture circle, falls (docs/physics.md)."""
    cdef Board* b = s.b
    cdef int k
    cdef double rho2, dx, dy
    if s.status[i] != ST_BOARD or s.v0[i] > 0.0:
        return
    for k in range(b.nholes):
        if b.hr[k] <= s.R[i]:
            continue
        rho2 = b.hr[k] * b.hr[k] - s.R[i] * s.R[i]
        dx = s.x0[i] - b.hx[k]
        dy = s.y0[i] - b.hy[k]
        if dx * dx + dy * dy <= rho2:
            s.status[i] = ST_HOLE
            s.hole[i] = k
            s.tcap[i] = s.t
            return


cdef inline int rec_fall(Sim* s, int d) noexcept nogil:
    """Log disc d's fall at this instant, if it fell now, as a pocket event of its own
    (speed 0); 0, or -1 when out of memory."""
    if s.status[d] == ST_HOLE and s.tcap[d] == s.t:
        return rec_event(s, EV_HOLE, d, -1, s.hole[d], 0.0)
    return 0


cdef void track_striker(Sim* s, int kind, int i, int j) noexcept nogil:
    """Striker facts the rules read: its first impact, how far forward it went, the discs
    it hit directly (all of them, and those before its first cushion hit with its centre
    beyond ``frame_reach``), and the discs reached by it directly or through own discs."""
    cdef int st = s.striker
    cdef double r
    cdef cnp.uint64_t bi, bj
    if i == st or j == st:
        if s.sfirst == 0 and (kind == EV_DISC or kind == EV_CUSHION or kind == EV_PEG):
            s.sfirst = kind
        r = s.fx * s.x0[st] + s.fy * s.y0[st]
        if r > s.reach:
            s.reach = r
        if kind == EV_CUSHION and r > s.frame_reach:
            s.framed = 1
    if kind == EV_DISC and i < 64 and j < 64:
        bi = (<cnp.uint64_t> 1) << i
        bj = (<cnp.uint64_t> 1) << j
        if i == st:
            s.touched |= bj
            if not s.framed:
                s.direct |= bj
        elif j == st:
            s.touched |= bi
            if not s.framed:
                s.direct |= bi
        if (s.carriers & bi) and not (s.carriers & bj):
            s.struck |= bj
            if s.own & bj:
                s.carriers |= bj
        elif (s.carriers & bj) and not (s.carriers & bi):
            s.struck |= bi
            if s.own & bi:
                s.carriers |= bi


cdef int process(Sim* s, int i, int kind, int part) noexcept nogil:
    """Carry out an event of disc i (of kind ``kind`` with ``part``) at time s.t; return
    the partner disc or -1."""
    cdef int j = -1, k, cont = 0
    cdef double vi[2]
    cdef double vj[2]
    cdef double wi, wj, nx, ny, d, vn = 0.0, wx, wy
    cdef Board* b = s.b
    cdef Params* p = s.p
    rebase(s, i)
    vi[0] = s.v0[i] * s.ux[i]
    vi[1] = s.v0[i] * s.uy[i]
    wi = s.w0[i]
    vj[0] = 0.0
    vj[1] = 0.0
    wj = 0.0
    if kind != EV_PASS and s.skip[i] >= 0:
        s.skip[i] = -1
    if kind == EV_STOP:
        s.v0[i] = 0.0
        s.ux[i] = 0.0
        s.uy[i] = 0.0
    elif kind == EV_CUSHION:
        nx = 1.0 if part == 0 else (-1.0 if part == 1 else 0.0)
        ny = 1.0 if part == 2 else (-1.0 if part == 3 else 0.0)
        # the impact is at the contact: the centre on the contact line, h - r from the
        # middle (evaluating the motion there can leave it an ulp beyond, off the playing
        # surface as Board.contains reads it, and then at rest against the cushion)
        if part < 2:
            s.x0[i] = nx * (b.h - s.R[i])
        else:
            s.y0[i] = ny * (b.h - s.R[i])
        vn = vi[0] * nx + vi[1] * ny
        cont = again(s, i, -2 - part)
        walton(vi, &wi, 1.0 / s.m[i], s.R[i], 1.0 / s.inertia[i], vj, &wj, 0.0, 0.0, 0.0,
               nx, ny, restitution(s, i, -1, p.e_cush, vn, cont), p.mu_cush, p.beta_cush)
        leave_obstacle(vi, nx, ny)
        remember(s, i, -2 - part, vn)
        set_velocity(s, i, vi[0], vi[1])
        s.w0[i] = wi
        if cont or vn < p.plastic:
            merge_cluster(s, i, -1, nx, ny)
    elif kind == EV_PEG:
        nx = b.px[part] - s.x0[i]
        ny = b.py[part] - s.y0[i]
        d = sqrt(nx * nx + ny * ny)
        nx /= d
        ny /= d
        vn = vi[0] * nx + vi[1] * ny
        cont = again(s, i, -6 - part)
        walton(vi, &wi, 1.0 / s.m[i], s.R[i], 1.0 / s.inertia[i], vj, &wj, 0.0, b.pr[part], 0.0,
               nx, ny, restitution(s, i, -1, p.e_peg, vn, cont), p.mu_peg, p.beta_peg)
        leave_obstacle(vi, nx, ny)
        remember(s, i, -6 - part, vn)
        set_velocity(s, i, vi[0], vi[1])
        s.w0[i] = wi
        if cont or vn < p.plastic:
            merge_cluster(s, i, -1, nx, ny)
    elif kind == EV_HOLE:
        vn = s.v0[i]
        if s.v0[i] > fmin(p.vcap, b.hv[part]):
            kind = EV_PASS
            s.skip[i] = part
        else:
            s.status[i] = ST_HOLE
            s.hole[i] = part
            s.tcap[i] = s.t
            s.v0[i] = 0.0
    elif kind == EV_DITCH:
        vn = s.v0[i]
        s.status[i] = ST_DITCH
        s.tcap[i] = s.t
        s.v0[i] = 0.0
    elif kind == EV_DISC:
        j = part
        rebase(s, j)
        vj[0] = s.v0[j] * s.ux[j]
        vj[1] = s.v0[j] * s.uy[j]
        wj = s.w0[j]
        nx = s.x0[j] - s.x0[i]
        ny = s.y0[j] - s.y0[i]
        d = sqrt(nx * nx + ny * ny)
        nx /= d
        ny /= d
        vn = (vi[0] - vj[0]) * nx + (vi[1] - vj[1]) * ny
        cont = again(s, i, j)
        walton(vi, &wi, 1.0 / s.m[i], s.R[i], 1.0 / s.inertia[i], vj, &wj, 1.0 / s.m[j], s.R[j],
               1.0 / s.inertia[j], nx, ny, restitution(s, i, j, p.e_disc, vn, cont), p.mu_disc,
               p.beta_disc)
        remember(s, i, j, vn)
        remember(s, j, i, vn)
        set_velocity(s, i, vi[0], vi[1])
        set_velocity(s, j, vj[0], vj[1])
        s.w0[i] = wi
        s.w0[j] = wj
        if s.first_contact < 0 and (i == s.striker or j == s.striker):
            s.first_contact = j if i == s.striker else i
        wx = vi[0] - vj[0]
        wy = vi[1] - vj[1]
        if cont or pressed(s, i, j) or (vn < p.plastic and wx * wx + wy * wy <= p.plastic * p.plastic):
            merge_cluster(s, i, j, nx, ny)
    # a disc brought to rest over a hole (by its stop, an impact or a merge) falls
    capture_if_inside(s, i)
    if j >= 0:
        capture_if_inside(s, j)
    for k in range(s.nmoved):
        capture_if_inside(s, s.stack[k])
    track_striker(s, kind, i, j)
    if s.record:
        for k in range(s.nmoved):
            if s.stack[k] != i and s.stack[k] != j and rec_segment(s, s.stack[k]) < 0:
                return -2
        if rec_event(s, kind, i, j, part if kind != EV_DISC else -1, vn) < 0:
            return -2
        if rec_segment(s, i) < 0:
            return -2
        if j >= 0 and rec_segment(s, j) < 0:
            return -2
        # each fall at rest (above) is logged after the event that ended there (disc i's
        # own fall into a hole is that event)
        if kind != EV_HOLE and rec_fall(s, i) < 0:
            return -2
        if j >= 0 and rec_fall(s, j) < 0:
            return -2
        for k in range(s.nmoved):
            if s.stack[k] != i and s.stack[k] != j and rec_fall(s, s.stack[k]) < 0:
                return -2
    return j


cdef void touch_row(Sim* s, int d) noexcept nogil:
    """Make disc d's row for this instant: the discs on the board it touches now (gap at
    most TOUCH). A disc whose row is already made at this instant (listed: ``changed``)
    gives its bit of d instead of the test."""
    cdef cnp.uint64_t* row = s.touch + d * s.gw
    cdef cnp.uint64_t* rows
    cdef cnp.uint64_t bits
    cdef int w, l, r0, r1, c0, c1
    cdef double x, y, v, xl, yl, vl, dx, dy, lim, rr, a
    cdef double* bl
    cdef Cap* cl
    for w in range(s.gw):
        row[w] = 0
    if s.status[d] != ST_BOARD:
        return
    state_at(s, d, s.t, &x, &y, &v)
    rr = s.R[d] + TOUCH
    # the touching point of a disc touching d lies in its registered box and within rr of
    # d's centre: in a row and in a column of the grid that d's square of half-size rr meets
    r0 = grid_index(s, y - rr)
    r1 = grid_index(s, y + rr)
    c0 = grid_index(s, x - rr) + s.gn
    c1 = grid_index(s, x + rr) + s.gn
    for w in range(s.gw):
        rows = s.cells + 2 * w * s.gn
        bits = (rows[r0] | rows[r1]) & (rows[c0] | rows[c1])
        if w == d >> 6:
            bits &= ~((<cnp.uint64_t> 1) << (d & 63))
        while bits:
            l = 64 * w + __builtin_ctzll(bits)
            bits &= bits - 1
            if s.mark[l] == s.inst:
                # l's row is made at this instant: the same test from l's side (the centres
                # do not move within an instant, and the test is symmetric to the last bit)
                row[w] |= ((s.touch[l * s.gw + (d >> 6)] >> (d & 63)) & 1) << (l & 63)
                continue
            # l's centre is on its registered segment: l's box (the segment's, widened by
            # R_l + GRID_MARGIN) meets d's square of half-size rr, and a point of the
            # segment is within reach
            bl = s.box + 4 * l
            if bl[0] > x + rr or bl[2] < x - rr or bl[1] > y + rr or bl[3] < y - rr:
                continue
            cl = &s.cap[l]
            dx = x - cl.x0
            dy = y - cl.y0
            a = dx * cl.ux + dy * cl.uy
            a = 0.0 if a < 0.0 else (cl.len if a > cl.len else a)
            dx -= a * cl.ux
            dy -= a * cl.uy
            lim = s.R[d] + s.R[l] + TOUCH + GRID_MARGIN
            if dx * dx + dy * dy > lim * lim:
                continue
            state_at(s, l, s.t, &xl, &yl, &vl)
            dx = xl - x
            dy = yl - y
            lim = s.R[d] + s.R[l] + TOUCH
            if dx * dx + dy * dy <= lim * lim:
                row[w] |= (<cnp.uint64_t> 1) << (l & 63)


cdef inline double delay(Sim* s, int d, double x, double y, double vx, double vy, int l,
                         Pending* p) noexcept nogil:
    """Order key (s/m) of the impact of discs d, now at (x, y) with velocity (vx, vy), and
    l, touching: the inverse of the speed they close at, INF when they do not approach
    faster than V_EPS. Touching pairs have equal gaps (within TOUCH, rounding), so the
    pair closing fastest meets first: the order of gap / speed as the gaps shrink alike.
    Also sets p's sum of the two centres (the order of exact ties; the same sum whichever
    disc is d)."""
    cdef double xl, yl, vl, dx, dy, dist, u
    state_at(s, l, s.t, &xl, &yl, &vl)
    p.sx = x + xl
    p.sy = y + yl
    dx = xl - x
    dy = yl - y
    u = (vx - vl * s.ux[l]) * dx + (vy - vl * s.uy[l]) * dy
    if not (u > 0.0):
        return INFINITY   # separating (half the pairs after an impact)
    dist = sqrt(dx * dx + dy * dy)
    u /= dist
    if not (u > V_EPS):
        return INFINITY
    return 1.0 / u


cdef inline void changed(Sim* s, int d, bint scan) noexcept nogil:
    """Disc d's motion changed by the impact being settled: list it (once per instant),
    with its row of touching discs when the instant is scanned."""
    s.hit[d] = s.n_events
    if s.mark[d] != s.inst:
        s.mark[d] = s.inst
        s.chg[s.nchg] = d
        s.nchg += 1
        if scan:
            touch_row(s, d)


cdef void pend(Sim* s, int d) noexcept nogil:
    """Add the pairs of disc d with the discs it touches and now approaches to the
    pending impacts (a pair of two discs just changed once, from its lower index)."""
    cdef cnp.uint64_t bits
    cdef int w, l
    cdef double x, y, v, vx, vy
    cdef Pending* p
    if s.status[d] != ST_BOARD:
        return
    # d's state, once for all the discs it touches
    state_at(s, d, s.t, &x, &y, &v)
    vx = v * s.ux[d]
    vy = v * s.uy[d]
    for w in range(s.gw):
        bits = s.touch[d * s.gw + w]
        while bits:
            l = 64 * w + __builtin_ctzll(bits)
            bits &= bits - 1
            if s.status[l] != ST_BOARD or (s.hit[l] == s.n_events and l < d):
                continue
            if s.npend == s.cpend:
                continue
            p = &s.pend[s.npend]
            p.key = delay(s, d, x, y, vx, vy, l, p)
            if p.key < INFINITY:
                p.k = d if d < l else l
                p.l = l if d < l else d
                s.npend += 1


cdef void changed_all(Sim* s, int i, int j, bint scan) noexcept nogil:
    """Take in the discs an event changed (i, j if not -1, and the discs a merge moved):
    list them and, when the instant is scanned, drop the pending impacts they were part
    of and add their new ones."""
    cdef int k, q = 0
    changed(s, i, scan)
    if j >= 0:
        changed(s, j, scan)
    for k in range(s.nmoved):
        changed(s, s.stack[k], scan)
    if not scan:
        return
    for k in range(s.npend):
        if s.hit[s.pend[k].k] != s.n_events and s.hit[s.pend[k].l] != s.n_events:
            s.pend[q] = s.pend[k]
            q += 1
    s.npend = q
    pend(s, i)
    if j >= 0:
        pend(s, j)
    for k in range(s.nmoved):
        if s.stack[k] != i and s.stack[k] != j:
            pend(s, s.stack[k])


cdef inline bint pend_before(const Pending* a, const Pending* c) noexcept nogil:
    """Whether pending impact a goes before c: it closes faster, or as fast and its
    midpoint lies left (lower x), or as far left and lower (y); then the lower indices."""
    if a.key != c.key:
        return a.key < c.key
    if a.sx != c.sx:
        return a.sx < c.sx
    if a.sy != c.sy:
        return a.sy < c.sy
    return a.k < c.k or (a.k == c.k and a.l < c.l)


cdef inline bint is_impact(int kind) noexcept nogil:
    """Whether an event of this kind makes velocities jump (an impact)."""
    return kind == EV_DISC or kind == EV_CUSHION or kind == EV_PEG


cdef int settle(Sim* s, int i, int j, int kind) noexcept nogil:
    """After the event of disc i (partner j or -1) at time s.t, carry out the impacts it
    makes happen at once: of touching discs now approaching each other, the pair that
    closes fastest (``delay``; exact ties: ``pend_before``, by position), until none
    approaches. s.chg lists the discs whose motion changed (i, then j,
    first); 0, or -2 when out of memory.

    ``run_sim`` passes the event's kind for an event at the same instant as the one
    before (a group is being struck), and again after the predictions of an isolated
    impact found a touching pair approaching (``s.touch_hit``); EV_NONE otherwise, at no
    cost of a neighbour scan. Only an impact makes velocities jump: after a stop (the
    speed reaches 0 continuously), a capture or a pass over a hole no touching pair starts
    approaching."""
    cdef int q, b, k, l
    cdef bint scan = is_impact(kind)
    s.nchg = 0
    s.npend = 0
    s.inst += 1
    changed_all(s, i, j, scan)
    while s.npend > 0 and s.n_events < s.p.max_events:
        b = 0
        for q in range(1, s.npend):
            if pend_before(&s.pend[q], &s.pend[b]):
                b = q
        k = s.pend[b].k
        l = s.pend[b].l
        s.nmoved = 0
        if process(s, k, EV_DISC, l) == -2:
            return -2
        s.n_events += 1
        changed_all(s, k, l, 1)
    return 0


cdef int renew(Sim* s, int nxt, int j) noexcept nogil:
    """After the event of disc nxt (partner j or -1) and the impacts settled with it
    (``s.chg``): start the changed discs' segments, register them and re-predict them;
    a disc whose scheduled impact was with one of them and whose own motion is unchanged
    is re-predicted at that impact's time instead (EV_RECHECK), unless an impact offered
    before then replaces it; 0, or -2 when out of memory. Sets ``s.touch_hit`` when a
    prediction found a touching pair approaching.

    Deferring is exact: every pair of such a disc k with a disc l that has not changed
    since k's prediction was searched up to that time or up to l's own next event, after
    which l's prediction searches it again and offers an earlier impact; its own events
    (stop, cushion, hole) come no sooner. Until then its time stays in the queue and bounds
    the other discs' searches with it, as its impact's did."""
    cdef int q, c, k, kn, ns
    for q in range(s.nchg):
        restart(s, s.chg[q])
        grid_set(s, s.chg[q])
    if s.oom:
        return -2
    s.touch_hit = 0
    # re-predict every disc whose scheduled event involves a disc whose motion
    # changed (nxt, j and the discs moved by impacts at this instant), and those
    for q in range(s.nchg):
        s.stale[s.chg[q]] = 0
    ns = 0
    for q in range(s.nchg):
        c = s.chg[q]
        if c != nxt and c != j and not s.stale[c]:
            s.stale[c] = 1
            s.slist[ns] = c
            ns += 1
        k = s.whead[c]
        while k >= 0:
            kn = s.wnext[k]
            if s.mark[k] != s.inst:
                # k's motion is unchanged (it is not listed at this instant) and its
                # scheduled impact with c is off: nothing else of k's comes before that
                # impact's time, so its re-prediction waits until then (an impact offered
                # earlier replaces it); its time in the queue stays
                recheck(s, k)
            k = kn
    sort_ints(s.slist, ns)
    for q in range(ns):
        set_tn(s, s.slist[q], INFINITY)
    set_tn(s, nxt, INFINITY)
    if j >= 0:
        set_tn(s, j, INFINITY)
        s.stale[j] = 1
    predict(s, nxt)
    if j >= 0:
        s.stale[j] = 0
        predict(s, j)
    for q in range(ns):
        s.stale[s.slist[q]] = 0
        predict(s, s.slist[q])
    return 0


cdef int run_sim(Sim* s) noexcept nogil:
    """Advance until every disc rests or has left the board; 0 on success, -2 on OOM."""
    cdef int i, k, j, nxt, q, kind, same, n0
    cdef bint fresh
    cdef double tmin, tev = s.t
    s.inst = 0
    for i in range(s.n):
        # a piece the shot before did not move (never changed: ``hit`` still -1) has the
        # segment at rest and the grid rows this start gives it
        fresh = not s.keep or i == s.striker or s.hit[i] >= 0
        s.mark[i] = 0
        s.hit[i] = -1
        s.tn[i] = INFINITY
        s.kind[i] = EV_NONE
        s.partner[i] = -1
        s.stale[i] = 0
        s.skip[i] = -1
        s.whead[i] = -1
        s.wof[i] = -1
        for k in range(s.gw):
            s.apart[i * s.gw + k] = 0
        if fresh:
            restart(s, i)
            grid_set(s, i)
        if s.record and rec_segment(s, i) < 0:
            return -2
    if s.oom:
        return -2
    queue_init(s)
    # the pieces start at rest: their first events are impacts, which the predictions of
    # the moving discs offer them (a disc at rest has no event of its own)
    for i in range(s.n):
        if s.v0[i] > 0.0:
            predict(s, i)
    while True:
        queue_sync(s)
        nxt = s.tree[1]
        if not (s.tn[nxt] < INFINITY):
            break
        tmin = s.tn[nxt]
        if tmin > s.t:
            s.t = tmin
        if s.kind[nxt] == EV_RECHECK:
            # a deferred re-prediction (``renew``): not an event
            set_tn(s, nxt, INFINITY)
            predict(s, nxt)
            continue
        if s.n_events >= s.p.max_events:
            s.truncated = 1
            break
        same = tmin <= tev
        tev = s.t
        if s.kind[nxt] == EV_HORIZON:
            # integrate nxt's segment further (its motion so far is unchanged): not an event
            if seg_extend(s.lp, s.R[nxt], &s.seg[nxt]) < 0:
                return -2
            grid_set(s, nxt)
            set_tn(s, nxt, INFINITY)
            predict(s, nxt)
            continue
        s.nmoved = 0
        kind = s.kind[nxt]
        j = process(s, nxt, kind, s.partner[nxt])
        if j == -2:
            return -2
        s.n_events += 1
        # an event at the same instant as the one before: a struck group, settled now
        if settle(s, nxt, j, kind if same else EV_NONE) < 0:
            return -2
        if renew(s, nxt, j) < 0:
            return -2
        if s.touch_hit and not same and is_impact(kind):
            # the isolated impact set off impacts at this instant (its predictions found
            # touching pairs approaching): settle them in the order of the rule
            n0 = s.n_events
            if settle(s, nxt, j, kind) < 0:
                return -2
            if s.n_events > n0 and renew(s, nxt, j) < 0:
                return -2
    # bring every disc that moved to the final time: that of the last event (a piece never
    # changed rests where it started)
    s.t = tev
    for i in range(s.n):
        if s.status[i] == ST_BOARD and (i == s.striker or s.hit[i] >= 0):
            rebase(s, i)
    return 0


# ----------------------------------------------------------------------------------
# Allocation and the Python entry points
# ----------------------------------------------------------------------------------

DEF NDBL = 15
DEF NINT = 19

cdef int sim_alloc(Sim* s, int n) noexcept nogil:
    cdef int i
    cdef double* d = <double*> calloc(n * NDBL + 1, sizeof(double))
    cdef int* q = <int*> calloc(n * NINT + 1, sizeof(int))
    if d == NULL or q == NULL:
        free(d)
        free(q)
        return -1
    s.n = n
    s.R = d
    s.m = d + n
    s.inertia = d + 2 * n
    s.a = d + 3 * n
    s.alpha = d + 4 * n
    s.t0 = d + 5 * n
    s.x0 = d + 6 * n
    s.y0 = d + 7 * n
    s.ux = d + 8 * n
    s.uy = d + 9 * n
    s.v0 = d + 10 * n
    s.w0 = d + 11 * n
    s.tcap = d + 12 * n
    s.tlast = d + 13 * n
    s.offt = d + 14 * n
    s.tn = <double*> calloc(n + 1, sizeof(double))
    s.seg = <Seg*> calloc(n + 1, sizeof(Seg))
    s.now = <Now*> calloc(n + 1, sizeof(Now))
    if s.tn == NULL or s.seg == NULL or s.now == NULL:
        free(d)
        free(q)
        free(s.tn)
        free(s.seg)
        free(s.now)
        return -1
    for i in range(n):
        seg_init(&s.seg[i])
    s.status = q
    s.hole = q + n
    s.skip = q + 2 * n
    s.kind = q + 3 * n
    s.partner = q + 4 * n
    s.stale = q + 5 * n
    s.stack = q + 6 * n
    s.whead = q + 7 * n
    s.wnext = q + 8 * n
    s.wprev = q + 9 * n
    s.wof = q + 10 * n
    s.slist = q + 11 * n
    s.tp = 1
    while s.tp < n:
        s.tp *= 2
    s.plast = q + 12 * n
    s.dirty = q + 13 * n
    s.tdirty = q + 14 * n
    s.chg = q + 15 * n
    s.mark = q + 16 * n
    s.hit = q + 17 * n
    s.offk = q + 18 * n
    s.ndirty = 0
    s.keep = 0
    s.record = 0
    s.rec.nev = 0
    s.rec.cap_ev = 0
    s.rec.ev_f = NULL
    s.rec.ev_i = NULL
    s.rec.nseg = 0
    s.rec.cap_seg = 0
    s.rec.seg_f = NULL
    s.rec.seg_i = NULL
    s.tree = <int*> calloc(2 * s.tp, sizeof(int))
    s.cells = NULL
    s.cand = NULL
    s.span = NULL
    s.cap = NULL
    s.qbox = NULL
    s.box = NULL
    s.touch = NULL
    s.apart = NULL
    s.pend = NULL
    if s.tree == NULL:
        sim_free(s)
        return -1
    return 0


cdef void sim_free(Sim* s) noexcept nogil:
    cdef int i
    free(s.R)
    free(s.status)
    free(s.tn)
    for i in range(s.n):
        seg_free(&s.seg[i])
    free(s.seg)
    free(s.now)
    free(s.rec.ev_f)
    free(s.rec.ev_i)
    free(s.rec.seg_f)
    free(s.rec.seg_i)
    free(s.tree)
    free(s.cells)
    free(s.cand)
    free(s.span)
    free(s.cap)
    free(s.qbox)
    free(s.box)
    free(s.touch)
    free(s.apart)
    free(s.pend)


cdef int grid_alloc(Sim* s, int max_cells) noexcept nogil:
    """Size the neighbour grid from the board's half-size and the largest disc, at most
    max_cells rows and columns (call once the radii and the board are set); -1 when out of
    memory."""
    cdef int i
    s.rmax = 0.0
    for i in range(s.n):
        if s.R[i] > s.rmax:
            s.rmax = s.R[i]
    s.glo = s.b.h + 2.0 * s.rmax + GRID_MARGIN
    s.gn = <int> (2.0 * s.glo / (GRID_CELL * s.rmax)) if s.rmax > 0.0 else 1
    if s.gn > GRID_DENSITY * sqrt(<double> s.n):
        s.gn = <int> ceil(GRID_DENSITY * sqrt(<double> s.n))
    if s.gn > max_cells:
        s.gn = max_cells
    if s.gn < 1:
        s.gn = 1
    s.gcs = 2.0 * s.glo / s.gn
    s.gcs_inv = 1.0 / s.gcs
    s.gw = (s.n + 63) // 64
    s.cells = <cnp.uint64_t*> calloc(2 * s.gn * s.gw, sizeof(cnp.uint64_t))
    s.cand = <cnp.uint64_t*> calloc(s.gw, sizeof(cnp.uint64_t))
    s.span = <int*> calloc(4 * s.n, sizeof(int))
    s.cap = <Cap*> calloc(s.n, sizeof(Cap))
    s.qbox = <cnp.uint64_t*> calloc(s.n, sizeof(cnp.uint64_t))
    s.box = <double*> calloc(4 * s.n, sizeof(double))
    s.touch = <cnp.uint64_t*> calloc(s.n * s.gw, sizeof(cnp.uint64_t))
    s.apart = <cnp.uint64_t*> calloc(s.n * s.gw, sizeof(cnp.uint64_t))
    s.cpend = 4 * s.n + 16   # the contact graph of discs is planar: fewer than 3 n pairs
    s.pend = <Pending*> calloc(s.cpend, sizeof(Pending))
    if (s.cells == NULL or s.cand == NULL or s.span == NULL or s.cap == NULL or s.qbox == NULL or s.box == NULL or s.touch == NULL
            or s.apart == NULL or s.pend == NULL):
        return -1
    return 0


cdef void sim_reset(Sim* s, const double* pieces, const unsigned char* present, double x, double y,
                    double angle, double speed, double spin) noexcept nogil:
    """Start a shot: the pieces at rest at ``pieces`` (x, y pairs, m) and the striker (the
    last disc) at (x, y) m moving at ``speed`` m/s towards ``angle`` rad with ``spin``
    rad/s. ``present`` (one flag per piece, or NULL for all) marks the pieces that exist:
    an absent piece rests at the origin with status ST_ABSENT, outside the grid, and takes
    no part.

    With ``s.keep`` set, the pieces are those of the shot before (the same positions and
    flags): a piece that did not move in it (``s.hit`` -1: no impact changed it, so no
    event touched its state) is left as it is, the grid keeps the pieces' rows unless
    the square where contacts happen changed, and ``run_sim`` registers again only the
    striker and the pieces that moved."""
    cdef int i, r
    cdef int* sp
    cdef double glim0 = s.glim
    s.t = 0.0
    s.n_events = 0
    s.truncated = 0
    s.first_contact = -1
    s.nmoved = 0
    s.oom = 0
    s.touch_hit = 0
    s.sfirst = 0
    s.carriers = (<cnp.uint64_t> 1) << s.striker if s.striker < 64 else 0
    s.struck = 0
    s.touched = 0
    s.framed = 0
    s.direct = 0
    s.rec.nev = 0
    s.rec.nseg = 0
    for i in range(s.n):
        if s.keep and i != s.striker and s.hit[i] < 0:
            continue   # a piece the shot before did not move: as this start has it
        s.t0[i] = 0.0
        s.w0[i] = 0.0
        if i == s.striker:
            s.status[i] = ST_BOARD
            s.x0[i] = x
            s.y0[i] = y
            set_velocity(s, i, speed * cos_(angle), speed * sin_(angle))
            s.w0[i] = spin
        elif present == NULL or present[i]:
            s.status[i] = ST_BOARD
            s.x0[i] = pieces[2 * i]
            s.y0[i] = pieces[2 * i + 1]
            set_velocity(s, i, 0.0, 0.0)
        else:
            s.status[i] = ST_ABSENT
            s.x0[i] = 0.0
            s.y0[i] = 0.0
            set_velocity(s, i, 0.0, 0.0)
        s.hole[i] = -1
        s.tcap[i] = INFINITY
        s.tlast[i] = -INFINITY
        s.plast[i] = -1
    s.reach = s.fx * s.x0[s.striker] + s.fy * s.y0[s.striker]
    # contacts happen within 2 rmax of the board or of a start
    s.glim = s.b.h
    for i in range(s.n):
        if s.status[i] == ST_BOARD:
            s.glim = max(s.glim, fabs(s.x0[i]), fabs(s.y0[i]))
    s.glim += 2.0 * s.rmax + GRID_MARGIN
    if s.keep and s.glim != glim0:
        s.keep = 0   # the packed boxes of the pieces change
    if not s.keep:
        # the grid starts empty
        memset(s.cells, 0, 2 * s.gn * s.gw * sizeof(cnp.uint64_t))
        for i in range(s.n):
            sp = s.span + 4 * i
            for r in range(2):   # no rows and no columns
                sp[2 * r] = 0
                sp[2 * r + 1] = -1
    # every capsule box lies within rmax + GRID_MARGIN of that square (``capsule_set``)
    s.qlo = -(s.glim + s.rmax + 2.0 * GRID_MARGIN)
    s.qscale = (QMAX - 1) / (-2.0 * s.qlo)


cdef class _Setup:
    """Board, parameters and disc properties shared by the shots of one call."""
    cdef Board b
    cdef Params p
    cdef LawParams lp
    cdef CompiledLaw law         # owns the law's tables
    cdef double[:, ::1] holes
    cdef double[:, ::1] pegs
    cdef double[::1] R, m, inertia, a, alpha
    cdef double[:, ::1] fixed    # what a striker placement keeps clear of (shot_fault)
    cdef double[::1] reach
    cdef double lim
    cdef public int grid_cells   # most neighbour-grid rows and columns; 1: the all-pairs scan

    def __init__(self, bint round_board, double h, holes, pegs, params, dict law,
                 radius, mass, decel, spin_decel, fixed, reach, double lim):
        # stored as rows x, y, radius (and capture speed for holes) so that each is a
        # contiguous C array
        self.holes = np.array(np.reshape(holes, (-1, 4)).T, dtype=np.float64, order="C")
        self.pegs = np.array(np.reshape(pegs, (-1, 3)).T, dtype=np.float64, order="C")
        self.b.round_board = round_board
        self.b.h = h
        self.b.nholes = self.holes.shape[1]
        self.b.npegs = self.pegs.shape[1]
        self.b.hx = &self.holes[0, 0] if self.b.nholes else NULL
        self.b.hy = &self.holes[1, 0] if self.b.nholes else NULL
        self.b.hr = &self.holes[2, 0] if self.b.nholes else NULL
        self.b.hv = &self.holes[3, 0] if self.b.nholes else NULL
        self.b.px = &self.pegs[0, 0] if self.b.npegs else NULL
        self.b.py = &self.pegs[1, 0] if self.b.npegs else NULL
        self.b.pr = &self.pegs[2, 0] if self.b.npegs else NULL
        (self.p.e_disc, self.p.mu_disc, self.p.beta_disc, self.p.e_cush, self.p.mu_cush,
         self.p.beta_cush, self.p.e_peg, self.p.mu_peg, self.p.beta_peg, self.p.plastic,
         self.p.tc, self.p.vcap, max_events) = params
        self.p.max_events = int(max_events)
        self.law = compiled_law(law)
        self.lp = self.law.lp
        self.R = np.array(radius, dtype=np.float64)
        self.m = np.array(mass, dtype=np.float64)
        self.inertia = 0.5 * np.asarray(self.m) * np.asarray(self.R) ** 2
        self.a = np.array(decel, dtype=np.float64)
        self.alpha = np.array(spin_decel, dtype=np.float64)
        self.fixed = np.array(np.reshape(fixed, (-1, 2)), dtype=np.float64, order="C")
        self.reach = np.array(reach, dtype=np.float64)
        self.lim = lim
        self.grid_cells = GRID_MAX

    cdef int init(self, Sim* s) except -1:
        cdef int n = self.R.shape[0]
        if sim_alloc(s, n) < 0:
            raise MemoryError("carromlab engine: out of memory")
        memcpy(s.R, &self.R[0], n * sizeof(double))
        memcpy(s.m, &self.m[0], n * sizeof(double))
        memcpy(s.inertia, &self.inertia[0], n * sizeof(double))
        memcpy(s.a, &self.a[0], n * sizeof(double))
        memcpy(s.alpha, &self.alpha[0], n * sizeof(double))
        s.b = &self.b
        s.p = &self.p
        s.lp = &self.lp
        if grid_alloc(s, self.grid_cells) < 0:
            sim_free(s)
            raise MemoryError("carromlab engine: out of memory")
        return 0


cdef int shot_fault(double x, double y, const double* pieces, const unsigned char* present, Py_ssize_t npc,
                    const double* fixed, Py_ssize_t nf, const double* reach, bint round_board, double lim,
                    double* gap) noexcept nogil:
    """Whether a striker centre at (x, y) m is clear (-2), off the board (-1) or too close
    to obstacle q (returned, with ``gap`` its distance beyond the allowed reach, m): the
    pieces (x, y pairs, those with ``present`` set, or all when NULL), then ``fixed``.
    See :func:`placement_fault`."""
    cdef Py_ssize_t q
    cdef double dx, dy
    gap[0] = 0.0
    if not ((x * x + y * y <= lim * lim) if round_board else (fabs(x) <= lim and fabs(y) <= lim)):
        return -1
    for q in range(npc + nf):
        if q < npc:
            if present != NULL and not present[q]:
                continue
            dx = x - pieces[2 * q]
            dy = y - pieces[2 * q + 1]
        else:
            dx = x - fixed[2 * (q - npc)]
            dy = y - fixed[2 * (q - npc) + 1]
        gap[0] = sqrt(dx * dx + dy * dy) - reach[q]
        if gap[0] < -1e-9:
            return <int> q
    gap[0] = 0.0
    return -2


def placement_fault(const double[::1] x, const double[::1] y, const double[:, :, ::1] pieces,
                    const unsigned char[:, ::1] present, const double[:, ::1] fixed,
                    const double[::1] reach, bint round_board, double lim):
    """First striker placement that is off the board or too close to an obstacle.

    Parameters
    ----------
    x, y : 1-D float arrays
        Striker centres of m shots, m.
    pieces : (1 or m, n_pieces, 2) float array
        Piece centres each shot starts from (one row: every shot), m.
    present : (1 or m, n_pieces) uint8 array
        Which pieces are on the board (only those can overlap).
    fixed : (k, 2) float array
        Centres of the fixed obstacles (pegs, then capture circles), m.
    reach : (n_pieces + k,) float array
        Closest distance a striker centre may come to each piece, then each fixed
        obstacle, m (a gap below -1e-9 m is a fault).
    round_board : bool
        Round board: on the board when x^2 + y^2 <= lim^2; square: |x|, |y| <= lim.
    lim : float
        Half-size (m) of the square, or radius of the round surface, a centre may reach.

    Returns
    -------
    tuple of (int, int, float)
        ``(k, p, gap)``: shot k is off the board (p = -1) or overlaps obstacle p (the
        pieces, then ``fixed``) by -gap m; ``(-1, -1, 0.0)`` when every shot is clear.
    """
    cdef Py_ssize_t m = x.shape[0], npc = pieces.shape[1], nf = fixed.shape[0], k
    cdef Py_ssize_t bad = -1
    cdef int part = -2
    cdef double gap = 0.0
    cdef const double* f = &fixed[0, 0] if nf else NULL
    with nogil:
        for k in range(m):
            part = shot_fault(x[k], y[k], &pieces[k if pieces.shape[0] > 1 else 0, 0, 0] if npc else NULL,
                              &present[k if present.shape[0] > 1 else 0, 0] if npc else NULL, npc,
                              f, nf, &reach[0] if reach.shape[0] else NULL, round_board, lim, &gap)
            if part != -2:
                bad = k
                break
    if bad < 0:
        return -1, -1, 0.0
    return bad, part, gap


cdef inline bint discs_overlap(double x, double y, double xj, double yj, double touch, double tol) noexcept nogil:
    """Whether discs centred at (x, y) and (xj, yj) (m), touching at centre distance
    ``touch``, overlap by more than ``tol`` (m): ``hypot``, measured only for pairs whose
    squared distance is within reach of touching (with a margin far beyond its rounding).
    NaN overlaps nothing."""
    cdef double dx = x - xj, dy = y - yj
    return dx * dx + dy * dy < (touch * (1.0 + 1e-9)) ** 2 and hypot(dx, dy) - touch < -tol


def overlapping(const double[:, :, ::1] xy, const unsigned char[:, ::1] on, const double[::1] r, double tol):
    """Which pieces on the board overlap another piece on the board by more than ``tol``.

    Parameters
    ----------
    xy : (N, P, 2) float array
        Piece centres, m (NaN overlaps nothing).
    on : (N, P) uint8 array
        Which pieces are on the board.
    r : (P,) float array
        Radii, m.
    tol : float
        Overlap tolerated, m.

    Returns
    -------
    numpy.ndarray of bool, shape (N, P)
    """
    cdef Py_ssize_t n = xy.shape[0], p = xy.shape[1], k, i, j
    out = np.zeros((n, p), dtype=bool)
    cdef unsigned char[:, ::1] o = out.view(np.uint8)
    with nogil:
        for k in range(n):
            for i in range(p):
                if on[k, i]:
                    for j in range(i + 1, p):
                        if on[k, j] and discs_overlap(xy[k, i, 0], xy[k, i, 1], xy[k, j, 0], xy[k, j, 1], r[i] + r[j], tol):
                            o[k, i] = 1
                            o[k, j] = 1
    return out


def positions_fault(const double[:, :, ::1] xy, const unsigned char[:, ::1] on, const double[::1] r,
                    const double[:, ::1] holes, const double[:, ::1] cap2, const double[:, ::1] pegs,
                    bint square, double half_size, double tol):
    """First shot whose pieces on the board do not make a valid scene, or -1.

    A piece is at fault when it is not wholly on the surface (``on_surface``, as
    :meth:`Board.contains <carromlab.equipment.board.Board.contains>`; NaN is not on it),
    its centre is inside a hole's capture circle (squared distance below ``cap2``), or it
    overlaps a peg or another piece on the board by more than ``tol``.

    Parameters
    ----------
    xy : (1 or m, n_pieces, 2) float array
        Piece centres each shot starts from (one row: every shot), m.
    on : (1 or m', n_pieces) uint8 array
        Which pieces are on the board.
    r : (n_pieces,) float array
        Radii, m.
    holes : (k, 2) float array
        Hole centres, m.
    cap2 : (n_pieces, k) float array
        Each piece's squared capture radius of each hole, m^2.
    pegs : (g, 3) float array
        Pegs: x, y, radius, m.
    square : bool
        Square board (else round).
    half_size : float
        The board's half-size, m.
    tol : float
        Overlap tolerated, m.

    Returns
    -------
    int
        The shot's index, or -1 when every shot is valid.
    """
    cdef Py_ssize_t m = max(xy.shape[0], on.shape[0]), p = xy.shape[1], k, i, j, h
    cdef Py_ssize_t bad = -1
    cdef double x, y, dx, dy
    cdef const double* X
    cdef const unsigned char* O
    if p == 0:
        return -1
    with nogil:
        for k in range(m):
            X = &xy[k if xy.shape[0] > 1 else 0, 0, 0]
            O = &on[k if on.shape[0] > 1 else 0, 0]
            for i in range(p):
                if not O[i]:
                    continue
                x, y = X[2 * i], X[2 * i + 1]
                if not on_surface(x, y, r[i], square, half_size):
                    bad = k
                for h in range(holes.shape[0]):
                    dx, dy = x - holes[h, 0], y - holes[h, 1]
                    if dx * dx + dy * dy < cap2[i, h]:
                        bad = k
                for h in range(pegs.shape[0]):
                    if hypot(x - pegs[h, 0], y - pegs[h, 1]) - (r[i] + pegs[h, 2]) < -tol:
                        bad = k
                for j in range(i + 1, p):
                    if O[j] and discs_overlap(x, y, X[2 * j], X[2 * j + 1], r[i] + r[j], tol):
                        bad = k
                if bad >= 0:
                    break
            if bad >= 0:
                break
    return bad


ctypedef fused rec_t:
    double
    int


cdef object _copied(const rec_t* src, Py_ssize_t rows, Py_ssize_t cols):
    """A new (rows, cols) array (float64 or C int, as src) holding the C buffer src
    (rows may be 0)."""
    out = np.empty((rows, cols), dtype=np.float64 if rec_t is double else np.intc)
    cdef rec_t[:, ::1] v = out
    if rows:
        memcpy(&v[0, 0], src, rows * cols * sizeof(rec_t))
    return out


def simulate_one(_Setup setup, const double[:, ::1] pieces, double x, double y, double angle, double speed,
                 double spin, bint record):
    """Run one shot from the pieces at rest at ``pieces`` (n_pieces, 2), m, the striker at
    (x, y) m moving at ``speed`` m/s towards ``angle`` rad with ``spin`` rad/s.

    Returns a dict of NumPy arrays (see carromlab.engine.simulate), or, if the striker
    placement is off the board or too close to an obstacle, ``(part, gap)`` as
    :func:`placement_fault` gives them, without running.
    """
    cdef Sim s
    cdef int rc, i, n = pieces.shape[0] + 1
    cdef double gap
    cdef int part = shot_fault(x, y, &pieces[0, 0] if n > 1 else NULL, NULL, n - 1,
                               &setup.fixed[0, 0] if setup.fixed.shape[0] else NULL, setup.fixed.shape[0],
                               &setup.reach[0] if setup.reach.shape[0] else NULL, setup.b.round_board,
                               setup.lim, &gap)
    cdef double[:, ::1] fv
    cdef int[:, ::1] iv
    if part != -2:
        return part, gap
    setup.init(&s)
    try:
        s.record = record
        s.striker = n - 1
        s.own = 0            # the rule details (striker reach, chains) are the batch's
        s.fx = 0.0
        s.fy = 1.0
        s.frame_reach = -INFINITY
        sim_reset(&s, &pieces[0, 0] if n > 1 else NULL, NULL, x, y, angle, speed, spin)
        with nogil:
            rc = run_sim(&s)
        if rc < 0:
            raise MemoryError("carromlab engine: out of memory while recording events")
        # the final state in two blocks (rows: x, y, vx, vy, omega, t_capture; status, hole)
        final_f = np.empty((6, n))
        final_i = np.empty((2, n), dtype=np.intc)
        fv = final_f
        iv = final_i
        for i in range(n):
            fv[0, i] = s.x0[i]
            fv[1, i] = s.y0[i]
            fv[2, i] = s.v0[i] * s.ux[i]
            fv[3, i] = s.v0[i] * s.uy[i]
            fv[4, i] = spin_at(&s, i, s.t)
            fv[5, i] = s.tcap[i]
            iv[0, i] = s.status[i]
            iv[1, i] = s.hole[i]
        out = {
            "t_end": s.t,
            "n_events": s.n_events,
            "truncated": bool(s.truncated),
            "first_contact": s.first_contact,
            "x": final_f[0],
            "y": final_f[1],
            "vx": final_f[2],
            "vy": final_f[3],
            "omega": final_f[4],
            "status": final_i[0],
            "hole": final_i[1],
            "t_capture": final_f[5],
        }
        if record:
            out["ev_f"] = _copied(s.rec.ev_f, s.rec.nev, 12)
            out["ev_i"] = _copied(s.rec.ev_i, s.rec.nev, 4)
            out["seg_f"] = _copied(s.rec.seg_f, s.rec.nseg, 6)
            out["seg_i"] = _copied(s.rec.seg_i, s.rec.nseg, 2)
        return out
    finally:
        sim_free(&s)


def run_batch(_Setup setup, const double[:, :, ::1] pieces, const unsigned char[:, ::1] present,
              const double[:, ::1] shots, Py_ssize_t start,
              Py_ssize_t stop, cnp.uint64_t[::1] pocketed, cnp.uint64_t[::1] ditched,
              signed char[::1] striker_status, short[::1] first_contact,
              int[::1] n_events, unsigned char[::1] truncated, double[::1] t_end,
              float[::1] spread, double[:, :, ::1] final_xy, cnp.uint64_t own, const double[:, ::1] forward,
              signed char[:, ::1] hole_out, float[:, ::1] t_out, signed char[::1] striker_first,
              float[::1] reach, cnp.uint64_t[::1] chain, cnp.uint64_t[::1] touched,
              double frame_reach, cnp.uint64_t[::1] direct):
    """Run shots[start:stop], shot k from the pieces at ``pieces[k]`` of which those with
    ``present[k]`` set exist (the striker is the last disc), writing one summary per shot
    into the output arrays, without the GIL.

    ``pieces`` (m, n_pieces, 2) and ``present`` (m, n_pieces) hold one row per shot, or
    one row (m = 1) that every shot starts from. ``shots`` columns: x, y, angle (rad),
    speed (m/s), spin (rad/s); an absent piece stays at the origin, neither pocketed nor in
    the ditch. ``final_xy`` may be an empty (0, 0, 2) array when final positions are not
    wanted, and ``hole_out``, ``t_out``
    (pocket index and capture time of every disc), ``striker_first``, ``reach``, ``chain``,
    ``touched`` and ``direct`` empty arrays when the rule details are not wanted.
    ``forward`` (m, 2) holds the shooter's forward unit direction of each shot, or one row
    (m = 1) for every shot. ``direct`` gets the discs the striker hit before its first
    cushion hit with its centre's coordinate along the forward direction beyond
    ``frame_reach`` (m).
    """
    cdef Sim s
    cdef int n = pieces.shape[1] + 1, i, rc = 0, st = n - 1, keep_xy = final_xy.shape[0] > 0
    cdef int keep_detail = hole_out.shape[0] > 0
    cdef int pos_rows = pieces.shape[0] > 1, mask_rows = present.shape[0] > 1, fw_rows = forward.shape[0] > 1
    cdef double r
    cdef Py_ssize_t k, kp, km
    cdef double acc
    cdef int cnt
    cdef cnp.uint64_t pm, dm
    setup.init(&s)
    try:
        s.striker = st
        s.own = own
        s.frame_reach = frame_reach
        with nogil:
            for k in range(start, stop):
                kp = k if pos_rows else 0
                km = k if mask_rows else 0
                s.fx = forward[k if fw_rows else 0, 0]
                s.fy = forward[k if fw_rows else 0, 1]
                s.keep = k > start and not pos_rows and not mask_rows
                sim_reset(&s, &pieces[kp, 0, 0] if n > 1 else NULL, &present[km, 0] if n > 1 else NULL,
                          shots[k, 0], shots[k, 1], shots[k, 2], shots[k, 3], shots[k, 4])
                rc = run_sim(&s)
                if rc < 0:
                    break
                pm = 0
                dm = 0
                acc = 0.0
                cnt = 0
                for i in range(n):
                    if s.status[i] == ST_HOLE:
                        pm |= (<cnp.uint64_t> 1) << i
                    elif s.status[i] == ST_DITCH:
                        dm |= (<cnp.uint64_t> 1) << i
                    elif s.status[i] == ST_BOARD and i != st:
                        acc += sqrt(s.x0[i] * s.x0[i] + s.y0[i] * s.y0[i])
                        cnt += 1
                    if keep_xy:
                        final_xy[k, i, 0] = s.x0[i]
                        final_xy[k, i, 1] = s.y0[i]
                pocketed[k] = pm
                ditched[k] = dm
                striker_status[k] = <signed char> s.status[st]
                first_contact[k] = <short> s.first_contact
                n_events[k] = s.n_events
                truncated[k] = <unsigned char> s.truncated
                t_end[k] = s.t
                spread[k] = <float> (acc / cnt) if cnt > 0 else <float> 0.0
                if keep_detail:
                    for i in range(n):
                        hole_out[k, i] = <signed char> s.hole[i]
                        t_out[k, i] = <float> s.tcap[i]
                    striker_first[k] = <signed char> s.sfirst
                    r = s.fx * s.x0[st] + s.fy * s.y0[st]
                    reach[k] = <float> (r if r > s.reach else s.reach)
                    chain[k] = s.struck
                    touched[k] = s.touched
                    direct[k] = s.direct
        if rc < 0:
            raise MemoryError("carromlab engine: out of memory")
    finally:
        sim_free(&s)

/* _dds.c -- double-dummy search core for Mediatore (see mediatore_env/solver.py).
 *
 * The same algorithm as the pure-Python fallback in solver.py, in C for speed:
 * a null-window ("does the declarer side reach `need` more thirds?") alpha-beta
 * search over single cards, a transposition table at trick boundaries holding
 * lower/upper bounds on the thirds still to be won, equivalent cards searched once,
 * heuristic move ordering, and cut-offs on the thirds still in play.
 *
 * Cards are ints 0..39 (suit * 10 + power, a larger power wins within a suit), sets of
 * cards are 40-bit masks, points are in thirds.  Seats play in order leader,
 * leader + 1, ... (mod 4).  `side` is a seat bitmask of the declarer side; `bonus` is
 * what the last trick carries besides its cards: 3 thirds plus the monte.
 *
 * The module keeps one transposition table between calls.  Its entries are exact facts
 * about a position for one (side, bonus) context, so they stay valid across calls with
 * the same context; a call with another context invalidates them all at once by moving
 * to a new epoch.  The GIL is held throughout, which is what makes the table safe.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

#define NUM_CARDS 40
#define SUIT_BITS 0x3FFULL
#define LAST_TRICK_THIRDS 3

/* Points of a card by power (ranks 4 5 6 7 F C R A 2 3), in thirds. */
static const int POINTS_BY_POWER[10] = {0, 0, 0, 0, 1, 1, 1, 3, 1, 1};
static int POINTS[NUM_CARDS];
static u64 ACES_MASK, ONES_MASK;

static inline int popcount(u64 m) { return __builtin_popcountll(m); }
static inline int top_card(u64 m) { return 63 - __builtin_clzll(m); } /* m != 0 */
static inline u64 suit_mask(int suit) { return SUIT_BITS << (10 * suit); }
static inline int thirds_of(u64 m) {
    return 3 * popcount(m & ACES_MASK) + popcount(m & ONES_MASK);
}

/* ---- transposition table ----------------------------------------------------------- */

/* Key: the four hands (40 bits each) and the leader, packed into 3 words.  Bounds are
 * on the thirds the declarer side wins from this trick boundary on (monte and last
 * trick included), never on a running total, so `taken` plays no part. */
typedef struct {
    u64 a, b, c;
    uint32_t epoch;   /* valid only when equal to tt_epoch */
    int8_t lo, hi;    /* lo <= future thirds <= hi */
    uint8_t ncards;   /* cards left: a cheap measure of the work an entry saves */
    uint8_t age;      /* low bits of the call serial that last wrote it */
} Entry;

#define TT_WAYS 4
#define TT_BUCKET_BITS 17 /* 2^17 buckets x 4 ways x 32 bytes = 16 MiB */
static Entry *tt = NULL;
static uint32_t tt_epoch = 1;
static uint8_t tt_age = 0;
static int ctx_side = -1, ctx_bonus = -1;

static int tt_init(void) {
    if (tt) return 0;
    tt = (Entry *)calloc((size_t)TT_WAYS << TT_BUCKET_BITS, sizeof(Entry));
    return tt ? 0 : -1;
}

static void tt_clear(void) {
    if (tt) memset(tt, 0, ((size_t)TT_WAYS << TT_BUCKET_BITS) * sizeof(Entry));
    tt_epoch = 1;
    ctx_side = ctx_bonus = -1;
}

static void set_context(int side, int bonus) {
    if (side == ctx_side && bonus == ctx_bonus) return;
    ctx_side = side;
    ctx_bonus = bonus;
    if (++tt_epoch == 0) { /* wrapped: forget everything for real */
        memset(tt, 0, ((size_t)TT_WAYS << TT_BUCKET_BITS) * sizeof(Entry));
        tt_epoch = 1;
    }
}

static inline Entry *tt_bucket(u64 a, u64 b, u64 c) {
    u64 x = a * 0x9E3779B97F4A7C15ULL ^ b * 0xC2B2AE3D27D4EB4FULL ^ c * 0x165667B19E3779F9ULL;
    x ^= x >> 31;
    x *= 0xD6E8FEB86659FD93ULL;
    x ^= x >> 29;
    return tt + ((x & (((u64)1 << TT_BUCKET_BITS) - 1)) * TT_WAYS);
}

static inline Entry *tt_probe(Entry *bucket, u64 a, u64 b, u64 c) {
    for (int i = 0; i < TT_WAYS; i++) {
        Entry *e = bucket + i;
        if (e->epoch == tt_epoch && e->a == a && e->b == b && e->c == c) return e;
    }
    return NULL;
}

/* Slot for a new entry: an invalid one, else the least valuable (older call, fewer cards). */
static inline Entry *tt_victim(Entry *bucket) {
    Entry *best = NULL;
    int best_score = 1 << 30;
    for (int i = 0; i < TT_WAYS; i++) {
        Entry *e = bucket + i;
        if (e->epoch != tt_epoch) return e;
        int score = (e->age == tt_age ? 64 : 0) + e->ncards;
        if (score < best_score) {
            best_score = score;
            best = e;
        }
    }
    return best;
}

/* ---- search ------------------------------------------------------------------------- */

typedef struct {
    u64 hand[4];
    int leader;
    int ntrick;   /* cards played in the current trick */
    int trick[4]; /* those cards, in playing order from the leader */
    int side;     /* seat bitmask of the declarer side */
    int bonus;    /* thirds carried by the last trick besides its cards */
    long long nodes;
} Search;

static inline int on_side(const Search *S, int seat) { return (S->side >> seat) & 1; }

/* Legal cards of `mover`, one per class of equivalent cards, into `mv`; returns the count.
 * Two cards of one seat are equivalent when no card still in play (in a hand or in the
 * current trick) lies between them in their suit and they carry the same points:
 * whatever one does in the rest of the deal, the other does too. */
static int gen_moves(const Search *S, int mover, int *mv) {
    u64 hand = S->hand[mover];
    u64 legal = hand;
    u64 in_play = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3];
    for (int i = 0; i < S->ntrick; i++) in_play |= (u64)1 << S->trick[i];
    if (S->ntrick > 0) {
        u64 follow = hand & suit_mask(S->trick[0] / 10);
        if (follow) legal = follow;
    }
    int n = 0;
    for (int suit = 0; suit < 4; suit++) {
        unsigned mine = (unsigned)((legal >> (10 * suit)) & SUIT_BITS);
        if (!mine) continue;
        unsigned present = (unsigned)((in_play >> (10 * suit)) & SUIT_BITS);
        int prev_mine = 0, prev_points = -1;
        for (int p = 9; p >= 0; p--) {
            if (!((present >> p) & 1)) continue;
            if ((mine >> p) & 1) {
                int pts = POINTS_BY_POWER[p];
                if (!(prev_mine && prev_points == pts)) mv[n++] = suit * 10 + p;
                prev_mine = 1;
                prev_points = pts;
            } else {
                prev_mine = 0;
            }
        }
    }
    return n;
}

/* Heuristic move ordering: likely best moves first, so cut-offs come early.
 * - Lead: a card no one can beat (it takes the trick and whatever the others add), then
 *   a low card to a partner who holds the top card of the suit, then low cards.
 * - Follow: a card that wins the trick for sure, richest first; if the trick is safely
 *   the own side's, add points to it; otherwise play cheap. */
static void order_moves(const Search *S, int mover, int *mv, int n) {
    int score[10];
    u64 all = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3];
    int my_side = on_side(S, mover);
    if (S->ntrick == 0) {
        for (int i = 0; i < n; i++) {
            int c = mv[i], pts = POINTS[c], p = c % 10;
            u64 others = all & ~S->hand[mover] & suit_mask(c / 10);
            if (!others || c > top_card(others)) {
                score[i] = 1000 + 20 * pts + p;
            } else {
                int top = top_card(others), holder = 0;
                for (int s = 0; s < 4; s++)
                    if ((S->hand[s] >> top) & 1) holder = s;
                score[i] = (on_side(S, holder) == my_side ? 500 : 0) - 20 * pts - p;
            }
        }
    } else {
        int led = S->trick[0] / 10;
        int win = S->trick[0], win_pos = 0;
        for (int i = 1; i < S->ntrick; i++)
            if (S->trick[i] / 10 == led && S->trick[i] > win) {
                win = S->trick[i];
                win_pos = i;
            }
        int win_seat = (S->leader + win_pos) & 3;
        u64 later_opp = 0;
        for (int k = S->ntrick + 1; k < 4; k++) {
            int seat = (S->leader + k) & 3;
            if (on_side(S, seat) != my_side) later_opp |= S->hand[seat];
        }
        later_opp &= suit_mask(led);
        int opp_top = later_opp ? top_card(later_opp) : -1;
        int ours_safe = on_side(S, win_seat) == my_side && win > opp_top;
        for (int i = 0; i < n; i++) {
            int c = mv[i], pts = POINTS[c], p = c % 10;
            if (c / 10 == led && c > win)
                score[i] = c > opp_top ? 1000 + 20 * pts - p : 200 + p - 20 * pts;
            else
                score[i] = ours_safe ? 800 + 20 * pts - p : -20 * pts - p;
        }
    }
    for (int i = 1; i < n; i++) { /* insertion sort, best first */
        int c = mv[i], s = score[i], j = i - 1;
        while (j >= 0 && score[j] < s) {
            score[j + 1] = score[j];
            mv[j + 1] = mv[j];
            j--;
        }
        score[j + 1] = s;
        mv[j + 1] = c;
    }
}

/* Every seat holds at most one card: play the rest out, return the declarer side's thirds. */
static int forced_finish(Search *S) {
    int trick[4], n = S->ntrick;
    for (int i = 0; i < n; i++) trick[i] = S->trick[i];
    for (int k = n; k < 4; k++) {
        u64 h = S->hand[(S->leader + k) & 3];
        trick[k] = h ? top_card(h) : -1;
    }
    int led = trick[0] / 10, win = trick[0], win_pos = 0, pts = 0;
    for (int k = 0; k < 4; k++) {
        pts += POINTS[trick[k]];
        if (trick[k] / 10 == led && trick[k] > win) {
            win = trick[k];
            win_pos = k;
        }
    }
    return on_side(S, (S->leader + win_pos) & 3) ? pts + S->bonus : 0;
}

/* Does the declarer side win at least `need` more thirds from here, with best play? */
static int reach(Search *S, int need) {
    S->nodes++;
    if (need <= 0) return 1;
    u64 all = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3];
    int trick_pts = 0;
    for (int i = 0; i < S->ntrick; i++) trick_pts += POINTS[S->trick[i]];
    if (need > thirds_of(all) + trick_pts + S->bonus) return 0;
    int mover = (S->leader + S->ntrick) & 3;
    if (popcount(S->hand[0]) <= 1 && popcount(S->hand[1]) <= 1 && popcount(S->hand[2]) <= 1 &&
        popcount(S->hand[3]) <= 1)
        return forced_finish(S) >= need;

    Entry *bucket = NULL, *e = NULL;
    u64 ka = 0, kb = 0, kc = 0;
    if (S->ntrick == 0) {
        ka = S->hand[0] | (S->hand[1] << 40);
        kb = (S->hand[1] >> 24) | (S->hand[2] << 16);
        kc = S->hand[3] | ((u64)S->leader << 40);
        bucket = tt_bucket(ka, kb, kc);
        e = tt_probe(bucket, ka, kb, kc);
        if (e) {
            if (e->lo >= need) return 1;
            if (e->hi < need) return 0;
        }
    }

    int mv[10];
    int n = gen_moves(S, mover, mv);
    if (n > 1) order_moves(S, mover, mv, n);
    int maximize = on_side(S, mover);
    int result = !maximize;
    for (int i = 0; i < n; i++) {
        int c = mv[i], r;
        S->hand[mover] &= ~((u64)1 << c);
        S->trick[S->ntrick++] = c;
        if (S->ntrick == 4) {
            int led = S->trick[0] / 10, win = S->trick[0], win_pos = 0, pts = 0;
            for (int k = 0; k < 4; k++) {
                pts += POINTS[S->trick[k]];
                if (S->trick[k] / 10 == led && S->trick[k] > win) {
                    win = S->trick[k];
                    win_pos = k;
                }
            }
            int saved_leader = S->leader, saved_trick[4];
            memcpy(saved_trick, S->trick, sizeof saved_trick);
            int winner = (S->leader + win_pos) & 3;
            if (!(S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3])) pts += S->bonus;
            S->leader = winner;
            S->ntrick = 0;
            r = reach(S, on_side(S, winner) ? need - pts : need);
            S->leader = saved_leader;
            S->ntrick = 4;
            memcpy(S->trick, saved_trick, sizeof saved_trick);
        } else {
            r = reach(S, need);
        }
        S->ntrick--;
        S->hand[mover] |= (u64)1 << c;
        if (r == maximize) {
            result = r;
            break;
        }
    }

    if (S->ntrick == 0) {
        if (!e) {
            e = tt_victim(bucket);
            e->a = ka;
            e->b = kb;
            e->c = kc;
            e->epoch = tt_epoch;
            e->lo = 0;
            e->hi = (int8_t)(thirds_of(all) + S->bonus);
            e->ncards = (uint8_t)popcount(all);
        }
        e->age = tt_age;
        if (result) {
            if (e->lo < need) e->lo = (int8_t)need;
        } else {
            if (e->hi > need - 1) e->hi = (int8_t)(need - 1);
        }
    }
    return result;
}

/* Exact thirds still to be won by the declarer side: binary search over targets, each
 * step a null-window search; the table carries bounds from one step to the next. */
static int solve_future(Search *S) {
    u64 all = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3];
    int trick_pts = 0;
    for (int i = 0; i < S->ntrick; i++) trick_pts += POINTS[S->trick[i]];
    int lo = 0, hi = thirds_of(all) + trick_pts + S->bonus;
    if (!all && S->ntrick == 0) return 0;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (reach(S, mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* ---- Python interface ----------------------------------------------------------------- */

static long long last_nodes = 0;

/* Parse (hands, leader, trick, side, monte) into S; the caller (solver.py) has validated. */
static int parse_position(PyObject *args, Search *S, PyObject **rest_out) {
    PyObject *trick_obj;
    unsigned long long h0, h1, h2, h3;
    int monte;
    memset(S, 0, sizeof *S);
    if (!PyArg_ParseTuple(args, "(KKKK)iOii|O", &h0, &h1, &h2, &h3, &S->leader, &trick_obj,
                          &S->side, &monte, rest_out))
        return -1;
    S->hand[0] = h0;
    S->hand[1] = h1;
    S->hand[2] = h2;
    S->hand[3] = h3;
    PyObject *seq = PySequence_Fast(trick_obj, "trick must be a sequence of cards");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 3) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a trick in progress holds at most 3 cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        S->trick[i] = (int)c;
    }
    S->ntrick = (int)n;
    Py_DECREF(seq);
    S->bonus = LAST_TRICK_THIRDS + monte;
    if (tt_init() < 0) {
        PyErr_NoMemory();
        return -1;
    }
    set_context(S->side, S->bonus);
    tt_age++;
    return 0;
}

PyDoc_STRVAR(reach_doc,
             "reach(hands, leader, trick, side, monte_thirds, need) -> bool\n\n"
             "Whether the declarer side (seat bitmask `side`) wins at least `need` more thirds.");

static PyObject *py_reach(PyObject *self, PyObject *args) {
    Search S;
    PyObject *need_obj = NULL;
    if (parse_position(args, &S, &need_obj) < 0) return NULL;
    if (!need_obj) {
        PyErr_SetString(PyExc_TypeError, "reach() needs a target");
        return NULL;
    }
    long need = PyLong_AsLong(need_obj);
    if (need == -1 && PyErr_Occurred()) return NULL;
    if (need > 127) need = 127;
    if (need < -127) need = -127;
    int r = reach(&S, (int)need);
    last_nodes = S.nodes;
    return PyBool_FromLong(r);
}

PyDoc_STRVAR(solve_doc,
             "solve(hands, leader, trick, side, monte_thirds) -> int\n\n"
             "Exact thirds the declarer side still wins with best play by both sides.");

static PyObject *py_solve(PyObject *self, PyObject *args) {
    Search S;
    PyObject *unused = NULL;
    if (parse_position(args, &S, &unused) < 0) return NULL;
    int v = solve_future(&S);
    last_nodes = S.nodes;
    return PyLong_FromLong(v);
}

static PyObject *py_clear(PyObject *self, PyObject *noargs) {
    tt_clear();
    Py_RETURN_NONE;
}

static PyObject *py_last_nodes(PyObject *self, PyObject *noargs) {
    return PyLong_FromLongLong(last_nodes);
}

static PyMethodDef methods[] = {
    {"reach", py_reach, METH_VARARGS, reach_doc},
    {"solve", py_solve, METH_VARARGS, solve_doc},
    {"clear", py_clear, METH_NOARGS, "Forget every transposition-table entry."},
    {"last_nodes", py_last_nodes, METH_NOARGS, "Nodes searched by the last reach() or solve()."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dds",
    "Double-dummy search core for Mediatore; use mediatore_env.solver, not this module.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__dds(void) {
    for (int c = 0; c < NUM_CARDS; c++) {
        POINTS[c] = POINTS_BY_POWER[c % 10];
        if (POINTS[c] == 3) ACES_MASK |= (u64)1 << c;
        if (POINTS[c] == 1) ONES_MASK |= (u64)1 << c;
    }
    return PyModule_Create(&module);
}

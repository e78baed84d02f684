/* _dds.c -- double-dummy search core for the Mediatore family (see
 * mediatore_env/analysis/solver.py and docs/solver.md).
 *
 * The same algorithm as the pure-Python fallback in solver.py, in C for speed:
 * a null-window ("does the declarer side reach `need` more thirds?") alpha-beta
 * search over single cards, a transposition table at trick boundaries holding
 * lower/upper bounds on the thirds still to be won, equivalent cards searched once,
 * heuristic move ordering, and cut-offs on the thirds still in play.
 *
 * Cards are ints 0..39 (suit * 10 + power, a larger power wins within a suit), sets of
 * cards are 40-bit masks, points are in thirds.  A table has n = 2, 3 or 4 seats that play
 * in order leader, leader + 1, ... (mod n), tricks of n cards (three-handed's dead hand is
 * simply out of play), and two-handed a stock in draw order: after each trick while it
 * lasts, the winner draws the top card and the other player the next.  `side` is a seat
 * bitmask of the seats that maximize; `counted` those whose thirds are counted: `side`
 * itself, or in Low Hand the other seats (the side wants the fewest thirds, that is the
 * others to take the most: the total is fixed).  `bonus` is what the last trick carries
 * besides its cards: 3 thirds, plus Mediatore's monte.  Mediatore is the case n = 4, no
 * stock, counted = side.
 *
 * The module keeps one transposition table between calls.  Its entries are exact facts
 * about a position for one context (n, side, counted, bonus, stock order), so they stay
 * valid across calls with the same context; a call with another context invalidates them
 * all at once by moving to a new epoch.  The GIL is held throughout, which is what makes
 * the table safe.
 *
 * A search can be given a node budget (a node is one call of reach()): out of nodes, it
 * unwinds at once without writing the table, so the entries left behind are those of
 * sub-searches that finished, exact facts like any other.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
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
    uint16_t epoch;   /* valid only when equal to tt_epoch */
    int8_t lo, hi;    /* lo <= future thirds <= hi */
    uint8_t ncards;   /* cards left: a cheap measure of the work an entry saves */
    uint8_t age;      /* low bits of the call serial that last wrote it */
    uint8_t best;     /* lead that last proved a bound: suit * 16 + rank from the top
                         among the suit's cards in play (so it survives squeezing); 255 none */
    uint8_t spare;
} Entry;

#define TT_WAYS 4
#define TT_BUCKET_BITS 17 /* 2^17 buckets x 4 ways x 32 bytes = 16 MiB */
static Entry *tt = NULL;
static uint16_t tt_epoch = 1;
static uint8_t tt_age = 0;

/* What the table's entries are facts about besides the key: the table's size, who
 * maximizes, whose thirds count, the last trick's bonus and the stock's draw order. */
typedef struct {
    int n, side, counted, bonus, nstock;
    int stock[20];
} Context;
static Context ctx = {-1, -1, -1, -1, 0, {0}};

static int tt_init(void) {
    if (tt) return 0;
    size_t bytes = ((size_t)TT_WAYS << TT_BUCKET_BITS) * sizeof(Entry);
    tt = (Entry *)aligned_alloc(64, bytes); /* a bucket starts on a cache line */
    if (!tt) return -1;
    memset(tt, 0, bytes);
    return 0;
}

/* Forget every entry: a new epoch makes them all invalid at once (an invalid entry is
 * what a zeroed one is to the search), so clearing costs nothing; the memory is wiped only
 * when the epoch counter wraps. */
static void new_epoch(void) {
    if (tt && ++tt_epoch == 0) {
        memset(tt, 0, ((size_t)TT_WAYS << TT_BUCKET_BITS) * sizeof(Entry));
        tt_epoch = 1;
    }
}

static void tt_clear(void) {
    new_epoch();
    ctx.n = -1;
}

/* Whether the last `m` cards of `a` (of length `na`) are `b`. */
static int is_suffix(const int *b, int m, const int *a, int na) {
    return m <= na && memcmp(a + na - m, b, m * sizeof *b) == 0;
}

/* Keep the entries when the context is the same.  A stock is part of the key only as the
 * set of cards left in it, which fixes how far it has been drawn: so entries made with one
 * stock stay true with another whose draw order ends the same way (a suffix), as when
 * the game goes on and cards are drawn. */
static void set_context(int n, int side, int counted, int bonus, const int *stock, int nstock) {
    if (n == ctx.n && side == ctx.side && counted == ctx.counted && bonus == ctx.bonus) {
        if (is_suffix(stock, nstock, ctx.stock, ctx.nstock)) return;
        if (is_suffix(ctx.stock, ctx.nstock, stock, nstock)) {
            memcpy(ctx.stock, stock, nstock * sizeof *stock);
            ctx.nstock = nstock;
            return;
        }
    }
    ctx.n = n;
    ctx.side = side;
    ctx.counted = counted;
    ctx.bonus = bonus;
    memcpy(ctx.stock, stock, nstock * sizeof *stock);
    ctx.nstock = nstock;
    new_epoch();
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

/* ---- canonical keys ------------------------------------------------------------------ */

/* The value of a position depends only on, in each suit, the order of the cards still in
 * play, their points and who holds them -- not on their exact ranks.  So the table key
 * describes each suit by (a) the sequence of point values of its cards in play, as a small
 * id from SIG, and (b) each hand's cards of the suit with the gaps left by played cards
 * squeezed out.  Positions that differ only by which equivalent small cards are gone then
 * share an entry: after D4 and D6 have been played, D5 D7 play the roles of D4 D5. */
static uint8_t SIG[1024];
#define LANES 0x0000000100010001ULL /* one 16-bit lane per hand 0, 1, 2 */

static void init_signatures(void) {
    uint32_t codes[1024];
    int ncodes = 0;
    for (int pattern = 0; pattern < 1024; pattern++) {
        uint32_t code = 0;
        for (int p = 9; p >= 0; p--) /* base 4, digit = points class + 1 */
            if ((pattern >> p) & 1) code = code * 4 + (POINTS_BY_POWER[p] == 0 ? 1 : POINTS_BY_POWER[p] == 1 ? 2 : 3);
        int id = 0;
        while (id < ncodes && codes[id] != code) id++;
        if (id == ncodes) codes[ncodes++] = code;
        SIG[pattern] = (uint8_t)id; /* fewer than 128 distinct sequences */
    }
}

/* 38 bits for one suit: SIG id, then hands 0, 1, 2 squeezed (hand 3 holds the rest). */
static inline u64 suit_key(const u64 *hand, u64 all, int suit) {
    int shift = 10 * suit;
    unsigned present = (unsigned)((all >> shift) & SUIT_BITS);
    u64 lanes = ((hand[0] >> shift) & SUIT_BITS) | (((hand[1] >> shift) & SUIT_BITS) << 16) |
                (((hand[2] >> shift) & SUIT_BITS) << 32);
    if (present) {
        unsigned gaps = ~present & ((2u << (31 - __builtin_clz(present))) - 1);
        while (gaps) { /* squeeze out each gap, highest first */
            int r = 31 - __builtin_clz(gaps);
            gaps &= ~(1u << r);
            u64 low = (((u64)1 << r) - 1) * LANES;
            lanes = (lanes & low) | ((lanes >> 1) & ~low & (SUIT_BITS * LANES));
        }
    }
    u64 squeezed = (lanes & SUIT_BITS) | ((lanes >> 6) & (SUIT_BITS << 10)) | ((lanes >> 12) & (SUIT_BITS << 20));
    return squeezed | ((u64)SIG[present] << 30);
}

static inline void tt_key(const u64 *hand, u64 all, int leader, u64 *ka, u64 *kb, u64 *kc) {
    u64 k0 = suit_key(hand, all, 0), k1 = suit_key(hand, all, 1);
    u64 k2 = suit_key(hand, all, 2), k3 = suit_key(hand, all, 3);
    *ka = k0 | (k1 << 38);
    *kb = (k1 >> 26) | (k2 << 12) | (k3 << 50);
    *kc = (k3 >> 14) | ((u64)leader << 24);
}

/* A card as its suit and its rank from the top among the suit's cards in play, and back. */
#define NO_MOVE 255
static inline uint8_t rank_of_card(u64 all, int card) {
    u64 above = all & suit_mask(card / 10) & ~(((u64)2 << card) - 1);
    return (uint8_t)((card / 10) * 16 + popcount(above));
}

static inline int card_of_rank(u64 all, uint8_t code) {
    u64 in_suit = all & suit_mask(code >> 4);
    for (int i = code & 15; i > 0 && in_suit; i--) in_suit &= ~((u64)1 << top_card(in_suit));
    return in_suit ? top_card(in_suit) : -1;
}

/* ---- search ------------------------------------------------------------------------- */

#define MAX_STOCK 20

typedef struct {
    int n;        /* seats at the table: 2, 3 or 4; the hands of seats >= n stay empty */
    u64 hand[4];
    u64 stock_mask;          /* the cards still in the stock */
    int stock[MAX_STOCK];    /* the stock in draw order, top first */
    int nstock, drawn;       /* its length, and how many of its cards are drawn already */
    int leader;
    int ntrick;   /* cards played in the current trick */
    int trick[4]; /* those cards, in playing order from the leader */
    int side;     /* seat bitmask of the side that maximizes the counted thirds */
    int counted;  /* seat bitmask of the seats whose thirds are counted: `side`, or in Low
                     Hand the others (the side wants the others to take the most) */
    int bonus;    /* thirds carried by the last trick besides its cards */
    long long nodes;
    long long node_limit; /* give up when a search would visit more nodes than this */
    int aborted;          /* set when it did; the search state is then garbage */
    int killer[41][4]; /* by cards in play and seat to move: the last lead that cut off, or -1 */
} Search;

static inline int on_side(const Search *S, int seat) { return (S->side >> seat) & 1; }
static inline int is_counted(const Search *S, int seat) { return (S->counted >> seat) & 1; }
/* The seat `k` places after `seat` (k < n). */
static inline int seat_after(const Search *S, int seat, int k) {
    int s = seat + k;
    return s >= S->n ? s - S->n : s;
}
/* Every card still in play: in a hand or in the stock (not in the trick). */
static inline u64 cards_in_play(const Search *S) {
    return S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3] | S->stock_mask;
}

/* Legal cards of `mover`, one per class of equivalent cards, into `mv`; returns the count.
 * Two cards of one seat are equivalent when no card still in play (in a hand, the stock or
 * the current trick) lies between them in their suit and they carry the same points:
 * whatever one does in the rest of the deal, the other does too. */
static int gen_moves(const Search *S, int mover, int *mv) {
    u64 hand = S->hand[mover];
    u64 legal = hand;
    u64 in_play = cards_in_play(S);
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
 *   the own side's (won already, or a partner still to play holds a card above every
 *   card left against it), add points to it; otherwise play cheap.
 * These favour taking points; a seat that wants its side to take few (Low Hand, where the
 * counted seats are the others) tries them in the reverse order. */
static void order_moves(const Search *S, int mover, int *mv, int n) {
    int score[10];
    u64 all = cards_in_play(S);
    int my_side = on_side(S, mover);
    if (S->ntrick == 0) {
        for (int i = 0; i < n; i++) {
            int c = mv[i], pts = POINTS[c], p = c % 10;
            u64 others = all & ~S->hand[mover] & suit_mask(c / 10);
            if (!others || c > top_card(others)) {
                score[i] = 1000 + 20 * pts + p;
            } else {
                int top = top_card(others), ours = 0; /* a card of the stock is no one's */
                for (int s = 0; s < S->n; s++)
                    if ((S->hand[s] >> top) & 1) ours = on_side(S, s) == my_side;
                score[i] = (ours ? 500 : 0) - 20 * pts - p;
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
        int win_seat = seat_after(S, S->leader, win_pos);
        u64 later_opp = 0, later_partner = 0;
        for (int k = S->ntrick + 1; k < S->n; k++) {
            int seat = seat_after(S, S->leader, k);
            if (on_side(S, seat) != my_side) later_opp |= S->hand[seat];
            else later_partner |= S->hand[seat];
        }
        later_opp &= suit_mask(led);
        later_partner &= suit_mask(led);
        int opp_top = later_opp ? top_card(later_opp) : -1;
        int partner_top = later_partner ? top_card(later_partner) : -1;
        int ours_safe = (on_side(S, win_seat) == my_side && win > opp_top) ||
                        (partner_top > win && partner_top > opp_top);
        for (int i = 0; i < n; i++) {
            int c = mv[i], pts = POINTS[c], p = c % 10;
            if (c / 10 == led && c > win)
                score[i] = c > opp_top ? 1000 + 20 * pts - p : 200 + p - 20 * pts;
            else
                score[i] = ours_safe ? 800 + 20 * pts - p : -20 * pts - p;
        }
    }
    if (is_counted(S, mover) != my_side)
        for (int i = 0; i < n; i++) score[i] = -score[i];
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

/* Move `card` to the front of the first n moves, if it is among them. */
static inline void move_to_front(int *mv, int n, int card) {
    for (int i = 1; i < n; i++)
        if (mv[i] == card) {
            memmove(mv + 1, mv, i * sizeof *mv);
            mv[0] = card;
            return;
        }
}

/* The seat winning the current trick (all of whose cards have been played, or so far). */
static inline int trick_winner_pos(const Search *S, int *pts) {
    int led = S->trick[0] / 10, win = S->trick[0], win_pos = 0, p = 0;
    for (int k = 0; k < S->ntrick; k++) {
        p += POINTS[S->trick[k]];
        if (S->trick[k] / 10 == led && S->trick[k] > win) {
            win = S->trick[k];
            win_pos = k;
        }
    }
    *pts = p;
    return win_pos;
}

/* Every seat holds at most one card and the stock is empty: play the rest out, return the
 * counted thirds. */
static int forced_finish(Search *S) {
    int trick[4], n = S->ntrick;
    for (int i = 0; i < n; i++) trick[i] = S->trick[i];
    for (int k = n; k < S->n; k++) {
        u64 h = S->hand[seat_after(S, S->leader, k)];
        trick[k] = h ? top_card(h) : -1;
    }
    int led = trick[0] / 10, win = trick[0], win_pos = 0, pts = 0;
    for (int k = 0; k < S->n; k++) {
        pts += POINTS[trick[k]];
        if (trick[k] / 10 == led && trick[k] > win) {
            win = trick[k];
            win_pos = k;
        }
    }
    return is_counted(S, seat_after(S, S->leader, win_pos)) ? pts + S->bonus : 0;
}

/* Thirds the side of the seat on lead can take for sure by cashing its top cards: in each
 * suit, the run of highest cards still in play that the leader holds wins one trick each,
 * and the leader keeps the lead all the while (no one, drawing from the stock or not, can
 * get a card above them).  The other cards of those tricks and the last trick are not
 * counted, so this is a lower bound -- for a leader that wants its thirds. */
static int quick_thirds(const Search *S, u64 all) {
    u64 mine = S->hand[S->leader];
    int q = 0;
    for (int suit = 0; suit < 4; suit++) {
        u64 in_suit = all & suit_mask(suit);
        while (in_suit) {
            int top = top_card(in_suit);
            if (!((mine >> top) & 1)) break;
            q += POINTS[top];
            in_suit &= ~((u64)1 << top);
        }
    }
    return q;
}

/* Does the counted side win at least `need` more thirds from here, with best play (the
 * seats of `side` maximizing, the others minimizing)?
 * Fail-soft: `*bound` receives a lower bound on those thirds (>= need) when the answer is
 * yes, an upper bound (< need) when it is no.
 *
 * A node is one call of this function.  When the search has already visited
 * `S->node_limit` nodes, the call sets `S->aborted` and returns at once, and every caller
 * returns as soon as it sees the flag, before it writes the table: so the table only ever
 * receives bounds proven by sub-searches that ran to the end, and an aborted search
 * leaves it as correct as it found it.  After an abort, `S` itself (hands, trick, stock)
 * is not restored and must be thrown away. */
static int reach(Search *S, int need, int *bound) {
    if (__builtin_expect(S->nodes >= S->node_limit, 0)) {
        S->aborted = 1;
        *bound = 0;
        return 0;
    }
    S->nodes++;
    if (need <= 0) {
        *bound = 0;
        return 1;
    }
    u64 all = cards_in_play(S);
    int trick_pts = 0;
    for (int i = 0; i < S->ntrick; i++) trick_pts += POINTS[S->trick[i]];
    int rem = thirds_of(all) + trick_pts + S->bonus;
    if (need > rem) {
        *bound = rem;
        return 0;
    }
    int mover = seat_after(S, S->leader, S->ntrick);
    if (popcount(S->hand[0]) <= 1 && popcount(S->hand[1]) <= 1 && popcount(S->hand[2]) <= 1 &&
        popcount(S->hand[3]) <= 1 && !S->stock_mask) {
        *bound = forced_finish(S);
        return *bound >= need;
    }

    Entry *bucket = NULL, *e = NULL;
    u64 ka = 0, kb = 0, kc = 0;
    if (S->ntrick == 0) {
        tt_key(S->hand, all, S->leader, &ka, &kb, &kc);
        bucket = tt_bucket(ka, kb, kc);
        __builtin_prefetch(bucket);
        __builtin_prefetch((char *)bucket + 64);
        /* The quick bound first: it needs no memory access and hides the fetch.  It holds
         * when the leader wants its own thirds: counted and maximizing them (a lower
         * bound), or not counted and minimizing the counted ones (an upper bound). */
        int lead_max = on_side(S, S->leader);
        if (lead_max == is_counted(S, S->leader)) {
            int q = quick_thirds(S, all);
            if (lead_max) {
                if (q >= need) {
                    *bound = q;
                    return 1;
                }
            } else if (need > rem - q) {
                *bound = rem - q;
                return 0;
            }
        }
        e = tt_probe(bucket, ka, kb, kc);
        if (e) {
            if (e->lo >= need) {
                *bound = e->lo;
                return 1;
            }
            if (e->hi < need) {
                *bound = e->hi;
                return 0;
            }
        }
    }

    int mv[10];
    int n = gen_moves(S, mover, mv);
    if (n > 1) {
        order_moves(S, mover, mv, n);
        if (S->ntrick == 0) {
            /* Leads: the last lead that cut off at this depth for this seat (a "killer"),
             * then before it the lead that last proved a bound here, from the table. */
            move_to_front(mv, n, S->killer[popcount(all)][mover]);
            if (e && e->best != NO_MOVE) move_to_front(mv, n, card_of_rank(all, e->best));
        }
    }
    int maximize = on_side(S, mover);
    int result = !maximize, cut_card = -1;
    /* Bound when no child decides: the best child bound for the side that failed. */
    int best = maximize ? -1 : 1 << 20;
    for (int i = 0; i < n; i++) {
        int c = mv[i], r, b;
        S->hand[mover] &= ~((u64)1 << c);
        S->trick[S->ntrick++] = c;
        if (S->ntrick == S->n) {
            int pts, winner = seat_after(S, S->leader, trick_winner_pos(S, &pts));
            int saved_leader = S->leader, saved_trick[4];
            memcpy(saved_trick, S->trick, sizeof saved_trick);
            int draw = S->drawn < S->nstock; /* two-handed: the winner draws, then the other */
            if (draw) {
                int top = S->stock[S->drawn], next = S->stock[S->drawn + 1];
                S->hand[winner] |= (u64)1 << top;
                S->hand[1 - winner] |= (u64)1 << next;
                S->stock_mask &= ~(((u64)1 << top) | ((u64)1 << next));
                S->drawn += 2;
            } else if (!(S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3])) {
                pts += S->bonus;
            }
            if (!is_counted(S, winner)) pts = 0;
            S->leader = winner;
            S->ntrick = 0;
            r = reach(S, need - pts, &b);
            b += pts;
            if (draw) {
                S->drawn -= 2;
                int top = S->stock[S->drawn], next = S->stock[S->drawn + 1];
                S->hand[winner] &= ~((u64)1 << top);
                S->hand[1 - winner] &= ~((u64)1 << next);
                S->stock_mask |= ((u64)1 << top) | ((u64)1 << next);
            }
            S->leader = saved_leader;
            S->ntrick = S->n;
            memcpy(S->trick, saved_trick, sizeof saved_trick);
        } else {
            r = reach(S, need, &b);
        }
        if (__builtin_expect(S->aborted, 0)) return 0; /* out of nodes: store nothing */
        S->ntrick--;
        S->hand[mover] |= (u64)1 << c;
        if (r == maximize) {
            result = r;
            best = b;
            cut_card = c;
            if (S->ntrick == 0) S->killer[popcount(all)][mover] = c;
            break;
        }
        if (maximize ? b > best : b < best) best = b;
    }
    *bound = best;

    if (S->ntrick == 0) {
        /* The entry probed on the way in may have been replaced by a sub-search (same
         * bucket, a victim): then this position has no entry any more, and writing its
         * bounds into the slot would give them to another position. */
        if (e && (e->epoch != tt_epoch || e->a != ka || e->b != kb || e->c != kc)) e = NULL;
        if (!e) {
            e = tt_victim(bucket);
            e->a = ka;
            e->b = kb;
            e->c = kc;
            e->epoch = tt_epoch;
            e->lo = 0;
            e->hi = (int8_t)rem;
            e->ncards = (uint8_t)popcount(all);
            e->best = NO_MOVE;
        }
        e->age = tt_age;
        if (cut_card >= 0) e->best = rank_of_card(all, cut_card);
        if (result) {
            if (e->lo < best) e->lo = (int8_t)best;
        } else {
            if (e->hi > best) e->hi = (int8_t)best;
        }
    }
    return result;
}

/* Exact counted thirds still to be won: a bisection over targets, each step a null-window
 * search whose fail-soft bound can move the interval further than the target tested; the
 * table carries bounds from one step to the next. */
static int solve_future(Search *S) {
    u64 all = cards_in_play(S);
    int trick_pts = 0;
    for (int i = 0; i < S->ntrick; i++) trick_pts += POINTS[S->trick[i]];
    int lo = 0, hi = thirds_of(all) + trick_pts + S->bonus;
    if (!all && S->ntrick == 0) return 0;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2, b;
        int r = reach(S, mid, &b);
        if (S->aborted) return -1;
        if (r)
            lo = b;
        else
            hi = b;
    }
    return lo;
}

/* ---- Python interface ----------------------------------------------------------------- */

static long long last_nodes = 0;

/* A node budget from Python: None (or absent) for none, else an int >= 0. */
static int parse_node_limit(PyObject *obj, long long *limit) {
    *limit = LLONG_MAX;
    if (!obj || obj == Py_None) return 0;
    long long v = PyLong_AsLongLong(obj);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0) {
        PyErr_SetString(PyExc_ValueError, "node_limit must be None or an int >= 0");
        return -1;
    }
    *limit = v;
    return 0;
}

/* Read a sequence of at most `max` cards into `out`; returns the count, or -1 with an
 * exception set. */
static int parse_cards(PyObject *obj, int *out, int max, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > max) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: at most %d cards, not %zd", what, max, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (c < 0 || c >= NUM_CARDS) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "%s: not a card id 0..39: %ld", what, c);
            return -1;
        }
        out[i] = (int)c;
    }
    Py_DECREF(seq);
    return (int)n;
}

/* Fill S from a table's description; the caller (solver.py) has validated the position. */
static int setup(Search *S, PyObject *hands_obj, int leader, PyObject *trick_obj, int side,
                 int low, int bonus, PyObject *stock_obj, PyObject *limit_obj) {
    memset(S, 0, sizeof *S);
    if (parse_node_limit(limit_obj, &S->node_limit) < 0) return -1;
    PyObject *seq = PySequence_Fast(hands_obj, "hands must be a sequence of card bitmasks");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 2 || n > 4) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "a table has 2, 3 or 4 hands, not %zd", n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        S->hand[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    S->n = (int)n;
    S->leader = leader;
    S->ntrick = parse_cards(trick_obj, S->trick, S->n - 1, "trick in progress");
    if (S->ntrick < 0) return -1;
    S->nstock = stock_obj ? parse_cards(stock_obj, S->stock, MAX_STOCK, "stock") : 0;
    if (S->nstock < 0) return -1;
    if (S->nstock % 2 || (S->nstock && S->n != 2)) {
        PyErr_SetString(PyExc_ValueError,
                        "a stock is two-handed and holds an even number of cards");
        return -1;
    }
    for (int i = 0; i < S->nstock; i++) S->stock_mask |= (u64)1 << S->stock[i];
    S->side = side;
    S->counted = low ? ~side & ((1 << S->n) - 1) : side;
    S->bonus = bonus;
    memset(S->killer, 0xff, sizeof S->killer);
    if (tt_init() < 0) {
        PyErr_NoMemory();
        return -1;
    }
    set_context(S->n, S->side, S->counted, S->bonus, S->stock, S->nstock);
    tt_age++;
    return 0;
}

/* Mediatore: (hands, leader, trick, side, monte, [need,] [node_limit]), four hands, the
 * declarer side's thirds counted, the last trick worth 3 thirds and the monte. */
static int parse_position(PyObject *args, Search *S, PyObject **need_out, PyObject **limit_out) {
    PyObject *hands_obj, *trick_obj;
    int leader, side, monte;
    if (need_out ? !PyArg_ParseTuple(args, "OiOiiO|O", &hands_obj, &leader, &trick_obj, &side,
                                     &monte, need_out, limit_out)
                 : !PyArg_ParseTuple(args, "OiOii|O", &hands_obj, &leader, &trick_obj, &side,
                                     &monte, limit_out))
        return -1;
    return setup(S, hands_obj, leader, trick_obj, side, 0, LAST_TRICK_THIRDS + monte,
                 NULL, *limit_out);
}

/* A table of the family: (hands, leader, trick, side, low, bonus, stock, [need,]
 * [node_limit]). */
static int parse_table(PyObject *args, Search *S, PyObject **need_out, PyObject **limit_out) {
    PyObject *hands_obj, *trick_obj, *stock_obj;
    int leader, side, low, bonus;
    if (need_out ? !PyArg_ParseTuple(args, "OiOipiOO|O", &hands_obj, &leader, &trick_obj, &side,
                                     &low, &bonus, &stock_obj, need_out, limit_out)
                 : !PyArg_ParseTuple(args, "OiOipiO|O", &hands_obj, &leader, &trick_obj, &side,
                                     &low, &bonus, &stock_obj, limit_out))
        return -1;
    return setup(S, hands_obj, leader, trick_obj, side, low, bonus, stock_obj, *limit_out);
}

static PyObject *run_reach(Search *S, PyObject *need_obj) {
    long need = PyLong_AsLong(need_obj);
    if (need == -1 && PyErr_Occurred()) return NULL;
    if (need > 127) need = 127;
    if (need < -127) need = -127;
    int b, r = reach(S, (int)need, &b);
    last_nodes = S->nodes;
    if (S->aborted) Py_RETURN_NONE;
    return PyBool_FromLong(r);
}

static PyObject *run_solve(Search *S) {
    int v = solve_future(S);
    last_nodes = S->nodes;
    if (S->aborted) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

PyDoc_STRVAR(reach_doc,
             "reach(hands, leader, trick, side, monte_thirds, need, node_limit=None) -> bool | None\n\n"
             "Mediatore: whether the declarer side (seat bitmask `side`) wins at least `need`\n"
             "more thirds; None when that takes more than `node_limit` nodes (calls of the\n"
             "search).");

static PyObject *py_reach(PyObject *self, PyObject *args) {
    Search S;
    PyObject *need_obj = NULL, *limit_obj = NULL;
    if (parse_position(args, &S, &need_obj, &limit_obj) < 0) return NULL;
    return run_reach(&S, need_obj);
}

PyDoc_STRVAR(solve_doc,
             "solve(hands, leader, trick, side, monte_thirds, node_limit=None) -> int | None\n\n"
             "Mediatore: exact thirds the declarer side still wins with best play by both sides;\n"
             "None when that takes more than `node_limit` nodes in all.");

static PyObject *py_solve(PyObject *self, PyObject *args) {
    Search S;
    PyObject *limit_obj = NULL;
    if (parse_position(args, &S, NULL, &limit_obj) < 0) return NULL;
    return run_solve(&S);
}

PyDoc_STRVAR(table_reach_doc,
             "table_reach(hands, leader, trick, side, low, bonus, stock, need, node_limit=None)\n"
             "-> bool | None\n\n"
             "Any table of the family (2 to 4 hands): whether the counted seats (`side`, or with\n"
             "`low` the others) win at least `need` more thirds, `side` maximizing them.");

static PyObject *py_table_reach(PyObject *self, PyObject *args) {
    Search S;
    PyObject *need_obj = NULL, *limit_obj = NULL;
    if (parse_table(args, &S, &need_obj, &limit_obj) < 0) return NULL;
    return run_reach(&S, need_obj);
}

PyDoc_STRVAR(table_solve_doc,
             "table_solve(hands, leader, trick, side, low, bonus, stock, node_limit=None)\n"
             "-> int | None\n\n"
             "Any table of the family: the exact thirds the counted seats (`side`, or with `low`\n"
             "the others) still win, `side` maximizing them and the others minimizing.");

static PyObject *py_table_solve(PyObject *self, PyObject *args) {
    Search S;
    PyObject *limit_obj = NULL;
    if (parse_table(args, &S, NULL, &limit_obj) < 0) return NULL;
    return run_solve(&S);
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
    {"table_reach", py_table_reach, METH_VARARGS, table_reach_doc},
    {"table_solve", py_table_solve, METH_VARARGS, table_solve_doc},
    {"clear", py_clear, METH_NOARGS, "Forget every transposition-table entry."},
    {"last_nodes", py_last_nodes, METH_NOARGS,
     "Nodes (calls of the search) visited by the last reach() or solve(), aborted or not."},
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
    init_signatures();
    return PyModule_Create(&module);
}

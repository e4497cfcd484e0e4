# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""BASELINE COPY (the solver before the DDS-style search, kept only for benchmarks). Compiled double-dummy search for Ulti (see ``ulti.bots.solver`` for the Python API).

Cards here use the *internal* encoding ``suit * 8 + strength``: within a suit, bit order is the
strength order of the contract (A 10 K Q J 9 8 7 with trumps, A K Q J 10 9 8 7 without), so
"beats" is an integer comparison and "the cards above c in its suit" is a bit mask. The Python
wrapper converts from and to the engine's ``suit * 8 + rank`` encoding.

Search: fail-soft alpha-beta over single card plays; the declarer maximises, the two defenders
minimise. A transposition table (fixed-size, in C memory, generation-stamped so that a new solve
never reads an old one) is probed at the start of every trick, keyed on the three hands, the
leader and the accumulated state the objective needs. Equivalent cards (adjacent in the suit's
order among the cards still in play, same seat, same point class, never the trump 7) are searched
once.

Every constant of the rules (the point cards, their value, the last-trick bonus, the 100, the number of
tricks, the trump 7, the silent bonuses, the contract's values) comes in from the wrapper, which takes
it from ``ulti.engine``; the constants here are structural (table sizes, transposition-table bits).
"""

from libc.stdint cimport int32_t, uint32_t, uint64_t
from libc.stdlib cimport calloc
from libc.string cimport memset


cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil


cdef enum:
    OBJ_DURCHMARS = 0
    OBJ_BETLI = 1
    OBJ_ULTI = 2
    OBJ_POINTS = 3
    OBJ_CONTRACT = 4
    NT_NONE = 0
    NT_BETLI = 1
    NT_DURCHMARS = 2
    INF = 1000000000
    MAX_TRICKS = 10      # a hand holds at most this many cards (move arrays)
    MAX_POINT_CARDS = 8  # table sizes indexed by the number of point cards taken (0..8)
    TT_BITS = 20
    HIST_CAP = 60000


cdef struct TTEntry:
    uint32_t h0
    uint32_t h1
    uint32_t h2
    uint32_t extra
    uint32_t gen
    int32_t lo
    int32_t hi
    int32_t best


cdef struct Ctx:
    int trump
    int declarer
    int seven        # the trump 7 the declarer must hold back (ulti rule), or -1
    int trump7       # the trump 7 (silent ulti, ulti objective), or -1
    int obj
    int threshold
    int marr
    int use_tt
    int use_group
    int group_points
    uint32_t points  # point cards (aces, tens) in the internal encoding
    int card_value   # card points of each point card
    int all_points   # card points of the whole deck
    int last_trick   # the last-trick bonus
    int hundred      # the total of a 100
    int tricks       # tricks in a deal
    int nt_kind
    int nt_value
    int simple_vm
    int ulti_vm
    int ulti_extra
    int f100_vm
    int t100_vm
    int durch_vm
    int has_simple
    int has_ulti
    int has_durch
    int has40
    int has20
    int su_won       # silent ulti won / lost, silent durchmars (hearts factor included)
    int su_lost
    int sdurch
    int hundred_factor  # the Simple game's multiplier after a silent 100
    int decl_marr
    int def_marr
    long long nodes
    int hist[3][32]
    # trump contract leaf: [dcards][winners][last winner][seat of trump 7 in the last trick + 1]
    int leafv[MAX_POINT_CARDS + 1][8][3][4]
    # value bounds: [dcards][point cards left][winners][trump 7: 0 gone, 1 + holder]
    int bmin[MAX_POINT_CARDS + 1][MAX_POINT_CARDS + 1][8][4]
    int bmax[MAX_POINT_CARDS + 1][MAX_POINT_CARDS + 1][8][4]
    char bdone[MAX_POINT_CARDS + 1][MAX_POINT_CARDS + 1][8][4]


cdef struct State:
    uint32_t hands[3]
    int trick[3]
    int n            # cards in the trick in progress
    int leader
    int top          # the card winning the trick so far
    int topseat
    int done         # tricks completed
    int dcards       # point cards in the declarer's tricks
    int winners      # bit s: seat s has won a trick


cdef TTEntry* _tt = NULL
cdef uint32_t _gen = 0
cdef uint32_t _tt_mask = (1u << TT_BITS) - 1u


cdef inline uint32_t suit_mask(int s) noexcept nogil:
    return (<uint32_t>0xFFu) << (8 * s)


cdef inline uint32_t above(int card) noexcept nogil:
    """Cards of ``card``'s suit that rank above it."""
    return suit_mask(card >> 3) & ~(((<uint32_t>2u) << card) - 1u)


cdef inline uint32_t legal_mask(Ctx* c, State* s, int seat) noexcept nogil:
    cdef uint32_t hand = s.hands[seat]
    cdef uint32_t legal, follow, trumps, h, b
    cdef int led, top
    if s.n == 0:
        legal = hand
    else:
        led = s.trick[0] >> 3
        top = s.top
        follow = hand & suit_mask(led)
        if follow:
            if (top >> 3) == led:
                h = follow & above(top)
                legal = h if h else follow
            else:
                legal = follow
        elif c.trump >= 0 and (hand & suit_mask(c.trump)):
            trumps = hand & suit_mask(c.trump)
            if (top >> 3) == c.trump:
                h = trumps & above(top)
                legal = h if h else trumps
            else:
                legal = trumps
        else:
            legal = hand
    if seat == c.declarer and c.seven >= 0:
        b = (<uint32_t>1u) << c.seven
        if (legal & b) and legal != b:
            legal ^= b
    return legal


cdef inline uint32_t in_play(State* s) noexcept nogil:
    cdef uint32_t m = s.hands[0] | s.hands[1] | s.hands[2]
    cdef int i
    for i in range(s.n):
        m |= (<uint32_t>1u) << s.trick[i]
    return m


cdef inline int redundant(Ctx* c, uint32_t legal, uint32_t inplay, int x) noexcept nogil:
    """Whether legal card ``x`` is equivalent to the next card above it (so it need not be searched)."""
    cdef uint32_t hi
    cdef int nx
    if x == c.trump7:
        return 0
    hi = inplay & above(x)
    if not hi:
        return 0
    nx = __builtin_ctz(hi)
    if not ((legal >> nx) & 1u):
        return 0
    if c.group_points and ((c.points >> x) & 1u) != ((c.points >> nx) & 1u):
        return 0
    return 1


cdef inline int beats_top(Ctx* c, State* s, int m) noexcept nogil:
    if s.n == 0:
        return 1
    if (m >> 3) == (s.top >> 3):
        return m > s.top
    return (m >> 3) == c.trump


cdef int order_score(Ctx* c, State* s, int seat, int m) noexcept nogil:
    cdef int strength = m & 7
    cdef int is_decl = seat == c.declarer
    cdef int pts = (c.points >> m) & 1u
    cdef int score, wins, partner
    cdef int betli = c.obj == OBJ_BETLI or (c.obj == OBJ_CONTRACT and c.nt_kind == NT_BETLI)
    if betli:
        if is_decl:
            if s.n == 0:
                score = 8 - strength
            else:
                score = (0 if beats_top(c, s, m) else 100) + strength
        else:
            score = 8 - strength
    elif s.n == 0:
        score = strength + ((m >> 3) == c.trump) * 0
    else:
        wins = beats_top(c, s, m)
        partner = (s.topseat == c.declarer) == is_decl
        if partner:
            score = 50 - strength + (pts * 40 if c.group_points else 0)
        elif wins:
            score = 100 + (8 - strength if s.n == 2 else strength)
        else:
            score = 20 - strength - (pts * 15 if c.group_points else 0)
    return score * 65536 + c.hist[seat][m]


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    x ^= x >> 33
    x *= 0xff51afd7ed558ccdULL
    x ^= x >> 33
    x *= 0xc4ceb9fe1a85ec53ULL
    x ^= x >> 33
    return x


cdef inline uint32_t key_extra(Ctx* c, State* s) noexcept nogil:
    cdef uint32_t acc = 0
    if c.obj == OBJ_POINTS:
        acc = <uint32_t>s.dcards | ((<uint32_t>((s.winners >> c.declarer) & 1)) << 4)
    elif c.obj == OBJ_CONTRACT:
        acc = <uint32_t>s.dcards | ((<uint32_t>s.winners) << 4)
    return <uint32_t>s.leader | (acc << 2)


cdef int contract_leaf(Ctx* c, State* s, int winner) noexcept nogil:
    """per_defender of a finished trump contract (``scoring.settle``), the last trick still in ``s.trick``."""
    cdef int d = c.declarer
    cdef int last_dec = winner == d
    cdef int dt, ft, val = 0, factor = 1, i, s7 = -1, seat, won, amt, dcard = -1
    cdef int win = s.winners
    cdef int dpts = s.dcards * c.card_value
    dt = dpts + (c.last_trick if last_dec else 0) + c.decl_marr
    if not ((win >> d) & 1):
        dt = 0
    ft = c.all_points - dpts + (0 if last_dec else c.last_trick) + c.def_marr
    if (win & ~(1 << d)) == 0:
        ft = 0
    for i in range(3):
        seat = (s.leader + i) % 3
        if s.trick[i] == c.trump7:
            s7 = seat
        if seat == d:
            dcard = s.trick[i]
    if not c.has_ulti and s7 >= 0:
        if s7 == d:
            val += c.su_won if winner == s7 else -c.su_lost
        else:
            val += -c.su_won if winner == s7 else c.su_lost
    if c.has_simple and (dt >= c.hundred or ft >= c.hundred):
        factor = c.hundred_factor
    if not c.has_durch:
        if win == (1 << d):
            val += c.sdurch
        elif win == (1 << ((d + 1) % 3)) or win == (1 << ((d + 2) % 3)):
            val -= c.sdurch
    if c.has_simple:
        amt = c.simple_vm * factor
        val += amt if dt > ft else -amt
    if c.has_ulti:
        if last_dec and dcard == c.trump7:
            val += c.ulti_vm
        else:
            val -= c.ulti_vm + c.ulti_extra
    if c.f100_vm:
        val += c.f100_vm if (c.has40 and dt >= c.hundred) else -c.f100_vm
    if c.t100_vm:
        val += c.t100_vm if (c.has20 and dt >= c.hundred) else -c.t100_vm
    if c.has_durch:
        val += c.durch_vm if win == (1 << d) else -c.durch_vm
    return val


cdef void fill_leaf_table(Ctx* c) noexcept nogil:
    cdef State f
    cdef int s7, i, dp, win, winner
    f.leader = 0
    f.n = 3
    for s7 in range(-1, 3):
        for i in range(3):
            f.trick[i] = c.trump7 if i == s7 else -2
        for dp in range(MAX_POINT_CARDS + 1):
            f.dcards = dp
            for win in range(8):
                f.winners = win
                for winner in range(3):
                    c.leafv[dp][win][winner][s7 + 1] = contract_leaf(c, &f, winner) if (win >> winner) & 1 else 0
    memset(c.bdone, 0, sizeof(c.bdone))


cdef inline void contract_bounds(Ctx* c, State* s, int* mn, int* mx) noexcept nogil:
    """Bounds on a trump contract's value from a trick start: over every final declarer's card
    points, set of trick winners, last-trick winner and trump-7 fate still possible."""
    cdef int dp0 = s.dcards
    cdef int rem = __builtin_popcount(c.points & (s.hands[0] | s.hands[1] | s.hands[2]))
    cdef int w0 = s.winners
    cdef int st = 0, i, dp, win, last, v, lo = INF, hi = -INF
    if c.trump7 >= 0:
        for i in range(3):
            if (s.hands[i] >> c.trump7) & 1u:
                st = i + 1
    if not c.bdone[dp0][rem][w0][st]:
        for dp in range(dp0, dp0 + rem + 1):
            for win in range(1, 8):
                if (win & w0) != w0:
                    continue
                for last in range(3):
                    if not ((win >> last) & 1):
                        continue
                    v = c.leafv[dp][win][last][0]
                    if v < lo:
                        lo = v
                    if v > hi:
                        hi = v
                    if st:
                        v = c.leafv[dp][win][last][st]
                        if v < lo:
                            lo = v
                        if v > hi:
                            hi = v
        c.bmin[dp0][rem][w0][st] = lo
        c.bmax[dp0][rem][w0][st] = hi
        c.bdone[dp0][rem][w0][st] = 1
    mn[0] = c.bmin[dp0][rem][w0][st]
    mx[0] = c.bmax[dp0][rem][w0][st]


cdef inline int terminal(Ctx* c, State* s, int winner, int* value) noexcept nogil:
    """After a trick (state updated, ``s.trick`` and ``s.leader`` still those of the trick):
    whether the search ends here, and its value."""
    cdef int d = c.declarer
    cdef int i, total
    cdef int obj = c.obj
    if obj == OBJ_BETLI:
        if winner == d:
            value[0] = 0
            return 1
        if s.done == c.tricks:
            value[0] = 1
            return 1
        return 0
    if obj == OBJ_DURCHMARS:
        if winner != d:
            value[0] = 0
            return 1
        if s.done == c.tricks:
            value[0] = 1
            return 1
        return 0
    if obj == OBJ_ULTI:
        if s.done == c.tricks:
            value[0] = 0
            if winner == d:
                for i in range(3):
                    if (s.leader + i) % 3 == d and s.trick[i] == c.trump7:
                        value[0] = 1
            return 1
        return 0
    if obj == OBJ_POINTS:
        if s.done == c.tricks:
            total = s.dcards * c.card_value + (c.last_trick if winner == d else 0) + c.marr
            if not ((s.winners >> d) & 1):
                total = 0
            value[0] = 1 if total >= c.threshold else 0
            return 1
        return 0
    # contract
    if c.nt_kind == NT_BETLI:
        if winner == d:
            value[0] = -c.nt_value
            return 1
        if s.done == c.tricks:
            value[0] = c.nt_value
            return 1
        return 0
    if c.nt_kind == NT_DURCHMARS:
        if winner != d:
            value[0] = -c.nt_value
            return 1
        if s.done == c.tricks:
            value[0] = c.nt_value
            return 1
        return 0
    if s.done == c.tricks:
        total = 0  # the seat that played the trump 7 to the last trick, + 1 (0: nobody)
        for i in range(3):
            if s.trick[i] == c.trump7:
                total = (s.leader + i) % 3 + 1
        value[0] = c.leafv[s.dcards][s.winners][winner][total]
        return 1
    return 0


cdef int play_eval(Ctx* c, State* s, int seat, int m, int alpha, int beta) noexcept nogil:
    """Play card ``m`` for ``seat``, search the rest, undo; the value."""
    cdef uint32_t bit = (<uint32_t>1u) << m
    cdef int old_top = s.top, old_topseat = s.topseat
    cdef int old_dcards, old_winners, old_leader, winner, v, t0, t1, t2
    s.hands[seat] ^= bit
    s.trick[s.n] = m
    if s.n == 0 or ((m >> 3) == (s.top >> 3) and m > s.top) or ((m >> 3) == c.trump and (s.top >> 3) != c.trump):
        s.top = m
        s.topseat = seat
    s.n += 1
    if s.n < 3:
        v = search(c, s, alpha, beta)
    else:
        winner = s.topseat
        old_dcards = s.dcards
        old_winners = s.winners
        old_leader = s.leader
        if winner == c.declarer:
            s.dcards += __builtin_popcount(c.points & (((<uint32_t>1u) << s.trick[0]) | ((<uint32_t>1u) << s.trick[1])
                                                       | ((<uint32_t>1u) << s.trick[2])))
        s.winners |= 1 << winner
        s.done += 1
        if not terminal(c, s, winner, &v):
            t0 = s.trick[0]
            t1 = s.trick[1]
            t2 = s.trick[2]
            s.leader = winner
            s.n = 0
            v = search(c, s, alpha, beta)
            s.n = 3
            s.leader = old_leader
            s.trick[0] = t0
            s.trick[1] = t1
            s.trick[2] = t2
        s.done -= 1
        s.dcards = old_dcards
        s.winners = old_winners
    s.n -= 1
    s.top = old_top
    s.topseat = old_topseat
    s.hands[seat] ^= bit
    return v


cdef int gen_moves(Ctx* c, State* s, int seat, int* moves) noexcept nogil:
    cdef uint32_t legal = legal_mask(c, s, seat)
    cdef uint32_t rest = legal, inplay = 0
    cdef int k = 0, x
    if c.use_group:
        inplay = in_play(s)
    while rest:
        x = __builtin_ctz(rest)
        rest &= rest - 1u
        if c.use_group and redundant(c, legal, inplay, x):
            continue
        moves[k] = x
        k += 1
    return k


cdef int search(Ctx* c, State* s, int alpha, int beta) noexcept nogil:
    cdef int seat, nm, i, j, best, bestm, v, tmp, ttmove = -1, maximizing
    cdef int a0, b0, d = c.declarer, remaining, bmn, bmx
    cdef int moves[MAX_TRICKS]
    cdef int scores[MAX_TRICKS]
    cdef TTEntry* e = NULL
    cdef uint32_t extra = 0, h
    cdef uint64_t hv
    c.nodes += 1
    if s.n == 0:
        if c.obj == OBJ_ULTI:
            if not ((s.hands[d] >> c.trump7) & 1u):
                return 0
        elif c.obj == OBJ_POINTS:
            if ((s.winners >> d) & 1) and s.dcards * c.card_value + c.marr >= c.threshold:
                return 1
            remaining = __builtin_popcount(c.points & (s.hands[0] | s.hands[1] | s.hands[2]))
            if (s.dcards + remaining) * c.card_value + c.last_trick + c.marr < c.threshold:
                return 0
        elif c.obj == OBJ_CONTRACT:
            contract_bounds(c, s, &bmn, &bmx)
            if bmx <= alpha:
                return bmx
            if bmn >= beta:
                return bmn
        if c.use_tt:
            extra = key_extra(c, s)
            hv = mix((<uint64_t>s.hands[0]) | ((<uint64_t>s.hands[1]) << 32))
            hv = mix(hv ^ ((<uint64_t>s.hands[2]) | ((<uint64_t>extra) << 32)))
            e = &_tt[hv & _tt_mask]
            if e.gen == _gen and e.h0 == s.hands[0] and e.h1 == s.hands[1] and e.h2 == s.hands[2] and e.extra == extra:
                if e.lo >= beta:
                    return e.lo
                if e.hi <= alpha:
                    return e.hi
                if e.lo == e.hi:
                    return e.lo
                if e.lo > alpha:
                    alpha = e.lo
                if e.hi < beta:
                    beta = e.hi
                ttmove = e.best
    seat = (s.leader + s.n) % 3
    nm = gen_moves(c, s, seat, moves)
    for i in range(nm):
        scores[i] = order_score(c, s, seat, moves[i])
        if moves[i] == ttmove:
            scores[i] = INF
    # insertion sort, best first
    for i in range(1, nm):
        v = moves[i]
        tmp = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < tmp:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = v
        scores[j + 1] = tmp
    a0 = alpha
    b0 = beta
    maximizing = seat == d
    bestm = moves[0]
    if maximizing:
        best = -INF
        for i in range(nm):
            v = play_eval(c, s, seat, moves[i], alpha, beta)
            if v > best:
                best = v
                bestm = moves[i]
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        if c.hist[seat][bestm] < HIST_CAP:
                            c.hist[seat][bestm] += 1
                        break
    else:
        best = INF
        for i in range(nm):
            v = play_eval(c, s, seat, moves[i], alpha, beta)
            if v < best:
                best = v
                bestm = moves[i]
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        if c.hist[seat][bestm] < HIST_CAP:
                            c.hist[seat][bestm] += 1
                        break
    if e != NULL:
        # the slot may hold another position (a collision, or a deeper one stored meanwhile)
        if not (e.gen == _gen and e.h0 == s.hands[0] and e.h1 == s.hands[1] and e.h2 == s.hands[2]
                and e.extra == extra):
            e.gen = _gen
            e.h0 = s.hands[0]
            e.h1 = s.hands[1]
            e.h2 = s.hands[2]
            e.extra = extra
            e.lo = -INF
            e.hi = INF
            e.best = -1
        if best <= a0:
            if best < e.hi:
                e.hi = best
        elif best >= b0:
            if best > e.lo:
                e.lo = best
        else:
            e.lo = best
            e.hi = best
        e.best = bestm
    return best


cdef int contract_value(Ctx* c, State* s) noexcept nogil:
    """The exact value of a trump contract: bisection over the values a finished deal can take,
    each step a null-window search ("is the value at least x?") sharing the transposition table."""
    cdef int vals[1024]
    cdef int nv = 0, dp, win, winner, s7, i, j, x, lo, hi, mid, r, seen
    for dp in range(MAX_POINT_CARDS + 1):
        for win in range(1, 8):
            for winner in range(3):
                if not ((win >> winner) & 1):
                    continue
                for s7 in range(4):
                    x = c.leafv[dp][win][winner][s7]
                    seen = 0
                    for j in range(nv):
                        if vals[j] == x:
                            seen = 1
                            break
                    if not seen and nv < 1024:
                        vals[nv] = x
                        nv += 1
    # sort ascending
    for i in range(1, nv):
        x = vals[i]
        j = i - 1
        while j >= 0 and vals[j] > x:
            vals[j + 1] = vals[j]
            j -= 1
        vals[j + 1] = x
    # invariant: the value is one of vals[lo..hi]
    lo = 0
    hi = nv - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        r = search(c, s, vals[mid] - 1, vals[mid])
        if r >= vals[mid]:
            lo = mid
            while lo < hi and vals[lo + 1] <= r:
                lo += 1
        else:
            hi = mid - 1
            while hi > lo and vals[hi] > r:
                hi -= 1
    return vals[lo]


cdef void next_gen() noexcept nogil:
    global _gen, _tt
    cdef uint32_t i
    if _tt == NULL:
        _tt = <TTEntry*>calloc(_tt_mask + 1u, sizeof(TTEntry))
    _gen += 1
    if _gen == 0:
        for i in range(_tt_mask + 1u):
            _tt[i].gen = 0
        _gen = 1


def solve_internal(
    hands, trick, int leader, int done, int dpts, int winners,
    int trump, int declarer, int seven, int obj, int threshold, int marr,
    rules, contract, bint use_tt, bint use_group, bint want_best,
):
    """Solve one position given in the internal card encoding.

    ``trick`` lists the cards of the trick in progress in play order; ``dpts`` is the card points in
    the declarer's tricks so far. ``rules`` is the tuple (point-card mask in the internal encoding,
    card points per point card, last-trick bonus, the 100, tricks in a deal, the trump 7 or -1);
    ``contract`` is the tuple (nt_kind, nt_value, simple_vm, ulti_vm, ulti_extra, f100_vm, t100_vm,
    durch_vm, has40, has20, silent ulti won, silent ulti lost, silent durchmars, silent-100 factor,
    decl_marr, def_marr). Returns (value, best-card mask or 0, nodes).
    """
    cdef Ctx c
    cdef State s
    cdef int i, v, seat, x, nt_scale
    cdef int rep_of[32]
    cdef uint32_t legal, inplay, best_mask = 0, rest
    cdef int best_rep[32]
    (c.points, c.card_value, c.last_trick, c.hundred, c.tricks, c.trump7) = rules
    if __builtin_popcount(c.points) > MAX_POINT_CARDS or c.card_value <= 0 or not 0 < c.tricks <= MAX_TRICKS:
        raise ValueError(f"rules out of the solver's range: {rules!r}")
    c.all_points = __builtin_popcount(c.points) * c.card_value
    if _tt == NULL or use_tt:
        next_gen()
    c.trump = trump
    c.declarer = declarer
    c.seven = seven
    c.obj = obj
    c.threshold = threshold
    c.marr = marr
    c.use_tt = use_tt
    c.use_group = use_group
    c.group_points = obj == OBJ_POINTS or obj == OBJ_CONTRACT
    (c.nt_kind, c.nt_value, c.simple_vm, c.ulti_vm, c.ulti_extra, c.f100_vm, c.t100_vm, c.durch_vm,
     c.has40, c.has20, c.su_won, c.su_lost, c.sdurch, c.hundred_factor, c.decl_marr, c.def_marr) = contract
    c.has_simple = c.simple_vm != 0
    c.has_ulti = c.ulti_vm != 0
    c.has_durch = c.durch_vm != 0
    c.nodes = 0
    for i in range(3):
        for x in range(32):
            c.hist[i][x] = 0
    for i in range(3):
        s.hands[i] = <uint32_t>hands[i]
    s.n = 0
    s.leader = leader
    s.done = done
    s.dcards = dpts // c.card_value
    s.winners = winners
    s.top = -1
    s.topseat = -1
    for i in range(len(trick)):
        x = trick[i]
        s.trick[i] = x
        seat = (leader + i) % 3
        if s.n == 0 or ((x >> 3) == (s.top >> 3) and x > s.top) or ((x >> 3) == trump and (s.top >> 3) != trump):
            s.top = x
            s.topseat = seat
        s.n += 1
    nt_scale = 0
    if obj == OBJ_CONTRACT and c.nt_kind != NT_NONE:
        # a no-trump contract is won or lost: solve its own win/lose objective and scale
        nt_scale = c.nt_value
        c.obj = OBJ_BETLI if c.nt_kind == NT_BETLI else OBJ_DURCHMARS
        c.group_points = 0
    if c.obj == OBJ_CONTRACT:
        fill_leaf_table(&c)
        v = contract_value(&c, &s)
    else:
        v = search(&c, &s, 0, 1)
    if want_best:
        seat = (s.leader + s.n) % 3
        legal = legal_mask(&c, &s, seat)
        inplay = in_play(&s)
        # representatives: walk down from the top so that each card maps to its group's highest card
        for x in range(31, -1, -1):
            rep_of[x] = -1
            best_rep[x] = 0
            if (legal >> x) & 1u:
                rep_of[x] = x
                if use_group and redundant(&c, legal, inplay, x):
                    rep_of[x] = rep_of[__builtin_ctz(inplay & above(x))]
        rest = legal
        while rest:
            x = __builtin_ctz(rest)
            rest &= rest - 1u
            if rep_of[x] != x:
                continue
            if seat == declarer:
                best_rep[x] = play_eval(&c, &s, seat, x, v - 1, v) >= v
            else:
                best_rep[x] = play_eval(&c, &s, seat, x, v, v + 1) <= v
        rest = legal
        while rest:
            x = __builtin_ctz(rest)
            rest &= rest - 1u
            if best_rep[rep_of[x]]:
                best_mask |= (<uint32_t>1u) << x
    if nt_scale:
        v = nt_scale if v else -nt_scale
    return v, best_mask, c.nodes

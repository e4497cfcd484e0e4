# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled double-dummy search for Ulti (see ``ulti.bots.solver`` for the Python API).

Cards here use the *internal* encoding ``suit * 8 + strength``: within a suit, bit order is the
strength order of the contract (A 10 K Q J 9 8 7 with trumps, A K Q J 10 9 8 7 without), so
"beats" is an integer comparison and "the cards above c in its suit" is a bit mask. The Python
wrapper converts from and to the engine's ``suit * 8 + rank`` encoding.

Search: fail-soft alpha-beta over single card plays; the declarer maximises, the two defenders
minimise. The techniques of bridge's double-dummy solvers (DDS), as their papers describe them:

- **Bounds everywhere.** Every node knows bounds on the value still reachable (0/1 for a win/lose
  objective; for a whole contract, the extremes of its settlement over every ending still possible,
  recomputed at trick starts): a window outside them returns at once, and a side that reaches its
  bound stops looking. The best-card scan at the root runs null windows inside those bounds, so a lost
  position is not searched move by move (every card already achieves the bound).
- **Sure outcomes at trick starts.** Betli "no holes": every defender card of each of the declarer's
  suits ranks above his highest (and the declarer holds no trump), so he can never be made to take a
  trick; its mirror, the declarer taking every trick (durchmars, and the points or contract value
  that follow from it); for points and a contract's value, quick tricks: the tricks the declarer on
  lead cashes from the top, and the trumps above every trump of the other side (each wins the trick
  it is played to), with the aces and tens they carry, narrowing the points and trick winners still
  possible, hence the bounds.
- **A transposition table keyed on relative ranks.** At trick starts a hand is keyed by the rank of
  each card among the cards of its suit still in play (plus which of them are point cards, and whether
  the trump 7 is still out), so positions that differ only in which equivalent low cards are gone
  share an entry. Entries carry a context id (the objective and every constant the value depends on),
  so the table is kept across solves: a bot's decision solving many sampled worlds of one contract
  reuses it. Two-way buckets, replacement by age then by depth; the table grows by need from 2 MiB to
  at most 8 MiB.
- **Move ordering**: the table's move, history, and at a betli lead the suit's situation (the
  declarer leads where a defender must overtake; a defender leads under the declarer's cards). Killer
  moves and lead orderings for trump contracts (sure winners first, trumps first, no lead into a ruff,
  low to the partner's winner) were measured by nodes and searched more: killers stay available
  (``set_options``), off.

Equivalent cards (adjacent in the suit's order among the cards still in play, same seat, same point
class, never the trump 7) are searched once.

Every constant of the rules (the point cards, their value, the last-trick bonus, the 100, the number of
tricks, the trump 7, the silent bonuses, the contract's values) comes in from the wrapper, which takes
it from ``ulti.engine``; the constants here are structural (table sizes, transposition-table bits).
"""

from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
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
    MAX_PLY = 32         # killer slots: one per card played in a deal (3 * MAX_TRICKS fits)
    TT_MIN_BITS = 16     # 2**16 entries of 32 bytes: 2 MiB to start with
    TT_MAX_BITS = 18     # at most 8 MiB: a bot decision's worlds fill well under it
    MAX_CONTEXTS = 4096   # contexts remembered (their keys are Python tuples); the table restarts past them
    HIST_CAP = 60000
    MAX_VALUES = 1024    # distinct settlements of a trump contract (the leaf table holds 9*7*3*4 at most)
    KILLER_BONUS = 3     # ordering score of a killer move (when switched on): a tie-break among equals


cdef struct TTEntry:
    uint32_t k0      # the three hands in relative ranks (see rel_hand)
    uint32_t k1
    uint32_t k2
    uint32_t k3      # the point cards still in play, in relative ranks (points objectives), else 0
    uint32_t extra   # leader, trump 7 still out, and the state the objective accumulates
    uint16_t ctx     # context id (objective and constants); 0: an empty slot
    uint8_t gen      # the solve that last wrote it (replacement: older first)
    int8_t best      # the best move, as suit * 8 + relative rank, or -1
    int32_t lo
    int32_t hi


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
    uint16_t ctx_id
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
    int vals[MAX_VALUES]  # the values a finished deal can take (trump contracts), ascending
    int nv
    int vmin         # bounds on the objective over every ending (0/1 for win/lose objectives)
    int vmax
    long long nodes
    int hist[3][32]
    int killers[MAX_PLY][2]
    # trump contract leaf: [dcards][winners][last winner][seat of trump 7 in the last trick + 1]
    int leafv[MAX_POINT_CARDS + 1][8][3][4]
    # value bounds: [least final dcards][most final dcards][seats sure to take a trick]
    # [4 * (a defender is sure to take a trick) + trump 7: 0 gone, 1 + holder]
    int bmin[MAX_POINT_CARDS + 1][MAX_POINT_CARDS + 1][8][8]
    int bmax[MAX_POINT_CARDS + 1][MAX_POINT_CARDS + 1][8][8]
    char bdone[MAX_POINT_CARDS + 1][MAX_POINT_CARDS + 1][8][8]


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
    int blo          # bounds on the value from the start of the trick in progress
    int bhi


cdef TTEntry* _tt = NULL
cdef uint32_t _tt_bits = 0
cdef uint32_t _tt_mask = 0
cdef uint32_t _tt_filled = 0     # slots holding an entry
cdef uint8_t _gen = 0
cdef uint8_t _pext8[256][256]    # [in-play lane][hand lane]: the hand's cards as ranks among those in play
cdef uint8_t _pdep8[256][8]      # [in-play lane][rank]: the card of that rank (its bit index in the lane)
_contexts = {}                   # context tuple -> id of the entries solved under it
# The techniques that can be switched on and off, to measure what each saves (``set_options``; benchmarks).
# Killer moves are off: measured by nodes (benchmarks.solver_bench) they cost more than they save here,
# at any bonus tried (a tie-break of 3 up to first place), the history heuristic already ordering well.
cdef enum:
    OPT_RELATIVE = 1     # transposition keys on relative ranks (else on the cards themselves)
    OPT_KILLERS = 2      # killer moves in the ordering
    OPT_LEAD_ORDER = 4   # lead ordering by the suit's situation
    OPT_SURE = 8         # sure outcomes at trick starts
cdef int _opts = OPT_RELATIVE | OPT_LEAD_ORDER | OPT_SURE


cdef void _init_rank_tables() noexcept nogil:
    cdef int m, h, b, r, out
    for m in range(256):
        r = 0
        for b in range(8):
            _pdep8[m][b] = 255
        for b in range(8):
            if (m >> b) & 1:
                _pdep8[m][r] = <uint8_t>b
                r += 1
        for h in range(256):
            out = 0
            r = 0
            for b in range(8):
                if (m >> b) & 1:
                    if (h >> b) & 1:
                        out |= 1 << r
                    r += 1
            _pext8[m][h] = <uint8_t>out


_init_rank_tables()


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


# ------------------------------------------------------------------ sure outcomes at a trick start

cdef inline uint32_t defenders_of(Ctx* c, State* s) noexcept nogil:
    return s.hands[(c.declarer + 1) % 3] | s.hands[(c.declarer + 2) % 3]


cdef inline int declarer_takes_all(Ctx* c, State* s) noexcept nogil:
    """The declarer, on lead, takes every remaining trick whatever the defenders do: they hold no trump,
    and each of his cards outranks every defender card of its suit (he leads them one by one, the trump
    7 of the ulti rule last)."""
    cdef uint32_t dec = s.hands[c.declarer], dfn = defenders_of(c, s), dl, fl
    cdef int su
    if c.trump >= 0 and (dfn & suit_mask(c.trump)):
        return 0
    for su in range(4):
        dl = (dec >> (8 * su)) & 0xFFu
        if not dl:
            continue
        fl = (dfn >> (8 * su)) & 0xFFu
        if fl >= (dl & (0u - dl)):  # some defender card at or above his lowest
            return 0
    return 1


cdef inline int declarer_sure_tricks(Ctx* c, State* s, int* pts) noexcept nogil:
    """Tricks the declarer, on lead in a trump contract, takes for sure by cashing top cards, and the
    point cards of his own among them (``pts``): his unbroken run of top trumps (never the trump 7 the
    ulti rule holds back), and in each side suit his unbroken run from the top, as many rounds as every
    defender holding a trump still follows the suit (so nobody can ruff). Defenders without trumps
    only discard; leading trumps makes them discard, never shortens a suit a trump holder follows."""
    cdef uint32_t dec = s.hands[c.declarer], inplay = s.hands[0] | s.hands[1] | s.hands[2], lane, mine, top
    cdef uint32_t tm = suit_mask(c.trump), h1 = s.hands[(c.declarer + 1) % 3], h2 = s.hands[(c.declarer + 2) % 3]
    cdef int su, b, k, limit, tricks = 0, own = 0
    for su in range(4):
        lane = inplay & suit_mask(su)
        mine = dec & lane
        if not mine:
            continue
        limit = 99
        if su != c.trump:
            if h1 & tm:
                limit = __builtin_popcount(h1 & suit_mask(su))
            if (h2 & tm) and __builtin_popcount(h2 & suit_mask(su)) < limit:
                limit = __builtin_popcount(h2 & suit_mask(su))
        k = 0
        while lane and k < limit:
            b = 31 - __builtin_clz(lane)
            if not ((mine >> b) & 1u) or b == c.seven:
                break
            k += 1
            own += (c.points >> b) & 1u
            lane ^= (<uint32_t>1u) << b
        tricks += k
    pts[0] = own
    return tricks


cdef inline int no_holes(Ctx* c, State* s) noexcept nogil:
    """Betli's "no holes": the declarer holds no trump, and every defender card of each of his suits
    ranks above his highest there. Then no card he plays can top a trick a defender led (he follows
    below, or discards), so with a defender on lead he takes no more tricks."""
    cdef uint32_t dec = s.hands[c.declarer], dfn = defenders_of(c, s), dl, fl
    cdef int su
    if c.trump >= 0 and (dec & suit_mask(c.trump)):
        return 0
    for su in range(4):
        dl = (dec >> (8 * su)) & 0xFFu
        if not dl:
            continue
        fl = (dfn >> (8 * su)) & 0xFFu
        if fl & ((1u << (31 - __builtin_clz(dl))) - 1u):
            return 0
    return 1


cdef inline int safe_lead_exists(Ctx* c, State* s) noexcept nogil:
    """With no holes, a declarer on lead gives the trick away by leading a suit a defender holds."""
    cdef uint32_t dec = s.hands[c.declarer], dfn = defenders_of(c, s)
    cdef int su
    for su in range(4):
        if (dec & suit_mask(su)) and (dfn & suit_mask(su)):
            return 1
    return 0


# ------------------------------------------------------------------ move ordering

cdef int order_score(Ctx* c, State* s, int seat, int m) noexcept nogil:
    cdef int strength = m & 7
    cdef int is_decl = seat == c.declarer
    cdef int pts = (c.points >> m) & 1u
    cdef int score, wins, partner
    cdef uint32_t others, dec
    cdef int betli = c.obj == OBJ_BETLI or (c.obj == OBJ_CONTRACT and c.nt_kind == NT_BETLI)
    if betli:
        if is_decl:
            if s.n == 0:
                # a lead some defender must follow (and so overtake) gives the trick away
                others = defenders_of(c, s)
                score = 8 - strength + (20 if (others & above(m)) and (_opts & OPT_LEAD_ORDER) else 0)
            else:
                score = (0 if beats_top(c, s, m) else 100) + strength
        elif s.n == 0:
            # defenders lead low into a suit where the declarer holds a card above the lead
            dec = s.hands[c.declarer]
            score = 8 - strength + (20 if (dec & above(m)) and (_opts & OPT_LEAD_ORDER) else 0)
        else:
            score = 8 - strength
    elif s.n == 0:
        # highest first: measured against leading sure winners first, drawing trumps first, avoiding
        # an opponent's ruff and leading to the partner's winner, each of which searched more nodes
        score = strength
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


# ------------------------------------------------------------------ the transposition table

cdef inline uint32_t rel_hand(uint32_t h, uint32_t inplay) noexcept nogil:
    """``h`` with each card replaced by its rank among the cards of its suit still in play."""
    if not (_opts & OPT_RELATIVE):
        return h
    return (<uint32_t>_pext8[inplay & 0xFFu][h & 0xFFu]
            | (<uint32_t>_pext8[(inplay >> 8) & 0xFFu][(h >> 8) & 0xFFu] << 8)
            | (<uint32_t>_pext8[(inplay >> 16) & 0xFFu][(h >> 16) & 0xFFu] << 16)
            | (<uint32_t>_pext8[(inplay >> 24) & 0xFFu][(h >> 24) & 0xFFu] << 24))


cdef inline int rel_card(int card, uint32_t inplay) noexcept nogil:
    if not (_opts & OPT_RELATIVE):
        return card
    return (card & ~7) | __builtin_popcount((inplay >> (card & ~7)) & ((1u << (card & 7)) - 1u))


cdef inline int abs_card(int rel, uint32_t inplay) noexcept nogil:
    if not (_opts & OPT_RELATIVE):
        return rel
    cdef int b = _pdep8[(inplay >> (rel & ~7)) & 0xFFu][rel & 7]
    return -1 if b == 255 else (rel & ~7) | b


cdef inline uint32_t key_extra(Ctx* c, State* s, uint32_t inplay) noexcept nogil:
    cdef uint32_t acc = 0
    if c.obj == OBJ_POINTS:
        acc = <uint32_t>s.dcards | ((<uint32_t>((s.winners >> c.declarer) & 1)) << 4)
    elif c.obj == OBJ_CONTRACT:
        acc = <uint32_t>s.dcards | ((<uint32_t>s.winners) << 4)
    if c.trump7 >= 0 and ((inplay >> c.trump7) & 1u) and (_opts & OPT_RELATIVE):
        acc |= 1u << 8  # the trump 7 is the trump of relative rank 0 only while it is out
    return <uint32_t>s.leader | (acc << 2)


cdef inline uint32_t slot_of(uint32_t k0, uint32_t k1, uint32_t k2, uint32_t k3, uint32_t extra,
                             uint16_t ctx) noexcept nogil:
    cdef uint64_t hv = mix((<uint64_t>k0) | ((<uint64_t>k1) << 32))
    hv = mix(hv ^ ((<uint64_t>k2) | ((<uint64_t>extra) << 32)))
    hv = mix(hv ^ ((<uint64_t>k3) | ((<uint64_t>ctx) << 32)))
    return (<uint32_t>hv) & _tt_mask & ~1u  # a bucket of two entries


cdef inline int matches(TTEntry* e, uint32_t k0, uint32_t k1, uint32_t k2, uint32_t k3, uint32_t extra,
                        uint16_t ctx) noexcept nogil:
    return (e.ctx == ctx and e.k0 == k0 and e.k1 == k1 and e.k2 == k2 and e.k3 == k3
            and e.extra == extra)


cdef inline TTEntry* victim(TTEntry* b) noexcept nogil:
    """The slot of bucket ``b`` to overwrite: an empty one, else the older, else the shallower."""
    cdef TTEntry* e0 = b
    cdef TTEntry* e1 = b + 1
    if e0.ctx == 0:
        return e0
    if e1.ctx == 0:
        return e1
    if e0.gen != _gen and e1.gen == _gen:
        return e0
    if e1.gen != _gen and e0.gen == _gen:
        return e1
    if __builtin_popcount(e0.k0 | e0.k1 | e0.k2) < __builtin_popcount(e1.k0 | e1.k1 | e1.k2):
        return e0
    return e1


cdef int tt_alloc(uint32_t bits) except -1:
    """(Re)allocate the table with 2**bits entries, moving the entries of the old one across."""
    global _tt, _tt_bits, _tt_mask, _tt_filled
    cdef TTEntry* old = _tt
    cdef uint32_t old_n = (_tt_mask + 1u) if old != NULL else 0
    cdef uint32_t i
    cdef TTEntry* e
    cdef TTEntry* v
    cdef TTEntry* fresh = <TTEntry*>calloc((<uint32_t>1u) << bits, sizeof(TTEntry))
    if fresh == NULL:
        raise MemoryError("solver transposition table")
    _tt = fresh
    _tt_bits = bits
    _tt_mask = ((<uint32_t>1u) << bits) - 1u
    _tt_filled = 0
    for i in range(old_n):
        e = &old[i]
        if e.ctx == 0:
            continue
        v = victim(&_tt[slot_of(e.k0, e.k1, e.k2, e.k3, e.extra, e.ctx)])
        if v.ctx == 0:
            _tt_filled += 1
        v[0] = e[0]
    if old != NULL:
        free(old)
    return 0


cdef void tt_clear() noexcept nogil:
    global _tt_filled
    if _tt != NULL:
        memset(_tt, 0, (_tt_mask + 1u) * sizeof(TTEntry))
    _tt_filled = 0


cdef uint16_t context_id(key) except 0:
    """The id of the entries solved under context ``key`` (a new context gets a new id)."""
    cdef object got = _contexts.get(key)
    if got is None:
        if len(_contexts) >= MAX_CONTEXTS:
            _contexts.clear()
            tt_clear()
        got = len(_contexts) + 1
        _contexts[key] = got
    return <uint16_t>got


def set_options(bint relative=True, bint killers=False, bint lead_order=True, bint sure=True):
    """Switch techniques of the search on or off (the defaults are the search's own; values never
    change, only nodes). For benchmarks that measure what each technique saves; empties the table."""
    global _opts
    _opts = (OPT_RELATIVE * relative) | (OPT_KILLERS * killers) | (OPT_LEAD_ORDER * lead_order) | (OPT_SURE * sure)
    clear_table()


def table_bytes():
    """Bytes of C memory the transposition table holds now (0 before the first solve with it)."""
    return (_tt_mask + 1u) * sizeof(TTEntry) if _tt != NULL else 0


def clear_table():
    """Forget every stored position (the next solves start from an empty table)."""
    _contexts.clear()
    tt_clear()


# ------------------------------------------------------------------ values

cdef int contract_leaf(Ctx* c, State* s, int winner) noexcept nogil:
    """per_defender of a finished trump contract (``scoring.settle``), the last trick still in ``s.trick``."""
    cdef int d = c.declarer
    cdef int last_dec = winner == d
    cdef int dt, ft, val = 0, factor = 1, i, s7 = -1, seat, amt, dcard = -1
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
    c.vmin = INF
    c.vmax = -INF
    for s7 in range(-1, 3):
        for i in range(3):
            f.trick[i] = c.trump7 if i == s7 else -2
        for dp in range(MAX_POINT_CARDS + 1):
            f.dcards = dp
            for win in range(8):
                f.winners = win
                for winner in range(3):
                    c.leafv[dp][win][winner][s7 + 1] = contract_leaf(c, &f, winner) if (win >> winner) & 1 else 0
                    if (win >> winner) & 1:
                        if c.leafv[dp][win][winner][s7 + 1] < c.vmin:
                            c.vmin = c.leafv[dp][win][winner][s7 + 1]
                        if c.leafv[dp][win][winner][s7 + 1] > c.vmax:
                            c.vmax = c.leafv[dp][win][winner][s7 + 1]
    memset(c.bdone, 0, sizeof(c.bdone))


cdef inline int trump7_state(Ctx* c, State* s) noexcept nogil:
    """0: the trump 7 is gone (or none), else 1 + the seat holding it."""
    cdef int i
    if c.trump7 >= 0:
        for i in range(3):
            if (s.hands[i] >> c.trump7) & 1u:
                return i + 1
    return 0


cdef inline void trump_sure(Ctx* c, State* s, int* dpts, int* fpts, int* wreq, int* needdef) noexcept nogil:
    """What the trumps settle whoever leads: a trump above every trump of the other side wins the
    trick it is played to (nothing beats it, and every card is played in the end). So the declarer's
    aces and tens of trumps above all the defenders' trumps are his (``dpts``), the defenders' above
    all his are theirs (``fpts``); the declarer takes a trick if he holds one such trump, a defender if
    they do (``needdef``), and the holder of the highest trump in play takes a trick (``wreq``)."""
    cdef uint32_t tm = suit_mask(c.trump), dec = s.hands[c.declarer] & tm, dfn = defenders_of(c, s) & tm
    cdef uint32_t dsure, fsure, allt = dec | dfn
    cdef int top, i
    dpts[0] = 0
    fpts[0] = 0
    needdef[0] = 0
    if not allt:
        return
    dsure = (dec & above(31 - __builtin_clz(dfn))) if dfn else dec
    fsure = (dfn & above(31 - __builtin_clz(dec))) if dec else dfn
    dpts[0] = __builtin_popcount(dsure & c.points)
    fpts[0] = __builtin_popcount(fsure & c.points)
    if dsure:
        wreq[0] |= 1 << c.declarer
    if fsure:
        needdef[0] = 1
    top = 31 - __builtin_clz(allt)
    for i in range(3):
        if (s.hands[i] >> top) & 1u:
            wreq[0] |= 1 << i


cdef inline void contract_bounds(Ctx* c, State* s, int sure, int cash, int* mn, int* mx) noexcept nogil:
    """Bounds on a trump contract's value from a trick start: over every final declarer's card
    points, set of trick winners, last-trick winner and trump-7 fate still possible; with ``sure``,
    knowing what the trumps settle (``trump_sure``: true on every line of play, so the bounds hold for
    every node of the trick). With ``cash`` too, the declarer on lead, the tricks he can cash: that
    lower bound is what he can force from here, true of this node's value only (not of the nodes after
    another lead of his)."""
    cdef int rem = __builtin_popcount(c.points & (s.hands[0] | s.hands[1] | s.hands[2]))
    cdef int st = trump7_state(c, s), dp, win, last, v, lo = INF, hi = -INF
    cdef int dsure = 0, fsure = 0, needdef = 0, cashed, dlo, dhi, wreq = s.winners, key
    cdef int dbit = 1 << c.declarer
    if sure:
        trump_sure(c, s, &dsure, &fsure, &wreq, &needdef)
        if cash and s.leader == c.declarer and declarer_sure_tricks(c, s, &cashed):
            wreq |= dbit
            if cashed > dsure:
                dsure = cashed
    dlo = s.dcards + dsure
    dhi = s.dcards + rem - fsure
    key = needdef * 4 + st
    if not c.bdone[dlo][dhi][wreq][key]:
        for dp in range(dlo, dhi + 1):
            for win in range(1, 8):
                if (win & wreq) != wreq or (needdef and not (win & ~dbit)):
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
        c.bmin[dlo][dhi][wreq][key] = lo
        c.bmax[dlo][dhi][wreq][key] = hi
        c.bdone[dlo][dhi][wreq][key] = 1
    mn[0] = c.bmin[dlo][dhi][wreq][key]
    mx[0] = c.bmax[dlo][dhi][wreq][key]


cdef inline int contract_all_to_declarer(Ctx* c, State* s) noexcept nogil:
    """The contract's value when the declarer takes every remaining trick (``declarer_takes_all``)."""
    cdef int d = c.declarer
    cdef int dp = s.dcards + __builtin_popcount(c.points & (s.hands[0] | s.hands[1] | s.hands[2]))
    cdef int win = s.winners | (1 << d), v, w
    if c.trump7 >= 0 and ((s.hands[d] >> c.trump7) & 1u):
        v = c.leafv[dp][win][d][d + 1]  # the trump 7 led to the last trick
        if c.seven < 0 and __builtin_popcount(s.hands[d]) > 1:
            w = c.leafv[dp][win][d][0]  # or earlier, when no rule holds it back
            if w > v:
                v = w
        return v
    return c.leafv[dp][win][d][0]


cdef inline void contract_none_to_declarer(Ctx* c, State* s, int* mn, int* mx) noexcept nogil:
    """Bounds on the contract's value when the defenders take every remaining trick (``no_holes``):
    over the defenders who take them, the last one's winner, and the trump 7's fate."""
    cdef int d = c.declarer, st = trump7_state(c, s), x, win, last, v, lo = INF, hi = -INF
    for x in range(1, 8):
        if (x >> d) & 1:
            continue
        win = s.winners | x
        for last in range(3):
            if not ((x >> last) & 1):
                continue
            v = c.leafv[s.dcards][win][last][0]
            if v < lo:
                lo = v
            if v > hi:
                hi = v
            if st:
                v = c.leafv[s.dcards][win][last][st]
                if v < lo:
                    lo = v
                if v > hi:
                    hi = v
    mn[0] = lo
    mx[0] = hi


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


cdef inline int trick_start(Ctx* c, State* s, int* value, int* node_lo) noexcept nogil:
    """At a trick start: whether the outcome is evident (then ``value``); else sets ``s.blo``/``s.bhi``
    (bounds true of every node of this trick) and ``node_lo`` (a lower bound of this node's value only:
    what the declarer on lead can force)."""
    cdef int d = c.declarer, obj = c.obj, remaining, total, lo, hi, lo2, hi2, wreq, needdef
    cdef int lead = s.leader == d
    node_lo[0] = -INF
    # the plain checks, made with the sure-outcome proofs off too (``set_options(sure=False)``)
    if obj == OBJ_ULTI and not ((s.hands[d] >> c.trump7) & 1u):
        value[0] = 0
        return 1
    if obj == OBJ_POINTS:
        if ((s.winners >> d) & 1) and s.dcards * c.card_value + c.marr >= c.threshold:
            value[0] = 1
            return 1
        remaining = __builtin_popcount(c.points & (s.hands[0] | s.hands[1] | s.hands[2]))
        if (s.dcards + remaining) * c.card_value + c.last_trick + c.marr < c.threshold:
            value[0] = 0
            return 1
    if not (_opts & OPT_SURE):
        if obj == OBJ_CONTRACT:
            contract_bounds(c, s, 0, 0, &lo, &hi)
            s.blo = lo
            s.bhi = hi
        return 0
    # the sure-outcome proofs
    if obj == OBJ_BETLI:
        if no_holes(c, s) and (not lead or safe_lead_exists(c, s)):
            value[0] = 1
            return 1
    elif obj == OBJ_DURCHMARS:
        if lead and declarer_takes_all(c, s):
            value[0] = 1
            return 1
    elif obj == OBJ_ULTI:
        if lead and declarer_takes_all(c, s):
            value[0] = 1
            return 1
        if not lead and no_holes(c, s):
            value[0] = 0
            return 1
    elif obj == OBJ_POINTS:
        if lead and declarer_takes_all(c, s):
            value[0] = 1  # every point left and the last trick: the check above failed
            return 1
        wreq = s.winners
        trump_sure(c, s, &lo, &hi, &wreq, &needdef)
        if (s.dcards + remaining - hi) * c.card_value + c.last_trick + c.marr < c.threshold:
            value[0] = 0  # the defenders' sure trumps keep him under it
            return 1
        if lead and declarer_sure_tricks(c, s, &total):
            wreq |= 1 << d
            if total > lo:
                lo = total
        if (wreq >> d) & 1 and (s.dcards + lo) * c.card_value + c.marr >= c.threshold:
            value[0] = 1  # his own aces and tens in the tricks he surely takes reach it
            return 1
        if not lead and no_holes(c, s):
            # the declarer's total stays what it is
            total = s.dcards * c.card_value + c.marr if (s.winners >> d) & 1 else 0
            value[0] = 1 if total >= c.threshold else 0
            return 1
    elif obj == OBJ_CONTRACT:
        if lead and declarer_takes_all(c, s):
            value[0] = contract_all_to_declarer(c, s)
            return 1
        contract_bounds(c, s, 1, 0, &lo, &hi)
        if lead:
            contract_bounds(c, s, 1, 1, &lo2, &hi2)
            node_lo[0] = lo2
        if not lead and no_holes(c, s):
            contract_none_to_declarer(c, s, &lo2, &hi2)
            if lo2 > lo:
                lo = lo2
            if hi2 < hi:
                hi = hi2
            if lo == hi:
                value[0] = lo
                return 1
        s.blo = lo
        s.bhi = hi
    return 0


# ------------------------------------------------------------------ search

cdef inline TTEntry* store_new(TTEntry* bucket, uint32_t k0, uint32_t k1, uint32_t k2, uint32_t k3,
                               uint32_t extra, uint16_t ctx) noexcept nogil:
    """A slot of ``bucket`` made over to a new position (no bounds known yet)."""
    global _tt_filled
    cdef TTEntry* e = victim(bucket)
    if e.ctx == 0:
        _tt_filled += 1
    e.ctx = ctx
    e.k0 = k0
    e.k1 = k1
    e.k2 = k2
    e.k3 = k3
    e.extra = extra
    e.lo = -INF
    e.hi = INF
    e.best = -1
    return e



cdef int play_eval(Ctx* c, State* s, int seat, int m, int alpha, int beta) noexcept nogil:
    """Play card ``m`` for ``seat``, search the rest, undo; the value."""
    cdef uint32_t bit = (<uint32_t>1u) << m
    cdef int old_top = s.top, old_topseat = s.topseat
    cdef int old_dcards, old_winners, old_leader, winner, v, t0, t1, t2, blo, bhi
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
            blo = s.blo
            bhi = s.bhi
            s.leader = winner
            s.n = 0
            v = search(c, s, alpha, beta)
            s.n = 3
            s.leader = old_leader
            s.trick[0] = t0
            s.trick[1] = t1
            s.trick[2] = t2
            s.blo = blo
            s.bhi = bhi
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
    cdef int seat, nm, i, j, best, bestm, v, tmp, ttmove = -1, maximizing, ply, k0m, k1m
    cdef int a0, b0, d = c.declarer, node_lo = -INF
    cdef int moves[MAX_TRICKS]
    cdef int scores[MAX_TRICKS]
    cdef TTEntry* e = NULL
    cdef TTEntry* bucket = NULL
    cdef uint32_t extra = 0, inplay = 0, r0 = 0, r1 = 0, r2 = 0, r3 = 0
    c.nodes += 1
    if s.n == 0:
        if trick_start(c, s, &v, &node_lo):
            return v
        if node_lo >= beta:
            return node_lo
    if s.bhi <= alpha:
        return s.bhi
    if s.blo >= beta:
        return s.blo
    if s.n == 0 and c.use_tt:
        inplay = s.hands[0] | s.hands[1] | s.hands[2]
        r0 = rel_hand(s.hands[0], inplay)
        r1 = rel_hand(s.hands[1], inplay)
        r2 = rel_hand(s.hands[2], inplay)
        if c.group_points:
            r3 = rel_hand(c.points & inplay, inplay)
        extra = key_extra(c, s, inplay)
        bucket = &_tt[slot_of(r0, r1, r2, r3, extra, c.ctx_id)]
        if matches(bucket, r0, r1, r2, r3, extra, c.ctx_id):
            e = bucket
        elif matches(bucket + 1, r0, r1, r2, r3, extra, c.ctx_id):
            e = bucket + 1
        if e != NULL:
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
            if e.best >= 0:
                ttmove = abs_card(e.best, inplay)
    seat = (s.leader + s.n) % 3
    ply = s.done * 3 + s.n
    k0m = c.killers[ply][0]
    k1m = c.killers[ply][1]
    nm = gen_moves(c, s, seat, moves)
    for i in range(nm):
        if moves[i] == ttmove:
            scores[i] = INF
        else:
            scores[i] = order_score(c, s, seat, moves[i])
            if (moves[i] == k0m or moves[i] == k1m) and (_opts & OPT_KILLERS):
                scores[i] += KILLER_BONUS * 65536
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
                    if alpha >= beta or best >= s.bhi:
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
                    if alpha >= beta or best <= s.blo:
                        break
    if alpha >= beta:  # a cut-off: remember the move for its siblings (killer) and in general (history)
        if c.hist[seat][bestm] < HIST_CAP:
            c.hist[seat][bestm] += 1
        if bestm != k0m:
            c.killers[ply][1] = k0m
            c.killers[ply][0] = bestm
    if bucket != NULL:
        # the bucket may hold other positions by now (collisions, deeper ones stored meanwhile)
        if matches(bucket, r0, r1, r2, r3, extra, c.ctx_id):
            e = bucket
        elif matches(bucket + 1, r0, r1, r2, r3, extra, c.ctx_id):
            e = bucket + 1
        else:
            e = store_new(bucket, r0, r1, r2, r3, extra, c.ctx_id)
        e.gen = _gen
        if best <= a0:
            if best < e.hi:
                e.hi = best
        elif best >= b0:
            if best > e.lo:
                e.lo = best
        else:
            e.lo = best
            e.hi = best
        e.best = <int8_t>rel_card(bestm, inplay)
    return best


cdef void contract_values(Ctx* c) noexcept nogil:
    """The values a finished deal of this contract can take, ascending, into ``c.vals``."""
    cdef int dp, win, winner, s7, i, j, x, seen
    c.nv = 0
    for dp in range(MAX_POINT_CARDS + 1):
        for win in range(1, 8):
            for winner in range(3):
                if not ((win >> winner) & 1):
                    continue
                for s7 in range(4):
                    x = c.leafv[dp][win][winner][s7]
                    seen = 0
                    for j in range(c.nv):
                        if c.vals[j] == x:
                            seen = 1
                            break
                    if not seen and c.nv < MAX_VALUES:
                        c.vals[c.nv] = x
                        c.nv += 1
    for i in range(1, c.nv):
        x = c.vals[i]
        j = i - 1
        while j >= 0 and c.vals[j] > x:
            c.vals[j + 1] = c.vals[j]
            j -= 1
        c.vals[j + 1] = x


cdef inline int probe(Ctx* c, State* s, int seat, int m, int alpha, int beta) noexcept nogil:
    """The search from ``s`` (``m`` < 0), or after ``seat`` plays ``m``."""
    if m < 0:
        return search(c, s, alpha, beta)
    return play_eval(c, s, seat, m, alpha, beta)


cdef int contract_value(Ctx* c, State* s, int seat, int m, int guess) noexcept nogil:
    """The exact value of a trump contract (after ``seat`` plays ``m``, when ``m`` >= 0): a search over
    the values a finished deal can take, each step a null-window search ("is the value at least x?")
    sharing the transposition table. The first two steps test the ``guess`` (a value found for a
    sibling: often the same) and its neighbour, as MTD(f) does; then bisection."""
    cdef int lo = 0, hi = c.nv - 1, mid, r, g = -1, steps = 0, last_up = 0
    if guess != -INF:
        g = 0
        while g < hi and c.vals[g] < guess:
            g += 1
    # invariant: the value is one of vals[lo..hi]
    while lo < hi:
        if g >= 0 and steps == 0:
            mid = g if g > lo else lo + 1
        elif g >= 0 and steps == 1:
            mid = lo + 1 if last_up else hi  # just above what held, or just below what failed
        else:
            mid = (lo + hi + 1) // 2
        steps += 1
        r = probe(c, s, seat, m, c.vals[mid] - 1, c.vals[mid])
        if r >= c.vals[mid]:
            last_up = 1
            lo = mid
            while lo < hi and c.vals[lo + 1] <= r:
                lo += 1
        else:
            last_up = 0
            hi = mid - 1
            while hi > lo and c.vals[hi] > r:
                hi -= 1
    return c.vals[lo]


def solve_internal(
    hands, trick, int leader, int done, int dpts, int winners,
    int trump, int declarer, int seven, int obj, int threshold, int marr,
    rules, contract, bint use_tt, bint use_group, bint want_best, after=None, guesses=None, thresholds=None,
):
    """Solve one position given in the internal card encoding.

    ``trick`` lists the cards of the trick in progress in play order; ``dpts`` is the card points in
    the declarer's tricks so far. ``rules`` is the tuple (point-card mask in the internal encoding,
    card points per point card, last-trick bonus, the 100, tricks in a deal, the trump 7 or -1);
    ``contract`` is the tuple (nt_kind, nt_value, simple_vm, ulti_vm, ulti_extra, f100_vm, t100_vm,
    durch_vm, has40, has20, silent ulti won, silent ulti lost, silent durchmars, silent-100 factor,
    decl_marr, def_marr). Returns (value, best-card mask or 0, nodes).

    With ``after`` (legal cards of the seat to move), the value is instead the list of the values after
    each of them is played (the same as solving each resulting position; siblings share the table and
    each guesses ``guesses[i]`` when given, e.g. the values a bot found in its previous world, else the
    previous sibling's value: a guess only orders the search's steps, never changes a value).
    ``thresholds`` (one per card, an int or None) asks, for a card with an int ``x``, only whether its
    value is at least ``x``: one null-window search, whose fail-soft result ``r`` is returned instead of
    the value (the value is at least ``r`` when ``r >= x``, at most ``r`` otherwise); None: the exact
    value. A no-trump contract's value is exact either way (its win/lose search is one step already).

    The transposition table is kept from solve to solve (its entries are exact facts about a position
    under a context: objective and constants); ``clear_table`` empties it.
    """
    global _gen
    cdef Ctx c
    cdef State s
    cdef int i, v, seat, x, nt_scale, all_best
    cdef int rep_of[32]
    cdef uint32_t legal, inplay, best_mask = 0, rest
    cdef int best_rep[32]
    (c.points, c.card_value, c.last_trick, c.hundred, c.tricks, c.trump7) = rules
    if __builtin_popcount(c.points) > MAX_POINT_CARDS or c.card_value <= 0 or not 0 < c.tricks <= MAX_TRICKS:
        raise ValueError(f"rules out of the solver's range: {rules!r}")
    c.all_points = __builtin_popcount(c.points) * c.card_value
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
    c.vmin = 0
    c.vmax = 1
    memset(c.hist, 0, sizeof(c.hist))
    memset(c.killers, 0xFF, sizeof(c.killers))  # -1: no killer yet
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
    s.blo = c.vmin
    s.bhi = c.vmax
    if use_tt:
        if _tt == NULL:
            tt_alloc(TT_MIN_BITS)
        elif _tt_filled > (_tt_mask + 1u) // 4 * 3 and _tt_bits < TT_MAX_BITS:
            tt_alloc(_tt_bits + 1)  # grown by need: the solves of this process fill it
        _gen += 1
        c.ctx_id = context_id((c.obj, threshold, marr, trump, declarer, seven, rules,
                               contract if c.obj == OBJ_CONTRACT else None))
    if c.obj == OBJ_CONTRACT:
        contract_values(&c)
    if after is not None:
        seat = (s.leader + s.n) % 3
        legal = legal_mask(&c, &s, seat)
        out = []
        v = -INF
        if guesses is not None and len(guesses) != len(after):
            raise ValueError("one guess per card")
        if thresholds is not None and len(thresholds) != len(after):
            raise ValueError("one threshold per card")
        for i, x in enumerate(after):
            if not 0 <= x < 32 or not (legal >> x) & 1u:
                raise ValueError(f"card {x} is not a legal card of the seat to move")
            if c.obj == OBJ_CONTRACT and thresholds is not None and thresholds[i] is not None:
                # one step of contract_value's search: "is the value at least t?", fail-soft
                v = play_eval(&c, &s, seat, x, <int>thresholds[i] - 1, <int>thresholds[i])
                out.append(v)
                continue
            if c.obj == OBJ_CONTRACT:
                v = contract_value(&c, &s, seat, x, guesses[i] if guesses is not None else v)
            else:
                v = play_eval(&c, &s, seat, x, 0, 1)
            out.append((nt_scale if v else -nt_scale) if nt_scale else v)
        return out, 0, c.nodes
    if c.obj == OBJ_CONTRACT:
        v = contract_value(&c, &s, 0, -1, -INF)
    else:
        v = search(&c, &s, 0, 1)
    if want_best:
        seat = (s.leader + s.n) % 3
        legal = legal_mask(&c, &s, seat)
        inplay = in_play(&s)
        # s.blo / s.bhi: the bounds the root search found for this trick (or the deal's)
        # at a bound, every card achieves the value: nothing to search
        all_best = (v <= s.blo) if seat == declarer else (v >= s.bhi)
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
            if all_best:
                best_rep[x] = 1
            elif seat == declarer:
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

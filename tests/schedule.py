"""docs/rules.md section 7's payment table and variant 8's low schedule, written out by hand.

Used by test_scoring.py and test_simulation.py to check the engine's payoffs without calling
``rules.payments``.
"""


def vector(declarer, gets, *, partner=None, partner_gets=0, giver=None, giver_pays=0, pays):
    """Payments by seat for a won contract: the declarer gets ``gets``, the partner
    ``partner_gets``, the giver pays ``giver_pays`` and every other opponent ``pays``."""
    out = [-pays] * 4
    out[declarer] = gets
    if partner is not None:
        out[partner] = partner_gets
    if giver is not None:
        out[giver] = -giver_pays
    assert sum(out) == 0
    return tuple(out)


def lost(payoffs):
    """A lost contract: the same amounts in the opposite direction (docs/rules.md 7)."""
    return tuple(-p for p in payoffs)


# -- the contract lines -------------------------------------------------------------------------
# (schedule, line) -> (declarer gets, partner gets, giver pays, each other opponent pays)
LINES = {
    # standard: docs/rules.md 7
    ("standard", "chiamo partner"): (5, 3, None, 4),
    ("standard", "chiamo alone"): (12, None, None, 4),
    ("standard", "mediatore giver"): (22, None, 6, 8),
    ("standard", "mediatore alone"): (24, None, None, 8),
    ("standard", "solo"): (36, None, None, 12),
    ("standard", "solissimo"): (48, None, None, 16),
    ("standard", "arcisolissimo"): (54, None, None, 18),
    # low: docs/rules.md 8.8 (Chiamo 2/3/1, alone 2 each/6, Mediatore 3 and 4, Solo 6, Solissimo 8)
    ("low", "chiamo partner"): (3, 1, None, 2),
    ("low", "chiamo alone"): (6, None, None, 2),
    ("low", "mediatore giver"): (11, None, 3, 4),
    ("low", "mediatore alone"): (12, None, None, 4),
    ("low", "solo"): (18, None, None, 6),
    ("low", "solissimo"): (24, None, None, 8),
}
# Capotto: 2 more per paying player; Chiamo with partner: declarer +2, partner +2 (6/7/5).
CAPOTTO = {
    ("standard", "chiamo partner"): (7, 5, None, 6),
    ("standard", "chiamo alone"): (18, None, None, 6),
    ("standard", "mediatore giver"): (28, None, 8, 10),   # seed 002: 28 in all
    ("standard", "mediatore alone"): (30, None, None, 10),
    ("standard", "solo"): (42, None, None, 14),
    ("standard", "solissimo"): (54, None, None, 18),
    ("standard", "arcisolissimo"): (60, None, None, 20),
    ("low", "chiamo partner"): (5, 3, None, 4),
    ("low", "chiamo alone"): (12, None, None, 4),
    ("low", "mediatore giver"): (17, None, 5, 6),
    ("low", "mediatore alone"): (18, None, None, 6),
    ("low", "solo"): (24, None, None, 8),
    ("low", "solissimo"): (30, None, None, 10),
}


def expected(line_table, schedule, line, declarer, partner=None, giver=None):
    gets, partner_gets, giver_pays, pays = line_table[(schedule, line)]
    return vector(declarer, gets, partner=partner, partner_gets=partner_gets, giver=giver,
                  giver_pays=giver_pays, pays=pays)

"""Rules switches (docs/rules.md section 8): names, values, errors, presets."""

import pytest

from mediatore_env.mediatore.rules import (ARCISOLISSIMO, CHIAMO, MEDIATORE, PRESETS, SOLISSIMO,
                                           SOLO, SWITCHES, Rules)

# docs/rules.md 8, one switch per variant, the default (the rule of sections 1-7) first.
EXPECTED_SWITCHES = {
    "chiamo_monte": (True, False),                                      # variant 1
    "monte_shown": ("standard", "always", "never"),                     # variants 2, 3
    "call_restriction": ("any", "three", "three_or_two", "no_ace"),     # variant 4
    "arcisolissimo": (True, False),                                     # variant 5
    "first_lead": ("mano", "declarer_solissimo", "declarer_solo", "declarer"),  # variant 6
    "signals": ("standard", "no_striscio", "off", "alternative"),       # variant 7
    "schedule": ("standard", "low"),                                    # variant 8
    "capotto_bonus": (True, False),                                     # variant 8
}


def test_switches_and_defaults():
    assert SWITCHES == EXPECTED_SWITCHES
    defaults = Rules().to_dict()
    assert defaults == {name: values[0] for name, values in EXPECTED_SWITCHES.items()}


def test_unknown_switch_lists_valid_names():
    with pytest.raises(ValueError) as e:
        Rules.from_dict({"signal": "off"})
    assert "'signal'" in str(e.value)
    for name in EXPECTED_SWITCHES:
        assert name in str(e.value)
    with pytest.raises(ValueError, match="first_lead"):
        Rules().replace(firstlead="mano")
    # The constructor too: a ValueError listing the switches (README), also a TypeError
    # (Python's error for an unknown keyword argument).
    for error in (ValueError, TypeError):
        with pytest.raises(error, match="unknown rules switch.*'no_such_switch'.*valid: chiamo_monte"):
            Rules(no_such_switch=1)
    assert Rules(signals="off").signals == "off"  # known keywords still go to the fields


@pytest.mark.parametrize("name", EXPECTED_SWITCHES)
def test_bad_value_lists_valid_values(name):
    bad = 1 if isinstance(EXPECTED_SWITCHES[name][0], bool) else "nonsense"
    with pytest.raises(ValueError) as e:
        Rules.from_dict({name: bad})
    msg = str(e.value)
    assert repr(name) in msg and repr(bad) in msg
    for value in EXPECTED_SWITCHES[name]:
        assert repr(value) in msg


@pytest.mark.parametrize("name,value", [("chiamo_monte", 0), ("arcisolissimo", "True"),
                                        ("capotto_bonus", None), ("signals", "Standard"),
                                        ("schedule", ["standard"])])
def test_bad_values(name, value):
    with pytest.raises(ValueError):
        Rules(**{name: value})


@pytest.mark.parametrize("name", EXPECTED_SWITCHES)
def test_every_value_accepted(name):
    for value in EXPECTED_SWITCHES[name]:
        extra = {"arcisolissimo": False} if name == "schedule" and value == "low" else {}
        rules = Rules(**{name: value, **extra})
        assert getattr(rules, name) == value


def test_low_schedule_has_no_arcisolissimo():
    # docs/rules.md 8.8: the low schedule has no Arcisolissimo.
    with pytest.raises(ValueError, match="arcisolissimo"):
        Rules(schedule="low")
    assert Rules(schedule="low", arcisolissimo=False).top_contract == SOLISSIMO


def test_presets():
    assert PRESETS["standard"] == Rules()
    assert Rules.preset("low") == Rules(schedule="low", arcisolissimo=False)
    assert Rules.preset("chiamo_blind") == Rules(chiamo_monte=False)
    assert Rules.preset("no_arcisolissimo").top_contract == SOLISSIMO
    for name, rules in PRESETS.items():
        assert Rules.preset(name) is rules
        assert isinstance(rules, Rules)
        # each preset is reachable from its switches and differs from the others
        assert Rules.from_dict(rules.to_dict()) == rules
    assert len(set(PRESETS.values())) == len(PRESETS)
    with pytest.raises(ValueError) as e:
        Rules.preset("nonsense")
    assert "'nonsense'" in str(e.value) and all(name in str(e.value) for name in PRESETS)


def test_rules_immutable_and_hashable():
    rules = Rules()
    with pytest.raises(Exception):
        rules.signals = "off"
    assert hash(rules) == hash(Rules())
    assert rules.replace(signals="off") == Rules(signals="off") != rules
    assert rules.signals == "standard"


def test_top_contract():
    assert Rules().top_contract == ARCISOLISSIMO
    assert Rules(arcisolissimo=False).top_contract == SOLISSIMO


@pytest.mark.parametrize("first_lead,declarer_leads", [
    # docs/rules.md 8.6, contracts in the order chiamo, mediatore, solo, solissimo, arcisolissimo
    ("mano", (False, False, False, False, False)),
    ("declarer_solissimo", (False, False, False, True, True)),
    ("declarer_solo", (False, False, True, True, True)),
    ("declarer", (True, True, True, True, True)),
])
def test_declarer_leads_first(first_lead, declarer_leads):
    rules = Rules(first_lead=first_lead)
    contracts = (CHIAMO, MEDIATORE, SOLO, SOLISSIMO, ARCISOLISSIMO)
    assert tuple(rules.declarer_leads_first(c) for c in contracts) == declarer_leads


def test_coerce_accepts_what_users_pass_and_names_the_rest():
    from mediatore_env.mediatore.rules import PRESETS, Rules
    assert Rules.coerce() == Rules()
    assert Rules.coerce("low") == PRESETS["low"]
    assert Rules.coerce({"signals": "off"}, capotto_bonus=False) == Rules(signals="off", capotto_bonus=False)
    with pytest.raises(ValueError, match="preset name"):
        Rules.coerce(3)


def test_max_payment_is_the_largest_line_of_the_schedule():
    from mediatore_env.mediatore.rules import PRESETS, Rules, max_payment

    # Standard: Arcisolissimo with capotto, 3 x (18 + 2) = 60. Low: Solissimo capotto 3 x (8 + 2).
    assert max_payment(Rules()) == 60
    assert max_payment(PRESETS["low"]) == 30
    assert max_payment(Rules(capotto_bonus=False)) == 54

"""DiscSpec: presets against the equipment notes (PHYSICS.md), validation, registry."""

import dataclasses
import math
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from carromlab.equipment.disc import WOOD_DENSITY, DiscSpec

INCH = 0.0254


# --------------------------------------------------------------------------- presets
def test_icf_striker_at_the_spec_limits():
    s = DiscSpec.icf_striker()
    assert s.kind == "striker"
    assert 2 * s.radius == pytest.approx(0.0413)  # [SPEC] at most 4.13 cm
    assert s.mass == pytest.approx(0.015)  # [SPEC] at most 15 g
    assert 0.0065 <= s.thickness <= 0.0080  # competition strikers 6.5-8.0 mm


@pytest.mark.parametrize("kind", ["white", "black"])
def test_icf_coin_inside_the_spec(kind):
    c = DiscSpec.icf_coin(kind)
    assert c.kind == kind
    assert 0.0302 <= 2 * c.radius <= 0.0318  # [SPEC] 3.02-3.18 cm
    assert 0.0070 <= c.thickness <= 0.0090  # [SPEC] 0.70-0.90 cm
    assert 0.0050 <= c.mass <= 0.0055  # [SPEC] 5.0-5.5 g
    assert 2 * c.radius == pytest.approx(0.031)  # mid-spec


def test_icf_queen_is_a_coin_of_its_own_kind():
    q, c = DiscSpec.icf_queen(), DiscSpec.icf_coin()
    assert q.kind == "queen"
    assert (q.radius, q.mass, q.thickness) == (c.radius, c.mass, c.thickness)


@pytest.mark.parametrize("kind", ["red", "green"])
def test_hikone_puck(kind):
    p = DiscSpec.hikone_puck(kind)
    assert p.kind == kind
    assert 2 * p.radius == pytest.approx(0.030)  # about 3.0 cm
    assert p.mass == pytest.approx(0.00495, abs=5e-5)  # [EST] 700 kg/m^3 cylinder


def test_hikone_jack_larger_than_a_puck():
    j = DiscSpec.hikone_jack()
    assert j.kind == "jack"
    assert 2 * j.radius == pytest.approx(0.034)
    assert j.mass > DiscSpec.hikone_puck().mass


def test_hikone_striker_inside_seed_001_limits():
    s = DiscSpec.hikone_striker()
    assert s.kind == "striker"
    assert 0.0295 <= 2 * s.radius <= 0.0315  # 29.5-31.5 mm
    assert 0.0105 <= s.thickness <= 0.0120  # 10.5-12.0 mm


@pytest.mark.parametrize("kind", ["dark", "light", "green", "red", "black", "white"])  # rule CRK-5
def test_crokinole_disc(kind):
    d = DiscSpec.crokinole_disc(kind)
    assert d.kind == kind
    assert 2 * d.radius == pytest.approx(1.25 * INCH)
    assert d.thickness == pytest.approx(0.375 * INCH)
    assert d.mass == pytest.approx(0.0054)


@pytest.mark.parametrize("factory", [DiscSpec.hikone_puck, DiscSpec.hikone_jack, DiscSpec.hikone_striker])
def test_wooden_masses_follow_the_wood_density(factory):
    d = factory()
    assert d.mass / (math.pi * d.radius**2 * d.thickness) == pytest.approx(WOOD_DENSITY)


def test_wood_density_consistent_with_the_crokinole_estimate():
    # PHYSICS.md: a maple crokinole disc weighs about 5.4 g
    d = DiscSpec.crokinole_disc()
    implied = d.mass / (math.pi * d.radius**2 * d.thickness)
    assert implied == pytest.approx(WOOD_DENSITY, rel=0.05)


@pytest.mark.parametrize(
    ("factory", "name", "bad"),
    [(DiscSpec.icf_coin, "kind", "red"), (DiscSpec.hikone_puck, "kind", "white"), (DiscSpec.crokinole_disc, "kind", "jack")],
)
def test_preset_kind_checked(factory, name, bad):
    with pytest.raises(ValueError, match=f"'{name}'.*{bad}"):
        factory(bad)


# --------------------------------------------------------------------------- the dataclass
def test_inertia_of_a_uniform_disc():
    d = DiscSpec("x", radius=0.02, mass=0.01, thickness=0.005)
    assert d.inertia == pytest.approx(0.5 * 0.01 * 0.02**2)
    assert d.diameter == pytest.approx(0.04)


def test_frozen_and_with_revalidates():
    d = DiscSpec.icf_coin()
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.mass = 1.0  # type: ignore[misc]
    heavier = d.with_(mass=0.0055)
    assert heavier.mass == 0.0055 and d.mass == 0.00525
    with pytest.raises(ValueError, match="'mass'"):
        d.with_(mass=-1.0)


def test_numbers_stored_as_floats():
    d = DiscSpec("x", radius=1 / 50, mass=1, thickness=0.01)
    assert type(d.mass) is float


@pytest.mark.parametrize(
    ("field", "bad", "rng"),
    [
        ("radius", 0.0, r"\(0, 0.1\] m"),
        ("radius", -0.01, r"\(0, 0.1\] m"),
        ("radius", 0.2, r"\(0, 0.1\] m"),
        ("radius", float("nan"), r"\(0, 0.1\] m"),
        ("radius", "big", r"\(0, 0.1\] m"),
        ("radius", True, r"\(0, 0.1\] m"),
        ("mass", 0.0, r"\(0, 1\] kg"),
        ("mass", 2.0, r"\(0, 1\] kg"),
        ("mass", float("inf"), r"\(0, 1\] kg"),
        ("thickness", 0.0, r"\(0, 0.1\] m"),
        ("thickness", 0.5, r"\(0, 0.1\] m"),
    ],
)
def test_bad_numbers_name_parameter_range_and_value(field, bad, rng):
    kw = {"radius": 0.015, "mass": 0.005, "thickness": 0.008, field: bad}
    error = TypeError if isinstance(bad, (str, bool)) else ValueError  # text or a bool is no number
    with pytest.raises(error, match=f"'{field}'.*{rng}.*Got {re.escape(repr(bad))}"):
        DiscSpec("white", **kw)


@pytest.mark.parametrize(("bad", "error"), [("", ValueError), (None, TypeError), (3, TypeError)])
def test_bad_kind(bad, error):
    with pytest.raises(error, match="'kind'") as info:
        DiscSpec(bad, radius=0.015, mass=0.005, thickness=0.008)
    assert type(info.value) is error


@given(
    r=st.floats(min_value=1e-6, max_value=0.1),
    m=st.floats(min_value=1e-6, max_value=1.0),
    t=st.floats(min_value=1e-6, max_value=0.1),
)
@example(r=0.1, m=1.0, t=0.1)
def test_valid_values_accepted(r, m, t):
    d = DiscSpec("x", radius=r, mass=m, thickness=t)
    assert d.inertia == pytest.approx(0.5 * m * r * r)


@given(r=st.one_of(st.floats(max_value=0.0), st.floats(min_value=0.1, exclude_min=True)))
@example(r=0.0)
@example(r=0.1000001)
def test_radius_outside_range_rejected(r):
    with pytest.raises(ValueError, match="'radius'"):
        DiscSpec("x", radius=r, mass=0.005, thickness=0.008)


# --------------------------------------------------------------------------- registry
def test_every_preset_name_builds_its_disc():
    names = DiscSpec.preset_names()
    assert len(names) == 10
    kinds = {n: DiscSpec.preset(n).kind for n in names}
    assert kinds["icf_coin_black"] == "black"
    assert kinds["hikone_puck_green"] == "green"
    assert kinds["crokinole_disc_light"] == "light"
    assert DiscSpec.preset("icf_striker") == DiscSpec.icf_striker()


def test_unknown_preset_lists_the_known_names():
    with pytest.raises(ValueError, match="'name'.*icf_striker.*Got 'pool_ball'"):
        DiscSpec.preset("pool_ball")

"""Parameter checks name the parameter, the range and the value received."""

import numpy as np
import pytest

from carromlab._validation import check_array, check_choice, check_int, check_mapping, check_real, check_sequence, check_str, check_type


def test_check_real_messages():
    assert check_real("mu", 0.1, low=0.0, high=2.0, low_open=True) == 0.1
    with pytest.raises(ValueError, match=r"The 'mu' parameter .* range \(0, 2\]\. Got 0 instead"):
        check_real("mu", 0, low=0.0, high=2.0, low_open=True)
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError, match="'mu'"):
            check_real("mu", bad)
    for bad in ("x", "0.1", 1j, None, True, [0.1]):
        with pytest.raises(TypeError, match="'mu'"):
            check_real("mu", bad)


def test_check_array_scalar_and_vector():
    with pytest.raises(ValueError, match=r"'r' parameter must be a finite real number.*Got -1.0 instead"):
        check_array("r", -1.0, low=0.0)
    with pytest.raises(ValueError, match=r"Got nan at index 2"):
        check_array("r", [1.0, 2.0, np.nan])
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        check_array("xy", np.zeros((3, 3)), shape=(None, 2))
    np.testing.assert_array_equal(check_array("r", [1, 2]), [1.0, 2.0])


def test_check_int_and_choice():
    assert check_int("n", 3, low=1) == 3
    with pytest.raises(ValueError, match=r"'n' parameter must be an int in the range \[1, inf\)\. Got 0"):
        check_int("n", 0, low=1)
    with pytest.raises(TypeError, match=r"'n' .* Got 1\.5 \(float\)"):
        check_int("n", 1.5)
    assert check_int("n", np.array(3), low=1) == 3
    with pytest.raises(ValueError, match=r"one of \['a', 'b'\]\. Got 'c'"):
        check_choice("kind", "c", ["b", "a"])


def test_check_type_article_follows_the_first_letter():
    with pytest.raises(TypeError, match=r"^The 'n' parameter must be an int\. Got 'x' \(str\) instead\.$"):
        check_type("n", "x", int)
    with pytest.raises(TypeError, match=r"must be an Exception or None\. Got 1"):
        check_type("e", 1, (Exception, type(None)))
    with pytest.raises(TypeError, match=r"must be a str\. Got 1"):
        check_type("s", 1, str)


def test_check_sequence_mapping_and_str():
    assert check_sequence("r", [1, 2], int, length=2) == (1, 2)
    with pytest.raises(TypeError, match=r"'r' parameter must be a sequence of int\. Got 'ab' \(str\)"):
        check_sequence("r", "ab", int)
    with pytest.raises(TypeError, match=r"Got 'b' \(str\) at index 1"):
        check_sequence("r", [1, "b"], int)
    with pytest.raises(ValueError, match=r"Got \[1\] \(1 items\)"):
        check_sequence("r", [1], int, length=2)
    with pytest.raises(TypeError, match=r"'m' parameter must be a mapping of str to float\. Got \[1\.0\] \(list\)"):
        check_mapping("m", [1.0], str, float)
    with pytest.raises(TypeError, match=r"'m\[a\]' parameter must be a float\. Got 'x' \(str\)"):
        check_mapping("m", {"a": "x"}, str, float)
    with pytest.raises(ValueError, match=r"with at least one entry\. Got \{\}"):
        check_mapping("m", {}, str, float, nonempty=True)
    assert check_str("k", "white") == "white"
    with pytest.raises(TypeError, match=r"'k' parameter must be a non-empty str\. Got None \(NoneType\)"):
        check_str("k", None)
    with pytest.raises(ValueError, match=r"'k' parameter must be a non-empty str\. Got ' ' instead"):
        check_str("k", " ")

import unittest
from unittest import mock

import lazypkg
import pytest
from lazypkg import shapes


def test_described():
    assert shapes.described(shapes.Scaled(2)) == "Scaled(width, height)"


def test_area():
    assert shapes.area(2, 3) == 6  # marker: assert


def test_checked():
    assert shapes.checked(-1) == 1  # marker: escapes


def test_lazy():
    assert lazypkg.shapes is shapes


@mock.patch("lazypkg.shapes.area", lambda width, height: width * height * 2)
def test_patched():
    assert shapes.area(1, 1) == 1  # marker: patched


def test_raises_from_a_generator():
    with pytest.raises(ValueError):
        list(shapes.widths([2, -1]))


class TestCase(unittest.TestCase):
    def test_scaled(self):
        self.assertEqual(shapes.Scaled(3)(1, 1), 2)  # marker: unittest

    def test_raises_through_a_callable(self):
        self.assertRaisesRegex(ValueError, "negative", lambda: list(shapes.widths([-2])))
        with self.assertRaises(ValueError):
            next(shapes.widths([-3]))


def test_missing_attribute():
    assert getattr(lazypkg, "circles")  # noqa: B009 (a lookup by getattr, marker: missing)

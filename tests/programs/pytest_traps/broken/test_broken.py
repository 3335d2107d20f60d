import lazypkg.nonexistent  # noqa: F401 (marker: import)


def test_never():
    pass

"""Large and deep state, to check that everything an agent sees is bounded."""


def recurse(depth):
    if depth == 0:
        return marker()
    return recurse(depth - 1)


def marker():
    many = {f"key{i}": i for i in range(500)}
    long_text = "x" * 10_000
    locals().update()  # keep the names alive
    return len(many) + len(long_text)  # marker: deep


def wide():
    v000 = v001 = v002 = v003 = v004 = v005 = v006 = v007 = v008 = v009 = 0
    v010 = v011 = v012 = v013 = v014 = v015 = v016 = v017 = v018 = v019 = 0
    v020 = v021 = v022 = v023 = v024 = v025 = v026 = v027 = v028 = v029 = 0
    v030 = v031 = v032 = v033 = v034 = v035 = v036 = v037 = v038 = v039 = 0
    v040 = v041 = v042 = v043 = v044 = v045 = v046 = v047 = v048 = v049 = 0
    v050 = v051 = v052 = v053 = v054 = v055 = v056 = v057 = v058 = v059 = 0
    return locals()  # marker: wide


if __name__ == "__main__":
    recurse(40)
    wide()
    print("done")

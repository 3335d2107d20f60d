"""Debuggee for bench/snapshots.py: two frames, each holding about 10,000 variables within depth 2.

`nested()` holds 100 locals, every other one an object, the rest dicts, each with 10 fields that
are lists or dicts of 9 numbers: 100 + 1,000 + 9,000 = 10,100 variables at depth 2, fetched with
1 + 100 + 1,000 `variables` requests. `wide()` holds 100 locals of the same kinds with 100 number
fields each: 100 + 10,000 = 10,100 variables (depth 1 already), in 1 + 100 larger replies.
"""


class Record:
    def __init__(self, fields):
        for name, value in fields.items():
            setattr(self, name, value)


def item(i, fields):
    return Record(fields) if i % 2 else fields


def nested_item(i):
    """10 fields, alternately a dict and a list of 9 numbers."""
    fields = {}
    for j in range(10):
        numbers = [i * 100 + j * 9 + k for k in range(9)]
        fields[f"f{j}"] = numbers if j % 2 else {f"k{k}": n for k, n in enumerate(numbers)}
    return item(i, fields)


def wide_item(i):
    """100 number fields."""
    return item(i, {f"f{j:02d}": i * 100 + j for j in range(100)})


def nested():
    (v00, v01, v02, v03, v04, v05, v06, v07, v08, v09, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19,
     v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32, v33, v34, v35, v36, v37, v38, v39,
     v40, v41, v42, v43, v44, v45, v46, v47, v48, v49, v50, v51, v52, v53, v54, v55, v56, v57, v58, v59,
     v60, v61, v62, v63, v64, v65, v66, v67, v68, v69, v70, v71, v72, v73, v74, v75, v76, v77, v78, v79,
     v80, v81, v82, v83, v84, v85, v86, v87, v88, v89, v90, v91, v92, v93, v94, v95, v96, v97, v98, v99,
     ) = [nested_item(i) for i in range(100)]
    return len(locals())  # marker: nested


def wide():
    (w00, w01, w02, w03, w04, w05, w06, w07, w08, w09, w10, w11, w12, w13, w14, w15, w16, w17, w18, w19,
     w20, w21, w22, w23, w24, w25, w26, w27, w28, w29, w30, w31, w32, w33, w34, w35, w36, w37, w38, w39,
     w40, w41, w42, w43, w44, w45, w46, w47, w48, w49, w50, w51, w52, w53, w54, w55, w56, w57, w58, w59,
     w60, w61, w62, w63, w64, w65, w66, w67, w68, w69, w70, w71, w72, w73, w74, w75, w76, w77, w78, w79,
     w80, w81, w82, w83, w84, w85, w86, w87, w88, w89, w90, w91, w92, w93, w94, w95, w96, w97, w98, w99,
     ) = [wide_item(i) for i in range(100)]
    return len(locals())  # marker: wide


if __name__ == "__main__":
    print(nested(), wide())

"""Streaming confusion matrix and protocol reports against independent computations on real FLAIR masks."""

import numpy as np
import pytest
from eval_helpers import FLAIR_IDS, independent_scores, perturb, read_mask
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from flair_qgis.core.errors import InputError
from flair_qgis.core.score.metrics import ConfusionMatrix, build_report
from flair_qgis.core.score.protocols import PROTOCOLS, get_protocol, parse_remap, parse_value_list


def _masks(n=4):
    return [read_mask(p)[0] for p in FLAIR_IDS[:n]]


def test_streaming_windows_equal_sklearn_on_real_masks():
    matrix = ConfusionMatrix()
    refs, preds = [], []
    for i, mask in enumerate(_masks()):
        pred = perturb(mask, i, 0.3, list(range(1, 20)))
        for r in range(0, 512, 128):  # window by window
            matrix.update(mask[r : r + 128], pred[r : r + 128])
        refs.append(mask.ravel())
        preds.append(pred.ravel())
    ref, pred = np.concatenate(refs), np.concatenate(preds)
    labels = sorted(set(ref) | set(pred))
    expected = sk_confusion_matrix(ref, pred, labels=labels)
    r, p, n = matrix.pairs()
    got = np.zeros_like(expected)
    for a, b, c in zip(r, p, n):
        got[labels.index(a), labels.index(b)] += c
    assert (got == expected).all()
    assert matrix.total == ref.size


def test_merge_equals_single_pass_and_wide_values():
    rng = np.random.default_rng(3)
    ref = rng.integers(-3, 400, (64, 64)).astype(np.int32)
    pred = rng.integers(-3, 400, (64, 64)).astype(np.int32)
    one, a, b = ConfusionMatrix(), ConfusionMatrix(), ConfusionMatrix()
    one.update(ref, pred)
    a.update(ref[:30], pred[:30])
    b.update(ref[30:], pred[30:])
    a.merge(b)
    for x, y in zip(one.pairs(), a.pairs()):
        order_x, order_y = np.lexsort(one.pairs()[:2]), np.lexsort(a.pairs()[:2])
        assert (x[order_x] == y[order_y]).all()
    # Independent count of one pair with a wide value.
    r0, p0 = int(ref[0, 0]), int(pred[0, 0])
    rr, pp, nn = one.pairs()
    assert nn[(rr == r0) & (pp == p0)].sum() == np.sum((ref == r0) & (pred == p0))


def test_valid_mask_excludes_pixels():
    mask = _masks(1)[0]
    pred = perturb(mask, 0, 0.2, list(range(1, 13)))
    valid = np.ones(mask.shape, bool)
    valid[:, :256] = False
    m = ConfusionMatrix()
    m.update(mask, pred, valid)
    assert m.total == 512 * 256


@pytest.mark.parametrize("protocol", ["flair1", "flairhub-landcover", "flairhub-croptype", "weedsense"])
def test_presets_match_published_computation(protocol):
    masks = _masks(5)
    matrix = ConfusionMatrix()
    refs, preds = [], []
    for i, mask in enumerate(masks):
        if protocol == "flair1":
            ref, values = mask, list(range(1, 20))
        elif protocol == "flairhub-landcover":
            ref, values = mask - 1 + (mask > 15) * 0, list(range(19))  # codes 0..18
        elif protocol == "flairhub-croptype":
            ref, values = (mask * 2) % 23, [v for v in range(23)]
        else:
            ref = mask % 17
            ref[:10] = 255  # ignored
            values = list(range(17))
        pred = perturb(ref, 10 + i, 0.25, values)
        matrix.update(ref, pred)
        refs.append(ref)
        preds.append(pred)
    report = build_report(matrix, get_protocol(protocol))
    expected = independent_scores(np.concatenate(refs), np.concatenate(preds), protocol)
    assert report["miou"] == pytest.approx(expected["miou"], abs=1e-12)
    assert report["oa"] == pytest.approx(expected["oa"], abs=1e-12)
    assert report["pixels_evaluated"] == expected["pixels"]
    for row in report["classes"]:
        exp = expected["ious"][row["value"]]
        assert (row["iou"] is None) == (exp is None)
        if exp is not None:
            assert row["iou"] == pytest.approx(exp, abs=1e-12)


def test_flair1_counts_other_as_errors_and_excludes_it_from_miou():
    ref = np.array([[1, 1, 14, 19]], np.uint8)
    pred = np.array([[1, 13, 1, 13]], np.uint8)
    m = ConfusionMatrix()
    m.update(ref, pred)
    rep = build_report(m, get_protocol("flair1"))
    building = rep["classes"][0]
    # TP 1, FN 1 (predicted other), FP 1 (other predicted building) -> 1/3
    assert building["iou"] == pytest.approx(1 / 3)
    assert [c["value"] for c in rep["classes"]] == list(range(1, 13))
    assert rep["confusion_labels"] == list(range(1, 14))
    assert rep["miou"] == pytest.approx(1 / 3)  # the 11 absent classes are skipped
    assert rep["oa"] == pytest.approx(2 / 4)


@pytest.mark.parametrize(("absent", "expected"), [("skip", None), ("one", 1.0), ("zero", 0.0)])
def test_absent_class_setting(absent, expected):
    ref = np.array([[0, 0, 1, 1]], np.uint8)
    pred = np.array([[0, 1, 1, 1]], np.uint8)
    m = ConfusionMatrix()
    m.update(ref, pred)
    rep = build_report(m, get_protocol("custom", classes=[0, 1, 2], absent=absent))
    row2 = rep["classes"][2]
    assert row2["iou"] == expected
    assert rep["absent_class_score"] == absent
    assert rep["absent_classes"] == [2]
    ious = [0.5, 2 / 3] + ([] if expected is None else [expected])
    assert rep["miou"] == pytest.approx(np.mean(ious))


def test_precision_recall_f1_support_against_sklearn():
    from sklearn.metrics import precision_recall_fscore_support

    mask = _masks(1)[0]
    pred = perturb(mask, 5, 0.3, [4, 6, 8])
    m = ConfusionMatrix()
    m.update(mask, pred)
    rep = build_report(m, get_protocol("custom"))
    labels = rep["confusion_labels"]
    p, r, f, s = precision_recall_fscore_support(mask.ravel(), pred.ravel(), labels=labels, zero_division=0)
    for i, row in enumerate(rep["classes"]):
        assert row["precision"] == pytest.approx(p[i])
        assert row["recall"] == pytest.approx(r[i])
        assert row["f1"] == pytest.approx(f[i])
        assert row["support"] == s[i]


def test_undeclared_values_are_reported_not_dropped():
    ref = np.array([[1, 2, 0, 0]], np.uint8)
    pred = np.array([[1, 2, 3, 40]], np.uint8)
    m = ConfusionMatrix()
    m.update(ref, pred)
    with pytest.raises(InputError, match=r"reference value\(s\) 0 \(2 px\).*prediction value\(s\) 40 \(1 px\)"):
        build_report(m, get_protocol("flair1"))
    ok = build_report(m, get_protocol("flair1", ignore=[0]))
    assert ok["pixels_evaluated"] == 2 and ok["pixels_ignored"] == 2
    loose = build_report(m, get_protocol("flair1"), strict=False)
    assert loose["undeclared_values"]["prediction"] == {"40": 1}


def test_custom_protocol_remap_and_evaluated():
    ref = np.array([[13, 14, 1, 2]], np.uint8)
    pred = np.array([[13, 13, 1, 1]], np.uint8)
    m = ConfusionMatrix()
    m.update(ref, pred)
    rep = build_report(m, get_protocol("custom", remap=parse_remap("13-19:13"), evaluated=[1, 2]))
    assert rep["confusion_labels"] == [1, 2]
    assert rep["pixels_excluded"] == 2
    assert rep["classes"][0]["iou"] == pytest.approx(0.5)
    assert rep["oa"] == pytest.approx(0.5)


def test_bad_protocol_inputs():
    with pytest.raises(InputError, match="Unknown protocol 'flair3'"):
        get_protocol("flair3")
    with pytest.raises(InputError, match="absent"):
        get_protocol("flair1", absent="maybe")
    with pytest.raises(InputError, match="not classes of protocol flair1"):
        get_protocol("flair1", evaluated=[40])
    with pytest.raises(InputError, match="integers or ranges"):
        parse_value_list("1,x")
    assert parse_value_list("0, 13-15") == (0, 13, 14, 15)
    assert set(PROTOCOLS) == {"flair1", "flairhub-landcover", "flairhub-croptype", "weedsense", "custom"}


def test_float_rasters_must_hold_whole_values():
    m = ConfusionMatrix()
    m.update(np.array([1.0, 2.0]), np.array([1.0, 2.0]))
    assert m.total == 2
    with pytest.raises(InputError, match="non-integer"):
        m.update(np.array([0.5]), np.array([1.0]))

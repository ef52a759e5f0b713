#!/usr/bin/env python3
"""Scores a prediction file on a `spatialqa` export the way SpatiaLQA's metric does,
and checks that the records are what its answering and judging scripts need, so
tests can check that Benchwright's export is read as intended.

Written for Benchwright's tests from reading (no code copied):
  xieyc99/SpatiaLQA @ 387a99f0094aa6198404a8c286850ea24dc54fc1
  - answer.py main: sample["image"] goes to api/api.py call_api as an image_url (a
    URL or a data: URI; a list for several images), sample["id"] keys the outputs;
    the prediction file is the ground truth list with each answer replaced.
  - gen_sim_matrix.py: per sample an m x n 0/1 matrix, ground-truth steps x predicted
    steps in answer-key order, judged by gpt-4o; None when the prediction is {} or
    None. Here an exact-text judge stands in: a cell is 1 when the two contents are
    equal after lower-casing and collapsing white space.
  - utils.py max_match_binary_matrix: scipy's linear_sum_assignment on 1 - M, keeping
    the pairs whose cell is 1 (a maximum matching of 1-cells). Without scipy a
    maximum bipartite matching (augmenting paths) gives as many pairs.
  - metric.py compute_precondition_and_content_scores (content TP = matches;
    preconditions compared as "stepA-stepB" edges, predicted names mapped to ground
    truth names through the matching, unmatched ones to "x"), compute_average_metrics
    and cal_metric: mode "split" averages per sample over the samples with a matrix;
    mode "total" (the default in __main__) sums TP/FP/FN over the samples whose
    matrix is not None and not all zero, with +1e-8 in every denominator.

usage: spatialqa_metric.py DATA PREDICTIONS
DATA is the export's spatialqa.json (images/ next to it); PREDICTIONS a JSON list of
{"id", "answer"} as answer.py writes it. Prints one JSON object: {"records",
"errors" (what the scripts would trip on), "matcher", "total": {...}, "split": {...}}.
"""
import base64
import json
import os
import re
import sys


def normalize(s):
    return " ".join(str(s).lower().split())


def judge_matrix(gt_answer, pred_answer):
    if not pred_answer:
        return None
    gt = [normalize(gt_answer[k]["content"]) for k in gt_answer]
    pred = [normalize(v.get("content", "")) if isinstance(v, dict) else "" for v in pred_answer.values()]
    return [[1 if g == p else 0 for p in pred] for g in gt]


def max_matching(matrix):
    """(gt index, pred index) pairs of a maximum matching of 1-cells."""
    try:
        import numpy as np
        from scipy.optimize import linear_sum_assignment
        m = np.array(matrix)
        rows, cols = linear_sum_assignment(1 - m)
        return [(int(i), int(j)) for i, j in zip(rows, cols) if m[i][j] == 1], "scipy"
    except ImportError:
        pass
    n_pred = len(matrix[0]) if matrix else 0
    owner = [-1] * n_pred

    def augment(i, seen):
        for j in range(n_pred):
            if matrix[i][j] == 1 and not seen[j]:
                seen[j] = True
                if owner[j] == -1 or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(matrix)):
        augment(i, [False] * n_pred)
    return sorted((i, j) for j, i in enumerate(owner) if i != -1), "augmenting paths"


def edges(steps, rename=None):
    out = set()
    for name, step in steps.items():
        pre = step.get("precondition", []) if isinstance(step, dict) else []
        for p in pre or []:
            if rename is None:
                out.add("%s-%s" % (name, p))
            else:
                out.add("%s-%s" % (rename.get(name, "x"), rename.get(p, "x")))
    return out


def counts(gt, pred, matches):
    """Content and precondition TP, FP, FN of one sample."""
    tp = len(matches)
    pred_to_gt = {"step%d" % (j + 1): "step%d" % (i + 1) for i, j in matches}
    gt_edges, pred_edges = edges(gt), edges(pred, pred_to_gt)
    ptp = len(gt_edges & pred_edges)
    return (tp, len(pred) - tp, len(gt) - tp), (ptp, len(pred_edges - gt_edges), len(gt_edges) - ptp)


def prf(tp, fp, fn):
    p = tp / (tp + fp) if tp + fp else 0
    r = tp / (tp + fn) if tp + fn else 0
    return p, r, (2 * p * r / (p + r) if p + r else 0)


def check_records(data, root):
    errors = []
    for i, s in enumerate(data):
        where = "record %d (%s)" % (i + 1, s.get("id"))
        if not isinstance(s.get("id"), str):
            errors.append("%s: id is not a string (gen_sim_matrix's JSON keys would not match it)" % where)
        img = s.get("image")
        m = re.match(r"^data:(image/[a-z0-9.+-]+);base64,(.*)$", img or "", re.S)
        if not m and not re.match(r"^https?://", img or ""):
            errors.append("%s: image is neither a data:image URI nor an http(s) URL" % where)
        elif m:
            try:
                raw = base64.b64decode(m.group(2), validate=True)
            except Exception as e:
                errors.append("%s: image base64: %s" % (where, e))
                raw = None
            path = os.path.join(root, "images", s.get("image_path", ""))
            if raw is not None and (not os.path.isfile(path) or open(path, "rb").read() != raw):
                errors.append("%s: image is not the bytes of images/%s" % (where, s.get("image_path")))
        answer = s.get("answer")
        if not isinstance(answer, dict):
            errors.append("%s: answer is not an object" % where)
            continue
        keys = list(answer)
        if keys != ["step%d" % (k + 1) for k in range(len(keys))]:
            errors.append("%s: step keys %s are not step1..stepN in order" % (where, keys))
        for k, step in answer.items():
            if not isinstance(step, dict) or not isinstance(step.get("content"), str) or not isinstance(step.get("precondition"), list):
                errors.append("%s: %s lacks content or a precondition list" % (where, k))
            elif any(p not in answer for p in step["precondition"]):
                errors.append("%s: %s names a missing precondition" % (where, k))
        if not isinstance(s.get("question"), str) or not s.get("question"):
            errors.append("%s: no question" % where)
    return errors


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        data = json.load(f)
    with open(argv[2], encoding="utf-8") as f:
        preds = json.load(f)
    errors = check_records(data, os.path.dirname(os.path.abspath(argv[1])))
    pred_by_id = {p.get("id", ""): p.get("answer") for p in preds}
    matcher = "none"
    per_sample = {}
    total = [0] * 6
    for s in data:
        gt = s.get("answer") or {}
        pred = pred_by_id.get(s.get("id", ""))
        mat = judge_matrix(gt, pred)
        if mat is None:
            continue
        matches, matcher = max_matching(mat)
        (c, p) = counts(gt, pred, matches)
        per_sample[s["id"]] = (prf(*c), prf(*p))
        if sum(map(sum, mat)) != 0:
            total = [a + b for a, b in zip(total, c + p)]
    ctp, cfp, cfn, ptp, pfp, pfn = total
    eps = 1e-8
    cr, cp = ctp / (ctp + cfn + eps), ctp / (ctp + cfp + eps)
    pr, pp = ptp / (ptp + pfn + eps), ptp / (ptp + pfp + eps)

    def avg(values):
        return sum(values) / len(values) * 100 if values else 0.0

    out = {
        "records": len(data),
        "errors": errors,
        "matcher": matcher,
        "total": {
            "content": {"recall": cr * 100, "precision": cp * 100, "f1": 2 * cr * cp / (cr + cp + eps) * 100},
            "precondition": {"recall": pr * 100, "precision": pp * 100, "f1": 2 * pr * pp / (pr + pp + eps) * 100},
        },
        "split": {
            "content_avg": {"precision": avg([v[0][0] for v in per_sample.values()]), "recall": avg([v[0][1] for v in per_sample.values()]),
                            "f1": avg([v[0][2] for v in per_sample.values()])},
            "precondition_avg": {"precision": avg([v[1][0] for v in per_sample.values()]), "recall": avg([v[1][1] for v in per_sample.values()]),
                                 "f1": avg([v[1][2] for v in per_sample.values()])},
        },
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

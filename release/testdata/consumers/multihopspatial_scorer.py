#!/usr/bin/env python3
"""Scores a prediction file on a `multihopspatial` export the way the two published
scorers do, so tests can check that Benchwright's export is read as intended.

Written for Benchwright's tests from reading (no code copied):
  - youngwanLEE/multihopspatial eval/benchmark_qwen_vllm.py @ 9d8bcfb1 (benchmark_qwen.py
    has the same parsing and IoU): parse_mcq_answer, extract_choice_letter,
    parse_response, calculate_iou(_xyxy), calculate_full_metrics; image size from
    PIL Image.open(path).size (the stored size, EXIF orientation not applied).
  - EvolvingLMMs-Lab/lmms-eval lmms_eval/tasks/multihopspatial/utils.py @ 75571cfe:
    _parse_bbox (bbox_2d first), _is_valid_norm_bbox, _image_dims (image_resolution
    "WxH"), process_results and the three aggregations over all documents.

usage: multihopspatial_scorer.py DATA.json IMAGE_ROOT PREDICTIONS.jsonl
PREDICTIONS holds {"id": ..., "response": "raw model text"} per line. Prints one JSON
object: {"official": {...}, "lmms": {...}}.
"""
import json
import os
import re
import sys

from PIL import Image

NUM_OFFICIAL = r"([\d.]+)"
NUM_LMMS = r"(\d*\.?\d+)"


def four(num):
    return r"\[\s*" + r"\s*,\s*".join([num] * 4) + r"\s*\]"


def mcq_answer(text):
    """The official answer parse: the first of four patterns, as "(x) ..." text."""
    if not text:
        return None
    m = re.search(r"Answer:\s*(\([a-d]\)\s*[^\n]*)", text, re.I)
    if m:
        return m.group(1).strip()
    m = re.search(r"Answer:\s*([a-d])\)\s*([^\n]*)", text, re.I)
    if m:
        return "(%s) %s" % (m.group(1).lower(), m.group(2).strip())
    m = re.search(r"Answer:\s*([a-d])\s*$", text, re.I | re.M)
    if m:
        return "(%s)" % m.group(1).lower()
    m = re.search(r"(\([a-d]\)\s*[^\n,\[\]]*)", text, re.I)
    return m.group(1).strip() if m else None


def letter(text):
    if text is None:
        return None
    m = re.search(r"\(([a-d])\)", text, re.I)
    return m.group(1).lower() if m else None


def scale(box):
    return [v / 1000.0 for v in box] if any(v > 1 for v in box) else box


def box_official(text):
    for pat, flags in ((r"Bounding Box:\s*" + four(NUM_OFFICIAL), re.I), (r'"bbox_2d"\s*:\s*' + four(NUM_OFFICIAL), 0)):
        m = re.search(pat, text, flags)
        if m:
            return scale([float(g) for g in m.groups()])
    found = re.findall(four(NUM_OFFICIAL), text)
    return scale([float(v) for v in found[0]]) if found else None


def box_lmms(text):
    m = re.search(r'"bbox_2d"\s*:\s*' + four(NUM_LMMS), text) or re.search(r"Bounding Box:\s*" + four(NUM_LMMS), text, re.I)
    groups = m.groups() if m else (re.findall(four(NUM_LMMS), text) or [None])[0]
    return scale([float(v) for v in groups]) if groups else None


def valid_unit_box(b):
    return b is not None and all(0 <= v <= 1 for v in b) and b[2] > b[0] and b[3] > b[1]


def iou(gt_xywh, pred_unit, w, h):
    if gt_xywh is None or pred_unit is None:
        return None
    g = [gt_xywh[0], gt_xywh[1], gt_xywh[0] + gt_xywh[2], gt_xywh[1] + gt_xywh[3]]
    p = [pred_unit[0] * w, pred_unit[1] * h, pred_unit[2] * w, pred_unit[3] * h]
    x1, y1, x2, y2 = max(g[0], p[0]), max(g[1], p[1]), min(g[2], p[2]), min(g[3], p[3])
    if x2 <= x1 or y2 <= y1:
        return 0.0
    inter = (x2 - x1) * (y2 - y1)
    union = (g[2] - g[0]) * (g[3] - g[1]) + (p[2] - p[0]) * (p[3] - p[1]) - inter
    return 0.0 if union <= 0 else round(inter / union, 4)


def official(records, root, preds):
    rows = []
    for r in records:
        path = os.path.join(root, r["image_path"].lstrip("/\\"))
        w, h = Image.open(path).size
        text = preds.get(str(r["id"]), "")
        pred = mcq_answer(text)
        correct = letter(pred) is not None and letter(pred) == letter(r["answer"])
        rows.append({"answer": r["answer"], "prediction": pred, "score": correct,
                     "iou": iou(r["bbox"], box_official(text), w, h)})
    total = [x for x in rows if letter(x["answer"]) and letter(x["prediction"])]
    correct = sum(1 for x in total if letter(x["answer"]) == letter(x["prediction"]))
    ious = [x["iou"] for x in rows if x["score"] and x["iou"] is not None]
    hit = sum(1 for x in rows if x["score"] and x["iou"] is not None and x["iou"] >= 0.5)
    n = len(total)
    return {"total_evaluated": n, "accuracy": round(correct / n * 100, 2) if n else 0.0,
            "acc_at_iou50": round(hit / n * 100, 2) if n else 0.0,
            "avg_iou": round(sum(ious) / len(ious), 4) if ious else 0.0}


def lmms(records, preds):
    rows = []
    for r in records:
        text = preds.get(str(r["id"]), "")
        pl, gl = letter(mcq_answer(text)), letter(r["answer"])
        b = box_lmms(text)
        v = None
        if valid_unit_box(b):
            w, h = (int(s) for s in r["image_resolution"].lower().split("x"))
            v = iou(r["bbox"], b, w, h)
        rows.append((pl is not None and pl == gl, v))
    n = len(rows)
    ious = [v for ok, v in rows if ok and v is not None]
    return {"n": n, "mcq_acc": round(sum(1 for ok, _ in rows if ok) / n * 100, 2),
            "acc50iou": round(sum(1 for ok, v in rows if ok and v is not None and v >= 0.5) / n * 100, 2),
            "avg_iou": round(sum(ious) / len(ious) * 100, 2) if ious else 0.0}


def main():
    data, root, pred_path = sys.argv[1:4]
    with open(data) as f:
        records = json.load(f)  # the official file is one JSON list (json.load)
    preds = {}
    with open(pred_path) as f:
        for line in f:
            if line.strip():
                p = json.loads(line)
                preds[str(p["id"])] = p["response"]
    print(json.dumps({"official": official(records, root, preds), "lmms": lmms(records, preds)}, sort_keys=True))


if __name__ == "__main__":
    main()

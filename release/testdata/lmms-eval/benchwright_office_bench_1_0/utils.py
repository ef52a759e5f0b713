"""Hooks of a lmms-eval task written by Benchwright for one frozen release.

The task scores hop questions as lmms-eval's own multihopspatial task does
(lmms_eval/tasks/multihopspatial/utils.py, EvolvingLMMs-Lab/lmms-eval @ 75571cfe):
the answer letter is read by the official MultihopSpatial patterns, the box from
"bbox_2d", "Bounding Box:" or a bare list (values over 1 are on the 0-1000 scale),
IoU only for a valid 0-1 box, against the gold pixel [x, y, w, h] on the
image_resolution "WxH" (the size of the image the box is on: images[box_image] for a
sample of several images); mcq_acc and acc50iou count every document, avg_iou is the
mean IoU of the correctly answered ones, all in percent. The images are read from
images/ beside this file (the json builder gives no image column).
"""
import os
import re

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
TAGS = re.compile(r"</?(?:ATT|POS|REL)>")
NUM = r"(\d*\.?\d+)"
FOUR = r"\[\s*" + r"\s*,\s*".join([NUM] * 4) + r"\s*\]"


def doc_to_visual(doc):
    """Every image of the document, in order: "images" for a sample of several
    (the box is on images[box_image]), else image_path."""
    paths = doc.get("images") or [doc["image_path"]]
    return [Image.open(os.path.join(HERE, "images", p.lstrip("/\\"))).convert("RGB") for p in paths]


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    question = re.sub(r"\s+", " ", TAGS.sub("", doc["question"])).strip()
    return (
        question + "\n\nPlease respond in the following format:\n"
        'Answer: (your choice, e.g., "(a) object name")\n'
        'Bounding Box: {"bbox_2d": [x1, y1, x2, y2]}\n\n'
        "Important: Use NORMALIZED coordinates (0.0 to 1.0).\n"
        'Example: {"bbox_2d": [0.25, 0.1, 0.75, 0.8]}'
    )


def answer_text(text):
    """The first of the official patterns, as "(x) ..." text, or None."""
    if not text:
        return None
    for pattern, flags in (
        (r"Answer:\s*(\([a-d]\)\s*[^\n]*)", re.I),
        (r"Answer:\s*([a-d])\)\s*([^\n]*)", re.I),
        (r"Answer:\s*([a-d])\s*$", re.I | re.M),
        (r"(\([a-d]\)\s*[^\n,\[\]]*)", re.I),
    ):
        m = re.search(pattern, text, flags)
        if m is None:
            continue
        if m.group(1).startswith("("):
            return m.group(1).strip()
        rest = m.group(2).strip() if m.lastindex and m.lastindex > 1 else ""
        return ("(%s) %s" % (m.group(1).lower(), rest)).strip()
    return None


def letter(text):
    m = re.search(r"\(([a-d])\)", text or "", re.I)
    return m.group(1).lower() if m else None


def unit_box(text):
    m = re.search(r'"bbox_2d"\s*:\s*' + FOUR, text) or re.search(r"Bounding Box:\s*" + FOUR, text, re.I)
    groups = m.groups() if m else next(iter(re.findall(FOUR, text)), None)
    if groups is None:
        return None
    box = [float(v) for v in groups]
    return [v / 1000.0 for v in box] if any(v > 1 for v in box) else box


def iou(gold_xywh, box, w, h):
    gx, gy, gw, gh = gold_xywh
    g = (gx, gy, gx + gw, gy + gh)
    p = (box[0] * w, box[1] * h, box[2] * w, box[3] * h)
    x1, y1, x2, y2 = max(g[0], p[0]), max(g[1], p[1]), min(g[2], p[2]), min(g[3], p[3])
    if x2 <= x1 or y2 <= y1:
        return 0.0
    inter = (x2 - x1) * (y2 - y1)
    union = gw * gh + (p[2] - p[0]) * (p[3] - p[1]) - inter
    return 0.0 if union <= 0 else round(inter / union, 4)


def process_results(doc, results):
    text = results[0] if results else ""
    got, gold = letter(answer_text(text)), letter(doc["answer"])
    correct = got is not None and got == gold
    box, score = unit_box(text), None
    if box is not None and all(0 <= v <= 1 for v in box) and box[2] > box[0] and box[3] > box[1]:
        w, h = (int(v) for v in doc["image_resolution"].lower().split("x"))
        score = iou(doc["bbox"], box, w, h)
    row = {"id": doc["id"], "correct": correct, "iou": score, "hop": doc["hop"], "view": doc["view"]}
    return {"mcq_acc": row, "acc50iou": row, "avg_iou": row}


def mcq_acc(rows):
    return round(100.0 * sum(r["correct"] for r in rows) / len(rows), 2) if rows else 0.0


def acc50iou(rows):
    hits = sum(1 for r in rows if r["correct"] and r["iou"] is not None and r["iou"] >= 0.5)
    return round(100.0 * hits / len(rows), 2) if rows else 0.0


def avg_iou(rows):
    ious = [r["iou"] for r in rows if r["correct"] and r["iou"] is not None]
    return round(100.0 * sum(ious) / len(ious), 2) if ious else 0.0

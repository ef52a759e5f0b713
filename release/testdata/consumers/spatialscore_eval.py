#!/usr/bin/env python3
"""Loads a `spatialscore` export the way SpatialScore's evaluation does and scores a
prediction file on it, so tests can check that every image is opened in order and a
perfect model scores 100 %.

Written for Benchwright's tests from reading haoningwu3639/SpatialScore @ 1995c4f5
(no code copied):
  - version_0/test_qwen.py main: json.load of --dataset_json_path (a list of items);
    process_model_input: the prompt is chosen by item['source'] (ValueError for a
    name it does not know: not modelled, an export's source is its release name) and
    every path of item['img_paths'] is opened, in order, with
    Image.open(img_path).convert('RGB') relative to the working folder;
    generate_response: the images are given before the question text.
  - scoring in main: multi-choice compares extract_option(reply).upper() with
    extract_option(answer).upper(); judgment extract_yes_no of both, lower-cased;
    open-ended: the unit path when the answer names a unit (not modelled: the export
    holds bare numbers, and the check is the same as upstream's: 'm' etc. in the
    answer), else float(extract_number(answer)) == float(extract_number(reply)).
  - utils/util.py extract_option, extract_yes_no, extract_number: the paths a plain
    letter, Yes/No or number take (a bare letter, a yes/no word, the first decimal).
  - accuracy = sum(score) / total * 100, also per source and per category.

usage: spatialscore_eval.py EXPORT_DIR DATASET_JSON PREDICTIONS.jsonl
PREDICTIONS holds {"id": item id, "prediction": text} per line. Prints one JSON
object: total, accuracy, by_category, by_modality, images (per id the size of each
image opened, in order), errors.
"""
import json
import os
import re
import sys

from PIL import Image


def extract_option(text):
    text = text.strip()
    if re.match(r"^[A-Fa-f]\.?$", text):
        return text[0].upper()
    for pattern in (r"(?i)(?:answer|option)[:\s]*\(?([A-Fa-f])\)?\.?", r"(?i)(?:^|\s)\(?([A-Fa-f])\)\.?(?:$|\s|\.)",
                    r"(?i)(?:^|\s)([A-Fa-f])\.?(?:$|\s|\.|,)"):
        m = re.search(pattern, text)
        if m:
            return m.group(1).upper()
    m = re.search(r"[A-Fa-f]", text)
    return m.group(0).upper() if m else text


def extract_yes_no(text):
    text = text.strip()
    if text.lower() in ["yes", "no"]:
        return text.capitalize()
    low = text.lower()
    if re.search(r"\byes\b", low):
        return "Yes"
    if re.search(r"\bno\b", low):
        return "No"
    return text


def extract_number(text):
    text = text.strip()
    if text.isdigit():
        return text
    m = re.search(r"\d+(?:\.\d+)?", text.lower())
    return m.group(0) if m else text


UNITS = ['meter', 'meters', 'm', 'cm', 'centimeter', 'centimeters', 'km', 'kilometer', 'kilometers', 'inch', 'inches', 'ft', 'foot', 'feet']


def main():
    root, dataset, pred_path = sys.argv[1:4]
    os.chdir(root)  # the script runs from the folder the paths are relative to
    with open(dataset) as f:
        data = json.load(f)
    preds = {}
    with open(pred_path) as f:
        for line in f:
            if line.strip():
                p = json.loads(line)
                preds[p["id"]] = p["prediction"]
    out = {"total": 0, "images": {}, "by_category": {}, "by_modality": {}, "errors": []}
    score_sum = 0.0
    for item in data:
        key = item.get("id", item["index"])
        try:
            images = [Image.open(p).convert("RGB") for p in item["img_paths"]]
        except Exception as e:  # upstream would stop here
            out["errors"].append("%s: %s" % (key, e))
            continue
        out["images"][key] = [list(im.size) for im in images]
        reply, gt = str(preds.get(key, "")), item.get("answer", "")
        qt = item.get("question_type", "").lower()
        if qt == "multi-choice":
            ok = extract_option(reply).upper() == extract_option(gt).upper()
        elif qt == "judgment":
            ok = extract_yes_no(reply).lower() == extract_yes_no(gt).lower()
        else:
            if any(u in gt.lower() for u in UNITS):
                out["errors"].append("%s: answer %r takes the unit path" % (key, gt))
                ok = False
            else:
                try:
                    pv = float(extract_number(reply))
                except ValueError:
                    pv = 0.0
                ok = pv == float(extract_number(gt))  # upstream: a text answer raises here
        score = 1.0 if ok else 0.0
        score_sum += score
        out["total"] += 1
        for group, name in (("by_category", item.get("category", "unknown")), ("by_modality", item.get("input_modality", "image"))):
            g = out[group].setdefault(name, [0.0, 0])
            g[0] += score
            g[1] += 1
    out["accuracy"] = score_sum / out["total"] * 100 if out["total"] else 0
    for group in ("by_category", "by_modality"):
        out[group] = {k: v[0] / v[1] * 100 for k, v in out[group].items()}
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()

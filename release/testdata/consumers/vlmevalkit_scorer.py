#!/usr/bin/env python3
"""Loads a VLMEvalKit TSV written by Benchwright and scores a prediction file on it
the way VLMEvalKit does with exact matching (no judge model), so tests can check
that the export arrives as written and a perfect model scores 100 %.

Written for Benchwright's tests from reading open-compass/VLMEvalKit @ e8e78f05
(no code copied):
  - vlmeval/smp/file.py load(): a .tsv is pd.read_csv(path, sep='\\t') with pandas'
    defaults, so NA tokens become NaN and all-numeric columns become numbers.
  - vlmeval/dataset/image_base.py ImageBaseDataset.__init__: rows whose image is NaN
    are dropped (skip_noimg); index becomes str; an image cell of at most 64
    characters is the index of the row holding the base64 (no chains).
  - vlmeval/dataset/image_mcq.py build_prompt / evaluate: the options are the
    columns A..Z that are not NaN; utils/multiple_choice.py mcq_vanilla_eval +
    extract_answer_from_item: vlmeval/utils/matching_util.py can_infer_option then
    can_infer_text, else 'Z' (a miss); report_acc: per split, Overall = mean(hit)
    over rows with that split (a NaN split gives NaN), then per category.
  - vlmeval/dataset/image_yorn.py + utils/yorn.py: YOrN_Extraction (lower-case,
    punctuation to spaces, yes without no -> 'Yes', no without yes -> 'No');
    score = answer == extracted (case-sensitive); default_rating: Overall = mean*100.

usage: vlmevalkit_scorer.py mcq|yorn DATA.tsv PREDICTIONS.jsonl
PREDICTIONS holds {"id": sample id, "prediction": text} per line, joined on the
TSV's `id` column. Prints one JSON object.
"""
import json
import math
import string
import sys

import pandas as pd


def load(path):
    return pd.read_csv(path, sep="\t")  # vlmeval.smp.load for .tsv


def prepare(data):
    """ImageBaseDataset.__init__: drop rows without an image, resolve references."""
    data = data[~pd.isna(data["image"])].copy()
    data["index"] = [str(x) for x in data["index"]]
    images = [str(x) for x in data["image"]]
    by_index = dict(zip(data["index"], images))
    resolved = []
    for im in images:
        if len(im) <= 64:
            target = by_index[im]
            assert len(target) > 64, "an image reference points at another reference"
            im = target
        resolved.append(im)
    data["image"] = resolved
    return data


def choices(row):
    out = {}
    for c in string.ascii_uppercase:
        if c in row and not pd.isna(row[c]):
            out[c] = row[c]
    return out


def can_infer_option(answer, opts):
    if "Failed to obtain answer via API" in answer:
        return False
    answer_mod = answer
    for c in ".()[],:;!*#{}":
        answer_mod = answer_mod.replace(c, " ")
    splits = [x.strip() for x in answer_mod.split()]
    count = sum(1 for ch in opts if ch in splits)
    if count == 1:
        for ch in opts:
            if ch in splits and splits.index(ch) > len(splits) - 5:
                return ch
    elif count == 0 and ("Z" in splits or "" in splits):
        return "Z"
    return False


def can_infer_text(answer, opts):
    answer = answer.lower()
    if len(answer) > 2 * sum(len(str(v)) for v in opts.values()):
        return False
    cands = [k for k, v in opts.items() if str(v).lower() in answer]
    return cands[0] if len(cands) == 1 else False


def can_infer(answer, opts):
    answer = str(answer)
    return can_infer_option(answer, opts) or can_infer_text(answer, opts)


def mcq(data, preds):
    hits, splits, cats = [], [], []
    for _, row in data.iterrows():
        pred = preds.get(str(row["id"]), "")
        got = can_infer(pred, choices(row)) or "Z"
        hits.append(1 if got == row["answer"] else 0)
        splits.append(row["split"] if "split" in data.columns else "none")
        cats.append(row["category"] if "category" in data.columns else None)
    res = {"rows": len(hits), "Overall": {}}
    for sp in set(splits):
        sel = [h for h, s in zip(hits, splits) if s == sp]  # NaN == NaN is False, as upstream
        key = "NaN" if isinstance(sp, float) and math.isnan(sp) else str(sp)
        res["Overall"][key] = (sum(sel) / len(sel)) if sel else None
    res["categories"] = sorted(set(cats))  # upstream sorts; NaN mixed with str raises TypeError
    return res


def yorn_extract(text):
    s = str(text).lower()
    for c in string.punctuation:
        s = s.replace(c, " ")
    words = s.split()
    if "yes" in words and "no" not in words:
        return "Yes"
    if "no" in words and "yes" not in words:
        return "No"
    return "Unknown"


def yorn(data, preds):
    scores = [1 if yorn_extract(preds.get(str(r["id"]), "")) == r["answer"] else 0 for _, r in data.iterrows()]
    return {"rows": len(scores), "Overall": 100.0 * sum(scores) / len(scores) if scores else None}


def main():
    kind, tsv, pred_path = sys.argv[1:4]
    data = prepare(load(tsv))
    preds = {}
    with open(pred_path) as f:
        for line in f:
            if line.strip():
                p = json.loads(line)
                preds[str(p["id"])] = p["prediction"]
    out = mcq(data, preds) if kind == "mcq" else yorn(data, preds)
    out["dtypes"] = {c: str(t) for c, t in data.dtypes.items() if c != "image"}
    print(json.dumps(out, sort_keys=True, default=str))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Loads a VLMEvalKit TSV written by Benchwright and scores a prediction file on it
the way VLMEvalKit does with exact matching (no judge model), so tests can check
that the export arrives as written and a perfect model scores 100 %.

Written for Benchwright's tests from reading open-compass/VLMEvalKit @ e8e78f05
(no code copied):
  - vlmeval/smp/file.py load(): a .tsv is pd.read_csv(path, sep='\\t') with pandas'
    defaults, so NA tokens become NaN and all-numeric columns become numbers.
  - vlmeval/dataset/image_base.py ImageBaseDataset.__init__: rows whose image is NaN
    are dropped (skip_noimg); index becomes str; an image cell of 1 to 64
    characters is the index of the row holding the base64 (no chains).
  - vlmeval/smp/vlm.py decode_base64_to_image: the base64 is opened with PIL as is
    (no EXIF transpose); RGBA/P/LA become RGB. `sizes` reports PIL's size.
  - image_base.py ImageBaseDataset.__init__ again: after references are resolved
    each image cell and each image_path goes through vlmeval/smp/misc.py toliststr
    (a str in brackets is eval()ed into a list of str; a one-item list becomes its
    item); dump_image then writes a list of images each under the image_path name at
    its position (zip(line['image'], line['image_path']), or {index}_{i}.png without
    image_path), a single image under image_path when the row has that column (which
    must then be a str), else {index}.png, with decode_base64_to_image_file (PIL
    save, the format from the extension). build_prompt (image_mcq.py and
    image_base.py) gives the model the written paths in that order. `sequences`
    reports, for each row of several images, the names and the size of each image
    as written, re-opened from the files.
  - vlmeval/dataset/image_mcq.py build_prompt / evaluate_heuristic: the options are
    the columns A..Z that are not NaN; utils/multiple_choice.py mcq_vanilla_eval +
    extract_answer_from_item: vlmeval/utils/matching_util.py can_infer_option then
    can_infer_text, else 'Z' (a miss); report_acc: per split, Overall = mean(hit)
    over rows with that split (a NaN split gives NaN), then the same per
    l2-category and per category, each sorted (NaN among strings raises
    TypeError, as upstream).
  - vlmeval/dataset/image_yorn.py evaluate + utils/yorn.py: YOrN_Extraction
    (lower-case, smp/misc.py process_punctuation, yes without no -> 'Yes', no
    without yes -> 'No'); score = answer == extracted (case-sensitive);
    default_rating: Overall = mean*100, then per category and l2-category.
Not modelled: the prediction file VLMEvalKit writes and re-reads as xlsx between
inference and evaluation (inference.py, evaluate_heuristic).

usage: vlmevalkit_scorer.py mcq|mcq_circular|yorn DATA.tsv PREDICTIONS.jsonl
PREDICTIONS holds {"id": sample id, "prediction": text} per line, joined on the
TSV's `id` column; for mcq_circular {"index": row index, "prediction": text}, one
per row (a question's rotated copies share its id). Prints one JSON object: rows, Overall, groups, dtypes, sizes
(and categories for mcq).
"""
import base64
import io
import json
import math
import os
import re
import string
import sys

import pandas as pd
from PIL import Image


def load(path):
    return pd.read_csv(path, sep="\t")  # vlmeval.smp.load for .tsv


def prepare(data):
    """ImageBaseDataset.__init__: drop rows without an image, resolve references."""
    data = data[~pd.isna(data["image"])].copy()
    data["index"] = [str(x) for x in data["index"]]
    images = [str(x) if not pd.isna(x) else "" for x in data["image"]]
    by_index = dict(zip(data["index"], images))
    resolved = []
    for im in images:
        if 0 < len(im) <= 64:
            assert im in by_index and len(by_index[im]) > 64, "an image reference does not name a row holding an image"
            im = by_index[im]
        resolved.append(im)
    data["image"] = resolved
    return data


def toliststr(s):
    """vlmeval/smp/misc.py toliststr."""
    if isinstance(s, str) and len(s) > 1 and s[0] == "[" and s[-1] == "]":
        return [str(x) for x in eval(s)]
    elif isinstance(s, str):
        return [s]
    elif isinstance(s, list):
        return [str(x) for x in s]
    raise NotImplementedError


def decode(b64):
    image = Image.open(io.BytesIO(base64.b64decode(b64)))
    if image.mode in ("RGBA", "P", "LA"):
        image = image.convert("RGB")
    return image


def dump_image(line, img_root):
    """ImageBaseDataset.dump_image @ e8e78f05: the paths the model is shown, in order."""
    os.makedirs(img_root, exist_ok=True)
    if isinstance(line["image"], list):
        if "image_path" in line:
            names = line["image_path"]
        else:
            names = ["%s_%d.png" % (line["index"], i) for i in range(len(line["image"]))]
        out = []
        for img, name in zip(line["image"], names):
            path = os.path.join(img_root, name)
            if not os.path.exists(path):
                decode(img).save(path)
            out.append(path)
        return out
    if isinstance(line["image"], str) and "image_path" in line:
        assert isinstance(line["image_path"], str), "a single image's image_path must be a str"
        path = os.path.join(img_root, line["image_path"])
    else:
        path = os.path.join(img_root, "%s.png" % line["index"])
    if not os.path.exists(path):
        decode(line["image"]).save(path)
    return [path]


def sequences(data):
    """Rows of several images: the images as dump_image writes them, in order."""
    import tempfile
    root = tempfile.mkdtemp()
    rows = data.copy()
    rows["image"] = [x[0] if len(x) == 1 else x for x in (toliststr(v) for v in rows["image"])]
    if "image_path" in rows:
        rows["image_path"] = [x[0] if len(x) == 1 else x for x in (toliststr(v) for v in rows["image_path"])]
    out = {}
    for _, line in rows.iterrows():
        line = dict(line)
        paths = dump_image(line, root)
        if isinstance(line["image"], list):
            out[str(line["id"])] = {
                "names": [os.path.relpath(p, root) for p in paths],
                "sizes": [list(Image.open(p).size) for p in paths],
            }
    return out


def image_size(b64):
    """decode_base64_to_image: PIL opens the bytes as stored."""
    try:
        image = Image.open(io.BytesIO(base64.b64decode(b64)))
        if image.mode in ("RGBA", "P", "LA"):
            image = image.convert("RGB")
        return list(image.size)
    except Exception:
        return None


def choices(row):
    """multiple_choice.py build_choices."""
    out = {}
    for c in string.ascii_uppercase:
        if c in row and not pd.isna(row[c]):
            out[c] = row[c]
    return out


VERBOSE_ANSWER = re.compile(r"(?i)(?:correct\s+)?answer\s+is\s+\**([ABCD])\**")
REJECTIONS = [
    "Sorry, I can't help with images of people yet.", "I can't process this file.",
    "I'm sorry, but without the image provided", "Cannot determine the answer",
]


def can_infer_option(answer, opts):
    if "Failed to obtain answer via API" in answer:
        return False
    for err in REJECTIONS:
        if err in answer:
            return "Z"
    answer_mod = answer
    for c in ".()[],:;!*#{}":
        answer_mod = answer_mod.replace(c, " ")
    splits = [x.strip() for x in answer_mod.split()]
    count = sum(1 for ch in opts if ch in splits)
    if count == 1:
        for ch in opts:
            if "A" in splits and len(splits) > 3 and os.environ.get("VERBOSE", 0):
                return False
            if ch in splits and splits.index(ch) > len(splits) - 5:
                return ch
    elif count == 0 and sum(1 for ch in ("Z", "") if ch in splits) == 1:
        return "Z"
    m = VERBOSE_ANSWER.search(answer or "")
    if m and m.group(1).upper() in opts:
        return m.group(1).upper()
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


def key(v):
    return "NaN" if isinstance(v, float) and math.isnan(v) else str(v)


def mcq(data, preds):
    hits = []
    for _, row in data.iterrows():
        pred = str(preds.get(str(row["id"]), ""))  # evaluate_heuristic: prediction as str
        got = can_infer(pred, choices(row)) or "Z"
        hits.append(1 if got == row["answer"] else 0)
    df = data.copy()
    df["hit"] = hits
    if "split" not in df:
        df["split"] = ["none"] * len(df)
    splits = list(set(df["split"]))

    def per_split(sub):
        # np.mean of an empty selection is NaN: printed as null. NaN == NaN is False.
        out = {}
        for sp in splits:
            sel = list(sub[sub["split"] == sp]["hit"])
            out[key(sp)] = (sum(sel) / len(sel)) if sel else None
        return out

    res = {"rows": len(hits), "Overall": per_split(df), "groups": {}}
    for group in ["l2-category", "category"]:
        if group not in df:
            continue
        abilities = list(set(df[group]))
        abilities.sort()  # upstream: TypeError when NaN is mixed with strings
        for ab in abilities:
            res["groups"][key(ab)] = per_split(df[df[group] == ab])
    res["categories"] = sorted(set(df["category"])) if "category" in df else []
    return res


def process_punctuation(in_text):
    """vlmeval/smp/misc.py process_punctuation."""
    out_text = in_text
    punct = [";", r"/", "[", "]", '"', "{", "}", "(", ")", "=", "+", "\\", "_", "-", ">", "<", "@", "`", ",", "?", "!"]
    comma_strip = re.compile(r"(\d)(,)(\d)")
    period_strip = re.compile(r"(?<!\d)\.(?!\d)")
    for p in punct:
        if (p + " " in in_text or " " + p in in_text) or (re.search(comma_strip, in_text) is not None):
            out_text = out_text.replace(p, "")
        else:
            out_text = out_text.replace(p, " ")
    out_text = period_strip.sub("", out_text, re.UNICODE)  # sic: re.UNICODE lands in count
    return out_text


def yorn_extract(text):
    s = str(text).lower()
    words = process_punctuation(s).split()
    if "yes" in words and "no" not in words:
        return "Yes"
    if "no" in words and "yes" not in words:
        return "No"
    return "Unknown"


def yorn(data, preds):
    scores = [1 if yorn_extract(preds.get(str(r["id"]), "")) == r["answer"] else 0 for _, r in data.iterrows()]
    df = data.copy()
    df["score"] = scores
    res = {"rows": len(scores), "Overall": 100.0 * sum(scores) / len(scores) if scores else None, "groups": {}}
    for group in ["category", "l2-category"]:
        if group in df:
            cates = sorted(c for c in set(df[group]) if not pd.isna(c))
            for c in cates:
                sub = list(df[df[group] == c]["score"])
                res["groups"][key(c)] = 100.0 * sum(sub) / len(sub)
    return res


def mcq_circular(data, preds):
    """image_mcq.py evaluate_heuristic with a dataset name holding 'circular':
    multiple_choice.py mcq_circular_eval under exact matching (model None). The
    indexes become int; a row's group is g_index = int(index % 1e6); the rows whose
    index is their g_index are the questions (data_main). prefetch_circular_group:
    each row of the group in turn, prefetch_answer = can_infer(prediction,
    build_choices(row)); a prefetched letter other than the answer gives hit 0 at
    once; every row prefetched and right gives hit 1; otherwise the group goes to
    the judge, and without one (exact matching) its hit is 0. report_acc over
    data_main as in mcq."""
    data = data.copy()
    data["index"] = [int(x) for x in data["index"]]
    data = data.sort_values(by="index")
    data["prediction"] = [str(preds.get(int(i), "")) for i in data["index"]]
    data["g_index"] = [int(x % 1e6) for x in data["index"]]
    main = data[data["index"] == data["g_index"]].copy()
    hits = []
    for _, row in main.iterrows():
        group = data[data["g_index"] == row["index"]]
        hit, complete = None, True
        for _, item in group.iterrows():
            got = can_infer(item["prediction"], choices(item))
            if got and got != item["answer"]:
                hit = 0
                break
            if not got:
                complete = False
        if hit is None:
            hit = 1 if complete else 0
        hits.append(hit)
    by_id = dict(zip(main["id"], hits))
    # Score data_main through mcq's report with each question's group hit.
    res = mcq(main, {str(i): main.loc[main["id"] == i, "answer"].iloc[0] if by_id[i] else "Z" for i in main["id"]})
    res["copies"] = len(data) - len(main)
    res["hits"] = {str(i): h for i, h in by_id.items()}  # per question (sample id), for score/circular.go's test
    return res


def main():
    kind, tsv, pred_path = sys.argv[1:4]
    raw = load(tsv)
    data = prepare(raw)
    preds = {}
    with open(pred_path) as f:
        for line in f:
            if line.strip():
                p = json.loads(line)
                if kind == "mcq_circular":
                    preds[int(p["index"])] = p["prediction"]
                else:
                    preds[str(p["id"])] = p["prediction"]
    if kind == "mcq_circular":
        out = mcq_circular(data, preds)
    else:
        out = mcq(data, preds) if kind == "mcq" else yorn(data, preds)
    out["dtypes"] = {c: str(t) for c, t in raw.dtypes.items() if c != "image"}
    out["sizes"] = {str(i): image_size(im) for i, im in zip(data["id"], data["image"]) if not im.startswith("[")}
    out["sequences"] = sequences(data)
    print(json.dumps(out, sort_keys=True, default=str))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Loads a `coco` export the way pycocotools does and scores a detection file on it,
so tests can check that Benchwright's instances JSON is read as intended.

Written for Benchwright's tests from reading (no code copied; pycocotools is not
installed on Debian and has no wheel here):
  - cocodataset/cocoapi @ 8c9bcc3cf640524c4c20a9c40e89cb6a2f2fa0e9
    PythonAPI/pycocotools/coco.py: COCO.__init__ (json.load, the top level must be a
    dict), createIndex (anns, imgs, cats by id; imgToAnns, catToImgs), getAnnIds
    (area range reads ann['area'], the iscrowd filter ann['iscrowd']), getCatIds,
    getImgIds, loadAnns, loadImgs, loadRes (bbox results: area = w*h, ids 1..N,
    iscrowd 0, a rectangle segmentation when missing), annToRLE / annToMask (a list
    segmentation is polygons, merged into one mask; needs the image's height and
    width).
  - PythonAPI/pycocotools/_mask.pyx frPyObjects: a list whose first element has 4
    numbers is read as boxes, more than 4 as polygons; anything else is refused.
  - common/maskApi.c rleFrPoly (polygon to run-length mask: upsampled by 5, boundary
    points along x, downsampled, runs from the sorted boundary indices), rleArea,
    bbIou (box IoU; a crowd ground truth divides by the detection's area).
  - PythonAPI/pycocotools/cocoeval.py: Params (iouThrs .50:.05:.95, 101 recall
    thresholds, maxDets 1/10/100, area ranges all/small/medium/large), _prepare
    (ignore = iscrowd), computeIoU, evaluateImg (greedy matching by score, a match
    stored as the ground truth's annotation id), accumulate (tps =
    logical_and(dtm, not dtIg), so a ground truth with id 0 never counts; the
    precision envelope; searchsorted on the recall thresholds) and summarize
    (stats[0] AP, [1] AP50, [2] AP75, [8] AR@100).

usage: coco_loader.py EXPORT_DIR
Prints one JSON object: {"splits": {split: {...}}}. For each
annotations/instances_<split>.json it reports what loading found ("errors" lists
what pycocotools would trip on), the mask area of every annotation next to its
area, the stored and EXIF-transposed size of every image, and the bbox AP of a
perfect detection file (the ground truth boxes, score 1.0) and of one whose boxes
are shifted by their width (AP 0).
"""
import copy
import glob
import json
import math
import os
import sys
from collections import defaultdict

import numpy as np
from PIL import Image, ImageOps


class COCO:
    """The loading path of pycocotools.coco.COCO."""

    def __init__(self, dataset=None):
        self.dataset = {}
        self.anns, self.imgs, self.cats = {}, {}, {}
        self.imgToAnns, self.catToImgs = defaultdict(list), defaultdict(list)
        if dataset is not None:
            if not isinstance(dataset, dict):
                raise TypeError("annotation file format %s not supported" % type(dataset))
            self.dataset = dataset
            self.create_index()

    def create_index(self):
        anns, imgs, cats = {}, {}, {}
        img_to_anns, cat_to_imgs = defaultdict(list), defaultdict(list)
        for ann in self.dataset.get("annotations", []):
            img_to_anns[ann["image_id"]].append(ann)
            anns[ann["id"]] = ann
        for img in self.dataset.get("images", []):
            imgs[img["id"]] = img
        for cat in self.dataset.get("categories", []):
            cats[cat["id"]] = cat
        if "annotations" in self.dataset and "categories" in self.dataset:
            for ann in self.dataset["annotations"]:
                cat_to_imgs[ann["category_id"]].append(ann["image_id"])
        self.anns, self.imgs, self.cats = anns, imgs, cats
        self.imgToAnns, self.catToImgs = img_to_anns, cat_to_imgs

    def get_ann_ids(self, img_ids=(), cat_ids=(), area_rng=(), iscrowd=None):
        if not img_ids and not cat_ids and not area_rng:
            anns = self.dataset["annotations"]
        else:
            if img_ids:
                anns = [a for i in img_ids if i in self.imgToAnns for a in self.imgToAnns[i]]
            else:
                anns = self.dataset["annotations"]
            if cat_ids:
                anns = [a for a in anns if a["category_id"] in cat_ids]
            if area_rng:
                anns = [a for a in anns if area_rng[0] < a["area"] < area_rng[1]]
        if iscrowd is not None:
            return [a["id"] for a in anns if a["iscrowd"] == iscrowd]
        return [a["id"] for a in anns]

    def get_cat_ids(self):
        return [c["id"] for c in self.dataset["categories"]]

    def get_img_ids(self, img_ids=(), cat_ids=()):
        if not img_ids and not cat_ids:
            return list(self.imgs.keys())
        ids = set(img_ids)
        for i, c in enumerate(cat_ids):
            if i == 0 and not ids:
                ids = set(self.catToImgs[c])
            else:
                ids &= set(self.catToImgs[c])
        return list(ids)

    def load_anns(self, ids):
        return [self.anns[i] for i in ids]

    def load_res(self, results):
        """loadRes for bbox results."""
        res = COCO()
        res.dataset["images"] = list(self.dataset["images"])
        anns = copy.deepcopy(results)
        if not isinstance(anns, list):
            raise TypeError("results in not an array of objects")
        ids = {a["image_id"] for a in anns}
        if not ids <= set(self.get_img_ids()):
            raise ValueError("Results do not correspond to current coco set")
        res.dataset["categories"] = copy.deepcopy(self.dataset["categories"])
        for n, ann in enumerate(anns):
            x, y, w, h = ann["bbox"]
            if "segmentation" not in ann:
                ann["segmentation"] = [[x, y, x, y + h, x + w, y + h, x + w, y]]
            ann["area"] = w * h
            ann["id"] = n + 1
            ann["iscrowd"] = 0
        res.dataset["annotations"] = anns
        res.create_index()
        return res

    def ann_to_rle(self, ann):
        """annToRLE: polygons through frPyObjects, then merged (union)."""
        img = self.imgs[ann["image_id"]]
        h, w = img["height"], img["width"]
        segm = ann["segmentation"]
        if not isinstance(segm, list):
            raise TypeError("not a polygon list: %r" % (segm,))
        return merge([counts for counts in fr_py_objects(segm, h, w)], h, w)


def fr_py_objects(segm, h, w):
    """_mask.pyx frPyObjects for a list: boxes when the first has 4 numbers,
    polygons when it has more; anything else is refused."""
    if not segm or not isinstance(segm[0], list):
        raise TypeError("input type is not supported.")
    if len(segm[0]) == 4:
        raise ValueError("the first polygon has 4 numbers: frPyObjects reads the list as boxes")
    if len(segm[0]) < 4:
        raise TypeError("input type is not supported.")
    out = []
    for poly in segm:
        if len(poly) % 2 or len(poly) < 6:
            raise ValueError("a polygon of %d numbers" % len(poly))
        out.append(rle_from_poly([float(v) for v in poly], h, w))
    return out


def rle_from_poly(xy, h, w):
    """maskApi.c rleFrPoly: the column-major run lengths of a polygon's mask."""
    scale = 5.0
    k = len(xy) // 2
    xs = [int(scale * xy[2 * j] + .5) for j in range(k)]
    ys = [int(scale * xy[2 * j + 1] + .5) for j in range(k)]
    xs.append(xs[0])
    ys.append(ys[0])
    # Dense boundary points, edge by edge.
    u, v = [], []
    for j in range(k):
        x0, x1, y0, y1 = xs[j], xs[j + 1], ys[j], ys[j + 1]
        dx, dy = abs(x1 - x0), abs(y1 - y0)
        flip = (dx >= dy and x0 > x1) or (dx < dy and y0 > y1)
        if flip:
            x0, x1, y0, y1 = x1, x0, y1, y0
        if dx >= dy:
            s = (y1 - y0) / dx if dx else 0.0
            for d in range(dx + 1):
                t = dx - d if flip else d
                u.append(t + x0)
                v.append(int(y0 + s * t + .5))
        else:
            s = (x1 - x0) / dy
            for d in range(dy + 1):
                t = dy - d if flip else d
                v.append(t + y0)
                u.append(int(x0 + s * t + .5))
    # Where the boundary crosses a pixel column, downsampled.
    bx, by = [], []
    for j in range(1, len(u)):
        if u[j] == u[j - 1]:
            continue
        xd = float(u[j] if u[j] < u[j - 1] else u[j] - 1)
        xd = (xd + .5) / scale - .5
        if math.floor(xd) != xd or xd < 0 or xd > w - 1:
            continue
        yd = float(v[j] if v[j] < v[j - 1] else v[j - 1])
        yd = (yd + .5) / scale - .5
        yd = math.ceil(min(max(yd, 0), h))
        bx.append(int(xd))
        by.append(int(yd))
    # Run lengths from the sorted boundary indices (column-major).
    a = sorted([x * h + y for x, y in zip(bx, by)] + [h * w])
    prev, diffs = 0, []
    for t in a:
        diffs.append(t - prev)
        prev = t
    counts, j = [diffs[0]], 1
    while j < len(diffs):
        if diffs[j] > 0:
            counts.append(diffs[j])
            j += 1
        else:
            j += 1
            if j < len(diffs):
                counts[-1] += diffs[j]
                j += 1
    return counts


def decode(counts, h, w):
    flat = np.zeros(h * w, dtype=np.uint8)
    pos, val = 0, 0
    for c in counts:
        flat[pos:pos + c] = val
        pos += c
        val ^= 1
    return flat.reshape((w, h)).T


def merge(rles, h, w):
    m = np.zeros((h, w), dtype=np.uint8)
    for counts in rles:
        m |= decode(counts, h, w)
    return m


def box_iou(dts, gts, iscrowd):
    """maskApi.c bbIou."""
    out = np.zeros((len(dts), len(gts)))
    for j, g in enumerate(gts):
        ga = g[2] * g[3]
        for i, d in enumerate(dts):
            da = d[2] * d[3]
            iw = min(d[0] + d[2], g[0] + g[2]) - max(d[0], g[0])
            ih = min(d[1] + d[3], g[1] + g[3]) - max(d[1], g[1])
            if iw <= 0 or ih <= 0:
                continue
            inter = iw * ih
            union = da if iscrowd[j] else da + ga - inter
            out[i, j] = inter / union
    return out


class BoxEval:
    """COCOeval with iouType 'bbox' and the default Params."""

    def __init__(self, gt, dt):
        self.gt, self.dt = gt, dt
        self.img_ids = sorted(gt.get_img_ids())
        self.cat_ids = sorted(gt.get_cat_ids())
        self.iou_thrs = np.linspace(.5, 0.95, int(np.round((0.95 - .5) / .05)) + 1, endpoint=True)
        self.rec_thrs = np.linspace(.0, 1.00, int(np.round((1.00 - .0) / .01)) + 1, endpoint=True)
        self.max_dets = [1, 10, 100]
        self.area_rng = [[0, 1e5 ** 2], [0, 32 ** 2], [32 ** 2, 96 ** 2], [96 ** 2, 1e5 ** 2]]

    def prepare(self):
        gts = self.gt.load_anns(self.gt.get_ann_ids(img_ids=self.img_ids, cat_ids=self.cat_ids))
        dts = self.dt.load_anns(self.dt.get_ann_ids(img_ids=self.img_ids, cat_ids=self.cat_ids))
        for g in gts:
            g["ignore"] = "iscrowd" in g and g["iscrowd"]
        self.gts, self.dts = defaultdict(list), defaultdict(list)
        for g in gts:
            self.gts[g["image_id"], g["category_id"]].append(g)
        for d in dts:
            self.dts[d["image_id"], d["category_id"]].append(d)

    def compute_iou(self, img, cat):
        gt, dt = self.gts[img, cat], self.dts[img, cat]
        if not gt and not dt:
            return []
        order = np.argsort([-d["score"] for d in dt], kind="mergesort")
        dt = [dt[i] for i in order][:self.max_dets[-1]]
        return box_iou([d["bbox"] for d in dt], [g["bbox"] for g in gt], [int(g["iscrowd"]) for g in gt])

    def evaluate_img(self, img, cat, rng, max_det):
        gt, dt = self.gts[img, cat], self.dts[img, cat]
        if not gt and not dt:
            return None
        for g in gt:
            g["_ignore"] = 1 if g["ignore"] or g["area"] < rng[0] or g["area"] > rng[1] else 0
        gorder = np.argsort([g["_ignore"] for g in gt], kind="mergesort")
        gt = [gt[i] for i in gorder]
        dorder = np.argsort([-d["score"] for d in dt], kind="mergesort")
        dt = [dt[i] for i in dorder[:max_det]]
        crowd = [int(g["iscrowd"]) for g in gt]
        ious = self.ious[img, cat]
        ious = ious[:, gorder] if len(ious) > 0 else ious
        T, G, D = len(self.iou_thrs), len(gt), len(dt)
        gtm, dtm = np.zeros((T, G)), np.zeros((T, D))
        gt_ig = np.array([g["_ignore"] for g in gt])
        dt_ig = np.zeros((T, D))
        if len(ious):
            for ti, t in enumerate(self.iou_thrs):
                for di, d in enumerate(dt):
                    best, m = min(t, 1 - 1e-10), -1
                    for gi in range(G):
                        if gtm[ti, gi] > 0 and not crowd[gi]:
                            continue
                        if m > -1 and gt_ig[m] == 0 and gt_ig[gi] == 1:
                            break
                        if ious[di, gi] < best:
                            continue
                        best, m = ious[di, gi], gi
                    if m == -1:
                        continue
                    dt_ig[ti, di] = gt_ig[m]
                    dtm[ti, di] = gt[m]["id"]
                    gtm[ti, m] = d["id"]
        outside = np.array([d["area"] < rng[0] or d["area"] > rng[1] for d in dt]).reshape((1, D))
        dt_ig = np.logical_or(dt_ig, np.logical_and(dtm == 0, np.repeat(outside, T, 0)))
        return {"dtMatches": dtm, "dtScores": [d["score"] for d in dt], "gtIgnore": gt_ig, "dtIgnore": dt_ig}

    def run(self):
        self.prepare()
        self.ious = {(i, c): self.compute_iou(i, c) for i in self.img_ids for c in self.cat_ids}
        evals = {(c, a, i): self.evaluate_img(i, c, rng, self.max_dets[-1])
                 for c in self.cat_ids for a, rng in enumerate(self.area_rng) for i in self.img_ids}
        T, R, K, A, M = len(self.iou_thrs), len(self.rec_thrs), len(self.cat_ids), len(self.area_rng), len(self.max_dets)
        precision = -np.ones((T, R, K, A, M))
        recall = -np.ones((T, K, A, M))
        for k, c in enumerate(self.cat_ids):
            for a in range(A):
                for m, max_det in enumerate(self.max_dets):
                    E = [evals[c, a, i] for i in self.img_ids if evals[c, a, i] is not None]
                    if not E:
                        continue
                    scores = np.concatenate([e["dtScores"][:max_det] for e in E])
                    order = np.argsort(-scores, kind="mergesort")
                    dtm = np.concatenate([e["dtMatches"][:, :max_det] for e in E], axis=1)[:, order]
                    dt_ig = np.concatenate([e["dtIgnore"][:, :max_det] for e in E], axis=1)[:, order]
                    gt_ig = np.concatenate([e["gtIgnore"] for e in E])
                    npig = np.count_nonzero(gt_ig == 0)
                    if npig == 0:
                        continue
                    tps = np.logical_and(dtm, np.logical_not(dt_ig))
                    fps = np.logical_and(np.logical_not(dtm), np.logical_not(dt_ig))
                    tp_sum = np.cumsum(tps, axis=1).astype(float)
                    fp_sum = np.cumsum(fps, axis=1).astype(float)
                    for t, (tp, fp) in enumerate(zip(tp_sum, fp_sum)):
                        nd = len(tp)
                        rc = tp / npig
                        pr = (tp / (fp + tp + np.spacing(1))).tolist()
                        recall[t, k, a, m] = rc[-1] if nd else 0
                        for i in range(nd - 1, 0, -1):
                            if pr[i] > pr[i - 1]:
                                pr[i - 1] = pr[i]
                        q = np.zeros(R)
                        for ri, pi in enumerate(np.searchsorted(rc, self.rec_thrs, side="left")):
                            if pi >= nd:
                                break
                            q[ri] = pr[pi]
                        precision[t, :, k, a, m] = q

        def mean(s):
            s = s[s > -1]
            return float(np.mean(s)) if len(s) else -1.0

        return {
            "ap": mean(precision[:, :, :, 0, 2]),
            "ap50": mean(precision[0, :, :, 0, 2]),
            "ap75": mean(precision[5, :, :, 0, 2]),
            "ar100": mean(recall[:, :, 0, 2]),
        }


def check_split(root, path):
    errors = []
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    gt = COCO(raw)
    out = {"images": len(gt.imgs), "annotations": len(gt.anns), "categories": len(gt.cats), "errors": errors}
    for kind, items in (("images", raw.get("images", [])), ("annotations", raw.get("annotations", [])),
                        ("categories", raw.get("categories", []))):
        ids = [x["id"] for x in items]
        if len(set(ids)) != len(ids):
            errors.append("%s ids repeat" % kind)
        if any(not isinstance(i, int) or isinstance(i, bool) or i < 1 for i in ids):
            errors.append("%s ids below 1 (cocoeval never counts a match on id 0)" % kind)
    for ann in raw.get("annotations", []):
        for key in ("area", "iscrowd", "bbox", "segmentation"):
            if key not in ann:
                errors.append("annotation %s has no %s" % (ann.get("id"), key))
        if ann["image_id"] not in gt.imgs:
            errors.append("annotation %s: image %s is not listed" % (ann["id"], ann["image_id"]))
        if ann["category_id"] not in gt.cats:
            errors.append("annotation %s: category %s is not listed" % (ann["id"], ann["category_id"]))
    # The default query paths: every filter that reads a field.
    out["ann_ids_all"] = len(gt.get_ann_ids())
    out["ann_ids_area"] = len(gt.get_ann_ids(area_rng=[0, 1e10]))
    out["ann_ids_not_crowd"] = len(gt.get_ann_ids(iscrowd=0))
    out["img_ids_by_cat"] = sum(len(gt.get_img_ids(cat_ids=[c])) for c in gt.get_cat_ids())
    # annToMask on every annotation.
    masks = []
    for ann in raw.get("annotations", []):
        try:
            m = gt.ann_to_rle(ann)
            masks.append({"id": ann["id"], "mask_area": int(m.sum()), "area": ann["area"], "bbox": ann["bbox"]})
        except Exception as e:  # what showAnns / annToMask would raise
            errors.append("annotation %s: annToMask: %s" % (ann["id"], e))
    out["masks"] = masks
    # The images as files: stored size (PIL), and as datasets-like loaders transpose.
    sizes = []
    for img in raw.get("images", []):
        p = os.path.join(root, "images", img["file_name"])
        if not os.path.isfile(p):
            errors.append("image %s: %s is missing" % (img["id"], img["file_name"]))
            continue
        try:
            with Image.open(p) as im:
                stored = list(im.size)
                shown = list(ImageOps.exif_transpose(im).size)
        except Exception as e:
            sizes.append({"file_name": img["file_name"], "error": str(e)})
            continue
        sizes.append({"file_name": img["file_name"], "listed": [img["width"], img["height"]], "stored": stored, "transposed": shown})
    out["image_sizes"] = sizes
    # COCOeval on a perfect detection file, and on one shifted off every box.
    if gt.anns:
        perfect = [{"image_id": a["image_id"], "category_id": a["category_id"], "bbox": list(a["bbox"]), "score": 1.0}
                   for a in raw["annotations"]]
        out["perfect"] = BoxEval(gt, gt.load_res(perfect)).run()
        shifted = [dict(d, bbox=[d["bbox"][0] + d["bbox"][2], d["bbox"][1], d["bbox"][2], d["bbox"][3]]) for d in perfect]
        out["shifted"] = BoxEval(COCO(copy.deepcopy(raw)), gt.load_res(shifted)).run()
    return out


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1]
    splits = {}
    for path in sorted(glob.glob(os.path.join(root, "annotations", "instances_*.json"))):
        name = os.path.basename(path)[len("instances_"):-len(".json")]
        splits[name] = check_split(root, path)
    print(json.dumps({"splits": splits}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Loads an `hf-imagefolder` export the way Hugging Face `datasets` does with
load_dataset("<export dir>"), so tests can check that Benchwright's folder is read
as intended. `datasets` and `pyarrow` are not installed: their logic is followed.

Written for Benchwright's tests from reading (no code copied):
  - huggingface/datasets @ b7cb10b0e38ab8bbefdb142d0279bc85ac8c7ab8 (5.0.2.dev0), and
    the tags 3.3.0 and 3.4.0 for the row-per-image behaviour:
    - src/datasets/load.py LocalDatasetModuleFactory.get_module: the README's YAML
      configs[].data_files give the splits when present, else get_data_patterns.
    - src/datasets/utils/metadata.py MetadataConfigs.from_dataset_card_data and
      features/features.py Features._from_yaml_list: configs[].features ("dtype",
      "list"/"sequence", "struct").
    - src/datasets/data_files.py SPLIT_KEYWORDS, KEYWORDS_IN_{DIR,FILE}NAME_BASE_PATTERNS
      (fsspec >= 2023.12), ALL_DEFAULT_PATTERNS, _get_data_files_patterns (the first
      group of patterns that matches any file wins: *.eval logs, split folders, split
      file names, everything as train), resolve_pattern (README.md and the other
      FILES_TO_IGNORE, hidden files and __special__ folders are skipped).
    - packaged_modules/folder_based_builder/folder_based_builder.py: _split_generators
      (metadata.jsonl per split; the features pyarrow infers from the first 10 MB chunk
      of each split's metadata must be equal, else "have different features"),
      _read_metadata (10 MB chunks plus the rest of the line, each read by
      pyarrow.json.read_json), _generate_examples (one row per metadata row from
      3.4.0; file_name relative to the metadata file's folder, no "://", absolute
      paths or ".." escapes; up to 3.3.x one row per image file, metadata keyed by
      file_name so rows sharing one collapse, an image without a row an error).
    - the same file for samples of several images, at 3.4.0
      (14fb15ade27dd8a2cdc4e5992e8d1b9fd1347f1c, #7424 added file_names) and
      b7cb10b0: _split_generators' _set_feature makes a column file_name of type
      string the `image` column and file_names of type list<string> the `images`
      column (a list of Image); with neither, "`file_name`, `*_file_name`,
      `file_names` or `*_file_names` must be present". _generate_examples'
      set_feature fills each from its column, every path relative to the metadata
      file's folder, in order. A row missing one of the file columns of its file
      fails: at 3.4.0 os.path.normpath(None) raises TypeError for file_name, at
      b7cb10b0 _nested_apply's len(None) for file_names. Up to 3.3.x only file_name
      exists.
    - packaged_modules/imagefolder/imagefolder.py IMAGE_EXTENSIONS (PIL's readable
      extensions, computed here the way its comment says).
    - features/image.py Image.decode_example: ImageOps.exif_transpose from 2.19.
  - pyarrow.json's documented type inference: null falls back to any type, numbers
    are int64 unless a non-integer appears (then double), "YYYY-MM-DD" and
    "YYYY-MM-DD hh:mm:ss" strings are timestamp[s] unless another value is not.

usage: hf_imagefolder_loader.py EXPORT_DIR
Prints one JSON object: the splits from the README and as inferred without it,
per split the rows (3.4+ and 3.3 behaviour), ids, inferred column types, and the
declared features; "images" every image each row loads, in order (index, the
listed size, the stored and EXIF-transposed sizes, the file's SHA-256);
"image_columns" the columns the builder makes of file_name/file_names; "v33_error"
why datasets <= 3.3 cannot load it, if so; "errors" lists what load_dataset would
fail on or change.
"""
import hashlib
import json
import os
import re
import sys

from PIL import Image, ImageOps

SPLIT_KEYWORDS = {
    "train": ["train", "training"],
    "validation": ["validation", "valid", "dev", "val"],
    "test": ["test", "testing", "eval", "evaluation"],
}
SEP = "-._ 0-9"
DIR_PATTERNS = ["**/{kw}/**", "**/{kw}[{sep}]*/**", "**/*[{sep}]{kw}/**", "**/*[{sep}]{kw}[{sep}]*/**"]
FILE_PATTERNS = ["**/{kw}[{sep}]*", "**/*[{sep}]{kw}[{sep}]*"]
FILES_TO_IGNORE = {"README.md", "config.json", "dataset_info.json", "dataset_infos.json", "dummy_data.zip", "dataset_dict.json"}
METADATA_FILENAMES = {"metadata.csv", "metadata.jsonl", "metadata.parquet"}
CHUNK = 10 << 20


def image_extensions():
    Image.init()
    return {ext.lower() for ext, fmt in Image.EXTENSION.items() if fmt in Image.OPEN}


# --- README front matter -------------------------------------------------------

def front_matter(text):
    if not text.startswith("---\n"):
        return {}
    end = text.index("\n---\n", 4)
    body = text[4:end + 1]
    try:
        import yaml  # what huggingface_hub's DatasetCard uses
        return yaml.safe_load(body) or {}
    except ImportError:
        return mini_yaml(body)


def mini_yaml(body):
    """Block-style YAML as the export writes it: mappings, '- ' lists, plain and
    double-quoted scalars. Used only when PyYAML is missing."""
    lines = [(len(l) - len(l.lstrip(" ")), l.strip()) for l in body.split("\n") if l.strip() and not l.strip().startswith("#")]
    pos = 0

    def scalar(s):
        if s.startswith('"'):
            return json.loads(s)
        if re.fullmatch(r"-?\d+", s):
            return int(s)
        return s

    def block(indent):
        nonlocal pos
        if pos < len(lines) and lines[pos][1].startswith("- "):
            out = []
            while pos < len(lines) and lines[pos][0] == indent and lines[pos][1].startswith("- "):
                ind, text = lines[pos]
                lines[pos] = (ind + 2, text[2:])
                out.append(block(ind + 2))
            return out
        out = {}
        while pos < len(lines) and lines[pos][0] == indent and not lines[pos][1].startswith("- "):
            key, _, rest = lines[pos][1].partition(":")
            rest = rest.strip()
            pos += 1
            if rest:
                out[key] = scalar(rest)
            elif pos < len(lines) and (lines[pos][0] > indent or lines[pos][1].startswith("- ")):
                out[key] = block(lines[pos][0])
            else:
                out[key] = None
        return out

    return block(0)


def feature_type(f):
    """A feature from Features._from_yaml_list as a type string."""
    if isinstance(f, str):
        return f
    if "dtype" in f:
        return feature_type(f["dtype"])
    for key in ("list", "sequence", "large_list"):
        if key in f:
            inner = f[key]
            if isinstance(inner, list) and key == "sequence":  # sequence of a struct: a struct of lists
                return "struct<%s>" % ", ".join("%s: list<%s>" % (g["name"], feature_type(g)) for g in inner)
            if isinstance(inner, list):  # list of a struct (from_yaml_inner: [{name: feature}])
                return "list<struct<%s>>" % ", ".join("%s: %s" % (g["name"], feature_type(g)) for g in inner)
            return "list<%s>" % feature_type(inner)
    if "struct" in f:
        return "struct<%s>" % ", ".join("%s: %s" % (g["name"], feature_type(g)) for g in f["struct"])
    raise ValueError("feature %r" % (f,))


# --- data files ------------------------------------------------------------------

def glob_regex(pattern):
    out = ""
    segs = pattern.split("/")
    for i, seg in enumerate(segs):
        last = i == len(segs) - 1
        if seg == "**":
            out += ".*" if last else "(?:[^/]+/)*"
            continue
        j = 0
        while j < len(seg):
            c = seg[j]
            if c == "*":
                out += "[^/]*"
            elif c == "?":
                out += "[^/]"
            elif c == "[":
                k = seg.index("]", j)
                out += "[" + seg[j + 1:k].replace("\\", "\\\\") + "]"
                j = k
            else:
                out += re.escape(c)
            j += 1
        if not last:
            out += "/"
    return re.compile("^" + out + "$")


def all_files(root):
    out = []
    for dirpath, dirs, files in os.walk(root):
        for f in files:
            out.append(os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/"))
    return sorted(out)


def resolve(pattern, files):
    rx = glob_regex(pattern)
    out = []
    for f in files:
        parts = f.split("/")
        if parts[-1] in FILES_TO_IGNORE or not rx.match(f):
            continue
        if any(p.startswith(".") for p in parts) or any(p.startswith("__") for p in parts[:-1]):
            continue
        out.append(f)
    return out


def inferred_patterns(files):
    if resolve("**/*.eval", files):
        return {"logs": ["**/*.eval"]}
    for group in (DIR_PATTERNS, FILE_PATTERNS):
        found = {}
        for split, kws in SPLIT_KEYWORDS.items():
            pats = [p.format(kw=kw, sep=SEP) for kw in kws for p in group]
            if any(resolve(p, files) for p in pats):
                found[split] = pats
        if found:
            return found
    return {"train": ["**"]}


def split_files(patterns, files):
    return {split: sorted({f for p in pats for f in resolve(p, files)}) for split, pats in patterns.items()}


# --- pyarrow.json inference --------------------------------------------------------

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$")


def infer(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int64"
    if isinstance(v, float):
        return "double"
    if isinstance(v, str):
        return "timestamp[s]" if DATE.match(v) else "string"
    if isinstance(v, list):
        t = "null"
        for e in v:
            t = unify(t, infer(e))
        return ("list", t)
    if isinstance(v, dict):
        return ("struct", {k: infer(x) for k, x in v.items()})
    return "conflict"


def unify(a, b):
    if a == "null":
        return b
    if b == "null":
        return a
    if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] == "list":
        return ("list", unify(a[1], b[1]))
    if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] == "struct":
        fields = dict(a[1])
        for k, t in b[1].items():
            fields[k] = unify(fields.get(k, "null"), t)
        return ("struct", fields)
    if a == b:
        return a
    if {a, b} == {"int64", "double"}:
        return "double"
    if {a, b} == {"timestamp[s]", "string"}:
        return "string"
    return "conflict"


def show(t):
    if isinstance(t, tuple) and t[0] == "list":
        return "list<%s>" % show(t[1])
    if isinstance(t, tuple):
        return "struct<%s>" % ", ".join("%s: %s" % (k, show(v)) for k, v in t[1].items())
    return t


def chunks(data):
    """_read_metadata: 10 MB, then the rest of the line (a whole next line if the
    10 MB end on a line end)."""
    pos = 0
    while pos < len(data):
        end = min(pos + CHUNK, len(data))
        if end < len(data):
            nl = data.find(b"\n", end)
            end = len(data) if nl < 0 else nl + 1
        yield data[pos:end]
        pos = end


def table_types(chunk):
    cols = {}
    rows = [json.loads(l) for l in chunk.decode("utf-8").splitlines() if l.strip()]
    for row in rows:
        for k, v in row.items():
            cols[k] = unify(cols.get(k, "null"), infer(v))
    return {k: show(t) for k, t in cols.items()}, rows


# --- declared features ------------------------------------------------------------

def split_struct(s):
    depth, cur, out = 0, "", []
    for c in s:
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return [tuple(x.split(": ", 1)) for x in out]


def castable(v, t):
    """Whether Features.encode_example takes v as a t (null always)."""
    if v is None:
        return True
    if t == "string":
        return isinstance(v, str)
    if t == "bool":
        return isinstance(v, bool)
    if t in ("int32", "int64"):
        bits = 31 if t == "int32" else 63
        return isinstance(v, int) and not isinstance(v, bool) and -(1 << bits) <= v < (1 << bits)
    if t in ("float64", "float32"):
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t.startswith("list<"):
        return isinstance(v, list) and all(castable(e, t[5:-1]) for e in v)
    if t.startswith("struct<"):
        fields = dict(split_struct(t[7:-1]))
        return isinstance(v, dict) and set(v) <= set(fields) and all(castable(v.get(k), ft) for k, ft in fields.items())
    return False


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1]
    errors = []
    files = all_files(root)
    card = {}
    if os.path.isfile(os.path.join(root, "README.md")):
        with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
            card = front_matter(f.read())
    configs = card.get("configs") or []
    default = next((c for c in configs if c.get("config_name") == "default" or len(configs) == 1), None)
    inferred = split_files(inferred_patterns(files), files)
    if default and default.get("data_files"):
        readme = {}
        for entry in default["data_files"]:
            paths = entry["path"] if isinstance(entry["path"], list) else [entry["path"]]
            readme[entry["split"]] = sorted({f for p in paths for f in resolve(p, files)})
        splits = readme
    else:
        readme = None
        splits = inferred
    declared = {}
    if default and default.get("features"):
        declared = {f["name"]: feature_type(f) for f in default["features"]}
    info = card.get("dataset_info") or {}
    info_declared = {f["name"]: feature_type(f) for f in info.get("features", [])} if isinstance(info, dict) else {}

    exts = image_extensions()
    out_splits, first_types, images, image_columns, v33_error = {}, {}, [], {}, None
    for split, sfiles in splits.items():
        metas = [f for f in sfiles if f.split("/")[-1] in METADATA_FILENAMES]
        imgs = [f for f in sfiles if os.path.splitext(f)[1].lower() in exts]
        res = {"metadata_files": metas, "image_files": len(imgs)}
        out_splits[split] = res
        if len(metas) != 1 or not metas[0].endswith(".jsonl"):
            errors.append("%s: metadata files %s" % (split, metas))
            continue
        meta = metas[0]
        meta_dir = os.path.dirname(meta)
        with open(os.path.join(root, meta), "rb") as f:
            data = f.read()
        rows = []
        for n, chunk in enumerate(chunks(data)):
            types, chunk_rows = table_types(chunk)
            if n == 0:
                first_types[split] = types
            for col, t in types.items():
                if "timestamp" in t:
                    errors.append("%s: column %s reads as %s: datasets hands on datetimes, not the text" % (split, col, t))
            rows.extend(chunk_rows)
        res["types"] = first_types.get(split, {})
        # _set_feature: the file columns of this file's schema.
        types = res["types"]
        cols = {}
        if types.get("file_name") == "string":
            cols["file_name"] = "image"
        if types.get("file_names") == "list<string>":
            cols["file_names"] = "images"
        image_columns[split] = sorted(cols.values())
        if not cols:
            errors.append("%s: `file_name`, `*_file_name`, `file_names` or `*_file_names` must be present" % split)
        # 3.4+: one row per metadata row, file names relative to the metadata's folder.
        res["rows"] = len(rows)
        res["ids"] = [r.get("id") for r in rows]
        names = [n for r in rows for n in ([r.get("file_name")] if "file_name" in cols else []) + (r.get("file_names") or [])]
        res["file_names_unique"] = len(set(names)) == len(names)
        for r in rows:
            files = []
            for col in sorted(cols):
                v = r.get(col)
                if v is None:
                    # 3.4.0: normpath(None); b7cb10b0: len(None) in _nested_apply.
                    errors.append("%s: row %s has no %s while its file has that column: datasets raises TypeError" % (split, r.get("id"), col))
                    continue
                files.extend([v] if col == "file_name" else v)
            if "file_names" in cols:
                listed = list(zip(r.get("widths") or [], r.get("heights") or []))
            else:
                listed = [(r.get("width"), r.get("height"))]
            for k, fn in enumerate(files):
                if not isinstance(fn, str) or "://" in fn or os.path.isabs(fn):
                    errors.append("%s: file name %r is refused" % (split, fn))
                    continue
                rel = os.path.normpath(fn).replace("\\", "/")
                if rel == ".." or rel.startswith("../"):
                    errors.append("%s: file name %r leaves the metadata folder" % (split, fn))
                    continue
                full = os.path.join(root, meta_dir, rel)
                if not os.path.isfile(full):
                    errors.append("%s: %s does not exist" % (split, fn))
                    continue
                with open(full, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                with Image.open(full) as im:
                    stored = list(im.size)
                    shown = list(ImageOps.exif_transpose(im).size)
                images.append({"split": split, "id": r.get("id"), "index": k, "file_name": fn,
                               "listed": list(listed[k]) if k < len(listed) else None,
                               "stored": stored, "transposed": shown, "sha256": digest})
            # The declared features take every value (the file columns become images).
            for k, v in r.items():
                if k in cols:
                    continue
                if k not in declared:
                    errors.append("%s: column %s is not declared" % (split, k))
                elif not castable(v, declared[k]):
                    errors.append("%s: row %s: %s=%r is not a %s" % (split, r.get("id"), k, v, declared[k]))
        if declared:
            for k in declared:
                if k not in cols.values() and rows and k not in rows[0]:
                    errors.append("%s: declared column %s is missing" % (split, k))
        # 3.3: one row per image file; metadata keyed by file_name, which must exist.
        if "file_name" not in cols:
            v33_error = "datasets <= 3.3 knows no file_names: `file_name` or `*_file_name` must be present"
            res["rows_v33"] = 0
            continue
        by_name = {}
        for r in rows:
            if isinstance(r.get("file_name"), str):
                by_name[os.path.normpath(r["file_name"]).replace("\\", "/")] = r
        v33 = 0
        for f in imgs:
            key = os.path.relpath(f, meta_dir or ".").replace("\\", "/")
            if key not in by_name:
                errors.append("%s: image %s has no metadata (datasets <= 3.3 fails)" % (split, f))
            else:
                v33 += 1
        res["rows_v33"] = v33
    # _split_generators: every split's first chunk must infer the same features.
    typesets = list(first_types.values())
    types_equal = all(t == typesets[0] for t in typesets)
    if not types_equal:
        errors.append("metadata files have different features: %s" % json.dumps(first_types, sort_keys=True))
    print(json.dumps({
        "readme_splits": {k: v for k, v in readme.items()} if readme is not None else None,
        "inferred_splits": inferred,
        "splits": out_splits,
        "types_equal": types_equal,
        "declared": declared,
        "dataset_info_declared": info_declared,
        "images": images,
        "image_columns": image_columns,
        "v33_error": v33_error,
        "errors": errors,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Runs a lmms-eval task folder the way lmms-eval does, without a model: a
prediction file stands in for the model's generations.

Written for Benchwright's tests from reading EvolvingLMMs-Lab/lmms-eval @ 75571cfe
(no code copied):
  - lmms_eval/tasks/__init__.py TaskManager._get_task_and_group: every file ending
    in .yaml below --include_path whose `task` is a string is a task;
  - lmms_eval/utils.py load_yaml_config: `!function utils.name` imports name from
    utils.py in the YAML's folder;
  - lmms_eval/api/task.py ConfigurableTask: dataset_path json + data_files read by
    datasets' json builder (one document per JSON line; a column must keep one type
    across documents, as Arrow requires), doc_to_visual / doc_to_text per document,
    process_results(doc, [generation]) and each metric's aggregation over the list
    of per-document results.

usage: lmms_eval_task.py INCLUDE_PATH TASK PREDICTIONS.jsonl
PREDICTIONS holds {"id": ..., "response": ...} per line. Prints {"metrics": {...},
"documents": N}.
"""
import importlib.util
import json
import os
import sys

import yaml


def load_yaml(path):
    folder = os.path.dirname(path)

    class Loader(yaml.SafeLoader):
        pass

    def function(loader, node):
        module_name, fn = loader.construct_scalar(node).rsplit(".", 1)
        spec = importlib.util.spec_from_file_location(module_name, os.path.join(folder, module_name + ".py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return getattr(module, fn)

    Loader.add_constructor("!function", function)
    with open(path) as f:
        return yaml.load(f, Loader=Loader)


def find_task(include_path, name):
    for root, dirs, files in os.walk(include_path):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", ".ipynb_checkpoints")]
        for f in files:
            if f.endswith(".yaml"):
                cfg = load_yaml(os.path.join(root, f))
                if isinstance(cfg.get("task"), str) and cfg["task"] == name:
                    return os.path.join(root, f), cfg
    raise SystemExit("task %s not found under %s" % (name, include_path))


def arrow_type(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int64"
    if isinstance(v, float):
        return "double"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "list<%s>" % ",".join(sorted({arrow_type(x) for x in v}))
    return type(v).__name__


def main():
    include_path, task, pred_path = sys.argv[1:4]
    path, cfg = find_task(include_path, task)
    for key in ("dataset_path", "test_split", "output_type", "doc_to_visual", "doc_to_text", "process_results", "metric_list"):
        if key not in cfg:
            raise SystemExit("%s: no %s" % (path, key))
    assert cfg["dataset_path"] == "json" and cfg["output_type"] == "generate_until"
    data_file = cfg["dataset_kwargs"]["data_files"][cfg["test_split"]]
    # Newer lmms-eval resolves a relative data file against the YAML's folder,
    # older against the working folder: the test runs from the YAML's folder.
    data_file = os.path.join(os.path.dirname(path), data_file)
    docs = []
    with open(data_file) as f:
        for line in f:
            if line.strip():
                docs.append(json.loads(line))
    types = {}
    for d in docs:
        for k, v in d.items():
            t = arrow_type(v)
            if types.setdefault(k, t) != t:
                raise SystemExit("column %s is %s in one document and %s in another: Arrow cannot load it" % (k, types[k], t))
    preds = {}
    with open(pred_path) as f:
        for line in f:
            if line.strip():
                p = json.loads(line)
                preds[str(p["id"])] = p["response"]
    results = {m["metric"]: [] for m in cfg["metric_list"]}
    sizes = {}
    for d in docs:
        visuals = cfg["doc_to_visual"](d)
        assert visuals and all(v.size[0] > 0 for v in visuals)
        sizes[str(d["id"])] = [list(v.size) for v in visuals]
        assert isinstance(cfg["doc_to_text"](d), str)
        out = cfg["process_results"](d, [preds.get(str(d["id"]), "")])
        for m in results:
            results[m].append(out[m])
    metrics = {m["metric"]: m["aggregation"](results[m["metric"]]) for m in cfg["metric_list"]}
    print(json.dumps({"metrics": metrics, "documents": len(docs), "visual_sizes": sizes}, sort_keys=True))


if __name__ == "__main__":
    main()

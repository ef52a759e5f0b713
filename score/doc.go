// Package score evaluates models on a frozen release: it reads each raw model
// response the way the benchmark's own scorer does, scores it against the gold
// sample, and summarizes a model's results into the figures the papers print —
// overall, broken down by kind, hop, view, category set, task, split and
// modality (image, images, video), each
// with a seeded 95 % percentile bootstrap interval — and ranks models on a
// leaderboard that marks ties where intervals overlap.
//
// It owns the scoring rules; store tables, bwctl and the GUI call it. It is
// plain Go: no UI, no SQL. Each rule is written once, here, after the consumer
// code named with it:
//
//   - hop_qa — ParseHopAnswer, ParseHopBox, CheckUnitBox, HopIoU (hop.go):
//     youngwanLEE/multihopspatial eval/benchmark_qwen.py (parse_mcq_answer,
//     parse_response, is_valid_bbox, calculate_iou, calculate_mcq_accuracy) and
//     EvolvingLMMs-Lab/lmms-eval lmms_eval/tasks/multihopspatial/utils.py. The
//     letter comes from `Answer: (x)`, `Answer: x)`, `Answer: x` at a line's end,
//     then `(x)` anywhere; the box from `Bounding Box: [..]`, then `"bbox_2d": [..]`,
//     then the first bare 4-list, divided by 1000 when a coordinate exceeds 1; a
//     box is valid inside 0–1 with x2 > x1 and y2 > y1; IoU against the gold box
//     (the prediction scaled by the image size, as the official script does),
//     rounded to 4 decimals; an invalid box gets no IoU (lmms-eval). MCQ accuracy,
//     Acc@50IoU (correct option and IoU >= 0.5) and mean IoU over MCQ-correct
//     samples with a valid box. The
//     official script divides accuracy and Acc@50IoU by the samples whose letter
//     parsed, lmms-eval by all samples: both are reported, and Options.Denominator
//     (default DenomAll) picks the one named mcq_acc and acc50iou.
//   - mcq and judgment — InferOption, YesNo (choice.go):
//     open-compass/VLMEvalKit vlmeval/utils/matching_util.py (can_infer,
//     can_infer_option, can_infer_text), vlmeval/dataset/utils/multiple_choice.py
//     (extract_answer_from_item under exact_matching), vlmeval/dataset/utils/yorn.py
//     (YOrN_Extraction) and vlmeval/smp/misc.py (process_punctuation). No judge model.
//     A circular run (circular.go: VLMEvalKit's rotated copies, indexes
//     index + k·1e6) is graded as multiple_choice.py mcq_circular_eval does: each
//     copy read against its own rotated options and mapped back, the question
//     right only when every copy is.
//     Options.YesNo = YesNoLRR reads judgments by LRRYesNo instead: LRR-Bench §III-D
//     (../shared/seeds/lrr-bench.txt:195) — "no" when the word No is in the
//     response (any case, a whole word), "yes" otherwise.
//   - lrr_score — LRRTaskScore, lrrFigures (lrr.go): LRR-Bench §III-D eq. 1
//     (lrr-bench.txt:187), Σ_i w_i · 2(p_i − 50) · 1[p_i ≥ 50] over the tasks (the
//     samples' Task labels) of the set's judgment samples, p_i the task's yes/no
//     accuracy in percent, w_i from Options.LRRWeights (default 1); judgments
//     without a task are left out; lrr_score_max = 100 · Σ_i w_i. The paper defines
//     w_i but prints S = Σ_i s_i; its total of 1050 over 12 tasks fits weights
//     below 1 for some tasks, so the weights multiply s_i here. Its interval is a
//     bootstrap stratified by task.
//   - open — ExtractOpenAnswer, NormalizeAnswer, ExtractNumber, MRA,
//     WithinTolerance (open.go): extraction per PCSR-Bench §4.2
//     (../shared/seeds/pcsr-bench.txt:114); strict match after SQuAD-style
//     normalization; relaxed match also accepting a number within the sample's
//     tolerance; mean relative accuracy over θ = 0.50, 0.55, …, 0.95 as
//     vision-x-nyu/thinking-in-space lmms_eval/tasks/vsibench/utils.py and
//     haoningwu3639/SpatialScore utils/util.py compute it (relative error <= 1-θ,
//     where the VSI-Bench paper writes <, and numpy's rounded θ); numbers read as
//     lmms-eval lmms_eval/tasks/vsibench/utils.py extract_number does.
//   - step_graph — ParseStepGraph, TextMatch, MaxMatching, ScoreSteps (steps.go)
//     and LinearSumAssignment (assign.go): xieyc99/SpatiaLQA answer.py and utils.py
//     (reading answers, max_match_binary_matrix) and metric.py (content and
//     precondition counts; per-sample "split" and pooled "total" modes), with
//     scipy/scipy scipy/optimize/rectangular_lsap/rectangular_lsap.cpp for the
//     assignment. The match matrix is normalized text equality unless the caller
//     supplies one (SpatiaLQA asks a judge model). Samples without a parsed answer
//     count as all missed unless Options.StepSkip says otherwise.
//   - breakdowns, intervals and ranking — Summarize, Leaderboard (summary.go,
//     leaderboard.go): percentile bootstrap (Hyndman–Fan type 7 percentiles, as
//     numpy's default) resampling each group's samples; rank = 1 + the number of
//     models whose interval lies wholly above.
//
// ReadPredictions (predfile.go) reads the files models' answers come in — JSON
// Lines of raw responses, VLMEvalKit's result TSVs — for bwctl and the GUI alike.
//
// Evaluate runs ScoreAll then Summarize. Figures are percentages; a Report has
// stable JSON names: model, n, overall (mcq_acc, acc50iou, mean_iou,
// mcq_acc_parsed_denominator, content_p, content_r, content_f1, precond_p,
// precond_r, precond_f1, lrr_score and the others of MetricNames, and
// lrr_score_max), by.
package score

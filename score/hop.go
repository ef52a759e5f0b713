package score

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// The hop-QA rules follow the official MultihopSpatial scorer,
// youngwanLEE/multihopspatial eval/benchmark_qwen.py (parse_mcq_answer,
// extract_choice_letter, parse_response, is_valid_bbox, calculate_iou,
// run_benchmark's totals), and where it and lmms-eval differ, as noted,
// EvolvingLMMs-Lab/lmms-eval lmms_eval/tasks/multihopspatial/utils.py.

// pyS is Python's \s on str patterns: the characters for which str.isspace()
// holds. Go's \s is ASCII only.
const pyS = `[\t\n\v\f\r \x1c-\x1f\x85\p{Z}]`

// hopAnswerRes are parse_mcq_answer's four patterns in its order, each searched
// for its leftmost match. Only the letter matters: the original patterns' tails
// (\s*[^\n]* and the like) can match the empty string, so dropping them changes
// no match position, and extract_choice_letter then takes the first "(x)" of the
// captured text, which is the letter captured here.
var hopAnswerRes = []*regexp.Regexp{
	regexp.MustCompile(`(?i)Answer:` + pyS + `*\(([a-d])\)`),           // Answer: (b) ...
	regexp.MustCompile(`(?i)Answer:` + pyS + `*([a-d])\)`),             // Answer: b) ...
	regexp.MustCompile(`(?im)Answer:` + pyS + `*([a-d])` + pyS + `*$`), // Answer: b<end of line>
	regexp.MustCompile(`(?i)\(([a-d])\)`),                              // (b) anywhere
}

// ParseHopAnswer reads the option letter of a hop question's response the way
// the official scorer does (benchmark_qwen.py parse_mcq_answer, copied verbatim
// into lmms-eval's utils.py): the first of `Answer: (x)`, `Answer: x)`,
// `Answer: x` alone at the end of a line, then a bare `(x)` anywhere, x in a–d in
// any case. The letter is returned upper-case ("B"); ok is false when none is found.
// Only the first match counts, so a response naming two answers gets the first.
func ParseHopAnswer(response string) (letter string, ok bool) {
	for i, re := range hopAnswerRes {
		// A match starts at the pattern's literal text: search from its first
		// occurrence (a cheap scan) instead of trying every position.
		var from int
		if i < 3 {
			from = indexFold(response, "answer:")
		} else {
			from = strings.IndexByte(response, '(')
		}
		if from < 0 {
			continue
		}
		if m := re.FindStringSubmatch(response[from:]); m != nil {
			return strings.ToUpper(m[1]), true
		}
	}
	return "", false
}

// indexFold is where a case-insensitive match of the lower-case ASCII needle
// may start in s: the first ASCII-case-insensitive occurrence, or, when one
// of the non-ASCII characters (?i) folds onto ASCII letters ("ſ" onto s, the
// Kelvin sign onto k) comes first, its position; -1 when neither is there.
func indexFold(s, needle string) int {
	n := len(needle)
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			if strings.HasPrefix(s[i:], "\u017f") || strings.HasPrefix(s[i:], "\u212a") {
				return max(0, i-len(needle)) // the match may begin a few letters before
			}
			continue
		}
		if i+n > len(s) {
			continue
		}
		j := 0
		for j < n && s[i+j]|0x20 == needle[j]|0x20 && (s[i+j] >= 'A' || s[i+j] == needle[j]) {
			j++
		}
		if j == n {
			return i
		}
	}
	return -1
}

// hopNum is benchmark_qwen.py's number pattern ([\d.]+): lmms-eval's stricter
// \d*\.?\d+ would reject "1." which Python's float accepts.
const hopNum = `([0-9.]+)`

func boxPattern(prefix string) *regexp.Regexp {
	sep := pyS + `*,` + pyS + `*`
	return regexp.MustCompile(prefix + `\[` + pyS + `*` + hopNum + sep + hopNum + sep + hopNum + sep + hopNum + pyS + `*\]`)
}

// hopBoxRes are parse_response's box patterns in benchmark_qwen.py's order.
// lmms-eval tries "bbox_2d" before "Bounding Box:"; the two differ only for a
// response that gives both with different numbers.
var hopBoxRes = []*regexp.Regexp{
	boxPattern(`(?i)Bounding Box:` + pyS + `*`),
	boxPattern(`"bbox_2d"` + pyS + `*:` + pyS + `*`),
	boxPattern(``), // the first bare [a, b, c, d]
}

// Errors ParseHopBox returns.
var (
	ErrNoBox        = errors.New("no box")
	ErrMalformedBox = errors.New("malformed number in box")
)

// ParseHopBox reads the box of a hop question's response as the official scorer
// does (benchmark_qwen.py parse_response): the first `Bounding Box: [x1, y1, x2, y2]`
// (any case), else the first `"bbox_2d": [...]`, else the first bare list of four
// unsigned numbers; when any coordinate exceeds 1 the box is on the 0–1000 scale
// and every coordinate is divided by 1000. The box is returned on the 0–1 scale,
// not checked (see CheckUnitBox). It returns ErrNoBox when there is no such list,
// ErrMalformedBox when the list holds something like "1.2.3" (benchmark_qwen.py's
// float() raises there, which fails the whole sample; here only the box is lost).
// Digits are ASCII; Python's \d would also take other scripts' digits.
func ParseHopBox(response string) ([4]float64, error) {
	b, err := hopBoxRaw(response)
	if err != nil {
		return b, err
	}
	if b[0] > 1 || b[1] > 1 || b[2] > 1 || b[3] > 1 {
		for i := range b {
			b[i] /= 1000
		}
	}
	return b, nil
}

// hopBoxRaw is ParseHopBox's box as the response writes it, not scaled.
func hopBoxRaw(response string) ([4]float64, error) {
	var b [4]float64
	for i, re := range hopBoxRes {
		var from int // where a match can first start (see ParseHopAnswer)
		switch i {
		case 0:
			from = indexFold(response, "bounding box:")
		case 1:
			from = strings.Index(response, `"bbox_2d"`)
		default:
			from = strings.IndexByte(response, '[')
		}
		if from < 0 {
			continue
		}
		m := re.FindStringSubmatch(response[from:])
		if m == nil {
			continue
		}
		for i := range b {
			v, err := strconv.ParseFloat(m[i+1], 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) { // Python's float overflows to inf
				return b, fmt.Errorf("%w: %q", ErrMalformedBox, m[i+1])
			}
			b[i] = v
		}
		return b, nil
	}
	return b, ErrNoBox
}

// CheckUnitBox explains why b is not a valid box on the 0–1 scale: a coordinate
// outside [0, 1], x2 <= x1 or y2 <= y1 (benchmark_qwen.py is_valid_bbox,
// lmms-eval _is_valid_norm_bbox).
func CheckUnitBox(b [4]float64) error {
	for i, v := range b {
		if !(v >= 0 && v <= 1) {
			return fmt.Errorf("coordinate %d (%g) is outside 0–1", i+1, v)
		}
	}
	if !(b[2] > b[0]) {
		return fmt.Errorf("x2 %g is not right of x1 %g", b[2], b[0])
	}
	if !(b[3] > b[1]) {
		return fmt.Errorf("y2 %g is not below y1 %g", b[3], b[1])
	}
	return nil
}

// HopIoU is the IoU of a predicted box on the 0–1 scale with a gold box in
// pixels of a w×h image, rounded to 4 decimals as both consumers do
// (benchmark_qwen.py calculate_iou / calculate_iou_xyxy): the prediction is
// scaled to pixels, boxes that do not overlap (or touch only along an edge)
// have IoU 0. Rounding is Python's round(x, 4): the exact binary value rounded
// half to even, which strconv's formatting also does.
func HopIoU(pred [4]float64, gold annotate.Box, w, h int) float64 {
	fw, fh := float64(w), float64(h)
	p := [4]float64{pred[0] * fw, pred[1] * fh, pred[2] * fw, pred[3] * fh}
	ix1, iy1 := max(gold[0], p[0]), max(gold[1], p[1])
	ix2, iy2 := min(gold[2], p[2]), min(gold[3], p[3])
	if ix2 <= ix1 || iy2 <= iy1 {
		return 0
	}
	inter := (ix2 - ix1) * (iy2 - iy1)
	union := (gold[2]-gold[0])*(gold[3]-gold[1]) + (p[2]-p[0])*(p[3]-p[1]) - inter
	if union <= 0 {
		return 0
	}
	return round4(inter / union)
}

func round4(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 4, 64), 64)
	return v
}

// scoreHop scores a hop_qa response: the letter against the gold option, and the
// box against the gold box when it is valid. An invalid box gets no IoU — it is
// neither a hit nor part of the mean IoU — as in lmms-eval; benchmark_qwen.py
// checks validity only to decide whether to ask the model again and computes an
// IoU for any box it read.
func scoreHop(g Gold, r *Result, response string) {
	letter, ok := ParseHopAnswer(response)
	if ok {
		r.Answer = letter
		gi := g.Sample.AnswerIndex
		r.Correct = gi >= 0 && gi < 4 && letter == annotate.AnswerLetter(gi)
	} else {
		r.ParseError = "no answer letter: none of Answer: (x), Answer: x), Answer: x, (x) with x in a–d"
	}
	box, err := ParseHopBox(response)
	if err != nil {
		r.BoxError = err.Error()
		return
	}
	r.Box = &box
	switch err := CheckUnitBox(box); {
	case err != nil:
		r.BoxError = "invalid box: " + err.Error()
	case g.Sample.Box == nil:
		r.BoxError = "the gold sample has no box"
	case g.Width <= 0 || g.Height <= 0:
		r.BoxError = fmt.Sprintf("the image size is unknown (%d×%d)", g.Width, g.Height)
	default:
		iou := HopIoU(box, *g.Sample.Box, g.Width, g.Height)
		if math.IsNaN(iou) {
			r.BoxError = "IoU is not a number"
			return
		}
		r.IoU = &iou
		r.Hit50 = r.Correct && iou >= 0.5
	}
}

package score

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/benchwright/benchwright/annotate"
)

// Reading the files models' answers come in: a JSON Lines file of raw responses,
// or VLMEvalKit's result files for a release's vlmevalkit export. bwctl
// (predictions import) and the Evaluate screen both read them here, and hand the
// predictions to the store's ImportPredictions.

// PredictionFormat is the layout of a predictions file.
type PredictionFormat string

const (
	// PredictionsAuto tells the layout from the file: a name ending in .tsv, or
	// content not starting with "{", is a TSV; .jsonl, .json and .ndjson are JSON Lines.
	PredictionsAuto PredictionFormat = "auto"
	// PredictionsJSONL is one {"id": …, "response": "raw model text"} per line.
	PredictionsJSONL PredictionFormat = "jsonl"
	// PredictionsTSV is a VLMEvalKit result file saved as TSV (PRED_FORMAT=tsv).
	PredictionsTSV PredictionFormat = "tsv"
)

// Limits of a predictions file: the whole file, and one line of a TSV (a JSON
// line is limited by annotate.MaxLineBytes, the same 16 MiB).
const (
	MaxPredictionFileBytes = 256 << 20
	maxPredictionTSVLine   = 16 << 20
)

// errLongLine is a TSV line over maxPredictionTSVLine; its message names the file.
var errLongLine = errors.New("line too long")

// ReadPredictions reads data, the content of the predictions file called name
// (a path or a base name; errors start with it, and its ending picks the layout
// when format is PredictionsAuto or ""). It returns the predictions in file order
// and, for each, the 1-based line its record starts on.
//
// JSON Lines: each line an object with the sample id under "id" or "sample_id" (a
// string, or an integer), the raw response under "response" or "prediction" (a
// string; null is an empty response) and optionally "step_match", a matrix of 0
// and 1. Other keys are ignored; blank lines are skipped.
//
// TSV: a VLMEvalKit result file — the dataset's columns plus "prediction", the
// model's raw text — whose rows are matched to samples by the "id" column that
// Benchwright's vlmevalkit export writes and VLMEvalKit carries into its results.
// Cells may be quoted (VLMEvalKit quotes every cell), holding tabs and line breaks.
//
// A leading byte order mark is dropped. A spreadsheet (xlsx), text that is not
// UTF-8, a record without an id or a response, and a file over
// MaxPredictionFileBytes or with a line over 16 MiB are errors naming the file
// and line; nothing is returned then. Which ids belong to a release is not
// checked here: the store reports unknown, duplicate and missing ones.
func ReadPredictions(name string, data []byte, format PredictionFormat) ([]Prediction, []int, error) {
	if len(data) > MaxPredictionFileBytes {
		return nil, nil, fmt.Errorf("%s holds more than %d MiB, the most read from one predictions file", name, MaxPredictionFileBytes>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	ext := strings.ToLower(filepath.Ext(name))
	if ext == ".xlsx" || bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		return nil, nil, fmt.Errorf("%s is a spreadsheet (xlsx); run VLMEvalKit with PRED_FORMAT=tsv, or save the sheet as tab-separated text", name)
	}
	switch format {
	case PredictionsAuto, "":
		switch {
		case ext == ".tsv":
			format = PredictionsTSV
		case ext == ".jsonl" || ext == ".json" || ext == ".ndjson":
			format = PredictionsJSONL
		case bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")):
			format = PredictionsJSONL
		default:
			format = PredictionsTSV
		}
	case PredictionsJSONL, PredictionsTSV:
	default:
		return nil, nil, fmt.Errorf("score: unknown predictions format %q (want %q, %q or %q)", format, PredictionsAuto, PredictionsJSONL, PredictionsTSV)
	}
	var rows []predRow
	add := func(r predRow) { rows = append(rows, r) }
	var err error
	if format == PredictionsTSV {
		err = readPredictionTSV(name, data, add)
	} else {
		err = readPredictionJSONL(name, data, add)
	}
	if err != nil {
		return nil, nil, err
	}
	if circularFile(name, rows) { // circular.go
		return foldCircular(name, rows)
	}
	var preds []Prediction
	var lines []int
	for _, r := range rows {
		preds = append(preds, Prediction{SampleID: r.id, Response: r.response, StepMatch: r.match})
		lines = append(lines, r.line)
	}
	return preds, lines, nil
}

// readPredictionJSONL reads JSON Lines of predictions (see ReadPredictions).
func readPredictionJSONL(name string, data []byte, add func(predRow)) error {
	err := annotate.ReadJSONL(bytes.NewReader(data), func(line int, raw []byte) error {
		if !utf8.Valid(raw) {
			return errors.New("the line is not UTF-8 text")
		}
		var rec map[string]json.RawMessage
		if err := json.Unmarshal(raw, &rec); err != nil {
			return errors.New("not a JSON object")
		}
		id, err := oneOf(rec, "id", "sample_id", predictionID)
		if err != nil {
			return err
		}
		if id == "" {
			return errors.New(`no sample id: give "id" (or "sample_id")`)
		}
		resp, err := oneOf(rec, "response", "prediction", predictionText)
		if err != nil {
			return err
		}
		_, hasResp := rec["response"]
		_, hasPred := rec["prediction"]
		if !hasResp && !hasPred {
			return fmt.Errorf(`%s: no response: give the model's raw text as "response" (or "prediction")`, id)
		}
		p := predRow{id: id, response: resp, index: -1, line: line}
		if m, ok := rec["step_match"]; ok && string(m) != "null" {
			if err := json.Unmarshal(m, &p.match); err != nil {
				return fmt.Errorf("%s: step_match is not a matrix of 0 and 1 ([[1, 0], [0, 1]])", id)
			}
		}
		if raw, ok := rec["index"]; ok {
			p.index = rowIndex(string(bytes.Trim(raw, `"`)))
		}
		add(p)
		return nil
	})
	var le *annotate.LineError
	if errors.As(err, &le) {
		return fmt.Errorf("%s:%d: %v", name, le.Line, le.Err)
	}
	return err
}

// oneOf reads the key a or its alias b with read; both present with different
// values is an error.
func oneOf(rec map[string]json.RawMessage, a, b string, read func(key string, raw json.RawMessage) (string, error)) (string, error) {
	var vals []string
	for _, k := range []string{a, b} {
		raw, ok := rec[k]
		if !ok {
			continue
		}
		v, err := read(k, raw)
		if err != nil {
			return "", err
		}
		vals = append(vals, v)
	}
	switch {
	case len(vals) == 0:
		return "", nil
	case len(vals) == 2 && vals[0] != vals[1]:
		return "", fmt.Errorf("%q and %q differ; give one", a, b)
	}
	return vals[0], nil
}

// predictionID reads a sample id: a string, or an integer written as one.
func predictionID(key string, raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strings.TrimSpace(s), nil
	}
	if _, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return string(raw), nil
	}
	return "", fmt.Errorf("%q is not a string", key)
}

// predictionText reads a response: a string, or null for an empty one.
func predictionText(key string, raw json.RawMessage) (string, error) {
	if string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%q is not a string", key)
	}
	return s, nil
}

// readPredictionTSV reads a VLMEvalKit result file saved as TSV (see ReadPredictions).
func readPredictionTSV(name string, data []byte, add func(predRow)) error {
	r := csv.NewReader(&lineCapped{r: bytes.NewReader(data), max: maxPredictionTSVLine})
	r.Comma = '\t'
	header, err := r.Read()
	if err != nil {
		return tsvError(name, err)
	}
	idCol, predCol, indexCol := slices.Index(header, "id"), slices.Index(header, "prediction"), slices.Index(header, "index")
	if predCol < 0 {
		return fmt.Errorf("%s: no prediction column: not a VLMEvalKit result file (its columns: %s)", name, strings.Join(header, ", "))
	}
	if idCol < 0 {
		return fmt.Errorf("%s: no id column: rows are matched to samples by the id column of Benchwright's vlmevalkit export "+
			"(NAME_MCQ.tsv, NAME_YN.tsv), which VLMEvalKit keeps in its result file", name)
	}
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return tsvError(name, err)
		}
		line, _ := r.FieldPos(0)
		id, resp := strings.TrimSpace(row[idCol]), row[predCol]
		switch {
		case !utf8.ValidString(id) || !utf8.ValidString(resp):
			return fmt.Errorf("%s:%d: the row is not UTF-8 text", name, line)
		case id == "":
			return fmt.Errorf("%s:%d: the row has no id", name, line)
		}
		p := predRow{id: id, response: resp, index: -1, line: line}
		if indexCol >= 0 {
			p.index = rowIndex(row[indexCol])
		}
		add(p)
	}
}

// rowIndex reads VLMEvalKit's row index: a whole number from 0, written as an
// integer (or as a float such as 1000002.0, as pandas may write it); -1 for
// anything else, which a plain run ignores as before and a circular one refuses
// as a row without an index (foldCircular).
func rowIndex(s string) int64 {
	s = strings.TrimSpace(s)
	if v, err := strconv.ParseInt(s, 10, 64); err == nil && v >= 0 {
		return v
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 0 && f < 1<<53 && f == float64(int64(f)) {
		return int64(f)
	}
	return -1
}

// tsvError names the file and line of a TSV reading error.
func tsvError(name string, err error) error {
	var pe *csv.ParseError
	switch {
	case errors.As(err, &pe) && !errors.Is(err, errLongLine):
		return fmt.Errorf("%s:%d: %v", name, pe.Line, pe.Err)
	case errors.Is(err, errLongLine):
		return fmt.Errorf("%s has a line longer than %d MiB", name, maxPredictionTSVLine>>20)
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%s: the file is empty", name)
	}
	return fmt.Errorf("%s: %v", name, err)
}

// lineCapped reads r and fails with errLongLine once a line runs past max bytes
// without a line break (the CSV reader would hold the whole line).
type lineCapped struct {
	r        io.Reader
	max, run int // run: bytes since the last '\n'
}

func (l *lineCapped) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for _, b := range p[:n] {
		if b == '\n' {
			l.run = 0
		} else if l.run++; l.run > l.max {
			return n, errLongLine
		}
	}
	return n, err
}

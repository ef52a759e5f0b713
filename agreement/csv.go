package agreement

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// IsMissing reports whether a CSV cell marks a missing value: empty, "*" or
// "." (surrounding spaces ignored).
func IsMissing(cell string) bool {
	switch strings.TrimSpace(cell) {
	case "", "*", ".":
		return true
	}
	return false
}

// ReadCSV reads reliability data in Krippendorff's layout: one row per coder,
// one column per unit, no header row. Cells are trimmed of spaces; a cell
// that [IsMissing] is a missing value. With names, the first column holds
// the coder names, which must be non-empty and distinct; they are returned in
// row order (nil without names). Rows may be ragged: a short row is missing
// its trailing units. Blank lines are skipped.
//
// Errors name the line (and column) at fault, a cell that is not UTF-8 included. Input without any row is an
// error. Values are not checked against a level here: [Alpha] does that and
// names the line and field of an offending value.
func ReadCSV(r io.Reader, names bool) (*Data, []string, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	var (
		rows   [][]string
		lines  []int // line of each row
		coders []string
		seen   = make(map[string]int) // coder name -> line
	)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("read csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		for i, cell := range rec {
			if !utf8.ValidString(cell) {
				l, _ := cr.FieldPos(i)
				return nil, nil, fmt.Errorf("read csv: line %d, column %d: the cell is not UTF-8; save the file as UTF-8", l, i+1)
			}
		}
		if names {
			name := strings.TrimSpace(rec[0])
			if name == "" {
				return nil, nil, fmt.Errorf("read csv: line %d, column 1: empty coder name", line)
			}
			if prev, ok := seen[name]; ok {
				return nil, nil, fmt.Errorf("read csv: line %d, column 1: coder %s already named on line %d", line, quote(name), prev)
			}
			seen[name] = line
			coders = append(coders, name)
			rec = rec[1:]
		}
		rows = append(rows, rec)
		lines = append(lines, line)
	}
	if len(rows) == 0 {
		return nil, nil, errors.New("read csv: no rows: expected one row per coder")
	}

	offset := 1 // 1-based field number of unit 0
	if names {
		offset = 2
	}
	d := fromRows(rows, func(s string) (string, bool) { return strings.TrimSpace(s), !IsMissing(s) },
		func(coder, unit int) string { return fmt.Sprintf("line %d, field %d", lines[coder], unit+offset) })
	return d, coders, nil
}

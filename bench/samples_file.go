package bench

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// sampleCSVHeader is the CSV header of WriteSamples. Ids stay ids here (criteria,
// kinds, states): the file is for scripts and spreadsheets.
var sampleCSVHeader = []string{"id", "kind", "state", "author", "image", "question", "options", "answer",
	"hop", "view", "categories", "task", "split", "revision", "reject_reasons", "created_at", "updated_at"}

// WriteSamples writes rows as ExportSamples hands them out: FormatJSONL, one
// native record (annotate's JSON of the content) per line, or FormatCSV, a
// header and one row per sample (options as a JSON array, an index answer as its
// index, hop empty for none, reasons space-separated). Another format is an error.
func WriteSamples(w io.Writer, rows []SampleRow, format SampleFormat) error {
	switch format {
	case FormatJSONL:
		bw := bufio.NewWriter(w)
		for _, r := range rows {
			b, err := json.Marshal(r.Content)
			if err != nil {
				return err
			}
			bw.Write(b)
			bw.WriteByte('\n')
		}
		return bw.Flush()
	case FormatCSV:
	default:
		return fmt.Errorf("unknown format %q (csv or jsonl)", format)
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(sampleCSVHeader); err != nil {
		return err
	}
	for _, r := range rows {
		c := r.Content
		opts, _ := json.Marshal(c.Options)
		if c.Options == nil {
			opts = nil
		}
		answer := c.AnswerText
		if c.Kind.IndexAnswer() {
			answer = strconv.Itoa(c.AnswerIndex)
		}
		hop := ""
		if c.Hop != 0 {
			hop = strconv.Itoa(c.Hop)
		}
		if err := cw.Write([]string{r.ID, string(r.Kind), string(r.Status), r.AuthorName, r.ImagePath, c.Question, string(opts),
			answer, hop, string(c.View), r.Categories, c.Task, c.Split, strconv.Itoa(r.Revision), strings.Join(r.Reasons, " "),
			r.CreatedAt, r.UpdatedAt}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

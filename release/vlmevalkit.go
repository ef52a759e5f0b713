package release

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/benchwright/benchwright/annotate"
)

// vlmEvalKit is one VLMEvalKit TSV with the images embedded as base64.
type vlmEvalKit struct{}

func (vlmEvalKit) Name() string { return "vlmevalkit" }

// Holds takes every kind.
func (vlmEvalKit) Holds(annotate.Sample) bool { return true }

func (vlmEvalKit) Layout() string {
	return "One TSV; the image column holds the base64 of the image, or for a repeated image the index of the row that holds it"
}

func (vlmEvalKit) Write(_ context.Context, w *Writer, recs []Record) error {
	options := 0
	for _, r := range recs {
		if r.Sample.Kind.IndexAnswer() {
			options = max(options, len(r.Sample.Options))
		}
	}
	header := []string{"index", "image", "question"}
	for i := range options {
		header = append(header, annotate.AnswerLetter(i))
	}
	header = append(header, "answer", "category", "hop", "view", "bbox", "bbox_1000", "kind", "split", "id")
	return w.WriteFile(tsvName(w.Info()), func(out io.Writer) error {
		cw := csv.NewWriter(out)
		cw.Comma = '\t'
		if err := cw.Write(header); err != nil {
			return err
		}
		firstRow := map[string]int{} // project image → index of the row holding its base64
		for i, r := range recs {
			s := r.Sample
			var image string
			if j, ok := firstRow[s.Image]; ok {
				image = strconv.Itoa(j)
			} else {
				b, err := w.ReadImage(r)
				if err != nil {
					return err
				}
				image = base64.StdEncoding.EncodeToString(b)
				firstRow[s.Image] = i
			}
			answer, err := answerString(s)
			if err != nil {
				return fmt.Errorf("sample %s: %w", s.ID, err)
			}
			row := []string{strconv.Itoa(i), image, s.Question}
			for j := range options {
				opt := ""
				if s.Kind.IndexAnswer() && j < len(s.Options) {
					opt = s.Options[j]
				}
				row = append(row, opt)
			}
			category := s.Task
			if category == "" && s.Kind == annotate.KindHopQA {
				category = joinCategories(s.Categories, "+")
			}
			hop, b1000 := "", ""
			if s.Hop != 0 {
				hop = strconv.Itoa(s.Hop)
			}
			if s.Box != nil && r.Width > 0 && r.Height > 0 {
				v := s.Box.To1000(r.Width, r.Height)
				b1000 = boxText(&v)
			}
			row = append(row, answer, cmp.Or(category, string(s.Kind)), hop, string(s.View), boxText(s.Box), b1000,
				string(s.Kind), s.Split, s.ID)
			if err := cw.Write(row); err != nil {
				return err
			}
			if err := w.Step(); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	})
}

// joinCategories joins category names with sep.
func joinCategories(cats []annotate.Category, sep string) string {
	s := make([]string, len(cats))
	for i, c := range cats {
		s[i] = string(c)
	}
	return strings.Join(s, sep)
}

// tsvName is the VLMEvalKit file: the release name, which the toolkit takes as the
// dataset name.
func tsvName(info ExportInfo) string {
	var b strings.Builder
	for _, r := range info.Release.Name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return cmp.Or(strings.Trim(b.String(), "."), "benchmark") + ".tsv"
}

// boxText is a box as compact JSON, "" without one.
func boxText[T any](b *T) string {
	if b == nil {
		return ""
	}
	out, _ := marshalPlain(*b)
	return string(out)
}

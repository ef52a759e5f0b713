package score

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of what a model's run may hold: the length of its name, of one
// response (reasoning traces run to a few hundred kilobytes) and the cells of
// one step match matrix.
const (
	MaxModelNameLen     = 128     // characters
	MaxResponseBytes    = 1 << 20 // bytes of one response
	MaxStepMatchEntries = 1 << 16 // cells of one step match matrix
)

// CheckModelName checks a model's name: 1–128 characters of UTF-8 text without
// control characters or spaces at its ends. Slashes, dots and the like are
// allowed: "Qwen/Qwen2.5-VL-7B-Instruct" is a name. Its error is the sentence
// saying why.
func CheckModelName(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("the model name is empty")
	case !utf8.ValidString(s):
		return fmt.Errorf("the model name is not UTF-8 text")
	case utf8.RuneCountInString(s) > MaxModelNameLen:
		return fmt.Errorf("the model name is longer than %d characters", MaxModelNameLen)
	case strings.TrimSpace(s) != s:
		return fmt.Errorf("the model name %q starts or ends with a space", s)
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return fmt.Errorf("the model name %q holds a control character", s)
	}
	return nil
}

// CheckPrediction refuses a prediction that cannot be kept as it is: a
// response (or a circular copy's) that is not UTF-8 text or is longer than
// MaxResponseBytes, or a step match matrix of more than MaxStepMatchEntries
// cells. Its error is the sentence saying why.
func CheckPrediction(p Prediction) error {
	switch {
	case !utf8.ValidString(p.Response):
		return fmt.Errorf("the response to %s is not UTF-8 text", p.SampleID)
	case len(p.Response) > MaxResponseBytes:
		return fmt.Errorf("the response to %s is longer than %d MiB", p.SampleID, MaxResponseBytes>>20)
	}
	for k, c := range p.Copies {
		switch {
		case !utf8.ValidString(c):
			return fmt.Errorf("the response to copy %d of %s is not UTF-8 text", k+1, p.SampleID)
		case len(c) > MaxResponseBytes:
			return fmt.Errorf("the response to copy %d of %s is longer than %d MiB", k+1, p.SampleID, MaxResponseBytes>>20)
		}
	}
	n := 0
	for _, row := range p.StepMatch {
		n += len(row)
	}
	if n > MaxStepMatchEntries {
		return fmt.Errorf("the step match matrix of %s has more than %d entries", p.SampleID, MaxStepMatchEntries)
	}
	return nil
}

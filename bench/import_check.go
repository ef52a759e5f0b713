package bench

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// What an import checks of its records before it writes them (ImportSamples,
// ImportBatch): the lint against the project's image sizes, and for a generated
// batch the integrity audit of its records. The store reads the project's images,
// ids and questions, hashes the image files and writes what passes.

// CheckIDTaken is the import audit's finding for a record whose id a sample or
// another batch's item already has.
const CheckIDTaken = "id-taken"

// Dimensions is an image's displayed size (width, height) as the project holds it.
type Dimensions struct{ W, H int }

// UsedSize is an image size a record's lint relied on: the project's image at
// Path had Size, or was not the project's (Known false). The store checks, when
// it writes, that this still holds.
type UsedSize struct {
	Path  string
	Size  Dimensions
	Known bool
}

// RecordCheck is what linting one record found: the rule ids of its errors (each
// once) with their messages ("rule (field): message"), the rule ids of its
// warnings (each once), and the image sizes the lint used.
type RecordCheck struct {
	Errs, Msgs, Warns []string
	Used              []UsedSize
}

// CheckRecord lints a converted record (not hand-written here) against the
// project's image sizes, by relative path, and its image limits.
func CheckRecord(s annotate.Sample, sizes map[string]Dimensions, limits []annotate.ImageLimit) RecordCheck {
	var c RecordCheck
	env := annotate.LintEnv{HandWritten: false, // converted from another benchmark, not written here
		ImageSize: func(path string) (int, int, bool) {
			size, known := sizes[path]
			c.Used = append(c.Used, UsedSize{path, size, known})
			return size.W, size.H, known
		}, ImageLimits: limits}
	for _, f := range annotate.Lint(s, env) {
		if f.Severity == annotate.SeverityError {
			if !slices.Contains(c.Errs, f.Rule) {
				c.Errs = append(c.Errs, f.Rule)
			}
			c.Msgs = append(c.Msgs, fmt.Sprintf("%s (%s): %s", f.Rule, f.Field, f.Message))
		} else if !slices.Contains(c.Warns, f.Rule) {
			c.Warns = append(c.Warns, f.Rule)
		}
	}
	return c
}

// BatchAudit is the integrity audit of a generated set's records as a batch is
// imported (ImportBatch), in three steps around the store's reads: NewBatchAudit
// checks each record alone (an id, free and not repeated in the file; the lint;
// its image is the project's), CheckHashes compares the image files' hashes with
// the imported ones, and CheckDuplicates finds records asking the same question
// about an image as another record or a sample of the project. A record with a
// finding is left out (LeftOut); the findings are by line.
type BatchAudit struct {
	in       ImportBatchInput
	findings []AuditFinding
	lines    []int        // of each finding
	bad      map[int]bool // left out, by index into in.Records
	// Checks is each record's lint (zero for a record left out before it).
	Checks []RecordCheck
	// Used is the project's images the records not left out name, by relative
	// path: the files CheckHashes wants the hashes of.
	Used map[string]Image
}

// NewBatchAudit checks each record of in alone: taken holds the ids of the
// project's samples and of every batch's items, sizes and images the project's
// images by relative path. A cancelled ctx stops it.
func NewBatchAudit(ctx context.Context, in ImportBatchInput, taken map[string]bool, sizes map[string]Dimensions, images map[string]Image) (*BatchAudit, error) {
	a := &BatchAudit{in: in, bad: map[int]bool{}, Checks: make([]RecordCheck, len(in.Records)), Used: map[string]Image{}}
	seen := map[string]int{}
	for i, rec := range in.Records {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("cancelled after checking %d of %d records: %w", i, len(in.Records), err)
		}
		s := rec.Sample
		switch {
		case s.ID == "":
			a.add(i, CheckLint, "", "the record has no id; a generated item needs one")
			continue
		case taken[s.ID]:
			a.add(i, CheckIDTaken, "", "a sample or batch item with id %q exists already", s.ID)
			continue
		}
		if j, dup := seen[s.ID]; dup {
			a.add(i, CheckIDTaken, "", "id %q is also the record's at line %d", s.ID, in.Records[j].Line)
			continue
		}
		seen[s.ID] = i
		a.Checks[i] = CheckRecord(s, sizes, nil)
		for _, m := range a.Checks[i].Msgs {
			a.add(i, CheckLint, "", "%s", m)
		}
		if im, ok := images[s.Image]; ok {
			a.Used[s.Image] = im
		} else if s.Image != "" {
			a.add(i, CheckImageMissing, s.Image, "image %s is not in the project", s.Image)
		}
	}
	return a, nil
}

// add records a finding of record i and leaves it out.
func (a *BatchAudit) add(i int, check, image, format string, args ...any) {
	a.bad[i] = true
	line := a.in.Records[i].Line
	a.findings = append(a.findings, AuditFinding{Severity: SeverityError, Check: check, SampleID: a.in.Records[i].Sample.ID,
		Image: image, Message: fmt.Sprintf("line %d: ", line) + fmt.Sprintf(format, args...)})
	a.lines = append(a.lines, line)
}

// CheckHashes leaves out the records whose image file is missing or changed since
// it was imported: hashes are the files' as they are now, by relative path.
func (a *BatchAudit) CheckHashes(hashes map[string]ImageCheck) {
	for i, rec := range a.in.Records {
		im, ok := a.Used[rec.Sample.Image]
		if !ok || a.bad[i] {
			continue
		}
		switch h := hashes[rec.Sample.Image]; {
		case h.Missing:
			a.add(i, CheckImageMissing, im.RelPath, "image file %s is missing", im.Path())
		case h.SHA256 != im.SHA256:
			a.add(i, CheckImageHash, im.RelPath, "image file %s changed since import: sha256 %s…, imported %s…", im.Path(), h.SHA256[:min(12, len(h.SHA256))], im.SHA256[:min(12, len(im.SHA256))])
		}
	}
}

// CheckDuplicates leaves out the records that ask the same question about one
// image as another: of a group, each record but the first; with a sample of the
// project (existing: the project's samples not withdrawn) in the group, every
// record.
func (a *BatchAudit) CheckDuplicates(existing []annotate.Sample) {
	all := slices.Clone(existing)
	index := map[string]int{}
	for i, rec := range a.in.Records {
		if !a.bad[i] {
			index[rec.Sample.ID] = i
			all = append(all, rec.Sample)
		}
	}
	for _, ids := range annotate.DuplicateQuestions(all) {
		keep := slices.ContainsFunc(ids, func(id string) bool { _, rec := index[id]; return !rec })
		for _, id := range ids {
			i, rec := index[id]
			if !rec {
				continue
			}
			if !keep {
				keep = true
				continue
			}
			others := slices.DeleteFunc(slices.Clone(ids), func(x string) bool { return x == id })
			a.add(i, CheckDuplicate, a.in.Records[i].Sample.Image, "the same question as %s on image %s", strings.Join(others, ", "), a.in.Records[i].Sample.Image)
		}
	}
}

// LeftOut reports whether record i (an index into the input's records) has a
// finding.
func (a *BatchAudit) LeftOut(i int) bool { return a.bad[i] }

// Findings is every finding so far, by line (in the order found within a line).
func (a *BatchAudit) Findings() []AuditFinding {
	if len(a.findings) == 0 {
		return nil // as the batch stores them: null
	}
	type f struct {
		AuditFinding
		line int
	}
	fs := make([]f, len(a.findings))
	for i := range a.findings {
		fs[i] = f{a.findings[i], a.lines[i]}
	}
	slices.SortStableFunc(fs, func(x, y f) int { return cmp.Compare(x.line, y.line) })
	out := make([]AuditFinding, len(fs))
	for i := range fs {
		out[i] = fs[i].AuditFinding
	}
	return out
}
